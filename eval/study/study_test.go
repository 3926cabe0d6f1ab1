package study

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/ingest/corpus"
	"github.com/paperlens/paperlens/retrieve/index"
)

// openIndex brings a home's indexes up to date and reopens them for
// reading, as the command does.
func openIndex(home string) func(ctx context.Context) (*corpus.Store, *index.Index, error) {
	return func(ctx context.Context) (*corpus.Store, *index.Index, error) {
		st, err := corpus.Open(home, false)
		if err != nil {
			return nil, nil, err
		}
		ix, err := index.Open(ctx, index.Config{Home: home}, st)
		if err != nil {
			st.Close()
			return nil, nil, err
		}
		if _, err := ix.Update(ctx, nil); err != nil {
			ix.Close()
			st.Close()
			return nil, nil, err
		}
		return st, ix, nil
	}
}

// The whole study runs in process: papers ingested, retrieval scored
// against the sample's gold evidence, each model evaluated in order, its
// summary in the report; a dry run's plan is kept, and a failing model
// stops the study, named, keeping what finished before it.
func TestStudyInProcess(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	runs := t.TempDir()
	var asked []string
	evaluate := func(_ context.Context, m string) (run.Result, *run.Plan, error) {
		asked = append(asked, m)
		switch m {
		case "planned":
			return run.Result{}, &run.Plan{Calls: 7}, nil
		case "broken":
			return run.Result{}, nil, errors.New("endpoint refused the key")
		}
		dir := Folder(runs, m, "base")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return run.Result{}, nil, err
		}
		// The summary as a finished run writes it, through the run
		// folder's owner.
		if err := run.Dir(dir).WriteSummary(run.Summary{Model: m}); err != nil {
			return run.Result{}, nil, err
		}
		return run.Result{Dir: dir}, nil, nil
	}
	var out bytes.Buffer
	cfg := Config{
		Papers:    Papers{Home: home, Data: sample, Dir: "../../testdata/papers"},
		Bench:     "elaipbench",
		Models:    []string{"vendor/model:a", "planned", "random"},
		OpenIndex: openIndex(home),
		Evaluate:  evaluate,
		Out:       &out,
	}
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
	if got := strings.Join(asked, ","); got != "vendor/model:a,planned,random" {
		t.Errorf("models evaluated as %s", got)
	}
	if len(res.Models) != 3 || res.Models[1].Plan == nil || res.Models[1].Plan.Calls != 7 {
		t.Errorf("models: %+v", res.Models)
	}
	wantDirs := []string{filepath.Join(runs, "study-vendor_model_a-base"), filepath.Join(runs, "study-random-base")}
	if got := res.Dirs(); strings.Join(got, "|") != strings.Join(wantDirs, "|") {
		t.Errorf("run folders %v, want %v", got, wantDirs)
	}
	for _, want := range []string{"# Retrieval: evidence recall", "recall@5", "vendor/model:a", "(run folder " + wantDirs[1] + ")"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}

	cfg.Models = []string{"random", "broken", "never"}
	asked = nil
	res, err = Run(context.Background(), cfg, loadSample(t))
	if err == nil || !strings.Contains(err.Error(), "model broken: endpoint refused the key") {
		t.Fatalf("a failing model: %v", err)
	}
	if strings.Join(asked, ",") != "random,broken" || len(res.Models) != 1 {
		t.Errorf("after a failure: asked %v, kept %+v", asked, res.Models)
	}
}
