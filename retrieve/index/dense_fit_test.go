package index

import (
	"context"
	"slices"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/retrieve/embed/lsa"
)

// fitCorpus ingests the sample papers as build does and returns the store
// and its documents.
func fitCorpus(t *testing.T) (*corpus.Store, []corpus.Document) {
	t.Helper()
	st, err := corpus.Open(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if failed, err := ingest.Run(context.Background(), st, samplePapers(t), ingest.Options{MaxTokens: 128}, func(ingest.Result) {}); err != nil || failed > 0 {
		t.Fatalf("ingest: %d failed, %v", failed, err)
	}
	docs, err := st.Docs()
	if err != nil {
		t.Fatal(err)
	}
	return st, docs
}

// A corpus within the budget is fitted exactly as before the fit was
// bounded: on every passage, in corpus order, read into memory at once.
// The model's hash covers its vocabulary, idf, singular values and
// vectors, so equal hashes are identical models.
func TestFitWholeCorpusUnchanged(t *testing.T) {
	st, docs := fitCorpus(t)
	var all []string
	for _, d := range docs {
		ps, err := st.Passages(d.PaperID)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			all = append(all, p.Text)
		}
	}
	for _, dim := range []int{0, 64} {
		want, err := lsa.Fit(all, lsa.Options{Dim: dim})
		if err != nil {
			t.Fatal(err)
		}
		ix := &Index{cfg: Config{Embedder: "lsa", LSADim: dim}, corpus: st, dir: t.TempDir()}
		var said string
		ch, err := ix.startFit(docs, func(format string, _ ...any) { said = format })
		if err != nil || ch == nil {
			t.Fatalf("startFit: %v, %v", ch, err)
		}
		got := <-ch
		if got.err != nil {
			t.Fatal(got.err)
		}
		if got.model.Hash() != want.Hash() || got.model.Docs() != len(all) {
			t.Errorf("dim %d: bounded fit %s on %d passages, the whole-corpus fit %s on %d", dim, got.model.Name(), got.model.Docs(), want.Name(), len(all))
		}
		if said != "lsa   fitting on %d passages" {
			t.Errorf("progress %q for a corpus within the budget", said)
		}
	}
}

// Over the budget, the fit takes limit passages spread over the corpus,
// the same ones every time, from every paper.
func TestFitSample(t *testing.T) {
	st, docs := fitCorpus(t)
	ix := &Index{corpus: st}
	total := 0
	byPaper := map[string]string{}
	var all []string
	for _, d := range docs {
		total += d.Passages
		ps, err := st.Passages(d.PaperID)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			byPaper[p.Text] = d.PaperID
			all = append(all, p.Text)
		}
	}
	if total != len(all) {
		t.Fatalf("documents count %d passages, the store holds %d", total, len(all))
	}
	for _, limit := range []int{1, 7, total / 3, total - 1, total, total + 5} {
		got, err := ix.fitTexts(docs, total, limit)
		if err != nil {
			t.Fatal(err)
		}
		if want := min(limit, total); len(got) != want {
			t.Fatalf("limit %d of %d: %d texts, want %d", limit, total, len(got), want)
		}
		again, _ := ix.fitTexts(docs, total, limit)
		if !slices.Equal(got, again) {
			t.Errorf("limit %d: two samples differ", limit)
		}
		// A subsequence of the corpus, in corpus order.
		j := 0
		for _, s := range got {
			for j < len(all) && all[j] != s {
				j++
			}
			if j == len(all) {
				t.Fatalf("limit %d: the sample is not in corpus order", limit)
			}
			j++
		}
		papers := map[string]bool{}
		for _, s := range got {
			papers[byPaper[s]] = true
		}
		if limit >= len(docs) && len(papers) != len(docs) {
			t.Errorf("limit %d: the sample covers %d of %d papers", limit, len(papers), len(docs))
		}
	}
}
