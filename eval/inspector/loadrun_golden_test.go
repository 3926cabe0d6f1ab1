package inspector

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/run"
)

// TestLoadRunGolden pins what loadRun makes of run folders in each state:
// going (no summary: summarised here), finished (its fresh summary kept),
// its dataset gone (questions from the records, a problem noted), its
// dataset changed since the run, records for a question and a mode the
// dataset and config lack, and no records yet. What it logs is pinned too;
// the temporary paths are cut out. Regenerate with
// INSPECTOR_WRITE_GOLDEN=1 only for a deliberate change.
func TestLoadRunGolden(t *testing.T) {
	var b strings.Builder
	load := func(name string, dir string, opt Options, first bool) {
		s := &Site{opt: opt, papers: newPaperCache(), sticky: map[string][]string{}}
		var logw bytes.Buffer
		var w *bytes.Buffer
		if first {
			w = &logw
		}
		var r *Run
		var err error
		if w != nil {
			r, err = s.loadRun("1", dir, w)
		} else {
			r, err = s.loadRun("1", dir, nil)
		}
		root := filepath.Dir(filepath.Dir(dir))
		cut := func(s string) string { return strings.ReplaceAll(s, root, "ROOT") }
		fmt.Fprintf(&b, "== %s\nerr %v\nlog %q\n", name, err, cut(logw.String()))
		if r == nil {
			return
		}
		r.Config.Home, r.Config.Data, r.Config.Out = cut(r.Config.Home), cut(r.Config.Data), cut(r.Config.Out)
		r.Summary.Protocol = nil // pinned by the run package's golden
		js, err := json.MarshalIndent(struct {
			Name, Dir            string
			Config               run.Config
			Summary              run.Summary
			Modes, Fields, Types []string
			Problems             []string
			Progress             any
			Questions            []*Question
			Sticky               []string
		}{r.Name, cut(r.Dir), r.Config, r.Summary, r.Modes, r.Fields, r.Types, r.Problems, r.Progress, r.Questions, s.sticky["1"]}, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(cut(string(js)) + "\n")
	}

	dir, _ := writeFixture(t, run.Config{})
	load("going", dir, Options{}, true)
	load("going, reloaded", dir, Options{}, false)

	// A finished run: its summary is kept as written.
	dir2, _ := writeFixture(t, run.Config{})
	recs, err := run.ReadResults(filepath.Join(dir2, run.ResultsFile))
	must(t, err)
	var cfg run.Config
	raw, err := os.ReadFile(filepath.Join(dir2, "config.json"))
	must(t, err)
	must(t, json.Unmarshal(raw, &cfg))
	sum := run.Summarize(cfg, nil, recs)
	sum.Questions = 99 // marks the summary as the one read
	must(t, run.WriteSummary(dir2, sum))
	load("finished", dir2, Options{}, true)

	// The dataset moved away.
	dir3, _ := writeFixture(t, run.Config{})
	load("dataset gone", dir3, Options{Data: filepath.Join(filepath.Dir(dir3), "nowhere.jsonl")}, true)

	// The dataset changed since the run recorded its hash.
	dir4, _ := writeFixture(t, run.Config{DataSHA256: strings.Repeat("0", 64)})
	load("dataset changed", dir4, Options{}, true)

	// Records for a question the dataset lacks, in a mode the config lacks.
	dir5, _ := writeFixture(t, run.Config{})
	f, err := os.OpenFile(filepath.Join(dir5, run.ResultsFile), os.O_APPEND|os.O_WRONLY, 0o644)
	must(t, err)
	for _, rec := range []run.Record{
		{QuestionID: "q9", PaperID: "plain", Mode: "hybrid", Run: 1, Correct: true, Gold: "B", QuestionType: "SA-MCQ", ScoreKind: "exact", Breakdown: map[string]string{"topic": "x"}},
		{QuestionID: "q1", Mode: "closed-book", Run: 3, ScoreKind: "exact"},
	} {
		js, _ := json.Marshal(rec)
		f.Write(append(js, '\n'))
	}
	f.Close()
	load("records beyond the dataset and config", dir5, Options{}, true)

	// No records yet: every configured mode is shown.
	dir6, _ := writeFixture(t, run.Config{})
	must(t, os.WriteFile(filepath.Join(dir6, run.ResultsFile), nil, 0o644))
	load("no records", dir6, Options{}, true)

	got := b.String()
	const golden = "testdata/loadrun.golden"
	if os.Getenv("INSPECTOR_WRITE_GOLDEN") != "" {
		must(t, os.MkdirAll("testdata", 0o755))
		must(t, os.WriteFile(golden, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(golden)
	must(t, err)
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("line %d differs:\n got %s\nwant %s", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%d lines, golden %d", len(gl), len(wl))
	}
}
