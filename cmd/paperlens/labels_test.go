package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// eval --labels and report --labels through the command line: a
// reasoning model that reaches the gold answer and verifies it away on
// one question; the labels join by id and by text hash, the row that
// matches nothing is reported with its file and line, the records carry
// the labels and the harmful verification, and the report (over another
// labels file) shows the rate and the reasoning length by the new field.
func TestEvalAndReportLabels(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.Config{Answer: func(r modeltest.Request) (string, string) {
		if strings.Contains(r.Prompt(), "first") {
			return "Answer: A", "The table favours the first option, so the answer is A."
		}
		return "Answer: B", "So the answer is A. Wait, let me double-check that against the appendix... I'll go with B."
	}})
	dir := t.TempDir()
	data := filepath.Join(dir, "q.jsonl")
	texts := []string{"Which row is first?\nA. one\nB. two", "Which row is last?\nA. one\nB. two"}
	var rows []string
	for i, text := range texts {
		b, _ := json.Marshal(map[string]string{"id": []string{"f", "l"}[i], "question": text, "answer": "A"})
		rows = append(rows, string(b))
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(data, []byte(strings.Join(rows, "\n")+"\n"), 0o644))
	labels := filepath.Join(dir, "labels.csv")
	must(os.WriteFile(labels, []byte("question_id,question_sha256,difficulty\nf,,easy\n,"+run.QuestionSHA256(texts[1])+",hard\nnone,,hard\n"), 0o644))
	out := filepath.Join(dir, "run")
	_, stderr, code := paperlens(t, "eval", "--bench", "jsonl", "--data", data, "--model", "thinker", "--base-url", srv.BaseURL(),
		"--paradigm", "reasoning", "--mode", "closed-book", "--runs", "1", "--out", out, "--home", t.TempDir(), "--labels", labels, "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, labels+":line 4: matches no question (question_id \"none\")") {
		t.Errorf("stderr lacks the unmatched row:\n%s", stderr)
	}
	recs, err := run.ReadResults(filepath.Join(out, run.ResultsFile))
	must(err)
	for _, r := range recs {
		want := map[string]string{"f": "easy", "l": "hard"}[r.QuestionID]
		if r.Breakdown["difficulty"] != want || r.HarmfulVerification != (r.QuestionID == "l") {
			t.Errorf("%s: breakdown %v, harmful %v, along %q", r.QuestionID, r.Breakdown, r.HarmfulVerification, r.ReasoningAnswers)
		}
	}
	s := readSummary(t, out)
	if h := s.ByMode["closed-book"].HarmfulVerification; h == nil || h.Harmful != 1 || h.Wrong != 1 || h.Records != 2 {
		t.Errorf("summary harmful_verification %+v", h)
	}
	if a := s.ByMode["closed-book"].ByBreakdown["difficulty"]; a["easy"].Accuracy != 1 || a["hard"].Accuracy != 0 {
		t.Errorf("by difficulty %+v", a)
	}
	cfg, err := run.Dir(out).ReadConfig()
	if err != nil || cfg.Labels != labels {
		t.Errorf("config.json labels %q, want %q (%v)", cfg.Labels, labels, err)
	}

	// report --labels: another field, joined afresh.
	other := filepath.Join(dir, "discipline.jsonl")
	must(os.WriteFile(other, []byte(`{"question_id": "f", "discipline": "NLP"}`+"\n"+`{"question": "which row is LAST? a. one b. two", "discipline": "CV"}`+"\n"+`{"question_id": "gone", "discipline": "ML"}`+"\n"), 0o644))
	stdout, stderr, code := paperlens(t, "report", out, "--labels", other)
	if code != 0 {
		t.Fatalf("report: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"### by discipline", "### by difficulty", "Harmful verification", "| thinker | reasoning | closed-book | 1 of 1 wrong (100.0%) | 1 of 2 records (50.0%) |"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if !strings.Contains(stderr, other+" line 3: matches no question (question_id \"gone\")") {
		t.Errorf("report stderr lacks the unmatched row:\n%s", stderr)
	}
}
