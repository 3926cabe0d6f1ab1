package pdftext

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/paperlens/paperlens/chunk"
	"github.com/paperlens/paperlens/chunk/kind"
)

// TestDumpSpans writes every corpus PDF's text with its spans marked, one
// "[kind>>" ... "<<kind]" around each marked stretch, into $PDFTEXT_SPANS,
// to review the classification by eye. $PDFTEXT_SPANS_GLOB picks other
// files.
func TestDumpSpans(t *testing.T) {
	dir := os.Getenv("PDFTEXT_SPANS")
	if dir == "" {
		t.Skip("set PDFTEXT_SPANS=dir to write text with spans marked")
	}
	files := corpusPDFs(t)
	if g := os.Getenv("PDFTEXT_SPANS_GLOB"); g != "" {
		files, _ = filepath.Glob(g) // other PDFs, such as a ground-truth set
	}
	for _, f := range files {
		d := extracted(t, f)
		var sb strings.Builder
		pos := 0
		for _, sp := range d.Spans {
			sb.WriteString(d.Text[pos:sp.Start])
			fmt.Fprintf(&sb, "[%s>>", sp.Kind)
			sb.WriteString(d.Text[sp.Start:sp.End])
			fmt.Fprintf(&sb, "<<%s]", sp.Kind)
			pos = sp.End
		}
		sb.WriteString(d.Text[pos:])
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)+".txt"), []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// equationOrTableLine is the test's own definition of a line that must
// never be a section heading, kept apart from the extractor's rules: it
// holds '=', a tab or a mathematical symbol or arrow (mis-mapped maths
// fonts give ⇡ and ⇠); it has no word of three letters; under 60% of its
// non-blank characters are letters (the section number aside); two or
// more of its words are numbers; a word recurs three times (a table
// header, "RWMD RWMD WCD RWMD"); or its section number has a leading zero.
func equationOrTableLine(title string) (bool, string) {
	t := strings.TrimSpace(title)
	ws := strings.Fields(t)
	if len(ws) > 0 && sectionNumRE.MatchString(ws[0]) {
		if strings.HasPrefix(ws[0], "0") {
			return true, "section number with a leading zero"
		}
		ws = ws[1:]
	}
	letters, other, long, nums := 0, 0, false, 0
	seen := map[string]int{}
	for _, w := range ws {
		wl := 0
		for _, r := range w {
			switch {
			case r == '=' || r == '\t' || r >= 0x2190 && r <= 0x23ff || unicode.Is(unicode.Sm, r) && !strings.ContainsRune("+-|", r):
				return true, fmt.Sprintf("maths symbol %q", r)
			case unicode.IsLetter(r):
				letters++
				wl++
			default:
				other++
			}
		}
		if wl >= 3 {
			long = true
		}
		if testNumRE.MatchString(strings.Trim(w, "()[],;:")) {
			nums++
		}
		if seen[strings.ToLower(w)]++; seen[strings.ToLower(w)] == 3 && len(w) > 1 {
			return true, fmt.Sprintf("%q three times", w)
		}
	}
	switch {
	case !long:
		return true, "no word of three letters"
	case letters*10 < (letters+other)*6:
		return true, "under 60% letters"
	case nums >= 2:
		return true, "two or more numbers"
	}
	return false, ""
}

var (
	sectionNumRE = regexp.MustCompile(`^(?:\d{1,2}|[A-Z])(?:\.\d{1,2})*\.?$`)
	testNumRE    = regexp.MustCompile(`^[-+±]?\d[\d.,]*%?$`)
)

// numberingBreak checks that numbered headings run in order: each section
// number follows the one before (a sibling, a child, or a later top-level
// section at most two on), except that numbering may restart at 1 (the
// body after a contents page) and letters (appendices) follow digits.
// Chart labels ("10 Number of Draft Tokens" after A.3) and table rows
// ("00 RWMD ...") break it.
func numberingBreak(titles []string) []string {
	var bad []string
	var prev []int
	letters := false
	for _, title := range titles {
		ws := strings.Fields(title)
		if len(ws) < 2 || !sectionNumRE.MatchString(ws[0]) {
			continue
		}
		parts := strings.Split(strings.TrimSuffix(ws[0], "."), ".")
		var num []int
		isLetter := parts[0][0] >= 'A' && parts[0][0] <= 'Z'
		for i, p := range parts {
			if i == 0 && isLetter {
				num = append(num, int(p[0]-'A')+1)
				continue
			}
			n, _ := strconv.Atoi(p)
			num = append(num, n)
		}
		switch {
		case isLetter && !letters:
			letters = true
		case !isLetter && letters && !(num[0] == 1 && len(num) == 1):
			bad = append(bad, title)
			continue
		case num[0] == 1 && len(num) == 1:
		case prev != nil && !follows(prev, num):
			bad = append(bad, title)
			continue
		}
		if !isLetter && letters && num[0] == 1 {
			letters = false
		}
		prev = num
	}
	return bad
}

// follows reports whether section number b may come right after a.
func follows(a, b []int) bool {
	for i := 0; i < len(b); i++ {
		if i >= len(a) {
			return i == len(b)-1 && b[i] <= 2 // a first child
		}
		if b[i] != a[i] {
			return b[i] > a[i] && b[i] <= a[i]+2 && i == len(b)-1
		}
	}
	return false // the same number again, or a parent after its child
}

// TestNoEquationOrTableHeadings runs over every shared PDF: no section
// heading the extractor sets apart, and no section label of the passages
// chunk.Split makes from the text, is an equation or a table line, and the
// section numbers of the labels run in order. Headings inside a table,
// figure-text or contents span are errors too.
func TestNoEquationOrTableHeadings(t *testing.T) {
	for _, path := range corpusPDFs(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			d := extracted(t, path)
			var titles []string
			for _, h := range chunk.Headings(d.Text) {
				if k := kind.At(d.Spans, h.Start); k == kind.Table || k == kind.FigureText {
					t.Errorf("heading %q inside a %s span", h.Title, k)
				}
				if kind.At(d.Spans, h.Start) == kind.Contents {
					continue // the contents page repeats the headings
				}
				if bad, why := equationOrTableLine(h.Title); bad {
					t.Errorf("heading %q is an equation or table line (%s)", h.Title, why)
				}
				titles = append(titles, h.Title)
			}
			for _, p := range chunk.Split(d.Text, chunk.Options{}) {
				if bad, why := equationOrTableLine(p.Section); p.Section != "" && bad {
					t.Errorf("passage %d's section %q is an equation or table line (%s)", p.Ordinal, p.Section, why)
				}
			}
			for _, h := range numberingBreak(titles) {
				t.Errorf("heading %q breaks the section numbering", h)
			}
			if len(titles) < 5 {
				t.Errorf("only %d headings: %q", len(titles), titles)
			}
		})
	}
}

// spanOf returns the span holding the first occurrence of s in d.Text, and
// whether s lies wholly inside it.
func spanOf(t *testing.T, d *Document, s string) (kind.Kind, bool) {
	t.Helper()
	i := strings.Index(d.Text, s)
	if i < 0 {
		t.Fatalf("%q not in the text", s)
	}
	k := kind.At(d.Spans, i)
	for _, sp := range d.Spans {
		if sp.Start <= i && i+len(s) <= sp.End {
			return k, true
		}
	}
	return k, false
}

// TestSpansOnCorpus checks concrete facts about the kinds marked in the
// shared PDFs.
func TestSpansOnCorpus(t *testing.T) {
	tests := []struct {
		file, text string
		want       kind.Kind
	}{
		// DeepSeek-R1's contents page ranked first for a question about
		// its reward.
		{"deepseek-r1.pdf", "2.2.2 Reward Modeling", kind.Contents},
		{"deepseek-r1.pdf", "Contents", kind.Contents},
		// Its chart's tick labels formed a whole passage.
		{"deepseek-r1.pdf", "96.3 96.6", kind.FigureText},
		{"deepseek-r1.pdf", "Accuracy / Percentile (%)", kind.FigureText},
		{"rest-speculative-decoding.pdf", "Number of Draft Tokens", kind.FigureText},
		// First-page venue footers.
		{"batchnorm.pdf", "Proceedings of the 32 nd International Conference on Machine Learning", kind.FrontMatter},
		{"ares-rag-eval.pdf", "Proceedings of the 2024 Conference of the North American Chapter", kind.FrontMatter},
		{"e5-hierarchical-tables.pdf", "Work done during Zhehao Zhang", kind.FrontMatter},
		// The title and abstract are content.
		{"batchnorm.pdf", "Batch Normalization: Accelerating Deep Network Training", kind.Body},
		{"batchnorm.pdf", "Training Deep Neural Networks is complicated", kind.Body},
		{"semqa.pdf", "SEMQA: Semi-Extractive Multi-Source Question Answering", kind.Body},
		{"semqa.pdf", "Jonathan Berant", kind.FrontMatter},
		// Captions and headings.
		{"e5-hierarchical-tables.pdf", "Table 1: The experiment results on HiTab.", kind.Caption},
		{"e5-hierarchical-tables.pdf", "4.2 F3: Find, Filter and Fill", kind.Heading},
		// A reference in the middle of the list, and an appendix after it.
		{"e5-hierarchical-tables.pdf", "Wenhu Chen, Ming-Wei Chang, Eva Schlinger", kind.References},
		{"e5-hierarchical-tables.pdf", "A Ablation Studies", kind.Heading},
	}
	for _, tc := range tests {
		t.Run(tc.file+"/"+tc.text, func(t *testing.T) {
			d := extracted(t, filepathJoin(t, "corpus", "pdf", tc.file))
			k, whole := spanOf(t, d, tc.text)
			if k != tc.want || tc.want != kind.Body && !whole {
				t.Errorf("%q is %s (wholly inside one span: %v), want %s", tc.text, k, whole, tc.want)
			}
		})
	}
}

// TestReferencesMarked: every paper's references section is marked from
// its heading on, over its entries.
func TestReferencesMarked(t *testing.T) {
	for _, path := range corpusPDFs(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			d := extracted(t, path)
			var refs []kind.Span
			for _, sp := range d.Spans {
				if sp.Kind == kind.References {
					refs = append(refs, sp)
				}
			}
			if len(refs) == 0 {
				t.Fatal("no references span")
			}
			if h := d.Text[refs[0].Start:min(refs[0].End, refs[0].Start+12)]; !strings.HasPrefix(strings.ToLower(h), "references") {
				t.Errorf("the references span starts with %q, not the heading", h)
			}
			// Figure labels or a caption floating into the list split it.
			n := 0
			for _, sp := range refs {
				n += strings.Count(d.Text[sp.Start:sp.End], "\n\n") + 1
			}
			if n < 10 {
				t.Errorf("the references spans hold only %d paragraphs", n)
			}
		})
	}
}

// TestTableRows: E5's Table 1, whose cells were read into the sentence
// running past it, is a Table span of tab-separated rows, and the
// sentence reads on.
func TestTableRows(t *testing.T) {
	tests := []struct {
		file, sentence string
		rows           []string
	}{
		{"e5-hierarchical-tables.pdf", "during the experimentation phase, we empirically find",
			[]string{"Method\tEM Score\tGPT-4 Eval", "Zero-shot CoT\t78.74\t91.36", "E5(Ours)\t85.08\t93.11"}},
		// A full-width table cut by the gutter: row names as wide as a
		// paragraph's last line, with footnote marks (†∘Σ), an inch left
		// of their scores. Left out of the table, they were read into the
		// sentence it interrupts.
		{"show-attend-tell.pdf", "To create the annotations ai used by our decoder, we used the Oxford VGGnet",
			[]string{"Google NIC(Vinyals et al., 2014)†Σ\t63\t41\t27\t—\t—", "Soft-Attention\t67\t44.8\t29.9\t19.5\t18.93",
				"CMU/MS Research (Chen & Zitnick, 2014)a\t—\t—\t—\t—\t20.41"}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			d := extracted(t, filepathJoin(t, "corpus", "pdf", tc.file))
			for _, row := range tc.rows {
				if k, whole := spanOf(t, d, row); k != kind.Table || !whole {
					t.Errorf("row %q is %s, want a table row", row, k)
				}
				i := strings.Index(d.Text, row)
				if (i > 0 && d.Text[i-1] != '\n') || i+len(row) < len(d.Text) && d.Text[i+len(row)] != '\n' {
					t.Errorf("row %q is not a line of its own", row)
				}
			}
			if !strings.Contains(d.Text, tc.sentence) {
				t.Errorf("the sentence around the table is interrupted: %q not found", tc.sentence)
			}
		})
	}
}

func TestNotHeadingText(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"1 Introduction", false},
		{"4.2.1. ACCELERATING BN NETWORKS", false},
		{"4.1 E5: Explain, Extract, Execute, Exhibit", false},
		{"References", false},
		{"lc(st+l) , # lc(st+l) , A⇡(s, a) = Q⇡(s, a) V⇡(s)", true},
		{"00 RWMD RWMD WCD RWMD WMD c2", true},
		{"1 Gemini-2.5-Pro 47.22 55.74 45.83", true},
		{"5 Results 0.45 0.42", true},
		{"3 x ∈ X", true},
	}
	for _, tc := range tests {
		if got := notHeadingText(tc.text); got != tc.want {
			t.Errorf("notHeadingText(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// synthLine makes a line of 10 pt words, 5 pt per character, on
// baseline y. Each argument is a cell starting at the paired x; the words
// inside a cell are set 3 pt apart, as justified spaces are.
func synthLine(y float64, xs []float64, cells ...string) *line {
	l := &line{}
	for i, c := range cells {
		x := xs[i]
		for _, w := range strings.Fields(c) {
			l.words = append(l.words, word{x0: x, x1: x + 5*float64(len(w)), y: y, size: 10, text: w, nchars: len(w)})
			x += 5*float64(len(w)) + 3
		}
	}
	l.measure()
	l.finish()
	return l
}

// TestFindTables lays out a small page: a paragraph, a three-column table
// whose columns became blocks of their own, and a paragraph after it. The
// table must come out as one block of tab-separated rows where the first
// cell block was, and the prose must be left alone.
func TestFindTables(t *testing.T) {
	prose := func(y float64) *line {
		return synthLine(y, []float64{72}, "Running text that fills the whole measure of the column and more.")
	}
	before := &block{}
	before.add(prose(700))
	before.add(prose(688))
	names, a, b := &block{}, &block{}, &block{}
	rows := []struct {
		y       float64
		n, x, z string
	}{{650, "Method", "EM", "F1"}, {636, "Zero-shot", "78.56", "87.84"}, {622, "ReAct", "81.87", "91.50"}, {608, "E5", "85.08", "93.11"}}
	for _, r := range rows {
		names.add(synthLine(r.y, []float64{72}, r.n))
		a.add(synthLine(r.y, []float64{200}, r.x))
		b.add(synthLine(r.y, []float64{300}, r.z))
	}
	after := &block{}
	after.add(prose(570))
	pg := &pageLayout{width: 612, height: 792, blocks: []*block{before, names, a, b, after}}
	tables := map[*block]bool{}
	findTables(pg, 10, tables)
	if len(pg.blocks) != 3 || !tables[pg.blocks[1]] {
		t.Fatalf("got %d blocks, want prose, table, prose", len(pg.blocks))
	}
	want := "Method\tEM\tF1\nZero-shot\t78.56\t87.84\nReAct\t81.87\t91.50\nE5\t85.08\t93.11"
	if got := tableText(rowTexts(pg.blocks[1].lines)); got != want {
		t.Errorf("table =\n%s\nwant\n%s", got, want)
	}
	if pg.blocks[0] != before || pg.blocks[2] != after {
		t.Errorf("the prose blocks were changed")
	}

	// Two columns of prose side by side are not a table.
	left, right := &block{}, &block{}
	for y := 700.0; y > 600; y -= 12 {
		left.add(synthLine(y, []float64{72}, "Some running words"))
		right.add(synthLine(y, []float64{320}, "other running words"))
	}
	pg = &pageLayout{width: 612, height: 792, blocks: []*block{left, right}}
	findTables(pg, 10, map[*block]bool{})
	if len(pg.blocks) != 2 || pg.blocks[0] != left {
		t.Errorf("two prose columns became a table")
	}
}

// TestWriteTextKinds classifies a small synthetic document.
func TestWriteTextKinds(t *testing.T) {
	p := func(page int, text string) *para { return &para{page: page, text: text} }
	h := func(page int, text string) *para { return &para{page: page, text: text, heading: true} }
	paras := []*para{
		p(1, "A Real Title of a Paper"),
		p(1, "Ann Author University of Somewhere ann@example.org"),
		h(1, "Abstract"),
		p(1, "We study things at length and report what we found in them."),
		p(1, "Proceedings of the 41st International Conference on Machine Learning, Vienna, Austria."),
		h(2, "Contents"),
		p(2, "1 Introduction . . . . . . . . 3"),
		p(2, "2 Method . . . . . . . . 4"),
		p(2, "2.1 Data . . . . . . . . 5"),
		h(3, "1 Introduction"),
		p(3, "0"), p(3, "20"), p(3, "40"), p(3, "Accuracy"), p(3, "60"),
		p(3, "Figure 1: Accuracy grows."),
		{page: 3, text: "Model\tEM\nOurs\t1.0", table: true},
		h(4, "References"),
		p(4, "A. Author. 2020. A paper. In Proceedings of Things."),
		p(4, "B. Author. 2021. Another paper."),
		h(5, "A Proofs"),
		p(5, "The proof is short."),
	}
	text, spans := writeText(paras, "A Real Title of a Paper")
	at := func(s string) kind.Kind {
		i := strings.Index(text, s)
		if i < 0 {
			t.Fatalf("%q not in %q", s, text)
		}
		return kind.At(spans, i)
	}
	tests := []struct {
		text string
		want kind.Kind
	}{
		{"A Real Title", kind.Body},
		{"Ann Author", kind.FrontMatter},
		{"Abstract", kind.Heading},
		{"We study things", kind.Body},
		{"Proceedings of the 41st", kind.FrontMatter},
		{"Contents", kind.Contents},
		{"2.1 Data", kind.Contents},
		{"1 Introduction\n", kind.Heading},
		{"0 20 40 Accuracy 60", kind.FigureText}, // one paragraph
		{"Figure 1:", kind.Caption},
		{"Model\tEM", kind.Table},
		{"References", kind.References},
		{"B. Author", kind.References},
		{"A Proofs", kind.Heading},
		{"The proof is short.", kind.Body},
	}
	for _, tc := range tests {
		if got := at(tc.text); got != tc.want {
			t.Errorf("%q is %s, want %s", tc.text, got, tc.want)
		}
	}
	if !slices.IsSortedFunc(spans, func(a, b kind.Span) int { return a.Start - b.Start }) {
		t.Errorf("spans not sorted: %v", spans)
	}
	for i := 1; i < len(spans); i++ {
		if spans[i].Start < spans[i-1].End {
			t.Errorf("spans %v and %v overlap", spans[i-1], spans[i])
		}
	}
}

func TestTickRowAndTableText(t *testing.T) {
	row := func(cells ...string) *tableRow {
		xs := make([]float64, len(cells))
		for i := range xs {
			xs[i] = 72 + 60*float64(i)
		}
		l := synthLine(700, xs, cells...)
		return &tableRow{pieces: []rowPiece{{l, splitCells(l)}}}
	}
	tests := []struct {
		cells []string
		tick  bool
	}{
		{[]string{"0", "5", "10", "15"}, true},
		{[]string{"10K", "20K", "30K"}, true},
		{[]string{"−2", "0", "2"}, true},
		{[]string{"78.56", "87.84", "91.36"}, false},
		{[]string{"Zero-shot", "78.56", "87.84"}, false},
		{[]string{"1", "2"}, false},
	}
	for _, tc := range tests {
		if got := tickRow(row(tc.cells...)); got != tc.tick {
			t.Errorf("tickRow(%q) = %v, want %v", tc.cells, got, tc.tick)
		}
	}
	if got, want := tableText([]string{"ﬁne  tuning\t 1.0", "\t", "x\ty"}), "fine tuning\t1.0\nx\ty"; got != want {
		t.Errorf("tableText = %q, want %q", got, want)
	}
}

// TestVenueFootersMarked: first-page venue footers ("Proceedings of the
// 32nd International Conference on Machine Learning ...", printed at the
// foot of page 1 in 11 of the 14 shared PDFs) are front matter.
func TestVenueFootersMarked(t *testing.T) {
	marked := 0
	for _, path := range corpusPDFs(t) {
		d := extracted(t, path)
		for _, p := range strings.Split(d.Text, "\n\n") {
			if !strings.HasPrefix(p, "Proceedings of the") {
				continue
			}
			if k, whole := spanOf(t, d, p); k != kind.FrontMatter || !whole {
				t.Errorf("%s: venue footer %.60q is %s", filepath.Base(path), p, k)
				continue
			}
			marked++
			break
		}
	}
	if marked < 11 {
		t.Errorf("venue footers marked in %d PDFs, want 11", marked)
	}
}

// TestDefaultDropOnDeepSeek: with the kinds ingest drops by default, the
// contents page and the chart labels of DeepSeek-R1 are gone and its
// sections and abstract stay.
func TestDefaultDropOnDeepSeek(t *testing.T) {
	d := extracted(t, filepathJoin(t, "corpus", "pdf", "deepseek-r1.pdf"))
	text, _ := kind.Drop(d.Text, d.Spans, kind.NewSet(kind.DefaultDrop))
	for _, gone := range []string{"1.1 Contributions . . .", "96.3 96.6", "Accuracy / Percentile (%)"} {
		if strings.Contains(text, gone) {
			t.Errorf("%q is still there", gone)
		}
	}
	for _, kept := range []string{"2.2.2. Reward Modeling", "We introduce our first-generation reasoning models", "Figure 1 | Benchmark performance"} {
		if !strings.Contains(text, kept) {
			t.Errorf("%q was dropped", kept)
		}
	}
}
