package pdftext

import (
	"slices"
	"strings"
	"testing"
)

// tw is a word at x for the synthetic lines below; each character is half
// an em wide.
type tw struct {
	x float64
	s string
}

// mkLine builds a line at baseline y of size-point words.
func mkLine(y, size float64, ws ...tw) *line {
	l := &line{y: y, size: size}
	var texts []string
	for i, w := range ws {
		x1 := w.x + 0.5*size*float64(len([]rune(w.s)))
		l.words = append(l.words, word{x0: w.x, x1: x1, y: y, size: size, text: w.s, nchars: len(w.s)})
		if i == 0 {
			l.x0 = w.x
		}
		l.x1 = x1
		texts = append(texts, w.s)
	}
	l.text = strings.Join(texts, " ")
	return l
}

// words lays out text from x as a line's words one space (a quarter em)
// apart.
func words(x, size float64, text string) []tw {
	var out []tw
	for _, w := range strings.Fields(text) {
		out = append(out, tw{x, w})
		x += 0.5*size*float64(len([]rune(w))) + 0.25*size
	}
	return out
}

func cutPiece(l *line) rowPiece { return rowPiece{l, splitCells(l)} }

// row builds a table row of one line, its seed mark as markSeeds gives it.
func row(l *line) *tableRow {
	p := cutPiece(l)
	r := &tableRow{pieces: []rowPiece{p}, blocks: []*block{{}}, x0: l.x0, x1: l.x1, y: l.y, size: l.size, cells: len(p.cells)}
	markSeeds([]*tableRow{r})
	return r
}

// cellsLine sets cells at the given x positions, one word each.
func cellsLine(y float64, cells ...tw) *line { return mkLine(y, 10, cells...) }

const prose12 = "the model reads every paper in the corpus and then answers the question"

func TestProseLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    *line
		want bool
	}{
		{"paragraph line", mkLine(100, 10, words(50, 10, prose12)...), true},
		{"short label", mkLine(100, 10, words(50, 10, "Methods")...), false},
		{"numbers in cells", cellsLine(100, tw{50, "12.3"}, tw{120, "45.6"}, tw{190, "78.9"}), false},
		{"eight words of one cell", mkLine(100, 10, words(50, 10, "one two three four five six seven eight")...), true},
		{"wide but numeric", mkLine(100, 10, words(50, 10, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27")...), false},
	} {
		if got := proseLine(cutPiece(tc.l)); got != tc.want {
			t.Errorf("%s: proseLine = %v, want %v (cells %d)", tc.name, got, tc.want, len(cutPiece(tc.l).cells))
		}
	}
}

func TestProseBlocks(t *testing.T) {
	para, mixed, table := &block{}, &block{}, &block{}
	p := func(b *block, text string) tablePiece {
		return tablePiece{cutPiece(mkLine(100, 10, words(50, 10, text)...)), b}
	}
	es := []tablePiece{
		p(para, prose12), p(para, prose12), p(para, prose12), p(para, "end."),
		p(mixed, prose12), p(mixed, prose12), p(mixed, "A"), p(mixed, "B"), p(mixed, "C"),
		p(table, "A 1"), p(table, prose12),
	}
	got := proseBlocks(es)
	for _, tc := range []struct {
		name string
		b    *block
		want bool
	}{{"paragraph", para, true}, {"two prose lines of five", mixed, false}, {"one prose line", table, false}} {
		if got[tc.b] != tc.want {
			t.Errorf("%s: prose %v, want %v", tc.name, got[tc.b], tc.want)
		}
	}
}

func TestNeverInTable(t *testing.T) {
	captioned := &block{caption: &block{}}
	plain := &block{}
	prose := map[*block]bool{}
	proseB := &block{}
	prose[proseB] = true
	for _, tc := range []struct {
		name string
		l    *line
		b    *block
		want bool
	}{
		{"cell row", cellsLine(100, tw{50, "BLEU"}, tw{150, "12.3"}), plain, false},
		{"in a prose block", cellsLine(100, tw{50, "BLEU"}, tw{150, "12.3"}), proseB, true},
		{"running text", mkLine(100, 10, words(50, 10, prose12)...), plain, true},
		{"wide row name under a caption", mkLine(100, 10, words(50, 10, "Google NIC (Vinyals et al., 2014) Soft-Attention Hard-Attention")...), captioned, false},
		{"same row name without a caption", mkLine(100, 10, words(50, 10, "Google NIC (Vinyals et al., 2014) Soft-Attention Hard-Attention")...), plain, true},
		{"caption", mkLine(100, 10, words(50, 10, "Table 2: Results")...), plain, true},
		{"numbered heading", mkLine(100, 10, words(50, 10, "3 Method")...), plain, true},
	} {
		if got := neverInTable(tablePiece{cutPiece(tc.l), tc.b}, prose, 10); got != tc.want {
			t.Errorf("%s: neverInTable = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestRowContinues(t *testing.T) {
	table := &block{x0: 100, x1: 500, lines: []*line{mkLine(700, 10, words(100, 10, "Table 1: Scores")...)}}
	figure := &block{x0: 100, x1: 500, lines: []*line{mkLine(700, 10, words(100, 10, "Figure 1: Scores")...)}}
	cur := func(x1 float64, caption *block) *tableRow {
		return &tableRow{blocks: []*block{{caption: caption}}, x1: x1}
	}
	at := func(x float64, caption *block) tablePiece {
		return tablePiece{cutPiece(mkLine(100, 10, tw{x, "0.5"})), &block{caption: caption}}
	}
	for _, tc := range []struct {
		name string
		cur  *tableRow
		e    tablePiece
		want bool
	}{
		{"close", cur(100, nil), at(140, nil), true},
		{"a quad apart on one side", cur(100, nil), at(200, nil), true},
		{"too far", cur(100, nil), at(300, nil), false},
		{"across the gutter", cur(250, nil), at(340, nil), false},
		{"close across the gutter", cur(290, nil), at(320, nil), true},
		{"across the middle in one table's float", cur(250, table), at(340, table), true},
		{"across the middle under a figure", cur(250, figure), at(340, figure), false},
	} {
		if got := rowContinues(tc.cur, tc.e, 612); got != tc.want {
			t.Errorf("%s: rowContinues = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestBaselineRows(t *testing.T) {
	b := &block{}
	e := func(l *line) tablePiece { return tablePiece{cutPiece(l), b} }
	es := []tablePiece{
		e(cellsLine(680, tw{200, "beta"})),
		e(cellsLine(700, tw{150, "12.0"})),
		e(cellsLine(701, tw{50, "alpha"})), // a point higher: the same baseline
		e(cellsLine(680, tw{50, "gamma"})),
		e(mkLine(680, 10, words(400, 10, "Table 3 shows")...)), // breaks the row
		e(cellsLine(680, tw{480, "9"})),
	}
	rows := baselineRows(es, 612, func(e tablePiece) bool { return strings.HasPrefix(e.piece.l.text, "Table") })
	var got []string
	for _, r := range rows {
		var ts []string
		for _, p := range r.pieces {
			ts = append(ts, p.l.text)
		}
		got = append(got, strings.Join(ts, "|"))
	}
	want := []string{"alpha|12.0", "gamma|beta", "9"}
	if !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
	if rows[0].cells != 2 || rows[0].x0 != 50 || rows[0].x1 != 170 {
		t.Errorf("first row cells %d x %v..%v, want 2 cells 50..170", rows[0].cells, rows[0].x0, rows[0].x1)
	}
}

func TestMarkSeeds(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    *line
		want bool
	}{
		{"two cells", cellsLine(100, tw{50, "BLEU"}, tw{150, "12.3"}), true},
		{"one cell", cellsLine(100, tw{50, "BLEU"}), false},
		{"numbered equation", cellsLine(100, tw{50, "x+y"}, tw{300, "(3)"}), false},
		{"equals sign", cellsLine(100, tw{50, "a=b"}, tw{150, "c"}), false},
		{"summation", cellsLine(100, tw{50, "∑x"}, tw{150, "c"}), false},
		{"hyphenated justified line", cellsLine(100, tw{50, "some"}, tw{150, "hyphen-"}), false},
	} {
		if got := row(tc.l).seed; got != tc.want {
			t.Errorf("%s: seed = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// scoreRows is a small table: a two-line header, three score rows, a
// group label inside, and a paragraph line far below.
func scoreRows() []*tableRow {
	return []*tableRow{
		row(cellsLine(730, tw{50, "Methods"})),                                // 0: header, first line
		row(cellsLine(718, tw{100, "BLEU"}, tw{200, "ROUGE"})),                // 1: header, second line
		row(cellsLine(706, tw{50, "Ours"}, tw{100, "12.1"}, tw{200, "30.2"})), // 2
		row(cellsLine(694, tw{50, "Base"}, tw{100, "11.0"}, tw{200, "28.7"})), // 3
		row(cellsLine(682, tw{60, "Group"})),                                  // 4: a group label
		row(cellsLine(670, tw{50, "Old"}, tw{100, "9.5"}, tw{200, "25.0"})),   // 5
		row(cellsLine(658, tw{60, "notes"})),                                  // 6: trails the table
		row(cellsLine(500, tw{50, "Far"}, tw{100, "1.0"}, tw{200, "2.0"})),    // 7: far below
	}
}

func TestGrowDown(t *testing.T) {
	rows := scoreRows()
	for _, tc := range []struct {
		name   string
		i      int
		used   []int
		want   []int
		x0, x1 float64
	}{
		{"from the first score row", 2, nil, []int{2, 3, 4, 5, 6}, 50, 220},
		{"a used row is skipped", 2, []int{4}, []int{2, 3, 5, 6}, 50, 220},
		{"from the header's cells", 1, nil, []int{1, 2, 3, 4, 5, 6}, 50, 225},
		{"the far row stands alone", 7, nil, []int{7}, 50, 215},
	} {
		used := make([]bool, len(rows))
		for _, k := range tc.used {
			used[k] = true
		}
		group, x0, x1 := growDown(rows, used, tc.i)
		if !slices.Equal(group, tc.want) || x0 != tc.x0 || x1 != tc.x1 {
			t.Errorf("%s: growDown = %v %v..%v, want %v %v..%v", tc.name, group, x0, x1, tc.want, tc.x0, tc.x1)
		}
	}
}

func TestTakeHeaders(t *testing.T) {
	rows := scoreRows()
	for _, tc := range []struct {
		name  string
		group []int
		used  []int
		want  []int
	}{
		{"one header line above the first row of cells", []int{2, 3}, nil, []int{2, 3}}, // row 1 is a seed: headers stop there
		{"headers above a seed header", []int{1, 2}, nil, []int{0, 1, 2}},
		{"a used row stops the headers", []int{1, 2}, []int{0}, []int{1, 2}},
		{"nothing above the top", []int{0, 1}, nil, []int{0, 1}},
	} {
		used := make([]bool, len(rows))
		for _, k := range tc.used {
			used[k] = true
		}
		if got := takeHeaders(rows, used, tc.group, 50, 210); !slices.Equal(got, tc.want) {
			t.Errorf("%s: takeHeaders = %v, want %v", tc.name, got, tc.want)
		}
	}
	// A header ending a sentence is the paragraph above, not a header.
	rows[0] = row(cellsLine(730, tw{50, "Above."}))
	if got := takeHeaders(rows, make([]bool, len(rows)), []int{1, 2}, 50, 210); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("sentence end above: takeHeaders = %v, want [1 2]", got)
	}
}

func TestTakeSkipped(t *testing.T) {
	rows := scoreRows()
	for _, tc := range []struct {
		name  string
		group []int
		used  []int
		want  []int
	}{
		{"the group label between score rows", []int{2, 3, 5}, nil, []int{2, 3, 4, 5}},
		{"a used row stays out", []int{2, 3, 5}, []int{4}, []int{2, 3, 5}},
		{"one row has nothing inside", []int{2}, nil, []int{2}},
	} {
		used := make([]bool, len(rows))
		for _, k := range tc.used {
			used[k] = true
		}
		if got := takeSkipped(rows, used, tc.group); !slices.Equal(got, tc.want) {
			t.Errorf("%s: takeSkipped = %v, want %v", tc.name, got, tc.want)
		}
	}
	// Taking rows along that leave too few rows of cells for a table
	// keeps the group as it was.
	thin := []*tableRow{
		row(cellsLine(706, tw{50, "Ours"}, tw{100, "12.1"}, tw{200, "30.2"})),
		row(cellsLine(694, tw{50, "broken"})),
		row(cellsLine(682, tw{50, "name"})),
		row(cellsLine(670, tw{50, "Old"}, tw{100, "9.5"}, tw{200, "25.0"})),
	}
	if got := takeSkipped(thin, make([]bool, 4), []int{0, 3}); !slices.Equal(got, []int{0, 3}) {
		t.Errorf("too few rows of cells: takeSkipped = %v, want [0 3]", got)
	}
}

func TestGrowTable(t *testing.T) {
	rows := scoreRows()
	// Grown down from row 1 to the trailing "notes", which is dropped, with
	// "Methods" above taken as a header.
	if got := growTable(rows, make([]bool, len(rows)), 1); !slices.Equal(got, []int{0, 1, 2, 3, 4, 5}) {
		t.Errorf("growTable = %v, want [0 1 2 3 4 5]", got)
	}
}

func TestIsTableStages(t *testing.T) {
	scores := func(extra ...*tableRow) []*tableRow {
		rs := []*tableRow{
			row(cellsLine(706, tw{50, "Ours"}, tw{100, "12.1"}, tw{200, "30.2"})),
			row(cellsLine(694, tw{50, "Base"}, tw{100, "11.0"}, tw{200, "28.7"})),
			row(cellsLine(682, tw{50, "Oldy"}, tw{100, "09.5"}, tw{200, "25.0"})),
		}
		return append(rs, extra...)
	}
	for _, tc := range []struct {
		name      string
		rs        []*tableRow
		text      bool
		inner     int
		wantTable bool
	}{
		{"scores", scores(), true, 4, true},
		{"contents leaders", scores(row(cellsLine(670, tw{50, "Intr"}, tw{100, "....."}, tw{200, "3"}))), false, 4, false},
		{"axis ticks", scores(row(cellsLine(670, tw{50, "0"}, tw{100, "5"}, tw{200, "10"}))), false, 4, false},
		{"no labels", []*tableRow{
			row(cellsLine(706, tw{50, "1"}, tw{100, "12.1"}, tw{200, "30.2"})),
			row(cellsLine(694, tw{50, "2"}, tw{100, "11.0"}, tw{200, "28.7"})),
			row(cellsLine(682, tw{50, "3"}, tw{100, "9.5"}, tw{200, "25.0"})),
		}, false, 3, false},
		{"columns not lined up", []*tableRow{ // only the row names' right edge is shared
			row(cellsLine(706, tw{50, "Ours"}, tw{120, "12.1"})),
			row(cellsLine(694, tw{50, "Base"}, tw{160, "11.0"})),
			row(cellsLine(682, tw{50, "Oldy"}, tw{200, "09.5"})),
		}, true, 1, false},
	} {
		if got := tableLikeText(tc.rs); got != tc.text {
			t.Errorf("%s: tableLikeText = %v, want %v", tc.name, got, tc.text)
		}
		if got := innerColumnEdges(tc.rs, seedEdges(tc.rs)); got != tc.inner {
			t.Errorf("%s: innerColumnEdges = %d, want %d", tc.name, got, tc.inner)
		}
		if got := isTable(tc.rs); got != tc.wantTable {
			t.Errorf("%s: isTable = %v, want %v", tc.name, got, tc.wantTable)
		}
	}
}
