package bm25

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/retrieve"
)

// A Bleve index fed passages analysed once (IndexAnalyzed, as an index
// build does) holds what one fed text does when scorch analyses it: the
// same hits with the same scores, corpus-wide and within each paper, the
// same stored fields and the same totals, on the sample papers.
func TestBleveIndexAnalyzedMatchesReanalysing(t *testing.T) {
	ctx := context.Background()
	ps := samplePassages(t, 64)
	dir := t.TempDir()
	plain := openTestBleve(t, filepath.Join(dir, "plain"), BleveOptions{BatchSize: 97})
	plain.reanalyse = true
	if err := plain.Index(ctx, ps); err != nil {
		t.Fatal(err)
	}
	pre := openTestBleve(t, filepath.Join(dir, "pre"), BleveOptions{BatchSize: 97})
	aps, err := AnalyzePassages(ps, TokenizerAnalyzer)
	if err != nil {
		t.Fatal(err)
	}
	if err := pre.IndexAnalyzed(ctx, aps); err != nil {
		t.Fatal(err)
	}
	if plain.stats != pre.stats || plain.stats.Docs != uint64(len(ps)) {
		t.Fatalf("totals: re-analysed %+v, pre-analysed %+v, %d passages", plain.stats, pre.stats, len(ps))
	}
	papers := map[string]bool{}
	for _, p := range ps {
		papers[p.PaperID] = true
	}
	compared := 0
	for _, text := range seedQueries(ps) {
		for paper := range papers {
			for _, q := range []retrieve.Query{{Text: text, K: 10}, {Text: text, PaperID: paper, K: 5}} {
				want, err := plain.Search(ctx, q)
				if err != nil {
					continue // a query of stop words only: both refuse it alike
				}
				got := mustSearch(t, pre, q)
				if !sameBleveHits(got, want) {
					t.Fatalf("%+v:\npre-analysed %+v\n  re-analysed %+v", q, got, want)
				}
				compared += len(want)
			}
		}
	}
	if compared < 100 {
		t.Fatalf("only %d hits compared", compared)
	}
	// Replacing a paper from analysed passages drops its old passages too.
	first := ps[0].PaperID
	var mine []corpus.Passage
	for _, p := range ps {
		if p.PaperID == first && len(mine) < 2 {
			mine = append(mine, p)
		}
	}
	amine, err := AnalyzePassages(mine, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := pre.ReplacePapersAnalyzed(ctx, amine); err != nil {
		t.Fatal(err)
	}
	if err := plain.ReplacePapers(ctx, mine); err != nil {
		t.Fatal(err)
	}
	q := retrieve.Query{Text: seedQueries(ps)[len(seedQueries(ps))-1], K: 20}
	if got, want := mustSearch(t, pre, q), mustSearch(t, plain, q); !sameBleveHits(got, want) || plain.stats != pre.stats {
		t.Errorf("after replacing %s: pre-analysed %+v, re-analysed %+v", first, got, want)
	}
	// Whitespace terms would be searched with analyzer terms: refused.
	ws, err := AnalyzePassages(mine, TokenizerWhitespace)
	if err != nil {
		t.Fatal(err)
	}
	if err := pre.IndexAnalyzed(ctx, ws); err == nil {
		t.Error("Bleve took whitespace-tokenized passages")
	}
}

// sameBleveHits compares two Bleve result lists as far as Bleve itself is
// reproducible: the same passages, texts and ranks, and scores equal to the
// precision sortHits treats as a tie (relative 1e-12). Bleve adds a
// document's term scores in map order, so two indexes of the same
// passages, built the same way, differ in the last bits of a score (seen
// between two re-analysed builds too).
func sameBleveHits(got, want []retrieve.Hit) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := got[i], want[i]
		if math.Abs(g.Score-w.Score) > 1e-12*math.Abs(w.Score) {
			return false
		}
		g.Score = w.Score
		if g != w {
			return false
		}
	}
	return true
}
