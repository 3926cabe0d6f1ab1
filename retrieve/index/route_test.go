package index

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/retrieve"
)

// routeQueries are one-paper queries on which Okapi and Bleve rank the
// paper's passages differently, so that following the wrong scorer shows.
var routeQueries = []retrieve.Query{
	{Text: "how are pruned tokens restored", PaperID: "tidal-token-pruning", K: 5},
	{Text: "parked tokens restored reservoir saliency", PaperID: "tidal-token-pruning", K: 3},
	{Text: "what does the method measure and how is it evaluated?", PaperID: "tidal-token-pruning", K: 8},
}

// corpusQueries have no paper: bm25 is Okapi there whatever Config.BM25.
var corpusQueries = []retrieve.Query{
	{Text: "how are pruned tokens restored", K: 8},
	{Text: "early exit calibration threshold", K: 8},
}

// searchLabelless runs q through the retriever name of ix, with the hits'
// retriever labels cleared to compare rankings, not names.
func searchLabelless(t *testing.T, ix *Index, name string, q retrieve.Query) []retrieve.Hit {
	t.Helper()
	r, err := ix.Retriever(name)
	if err != nil {
		t.Fatal(err)
	}
	return searchWith(t, r, q)
}

func searchWith(t *testing.T, r retrieve.Retriever, q retrieve.Query) []retrieve.Hit {
	t.Helper()
	hits, err := r.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("%s %+v: %v", r.Name(), q, err)
	}
	for i := range hits {
		hits[i].Retriever = ""
	}
	return hits
}

// "bm25" within one paper is Config.BM25's scorer (Okapi, as ElaipBench
// A.7.1, when it is empty) and Okapi over the whole corpus: its hits are
// exactly those scorers' hits, and hybrid fuses that same scorer with
// dense. Read-only opens of one home with each setting side by side show
// it is a setting of the open index, not of the process.
func TestBM25RoutesByScopeAndConfig(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	st, ix, _ := build(t, home, samplePapers(t)...)
	ix.Close()
	st.Close()
	for _, tc := range []struct {
		bm25, want string
	}{
		{"", Okapi},
		{Okapi, Okapi},
		{Bleve, Bleve},
	} {
		t.Run("bm25="+tc.bm25, func(t *testing.T) {
			t.Parallel()
			st, ro := openReadOnlyWith(t, Config{Home: home, ReadOnly: true, BM25: tc.bm25})
			defer st.Close()
			defer ro.Close()
			if got := ro.BM25Scorer(); got != tc.want {
				t.Errorf("BM25Scorer() = %q, want %q", got, tc.want)
			}
			dense, err := ro.Retriever(Dense)
			if err != nil {
				t.Fatal(err)
			}
			scorer, err := ro.Retriever(tc.want)
			if err != nil {
				t.Fatal(err)
			}
			fused := &retrieve.Hybrid{Parts: []retrieve.Retriever{scorer, dense}, K: ro.cfg.RRFK}
			other := Bleve
			if tc.want == Bleve {
				other = Okapi
			}
			for _, q := range routeQueries {
				got, want := searchLabelless(t, ro, BM25, q), searchLabelless(t, ro, tc.want, q)
				if len(got) == 0 || !reflect.DeepEqual(got, want) {
					t.Errorf("bm25 %q in %s:\n got %v\nwant %s's %v", q.Text, q.PaperID, got, tc.want, want)
				}
				if reflect.DeepEqual(got, searchLabelless(t, ro, other, q)) {
					t.Errorf("%q: %s and %s rank alike; the query shows nothing", q.Text, tc.want, other)
				}
				if got, want := searchLabelless(t, ro, Hybrid, q), searchWith(t, fused, q); len(got) == 0 || !reflect.DeepEqual(got, want) {
					t.Errorf("hybrid %q in %s:\n got %v\nwant %s+dense fused %v", q.Text, q.PaperID, got, tc.want, want)
				}
			}
			for _, q := range corpusQueries {
				got, want := searchLabelless(t, ro, BM25, q), searchLabelless(t, ro, DefaultCorpusBM25, q)
				if len(got) == 0 || !reflect.DeepEqual(got, want) {
					t.Errorf("corpus-wide bm25 %q:\n got %v\nwant %s's %v", q.Text, got, DefaultCorpusBM25, want)
				}
			}
		})
	}
}

// A scorer other than okapi or bleve is refused at Open, naming the flag,
// the value and both choices.
func TestBM25ConfigRefusesOthers(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	st, ix, _ := build(t, home, samplePapers(t)...)
	ix.Close()
	defer st.Close()
	for _, bad := range []string{"bm25", "Okapi", "dense", "rank_bm25"} {
		_, err := Open(context.Background(), Config{Home: home, BM25: bad}, st)
		if !errors.Is(err, ErrBM25) || !strings.Contains(err.Error(), `--bm25 "`+bad+`": use okapi (rank_bm25's BM25Okapi, ElaipBench A.7.1) or bleve`) {
			t.Errorf("BM25 %q: %v; want the --bm25 error", bad, err)
		}
	}
}
