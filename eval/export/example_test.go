package export_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"os"

	"github.com/paperlens/paperlens/eval/export"
	"github.com/paperlens/paperlens/eval/run"
)

func Example() {
	// A run folder: the random baseline on three questions of the
	// sample, closed-book, at a price.
	dir, err := os.MkdirTemp("", "paperlens-export-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	cfg := run.Config{Bench: "elaipbench", Data: "../../testdata/elaipbench/sample.jsonl", Model: "random",
		Modes: []string{"closed-book"}, Runs: 1, Seed: 1, Out: dir, Price: &run.Price{In: 2, Out: 8}}
	cfg.Defaults(nil)
	qs, _, err := run.LoadQuestions(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := run.Run(context.Background(), run.Options{Config: cfg, Questions: qs[:3]}); err != nil {
		fmt.Println(err)
		return
	}

	// Its records as CSV: a header, then one row per record, by
	// question id. The random baseline calls no model, so it costs
	// nothing at any price.
	var b bytes.Buffer
	if err := export.Write(&b, export.CSV, []string{dir}, export.Options{}); err != nil {
		fmt.Println(err)
		return
	}
	rows, _ := csv.NewReader(&b).ReadAll()
	for _, r := range rows {
		// question_id, mode, run, extracted, gold, correct, cost_usd
		fmt.Println(r[1], r[4], r[5], r[8], r[9], r[10], r[18])
	}
	// Output:
	// question_id mode run extracted gold correct cost_usd
	// eb-1fd0c3f5c049 closed-book 1 A D false 0
	// eb-7c918f919694 closed-book 1 B A false 0
	// eb-e62eacb9b561 closed-book 1 ABCD AC false 0
}
