package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/run"
)

// A bm25 run exported as a TREC run file and given back as --retrieved
// mine=FILE is evaluated as mode run:mine exactly as bm25 was: the same
// passages for every question, so the same accuracy.
func TestRetrievedRunFileAsMode(t *testing.T) {
	t.Parallel()
	home, tmp := t.TempDir(), t.TempDir()
	first := filepath.Join(tmp, "bm25")
	wireEval(t, home, first, "--mode", "bm25")
	file := filepath.Join(tmp, "bm25.trec")
	if _, errOut, code := paperlens(t, "export", first, "--format", "trec", "--out", file); code != 0 {
		t.Fatalf("export trec: exit %d\n%s", code, errOut)
	}

	dir := filepath.Join(tmp, "both")
	wireEval(t, home, dir, "--mode", "bm25,run:mine", "--retrieved", "mine="+file)
	s := wireSummary(t, dir)
	bm25, mine := s.ByMode["bm25"], s.ByMode["run:mine"]
	if mine.N == 0 || mine.Accuracy != bm25.Accuracy {
		t.Errorf("run:mine accuracy %v over %d, bm25's %v over %d: want equal", mine.Accuracy, mine.N, bm25.Accuracy, bm25.N)
	}
	// The ir baseline answers from its own search, so equal accuracy alone
	// would not show the file was read: the prompts' passages must match.
	got := map[string][]string{}
	for _, r := range wireRecords(t, dir) {
		var ids []string
		for _, c := range r.Context {
			ids = append(ids, c.PassageID)
		}
		got[r.QuestionID+" "+r.Mode] = ids
	}
	for _, r := range wireRecords(t, dir) {
		if r.Mode != "bm25" {
			continue
		}
		if m := got[r.QuestionID+" run:mine"]; len(m) == 0 || !slices.Equal(m, got[r.QuestionID+" bm25"]) {
			t.Errorf("question %s: run:mine was given %v, bm25 %v", r.QuestionID, m, got[r.QuestionID+" bm25"])
		}
	}
	cfg, err := run.Dir(dir).ReadConfig()
	if err != nil || len(cfg.Retrieved) != 1 || cfg.Retrieved[0].Name != "mine" || cfg.Retrieved[0].SHA256 == "" {
		t.Errorf("config.json's retrieved: %+v (%v), want mine with its SHA-256", cfg.Retrieved, err)
	}

	// eval retrieval scores the file beside bm25, alike.
	out, errOut, code := paperlens(t, "eval", "retrieval", "--home", home, "--data", wireSample, "--retriever", "bm25", "-k", "1,5", "--retrieved", "mine="+file)
	if code != 0 {
		t.Fatalf("eval retrieval --retrieved: exit %d\n%s", code, errOut)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "MA-MCQ") {
			break // the per-type tables follow
		}
		if f := strings.Fields(line); len(f) > 2 {
			rows[f[0]] = strings.Join(f[1:], " ")
		}
	}
	if rows["bm25+full"] == "" || rows["run:mine+full"] != rows["bm25+full"] {
		t.Errorf("eval retrieval: bm25 %q, run:mine %q: want the same scores\n%s", rows["bm25+full"], rows["run:mine+full"], out)
	}
}

// A malformed --retrieved is a usage error naming the flag, before
// anything is read.
func TestRetrievedMalformed(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"mine", "=x.trec", "mine=", "my run=x.trec"} {
		for _, cmd := range [][]string{{"eval", "--model", "ir"}, {"study"}, {"eval", "retrieval"}} {
			args := append(slices.Clone(cmd), "--data", "missing.jsonl", "--retrieved", v)
			if _, errOut, code := paperlens(t, args...); code != 2 || !strings.Contains(errOut, "--retrieved") {
				t.Errorf("%v: exit %d, %q; want 2 naming --retrieved", args, code, errOut)
			}
		}
	}
}
