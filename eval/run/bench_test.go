package run

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/paperlens/paperlens/eval/prompts"
	"github.com/paperlens/paperlens/model"
)

// BenchmarkHarness measures the work paperlens does per question outside the
// model call (context assembly with the whole paper and retrieved passages,
// answer extraction, scoring, and writing the record), with an instant model.
// The reference is the model call itself at 200 ms; the target is under 1 ms
// per question and run.
func BenchmarkHarness(b *testing.B) {
	qs, st, ix := fixture(b)
	cfg := Config{Bench: "elaipbench", Model: "instant", Modes: []string{FullHybrid}, Runs: 1, Out: b.TempDir()}
	cfg.Defaults(nil)
	ps, err := prompts.Load("")
	if err != nil {
		b.Fatal(err)
	}
	bl := newBuilder(Options{Config: cfg, Corpus: st, Index: ix}, ps)
	instant := model.ChatFunc(func(context.Context, model.Request) (model.Response, error) {
		return model.Response{Content: "After reading the paper, the answer is B."}, nil
	})
	sv := llmSolver{chat: instant, cfg: cfg}
	sc := scorer{cfg: cfg, prompts: ps}
	w, err := openWriter(b.TempDir() + "/results.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	// Retrieval is done once per question and mode, not per run: warm it.
	// The prompt itself is assembled for every run (builder.build keeps
	// none), so what is measured is what each run of a question costs.
	for _, q := range qs {
		evaluate(context.Background(), bl, sv, sc, q, FullHybrid, 1)
	}
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		q := qs[i%len(qs)]
		r, _, _ := evaluate(context.Background(), bl, sv, sc, q, FullHybrid, 1+i/len(qs))
		if r.Error != "" || !strings.Contains(r.Output, "answer") {
			b.Fatal(r.Error)
		}
		if err := w.write(r); err != nil {
			b.Fatal(err)
		}
	}
	per := time.Since(start) / time.Duration(b.N)
	b.ReportMetric(float64(per.Microseconds())/1000, "ms/question")
	b.ReportMetric(float64(per)/float64(200*time.Millisecond), "x-model-call")
}
