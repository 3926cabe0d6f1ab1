package run

import (
	"fmt"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/compose"
)

// LoadQuestions reads the benchmark a run was configured with (cfg.Bench,
// cfg.Data, cfg.Fields), composes from it with cfg.Compose (eval
// --compose: the questions composed for each run, marked with their run),
// and joins cfg.Labels to the result (see Labels). Problems are the rows
// that were reported or skipped, with their line numbers, the papers
// composition leaves out, then the labels rows that labelled no question
// (their File set). A labels file that cannot be read is an error.
func LoadQuestions(c Config) ([]bench.Question, []bench.Problem, error) {
	qs, problems, err := loadSource(c)
	if err != nil {
		return qs, problems, err
	}
	if c.Compose != nil {
		composed, skips, err := compose.ForRuns(qs, *c.Compose, c.Runs)
		for _, s := range skips {
			problems = append(problems, bench.Problem{Line: s.Line, Msg: "--compose: " + s.Message()})
		}
		if err != nil {
			return nil, problems, fmt.Errorf("--compose over %s: %w", c.Data, err)
		}
		qs = composed
	}
	if c.Labels == "" {
		return qs, problems, nil
	}
	l, err := ReadLabels(c.Labels)
	if err != nil {
		return qs, problems, err
	}
	return qs, append(problems, labelProblems(l.Apply(qs))...), nil
}

// loadSource reads the benchmark file in its format.
func loadSource(c Config) ([]bench.Question, []bench.Problem, error) {
	switch c.Bench {
	case "elaipbench":
		return bench.LoadElaipBench(c.Data)
	case "lpfqa":
		m, err := bench.ParseFieldMap(c.Fields)
		if err != nil {
			return nil, nil, err
		}
		return bench.LoadLPFQA(c.Data, m)
	case "jsonl":
		return bench.LoadJSONL(c.Data)
	}
	return nil, nil, fmt.Errorf("--bench %q: use elaipbench, lpfqa or jsonl", c.Bench)
}

// composeDiff says how two runs' --compose differ ("" when they ask the
// same questions): one composed and one not, or another shape or seed.
func composeDiff(old, cur *compose.Spec) string {
	what := func(s *compose.Spec) string {
		if s == nil {
			return "the benchmark's own questions"
		}
		return fmt.Sprintf("questions composed with --compose %s and --seed %d", s, s.Seed)
	}
	if a, b := what(old), what(cur); a != b {
		return a + ", now " + b
	}
	return ""
}
