package index

import (
	"context"
	"reflect"
	"testing"

	"github.com/paperlens/paperlens/retrieve"
)

// "bm25" is Bleve within one paper and Okapi over the whole corpus (the
// defaults picked by evidence recall and by corpus-wide latency): its hits
// are exactly those scorers' hits, and hybrid fuses the same routed part.
func TestBM25RoutesByScope(t *testing.T) {
	t.Parallel()
	st, ix, _ := build(t, t.TempDir(), samplePapers(t)...)
	defer st.Close()
	defer ix.Close()
	ctx := context.Background()
	search := func(name string, q retrieve.Query) []retrieve.Hit {
		t.Helper()
		r, err := ix.Retriever(name)
		if err != nil {
			t.Fatal(err)
		}
		hits, err := r.Search(ctx, q)
		if err != nil {
			t.Fatalf("%s %+v: %v", name, q, err)
		}
		for i := range hits {
			hits[i].Retriever = "" // compare the ranking, not the label
		}
		return hits
	}
	paper := "tidal-token-pruning"
	for _, tc := range []struct {
		q    retrieve.Query
		want string
	}{
		{retrieve.Query{Text: "how are pruned tokens restored", K: 8}, DefaultCorpusBM25},
		{retrieve.Query{Text: "how are pruned tokens restored", PaperID: paper, K: 5}, DefaultBM25},
		{retrieve.Query{Text: "early exit calibration threshold", K: 8}, DefaultCorpusBM25},
	} {
		got, want := search(BM25, tc.q), search(tc.want, tc.q)
		if len(got) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("bm25 %+v:\n got %v\nwant %s's %v", tc.q, got, tc.want, want)
		}
	}
	if DefaultCorpusBM25 == DefaultBM25 {
		t.Fatal("the test needs the two defaults to differ")
	}
	q := retrieve.Query{Text: "how are pruned tokens restored", K: 8}
	if a, b := search(BM25, q), search(DefaultBM25, q); reflect.DeepEqual(a, b) {
		t.Errorf("corpus-wide bm25 equals %s's ranking; the route did nothing", DefaultBM25)
	}
	if h := search(Hybrid, q); len(h) == 0 {
		t.Error("hybrid found nothing corpus-wide")
	}
}
