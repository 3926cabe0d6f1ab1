package pdftext

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// walkContent runs the walker over one synthetic page whose content
// stream is content (fonts F1 and F2 are 10-unit-wide Courier: 600/1000
// em per glyph) and renders its glyphs as "text@x,y/size".
func walkContent(t *testing.T, content string) string {
	t.Helper()
	data := synthPDFWith("t", [][]synthText{{}}, func(objs []string) {
		for i, o := range objs {
			if strings.HasPrefix(o, "<< /Length 0 >>\nstream\n") {
				objs[i] = fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content)+1, content)
			}
		}
	})
	rd, err := open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	pages, err := pageList(rd)
	if err != nil {
		t.Fatal(err)
	}
	fonts := &docFonts{byRef: map[string]*font{}}
	w := &walker{doc: fonts, box: [4]float64{0, 0, 612, 792}}
	w.run(pages[0].Key("Contents"), newResources(pages[0].Key("Resources"), fonts), identity, 0)
	var out []string
	for _, g := range w.glyphs {
		out = append(out, fmt.Sprintf("%s@%g,%g/%g", g.text, g.x, g.y, g.size))
	}
	return strings.Join(out, " ")
}

// TestContentOperators: each group of text operators moves and shows
// glyphs as the PDF spec says.
func TestContentOperators(t *testing.T) {
	for _, tc := range []struct {
		name, content, want string
	}{
		{"Td and Tj", "BT /F1 10 Tf 100 700 Td (AB) Tj ET", "A@100,700/10 B@106,700/10"},
		{"TD sets the leading for T*", "BT /F1 10 Tf 100 700 Td 0 -12 TD (A) Tj T* (B) Tj ET", "A@100,688/10 B@100,676/10"},
		{"TL and '", "BT /F1 10 Tf 14 TL 100 700 Td (A) ' ET", "A@100,686/10"},
		{`" sets word and character spacing`, `BT /F1 10 Tf 100 700 Td 5 1 (A B) " ET`, "A@100,700/10  @107,700/10 B@119,700/10"},
		{"TJ kerning", "BT /F1 10 Tf 100 700 Td [(A) -1000 (B)] TJ ET", "A@100,700/10 B@116,700/10"},
		{"Tz scales advances", "BT /F1 10 Tf 50 Tz 100 700 Td (AB) Tj ET", "A@100,700/10 B@103,700/10"},
		{"Ts raises", "BT /F1 10 Tf 3 Ts 100 700 Td (A) Tj ET", "A@100,703/10"},
		{"Tm", "BT /F1 10 Tf 1 0 0 1 200 500 Tm (A) Tj ET", "A@200,500/10"},
		{"BT resets the text matrix", "BT /F1 10 Tf 100 700 Td ET BT (A) Tj ET", "A@0,0/10"},
		{"cm scales inside q, Q restores", "q 2 0 0 2 0 0 cm BT /F1 10 Tf 50 300 Td (A) Tj ET Q BT /F1 10 Tf 50 300 Td (B) Tj ET", "A@100,600/20 B@50,300/10"},
		{"Q without q is ignored", "Q BT /F1 10 Tf 50 300 Td (A) Tj ET", "A@50,300/10"},
		{"ToUnicode font", "BT /F2 10 Tf 50 300 Td (\x01) Tj ET", "ﬁ@50,300/10"},
		{"no font: nothing shown", "BT 50 300 Td (A) Tj ET", ""},
		{"missing operands", "BT /F1 10 Tf 50 300 Td Tj TJ ' Td Tm cm Tf ET", ""},
		{"Do of a missing form", "/X1 Do BT /F1 10 Tf 50 300 Td (A) Tj ET", "A@50,300/10"},
		{"off the page", "BT /F1 10 Tf 700 300 Td (A) Tj ET", ""},
	} {
		if got := walkContent(t, tc.content); got != tc.want {
			t.Errorf("%s: glyphs %q, want %q", tc.name, got, tc.want)
		}
	}
}
