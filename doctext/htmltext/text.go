package htmltext

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/text/unicode/norm"

	"github.com/paperlens/paperlens/chunk/kind"
)

// nodeText turns trafilatura's content tree into paragraphs. It is used
// instead of ContentText, which trafilatura flattens into a single line and
// so loses the paragraph and heading boundaries that chunking relies on.
// The spans mark the headings.
func nodeText(root *html.Node) (string, []kind.Span) {
	w := &textWriter{}
	w.node(root)
	w.flush()
	var b strings.Builder
	var spans []kind.Span
	for i, p := range w.paras {
		if i > 0 {
			b.WriteString("\n\n")
		}
		start := b.Len()
		b.WriteString(p.text)
		if p.kind != kind.Body {
			spans = append(spans, kind.Span{Start: start, End: b.Len(), Kind: p.kind})
		}
	}
	return b.String(), kind.Normalize(spans, b.Len())
}

type para struct {
	text string
	kind kind.Kind
}

type textWriter struct {
	paras []para
	cur   strings.Builder
}

// sectionLevels are the headings that become sections: written as
// markdown headings ("## 2 Background"), which the chunker takes as section
// titles whether or not the page numbers them. h5 and h6 mark paragraphs
// too small to be a section of a paper; they stay plain heading lines.
var sectionLevels = map[string]int{"h1": 1, "h2": 2, "h3": 3, "h4": 4}

// maxHeading is the longest heading title, in bytes, that the chunker
// accepts (see chunk.Headings).
const maxHeading = 200

// breakAtoms end the current paragraph before and after themselves.
// Tags are matched by name, not atom: trafilatura builds its result with
// nodes whose DataAtom is unset.
var breakTags = setOf("p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "ul",
	"ol", "dl", "dt", "dd", "blockquote", "pre", "figure", "figcaption", "section",
	"article", "header", "footer", "hr", "table", "caption", "details", "summary",
	"body", "main", "aside")

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func (w *textWriter) node(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.cur.WriteString(n.Data)
		return
	case html.ElementNode, html.DocumentNode:
	default:
		return
	}
	switch n.Data {
	case "script", "style", "noscript", "template":
		return
	case "br":
		w.cur.WriteByte(' ')
		return
	case "tr":
		// One paragraph per table row: a row is the unit a question about a
		// results table refers to.
		w.flush()
		var cells []string
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && (c.Data == "td" || c.Data == "th") {
				if t := cleanParagraph(textContent(c)); t != "" {
					cells = append(cells, t)
				}
			}
		}
		// Not marked kind.Table: LaTeXML sets display equations as
		// table rows ("c_j = m^T s | (1)"), and a passage cut around each
		// would split the paragraph the equation sits in.
		w.add(strings.Join(cells, " | "))
		return
	case "td", "th":
		// Cells outside a row (broken markup): separate them by a space.
		w.cur.WriteByte(' ')
		w.children(n)
		w.cur.WriteByte(' ')
		return
	}
	if level, ok := sectionLevels[n.Data]; ok || n.Data == "h5" || n.Data == "h6" {
		w.flush()
		w.children(n)
		t := cleanParagraph(w.cur.String())
		w.cur.Reset()
		if len(t) > maxHeading {
			// A sentence set as a heading (Distill's subtitle): the
			// chunker takes no title this long, so it stays text.
			w.add(t)
			return
		}
		if t != "" && ok {
			t = strings.Repeat("#", level) + " " + t
		}
		w.addKind(t, kind.Heading)
		return
	}
	if breakTags[n.Data] {
		w.flush()
		w.children(n)
		w.flush()
		return
	}
	w.children(n)
}

func (w *textWriter) children(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.node(c)
	}
}

func (w *textWriter) flush() {
	w.add(w.cur.String())
	w.cur.Reset()
}

func (w *textWriter) add(s string) { w.addKind(s, kind.Body) }

func (w *textWriter) addKind(s string, k kind.Kind) {
	if s = cleanParagraph(s); s != "" {
		w.paras = append(w.paras, para{s, k})
	}
}

// invisible are format characters that only steer rendering (soft hyphen,
// zero-width space, word joiner, invisible maths operators, BOM). NFKC keeps
// them, and they would split words for search.
var invisible = strings.NewReplacer(
	"\u00ad", "", "\u200b", "", "\u2060", "", "\u2061", "", "\u2062", "",
	"\u2063", "", "\u2064", "", "\ufeff", "",
)

// cleanParagraph applies NFKC (ligatures, full-width forms, non-breaking
// spaces become plain text, matching the PDF path) and collapses whitespace
// to single spaces.
func cleanParagraph(s string) string {
	s = strings.ReplaceAll(s, spaceMark, " ")
	s = norm.NFKC.String(invisible.Replace(s))
	return strings.Join(strings.Fields(s), " ")
}
