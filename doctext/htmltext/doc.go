// Package htmltext turns an HTML or XHTML article page into clean main text
// for indexing: the page title and the body as paragraphs.
//
// Main-text detection is done by go-trafilatura, the Go port of the
// trafilatura extractor that ElaipBench used, with these choices:
//
//   - focus on recall (a dropped paragraph of a paper costs more than a stray
//     caption); comments, links and images excluded; no publish-date search;
//   - tables kept: results tables are what many paper questions ask about.
//     Each table row becomes one paragraph, its cells joined by " | ";
//   - no JavaScript is ever run: only the static markup is read, so text that
//     a page builds at render time (Distill bylines, citations) is absent.
//
// Trafilatura knows only standard HTML tags, and it drops the text that
// follows an unknown element, which cut every Distill and LaTeXML paragraph
// at its first formula. The page is therefore rewritten before extraction
// (see preprocess.go): MathML and Distill math become their TeX source,
// unrendered citation tags are removed, footnotes stay inline in parentheses,
// Distill's <d-article>/<dt-article> (plus its title block and appendix) and
// LaTeXML's ltx_document become <article>, figures are reduced to their
// captions and tables, LaTeXML captions and Distill margin notes become
// paragraphs, and widget controls (buttons, icon-font glyphs such as
// "play_arrow") are removed. XHTML self-closing tags are expanded first so
// that an HTML parser reads them correctly.
//
// The text is NFKC-normalised (ligatures, full-width forms, non-breaking
// spaces), invisible format characters (soft hyphen, zero-width space,
// invisible maths operators) are removed and whitespace inside a paragraph
// is collapsed to single spaces. Paragraphs are separated by "\n\n" and
// contain no newline; headings (h1-h6) are paragraphs of their own and keep
// the numbering the page prints. Headings h1-h4 are written as markdown
// headings of their level ("### 3.2 k-Max Pooling"), so that the chunker
// takes each as a section title, numbered or not; Document.Spans marks
// every heading paragraph as kind.Heading.
//
// Errors are plain words and wrap the sentinels ErrEmpty ("empty file") and
// ErrNoText ("no main text found"); ExtractFile prefixes the file name.
package htmltext
