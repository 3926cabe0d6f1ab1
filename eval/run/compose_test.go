package run

import (
	"context"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/compose"
	"github.com/paperlens/paperlens/internal/testkit/sampletest"
)

// A config with --compose loads each run's own composed questions; the
// runner asks each in its run only, the summary counts the questions of
// one run, groups accuracy by statements and options, and a folder of
// another composition (or of the benchmark's own questions) is not
// resumed into.
func TestComposedRunsAskEachRunItsOwnQuestions(t *testing.T) {
	spec := compose.Spec{Questions: 5, Seed: 1}
	spec.Defaults()
	cfg := Config{Bench: "elaipbench", Data: sampletest.Data(), Model: "random", Modes: []string{ClosedBook}, Runs: 2, Concurrency: 2,
		Out: t.TempDir(), Seed: 1, Compose: &spec}
	cfg.Defaults(nil)
	qs, problems, err := LoadQuestions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 10 || PerRun(qs) != 5 {
		t.Fatalf("%d questions, %d per run; want 10 and 5", len(qs), PerRun(qs))
	}
	for _, p := range problems {
		if strings.Contains(p.Msg, "--compose") {
			t.Errorf("sample paper left out: %s", p)
		}
	}
	res, err := Run(context.Background(), Options{Config: cfg, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := Dir(cfg.Out).Records()
	if err != nil {
		t.Fatal(err)
	}
	runOf := map[string]int{}
	for _, q := range qs {
		runOf[q.ID] = q.Run
	}
	if len(recs) != 10 {
		t.Errorf("%d records, want 5 questions × 1 mode × 2 runs", len(recs))
	}
	for _, r := range recs {
		if runOf[r.QuestionID] != r.Run || r.Breakdown["statements"] == "" || r.Breakdown["options"] == "" {
			t.Errorf("record of %s in run %d (the question is run %d's), breakdown %v", r.QuestionID, r.Run, runOf[r.QuestionID], r.Breakdown)
		}
	}
	s := res.Summary
	if s.Questions != 5 || s.ByMode[ClosedBook].ByBreakdown["statements"] == nil || s.ByMode[ClosedBook].ByBreakdown["options"] == nil {
		t.Errorf("summary: %d questions, breakdowns %v", s.Questions, s.ByMode[ClosedBook].ByBreakdown)
	}

	other := cfg
	o := spec
	o.Options = compose.Range{Min: 4, Max: 4}
	other.Compose = &o
	if _, err := Run(context.Background(), Options{Config: other, Questions: qs}); err == nil || !strings.Contains(err.Error(), "questions composed with --compose statements=8-10,options=4-8") {
		t.Errorf("another shape resumed into the folder: %v", err)
	}
	plain := cfg
	plain.Compose = nil
	if _, err := Run(context.Background(), Options{Config: plain, Questions: qs}); err == nil || !strings.Contains(err.Error(), "now the benchmark's own questions") {
		t.Errorf("the benchmark's own questions resumed into a composed folder: %v", err)
	}
	limited := cfg
	limited.Limit = 3
	if err := limited.Validate(); err == nil || !strings.Contains(err.Error(), "--compose questions=N") {
		t.Errorf("--limit with --compose: %v", err)
	}
}

// A source from which nothing can be composed fails the load, naming the
// papers and what they lack.
func TestComposeNothingFails(t *testing.T) {
	spec := compose.Spec{Statements: compose.Range{Min: 40, Max: 40}, PerOption: compose.Range{Min: 2, Max: 4}, Seed: 1}
	spec.Defaults()
	cfg := Config{Bench: "elaipbench", Data: sampletest.Data(), Runs: 1, Compose: &spec}
	_, problems, err := LoadQuestions(cfg)
	if err == nil || !strings.Contains(err.Error(), "no question could be composed") || !strings.Contains(err.Error(), "a question needs at least 40") {
		t.Fatalf("err %v", err)
	}
	n := 0
	for _, p := range problems {
		if strings.Contains(p.String(), "--compose: paper ") {
			n++
		}
	}
	if n != 5 {
		t.Errorf("%d papers reported as left out, want the sample's 5: %v", n, problems)
	}
}

func TestSortValues(t *testing.T) {
	got := SortValues([]string{"10", "b", "8", "a", "9"})
	if strings.Join(got, " ") != "8 9 10 a b" {
		t.Errorf("sorted %v", got)
	}
}
