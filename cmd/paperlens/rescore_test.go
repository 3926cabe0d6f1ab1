package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// rescore of a run the current rules made gives back the very summary the
// eval wrote, leaves the records alone and exits 0; --json says so.
func TestRescoreUnchangedRun(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "run")
	wireEval(t, t.TempDir(), dir, "--mode", "closed-book,bm25")
	summary, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
	results, _ := os.ReadFile(filepath.Join(dir, run.ResultsFile))
	n := len(wireRecords(t, dir))

	out, errOut, code := paperlens(t, "rescore", dir)
	if code != 0 {
		t.Fatalf("rescore: exit %d\n%s", code, errOut)
	}
	if md, _ := os.ReadFile(filepath.Join(dir, "summary.md")); out != string(md) {
		t.Errorf("rescore printed\n%s\nwant summary.md\n%s", out, md)
	}
	if want := "records rescored, 0 changed, 0 re-judged"; !strings.Contains(errOut, want) {
		t.Errorf("rescore's last line: %q, want %q", errOut, want)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "summary.json")); !bytes.Equal(b, summary) {
		t.Errorf("summary.json changed:\n%s\nwant\n%s", b, summary)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, run.ResultsFile)); !bytes.Equal(b, results) {
		t.Error("results.jsonl was rewritten, though no record changed")
	}

	out, errOut, code = paperlens(t, "rescore", dir, "--json")
	var res run.RescoreResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 {
		t.Fatalf("rescore --json: exit %d, %v\n%s\n%s", code, err, out, errOut)
	}
	if res.Records != n || res.Rescored != n || res.Failed != 0 || res.Changes == nil || len(res.Changes) != 0 || res.Summary.Questions == 0 {
		t.Errorf("rescore --json: %+v; want %d records, all rescored, none changed", res, n)
	}
	if !strings.Contains(out, `"rejudged": 0`) {
		t.Errorf("rescore --json lacks its fixed names:\n%s", out)
	}

	if _, errOut, code = paperlens(t, "rescore", dir, "--judge-model", "j", "--judge-header", "no colon"); code != 2 || !strings.Contains(errOut, "--judge-header") {
		t.Errorf("malformed --judge-header: exit %d, %q; want 2 naming the flag", code, errOut)
	}
	if _, errOut, code = paperlens(t, "rescore", filepath.Join(t.TempDir(), "none")); code != 2 || !strings.Contains(errOut, "config.json") {
		t.Errorf("no run folder: exit %d, %q; want 2 naming config.json", code, errOut)
	}
}

// A judge call that fails leaves the record's score and makes rescore
// exit 1, saying to run it again.
func TestRescoreJudgeFailsExitOne(t *testing.T) {
	t.Parallel()
	data := filepath.Join("..", "..", "testdata", "lpfqa", "sample.json")
	srv := modeltest.NewServer(t, modeltest.Config{
		Answer: func(r modeltest.Request) (string, string) {
			if strings.HasPrefix(r.Model, "judge") {
				return `{"answer_score": 1}`, ""
			}
			return "The answer is 42.", ""
		},
		// The new judge answers its preflight, then fails every question.
		Inject: func(r modeltest.Request) *modeltest.Fault {
			if r.Model == "judge-down" && strings.Contains(r.Prompt(), "42") {
				return &modeltest.Fault{Kind: modeltest.Status, Status: 400, Body: `{"error":{"message":"judge is down"}}`}
			}
			return nil
		},
	})
	dir := filepath.Join(t.TempDir(), "run")
	env := cli{env: []string{"OPENAI_API_KEY=", "OPENAI_BASE_URL="}}
	if _, errOut, code := env.run(t, "eval", "--bench", "lpfqa", "--data", data, "--home", t.TempDir(), "--model", "answerer", "--base-url", srv.BaseURL(),
		"--judge-model", "judge-a", "--runs", "1", "--out", dir); code != 0 {
		t.Fatalf("eval: exit %d\n%s", code, errOut)
	}
	before := wireRecords(t, dir)
	_, errOut, code := env.run(t, "rescore", dir, "--judge-model", "judge-down", "--max-attempts", "1")
	if code != 1 || !strings.Contains(errOut, "judge calls failed") || !strings.Contains(errOut, "rescore again") {
		t.Errorf("rescore with a failing judge: exit %d, %q; want 1 saying the judge calls failed", code, errOut)
	}
	after := wireRecords(t, dir)
	for i, r := range before {
		if i >= len(after) || r.Score == nil || after[i].Score == nil || *after[i].Score != *r.Score || after[i].Correct != r.Correct {
			t.Errorf("record %s lost its earlier score after a failed judge call", r.QuestionID)
		}
	}
}
