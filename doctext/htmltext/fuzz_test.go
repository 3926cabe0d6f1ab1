package htmltext

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzExtract feeds any bytes to Extract, which turns every web page a
// search result points to into the text a model reads (retrieve/web). It
// must return a document or an error, not both, the error one of
// ErrEmpty, ErrNoText or a parse failure; the text must keep its contract
// (paragraphs one line each, separated by "\n\n", valid UTF-8 whatever the
// page's encoding claims), the title one line, the heading spans inside the
// text on paragraph bounds; and the memory taken must be in proportion to
// the page.
//
//	go test -run '^$' -fuzz '^FuzzExtract$' -fuzztime 30s ./doctext/htmltext/
func FuzzExtract(f *testing.F) {
	for _, name := range []string{"distill-like.html", "nav-footer.html"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"", " \n", "<p>x</p>", "<html><body><article><h2>2 Method</h2><p>We prune patches in cycles of four steps each time.</p></article></body></html>",
		"<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><body><div class=\"ltx_date\"/><p>Text after an empty div.</p><br/></body></html>",
		"<html><head><meta charset=\"iso-8859-1\"><title>Caf\xe9\n\tbar</title></head><body><p>A caf\xe9 serves na\xefve coffee.</p></body></html>",
		"<meta charset=\"utf-8\"><p>\xff\xfe broken \xc3 bytes in a page that claims UTF-8 throughout</p>",
		"<p>soft\u00adhyphen zero\u200bwidth \ufb01ligature ＦＵＬＬ width</p>",
		strings.Repeat("<div>", 5000) + "deep" + strings.Repeat("</div>", 5000),
		"<table><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>2</td></tr></table>",
		"<h1>" + strings.Repeat("long heading ", 40) + "</h1><p>body</p>",
		"<figure><img src=x><figcaption>Figure 1: a caption.</figcaption></figure>",
		"<script>var x = '<p>not text</p>';</script><style>p{}</style><noscript>no</noscript>",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		doc, err := Extract(bytes.NewReader(data), "")
		runtime.ReadMemStats(&after)
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(1024*len(data)+64<<20) {
			t.Fatalf("extracting %d bytes allocated %d", len(data), alloc)
		}
		if (doc == nil) == (err == nil) {
			t.Fatalf("Extract returned doc=%v err=%v; want exactly one", doc != nil, err)
		}
		if err != nil {
			if !errors.Is(err, ErrEmpty) && !errors.Is(err, ErrNoText) && !strings.HasPrefix(err.Error(), "parsing HTML") {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		checkDocument(t, doc)
	})
}

// checkDocument checks a Document against its contract.
func checkDocument(t *testing.T, doc *Document) {
	t.Helper()
	if doc.Text == "" {
		t.Fatalf("empty text without an error")
	}
	checkShape(t, doc.Text)
	if !utf8.ValidString(doc.Text) || !utf8.ValidString(doc.Title) {
		t.Fatalf("invalid UTF-8: title %q text %.200q", doc.Title, doc.Text)
	}
	if strings.ContainsAny(doc.Title, "\n\r\t") || strings.TrimSpace(doc.Title) != doc.Title {
		t.Fatalf("title %q is not one trimmed line", doc.Title)
	}
	end := 0
	for _, s := range doc.Spans {
		if s.Start < end || s.End <= s.Start || s.End > len(doc.Text) {
			t.Fatalf("span %+v out of order or outside the text of %d bytes", s, len(doc.Text))
		}
		if (s.Start > 0 && !strings.HasSuffix(doc.Text[:s.Start], "\n\n")) || (s.End < len(doc.Text) && !strings.HasPrefix(doc.Text[s.End:], "\n\n")) {
			t.Fatalf("span %+v does not cover whole paragraphs: %q", s, doc.Text[s.Start:s.End])
		}
		end = s.End
	}
}
