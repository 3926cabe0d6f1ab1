package mode_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/inspector"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/report"
	"github.com/paperlens/paperlens/eval/run"
)

// The names are fixed: config.json, records and summaries hold them.
func TestNamesInReportOrder(t *testing.T) {
	want := []string{"closed-book", "full", "bm25", "dense", "hybrid", "full+bm25", "full+dense", "full+hybrid", "self-route", "oracle", "web", "full+web",
		"agent", "full+agent", "tool-search", "tool-python"}
	if got := mode.Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	if !slices.Equal(run.AllModes, want) {
		t.Fatalf("run.AllModes = %v, want %v", run.AllModes, want)
	}
	for i, m := range mode.All() {
		if m.Order() != i {
			t.Errorf("%s: order %d, want %d", m.Name, m.Order(), i)
		}
	}
}

// What each mode decides, as the runner, the eval command, the report
// and the inspector used to work it out from the name.
func TestTable(t *testing.T) {
	for _, c := range []struct {
		name, retriever, baseline, kind string
		paper, index, web, retrieves    bool
	}{
		{"closed-book", "", "", "question only", false, false, false, false},
		{"full", "", "", "whole paper", true, false, false, false},
		{"bm25", "bm25", "closed-book", "bm25 passages", false, true, false, true},
		{"dense", "dense", "closed-book", "dense passages", false, true, false, true},
		{"hybrid", "hybrid", "closed-book", "hybrid passages", false, true, false, true},
		{"full+bm25", "bm25", "full", "whole paper + bm25 passages", true, true, false, true},
		{"full+dense", "dense", "full", "whole paper + dense passages", true, true, false, true},
		{"full+hybrid", "hybrid", "full", "whole paper + hybrid passages", true, true, false, true},
		// Self-route needs the passages and the paper to fall back on,
		// and is measured against the paper alone.
		{"self-route", "bm25", "full", "retrieved passages; whole paper when they do not suffice", true, true, false, true},
		{"oracle", "", "", "gold evidence only", false, false, false, false},
		{"web", "", "closed-book", "web results", false, false, true, true},
		{"full+web", "", "full", "whole paper + web results", true, false, true, true},
		// The tool modes: search_paper needs the index, web_search the
		// provider; what the tools add is measured against the same
		// context without them.
		{"agent", "", "closed-book", "question + search_paper tool", false, true, false, true},
		{"full+agent", "", "full", "whole paper + search_paper tool", true, true, false, true},
		{"tool-search", "", "closed-book", "web_search + open_page tools", false, false, true, true},
		{"tool-python", "", "closed-book", "python tool", false, false, false, true},
	} {
		m, err := mode.Get(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if m.Retriever != c.retriever || m.Baseline != c.baseline || m.Kind != c.kind || m.NeedsPaper() != c.paper ||
			m.NeedsIndex() != c.index || m.NeedsWeb() != c.web || m.Retrieves() != c.retrieves || m.Oracle != (c.name == "oracle") {
			t.Errorf("%s: %+v", c.name, m)
		}
	}
}

func TestUnknownAndSort(t *testing.T) {
	_, err := mode.Get("full+bm26")
	if err == nil || !strings.Contains(err.Error(), `unknown mode "full+bm26": use closed-book, full, bm25,`) {
		t.Errorf("Get of an unknown mode: %v", err)
	}
	if k := mode.KindOf("colbert"); k != "colbert passages" {
		t.Errorf("KindOf(colbert) = %q", k)
	}
	names := []string{"zeta", "oracle", "alpha", "full+bm25", "closed-book", "bm25"}
	mode.Sort(names)
	if want := []string{"closed-book", "bm25", "full+bm25", "oracle", "alpha", "zeta"}; !slices.Equal(names, want) {
		t.Errorf("Sort = %v, want %v", names, want)
	}
}

func TestRegisterRefusesContradictions(t *testing.T) {
	for _, m := range []mode.Mode{
		{Name: "full", Kind: "again"},
		{Name: "no-kind"},
		{Name: "two words", Kind: "x"},
		{Name: "bm25+web", Retriever: "bm25", Web: true, Baseline: "closed-book", Kind: "x"},
		{Name: "bm25-nobase", Retriever: "bm25", Kind: "x"},
		{Name: "closed-base", Baseline: "closed-book", Kind: "x"},
		{Name: "bad-base", Retriever: "bm25", Baseline: "nope", Kind: "x"},
		{Name: "route-nopaper", Retriever: "bm25", Route: true, Baseline: "closed-book", Kind: "x"},
		{Name: "route-nopassages", Paper: true, Route: true, Kind: "x"},
	} {
		if undo, err := mode.Register(m); err == nil {
			undo()
			t.Errorf("%+v registered", m)
		}
	}
}

// A new mode is one registry entry: the runner assembles its context, the
// report lists it, and the inspector heads its column with its kind.
func TestRegisteredModeReachesRunnerReportAndInspector(t *testing.T) {
	const name, kind = "oracle-twin", "gold evidence, from a test"
	undo, err := mode.Register(mode.Mode{Name: name, Oracle: true, Kind: kind})
	if err != nil {
		t.Fatal(err)
	}
	defer undo()

	cfg := run.Config{Bench: "elaipbench", Data: filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl"), Model: "random",
		Modes: []string{run.ClosedBook, name}, Runs: 1, Concurrency: 2, Out: t.TempDir(), Seed: 3}
	cfg.Defaults(nil)
	qs, _, err := run.LoadQuestions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := run.Run(context.Background(), run.Options{Config: cfg, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := run.ReadResults(filepath.Join(cfg.Out, run.ResultsFile))
	if err != nil || len(recs) != 2*len(qs) {
		t.Fatalf("%d records, want %d: %v", len(recs), 2*len(qs), err)
	}
	tokens := map[string]int{}
	for _, r := range recs {
		if r.Error != "" {
			t.Fatalf("%s [%s]: %s", r.QuestionID, r.Mode, r.Error)
		}
		// The runner gives an oracle part the whole gold evidence.
		if r.Mode == name && (r.Recall == nil || *r.Recall != 1) {
			t.Errorf("%s [%s]: evidence recall %v, want 1 (the gold evidence)", r.QuestionID, r.Mode, r.Recall)
		}
		tokens[r.Mode] += r.PromptTokens
	}
	if tokens[name] <= tokens[run.ClosedBook] {
		t.Errorf("prompt tokens %v: the gold evidence added nothing", tokens)
	}
	if st := res.Summary.ByMode[name]; st.N != len(qs) {
		t.Errorf("summary of %s: %+v", name, st)
	}

	runs, err := report.Load(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := report.Markdown(&md, runs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| random | "+name+" |") {
		t.Errorf("report has no row for %s:\n%s", name, md.String())
	}

	site, err := inspector.Load([]string{cfg.Out}, inspector.Options{Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	site.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/r/1/q/"+qs[0].ID, nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), kind) {
		t.Errorf("question page (%d) does not head the %s column with %q", rec.Code, name, kind)
	}
}

// run:NAME is a mode for each run file: bm25 alone, with the passages
// from the file, measured against closed-book, placed after the table's
// modes; a name with other characters, and a registered mode named like
// one, are refused.
func TestRunFileModes(t *testing.T) {
	m, err := mode.Get("run:my-retriever.v2")
	if err != nil {
		t.Fatal(err)
	}
	if m.Retriever != "run:my-retriever.v2" || m.Baseline != mode.ClosedBook || m.Paper || !m.NeedsIndex() || !m.Retrieves() ||
		m.Kind != "passages of run file my-retriever.v2" || m.Order() <= len(mode.Names()) {
		t.Errorf("run mode %+v", m)
	}
	if n, ok := mode.RunName("run:colbert"); !ok || n != "colbert" || mode.RunMode(n) != "run:colbert" {
		t.Errorf("RunName(run:colbert) = %q, %v", n, ok)
	}
	if got := mode.NeedsOf([]string{"run:colbert"}); got != (mode.Needs{Corpus: true, Index: true}) {
		t.Errorf("NeedsOf(run:colbert) = %+v", got)
	}
	for _, bad := range []string{"run:", "run:a b", "run:a/b", "run:x:y"} {
		if _, err := mode.Get(bad); err == nil || !strings.Contains(err.Error(), "run file") {
			t.Errorf("Get(%q): %v", bad, err)
		}
		if _, ok := mode.RunName(bad); ok {
			t.Errorf("RunName(%q) accepted", bad)
		}
	}
	if _, err := mode.Get("bm26"); err == nil || !strings.Contains(err.Error(), "or run:NAME for a run file given as --retrieved NAME=FILE") {
		t.Errorf("an unknown mode's error does not mention run files: %v", err)
	}
	names := []string{"zeta", "run:b", "bm25", "run:a", "oracle"}
	mode.Sort(names)
	if want := []string{"bm25", "oracle", "run:a", "run:b", "zeta"}; !slices.Equal(names, want) {
		t.Errorf("Sort = %v, want %v", names, want)
	}
	if undo, err := mode.Register(mode.Mode{Name: "run:mine", Kind: "x"}); err == nil {
		undo()
		t.Error("a registered mode took a run file's name")
	}
}
