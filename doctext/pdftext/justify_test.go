package pdftext

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// quantilePDF is the groff -ms sample paper checked into the repository.
var quantilePDF = filepath.Join("..", "..", "testdata", "papers", "quantile-early-exit-asr.pdf")

func normSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// justifiedLine places words on one baseline from x0 to x1 in 10 pt
// Courier (6 pt a character), spreading the slack evenly over the spaces
// as a justifying typesetter does, and returns them with the gap width.
func justifiedLine(x0, x1, y float64, words ...string) ([]synthText, float64) {
	chars := 0
	for _, w := range words {
		chars += len(w)
	}
	gap := (x1 - x0 - 6*float64(chars)) / float64(len(words)-1)
	var out []synthText
	x := x0
	for _, w := range words {
		out = append(out, synthText{x: x, y: y, size: 10, s: w})
		x += 6*float64(len(w)) + gap
	}
	return out, gap
}

// TestSyntheticJustifiedTwoColumns: on a two-column page, a justified line
// whose stretched spaces are wider than lineGap is split into pieces at
// first; they must be rejoined in order, without losing any. The page has
// a full-width title and abstract above the columns, as page 1 of a short
// paper does: those lines cross the gutter, and used to outnumber what
// findGutter allowed, so the page had no gutter and the pieces stayed
// apart, to be scattered over several blocks ("exits early on chunks
// many", "where the" read after the right column).
func TestSyntheticJustifiedTwoColumns(t *testing.T) {
	const x0, x1 = 60.0, 276.0 // left column: 36 characters of Courier 10
	const r0 = 320.0           // right column
	abstract := []string{
		"Streaming speech recognition encoders run every layer on every audio chunk,",
		"although many chunks, such as pauses and clearly articulated words, are",
		"easy. Early-exit heads let a chunk leave the encoder after fewer layers,",
		"but exit rules based on a raw confidence threshold give no control over",
		"the accuracy cost, and a threshold that works on read speech is far too",
		"permissive on conversational speech. We propose a method which calibrates",
		"exit thresholds on held-out data so that, with high probability, the",
		"increase in token errors caused by exiting a chunk early stays below a",
		"tolerance chosen by the user. On two test sets the method reduces the",
		"average encoder depth from twelve to eight layers and the latency by a",
		"quarter while increasing the word error rate by less than half a point,",
		"which makes early exit usable for conversational speech recognition.",
	}
	before := []string{
		"The usual answer is a threshold on",
		"the entropy of the output, tuned on",
		"a development set to reach a target",
		"depth. In our experiments the value",
		"tuned on read speech exits early on",
	}
	after := []string{
		"intermediate head is confidently",
		"wrong, e.g., on disfluencies and on",
		"overlapping speech in the recording.",
		"QCEE replaces the tuned threshold by",
		"a calibrated one that bounds errors.",
	}
	right := []string{
		"The base model is a 12-layer stream-",
		"ing encoder with 320 ms chunks and a",
		"connectionist temporal classifica-",
		"tion output layer. We add exit heads",
		"after layers 6 and 9, each made of a",
		"layer normalisation and a linear CTC",
		"projection; together they add 4% to",
		"the parameter count of the encoder.",
		"All heads are trained jointly with",
		"CTC losses weighted by their depth.",
		"The final head is the full model.",
	}
	for _, tc := range []struct {
		name  string
		words []string // the justified line
	}{
		// 1.5 em spaces: the pieces are rejoined once the gutter is known
		// (under 2.5 em apart, same side), and as a justified run.
		{"gaps-1.5em", []string{"many", "dialogue", "chunks", "where", "the"}},
		// 2.4 em spaces, with a one-letter word in the run.
		{"gaps-2.4em", []string{"some", "long", "dialog", "turns", "a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var pg []synthText
			pg = append(pg, synthText{x: 180, y: 740, size: 14, s: "Quantile Calibrated Early Exit"})
			pg = append(pg, column(72, 700, abstract...)...)
			pg = append(pg, column(x0, 530, before...)...)
			just, gap := justifiedLine(x0, x1, 530-12*float64(len(before)), tc.words...)
			if gap < 1.5*10 {
				t.Fatalf("test setup: gap %.1f pt is not wide", gap)
			}
			pg = append(pg, just...)
			pg = append(pg, column(x0, 530-12*float64(len(before)+1), after...)...)
			pg = append(pg, column(r0, 530, right...)...)
			doc := synthDoc(t, "Justified Two-Column Page", [][]synthText{pg})
			text := normSpace(doc.Text)

			want := "tuned on read speech exits early on " + strings.Join(tc.words, " ") +
				" intermediate head is confidently wrong"
			if !strings.Contains(text, want) {
				t.Errorf("justified line (%.1f pt spaces) not read in place; want %q in\n%s", gap, want, doc.Text)
			}
			// Nothing lost or duplicated: the words are the words drawn.
			var drawn []string
			for _, s := range pg {
				drawn = append(drawn, s.s)
			}
			f1, p, r := wordF1(normWords(doc.Text), normWords(strings.Join(drawn, "\n")))
			if f1 < 0.999 {
				t.Errorf("word F1 %.4f (precision %.4f, recall %.4f) against the words drawn", f1, p, r)
			}
			// The left column is read before the right one.
			if i, j := strings.Index(text, "a calibrated one"), strings.Index(text, "The base model"); i < 0 || j < 0 || i > j {
				t.Errorf("columns out of order:\n%s", doc.Text)
			}
		})
	}
}

// TestJustifiedRunNoGutter: with too few lines to find a column gutter,
// buildLines still rejoins a justified line's evenly spread pieces, in
// order, but not the right column's line on the same baseline.
func TestJustifiedRunNoGutter(t *testing.T) {
	var ws []word
	add := func(x, y float64, s string) {
		ws = append(ws, word{x0: x, x1: x + 6*float64(len(s)), y: y, size: 10, text: s, nchars: len(s)})
	}
	add(60, 700, "A short note in the left column")
	// 1.5 em spaces, over lineGap: split, then rejoined.
	x := 60.0
	for _, w := range []string{"many", "dialogue", "chunks", "where", "the"} {
		add(x, 688, w)
		x += 6*float64(len(w)) + 15
	}
	add(320, 688, "The right column says something") // 44 pt past "the": the gutter
	add(60, 676, "head is confidently wrong there.")
	var got []string
	for _, l := range buildLines(ws, 612) {
		got = append(got, l.text)
	}
	want := []string{"A short note in the left column", "many dialogue chunks where the", "The right column says something", "head is confidently wrong there."}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("lines = %q, want %q", got, want)
	}
}

// TestQuantileEarlyExitASR checks the groff sample paper: page 1's left
// column has the justified line "many   conversational   chunks   where
// the" under a full-width abstract, which used to come out as "exits early
// on chunks many" with the rest of the line read after section 2.2.
func TestQuantileEarlyExitASR(t *testing.T) {
	if _, err := os.Stat(quantilePDF); err != nil {
		t.Skipf("sample paper not found: %v", err)
	}
	doc := extracted(t, quantilePDF)
	want := "exits early on many conversational chunks where the intermediate head is confidently wrong"
	if !strings.Contains(normSpace(doc.Text), want) {
		t.Errorf("text lacks %q:\n%s", want, doc.Text)
	}
	// A clean groff PDF: the words must be pdftotext's, none lost.
	needPdftotext(t)
	f1, p, r := wordF1(normWords(doc.Text), normWords(pdftotext(t, quantilePDF)))
	t.Logf("quantile-early-exit-asr.pdf: F1 %.4f (precision %.4f, recall %.4f)", f1, p, r)
	if f1 < 0.99 {
		t.Errorf("word F1 %.4f < 0.99 against pdftotext", f1)
	}
}

// TestSymbolBuiltinEncoding: the standard 14 font Symbol, not embedded,
// with neither /Encoding nor /ToUnicode (as older groff wrote \(*e), must
// be decoded through its built-in encoding; likewise ZapfDingbats.
func TestSymbolBuiltinEncoding(t *testing.T) {
	pg := []synthText{
		{x: 72, y: 700, size: 10, s: "tolerance"},
		{x: 130, y: 700, size: 10, s: "e", font: "F3"}, // epsilon
		{x: 140, y: 700, size: 10, s: "with"},
		{x: 170, y: 700, size: 10, s: "a\xa3b", font: "F3"}, // alpha lessequal beta
		{x: 72, y: 680, size: 10, s: "marks"},
		{x: 110, y: 680, size: 10, s: "3l", font: "F4"}, // check mark, black circle
		{x: 72, y: 660, size: 10, s: "sums"},
		{x: 104, y: 660, size: 10, s: "\xe5\xb9", font: "F5"}, // Differences for 0xE5 only
	}
	data := synthPDFWith("Symbol Encoding Test", [][]synthText{pg}, func(objs []string) {
		for i, o := range objs {
			if strings.Contains(o, "/Type /Page ") {
				objs[i] = strings.Replace(o, " >> >> /Contents", " /F3 << /Type /Font /Subtype /Type1 /BaseFont /Symbol >>"+
					" /F4 << /Type /Font /Subtype /Type1 /BaseFont /ZapfDingbats >>"+
					" /F5 << /Type /Font /Subtype /Type1 /BaseFont /Symbol /Encoding << /Type /Encoding /Differences [229 /Sigma] >> >>"+
					" >> >> /Contents", 1)
			}
		}
	})
	doc, err := Extract(context.Background(), bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"tolerance ε with α≤β", "marks ✓●", "sums Σ≠"} {
		if !strings.Contains(normSpace(doc.Text), want) {
			t.Errorf("text lacks %q:\n%s", want, doc.Text)
		}
	}
}

// TestStandardEncodingTables spot-checks the built-in encodings.
func TestStandardEncodingTables(t *testing.T) {
	for _, tc := range []struct {
		base string
		code int
		want string
	}{
		{"Symbol", 0x61, "α"}, {"Symbol", 0x65, "ε"}, {"Symbol", 0xa3, "≤"},
		{"Symbol", 0x44, "Δ"}, {"Symbol", 0x6a, "ϕ"}, {"Symbol", 0xb3, "≥"},
		{"Symbol", 0xce, "∈"}, {"Symbol", 0xe5, "∑"}, {"Symbol", 0xf2, "∫"},
		{"Symbol", 0xa9, "♥"}, {"Symbol", 0x60, ""},
		{"Symbol,Bold", 0x62, "β"}, {"SymbolMT", 0x70, "π"},
		{"ZapfDingbats", 0x33, "✓"}, {"ZapfDingbats", 0x48, "★"},
		{"ZapfDingbats", 0xac, "①"}, {"ZapfDingbats", 0xd5, "→"}, {"ZapfDingbats", 0xfe, "➾"},
	} {
		m := standardEncoding(tc.base)
		name, ok := m[tc.code]
		got, known := glyphText(name)
		if !ok || !known || got != tc.want {
			t.Errorf("%s %#x: glyph %q -> %q, want %q", tc.base, tc.code, name, got, tc.want)
		}
	}
	if standardEncoding("Times-Roman") != nil {
		t.Errorf("Times-Roman has a Symbol encoding")
	}
	if n := len(symbolEncoding); n != 0xff-0x20 {
		t.Errorf("symbolEncoding has %d codes, want %d", n, 0xff-0x20)
	}
}

// TestFindGutterUnderFullWidthTop: page 1 of a short two-column paper has
// a full-width title and abstract crossing the gutter. They are more than a
// fifth of the page's lines but all lie above the columns, so the gutter
// stands; a single-column page ending in a table, whose narrow cells also
// leave a gap, still has none.
func TestFindGutterUnderFullWidthTop(t *testing.T) {
	span := func(x0, x1, y float64) *line {
		return &line{x0: x0, x1: x1, y: y, size: 10, words: []word{{nchars: int(x1-x0) / 6}}}
	}
	var page []*line
	page = append(page, span(180, 432, 740))
	for i := 0; i < 12; i++ {
		page = append(page, span(72, 540, 700-12*float64(i)))
	}
	for i := 0; i < 10; i++ {
		page = append(page, span(60, 276, 530-12*float64(i)), span(320, 536, 530-12*float64(i)))
	}
	c := findGutter(page, 612)
	if !c.ok || c.gl != 276 || c.gr != 320 || c.leftX != 60 || c.rightX != 320 {
		t.Errorf("two columns under an abstract: got %+v, want gutter [276, 320]", c)
	}

	var single []*line
	for i := 0; i < 20; i++ {
		single = append(single, span(72, 540, 700-12*float64(i)))
	}
	for i := 0; i < 12; i++ {
		single = append(single, span(72, 168, 440-12*float64(i)), span(330, 426, 440-12*float64(i)))
	}
	if c := findGutter(single, 612); c.ok {
		t.Errorf("single column above a table: found gutter %+v", c)
	}
}
