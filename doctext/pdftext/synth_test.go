package pdftext

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
)

// synthText is one string drawn on a synthetic page.
type synthText struct {
	x, y, size float64
	font       string // "F1" plain, "F2" with a ToUnicode map (code 1 = U+FB01 "ﬁ")
	s          string
}

// synthPDF writes a small, valid, uncompressed PDF: Courier with explicit
// widths (so glyph positions are exact), one font with a ToUnicode CMap,
// US Letter pages. It lets tests check layout rules without the corpus.
func synthPDF(title string, pages [][]synthText) []byte {
	return synthPDFWith(title, pages, nil)
}

// synthPDFWith is synthPDF with a hook that may rewrite the object bodies
// (1-based object n is objs[n-1]) before the file and its xref are written.
func synthPDFWith(title string, pages [][]synthText, edit func(objs []string)) []byte {
	var objs []string
	add := func(s string) int { objs = append(objs, s); return len(objs) }

	widths := strings.TrimSpace(strings.Repeat("600 ", 127))
	cmap := "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n" +
		"1 begincodespacerange <00> <FF> endcodespacerange\n" +
		"1 beginbfchar <01> <FB01> endbfchar\n" +
		"1 beginbfrange <20> <7E> <0020> endbfrange\n" +
		"endcmap CMapName currentdict /CMap defineresource pop end end\n"

	catalog := add("") // filled below
	pagesObj := add("")
	f1 := add("<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding /FirstChar 0 /LastChar 126 /Widths [" + widths + "] >>")
	tu := add(fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", len(cmap), cmap))
	f2 := add(fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /Courier /FirstChar 0 /LastChar 126 /Widths [%s] /ToUnicode %d 0 R >>", widths, tu))
	info := add(fmt.Sprintf("<< /Title (%s) /Producer (paperlens synth) >>", title))

	var kids []string
	for _, pg := range pages {
		var cs strings.Builder
		for _, t := range pg {
			font := t.font
			if font == "" {
				font = "F1"
			}
			fmt.Fprintf(&cs, "BT /%s %g Tf 1 0 0 1 %g %g Tm (%s) Tj ET\n", font, t.size, t.x, t.y, pdfEscape(t.s))
		}
		content := add(fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", cs.Len(), cs.String()))
		page := add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R /F2 %d 0 R >> >> /Contents %d 0 R >>", pagesObj, f1, f2, content))
		kids = append(kids, fmt.Sprintf("%d 0 R", page))
	}
	objs[catalog-1] = fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pagesObj)
	objs[pagesObj-1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids))
	if edit != nil {
		edit(objs)
	}

	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, catalog, info, xref)
	return b.Bytes()
}

func pdfEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`)
	return r.Replace(s)
}

// column lays out lines top-down at x, 12 pt apart, in 10 pt Courier.
func column(x, top float64, lines ...string) []synthText {
	var out []synthText
	for i, l := range lines {
		out = append(out, synthText{x: x, y: top - float64(i)*12, size: 10, s: l})
	}
	return out
}

func synthDoc(t *testing.T, title string, pages [][]synthText) *Document {
	t.Helper()
	data := synthPDF(title, pages)
	doc, err := Extract(context.Background(), bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	return doc
}

// twoColumnPage builds one page of a two-column paper: a running header,
// a full-width title, two columns of body text and a page number.
func twoColumnPage(n int, left, right []string) []synthText {
	var pg []synthText
	pg = append(pg, synthText{x: 250, y: 760, size: 9, s: "A Synthetic Paper"})
	pg = append(pg, column(60, 650, left...)...)
	pg = append(pg, column(320, 650, right...)...)
	pg = append(pg, synthText{x: 300, y: 40, size: 9, s: fmt.Sprint(n)})
	return pg
}

func TestSyntheticLayout(t *testing.T) {
	left := []string{
		"The left column comes",
		"first and its last",
		"sentence continues in",
		"the right column with",
		"a hyphenated classi-",
		"fication of words.",
	}
	right := []string{
		"This is the right col-",
		"umn, which must follow",
		"the left one. The",
		"\x01nal word is \x01ne.",
	}
	pages := [][]synthText{}
	for n := 1; n <= 3; n++ {
		pg := twoColumnPage(n, left, right)
		// The ligature line uses the ToUnicode font.
		for i := range pg {
			if strings.Contains(pg[i].s, "\x01") {
				pg[i].font = "F2"
			}
		}
		pages = append(pages, pg)
	}
	pages[0] = append(pages[0], synthText{x: 150, y: 740, size: 16, s: "Columns, Ligatures and Headers"})
	doc := synthDoc(t, "report_v2.pdf", pages)

	if doc.Pages != 3 {
		t.Errorf("Pages = %d, want 3", doc.Pages)
	}
	if want := "Columns, Ligatures and Headers"; doc.Title != want {
		t.Errorf("Title = %q, want %q (metadata title is a file name)", doc.Title, want)
	}
	for _, want := range []string{
		"The left column comes first and its last sentence continues in the right column with a hyphenated classification of words.",
		"This is the right column, which must follow the left one. The final word is fine.",
	} {
		if got := strings.Count(doc.Text, want); got != 3 {
			t.Errorf("%q occurs %d times, want once per page:\n%s", want, got, doc.Text)
		}
	}
	if i, j := strings.Index(doc.Text, "The left column"), strings.Index(doc.Text, "This is the right"); i > j {
		t.Errorf("right column before left column:\n%s", doc.Text)
	}
	if strings.Contains(doc.Text, "A Synthetic Paper") {
		t.Errorf("running header kept:\n%s", doc.Text)
	}
	for _, p := range strings.Split(doc.Text, "\n\n") {
		if p == "1" || p == "2" || p == "3" {
			t.Errorf("page number %q kept as a paragraph", p)
		}
	}
}

func TestSyntheticWordSpacing(t *testing.T) {
	// Words drawn glyph group by glyph group without space characters, the
	// way pdfTeX does: spacing must come from positions alone.
	var pg []synthText
	x := 72.0
	for _, w := range []string{"spacing", "from", "positions"} {
		pg = append(pg, synthText{x: x, y: 700, size: 10, s: w})
		x += float64(len(w))*6 + 3 // 3 pt gap = 0.3 em
	}
	// Kerned pair: a 0.5 pt gap inside a word must not split it.
	pg = append(pg, synthText{x: 72, y: 680, size: 10, s: "ker"}, synthText{x: 72 + 18.5, y: 680, size: 10, s: "ning"})
	doc := synthDoc(t, "Word Spacing Test Document", [][]synthText{pg})
	if want := "spacing from positions"; !strings.Contains(doc.Text, want) {
		t.Errorf("text %q lacks %q", doc.Text, want)
	}
	if !strings.Contains(doc.Text, "kerning") {
		t.Errorf("text %q splits a kerned word", doc.Text)
	}
	if doc.Title != "Word Spacing Test Document" {
		t.Errorf("Title = %q, want the metadata title", doc.Title)
	}
}

func TestSyntheticNoText(t *testing.T) {
	data := synthPDF("Blank", [][]synthText{{}})
	_, err := Extract(context.Background(), bytes.NewReader(data), int64(len(data)))
	if err == nil || !strings.Contains(err.Error(), "OCR") {
		t.Fatalf("err = %v, want ErrNoText", err)
	}
}

// TestPageTreeLoop: a page tree whose Pages node lists itself among its
// kids must neither hang nor multiply pages.
func TestPageTreeLoop(t *testing.T) {
	pages := [][]synthText{column(72, 700, "first page text here"), column(72, 700, "second page text here")}
	data := synthPDFWith("Loop", pages, func(objs []string) {
		objs[1] = strings.Replace(objs[1], "/Kids [", "/Kids [2 0 R 2 0 R ", 1)
	})
	doc, err := Extract(context.Background(), bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Pages != 2 {
		t.Errorf("Pages = %d, want 2", doc.Pages)
	}
}

// TestBrokenFont: a page whose font dictionary is unusable still yields the
// text drawn with its other font.
func TestBrokenFont(t *testing.T) {
	pg := []synthText{{x: 72, y: 700, size: 10, s: "readable words here"}, {x: 72, y: 680, size: 10, s: "lost", font: "F2"}}
	data := synthPDFWith("Broken Font Test", [][]synthText{pg}, func(objs []string) {
		objs[4] = "<< /Type /Font /Subtype /Type0 /DescendantFonts 99 0 R /W (x) >>" // F2
	})
	doc, err := Extract(context.Background(), bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Text, "readable words here") {
		t.Errorf("text = %q", doc.Text)
	}
}

// TestConcurrentExtract runs Extract on several documents at once, as the
// ingest command does; run with -race to check for shared state.
func TestConcurrentExtract(t *testing.T) {
	data := synthPDF("Concurrent Extraction Test", [][]synthText{column(72, 700, "some words on a page", "and a second line")})
	errs := make(chan error, 8)
	for i := 0; i < cap(errs); i++ {
		go func() {
			_, err := Extract(context.Background(), bytes.NewReader(data), int64(len(data)))
			errs <- err
		}()
	}
	for i := 0; i < cap(errs); i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
