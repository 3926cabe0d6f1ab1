package retrieval

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/index"
)

// On the ElaipBench-format sample (original papers, evidence verbatim,
// questions paraphrased), option-aware hybrid retrieval must find more of the
// gold evidence in its top 5 than any single retriever. Papers are cut into
// 128-token passages so that a 3,000-token sample paper has about as many
// passages as a real paper has at 512 tokens; otherwise top 5 is most of it.
func TestSampleEvidenceRecall(t *testing.T) {
	qs, _, err := bench.LoadElaipBench(filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	st, err := corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var texts []ingest.Text
	seen := map[string]bool{}
	for _, q := range qs {
		if !seen[q.PaperID] {
			seen[q.PaperID] = true
			texts = append(texts, ingest.Text{ID: q.PaperID, Source: "sample", Content: q.PaperContent})
		}
	}
	if failed, err := ingest.RunTexts(context.Background(), st, texts, ingest.Options{MaxTokens: 128}, func(ingest.Result) {}); err != nil || failed > 0 {
		t.Fatalf("ingest: %d %v", failed, err)
	}
	ix, err := index.Open(context.Background(), index.Config{Home: home}, st)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Update(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	var got []QuestionResult
	sum, err := Run(context.Background(), ix, qs, Config{
		Retrievers: []string{index.Bleve, index.Okapi, index.Dense, index.Hybrid},
		Forms:      []retrieve.QueryForm{retrieve.FormStem, retrieve.FormOptions, retrieve.FormFull},
		Ks:         []int{1, 5, 10},
	}, func(r QuestionResult) { got = append(got, r) })
	if err != nil {
		t.Fatal(err)
	}
	if sum.N != 37 || sum.Errors != 0 || len(got) != 37*12 {
		t.Fatalf("n=%d errors=%d results=%d", sum.N, sum.Errors, len(got))
	}
	for _, l := range sum.Labels() {
		r := sum.Retrievers[l]
		t.Logf("%-16s recall@1 %.3f recall@5 %.3f recall@10 %.3f hit@5 %.3f mrr %.3f", l, r["recall@1"], r["recall@5"], r["recall@10"], r["hit@5"], r["mrr"])
	}
	best := 0.0
	for _, single := range []string{"bleve", "okapi", "dense"} {
		best = max(best, sum.Retrievers[single]["recall@5"])
	}
	if h := sum.Retrievers["hybrid+options"]["recall@5"]; h <= best {
		t.Errorf("hybrid+options recall@5 = %.3f, not above the best single retriever's %.3f", h, best)
	}
	// The question as the dataset stores it (the default, ElaipBench's
	// query) beats the stem and the fused options for every retriever, in
	// recall and in complete evidence.
	for _, r := range []string{"bleve", "okapi", "dense", "hybrid"} {
		full := sum.Retrievers[r+"+full"]
		for _, other := range []string{r, r + "+options"} {
			for _, m := range []string{"recall@5", "complete@5"} {
				if full[m] <= sum.Retrievers[other][m] {
					t.Errorf("%s+full %s = %.3f, not above %s's %.3f", r, m, full[m], other, sum.Retrievers[other][m])
				}
			}
		}
	}
	// Per-question records are consistent with the summary.
	var sumR5 float64
	for _, r := range got {
		if r.Retriever == "dense" {
			sumR5 += r.Recall["recall@5"]
			if len(r.Hits) != 10 || len(r.FirstRank) == 0 {
				t.Fatalf("dense record %+v", r)
			}
		}
	}
	if d := sumR5/37 - sum.Retrievers["dense"]["recall@5"]; d > 1e-9 || d < -1e-9 {
		t.Errorf("dense recall@5 mean of records %.4f != summary %.4f", sumR5/37, sum.Retrievers["dense"]["recall@5"])
	}
}
