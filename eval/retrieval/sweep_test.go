package retrieval

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/ingest/corpus"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/index"
)

// sampleHome ingests the sample benchmark's papers into a fresh home in
// passages of maxTokens and indexes them.
func sampleHome(t testing.TB, maxTokens int) ([]bench.Question, *corpus.Store, *index.Index) {
	t.Helper()
	qs, _, err := bench.LoadElaipBench(filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	st, err := corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var texts []ingest.Text
	seen := map[string]bool{}
	for _, q := range qs {
		if !seen[q.PaperID] {
			seen[q.PaperID] = true
			texts = append(texts, ingest.Text{ID: q.PaperID, Source: "sample", Content: q.PaperContent})
		}
	}
	if failed, err := ingest.RunTexts(context.Background(), st, texts, ingest.Options{MaxTokens: maxTokens}, func(ingest.Result) {}); err != nil || failed > 0 {
		t.Fatalf("ingest: %d %v", failed, err)
	}
	ix, err := index.Open(context.Background(), index.Config{Home: home}, st)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Update(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return qs, st, ix
}

var allForms = []retrieve.QueryForm{retrieve.FormStem, retrieve.FormFull, retrieve.FormOptions}

// A swept configuration at a budget of exactly k of its passages is what
// eval retrieval reports at k, for passages of the home's size (searched
// in the home's index through the shared lists) and for another size
// (chunked again from the stored text into an index of the sweep's own),
// compared with a home ingested at that size.
func TestSweepMatchesEvalRetrieval(t *testing.T) {
	qs, st, ix := sampleHome(t, 128)
	_, _, ix256 := sampleHome(t, 256)
	sw, err := RunSweep(context.Background(), SweepSource{Store: st, Index: ix, HomeTokens: 128}, qs, SweepConfig{
		Budgets: []int{256, 512, 640, 1280}, Sizes: []int{128, 256},
	})
	if err != nil {
		t.Fatal(err)
	}
	if sw.N != 37 || sw.NoGold != 0 {
		t.Fatalf("n=%d no_gold=%d", sw.N, sw.NoGold)
	}
	cfg := Config{Retrievers: []string{index.BM25, index.Dense, index.Hybrid}, Forms: allForms}
	for _, c := range []struct {
		size int
		src  Source
	}{{128, ix}, {256, ix256}} {
		byK := map[int]Summary{}
		for _, b := range []int{256, 512, 640, 1280} {
			k := b / c.size
			if _, ok := byK[k]; ok {
				continue
			}
			// One k a run, as eval retrieval run at -k K would search.
			cfg.Ks = []int{k}
			sum, err := Run(context.Background(), c.src, qs, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			byK[k] = sum
		}
		checked := 0
		for _, r := range sw.Rows {
			if r.Unit != UnitPassage || r.PassageTokens != c.size || r.Errors > 0 {
				continue
			}
			want := byK[r.K].Retrievers[Label(r.Retriever, retrieve.QueryForm(r.Form))]
			for _, m := range []struct {
				name      string
				got, want float64
			}{
				{"complete", r.Complete, want[fmt.Sprintf("complete@%d", r.K)]},
				{"recall", r.Recall, want[fmt.Sprintf("recall@%d", r.K)]},
			} {
				if math.Abs(m.got-m.want) > 1e-9 {
					t.Errorf("%s at budget %d: %s %.4f, eval retrieval -k %d says %.4f", r.Label(), r.Budget, m.name, m.got, r.K, m.want)
				}
			}
			if r.ContextTokens > float64(r.Budget) || r.ContextTokens <= 0 {
				t.Errorf("%s: %.0f context tokens for a budget of %d", r.Label(), r.ContextTokens, r.Budget)
			}
			checked++
		}
		if checked != 4*9 {
			t.Errorf("size %d: %d rows checked, want 36", c.size, checked)
		}
	}
}

// The acceptance of issue 16: some configuration's gold evidence is
// complete for at least 95% of the questions within a budget of at most a
// quarter of the mean full paper.
func TestSweepAcceptance(t *testing.T) {
	qs, st, ix := sampleHome(t, 512)
	var progress strings.Builder
	sw, err := RunSweep(context.Background(), SweepSource{Store: st, Index: ix, HomeTokens: 512}, qs, SweepConfig{
		Budgets: []int{256, 512, 768}, Sizes: []int{64, 128, 256, 512}, Windows: []int{1, 2, 3}, Progress: &progress,
	})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	sw.WriteTable(&b)
	t.Logf("\n%s", b.String())
	best, ok := sw.Cheapest(0.95, func(r SweepRow) bool { return r.BudgetShare <= 0.25 })
	if !ok {
		t.Fatalf("no configuration reaches complete@budget 0.95 within 25%% of the mean full paper (%.0f tokens)", sw.FullTokens)
	}
	t.Logf("cheapest: %s at %d tokens (%.1f%%): complete %.3f", best.Label(), best.Budget, 100*best.BudgetShare, best.Complete)
}
