package pdftext

import (
	"slices"
	"strings"
	"testing"
)

// rect is a block spanning x0..x1 horizontally and bottom..top.
func rect(x0, x1, bottom, top float64, name string) *block {
	return &block{x0: x0, x1: x1, bottom: bottom, top: top, lines: []*line{{text: name}}}
}

func blockNames(bs []*block) string {
	var out []string
	for _, b := range bs {
		out = append(out, b.lines[0].text)
	}
	return strings.Join(out, " ")
}

func TestPrecedes(t *testing.T) {
	left := rect(50, 290, 400, 700, "left")
	right := rect(310, 560, 400, 700, "right")
	under := rect(50, 290, 100, 350, "under")
	wide := rect(50, 560, 360, 390, "wide")
	low := rect(310, 560, 100, 300, "low")
	for _, tc := range []struct {
		name string
		bs   []*block
		i, j int
		want bool
	}{
		{"above in one column", []*block{left, under}, 0, 1, true},
		{"below in one column", []*block{left, under}, 1, 0, false},
		{"left column before right", []*block{left, right}, 0, 1, true},
		{"right column not before left", []*block{left, right}, 1, 0, false},
		{"a full-width block between separates the columns", []*block{left, low, wide}, 0, 1, false},
		{"without it the left comes first", []*block{left, low}, 0, 1, true},
		{"equal tops: first in bs", []*block{rect(50, 290, 400, 700, "a"), rect(100, 200, 400, 700, "b")}, 0, 1, true},
		{"equal tops: not the second", []*block{rect(50, 290, 400, 700, "a"), rect(100, 200, 400, 700, "b")}, 1, 0, false},
		{"touching within the tolerance is side by side", []*block{rect(50, 300.5, 400, 700, "a"), rect(300, 560, 600, 700, "b")}, 0, 1, true},
	} {
		if got := precedes(tc.bs, tc.i, tc.j); got != tc.want {
			t.Errorf("%s: precedes = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestReadBefore(t *testing.T) {
	bs := []*block{rect(310, 560, 400, 700, "right"), rect(50, 290, 400, 700, "left"), rect(50, 560, 100, 300, "foot")}
	before, indeg := readBefore(bs)
	want := [][]bool{{false, false, true}, {true, false, true}, {false, false, false}}
	for i := range want {
		if !slices.Equal(before[i], want[i]) {
			t.Errorf("before[%d] = %v, want %v", i, before[i], want[i])
		}
	}
	if !slices.Equal(indeg, []int{1, 0, 2}) {
		t.Errorf("indeg = %v, want [1 0 2]", indeg)
	}
}

func TestNextFree(t *testing.T) {
	a, b, c := rect(50, 100, 600, 700, "a"), rect(200, 300, 650, 710, "b"), rect(50, 100, 300, 400, "c")
	bs := []*block{a, b, c}
	for _, tc := range []struct {
		name  string
		done  []bool
		indeg []int
		want  int
	}{
		{"topmost free", []bool{false, false, false}, []int{0, 0, 0}, 1},
		{"the free one", []bool{false, false, false}, []int{0, 1, 1}, 0},
		{"done ones skipped", []bool{false, true, false}, []int{0, 0, 0}, 0},
		{"cycle: fewest waiting", []bool{false, false, false}, []int{2, 1, 1}, 1},
		{"cycle: tie by position", []bool{false, false, false}, []int{1, 2, 1}, 0},
	} {
		if got := nextFree(bs, tc.done, tc.indeg); got != tc.want {
			t.Errorf("%s: nextFree = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestTopoOrderColumns(t *testing.T) {
	for _, tc := range []struct {
		name string
		bs   []*block
		want string
	}{
		{"two columns under a title", []*block{
			rect(310, 560, 100, 600, "R"), rect(50, 290, 100, 600, "L"), rect(50, 560, 650, 700, "title"),
		}, "title L R"},
		{"two rows of columns split by a figure", []*block{
			rect(310, 560, 500, 700, "R1"), rect(50, 290, 500, 700, "L1"), rect(50, 560, 400, 480, "fig"),
			rect(310, 560, 100, 380, "R2"), rect(50, 290, 100, 380, "L2"),
		}, "L1 R1 fig L2 R2"},
		{"one block", []*block{rect(0, 1, 0, 1, "x")}, "x"},
	} {
		if got := blockNames(topoOrder(tc.bs)); got != tc.want {
			t.Errorf("%s: topoOrder = %q, want %q", tc.name, got, tc.want)
		}
	}
}
