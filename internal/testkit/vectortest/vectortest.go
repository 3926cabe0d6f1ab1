package vectortest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paperlens/paperlens/retrieve/vector"
)

// Opener returns a new, empty store over fresh storage. dim is the
// dimension the test will use; stores that fix it at creation (Qdrant) take
// it, others may ignore it. The opener should register cleanup itself; the
// suite closes the stores it opens.
type Opener func(t *testing.T, dim int) vector.Store

// Reopener closes s and returns a new store over the same storage, as the
// next process would see it.
type Reopener func(t *testing.T, s vector.Store) vector.Store

// tol is the score tolerance against the float64 reference: stores compute
// in float32, and 1e-4 is far below the gaps that ranking depends on.
const tol = 1e-4

// Run checks the Store contract on stores from open.
func Run(t *testing.T, open Opener) {
	t.Run("EmptyStore", func(t *testing.T) { testEmpty(t, open) })
	t.Run("KNotPositive", func(t *testing.T) { testK(t, open) })
	t.Run("MatchesReference", func(t *testing.T) { testReference(t, open) })
	t.Run("TiesByID", func(t *testing.T) { testTies(t, open) })
	t.Run("PaperFilter", func(t *testing.T) { testFilter(t, open) })
	t.Run("ReplaceByID", func(t *testing.T) { testReplace(t, open) })
	t.Run("DeletePaper", func(t *testing.T) { testDelete(t, open) })
	t.Run("Dimension", func(t *testing.T) { testDimension(t, open) })
	t.Run("InvalidPoints", func(t *testing.T) { testInvalid(t, open) })
	t.Run("Concurrent", func(t *testing.T) { testConcurrent(t, open) })
	t.Run("Closed", func(t *testing.T) { testClosed(t, open) })
}

// RunReopen checks that what a store wrote is what a reopened store finds.
func RunReopen(t *testing.T, open Opener, reopen Reopener) {
	ctx := context.Background()
	const dim = 12
	s := open(t, dim)
	pts := corpus(rand.New(rand.NewPCG(7, 7)), dim, []string{"a", "b", "c"}, 20)
	mustUpsert(t, s, pts)
	queries := randVecs(rand.New(rand.NewPCG(8, 8)), 5, dim)
	before := searchAll(t, s, queries)

	s = reopen(t, s)
	if got := s.Dim(); got != dim {
		t.Fatalf("after reopen: Dim() = %d, want %d", got, dim)
	}
	wantCount(t, s, len(pts))
	if after := searchAll(t, s, queries); !sameMatches(before, after) {
		t.Fatalf("after reopen, results differ:\nbefore %v\nafter  %v", before, after)
	}

	// Replacements, moves and deletions must survive a reopen too.
	moved := vector.Point{ID: "a#0", PaperID: "c", Vector: unit(dim, 0)}
	mustUpsert(t, s, []vector.Point{moved})
	if err := s.DeletePaper(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s)
	wantCount(t, s, len(pts)-20)
	got := mustSearch(t, s, unit(dim, 0), "c", 1)
	if len(got) != 1 || got[0].ID != "a#0" || math.Abs(got[0].Score-1) > tol {
		t.Fatalf("moved point after reopen: got %v, want a#0 in paper c with score 1", got)
	}
	if got := mustSearch(t, s, unit(dim, 0), "b", 5); len(got) != 0 {
		t.Fatalf("deleted paper b after reopen: got %v", got)
	}
	if got := mustSearch(t, s, unit(dim, 0), "a", 100); len(got) != 19 {
		t.Fatalf("paper a after moving a#0 out and reopening: %d points, want 19", len(got))
	}

	// The dimension is part of what persists.
	err := s.Upsert(ctx, []vector.Point{{ID: "x#0", PaperID: "x", Vector: make4(1)}})
	if !errors.Is(err, vector.ErrDimension) {
		t.Fatalf("upsert of dimension 4 into a reopened dimension-%d store: err = %v, want ErrDimension", dim, err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

func testEmpty(t *testing.T, open Opener) {
	s := open(t, 8)
	defer s.Close()
	if d := s.Dim(); d != 0 && d != 8 {
		t.Errorf("fresh store: Dim() = %d, want 0 (or 8 when fixed at creation)", d)
	}
	wantCount(t, s, 0)
	for _, paper := range []string{"", "nope"} {
		got, err := s.Search(context.Background(), unit(8, 1), paper, 3)
		if err != nil {
			t.Fatalf("search of empty store (paper %q): %v", paper, err)
		}
		if len(got) != 0 {
			t.Fatalf("search of empty store (paper %q) = %v, want none", paper, got)
		}
	}
	if err := s.DeletePaper(context.Background(), "nope"); err != nil {
		t.Fatalf("DeletePaper on empty store: %v", err)
	}
	if err := s.Upsert(context.Background(), nil); err != nil {
		t.Fatalf("Upsert(nil): %v", err)
	}
}

func testK(t *testing.T, open Opener) {
	s := open(t, 8)
	defer s.Close()
	for _, k := range []int{0, -1} {
		if _, err := s.Search(context.Background(), unit(8, 0), "", k); err == nil {
			t.Errorf("empty store: Search with k=%d succeeded, want an error", k)
		}
	}
	mustUpsert(t, s, []vector.Point{{ID: "p#0", PaperID: "p", Vector: unit(8, 0)}})
	for _, k := range []int{0, -1} {
		if _, err := s.Search(context.Background(), unit(8, 0), "p", k); err == nil {
			t.Errorf("Search with k=%d succeeded, want an error", k)
		}
	}
}

func testReference(t *testing.T, open Opener) {
	const dim = 24
	r := rand.New(rand.NewPCG(1, 2))
	s := open(t, dim)
	defer s.Close()
	papers := []string{"trpo", "ppo", "ddpg", "sac"}
	pts := corpus(r, dim, papers, 60)
	// Upsert in two batches of uneven size, as an index build would.
	mustUpsert(t, s, pts[:97])
	mustUpsert(t, s, pts[97:])
	wantCount(t, s, len(pts))
	if d := s.Dim(); d != dim {
		t.Fatalf("Dim() = %d, want %d", d, dim)
	}
	queries := randVecs(r, 8, dim)
	// A stored vector as the query must come back first with score 1.
	queries = append(queries, pts[42].Vector)
	for qi, q := range queries {
		for _, paper := range append([]string{""}, papers...) {
			for _, k := range []int{1, 7, 1000} {
				got := mustSearch(t, s, q, paper, k)
				checkAgainstReference(t, fmt.Sprintf("query %d, paper %q, k %d", qi, paper, k), got, pts, q, paper, k)
			}
		}
	}
	got := mustSearch(t, s, pts[42].Vector, "", 1)
	if got[0].ID != pts[42].ID || math.Abs(got[0].Score-1) > tol {
		t.Fatalf("searching for a stored vector: got %v, want %s with score 1", got, pts[42].ID)
	}
}

func testTies(t *testing.T, open Opener) {
	const dim = 8
	s := open(t, dim)
	defer s.Close()
	v := []float32{1, 2, 3, 4, 5, 6, 7, 8}
	// Twenty identical vectors, inserted in an order unrelated to their IDs,
	// and more of them than k plus any small over-fetch: a store that takes
	// the first k (or k+m) in its own internal order and only then sorts by
	// ID returns the wrong passages.
	var pts []vector.Point
	var tied []string
	for _, i := range rand.New(rand.NewPCG(13, 14)).Perm(20) {
		id := fmt.Sprintf("t#%d", i)
		pts = append(pts, vector.Point{ID: id, PaperID: "t", Vector: v})
		tied = append(tied, id)
	}
	slices.Sort(tied) // t#0, t#1, t#10, t#11, ..., t#19, t#2, ...
	pts = append(pts, vector.Point{ID: "t#99", PaperID: "t", Vector: []float32{8, 7, 6, 5, 4, 3, 2, 1}})
	pts = append(pts, vector.Point{ID: "u#0", PaperID: "u", Vector: v})
	mustUpsert(t, s, pts)
	for _, tc := range []struct {
		paper string
		k     int
		want  []string
	}{
		{"t", 1, tied[:1]},
		{"t", 3, tied[:3]},
		{"", 4, tied[:4]},
		{"", 21, append(slices.Clone(tied), "u#0")},
		{"u", 2, []string{"u#0"}},
		{"t", 30, append(slices.Clone(tied), "t#99")},
	} {
		got := mustSearch(t, s, v, tc.paper, tc.k)
		if ids := idsOf(got); !slices.Equal(ids, tc.want) {
			t.Errorf("paper %q k %d: got %v, want %v (equal scores ordered by ID)", tc.paper, tc.k, ids, tc.want)
		}
	}
}

func testFilter(t *testing.T, open Opener) {
	const dim = 16
	r := rand.New(rand.NewPCG(3, 4))
	s := open(t, dim)
	defer s.Close()
	// Paper ids that share prefixes, so a filter that matched by prefix or
	// substring instead of equality would leak.
	papers := []string{"a", "ab", "a b", "2401.00001", "2401.0000"}
	pts := corpus(r, dim, papers, 15)
	mustUpsert(t, s, pts)
	q := randVecs(r, 1, dim)[0]
	for _, paper := range papers {
		got := mustSearch(t, s, q, paper, 100)
		if len(got) != 15 {
			t.Errorf("paper %q: %d results, want its 15 points", paper, len(got))
		}
		for _, m := range got {
			if m.PaperID != paper || !strings.HasPrefix(m.ID, paper+"#") {
				t.Errorf("paper %q: result %+v is from another paper", paper, m)
			}
		}
	}
	if got := mustSearch(t, s, q, "missing", 5); len(got) != 0 {
		t.Errorf("unknown paper: got %v, want none", got)
	}
	// A caller wanting "everything" may pass the largest int.
	if got := mustSearch(t, s, q, "ab", math.MaxInt); len(got) != 15 {
		t.Errorf("k = MaxInt: %d results, want all 15 of the paper", len(got))
	}
}

func testReplace(t *testing.T, open Opener) {
	const dim = 8
	s := open(t, dim)
	defer s.Close()
	var pts []vector.Point
	for i := range dim {
		pts = append(pts, vector.Point{ID: fmt.Sprintf("p#%d", i), PaperID: "p", Vector: unit(dim, i)})
	}
	mustUpsert(t, s, pts)

	// Same ID, new vector: replaced, not added.
	mustUpsert(t, s, []vector.Point{{ID: "p#0", PaperID: "p", Vector: unit(dim, 5)}})
	wantCount(t, s, dim)
	got := mustSearch(t, s, unit(dim, 0), "p", 1)
	if len(got) == 1 && got[0].ID == "p#0" && got[0].Score > 0.5 {
		t.Errorf("p#0 still found by its old vector: %v", got)
	}
	got = mustSearch(t, s, unit(dim, 5), "p", 2)
	if ids := idsOf(got); !slices.Equal(ids, []string{"p#0", "p#5"}) || math.Abs(got[0].Score-1) > tol {
		t.Errorf("after replacing p#0 by p#5's vector: got %v, want p#0 and p#5 with score 1", got)
	}

	// Same ID, other paper: moved, not copied.
	mustUpsert(t, s, []vector.Point{{ID: "p#1", PaperID: "q", Vector: unit(dim, 1)}})
	wantCount(t, s, dim)
	if got := mustSearch(t, s, unit(dim, 1), "p", 1); got[0].ID == "p#1" {
		t.Errorf("p#1 moved to paper q but still found in paper p: %v", got)
	}
	if got := mustSearch(t, s, unit(dim, 1), "q", 5); len(got) != 1 || got[0].ID != "p#1" || got[0].PaperID != "q" {
		t.Errorf("paper q after moving p#1 there: got %v", got)
	}

	// The same ID twice in one batch: the later one wins.
	mustUpsert(t, s, []vector.Point{
		{ID: "p#2", PaperID: "p", Vector: unit(dim, 3)},
		{ID: "p#2", PaperID: "p", Vector: unit(dim, 7)},
	})
	wantCount(t, s, dim)
	got = mustSearch(t, s, unit(dim, 7), "p", 2)
	if ids := idsOf(got); !slices.Equal(ids, []string{"p#2", "p#7"}) {
		t.Errorf("after a batch upserting p#2 twice: got %v, want the later vector to win", got)
	}
}

func testDelete(t *testing.T, open Opener) {
	const dim = 16
	ctx := context.Background()
	r := rand.New(rand.NewPCG(5, 6))
	s := open(t, dim)
	defer s.Close()
	papers := []string{"x", "y", "z"}
	pts := corpus(r, dim, papers, 25)
	mustUpsert(t, s, pts)
	if err := s.DeletePaper(ctx, "y"); err != nil {
		t.Fatal(err)
	}
	wantCount(t, s, 50)
	q := randVecs(r, 1, dim)[0]
	if got := mustSearch(t, s, q, "y", 10); len(got) != 0 {
		t.Errorf("deleted paper y still has %v", got)
	}
	for _, m := range mustSearch(t, s, q, "", 100) {
		if m.PaperID == "y" {
			t.Errorf("corpus-wide search returns %v from deleted paper y", m)
		}
	}
	var rest []vector.Point
	for _, p := range pts {
		if p.PaperID != "y" {
			rest = append(rest, p)
		}
	}
	checkAgainstReference(t, "after delete", mustSearch(t, s, q, "", 10), rest, q, "", 10)
	if err := s.DeletePaper(ctx, "y"); err != nil {
		t.Errorf("deleting an already deleted paper: %v", err)
	}
	// A deleted paper can be indexed again.
	mustUpsert(t, s, pts[25:30])
	wantCount(t, s, 55)
	if got := mustSearch(t, s, q, "y", 10); len(got) != 5 {
		t.Errorf("re-indexed paper y: %d results, want 5", len(got))
	}
}

func testDimension(t *testing.T, open Opener) {
	const dim = 8
	ctx := context.Background()
	s := open(t, dim)
	defer s.Close()
	mustUpsert(t, s, []vector.Point{{ID: "p#0", PaperID: "p", Vector: unit(dim, 0)}})
	if d := s.Dim(); d != dim {
		t.Fatalf("Dim() = %d after upserting %d-vectors", d, dim)
	}
	// A batch mixing good and bad vectors is refused whole.
	err := s.Upsert(ctx, []vector.Point{
		{ID: "p#1", PaperID: "p", Vector: unit(dim, 1)},
		{ID: "p#2", PaperID: "p", Vector: make4(1)},
	})
	if !errors.Is(err, vector.ErrDimension) {
		t.Fatalf("upsert of a 4-vector into a dimension-8 store: err = %v, want ErrDimension", err)
	}
	for _, want := range []string{"dimension 8", "got 4", "paperlens index --rebuild"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("dimension error %q does not say %q", err, want)
		}
	}
	wantCount(t, s, 1)
	if _, err := s.Search(ctx, make4(1), "", 3); !errors.Is(err, vector.ErrDimension) {
		t.Errorf("search with a 4-vector in a dimension-8 store: err = %v, want ErrDimension", err)
	}
	if _, err := s.Search(ctx, make([]float32, 16), "p", 3); !errors.Is(err, vector.ErrDimension) {
		t.Errorf("search with a 16-vector in a dimension-8 store: err = %v, want ErrDimension", err)
	}
}

func testInvalid(t *testing.T, open Opener) {
	const dim = 4
	ctx := context.Background()
	s := open(t, dim)
	defer s.Close()
	mustUpsert(t, s, []vector.Point{{ID: "p#0", PaperID: "p", Vector: make4(1)}})
	nan := float32(math.NaN())
	for name, p := range map[string]vector.Point{
		"zero vector":  {ID: "p#1", PaperID: "p", Vector: make([]float32, dim)},
		"NaN":          {ID: "p#1", PaperID: "p", Vector: []float32{1, nan, 0, 0}},
		"infinity":     {ID: "p#1", PaperID: "p", Vector: []float32{float32(math.Inf(1)), 0, 0, 0}},
		"empty id":     {ID: "", PaperID: "p", Vector: make4(1)},
		"empty paper":  {ID: "p#1", PaperID: "", Vector: make4(1)},
		"empty vector": {ID: "p#1", PaperID: "p"},
		"wrong length": {ID: "p#1", PaperID: "p", Vector: []float32{1}},
	} {
		if err := s.Upsert(ctx, []vector.Point{p}); err == nil {
			t.Errorf("upsert with %s succeeded, want an error", name)
		}
	}
	wantCount(t, s, 1)
	if _, err := s.Search(ctx, make([]float32, dim), "", 1); err == nil {
		t.Errorf("search with a zero query vector succeeded, want an error")
	}
}

func testConcurrent(t *testing.T, open Opener) {
	const dim = 16
	ctx := context.Background()
	r := rand.New(rand.NewPCG(9, 10))
	s := open(t, dim)
	defer s.Close()
	pts := corpus(r, dim, []string{"a", "b"}, 50)
	mustUpsert(t, s, pts)
	q := randVecs(r, 1, dim)[0]
	want := mustSearch(t, s, q, "a", 5)

	// Searches of paper a run while paper w is written: they must all see
	// the same paper a, and the race detector must see no race.
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	stop := make(chan struct{})
	wg.Go(func() {
		w := rand.New(rand.NewPCG(11, 12))
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			p := vector.Point{ID: fmt.Sprintf("w#%d", i%10), PaperID: "w", Vector: randVecs(w, 1, dim)[0]}
			if err := s.Upsert(ctx, []vector.Point{p}); err != nil {
				errs <- fmt.Errorf("concurrent upsert: %w", err)
				return
			}
		}
	})
	var searchers sync.WaitGroup
	for range 8 {
		searchers.Go(func() {
			for range 25 {
				got, err := s.Search(ctx, q, "a", 5)
				if err != nil {
					errs <- err
					return
				}
				if !sameMatches([][]vector.Match{want}, [][]vector.Match{got}) {
					errs <- fmt.Errorf("concurrent search: got %v, want %v", got, want)
					return
				}
				if _, err := s.Search(ctx, q, "", 5); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	searchers.Wait()
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func testClosed(t *testing.T, open Opener) {
	s := open(t, 4)
	mustUpsert(t, s, []vector.Point{{ID: "p#0", PaperID: "p", Vector: make4(1)}})
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := s.Search(ctx, make4(1), "", 1); err == nil {
		t.Errorf("Search after Close succeeded")
	}
	if err := s.Upsert(ctx, []vector.Point{{ID: "p#1", PaperID: "p", Vector: make4(1)}}); err == nil {
		t.Errorf("Upsert after Close succeeded")
	}
}

// checkAgainstReference compares got with an exact float64 ranking of pts.
// Scores must agree within tol; where reference scores are closer than tol,
// either order is accepted, but got itself must be ordered exactly.
func checkAgainstReference(t *testing.T, what string, got []vector.Match, pts []vector.Point, q []float32, paper string, k int) {
	t.Helper()
	type scored struct {
		vector.Point
		score float64
	}
	var ref []scored
	byID := map[string]scored{}
	for _, p := range pts {
		if paper != "" && p.PaperID != paper {
			continue
		}
		sc := scored{p, cosine(q, p.Vector)}
		ref = append(ref, sc)
		byID[p.ID] = sc
	}
	slices.SortFunc(ref, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	if want := min(k, len(ref)); len(got) != want {
		t.Fatalf("%s: %d results, want %d", what, len(got), want)
	}
	seen := map[string]bool{}
	for i, m := range got {
		r, ok := byID[m.ID]
		switch {
		case !ok:
			t.Fatalf("%s: result %d %+v is not a point of this search", what, i, m)
		case seen[m.ID]:
			t.Fatalf("%s: %s returned twice", what, m.ID)
		case m.PaperID != r.PaperID:
			t.Fatalf("%s: %s has paper %q, stored under %q", what, m.ID, m.PaperID, r.PaperID)
		case math.Abs(m.Score-r.score) > tol:
			t.Fatalf("%s: %s scored %.6f, reference %.6f", what, m.ID, m.Score, r.score)
		case math.Abs(m.Score-ref[i].score) > tol:
			t.Fatalf("%s: rank %d is %s (%.6f), reference has %s (%.6f)", what, i+1, m.ID, m.Score, ref[i].ID, ref[i].score)
		}
		seen[m.ID] = true
		if i > 0 {
			p := got[i-1]
			if p.Score < m.Score || (p.Score == m.Score && p.ID > m.ID) {
				t.Fatalf("%s: results out of order at rank %d: %+v before %+v", what, i+1, p, m)
			}
		}
	}
}

func cosine(a, b []float32) float64 {
	var d, na, nb float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return d / math.Sqrt(na*nb)
}

// corpus makes n points per paper, ids "paper#i", vectors of mixed lengths
// (stores must normalise) and signs.
func corpus(r *rand.Rand, dim int, papers []string, n int) []vector.Point {
	var pts []vector.Point
	for _, paper := range papers {
		for i, v := range randVecs(r, n, dim) {
			pts = append(pts, vector.Point{ID: fmt.Sprintf("%s#%d", paper, i), PaperID: paper, Vector: v})
		}
	}
	return pts
}

func randVecs(r *rand.Rand, n, dim int) [][]float32 {
	out := make([][]float32, n)
	for i := range out {
		v := make([]float32, dim)
		scale := float32(0.1 + 10*r.Float64())
		for j := range v {
			v[j] = float32(r.NormFloat64()) * scale
		}
		out[i] = v
	}
	return out
}

func unit(dim, i int) []float32 {
	v := make([]float32, dim)
	v[i] = 1
	return v
}

func make4(x float32) []float32 { return []float32{x, x, x, x} }

func idsOf(ms []vector.Match) []string {
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return ids
}

func mustUpsert(t *testing.T, s vector.Store, pts []vector.Point) {
	t.Helper()
	if err := s.Upsert(context.Background(), pts); err != nil {
		t.Fatalf("upsert %d points: %v", len(pts), err)
	}
}

func mustSearch(t *testing.T, s vector.Store, q []float32, paper string, k int) []vector.Match {
	t.Helper()
	got, err := s.Search(context.Background(), q, paper, k)
	if err != nil {
		t.Fatalf("search (paper %q, k %d): %v", paper, k, err)
	}
	return got
}

func searchAll(t *testing.T, s vector.Store, queries [][]float32) [][]vector.Match {
	t.Helper()
	var out [][]vector.Match
	for _, q := range queries {
		out = append(out, mustSearch(t, s, q, "", 10), mustSearch(t, s, q, "b", 3))
	}
	return out
}

// sameMatches compares result lists by ID, paper and score within tol.
func sameMatches(a, b [][]vector.Match) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			x, y := a[i][j], b[i][j]
			if x.ID != y.ID || x.PaperID != y.PaperID || math.Abs(x.Score-y.Score) > tol {
				return false
			}
		}
	}
	return true
}

func wantCount(t *testing.T, s vector.Store, want int) {
	t.Helper()
	n, err := s.Count(context.Background())
	if err != nil {
		t.Fatalf("Count: %v", err)
	}
	if n != want {
		t.Fatalf("Count() = %d, want %d", n, want)
	}
}
