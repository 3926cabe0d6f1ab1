package run

import (
	"slices"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/retrieve"
)

func TestPlaceHits(t *testing.T) {
	p := tenPassages()
	h := func(id string, rank int) retrieve.Hit { return retrieve.Hit{PassageID: id, Rank: rank} }
	x := func(o int) string { return corpus.PassageID("x", o) }
	for _, tc := range []struct {
		name   string
		hits   []retrieve.Hit
		placed []int
		alone  []string
		left   int
	}{
		{"two hits", []retrieve.Hit{h(x(3), 1), h(x(7), 2)}, []int{3, 7}, nil, 80},
		{"a duplicate counts once", []retrieve.Hit{h(x(3), 1), h(x(3), 2)}, []int{3}, nil, 90},
		{"unknown passage alone", []retrieve.Hit{h("x#77", 1), h(x(1), 2)}, []int{1}, []string{"x#77"}, 90},
		{"another paper's passage alone", []retrieve.Hit{h(corpus.PassageID("y", 2), 1)}, nil, []string{corpus.PassageID("y", 2)}, 100},
	} {
		hitAt, alone, left := placeHits(tc.hits, p, 100)
		var placed []int
		for o := range hitAt {
			placed = append(placed, o)
		}
		slices.Sort(placed)
		var ids []string
		for _, g := range alone {
			ids = append(ids, g.id)
		}
		if !slices.Equal(placed, tc.placed) || !slices.Equal(ids, tc.alone) || left != tc.left {
			t.Errorf("%s: placed %v alone %v left %d; want %v %v %d", tc.name, placed, ids, left, tc.placed, tc.alone, tc.left)
		}
	}
	// The first of two hits on one passage is the one kept.
	hitAt, _, _ := placeHits([]retrieve.Hit{h(x(3), 4), h(x(3), 1)}, p, 100)
	if hitAt[3].Rank != 4 {
		t.Errorf("kept rank %d, want the first hit's 4", hitAt[3].Rank)
	}
}

func TestNeighbours(t *testing.T) {
	at := func(rank ...int) map[int]retrieve.Hit {
		m := map[int]retrieve.Hit{}
		for i := 0; i+1 < len(rank); i += 2 {
			m[rank[i]] = retrieve.Hit{Rank: rank[i+1]}
		}
		return m
	}
	for _, tc := range []struct {
		name  string
		hitAt map[int]retrieve.Hit
		n     int
		want  []neighbour
	}{
		{"one hit, one each side", at(5, 1), 1, []neighbour{{4, 1, 1}, {6, 1, 1}}},
		{"paper edge", at(0, 1), 2, []neighbour{{1, 1, 1}, {2, 2, 1}}},
		{"better hit's first at equal distance", at(2, 2, 6, 1), 1, []neighbour{{5, 1, 1}, {7, 1, 1}, {1, 1, 2}, {3, 1, 2}}},
		{"nearest hit claims a shared neighbour", at(2, 1, 5, 2), 2, []neighbour{{1, 1, 1}, {3, 1, 1}, {4, 1, 2}, {6, 1, 2}, {0, 2, 1}, {7, 2, 2}}},
		{"hits are not neighbours", at(4, 1, 5, 2), 1, []neighbour{{3, 1, 1}, {6, 1, 2}}},
		{"none", at(), 3, []neighbour{}},
	} {
		if got := neighbours(tc.hitAt, tc.n, 10); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestMergeRuns(t *testing.T) {
	p := tenPassages()
	hitAt := map[int]retrieve.Hit{2: {Rank: 3}, 8: {Rank: 1}}
	for _, tc := range []struct {
		keep []int
		want []string
	}{
		{[]int{2}, []string{"x#2"}},
		{[]int{1, 2, 3, 8, 9}, []string{"x#1-3", "x#8-9"}},
		{[]int{9, 8, 2}, []string{"x#2", "x#8-9"}},
		{nil, nil},
	} {
		keep := map[int]bool{}
		for _, o := range tc.keep {
			keep[o] = true
		}
		var ids []string
		for _, g := range mergeRuns(keep, hitAt, p) {
			ids = append(ids, g.id)
		}
		if !slices.Equal(ids, tc.want) {
			t.Errorf("keep %v: %v, want %v", tc.keep, ids, tc.want)
		}
	}
}
