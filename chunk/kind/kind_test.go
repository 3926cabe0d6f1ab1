package kind

import (
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []Kind
		err  string
	}{
		{"", nil, ""},
		{"none", nil, ""},
		{"references,contents", []Kind{References, Contents}, ""},
		{" Contents , figure-text,contents", []Kind{Contents, FigureText}, ""},
		{"front_matter", []Kind{FrontMatter}, ""},
		{"refs", nil, `unknown passage kind "refs"`},
	} {
		got, err := Parse(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "figure-text") {
				t.Errorf("Parse(%q) error %v, want one naming %q and the known kinds", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Parse(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestNormalizeAndAt(t *testing.T) {
	got := Normalize([]Span{
		{10, 20, Table}, {0, 5, Heading}, {18, 25, Table}, {30, 30, Caption},
		{40, 50, Body}, {45, 60, References}, {55, 70, Caption}, {-3, 2, Heading},
	}, 65)
	want := []Span{{0, 5, Heading}, {10, 25, Table}, {45, 55, References}, {55, 65, Caption}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Normalize = %v, want %v", got, want)
	}
	for i, k := range map[int]Kind{0: Heading, 4: Heading, 5: Body, 12: Table, 24: Table, 25: Body, 50: References, 55: Caption, 64: Caption, 65: Body} {
		if got := At(want, i); got != k {
			t.Errorf("At(%d) = %s, want %s", i, got, k)
		}
	}
}

func TestDrop(t *testing.T) {
	text := "Contents\n\n1 Intro .... 3\n\n1 Intro\n\nBody text.\n\n0 10 20 30\n\nMore body.\n\nReferences\n\n[1] A. B."
	span := func(s string, k Kind) Span {
		i := strings.Index(text, s)
		return Span{i, i + len(s), k}
	}
	// The heading is the second "1 Intro", after the contents entry.
	h := strings.Index(text, "\n\n1 Intro\n\n") + 2
	spans := []Span{
		span("Contents\n\n1 Intro .... 3", Contents),
		{h, h + len("1 Intro"), Heading},
		span("0 10 20 30", FigureText),
		span("[1] A. B.", References),
	}

	got, gotSpans := Drop(text, spans, NewSet(DefaultDrop))
	wantText := "1 Intro\n\nBody text.\n\nMore body.\n\nReferences\n\n[1] A. B."
	if got != wantText {
		t.Fatalf("Drop text = %q, want %q", got, wantText)
	}
	for _, sp := range gotSpans {
		if sp.Kind == Contents || sp.Kind == FigureText {
			t.Errorf("a dropped kind survived: %v", sp)
		}
	}
	if len(gotSpans) != 2 || got[gotSpans[0].Start:gotSpans[0].End] != "1 Intro" || got[gotSpans[1].Start:gotSpans[1].End] != "[1] A. B." {
		t.Errorf("kept spans do not point at their text: %v in %q", gotSpans, got)
	}
	if same, _ := Drop(text, spans, nil); same != text {
		t.Errorf("dropping nothing changed the text")
	}
}
