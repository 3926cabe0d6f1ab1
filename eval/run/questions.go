package run

import (
	"fmt"

	"github.com/paperlens/paperlens/eval/bench"
)

// LoadQuestions reads the benchmark a run was configured with (cfg.Bench,
// cfg.Data, cfg.Fields). Problems are the rows that were reported or
// skipped, with their line numbers.
func LoadQuestions(c Config) ([]bench.Question, []bench.Problem, error) {
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
