package pdftext

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// textPara is an open body paragraph of the given lines, size 10.
func textPara(lines ...string) *para { return &para{lines: lines, size: 10} }

// paraTexts renders paragraphs as their first line, with "*" for notes.
func paraTexts(ps []*para) []string {
	var out []string
	for _, p := range ps {
		s := strings.Join(p.lines, "/")
		if p.note {
			s += "*"
		}
		out = append(out, s)
	}
	return out
}

func TestLiveLines(t *testing.T) {
	b := &block{lines: []*line{{text: "a"}, {text: "  "}, {text: "b", drop: true}, {text: "c"}}}
	var got []string
	for _, l := range liveLines(b) {
		got = append(got, l.text)
	}
	if !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("liveLines = %q, want [a c]", got)
	}
	if liveLines(&block{}) != nil {
		t.Error("liveLines of an empty block is not nil")
	}
}

func TestFirstPageLines(t *testing.T) {
	a, b, side := &line{text: "a"}, &line{text: "b"}, &line{text: "rotated"}
	pages := []*pageLayout{{blocks: []*block{{lines: []*line{a}}, {lines: []*line{side}, side: true}, {lines: []*line{b}}}}, {blocks: []*block{{lines: []*line{{text: "p2"}}}}}}
	if got := firstPageLines(pages); !slices.Equal(got, []*line{a, b}) {
		t.Errorf("firstPageLines = %v, want page 1's two main-direction lines", got)
	}
	if firstPageLines(nil) != nil {
		t.Error("firstPageLines(nil) is not nil")
	}
}

func TestParaFlowAddTable(t *testing.T) {
	pg := &pageLayout{num: 2}
	rows := []*line{{text: "a\t1", size: 8}, {text: "b\t2", size: 8}}
	for _, tc := range []struct {
		name string
		cur  *para
		want []string // paras, then "|", then deferred
	}{
		{"nothing open", nil, []string{"a\t1/b\t2", "|"}},
		{"mid-sentence: held back", textPara("the results in"), []string{"|", "a\t1/b\t2*"}},
		{"sentence ended: emitted after it", textPara("the results."), []string{"the results.", "a\t1/b\t2", "|"}},
		{"after a heading", &para{lines: []string{"3 Results"}, heading: true}, []string{"3 Results", "a\t1/b\t2", "|"}},
	} {
		f := &paraFlow{body: 10, cur: tc.cur}
		f.addTable(pg, rows)
		got := append(append(paraTexts(f.paras), "|"), paraTexts(f.deferred)...)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
		for _, p := range append(f.paras, f.deferred...) {
			if p.table && (p.page != 2 || p.size != 8) {
				t.Errorf("%s: table page %d size %v, want 2 and 8", tc.name, p.page, p.size)
			}
		}
	}
}

func TestParaFlowHoldsBack(t *testing.T) {
	pg := &pageLayout{height: 800}
	body := []*line{{text: "running text", size: 10}}
	small := []*line{{text: "a footnote", size: 8}}
	for _, tc := range []struct {
		name string
		cur  *para
		b    *block
		ls   []*line
		want bool
	}{
		{"body text, nothing open", nil, &block{top: 500}, body, false},
		{"small text low on the page: a note", nil, &block{top: 100}, small, true},
		{"small equation low on the page stays", nil, &block{top: 100, equation: true}, small, false},
		{"a float mid-sentence", textPara("and so"), &block{top: 500, float: true}, body, true},
		{"a float after a sentence", textPara("and so."), &block{top: 500, float: true}, body, false},
		{"rotated text mid-sentence", textPara("and so"), &block{top: 500, side: true}, body, true},
		{"small text high mid-sentence looks like a float", textPara("and so"), &block{top: 500}, small, true},
		{"an equation mid-sentence stays", textPara("and so"), &block{top: 500, equation: true}, small, false},
		{"open paragraph of another size", &para{lines: []string{"title"}, size: 14}, &block{top: 500, float: true}, body, false},
	} {
		f := &paraFlow{body: 10, cur: tc.cur}
		if got := f.holdsBack(pg, tc.b, tc.ls); got != tc.want {
			t.Errorf("%s: holdsBack = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestParaFlowHoldBack(t *testing.T) {
	pg := &pageLayout{num: 3}
	ls := []*line{{text: "1 A footnote.", size: 8, x0: 10, x1: 100}}
	// Nothing open: emitted at once.
	f := &paraFlow{body: 10}
	f.holdBack(pg, &block{}, ls)
	if got := paraTexts(f.paras); !slices.Equal(got, []string{"1 A footnote.*"}) || len(f.deferred) != 0 {
		t.Errorf("nothing open: paras %q deferred %d", got, len(f.deferred))
	}
	// A paragraph open: held until it closes.
	f = &paraFlow{body: 10, cur: textPara("and so")}
	f.holdBack(pg, &block{side: true}, ls)
	if len(f.paras) != 0 || len(f.deferred) != 1 || !f.deferred[0].side || f.deferred[0].page != 3 {
		t.Errorf("paragraph open: paras %d deferred %d", len(f.paras), len(f.deferred))
	}
	f.closeCur()
	if got := paraTexts(f.paras); !slices.Equal(got, []string{"and so", "1 A footnote.*"}) {
		t.Errorf("after closeCur: %q", got)
	}
}

func TestBlockParagraphs(t *testing.T) {
	pg := &pageLayout{num: 4}
	ls := []*line{{text: "x = y", size: 10, x0: 100, x1: 150, y: 500}, {text: "+ z (1)", size: 10, x0: 100, x1: 160, y: 480}}
	got := blockParagraphs(pg, &block{equation: true}, ls, 10)
	if len(got) != 1 || !slices.Equal(got[0].lines, []string{"x = y", "+ z (1)"}) || !got[0].note || !got[0].indented || got[0].page != 4 {
		t.Errorf("equation: %+v", got)
	}
	got = blockParagraphs(pg, &block{side: true}, ls[:1], 10)
	if len(got) != 1 || got[0].note || !got[0].side || got[0].page != 4 {
		t.Errorf("text: %+v", got)
	}
}

func TestParaFlowAdd(t *testing.T) {
	for _, tc := range []struct {
		name string
		cur  *para
		bp   []*para
		want []string // closed paras, then "|", then the open one
	}{
		{"first block", nil, []*para{textPara("one."), textPara("two")}, []string{"one.", "|", "two"}},
		{"runs on mid-sentence", textPara("the model"), []*para{textPara("reads papers."), textPara("next")}, []string{"the model/reads papers.", "|", "next"}},
		{"a new sentence does not run on", textPara("done."), []*para{textPara("New")}, []string{"done.", "|", "New"}},
		{"an indented paragraph does not run on", textPara("the model"), []*para{{lines: []string{"reads"}, size: 10, indented: true}}, []string{"the model", "|", "reads"}},
		{"the whole block ran on", textPara("the model"), []*para{textPara("reads")}, []string{"|", "the model/reads"}},
	} {
		f := &paraFlow{body: 10, cur: tc.cur}
		f.add(tc.bp)
		got := append(paraTexts(f.paras), "|")
		if f.cur != nil {
			got = append(got, strings.Join(f.cur.lines, "/"))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestWriteParas(t *testing.T) {
	ps := []*para{
		{lines: []string{"a  b\t1", "", "c\t 2"}, table: true},
		{lines: []string{"hyphen-", "ated ﬁne"}},
		{lines: []string{"  "}},
		{lines: []string{"\t"}, table: true},
	}
	got := writeParas(ps, map[string]bool{"hyphenated": true})
	var texts []string
	for _, p := range got {
		texts = append(texts, p.text)
	}
	if want := []string{"a b\t1\nc\t2", "hyphenated fine"}; !slices.Equal(texts, want) {
		t.Errorf("writeParas = %q, want %q", texts, want)
	}
}

func TestTextExtentAndEdges(t *testing.T) {
	pages := []*pageLayout{
		{blocks: []*block{{lines: []*line{{y: 700, text: "top"}, {y: 100, text: "bottom"}, {y: 50, text: " "}}}, {side: true, lines: []*line{{y: 790, text: "rotated"}}}}},
		{},
	}
	e := textExtent(pages)
	if e.top[0] != 700 || e.bot[0] != 100 || !math.IsInf(e.top[1], -1) || !math.IsInf(e.bot[1], 1) {
		t.Errorf("textExtent = %+v", e)
	}
	for _, tc := range []struct {
		y    float64
		want bool
	}{{700, true}, {686, true}, {684, false}, {400, false}, {114, true}, {116, false}} {
		if got := atTextEdge(700, 100, &line{y: tc.y, size: 10}); got != tc.want {
			t.Errorf("atTextEdge(y=%v) = %v, want %v", tc.y, got, tc.want)
		}
	}
	pg := &pageLayout{height: 1000}
	for _, tc := range []struct {
		y    float64
		want bool
	}{{881, true}, {880, false}, {119, true}, {120, false}} {
		if got := inPageMargin(pg, &line{y: tc.y}); got != tc.want {
			t.Errorf("inPageMargin(y=%v) = %v, want %v", tc.y, got, tc.want)
		}
	}
}

func TestFurnitureKeyAndRepeats(t *testing.T) {
	if got := furnitureKey(&line{text: "  Page 12  of 30 "}); got != "page # of #" {
		t.Errorf("furnitureKey = %q", got)
	}
	mk := func(num int, ys ...float64) *pageLayout {
		pg := &pageLayout{num: num, height: 1000}
		b := &block{}
		for _, y := range ys {
			b.lines = append(b.lines, &line{y: y, size: 10, text: "Journal 2024"})
		}
		pg.blocks = []*block{b, {side: true, lines: []*line{{y: 950, text: "Journal 2024"}}}}
		return pg
	}
	pages := []*pageLayout{mk(1, 950, 500, 300), mk(2, 940)}
	seen := repeatedAtEdges(pages, textExtent(pages))
	// Page 1's 500 is neither in the margin nor at an edge; 300 is its
	// last line; the rotated copy is not counted.
	want := []furnitureOcc{{1, 950}, {1, 300}, {2, 940}}
	if got := seen["journal #"]; !slices.Equal(got, want) {
		t.Errorf("repeatedAtEdges = %v, want %v", got, want)
	}
}

func TestIsFurniture(t *testing.T) {
	pg := &pageLayout{height: 1000}
	seen := map[string][]furnitureOcc{
		"running head": {{1, 950}, {2, 951}, {3, 990}},
		"#":            {{1, 850}, {2, 850}, {3, 850}},
		"# # #":        {{1, 850}, {2, 850}, {3, 850}},
	}
	const bot = 60.0
	for _, tc := range []struct {
		name string
		y    float64
		text string
		top  float64 // the page's first text line
		need int
		want bool
	}{
		{"running head on two pages at its height", 950, "Running head", 950, 2, true},
		{"running head needs three pages", 950, "Running head", 950, 3, false},
		{"page number at the margin's last line", 60, "12", 950, 3, true},
		{"page number in the foot margin", 70, "- 12 -", 950, 3, true},
		{"page number as the first line below the margin", 850, "7", 850, 3, true},
		{"page number near the first line, not on it", 850, "7", 852, 3, false},
		{"numbers at the edge without letters", 845, "1 2 3", 852, 2, false},
		{"body line", 500, "Running head", 950, 2, false},
		{"unseen text in the margin", 955, "Other", 950, 2, false},
	} {
		if got := isFurniture(pg, &line{y: tc.y, size: 10, text: tc.text}, tc.top, bot, seen, tc.need); got != tc.want {
			t.Errorf("%s: isFurniture = %v, want %v", tc.name, got, tc.want)
		}
	}
}
