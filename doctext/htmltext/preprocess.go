package htmltext

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// preprocess rewrites the parsed page in place so that trafilatura sees
// ordinary HTML. Trafilatura only knows standard tags: it removes <math> and
// <figure>, and text that follows an unknown element (Distill's <dt-math>,
// <d-cite>) is lost with it, which cut most Distill paragraphs and every
// LaTeXML paragraph at their first formula. So, before extraction:
//
//   - scripts, styles, SVG, form controls and icon-font glyphs are removed
//     (icon ligatures such as "play_arrow" are not text);
//   - MathML becomes its TeX source (alttext or TeX annotation), Distill
//     math its TeX text;
//   - empty citation elements (<dt-cite key=...>, filled by JS at render time)
//     are removed; footnotes (<dt-fn>, <d-footnote>) are kept inline in
//     parentheses;
//   - <dt-article>/<d-article> become <article>, with Distill's title block
//     and appendix moved inside; a LaTeXML <div class="ltx_document"> becomes
//     <article> when the page has none. Trafilatura's main-content selectors
//     then find the body, and keep its headings;
//   - figures are reduced to their captions (as paragraphs) and tables;
//     LaTeXML captions and Distill margin notes (<aside> in the article)
//     become paragraphs;
//   - any other custom element becomes a <div> when it holds block content
//     and a <span> (which trafilatura unwraps) otherwise;
//   - spaces next to inline elements are protected (see spaceMark).
func preprocess(root *html.Node) {
	hasArticle := false
	walk(root, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Namespace == "" &&
			(n.DataAtom == atom.Article || strings.HasSuffix(n.Data, "-article")) {
			hasArticle = true
		}
	})
	gatherDistill(root)
	rw := &rewriter{hasArticle: hasArticle, captions: map[*html.Node]bool{}}
	rw.rewrite(root)
	mergeText(root)
	markSpaces(root)
}

// figureToCaption keeps a figure's captions (as paragraphs) and tables and
// drops the rest. Trafilatura removes <figure> wholesale, which loses captions
// ("Figure 3: ...") that papers' questions refer to; keeping the whole figure
// would instead pull in widget labels and the numbers behind plots.
func (rw *rewriter) figureToCaption(fig *html.Node) {
	var keep []*html.Node
	var find func(*html.Node)
	find = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if c.DataAtom == atom.Figcaption || c.DataAtom == atom.Table || rw.captions[c] {
				keep = append(keep, c)
			} else {
				find(c)
			}
		}
	}
	find(fig)
	p := fig.Parent
	if p == nil {
		return
	}
	for _, k := range keep {
		k.Parent.RemoveChild(k)
		if k.DataAtom == atom.Figcaption {
			captionToParagraph(k)
			rw.captions[k] = true
		}
		p.InsertBefore(k, fig)
	}
	p.RemoveChild(fig)
}

// captionToParagraph turns a caption into a plain paragraph. The class and id
// go too: with images excluded, trafilatura discards every element whose class
// or id mentions "caption".
func captionToParagraph(n *html.Node) {
	n.Data, n.DataAtom = "p", atom.P
	attrs := n.Attr[:0]
	for _, a := range n.Attr {
		if a.Key != "class" && a.Key != "id" {
			attrs = append(attrs, a)
		}
	}
	n.Attr = attrs
}

// spaceMark stands for a word-separating space next to an inline element.
// Trafilatura trims the text after inline elements inside list items
// ("<li><b>Types:</b> Many" became "Types:Many"), gluing words together. The
// mark is a Unicode noncharacter (reserved for internal use, so it does not
// occur in real text), which trimming does not remove; cleanParagraph turns it
// back into a space.
const spaceMark = "\ufdd0"

var inlineTags = setOf("a", "abbr", "b", "bdi", "bdo", "cite", "code", "del", "dfn",
	"em", "i", "ins", "kbd", "mark", "q", "s", "samp", "small", "span", "strike",
	"strong", "sub", "sup", "time", "tt", "u", "var")

func isInline(n *html.Node) bool {
	return n != nil && n.Type == html.ElementNode && inlineTags[n.Data]
}

func markSpaces(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.TextNode {
			markSpaces(c)
			continue
		}
		prevInline, nextInline := isInline(c.PrevSibling), isInline(c.NextSibling)
		if strings.TrimSpace(c.Data) == "" {
			// Whitespace between two inline elements: "<b>A</b> <i>B</i>".
			if prevInline && nextInline && c.Data != "" {
				c.Data = spaceMark
			}
			continue
		}
		if prevInline && startsWithSpace(c.Data) {
			c.Data = spaceMark + c.Data
		}
		if nextInline && endsWithSpace(c.Data) {
			c.Data += spaceMark
		}
	}
}

func startsWithSpace(s string) bool {
	return strings.TrimLeftFunc(s, unicode.IsSpace) != s
}

func endsWithSpace(s string) bool {
	return strings.TrimRightFunc(s, unicode.IsSpace) != s
}

type rewriter struct {
	hasArticle bool
	// captions are the paragraphs made from figure captions, so that an
	// outer figure keeps the captions of the figures nested in it.
	captions map[*html.Node]bool
}

// rewrite works bottom-up: children first, so that a footnote's math has
// already become text when the footnote itself is unwrapped. Each element
// goes through the rules in turn: foreign content (MathML, SVG), noise
// (scripts, controls, icon fonts), the block structure of papers
// (figures, LaTeXML documents and captions, Distill margin notes), then
// custom elements.
func (rw *rewriter) rewrite(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		rw.rewrite(c)
		c = next
	}
	if n.Type == html.CommentNode {
		remove(n)
		return
	}
	if n.Type != html.ElementNode {
		return
	}
	if rewriteForeign(n) || dropNoise(n) || rw.rewriteBlock(n) {
		return
	}
	if strings.Contains(n.Data, "-") {
		rewriteCustom(n)
	}
}

// rewriteForeign handles MathML and SVG: a formula becomes its text, a
// drawing goes. It reports whether n is foreign content, which no other
// rule applies to.
func rewriteForeign(n *html.Node) bool {
	switch n.Namespace {
	case "math":
		if n.Data == "math" {
			replaceWithText(n, mathText(n))
		}
		return true
	case "svg":
		if n.Data == "svg" {
			remove(n)
		}
		return true
	}
	return false
}

// dropNoise removes what is never prose: scripts, styles, form controls,
// canvases, icon-font glyphs, and KaTeX's visual rendering of a formula
// (its TeX is also in the sibling katex-mathml, which the MathML rule
// keeps). It reports whether n went.
func dropNoise(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Button,
		atom.Input, atom.Select, atom.Textarea, atom.Canvas:
		remove(n)
		return true
	}
	if hasClass(n, "material-icons") || hasClass(n, "material-icons-outlined") ||
		hasClass(n, "katex-html") {
		remove(n)
		return true
	}
	return false
}

// rewriteBlock gives papers' block structure the shape extraction reads:
// a figure becomes its caption, a LaTeXML document an article (unless the
// page has one), a LaTeXML caption a paragraph, and a Distill margin note
// a paragraph or a division. It reports whether a rule applied.
func (rw *rewriter) rewriteBlock(n *html.Node) bool {
	switch {
	case n.DataAtom == atom.Figure:
		rw.figureToCaption(n)
	case !rw.hasArticle && n.Data == "div" && hasClass(n, "ltx_document"):
		n.Data, n.DataAtom = "article", atom.Article
	case n.DataAtom == atom.Div && hasClass(n, "ltx_caption"):
		// LaTeXML table/figure captions ("Table 2: Accuracy of ..."), which
		// trafilatura drops as loose div text.
		captionToParagraph(n)
	case n.DataAtom == atom.Aside && insideCustomArticle(n):
		// Distill margin notes are part of the article, unlike a web
		// page's sidebar; trafilatura would remove every <aside>.
		if hasBlockChild(n) {
			n.Data, n.DataAtom = "div", atom.Div
		} else {
			n.Data, n.DataAtom = "p", atom.P
		}
	default:
		return false
	}
	return true
}

// rewriteCustom turns custom elements (Distill templates and similar web
// components) into what they stand for: a formula's text, a citation
// (dropped when empty), a footnote in brackets, an article, metadata to
// drop, and otherwise a division or a span by what it holds.
func rewriteCustom(n *html.Node) {
	switch {
	case strings.HasSuffix(n.Data, "-math"):
		replaceWithText(n, textContent(n))
	case strings.HasSuffix(n.Data, "-cite"):
		if strings.TrimSpace(textContent(n)) == "" {
			removeInline(n)
		} else {
			unwrap(n)
		}
	case n.Data == "dt-fn" || n.Data == "d-footnote":
		if strings.TrimSpace(textContent(n)) == "" {
			remove(n)
			return
		}
		n.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: " ("}, n)
		n.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: ")"}, n.NextSibling)
		unwrap(n)
	case strings.HasSuffix(n.Data, "-article"):
		n.Data, n.DataAtom = "article", atom.Article
	case n.Data == "d-front-matter" || n.Data == "d-bibliography":
		// Machine-readable metadata (JSON, BibTeX), not prose.
		remove(n)
	case hasBlockChild(n):
		n.Data, n.DataAtom = "div", atom.Div
	default:
		n.Data, n.DataAtom = "span", atom.Span
	}
}

// gatherDistill moves a Distill article's title block (<d-title>: the title
// and the abstract-like lead) to the start of <d-article>/<dt-article> and
// its appendix (<d-appendix>/<dt-appendix>: acknowledgements, author
// contributions, footnotes) to its end. They sit outside the article element,
// so once trafilatura picks the article as the main content they would be
// lost.
func gatherDistill(root *html.Node) {
	var articles, titles, appendices []*html.Node
	walk(root, func(n *html.Node) {
		if n.Type != html.ElementNode || !strings.Contains(n.Data, "-") {
			return
		}
		switch {
		case n.Data == "d-article" || n.Data == "dt-article":
			articles = append(articles, n)
		case n.Data == "d-title":
			titles = append(titles, n)
		case n.Data == "d-appendix" || n.Data == "dt-appendix":
			appendices = append(appendices, n)
		}
	})
	if len(articles) != 1 {
		return
	}
	art := articles[0]
	for i := len(titles) - 1; i >= 0; i-- {
		if !contains(titles[i], art) && !contains(art, titles[i]) {
			titles[i].Parent.RemoveChild(titles[i])
			art.InsertBefore(titles[i], art.FirstChild)
		}
	}
	for _, a := range appendices {
		if !contains(a, art) && !contains(art, a) {
			a.Parent.RemoveChild(a)
			art.AppendChild(a)
		}
	}
}

// contains reports whether n is anc or one of its descendants.
func contains(anc, n *html.Node) bool {
	for ; n != nil; n = n.Parent {
		if n == anc {
			return true
		}
	}
	return false
}

func insideCustomArticle(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && strings.HasSuffix(p.Data, "-article") {
			return true
		}
	}
	return false
}

var blockAtoms = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.H1: true, atom.H2: true, atom.H3: true,
	atom.H4: true, atom.H5: true, atom.H6: true, atom.Ul: true, atom.Ol: true,
	atom.Li: true, atom.Table: true, atom.Figure: true, atom.Figcaption: true,
	atom.Section: true, atom.Article: true, atom.Blockquote: true, atom.Pre: true,
	atom.Dl: true, atom.Header: true, atom.Footer: true, atom.Nav: true, atom.Hr: true,
}

func hasBlockChild(n *html.Node) bool {
	found := false
	walk(n, func(c *html.Node) {
		if c != n && c.Type == html.ElementNode && (blockAtoms[c.DataAtom] || c.Data == "div") {
			found = true
		}
	})
	return found
}

// mathText prefers the TeX source that LaTeXML stores in alttext: it is what
// a reader of the paper would type, and it is far shorter than the
// concatenated MathML token text.
func mathText(n *html.Node) string {
	for _, a := range n.Attr {
		if a.Key == "alttext" && strings.TrimSpace(a.Val) != "" {
			return a.Val
		}
	}
	// KaTeX and MathJax keep the TeX in an annotation instead.
	tex := ""
	walk(n, func(c *html.Node) {
		if tex == "" && c.Type == html.ElementNode && c.Data == "annotation" {
			for _, a := range c.Attr {
				if a.Key == "encoding" && a.Val == "application/x-tex" {
					tex = textContent(c)
				}
			}
		}
	})
	if strings.TrimSpace(tex) != "" {
		return tex
	}
	return textContent(n)
}

func hasClass(n *html.Node, class string) bool {
	for _, a := range n.Attr {
		if a.Key == "class" {
			for _, f := range strings.Fields(a.Val) {
				if f == class {
					return true
				}
			}
		}
	}
	return false
}

func walk(n *html.Node, fn func(*html.Node)) {
	fn(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

func textContent(n *html.Node) string {
	var b strings.Builder
	walk(n, func(c *html.Node) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	})
	return b.String()
}

func remove(n *html.Node) {
	if n.Parent != nil {
		n.Parent.RemoveChild(n)
	}
}

// removeInline removes an empty inline element such as an unrendered citation
// and drops the space it leaves before punctuation, so "momentum <cite>: a"
// reads "momentum: a" rather than "momentum : a".
func removeInline(n *html.Node) {
	prev, next := n.PrevSibling, n.NextSibling
	remove(n)
	if prev != nil && prev.Type == html.TextNode && next != nil && next.Type == html.TextNode &&
		next.Data != "" && strings.ContainsAny(next.Data[:1], ",.;:!?)") {
		prev.Data = strings.TrimRightFunc(prev.Data, unicode.IsSpace)
	}
}

func replaceWithText(n *html.Node, text string) {
	if n.Parent == nil {
		return
	}
	n.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: text}, n)
	n.Parent.RemoveChild(n)
}

// unwrap replaces n by its children.
func unwrap(n *html.Node) {
	p := n.Parent
	if p == nil {
		return
	}
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		n.RemoveChild(c)
		p.InsertBefore(c, n)
		c = next
	}
	p.RemoveChild(n)
}

// mergeText joins adjacent text nodes left behind by the rewrites, so that
// "Dynamic ", "k", "-Max Pooling" is one text run again.
func mergeText(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.TextNode {
			for next != nil && next.Type == html.TextNode {
				c.Data += next.Data
				after := next.NextSibling
				n.RemoveChild(next)
				next = after
			}
		} else {
			mergeText(c)
		}
		c = next
	}
}
