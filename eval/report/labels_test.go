package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/model"
)

// labelledFolders writes an ElaipBench dataset without difficulty or
// discipline, and two run folders over it as eval writes them (records,
// config.json, summary.json by run.Summarize): DeepSeek-V3 base, and
// DeepSeek-R1 reasoning with reasoning text. It returns the folders and
// the questions.
func labelledFolders(t *testing.T) (dirs []string, qs []bench.Question) {
	t.Helper()
	root := t.TempDir()
	data := filepath.Join(root, "elaip.jsonl")
	var rows bytes.Buffer
	for i := range 4 {
		b, _ := json.Marshal(map[string]string{"paper_id": "p1", "question_type": "SA-MCQ", "answer": "A",
			"question": fmt.Sprintf("Which holds for claim %d?\nA. first\nB. second\nC. third\nD. fourth", i)})
		rows.Write(append(b, '\n'))
	}
	if err := os.WriteFile(data, rows.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	qs, _, err := bench.LoadElaipBench(data)
	if err != nil || len(qs) != 4 {
		t.Fatalf("%d questions: %v", len(qs), err)
	}
	for _, f := range []struct{ name, model, paradigm string }{{"v3", "DeepSeek-V3", "base"}, {"r1", "DeepSeek-R1", "reasoning"}} {
		dir := filepath.Join(root, f.name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		cfg := run.Config{Bench: "elaipbench", Data: data, Model: f.model, Paradigm: f.paradigm, Modes: []string{"full"}, Runs: 1}
		b, _ := json.Marshal(cfg)
		if err := os.WriteFile(filepath.Join(dir, "config.json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		var recs []run.Record
		var lines bytes.Buffer
		for i, q := range qs {
			r := rec(q.ID, "full", 1, i < 2, model.Usage{CompletionTokens: 10})
			r.QuestionType, r.Gold, r.Model, r.Paradigm = "SA-MCQ", "A", f.model, f.paradigm
			if f.paradigm == "reasoning" {
				r.Reasoning = strings.Repeat("think ", 10*(i+1))
				r.Usage.ReasoningTokens = 100 * (i + 1)
			}
			recs = append(recs, r)
			b, _ := json.Marshal(r)
			lines.Write(append(b, '\n'))
		}
		if err := os.WriteFile(filepath.Join(dir, run.ResultsFile), lines.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := run.WriteSummary(dir, run.Summarize(cfg, qs, recs)); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	return dirs, qs
}

// report --labels joins a labels file to runs made without it, by id and
// by the hash of the question's text: the records carry the labels, the
// summaries are computed again, the reasoning run gets its reasoning
// length by difficulty table, the base run's published comparison gains
// Table 2's difficulty and discipline columns, and the one row no run
// matches is reported with its line.
func TestReportLabels(t *testing.T) {
	dirs, qs := labelledFolders(t)
	labels := filepath.Join(t.TempDir(), "labels.csv")
	body := "question_id,question_sha256,difficulty,discipline\n" +
		qs[0].ID + ",,Easy,NLP\n" +
		qs[1].ID + ",,Easy,NLP\n" +
		"," + run.QuestionSHA256(qs[2].Text) + ",Hard,CV\n" +
		"," + run.QuestionSHA256(strings.ToUpper(qs[3].Text)) + ",Hard,CV\n" +
		"eb-nothing,,Moderate,ML\n"
	if err := os.WriteFile(labels, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	before, err := Load(dirs...)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	runs, err := LoadWith(Options{Labels: labels, Log: &log}, dirs...)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		for i, rec := range r.Records {
			if want := []string{"Easy", "Easy", "Hard", "Hard"}[i]; rec.Breakdown["difficulty"] != want {
				t.Errorf("%s %s: breakdown %v, want difficulty %s", r.Summary.Model, rec.QuestionID, rec.Breakdown, want)
			}
		}
		a := r.Summary.ByMode["full"].ByBreakdown["difficulty"]
		if !r.Recomputed || a["Easy"].N != 2 || a["Easy"].Accuracy != 1 || a["Hard"].N != 2 || a["Hard"].Accuracy != 0 {
			t.Errorf("%s: recomputed %v, by difficulty %+v", r.Summary.Model, r.Recomputed, a)
		}
	}
	if got := log.String(); strings.Count(got, "matches no question") != 1 || !strings.Contains(got, labels+" line 6: matches no question") {
		t.Errorf("log:\n%s", got)
	}

	// Reasoning length by difficulty, for the reasoning run.
	var md bytes.Buffer
	if err := Markdown(&md, runs); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"### by difficulty", "| model | mode | Easy | Hard |", "| DeepSeek-R1 | full | 150 tok · 90 chars (n=2) | 350 tok · 210 chars (n=2) |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	var mdBefore bytes.Buffer
	if err := Markdown(&mdBefore, before); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(mdBefore.String(), "### by difficulty") {
		t.Error("a by-difficulty table without labels")
	}

	// Table 2's difficulty and discipline columns, measured.
	cmp := ComparePublished(runs[:1], PaperOptions{})
	if len(cmp) != 1 {
		t.Fatalf("comparisons: %+v", cmp)
	}
	if c := cell(t, cmp[0], "Easy"); c.N != 2 || c.Measured != 100 || c.Published != 85.88 {
		t.Errorf("Easy: %+v", c)
	}
	if c := cell(t, cmp[0], "CV"); c.N != 2 || c.Measured != 0 {
		t.Errorf("CV: %+v", c)
	}
	for _, c := range ComparePublished(before[:1], PaperOptions{})[0].Cells {
		if c.Column == "Easy" || c.Column == "CV" {
			t.Errorf("without labels the run measured %s", c.Column)
		}
	}
}

// Without the run's dataset the labels join by id only: rows naming a
// question by its text hash match nothing in that run, and are reported
// when no run matched them; a malformed file stops the report.
func TestReportLabelsWithoutDataset(t *testing.T) {
	dirs, qs := labelledFolders(t)
	os.Remove(filepath.Join(filepath.Dir(dirs[0]), "elaip.jsonl"))
	labels := filepath.Join(t.TempDir(), "labels.jsonl")
	body := fmt.Sprintf(`{"question_id": %q, "difficulty": "Easy"}`+"\n"+`{"question_sha256": %q, "difficulty": "Hard"}`+"\n", qs[0].ID, run.QuestionSHA256(qs[2].Text))
	if err := os.WriteFile(labels, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	runs, err := LoadWith(Options{Labels: labels, Log: &log}, dirs[1])
	if err != nil {
		t.Fatal(err)
	}
	a := runs[0].Summary.ByMode["full"].ByBreakdown["difficulty"]
	if a["Easy"].N != 1 || a["Hard"].N != 0 || runs[0].Records[2].Breakdown["difficulty"] != "" {
		t.Errorf("by difficulty %+v", a)
	}
	if !strings.Contains(log.String(), labels+" line 2: matches no question (question_sha256 ") {
		t.Errorf("log:\n%s", log.String())
	}
	bad := filepath.Join(t.TempDir(), "bad.csv")
	os.WriteFile(bad, []byte("difficulty\nEasy\n"), 0o644)
	if _, err := LoadWith(Options{Labels: bad}, dirs[1]); err == nil || !strings.Contains(err.Error(), bad+": line 1: the header names no question_id") {
		t.Errorf("malformed labels: %v", err)
	}
}
