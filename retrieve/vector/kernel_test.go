package vector

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The unrolled loop has three tails (16, 8, 1); lengths 0..70 cross each.
func TestDotMatchesFloat64(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for n := range 71 {
		a, b := make([]float32, n), make([]float32, n)
		var want float64
		for i := range a {
			a[i], b[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
			want += float64(a[i]) * float64(b[i])
		}
		if got := float64(dot(a, b)); math.Abs(got-want) > 1e-4*math.Max(1, math.Abs(want)) {
			t.Errorf("len %d: dot = %v, float64 reference %v", n, got, want)
		}
	}
}

func TestDotShorterFirstArgument(t *testing.T) {
	// dot reads len(a) elements; a longer b (a row sliced from a slab) must
	// not change the result.
	a := []float32{1, 2, 3}
	b := []float32{4, 5, 6, 100, 100}
	if got := dot(a, b); got != 32 {
		t.Errorf("dot = %v, want 32", got)
	}
}

// TestTopKMatchesSort feeds random scores with many exact ties and checks
// the heap keeps exactly what a full sort would put first.
func TestTopKMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for trial := range 200 {
		n := r.IntN(60)
		k := 1 + r.IntN(12)
		var all []Match
		h := newTopK(k)
		for i := range n {
			sc := float32(r.IntN(8)) / 8 // few distinct values: ties everywhere
			id := fmt.Sprintf("p#%d", r.IntN(1000)*1000+i)
			all = append(all, Match{ID: id, PaperID: "p", Score: float64(sc)})
			if f, full := h.floor(); full && sc < f {
				continue
			}
			h.push(cand{score: sc, id: id, paper: "p"})
		}
		SortMatches(all)
		want := all[:min(k, len(all))]
		if got := h.matches(); !slices.Equal(got, want) {
			t.Fatalf("trial %d (n %d, k %d):\ngot  %v\nwant %v", trial, n, k, got, want)
		}
	}
}

func TestNormalize(t *testing.T) {
	got, err := Normalize(nil, []float32{3, 4})
	if err != nil || !slices.Equal(got, []float32{0.6, 0.8}) {
		t.Errorf("Normalize(3,4) = %v, %v", got, err)
	}
	// Large components would overflow a float32 sum of squares.
	got, err = Normalize(nil, []float32{3e30, 4e30})
	if err != nil || math.Abs(float64(got[0])-0.6) > 1e-6 {
		t.Errorf("Normalize(3e30,4e30) = %v, %v", got, err)
	}
	for _, v := range [][]float32{{0, 0}, {float32(math.NaN()), 1}, {float32(math.Inf(-1)), 0}} {
		if _, err := Normalize(nil, v); err == nil {
			t.Errorf("Normalize(%v) succeeded", v)
		}
	}
}

func TestSortMatches(t *testing.T) {
	ms := []Match{{ID: "b", Score: 0.5}, {ID: "a", Score: 0.5}, {ID: "c", Score: 0.9}, {ID: "d", Score: -1}}
	SortMatches(ms)
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	if !slices.Equal(ids, []string{"c", "a", "b", "d"}) {
		t.Errorf("SortMatches order %v", ids)
	}
}

// scoreRows (dot's assembly kernel on amd64) must give dotGo's bits
// exactly, for every length (the 8-wide kernel, the tails) and row count:
// golden rankings and their ties must not depend on the machine.
func TestScoreRowsBitIdentical(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, dim := range []int{1, 3, 7, 8, 9, 15, 16, 17, 24, 33, 64, 100, 256, 384} {
		for _, rows := range []int{1, 3, 4, 5, 8, 11} {
			q := make([]float32, dim)
			m := make([]float32, dim*rows)
			for i := range q {
				q[i] = float32(r.NormFloat64())
			}
			for i := range m {
				m[i] = float32(r.NormFloat64())
			}
			got := make([]float32, rows)
			scoreRows(q, m, got)
			for i := range rows {
				if want := dotGo(q, m[i*dim:(i+1)*dim]); math.Float32bits(got[i]) != math.Float32bits(want) {
					t.Fatalf("dim %d, row %d of %d: scoreRows %v, dot %v", dim, i, rows, got[i], want)
				}
			}
		}
	}
}
