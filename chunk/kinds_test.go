package chunk

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/paperlens/paperlens/chunk/kind"
)

// doc builds a text piece by piece and records the kind of each piece.
type doc struct {
	b     strings.Builder
	spans []kind.Span
}

func (d *doc) add(k kind.Kind, s string) *doc {
	start := d.b.Len()
	d.b.WriteString(s)
	d.spans = append(d.spans, kind.Span{Start: start, End: d.b.Len(), Kind: k})
	return d
}

// sentencesOf makes n sentences of about 13 words.
func sentencesOf(n int, seed uint64) string {
	var b strings.Builder
	for i := range n {
		w := words(12, seed+uint64(i))
		b.WriteString(strings.ToUpper(w[:1]) + w[1:] + ". ")
	}
	return strings.TrimSpace(b.String())
}

// checkKinds verifies that every non-blank byte of a passage is of the
// passage's kind, or part of a heading (a heading line of the text, or
// text marked as one), and that no passage is of kind heading.
func checkKinds(t *testing.T, text string, spans []kind.Span, ps []Passage) {
	t.Helper()
	spans = kind.Normalize(spans, len(text))
	inHeading := make([]bool, len(text))
	for _, h := range Headings(text) {
		for i := h.Start; i < h.End; i++ {
			inHeading[i] = true
		}
	}
	for _, p := range ps {
		if p.Kind == "" || p.Kind == kind.Heading || !p.Kind.Valid() {
			t.Errorf("passage %d has kind %q", p.Ordinal, p.Kind)
		}
		for i, w := p.Start, 0; i < p.End; i += w {
			// Blanks at a boundary stay with the text before them.
			var r rune
			if r, w = utf8.DecodeRuneInString(text[i:]); unicode.IsSpace(r) {
				continue
			}
			if k := kind.At(spans, i); k != p.Kind && k != kind.Heading && !inHeading[i] {
				t.Errorf("passage %d (%s) holds %s text at %d: %q", p.Ordinal, p.Kind, k, i, text[i:min(i+40, len(text))])
				break
			}
		}
	}
}

func TestSplitKinds(t *testing.T) {
	type want struct {
		kind   kind.Kind
		prefix string // the passage's text starts with this
	}
	cases := []struct {
		name  string
		doc   *doc
		limit int
		want  []want // nil: only the invariants are checked
	}{
		{
			name: "references heading joins the references",
			doc: new(doc).
				add(kind.Body, "1 Introduction\n\n"+sentencesOf(3, 1)+"\n\n").
				add(kind.Heading, "References\n\n").
				add(kind.References, "[1] A. Author. A paper title. In Proc. of a venue, 2020.\n\n[2] B. Author. Another title. 2021.\n"),
			want: []want{{kind.Body, "1 Introduction"}, {kind.References, "References"}},
		},
		{
			name: "unmarked heading line joins what follows",
			doc: new(doc).
				add(kind.Body, sentencesOf(2, 10)+"\n\nReferences\n\n").
				add(kind.References, "[1] A. Author. A paper title, 2020.\n"),
			want: []want{{kind.Body, sentencesOf(1, 10)[:20]}, {kind.References, "References"}},
		},
		{
			name: "contents, front matter, table and caption each stand alone",
			doc: new(doc).
				add(kind.FrontMatter, "Proceedings of a Conference 2024\n\n").
				add(kind.Contents, "Contents\n1 Introduction . . . . 3\n2 Method . . . . 5\n\n").
				add(kind.Body, "1 Introduction\n\n"+sentencesOf(2, 20)+"\n\n").
				add(kind.Table, "Model | Acc\nA | 0.5\n\n").
				add(kind.Caption, "Table 1: Accuracy of the models.\n\n").
				add(kind.Body, sentencesOf(2, 30)+"\n"),
			want: []want{{kind.FrontMatter, "Proceedings"}, {kind.Contents, "Contents"}, {kind.Body, "1 Introduction"},
				{kind.Table, "Model"}, {kind.Caption, "Table 1"}, {kind.Body, sentencesOf(1, 30)[:20]}},
		},
		{
			name: "a span that starts inside a line cuts the sentence there",
			doc: new(doc).
				add(kind.Body, "The model is trained on the data and then ").
				add(kind.FigureText, "0 10 20 30 40 epochs loss\n\n").
				add(kind.Body, sentencesOf(1, 40)+"\n"),
			want: []want{{kind.Body, "The model"}, {kind.FigureText, "0 10 20"}, {kind.Body, sentencesOf(1, 40)[:20]}},
		},
		{
			name: "a heading marked in the text at the end stays with the text before it",
			doc: new(doc).
				add(kind.References, "[1] A. Author. A paper title, 2020.\n\n").
				add(kind.Heading, "Appendix\n"),
			want: []want{{kind.References, "[1]"}},
		},
		{
			name: "long references are cut by size, not merged into the body",
			doc: new(doc).
				add(kind.Body, sentencesOf(30, 50)+"\n\n").
				add(kind.References, sentencesOf(30, 80)+"\n"),
			limit: 128,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := c.doc.b.String()
			limit := c.limit
			if limit == 0 {
				limit = 512
			}
			// The packer's cuts, before short passages are merged
			// (TestSplitMergesShortPassages): these spans are a few
			// tokens each.
			ps := Split(text, Options{MaxTokens: limit, Spans: c.doc.spans, MinTokens: -1})
			checkPassages(t, text, ps, limit)
			checkKinds(t, text, c.doc.spans, ps)
			if c.want == nil {
				if ps[0].Kind != kind.Body || ps[len(ps)-1].Kind != kind.References {
					t.Errorf("first passage %s, last %s", ps[0].Kind, ps[len(ps)-1].Kind)
				}
				return
			}
			var got []want
			for _, p := range ps {
				got = append(got, want{p.Kind, p.Text[:min(len(p.Text), 20)]})
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %d passages %q, want %d %q", len(got), got, len(c.want), c.want)
			}
			for i, w := range c.want {
				if got[i].kind != w.kind || !strings.HasPrefix(ps[i].Text, w.prefix) {
					t.Errorf("passage %d: %s %q, want %s %q", i, got[i].kind, got[i].prefix, w.kind, w.prefix)
				}
			}
		})
	}
}

// Random spans over the seed papers: wherever the kinds change, passages
// still tile the text, respect the limit and, as packed, hold one kind
// each; merging the short ones keeps the packed passages' cuts and kinds
// (checkMerged).
func TestSplitRandomKinds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for name, text := range seedTexts(t) {
		var spans []kind.Span
		for pos := 0; pos < len(text); {
			n := 1 + rng.IntN(3000)
			spans = append(spans, kind.Span{Start: pos, End: min(pos+n, len(text)), Kind: kind.All[rng.IntN(len(kind.All))]})
			pos += n
		}
		for _, limit := range []int{64, 512} {
			ps := Split(text, Options{MaxTokens: limit, Spans: spans, MinTokens: -1})
			checkPassages(t, text, ps, limit)
			checkKinds(t, text, spans, ps)
			merged := Split(text, Options{MaxTokens: limit, Spans: spans})
			checkPassages(t, text, merged, limit)
			checkMerged(t, text, ps, merged, min(DefaultMinTokens, limit/4), limit)
			if t.Failed() {
				t.Fatalf("%s at limit %d", name, limit)
			}
		}
		// Without spans every passage is body, cut as before.
		for _, p := range Split(text, Options{}) {
			if p.Kind != kind.Body {
				t.Fatalf("%s: passage %d without spans has kind %q", name, p.Ordinal, p.Kind)
			}
		}
	}
}
