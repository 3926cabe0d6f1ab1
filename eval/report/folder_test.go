package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/run"
)

// project lays out what eval leaves behind when run in root with relative
// paths: root/data/q.jsonl (four questions), root/home/corpus.db and the
// run folder root/runs/NAME whose config.json records cfg as given (the
// dataset and home filled in relative when cfg leaves them empty).
func project(t *testing.T, cfg map[string]any, recs []run.Record) (root, dir string) {
	t.Helper()
	root = t.TempDir()
	dir = filepath.Join(root, "runs", "interrupted")
	for _, d := range []string{filepath.Join(root, "data"), filepath.Join(root, "home"), dir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var lines []byte
	for i := 1; i <= 4; i++ {
		b, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("q%d", i), "paper_id": "p", "question": "Which?", "options": []string{"a", "b"}, "answer": "A"})
		lines = append(append(lines, b...), '\n')
	}
	writeFile(t, filepath.Join(root, "data", "q.jsonl"), lines)
	// Resolution looks for the store's file, not for a valid store.
	writeFile(t, filepath.Join(root, "home", "corpus.db"), nil)
	full := map[string]any{"bench": "jsonl", "data": "data/q.jsonl", "home": "home", "out": "runs/interrupted",
		"model": "m", "paradigm": "base", "modes": []string{"full", "bm25"}, "runs": 2}
	for k, v := range cfg {
		full[k] = v
	}
	b, _ := json.Marshal(full)
	writeFile(t, filepath.Join(dir, "config.json"), b)
	var rl []byte
	for _, r := range recs {
		b, _ := json.Marshal(r)
		rl = append(append(rl, b...), '\n')
	}
	writeFile(t, filepath.Join(dir, run.ResultsFile), rl)
	return root, dir
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// fiveRecords is a run of 4 questions × 2 modes × 2 runs killed after five
// records: run 1 of full done, q1 of bm25.
func fiveRecords() []run.Record {
	var out []run.Record
	for i := 1; i <= 4; i++ {
		out = append(out, run.Record{QuestionID: fmt.Sprintf("q%d", i), PaperID: "p", Mode: "full", Run: 1, Model: "m", Correct: i%2 == 1, Extracted: "A", Gold: "A", ScoreKind: "exact"})
	}
	return append(out, run.Record{QuestionID: "q1", PaperID: "p", Mode: "bm25", Run: 1, Model: "m", Correct: true, Extracted: "A", Gold: "A", ScoreKind: "exact"})
}

// The test's working directory is the package's, where none of the
// project's relative paths exist: they are found from the run folder.
func TestReadFolderFindsRelativePaths(t *testing.T) {
	for _, out := range []string{"runs/interrupted", "", "/elsewhere/interrupted"} {
		t.Run("out="+out, func(t *testing.T) {
			root, dir := project(t, map[string]any{"out": out}, nil)
			f, err := run.ReadFolder(dir, run.Paths{})
			if err != nil {
				t.Fatal(err)
			}
			if f.DataErr != nil || f.Config.Data != filepath.Join(root, "data", "q.jsonl") || f.Config.Home != filepath.Join(root, "home") {
				t.Fatalf("data %q home %q (%v), want both under %s", f.Config.Data, f.Config.Home, f.DataErr, root)
			}
			notes := strings.Join(f.Notes, "\n")
			if !strings.Contains(notes, "using "+filepath.Join(root, "data", "q.jsonl")) || !strings.Contains(notes, "using "+filepath.Join(root, "home")) {
				t.Errorf("the notes do not say which paths were used:\n%s", notes)
			}
			if qs, _, err := f.Questions(); err != nil || len(qs) != 4 {
				t.Errorf("questions: %d, %v", len(qs), err)
			}
		})
	}
}

// A project moved whole (or copied to another machine): the absolute paths
// recorded are gone, and are found where they sat relative to the run
// folder's recorded out path.
func TestReadFolderMovedProject(t *testing.T) {
	old := filepath.Join(string(filepath.Separator), "no-such-dir", "proj")
	root, dir := project(t, map[string]any{"data": filepath.Join(old, "data", "q.jsonl"), "home": filepath.Join(old, "home"),
		"out": filepath.Join(old, "runs", "interrupted")}, nil)
	f, err := run.ReadFolder(dir, run.Paths{})
	if err != nil {
		t.Fatal(err)
	}
	if f.DataErr != nil || f.Config.Data != filepath.Join(root, "data", "q.jsonl") || f.Config.Home != filepath.Join(root, "home") || len(f.Notes) != 2 {
		t.Errorf("data %q home %q (%v), notes %q", f.Config.Data, f.Config.Home, f.DataErr, f.Notes)
	}
}

func TestReadFolderAbsoluteAndOverrides(t *testing.T) {
	root, dir := project(t, nil, nil)
	abs := filepath.Join(root, "data", "q.jsonl")
	writeFile(t, filepath.Join(dir, "config.json"), []byte(fmt.Sprintf(`{"bench":"jsonl","data":%q,"home":%q,"modes":["full"],"runs":1}`, abs, filepath.Join(root, "home"))))
	f, err := run.ReadFolder(dir, run.Paths{})
	if err != nil || f.DataErr != nil || f.Config.Data != abs || len(f.Notes) != 0 {
		t.Fatalf("absolute paths: %+v %v", f, err)
	}

	moved := filepath.Join(t.TempDir(), "moved.jsonl")
	if err := os.Rename(abs, moved); err != nil {
		t.Fatal(err)
	}
	f, _ = run.ReadFolder(dir, run.Paths{})
	var me *run.MissingDataError
	if !errors.As(f.DataErr, &me) || !errors.Is(f.DataErr, os.ErrNotExist) {
		t.Fatalf("missing dataset: %v", f.DataErr)
	}
	if _, _, err := f.Questions(); err == nil || !strings.Contains(err.Error(), abs+" (config.json of") ||
		!strings.Contains(err.Error(), "not found") || !strings.Contains(err.Error(), "--data FILE") {
		t.Errorf("error does not name the file and the fix: %v", err)
	}

	f, _ = run.ReadFolder(dir, run.Paths{Data: moved, Home: "/some/home"})
	if qs, _, err := f.Questions(); err != nil || len(qs) != 4 || f.Config.Home != "/some/home" {
		t.Errorf("--data %s --home: %d questions, home %q, %v", moved, len(qs), f.Config.Home, err)
	}
	f, _ = run.ReadFolder(dir, run.Paths{Data: moved + ".gone"})
	if _, _, err := f.Questions(); err == nil || !strings.Contains(err.Error(), "--data "+moved+".gone: file not found") {
		t.Errorf("a missing --data file: %v", err)
	}
}

func TestReadFolderRelativeNotFound(t *testing.T) {
	root, dir := project(t, nil, nil)
	os.Remove(filepath.Join(root, "data", "q.jsonl"))
	f, _ := run.ReadFolder(dir, run.Paths{})
	msg := fmt.Sprint(f.DataErr)
	for _, want := range []string{"data/q.jsonl", filepath.Join(root, "data", "q.jsonl"), filepath.Join(root, "runs", "data", "q.jsonl"), "not found", "--data FILE"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q: %s", want, msg)
		}
	}
}

func TestDataChanged(t *testing.T) {
	root, _ := project(t, nil, nil)
	b, _ := os.ReadFile(filepath.Join(root, "data", "q.jsonl"))
	sum := sha256.Sum256(b)
	for _, c := range []struct {
		sha  any
		warn bool
	}{{nil, false}, {hex.EncodeToString(sum[:]), false}, {strings.ToUpper(hex.EncodeToString(sum[:])), false}, {strings.Repeat("0", 64), true}} {
		_, dir := project(t, map[string]any{"data": filepath.Join(root, "data", "q.jsonl"), "data_sha256": c.sha}, nil)
		f, err := run.ReadFolder(dir, run.Paths{})
		if err != nil {
			t.Fatal(err)
		}
		if w := f.DataChanged(); (w != "") != c.warn || (c.warn && !strings.Contains(w, "changed since the run")) {
			t.Errorf("data_sha256 %v: warning %q", c.sha, w)
		}
	}
}

// A run killed after five of its sixteen records, summary.json never
// written: the report summarises the records and says what is missing.
func TestLoadInterruptedRun(t *testing.T) {
	root, dir := project(t, nil, fiveRecords())
	var log strings.Builder
	runs, err := LoadWith(Options{Log: &log}, dir)
	if err != nil {
		t.Fatal(err)
	}
	r := runs[0]
	want := Progress{Records: 5, Expected: 16, Questions: 4, Modes: 2, Runs: 2, NoSummary: true}
	if r.Progress != want || !r.Recomputed || r.Summary.Questions != 4 || r.Summary.ByMode["full"].Records != 4 || r.Summary.ByMode["full"].Accuracy != 0.5 {
		t.Fatalf("progress %+v, summary %+v", r.Progress, r.Summary)
	}
	var md strings.Builder
	if err := Markdown(&md, runs); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| 5 of 16 |", "**Incomplete run** interrupted (m): 5 of 16 records (4 questions × 2 modes × 2 runs)", "no summary.json"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md.String())
		}
	}
	var html strings.Builder
	if err := HTML(&html, runs); err != nil || !strings.Contains(html.String(), "<b>Incomplete run</b>") || !strings.Contains(html.String(), "<td>5 of 16</td>") {
		t.Errorf("HTML does not mark the run incomplete (%v)", err)
	}
	if !strings.Contains(log.String(), "using "+filepath.Join(root, "data", "q.jsonl")) {
		t.Errorf("log does not say where the dataset was found: %s", log.String())
	}

	// Without the dataset the questions are those the records name.
	os.Remove(filepath.Join(root, "data", "q.jsonl"))
	log.Reset()
	runs, err = LoadWith(Options{Log: &log}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if p := runs[0].Progress; p.Records != 5 || p.Expected != 16 || !p.Guessed || runs[0].Summary.Questions != 4 {
		t.Errorf("without the dataset: %+v", p)
	}
	if !strings.Contains(log.String(), "not found") || !strings.Contains(runs[0].Progress.String(), "5 of at least 16") {
		t.Errorf("log %q, progress %q", log.String(), runs[0].Progress)
	}
}

// A summary.json that counts fewer records than results.jsonl holds (the
// run was resumed and stopped again) is replaced by one from the records;
// an old summary that does not count records is kept.
func TestLoadStaleSummary(t *testing.T) {
	_, dir := project(t, nil, fiveRecords())
	s := run.Summary{Model: "m", Bench: "jsonl", Runs: 2, Questions: 4, Modes: []string{"full", "bm25"},
		ByMode: map[string]run.ModeStats{"full": {Acc: run.Acc{Accuracy: 0.9}, Records: 3}}}
	b, _ := json.Marshal(s)
	writeFile(t, filepath.Join(dir, "summary.json"), b)
	runs, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r := runs[0]; !r.Recomputed || r.Summary.ByMode["full"].Accuracy != 0.5 || r.Progress.NoSummary || r.Progress.Records != 5 {
		t.Errorf("stale summary kept: %+v %+v", r.Progress, r.Summary.ByMode["full"])
	}
	s.ByMode["full"] = run.ModeStats{Acc: run.Acc{Accuracy: 0.9}}
	b, _ = json.Marshal(s)
	writeFile(t, filepath.Join(dir, "summary.json"), b)
	runs, _ = Load(dir)
	if r := runs[0]; r.Recomputed || r.Summary.ByMode["full"].Accuracy != 0.9 || !r.Progress.Incomplete() {
		t.Errorf("summary without record counts: %+v %+v", r.Progress, r.Summary.ByMode["full"])
	}
}

func TestLoadNeedsSummaryOrConfig(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, run.ResultsFile), nil)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "neither summary.json nor config.json") {
		t.Errorf("a folder with neither: %v", err)
	}
}
