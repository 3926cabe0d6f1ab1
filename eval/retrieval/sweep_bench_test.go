package retrieval

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/index"
)

// hundred makes 100 questions from the sample's 37: the originals, then
// copies whose stem ends in a marker word found in no paper (" vN"). A
// copy asks every retriever a query it has not seen, so nothing is served
// from the sweep's shared lists that a real question would not be, and it
// ranks and scores as its original does.
func hundred(qs []bench.Question) []bench.Question {
	out := make([]bench.Question, 0, 100)
	for i := 0; len(out) < 100; i++ {
		q := qs[i%len(qs)]
		if v := i / len(qs); v > 0 {
			q.ID = fmt.Sprintf("%s-v%d", q.ID, v)
			q.MCQ.Stem = fmt.Sprintf("%s v%d", q.MCQ.Stem, v)
		}
		out = append(out, q)
	}
	return out
}

// BenchmarkSweep times a sweep of 100 questions over 48 configurations
// (passages of 128, 256 and 512 tokens x bm25, hybrid x stem, full query x
// budgets 512, 768, 1024, 1536; the home holds 512-token passages, so two
// sizes get an index of their own) against one configuration (256-token
// passages, bm25, full query, budget 1024: one index built too) in the
// same run. It reports the sweep's seconds and the ratio: far below 48,
// as retrieval is shared.
func BenchmarkSweep(b *testing.B) {
	qs, st, ix := sampleHome(b, 512)
	qs = hundred(qs)
	src := SweepSource{Store: st, Index: ix, HomeTokens: 512}
	grid := SweepConfig{Budgets: []int{512, 768, 1024, 1536}, Sizes: []int{128, 256, 512},
		Retrievers: []string{index.BM25, index.Hybrid}, Forms: []retrieve.QueryForm{retrieve.FormStem, retrieve.FormFull}}
	one := SweepConfig{Budgets: []int{1024}, Sizes: []int{256}, Retrievers: []string{index.BM25},
		Forms: []retrieve.QueryForm{retrieve.FormFull}}
	var sweepT, oneT time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		sw, err := RunSweep(context.Background(), src, qs, grid)
		if err != nil {
			b.Fatal(err)
		}
		sweepT += time.Since(start)
		if len(sw.Rows) != 48 || sw.N != 100 {
			b.Fatalf("%d rows over %d questions, want 48 over 100", len(sw.Rows), sw.N)
		}
		start = time.Now()
		if sw, err = RunSweep(context.Background(), src, qs, one); err != nil || len(sw.Rows) != 1 {
			b.Fatalf("one configuration: %d rows, %v", len(sw.Rows), err)
		}
		oneT += time.Since(start)
	}
	b.ReportMetric(sweepT.Seconds()/float64(b.N), "sweep-s")
	b.ReportMetric(oneT.Seconds()/float64(b.N), "one-config-s")
	b.ReportMetric(float64(sweepT)/float64(oneT), "ratio")
}
