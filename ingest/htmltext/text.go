package htmltext

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/text/unicode/norm"
)

// nodeText turns trafilatura's content tree into paragraphs. It is used
// instead of ContentText, which trafilatura flattens into a single line and
// so loses the paragraph and heading boundaries that chunking relies on.
func nodeText(root *html.Node) string {
	w := &textWriter{}
	w.node(root)
	w.flush()
	return strings.Join(w.paras, "\n\n")
}

type textWriter struct {
	paras []string
	cur   strings.Builder
}

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
		w.add(strings.Join(cells, " | "))
		return
	case "td", "th":
		// Cells outside a row (broken markup): separate them by a space.
		w.cur.WriteByte(' ')
		w.children(n)
		w.cur.WriteByte(' ')
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

func (w *textWriter) add(s string) {
	if s = cleanParagraph(s); s != "" {
		w.paras = append(w.paras, s)
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
