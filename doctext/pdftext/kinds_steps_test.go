package pdftext

import (
	"slices"
	"testing"

	"github.com/paperlens/paperlens/chunk/kind"
)

// figParas builds paragraphs of the given texts on page 2; a text
// starting with "^" is rotated.
func figParas(texts ...string) ([]*para, []string, []kind.Kind) {
	var ps []*para
	var ts []string
	for _, t := range texts {
		p := &para{page: 2}
		if t != "" && t[0] == '^' {
			t, p.side = t[1:], true
		}
		p.text = t
		ps = append(ps, p)
		ts = append(ts, t)
	}
	return ps, ts, make([]kind.Kind, len(texts))
}

func TestTitleBlockEnd(t *testing.T) {
	for _, tc := range []struct {
		name  string
		pages []int
		head  int // index of the heading, -1 for none
		want  int
	}{
		{"heading on page 1", []int{1, 1, 1, 1}, 2, 2},
		{"no heading", []int{1, 1, 1}, -1, 0},
		{"page 2 before a heading", []int{1, 1, 2, 2}, -1, 2},
		{"empty", nil, -1, 0},
	} {
		var ps []*para
		for i, pg := range tc.pages {
			ps = append(ps, &para{page: pg, heading: i == tc.head})
		}
		if got := titleBlockEnd(ps); got != tc.want {
			t.Errorf("%s: titleBlockEnd = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestRunBreakingHeading(t *testing.T) {
	for _, tc := range []struct {
		name string
		ts   []string
		j    int
		want bool
	}{
		{"heading among words", []string{"legend", "4 Example", "more"}, 1, true},
		{"axis title between ticks", []string{"8", "10 Number of Draft Tokens", "12"}, 1, false},
		{"at the start", []string{"4 Example", "12"}, 0, true},
		{"at the end", []string{"8", "4 Example"}, 1, true},
		{"not a heading", []string{"8", "legend", "12"}, 1, false},
	} {
		if got := runBreakingHeading(tc.ts, tc.j); got != tc.want {
			t.Errorf("%s: runBreakingHeading = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestFragmentRun(t *testing.T) {
	for _, tc := range []struct {
		name     string
		texts    []string
		marked   int // index already marked, -1 for none
		i        int
		wantJ    int
		wantNums int
	}{
		{"ticks and labels", []string{"0", "5", "10", "Accuracy", "This sentence is running text of the paper body and is long enough."}, -1, 0, 4, 3},
		{"a marked paragraph ends the run", []string{"0", "5", "10"}, 1, 0, 1, 1},
		{"a heading ends the run", []string{"legend", "key", "4 Example", "x"}, -1, 0, 2, 0},
		{"a rotated paragraph of running text joins", []string{"0", "^Accuracy of the model on the held out set of questions.", "5"}, -1, 0, 3, 2},
	} {
		ps, ts, ks := figParas(tc.texts...)
		if tc.marked >= 0 {
			ks[tc.marked] = kind.Caption
		}
		j, nums := fragmentRun(ps, ts, ks, tc.i)
		if j != tc.wantJ || nums != tc.wantNums {
			t.Errorf("%s: fragmentRun = %d, %d; want %d, %d", tc.name, j, nums, tc.wantJ, tc.wantNums)
		}
	}
}

func TestNearCaption(t *testing.T) {
	ks := []kind.Kind{kind.Caption, "", "", "", "", "", "", kind.Caption}
	for _, tc := range []struct {
		i, j, want int
	}{
		{1, 5, 7},  // after, within three
		{1, 4, 0},  // too far after: the one before
		{4, 4, -1}, // neither within three
		{2, 7, 7},  // right after
	} {
		if got := nearCaption(ks, tc.i, tc.j); got != tc.want {
			t.Errorf("nearCaption(%d, %d) = %d, want %d", tc.i, tc.j, got, tc.want)
		}
	}
}

func TestMarkFigureText(t *testing.T) {
	F, T, C := kind.FigureText, kind.Table, kind.Caption
	for _, tc := range []struct {
		name  string
		texts []string
		pre   map[int]kind.Kind
		want  []kind.Kind
	}{
		{"ticks before a figure caption", []string{"0", "5", "10", "Accuracy", "Figure 2: Accuracy."},
			map[int]kind.Kind{4: C}, []kind.Kind{F, F, F, F, C}},
		{"labels before a table caption", []string{"0", "5", "10", "Accuracy", "Table 2: Accuracy."},
			map[int]kind.Kind{4: C}, []kind.Kind{T, T, T, T, C}},
		{"short run without a caption stays", []string{"0", "5", "10", "Accuracy"},
			nil, []kind.Kind{"", "", "", ""}},
		{"eight fragments without a caption", []string{"a", "b", "c", "d", "e", "f", "g", "h"},
			nil, []kind.Kind{F, F, F, F, F, F, F, F}},
		{"too few numbers", []string{"alpha", "beta", "gamma", "5", "Figure 1: x"},
			map[int]kind.Kind{4: C}, []kind.Kind{"", "", "", "", C}},
		{"rotated axis title alone", []string{"^Accuracy (%)", "This sentence is running text of the paper body and is long enough."},
			nil, []kind.Kind{F, ""}},
		{"rotated paragraph in a short run", []string{"0", "^Accuracy"},
			nil, []kind.Kind{"", F}},
	} {
		ps, ts, ks := figParas(tc.texts...)
		for k, v := range tc.pre {
			ks[k] = v
		}
		// A heading on page 1 ends the title block before these.
		ps = append([]*para{{page: 1, heading: true}}, ps...)
		ts = append([]string{"1 Introduction"}, ts...)
		ks = append([]kind.Kind{kind.Heading}, ks...)
		markFigureText(ps, ts, ks)
		if !slices.Equal(ks[1:], tc.want) {
			t.Errorf("%s: kinds %q, want %q", tc.name, ks[1:], tc.want)
		}
	}
}
