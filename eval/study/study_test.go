package study

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

const sample = "../../testdata/elaipbench/sample.jsonl"

func loadSample(t *testing.T) []bench.Question {
	t.Helper()
	qs, _, err := bench.LoadElaipBench(sample)
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

// evalRequest is an evaluation of the sample in two modes, once, at
// baseURL with no key in its environment.
func evalRequest(home, baseURL string) session.Request {
	return session.Request{
		Config: run.Config{Bench: "elaipbench", Data: sample, Papers: "../../testdata/papers", Home: home,
			BaseURL: baseURL, APIKeyEnv: "OPENAI_API_KEY", Modes: []string{"closed-book", "full"}, Runs: 1},
		Clients: session.Clients{MaxAttempts: 2, AttemptTimeout: time.Minute},
		Env:     map[string]string{"OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""},
	}
}

// The whole study runs in process: papers ingested, retrieval scored
// against the sample's gold evidence, each model evaluated in order, its
// summary in the report; a dry run's plan is kept, and a failing model
// stops the study, named, keeping what finished before it.
func TestStudyInProcess(t *testing.T) {
	t.Parallel()
	home, runs := t.TempDir(), t.TempDir()
	srv := modeltest.NewServer(t, modeltest.Config{Answer: func(modeltest.Request) (string, string) { return "A", "" }})
	var out bytes.Buffer
	cfg := Config{Eval: evalRequest(home, srv.BaseURL()), OutRoot: runs, Models: []string{"vendor/model:a", "random"}, Out: &out}
	qs := loadSample(t)
	res, err := Run(context.Background(), cfg, qs)
	if err != nil {
		t.Fatal(err)
	}
	if res.Questions != len(qs) {
		t.Errorf("%d questions kept, want %d", res.Questions, len(qs))
	}
	if res.Retrieval == nil || res.Retrieval.N+res.Retrieval.NoGold != len(qs) || len(res.Retrieval.Retrievers) == 0 {
		t.Fatalf("retrieval not scored over the sample: %+v", res.Retrieval)
	}
	wantDirs := []string{filepath.Join(runs, "study-vendor_model_a-base"), filepath.Join(runs, "study-random-base")}
	if got := res.Dirs(); strings.Join(got, "|") != strings.Join(wantDirs, "|") {
		t.Errorf("run folders %v, want %v", got, wantDirs)
	}
	for i, m := range res.Models {
		if s, err := run.Dir(wantDirs[i]).ReadSummary(); err != nil || s.Model != m.Name || m.Run.Summary.ByMode["full"].N != len(qs) {
			t.Errorf("model %s: summary %+v, %v", m.Name, s.Model, err)
		}
	}
	for _, want := range []string{"# Retrieval: evidence recall", "recall@5", "vendor/model:a", "(run folder " + wantDirs[1] + ")"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}

	// A dry run plans every model and makes no run folder.
	out.Reset()
	cfg.Eval.DryRun, cfg.Models, cfg.OutRoot = true, []string{"planned"}, t.TempDir()
	res, err = Run(context.Background(), cfg, loadSample(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Models) != 1 || res.Models[0].Plan == nil || res.Models[0].Plan.Calls != 2*len(qs) || len(res.Dirs()) != 0 {
		t.Errorf("dry run: models %+v, folders %v", res.Models, res.Dirs())
	}
	if !strings.Contains(out.String(), "## planned\n\nDry run: nothing sent.") {
		t.Errorf("the plan is not in the report:\n%s", out.String())
	}

	// A model without a key for OpenAI's API fails before any call; the
	// one before it is kept, the one after never asked.
	cfg.Eval.DryRun, cfg.Eval.Config.BaseURL = false, ""
	cfg.Models = []string{"random", "broken", "never"}
	res, err = Run(context.Background(), cfg, loadSample(t))
	if err == nil || !strings.Contains(err.Error(), "model broken: $OPENAI_API_KEY is empty") {
		t.Fatalf("a failing model: %v", err)
	}
	if len(res.Models) != 1 || res.Models[0].Name != "random" {
		t.Errorf("after a failure: kept %+v", res.Models)
	}
}
