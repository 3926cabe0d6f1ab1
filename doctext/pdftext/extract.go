package pdftext

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"

	"github.com/ledongthuc/pdf"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/internal/lazyregexp"
)

// Sentinel errors. Messages are plain words because the CLI prints them next
// to the file name.
var (
	ErrEmpty     = errors.New("empty file")
	ErrNotPDF    = errors.New("not a PDF")
	ErrTruncated = errors.New("truncated PDF: no end-of-file marker")
	ErrNoText    = errors.New("no extractable text; run OCR first")
	// ErrEncrypted is returned for PDFs that need a password.
	ErrEncrypted = errors.New("encrypted PDF")
	// ErrMalformed covers structural damage, and files refused because a
	// structure in them is beyond any real document (see checkXref and
	// third_party/ledongthuc-pdf/PATCHES.md).
	ErrMalformed = errors.New("malformed PDF")
	// ErrDamagedXref is a cross-reference table or stream that cannot be
	// read: the objects cannot be found. Errors wrapping it wrap
	// ErrMalformed too.
	ErrDamagedXref = errors.New("damaged cross-reference table")
)

// damagedXref wraps both ErrMalformed and ErrDamagedXref; the detail comes
// from the file and is cleaned.
func damagedXref(format string, args ...any) error {
	return fmt.Errorf("%w: %w: %s", ErrMalformed, ErrDamagedXref, clean(fmt.Sprintf(format, args...)))
}

// Document is one extracted PDF.
type Document struct {
	Title string // from metadata when it looks like a real title, else from page 1 text (largest font lines at the top)
	Pages int
	Text  string // cleaned text; paragraphs separated by "\n\n"; a section heading ("1 Introduction", "3.2 Setup", "Abstract", "References") on its own paragraph; a table's rows one per line, cells separated by tabs
	// Spans marks what stretches of Text are (headings, tables, captions,
	// references, a contents page, front matter, figure text), sorted and
	// not overlapping; text outside every span is body text.
	Spans []kind.Span
	// Warnings lists pages that could not be read (their text is missing).
	Warnings []string
}

// ExtractFile opens path and calls Extract.
func ExtractFile(ctx context.Context, path string) (*Document, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return Extract(ctx, f, st.Size())
}

// Extract reads a whole PDF. It never panics: panics inside ledongthuc/pdf
// become errors. It checks ctx between pages and returns ctx.Err() wrapped
// when cancelled.
func Extract(ctx context.Context, r io.ReaderAt, size int64) (doc *Document, err error) {
	defer func() {
		if p := recover(); p != nil {
			doc, err = nil, fmt.Errorf("%w: %s", ErrMalformed, clean(fmt.Sprint(p)))
		}
	}()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("extract cancelled: %w", err)
	}
	rd, err := open(r, size)
	if err != nil {
		return nil, err
	}
	pages, err := pageList(rd)
	if err != nil {
		return nil, err
	}

	fonts := &docFonts{byRef: map[string]*font{}}
	doc = &Document{Pages: len(pages)}
	laid := make([]*pageLayout, 0, len(pages))
	for i, p := range pages {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("extract cancelled at page %d: %w", i+1, err)
		}
		pl, perr := extractPage(p, fonts)
		if perr != nil {
			doc.Warnings = append(doc.Warnings, fmt.Sprintf("page %d: %s", i+1, clean(perr.Error())))
			pl = &pageLayout{}
		}
		pl.num = i + 1
		laid = append(laid, pl)
	}
	paras, first := assemble(laid)
	title := chooseTitle(infoTitle(rd), first)
	text, spans := writeText(paras, title)
	if strings.TrimSpace(text) == "" {
		if len(doc.Warnings) > 0 && len(doc.Warnings) == len(pages) {
			return nil, fmt.Errorf("%w: no page could be read (%s)", ErrMalformed, doc.Warnings[0])
		}
		return nil, ErrNoText
	}
	doc.Text, doc.Title, doc.Spans = text, title, spans
	return doc, nil
}

// open validates the envelope before handing the file to the library, whose
// own errors ("malformed PDF: reading at offset ...") mean nothing to a user.
func open(r io.ReaderAt, size int64) (rd *pdf.Reader, err error) {
	if size <= 0 {
		return nil, ErrEmpty
	}
	head := make([]byte, min(size, 1024))
	if n, _ := r.ReadAt(head, 0); n > 0 {
		head = head[:n]
	}
	// The magic may follow some junk (Acrobat allows 1 KB of it), but must
	// carry a version: a text file that merely mentions "%PDF-" is not a PDF.
	loc := magicRE.FindIndex(head)
	if loc == nil {
		return nil, ErrNotPDF
	}
	if loc[0] > 0 {
		// Offsets inside such files count from the magic.
		r = io.NewSectionReader(r, int64(loc[0]), size-int64(loc[0]))
		size -= int64(loc[0])
	}
	tail := make([]byte, min(size, 2048))
	if n, _ := r.ReadAt(tail, size-int64(len(tail))); n > 0 {
		tail = tail[:n]
	}
	// Truncated means exactly this: the end-of-file marker is gone. Damage
	// anywhere else is named for what it is.
	if !bytes.Contains(tail, []byte("%%EOF")) {
		return nil, ErrTruncated
	}
	if err := checkXref(r, size, tail); err != nil {
		return nil, err
	}
	defer func() {
		if p := recover(); p != nil {
			rd, err = nil, damagedXref("%v", p)
		}
	}()
	rd, err = pdf.NewReader(r, size)
	if err != nil {
		msg := err.Error()
		switch {
		case strings.Contains(msg, "password") || strings.Contains(msg, "encrypt"):
			return nil, fmt.Errorf("%w: %s", ErrEncrypted, clean(msg))
		case strings.Contains(msg, "invalid header"):
			// The magic is there (checked above), but not where and how
			// the library needs it: "%PDF-1.x" then a line end at byte 0.
			return nil, fmt.Errorf("%w: the header is not \"%%PDF-1.x\" on a line of its own at the start", ErrMalformed)
		case strings.Contains(msg, "missing %%EOF"):
			return nil, fmt.Errorf("%w: other data follows the end-of-file marker", ErrMalformed)
		}
		return nil, damagedXref("%s", msg)
	}
	return rd, nil
}

var objRefRE = lazyregexp.MustCompile(`\d+ \d+ R`)

var magicRE = lazyregexp.MustCompile(`%PDF-[12]\.\d`)

// pageList walks the page tree once. The library's Reader.Page(i) walks it
// from the root for every page, resolving every node again each time.
func pageList(rd *pdf.Reader) (pages []pdf.Value, err error) {
	defer func() {
		if p := recover(); p != nil {
			pages, err = nil, fmt.Errorf("%w: reading page tree: %s", ErrMalformed, clean(fmt.Sprint(p)))
		}
	}()
	root := rd.Trailer().Key("Root").Key("Pages")
	if root.IsNull() {
		return nil, fmt.Errorf("%w: no page tree", ErrMalformed)
	}
	// A damaged tree may point back at itself: every node is visited once
	// (nodes are told apart by their object numbers, read from the printed
	// Kids array), and the total work is bounded anyway.
	visited := map[string]bool{}
	budget := 100000
	var walk func(v pdf.Value, depth int)
	walk = func(v pdf.Value, depth int) {
		budget--
		if budget < 0 || depth > 64 {
			return
		}
		kids := v.Key("Kids")
		if v.Key("Type").Name() == "Page" || kids.Kind() != pdf.Array {
			if !v.Key("Contents").IsNull() || v.Key("Type").Name() == "Page" {
				pages = append(pages, v)
			}
			return
		}
		refs := objRefRE.FindAllString(kids.String(), -1)
		if len(refs) != kids.Len() {
			refs = nil // direct objects among the kids: cannot be told apart
		}
		for i := 0; i < kids.Len(); i++ {
			if refs != nil {
				if visited[refs[i]] {
					continue
				}
				visited[refs[i]] = true
			}
			walk(kids.Index(i), depth+1)
		}
	}
	walk(root, 0)
	if len(pages) == 0 {
		return nil, fmt.Errorf("%w: no pages", ErrMalformed)
	}
	return pages, nil
}

// inheritedKey looks key up on the page and its ancestors. Unlike the
// library's version it gives up after a few levels, so a /Parent loop in a
// damaged file cannot hang us.
func inheritedKey(v pdf.Value, key string) pdf.Value {
	for i := 0; i < 32 && !v.IsNull(); i++ {
		if r := v.Key(key); !r.IsNull() {
			return r
		}
		v = v.Key("Parent")
	}
	return pdf.Value{}
}

func infoTitle(rd *pdf.Reader) (t string) {
	defer func() {
		if recover() != nil {
			t = ""
		}
	}()
	// The title is printed next to the file name: a crafted one must not
	// carry terminal control codes (C1 ones such as U+009B included).
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, rd.Trailer().Key("Info").Key("Title").Text()))
}
