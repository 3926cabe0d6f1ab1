package run

import (
	"fmt"

	"github.com/paperlens/paperlens/eval/bench"
)

// LoadQuestions reads the benchmark a run was configured with (cfg.Bench,
// cfg.Data, cfg.Fields), and joins cfg.Labels to it (see Labels).
// Problems are the rows that were reported or skipped, with their line
// numbers, then the labels rows that labelled no question (their File
// set). A labels file that cannot be read is an error.
func LoadQuestions(c Config) ([]bench.Question, []bench.Problem, error) {
	qs, problems, err := loadDataset(c)
	if err != nil || c.Labels == "" {
		return qs, problems, err
	}
	l, err := ReadLabels(c.Labels)
	if err != nil {
		return qs, problems, err
	}
	return qs, append(problems, labelProblems(l.Apply(qs))...), nil
}

// loadDataset reads the benchmark alone.
func loadDataset(c Config) ([]bench.Question, []bench.Problem, error) {
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
