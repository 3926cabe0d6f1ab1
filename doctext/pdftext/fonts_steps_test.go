package pdftext

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

func TestFontBaseNameAndBold(t *testing.T) {
	for _, tc := range []struct {
		in, base string
		bold     bool
	}{
		{"ABCDEF+Times-Bold", "Times-Bold", true},
		{"Times-Roman", "Times-Roman", false},
		{"ABCDEF+", "ABCDEF+", false}, // nothing after the tag: kept whole
		{"XYZ+CMBX10", "CMBX10", true},
		{"NimbusSanL-Medi", "NimbusSanL-Medi", true},
		{"Arial,Bold", "Arial,Bold", true},
		{"Minion-B", "Minion-B", true},
		{"Helvetica-Black", "Helvetica-Black", true},
		{"CMR10", "CMR10", false},
	} {
		base := fontBaseName(tc.in)
		if base != tc.base || boldName(base) != tc.bold {
			t.Errorf("%s: base %q bold %v, want %q %v", tc.in, base, boldName(base), tc.base, tc.bold)
		}
	}
}

// fontFrom builds the font of a synthetic page whose F1 dictionary is
// dict; extra objects replace the synthetic file's objects 4, 5, ...
// (its ToUnicode stream and F2, which these pages do not use).
func fontFrom(t *testing.T, dict string, extra ...string) *font {
	t.Helper()
	data := synthPDFWith("t", [][]synthText{{}}, func(objs []string) {
		for i, o := range objs {
			if strings.Contains(o, "/BaseFont /Courier /Encoding /WinAnsiEncoding") {
				objs[i] = dict
			}
		}
		for i, e := range extra {
			objs[3+i] = e
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
	f := loadFont(pages[0].Key("Resources").Key("Font").Key("F1"))
	if f == nil {
		t.Fatal("font not loaded")
	}
	return f
}

func TestNewFontSteps(t *testing.T) {
	for _, tc := range []struct {
		name  string
		dict  string
		extra []string
		check func(f *font) bool
	}{
		{"simple font with widths", "<< /Type /Font /Subtype /Type1 /BaseFont /ABC+Times-Bold /FirstChar 32 /Widths [250 333 408] /Encoding /WinAnsiEncoding >>", nil,
			func(f *font) bool {
				return !f.twoByte && f.first == 32 && len(f.widths) == 3 && f.widths[1] == 333 && f.bold && !f.noWidths && f.inFont == nil && f.scale == 0.001
			}},
		{"standard font without widths", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", nil,
			func(f *font) bool { return f.noWidths && f.defWidth == 500 && !f.bold }},
		{"missing width and weight from the descriptor", "<< /Type /Font /Subtype /Type1 /BaseFont /X /FirstChar 0 /Widths [1] /FontDescriptor << /MissingWidth 321 /FontWeight 700 >> >>", nil,
			func(f *font) bool { return f.defWidth == 321 && f.bold }},
		{"Symbol's encoding is known by name", "<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>", nil,
			func(f *font) bool { return f.inFont != nil && f.texEnc == nil }},
		{"a TeX font without its program", "<< /Type /Font /Subtype /Type1 /BaseFont /CMSY10 /FirstChar 0 /Widths [1] >>", nil,
			func(f *font) bool { return f.inFont == nil && f.texEnc != nil }},
		{"a base encoding: no built-in encoding", "<< /Type /Font /Subtype /Type1 /BaseFont /CMSY10 /Encoding << /BaseEncoding /WinAnsiEncoding /Differences [65 /B] >> >>", nil,
			func(f *font) bool { return f.inFont == nil && f.texEnc == nil && f.diffs[65] == "B" }},
		{"Type3 font matrix", "<< /Type /Font /Subtype /Type3 /FontMatrix [0.01 0 0 0.01 0 0] /FirstChar 0 /Widths [50] >>", nil,
			func(f *font) bool { return f.scale == 0.01 }},
		{"Type0 font", "<< /Type /Font /Subtype /Type0 /BaseFont /ABC+NotoSans /Encoding /Identity-H /DescendantFonts [<< /Type /Font /Subtype /CIDFontType2 /DW 600 /W [1 [500 700]] /FontDescriptor << /FontWeight 700 >> >>] >>", nil,
			func(f *font) bool {
				return f.twoByte && f.defWidth == 600 && f.cidW[1] == 500 && f.cidW[2] == 700 && f.bold && f.widths == nil
			}},
		{"Type0 font, default width", "<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /DescendantFonts [<< /Type /Font /Subtype /CIDFontType2 >>] >>", nil,
			func(f *font) bool { return f.twoByte && f.defWidth == 1000 && !f.bold && len(f.cidW) == 0 }},
		{"ToUnicode of all 256 codes: no built-in encoding needed", "<< /Type /Font /Subtype /Type1 /BaseFont /CMSY10 /FirstChar 0 /Widths [1] /ToUnicode 4 0 R >>",
			[]string{fullToUnicode()},
			func(f *font) bool { return len(f.toUni) == 256 && f.inFont == nil && f.texEnc == nil }},
	} {
		f := fontFrom(t, tc.dict, tc.extra...)
		if !tc.check(f) {
			t.Errorf("%s: font %+v", tc.name, *f)
		}
	}
}

// fullToUnicode is a ToUnicode stream object mapping all 256 one-byte
// codes.
func fullToUnicode() string {
	cmap := "begincmap 1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfrange <00> <FF> <4E00> endbfrange endcmap"
	return "<< /Length " + strconv.Itoa(len(cmap)) + " >>\nstream\n" + cmap + "endstream"
}
