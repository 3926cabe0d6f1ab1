package pdftext

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

func TestJoinLines(t *testing.T) {
	vocab := map[string]bool{"user-facing": true, "state-of-the-art": true}
	tests := []struct {
		lines []string
		want  string
	}{
		{[]string{"a classi-", "fication task"}, "a classification task"},
		{[]string{"user-", "facing systems"}, "user-facing systems"}, // used hyphenated elsewhere
		{[]string{"Retrieval-", "Augmented Generation"}, "Retrieval-Augmented Generation"},
		{[]string{"GPT-", "4 and"}, "GPT-4 and"},
		{[]string{"ranges 1 -", "2 pages"}, "ranges 1 - 2 pages"},
		{[]string{"plain", "lines"}, "plain lines"},
		{[]string{"ends with a dash –", "here"}, "ends with a dash – here"},
	}
	for _, tc := range tests {
		if got := joinLines(tc.lines, vocab); got != tc.want {
			t.Errorf("joinLines(%q) = %q, want %q", tc.lines, got, tc.want)
		}
	}
}

func TestIsHeading(t *testing.T) {
	body := 10.0
	tests := []struct {
		text  string
		bold  bool
		size  float64
		lines int // lines in the block
		want  bool
	}{
		{"1 Introduction", true, 12, 5, true},
		{"3.2 Setup", true, 10, 5, true},
		{"Abstract", false, 10, 1, true},
		{"References", true, 12, 9, true},
		{"4.2.1. ACCELERATING BN NETWORKS", false, 10, 1, true},
		{"1 N", false, 10, 1, false}, // a fraction from an equation
		{"2 We propose a new method.", true, 10, 5, false},
		{"In this paper we study the effect of things", false, 10, 5, false},
	}
	for _, tc := range tests {
		l := &line{text: tc.text, bold: tc.bold, size: tc.size}
		if got := isHeading(l, tc.lines, body); got != tc.want {
			t.Errorf("isHeading(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestChooseTitle(t *testing.T) {
	page := []*line{
		{text: "Show, Attend and Tell: Neural Image Caption", y: 700, size: 14},
		{text: "Generation with Visual Attention", y: 684, size: 14},
		{text: "Kelvin Xu", y: 650, size: 10},
	}
	tests := []struct{ meta, want string }{
		{"", "Show, Attend and Tell: Neural Image Caption Generation with Visual Attention"},
		{"icml2015_dpm", "Show, Attend and Tell: Neural Image Caption Generation with Visual Attention"},
		{"Microsoft Word - paper.docx", "Show, Attend and Tell: Neural Image Caption Generation with Visual Attention"},
		{"Show, Attend and Tell: Neural Image CaptionGeneration with Visual Attention", "Show, Attend and Tell: Neural Image Caption Generation with Visual Attention"},
		{"A Different But Real Title", "A Different But Real Title"},
	}
	for _, tc := range tests {
		if got := chooseTitle(tc.meta, page); got != tc.want {
			t.Errorf("chooseTitle(%q) = %q, want %q", tc.meta, got, tc.want)
		}
	}
}

func TestToUnicodeCMap(t *testing.T) {
	cmap := []byte(`/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CMapName /Test def
1 begincodespacerange <0000> <FFFF> endcodespacerange
2 beginbfchar
<0003> <0020>
<0011> <FB01>
endbfchar
2 beginbfrange
<0024> <0026> <0041>
<00FE> <0100> [<0078> <0079> <007A>]
endbfrange
1 beginbfrange
<0200> <0201> <D835DC00>
endbfrange
endcmap CMapName currentdict /CMap defineresource pop end end`)
	m, _ := parseCMap(cmap)
	want := map[int]string{0x03: " ", 0x11: "ﬁ", 0x24: "A", 0x26: "C", 0xFE: "x", 0x100: "z", 0x200: "𝐀", 0x201: "𝐁"}
	for code, w := range want {
		if got := m[code]; got != w {
			t.Errorf("code %#x -> %q, want %q", code, got, w)
		}
	}
}

func TestErrorsWrapped(t *testing.T) {
	for _, tc := range []struct {
		data []byte
		want error
	}{
		{nil, ErrEmpty},
		{[]byte("hello, this mentions %PDF- but is text"), ErrNotPDF},
		{[]byte("%PDF-1.4\n1 0 obj << >> endobj\n"), ErrTruncated},
	} {
		_, err := Extract(context.Background(), bytes.NewReader(tc.data), int64(len(tc.data)))
		if err == nil || !errors.Is(err, tc.want) {
			t.Errorf("Extract(%q) error = %v, want %v", tc.data, err, tc.want)
		}
	}
}
