package htmltext

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	nurl "net/url"
	"os"
	"strings"
	"unicode/utf8"

	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/internal/lazyregexp"
)

// Sentinel errors. Callers test them with errors.Is; the messages are plain
// words because they end up in ingest reports read by people.
var (
	// ErrEmpty means the input had no bytes (or only whitespace).
	ErrEmpty = errors.New("empty file")
	// ErrNoText means the page parsed but no main text could be found in it.
	ErrNoText = errors.New("no main text found")
)

// Document is the clean main text of one page.
type Document struct {
	// Title is the page title as trafilatura's metadata finds it (meta tags,
	// <title>, first heading), NFKC-normalised and on one line.
	Title string
	// Text holds the paragraphs separated by "\n\n". Each paragraph is one
	// line (whitespace collapsed). Headings h1-h6 are paragraphs of their own,
	// keeping any number the page prints; h1-h4 start with their level's
	// markdown marker ("### 2.1 Related work"). Each table row
	// is a paragraph with its cells joined by " | ".
	Text string
	// Spans mark the heading paragraphs of Text (kind.Heading).
	Spans []kind.Span
}

// Extract reads an HTML or XHTML page and returns its main text. pageURL is
// optional; it only helps trafilatura resolve the page's metadata and is used
// in error messages.
func Extract(r io.Reader, pageURL string) (*Document, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, withName(pageURL, fmt.Errorf("reading page: %w", err))
	}
	doc, err := extractBytes(data, pageURL)
	if err != nil {
		return nil, withName(pageURL, err)
	}
	return doc, nil
}

// ExtractFile is Extract on a file; errors name the file.
func ExtractFile(path string) (*Document, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err // os errors already name the path
	}
	doc, err := extractBytes(data, "")
	if err != nil {
		return nil, withName(path, err)
	}
	return doc, nil
}

func withName(name string, err error) error {
	if name == "" {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

func extractBytes(data []byte, pageURL string) (*Document, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, ErrEmpty
	}
	data = toUTF8(data)
	if isXHTML(data) {
		data = expandSelfClosing(data)
	}
	root, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		// x/net/html practically never fails; keep the cause anyway.
		return nil, fmt.Errorf("parsing HTML: %w", err)
	}
	preprocess(root)

	opts := trafilatura.Options{
		// Papers are long and dense: losing a paragraph costs more than
		// keeping a stray caption, so favour recall.
		Focus:           trafilatura.FavorRecall,
		ExcludeComments: true,
		// Tables in papers carry results that questions ask about.
		ExcludeTables: false,
		IncludeLinks:  false,
		IncludeImages: false,
		// The publish date is not needed, and date scanning is the slowest
		// part of trafilatura.
		HtmlDateMode: trafilatura.Disabled,
	}
	if u, err := nurl.Parse(pageURL); err == nil && u.Scheme != "" && u.Host != "" {
		opts.OriginalURL = u
	}
	res, err := trafilatura.ExtractDocument(root, opts)
	if err == nil && utf8.RuneCountInString(res.ContentText) < shortText {
		// A result this short means trafilatura fell back to its "baseline"
		// rescue, which flattens the whole body into one run of text
		// ("NotesNotesShort page ..."). On a genuinely short page the
		// normal extraction is better, so run it again without the size
		// threshold (ExtractDocument works on a copy of root).
		short := opts
		cfg := *trafilatura.DefaultConfig()
		cfg.MinExtractedSize = 1
		short.Config = &cfg
		if res2, err2 := trafilatura.ExtractDocument(root, short); err2 == nil &&
			res2.ContentNode != nil && firstOf(nodeText(res2.ContentNode)) != "" {
			res = res2
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%w (trafilatura: %v)", ErrNoText, err)
	}
	text := ""
	var spans []kind.Span
	if res.ContentNode != nil {
		text, spans = nodeText(res.ContentNode)
	}
	if text == "" {
		// ContentText is flat but better than nothing if the node walk found
		// no block structure.
		text = cleanParagraph(res.ContentText)
	}
	if text == "" {
		return nil, ErrNoText
	}
	return &Document{Title: cleanParagraph(res.Metadata.Title), Text: text, Spans: spans}, nil
}

func firstOf(s string, _ []kind.Span) string { return s }

// toUTF8 converts the page to UTF-8 when it is not already valid UTF-8,
// using the BOM, the <meta charset> and then content sniffing. Bytes that
// are still not UTF-8 become U+FFFD: a page that is UTF-8 but for a few
// broken bytes is sniffed as UTF-8, whose decoder here passes every byte
// through, and the broken bytes reached the text (FuzzExtract found it).
func toUTF8(data []byte) []byte {
	if utf8.Valid(data) {
		return data
	}
	enc, _, _ := charset.DetermineEncoding(data, "text/html")
	if out, err := enc.NewDecoder().Bytes(data); err == nil {
		data = out
	}
	return bytes.ToValidUTF8(data, []byte("\uFFFD"))
}

// isXHTML reports whether the page is XML-serialised (LaTeXML and arXiv
// pages are). Only the head of the file is checked.
func isXHTML(data []byte) bool {
	head := data[:min(len(data), 2048)]
	return bytes.HasPrefix(bytes.TrimSpace(head), []byte("<?xml")) ||
		bytes.Contains(head, []byte(`xmlns="http://www.w3.org/1999/xhtml"`))
}

// shortText is trafilatura's default MinExtractedSize: below it, trafilatura
// replaces its extraction by the flat baseline.
const shortText = 250

var selfClosing = lazyregexp.MustCompile(`<([A-Za-z][A-Za-z0-9:_-]*)(\s[^<>]*?)?\s*/>`)

var voidElements = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "param": true,
	"source": true, "track": true, "wbr": true, "keygen": true,
}

// expandSelfClosing rewrites XML self-closing tags of non-void elements
// (<div class="ltx_date"/>) as an open/close pair. An HTML parser ignores the
// slash, so without this the empty div would swallow the rest of the page and
// the section structure would be lost.
func expandSelfClosing(data []byte) []byte {
	return selfClosing.ReplaceAllFunc(data, func(m []byte) []byte {
		sub := selfClosing.FindSubmatch(m)
		name := string(sub[1])
		if voidElements[strings.ToLower(name)] {
			return m
		}
		var b bytes.Buffer
		b.WriteByte('<')
		b.Write(sub[1])
		b.Write(sub[2])
		b.WriteString("></")
		b.Write(sub[1])
		b.WriteByte('>')
		return b.Bytes()
	})
}
