package vectortest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/paperlens/paperlens/retrieve/vector"
)

// SparseOpener returns a new, empty sparse store over fresh storage; it
// registers its own cleanup, and the suite closes the stores it opens.
type SparseOpener func(t *testing.T) vector.SparseStore

// Scope names the IDF scope of a paper: the set of passages whose counts
// a store's IDF is computed over (Qdrant: the shard that holds the paper).
// Nil means one scope, the whole store.
type Scope func(paperID string) string

// RunSparse checks the SparseStore contract: scores and order against
// Qdrant's IDF-weighted dot product computed here in float64 from the docs
// stored (ln((N − n + 0.5)/(n + 0.5) + 1) per query term, N the docs of the
// scope and n those holding the term), ties by ID, the paper filter,
// replacement, moves, deletion, invalid input and use after Close.
func RunSparse(t *testing.T, open SparseOpener, scope Scope) {
	if scope == nil {
		scope = func(string) string { return "" }
	}
	t.Run("Empty", func(t *testing.T) { testSparseEmpty(t, open) })
	t.Run("MatchesReference", func(t *testing.T) { testSparseReference(t, open, scope) })
	t.Run("TiesByID", func(t *testing.T) { testSparseTies(t, open) })
	t.Run("ReplaceMoveDelete", func(t *testing.T) { testSparseReplace(t, open, scope) })
	t.Run("Invalid", func(t *testing.T) { testSparseInvalid(t, open) })
	t.Run("Closed", func(t *testing.T) { testSparseClosed(t, open) })
}

func testSparseEmpty(t *testing.T, open SparseOpener) {
	s := open(t)
	defer s.Close()
	ctx := context.Background()
	for _, paper := range []string{"", "nope"} {
		got, err := s.SearchSparse(ctx, []uint32{1, 2}, []float32{1, 1}, paper, 3)
		if err != nil || len(got) != 0 {
			t.Fatalf("search of an empty store (paper %q) = %v, %v; want none", paper, got, err)
		}
	}
	for _, k := range []int{0, -1} {
		if _, err := s.SearchSparse(ctx, []uint32{1}, []float32{1}, "", k); err == nil {
			t.Errorf("SearchSparse with k=%d succeeded, want an error", k)
		}
	}
	if err := s.DeletePaper(ctx, "nope"); err != nil {
		t.Errorf("DeletePaper of an unknown paper: %v", err)
	}
	if err := s.UpsertSparse(ctx, nil); err != nil {
		t.Errorf("UpsertSparse(nil): %v", err)
	}
}

// sparseCorpus is n docs per paper over a vocabulary of vocab term ids,
// with a few terms each, some common and some rare (ids are skewed toward
// small numbers), and positive BM25-like weights.
func sparseCorpus(r *rand.Rand, papers []string, n, vocab int) []vector.SparseDoc {
	var docs []vector.SparseDoc
	for _, p := range papers {
		for i := range n {
			d := vector.SparseDoc{ID: fmt.Sprintf("%s#%d", p, i), PaperID: p}
			seen := map[uint32]bool{}
			for range 3 + r.IntN(8) {
				ix := uint32(r.IntN(r.IntN(vocab) + 1))
				if seen[ix] {
					continue
				}
				seen[ix] = true
				d.Indices = append(d.Indices, ix*7919+13) // spread ids like hashes
				d.Values = append(d.Values, float32(0.3+2*r.Float64()))
			}
			docs = append(docs, d)
		}
	}
	return docs
}

func testSparseReference(t *testing.T, open SparseOpener, scope Scope) {
	s := open(t)
	defer s.Close()
	r := rand.New(rand.NewPCG(11, 12))
	papers := []string{"alpha", "beta", "gamma", "delta", "eps"}
	docs := sparseCorpus(r, papers, 40, 30)
	mustUpsertSparse(t, s, docs)
	for qi := range 12 {
		var ix []uint32
		var vals []float32
		for j := range 1 + r.IntN(4) {
			id := uint32(r.IntN(30))*7919 + 13
			if slices.Contains(ix, id) {
				continue
			}
			ix = append(ix, id)
			vals = append(vals, float32(1+j%2)) // query term counts
		}
		for _, paper := range []string{"", papers[qi%len(papers)]} {
			for _, k := range []int{1, 5, 25, 1000} {
				got := mustSearchSparse(t, s, ix, vals, paper, k)
				checkSparseReference(t, fmt.Sprintf("query %d (paper %q, k %d)", qi, paper, k), got, docs, scope, ix, vals, paper, k)
			}
		}
	}
}

// sparseReference scores docs as Qdrant's IDF modifier does, in float64.
func sparseReference(docs []vector.SparseDoc, scope Scope, ix []uint32, vals []float32, paper string) []vector.Match {
	n := map[string]float64{}
	df := map[string]map[uint32]float64{}
	for _, d := range docs {
		sc := scope(d.PaperID)
		n[sc]++
		if df[sc] == nil {
			df[sc] = map[uint32]float64{}
		}
		for i, x := range d.Indices {
			if d.Values[i] != 0 {
				df[sc][x]++
			}
		}
	}
	var out []vector.Match
	for _, d := range docs {
		if paper != "" && d.PaperID != paper {
			continue
		}
		sc := scope(d.PaperID)
		var score float64
		hit := false
		for qi, q := range ix {
			if j := slices.Index(d.Indices, q); j >= 0 {
				hit = true
				idf := math.Log((n[sc]-df[sc][q]+0.5)/(df[sc][q]+0.5) + 1)
				score += idf * float64(vals[qi]) * float64(d.Values[j])
			}
		}
		if hit {
			out = append(out, vector.Match{ID: d.ID, PaperID: d.PaperID, Score: score})
		}
	}
	vector.SortMatches(out)
	return out
}

func checkSparseReference(t *testing.T, what string, got []vector.Match, docs []vector.SparseDoc, scope Scope, ix []uint32, vals []float32, paper string, k int) {
	t.Helper()
	want := sparseReference(docs, scope, ix, vals, paper)
	if len(want) > k {
		want = want[:k]
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d results, want %d\ngot  %v\nwant %v", what, len(got), len(want), got, want)
	}
	for i := range got {
		// Relative tolerance: scores are sums of float32 products.
		if math.Abs(got[i].Score-want[i].Score) > tol*math.Max(1, math.Abs(want[i].Score)) {
			t.Fatalf("%s: rank %d score %v, want %v (%s)\ngot  %v\nwant %v", what, i+1, got[i].Score, want[i].Score, want[i].ID, got, want)
		}
		// A different id at a rank is accepted only where the reference
		// scores are within tol, which the check above enforces.
		if got[i].PaperID == "" || paper != "" && got[i].PaperID != paper {
			t.Fatalf("%s: rank %d from paper %q", what, i+1, got[i].PaperID)
		}
	}
	ordered := slices.Clone(got)
	vector.SortMatches(ordered)
	if !slices.Equal(ordered, got) {
		t.Fatalf("%s: results not ordered best first, ties by ID: %v", what, got)
	}
}

// Equal scores come back ordered by ID, whatever order the store keeps.
func testSparseTies(t *testing.T, open SparseOpener) {
	s := open(t)
	defer s.Close()
	var docs []vector.SparseDoc
	for i := range 30 {
		docs = append(docs, vector.SparseDoc{ID: fmt.Sprintf("t#%02d", 29-i), PaperID: "t", Indices: []uint32{5, uint32(100 + i)}, Values: []float32{1, 1}})
	}
	mustUpsertSparse(t, s, docs)
	got := mustSearchSparse(t, s, []uint32{5}, []float32{1}, "", 7)
	if ids := idsOf(got); !slices.Equal(ids, []string{"t#00", "t#01", "t#02", "t#03", "t#04", "t#05", "t#06"}) {
		t.Errorf("tied results %v, want the 7 smallest ids in order", ids)
	}
}

func testSparseReplace(t *testing.T, open SparseOpener, scope Scope) {
	s := open(t)
	defer s.Close()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(21, 22))
	docs := sparseCorpus(r, []string{"a", "b", "c"}, 15, 20)
	mustUpsertSparse(t, s, docs)
	term := docs[0].Indices[0]

	// Replace a#1 by a doc holding only a fresh term: found by it alone.
	moved := vector.SparseDoc{ID: "a#1", PaperID: "a", Indices: []uint32{424242}, Values: []float32{2}}
	// Move a#2 to paper c.
	moved2 := vector.SparseDoc{ID: "a#2", PaperID: "c", Indices: []uint32{434343}, Values: []float32{1}}
	mustUpsertSparse(t, s, []vector.SparseDoc{moved, moved2})
	docs[1], docs[2] = moved, moved2
	if got := mustSearchSparse(t, s, []uint32{424242}, []float32{1}, "", 5); len(got) != 1 || got[0].ID != "a#1" {
		t.Errorf("replaced a#1: search by its new term = %v", got)
	}
	if got := mustSearchSparse(t, s, []uint32{434343}, []float32{1}, "a", 5); len(got) != 0 {
		t.Errorf("a#2 moved to paper c but still found in paper a: %v", got)
	}
	if got := mustSearchSparse(t, s, []uint32{434343}, []float32{1}, "c", 5); len(got) != 1 || got[0].PaperID != "c" {
		t.Errorf("a#2 moved to paper c: search in c = %v", got)
	}
	if err := s.DeletePaper(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	var rest []vector.SparseDoc
	for _, d := range docs {
		if d.PaperID != "b" {
			rest = append(rest, d)
		}
	}
	got := mustSearchSparse(t, s, []uint32{term}, []float32{1}, "", 100)
	checkSparseReference(t, "after replace, move and delete", got, rest, scope, []uint32{term}, []float32{1}, "", 100)
	if got := mustSearchSparse(t, s, []uint32{term}, []float32{1}, "b", 100); len(got) != 0 {
		t.Errorf("deleted paper b still has %v", got)
	}
}

func testSparseInvalid(t *testing.T, open SparseOpener) {
	s := open(t)
	defer s.Close()
	ctx := context.Background()
	good := vector.SparseDoc{ID: "g#0", PaperID: "g", Indices: []uint32{1}, Values: []float32{1}}
	for name, bad := range map[string]vector.SparseDoc{
		"empty id":        {PaperID: "g", Indices: []uint32{1}, Values: []float32{1}},
		"empty paper":     {ID: "g#1", Indices: []uint32{1}, Values: []float32{1}},
		"length mismatch": {ID: "g#1", PaperID: "g", Indices: []uint32{1, 2}, Values: []float32{1}},
		"repeated index":  {ID: "g#1", PaperID: "g", Indices: []uint32{1, 1}, Values: []float32{1, 2}},
		"NaN":             {ID: "g#1", PaperID: "g", Indices: []uint32{1}, Values: []float32{float32(math.NaN())}},
	} {
		if err := s.UpsertSparse(ctx, []vector.SparseDoc{good, bad}); err == nil {
			t.Errorf("%s: upsert succeeded, want an error", name)
		}
	}
	// Refused batches store nothing, not even their good docs.
	if got := mustSearchSparse(t, s, []uint32{1}, []float32{1}, "", 5); len(got) != 0 {
		t.Errorf("after refused batches the store holds %v", got)
	}
	if _, err := s.SearchSparse(ctx, []uint32{1, 2}, []float32{1}, "", 5); err == nil {
		t.Error("a query with more indices than values succeeded")
	}
}

func testSparseClosed(t *testing.T, open SparseOpener) {
	s := open(t)
	mustUpsertSparse(t, s, []vector.SparseDoc{{ID: "p#0", PaperID: "p", Indices: []uint32{1}, Values: []float32{1}}})
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := s.SearchSparse(ctx, []uint32{1}, []float32{1}, "", 1); err == nil {
		t.Error("SearchSparse after Close succeeded")
	}
	if err := s.UpsertSparse(ctx, []vector.SparseDoc{{ID: "p#1", PaperID: "p", Indices: []uint32{1}, Values: []float32{1}}}); err == nil {
		t.Error("UpsertSparse after Close succeeded")
	}
}

func mustUpsertSparse(t *testing.T, s vector.SparseStore, docs []vector.SparseDoc) {
	t.Helper()
	if err := s.UpsertSparse(context.Background(), docs); err != nil {
		t.Fatal(err)
	}
}

func mustSearchSparse(t *testing.T, s vector.SparseStore, ix []uint32, vals []float32, paper string, k int) []vector.Match {
	t.Helper()
	got, err := s.SearchSparse(context.Background(), ix, vals, paper, k)
	if err != nil {
		t.Fatal(err)
	}
	return got
}
