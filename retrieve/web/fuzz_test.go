package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/paperlens/paperlens/chunk/tokens"
)

// fuzzTypes are the Content-Type headers a fuzzed page is served with:
// each way the reader picks a parser, "" (sniffed) included.
var fuzzTypes = []string{
	"text/html; charset=utf-8", "text/html", "application/xhtml+xml", "text/plain",
	"text/plain; charset=iso-8859-1", "text/plain; charset=utf-8", "", "application/pdf", "image/png",
}

// fuzzTokens is the fuzzed reader's token budget: small, so that most pages
// are cut and the cut is exercised.
const fuzzTokens = 64

// FuzzFetchPage serves any bytes, under each Content-Type, to the reader
// that turns a search result into the text a model reads (Fetcher.Fetch:
// sniffing, the HTML, PDF or plain-text parser, charset decoding, then
// paragraphs and the token budget). Whatever the page, Fetch must return
// a known status, and with "ok" a text that keeps Doc's contract:
// paragraphs one line each, separated by "\n\n", valid UTF-8, within the
// token budget, its token count true; the title one line.
//
//	go test -run '^$' -fuzz '^FuzzFetchPage$' -fuzztime 30s ./retrieve/web/
func FuzzFetchPage(f *testing.F) {
	for _, name := range []string{"distill-like.html", "nav-footer.html"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "doctext", "htmltext", "testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint8(0))
		f.Add(data, uint8(6))
	}
	for _, s := range []string{
		"", "<p>x</p>", "Plain text, hard\r\nwrapped across\r\nlines.\r\n\r\nA second paragraph of words here.",
		"Caf\xe9 na\xefve r\xe9sum\xe9 in Latin-1, a plain text page of several words.",
		"UTF-8 text with a broken \xff byte and enough words to count as a page.",
		"%PDF-1.4\n%%EOF", "\x89PNG\r\n\x1a\n", "<title>T\n i t l e</title><p>" + strings.Repeat("One two three four five six. ", 50) + "</p>",
	} {
		for ct := range fuzzTypes {
			f.Add([]byte(s), uint8(ct))
		}
	}
	var mu sync.Mutex
	var body []byte
	var ctype string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		b, ct := body, ctype
		mu.Unlock()
		if ct != "" {
			w.Header().Set("Content-Type", ct)
		} else {
			w.Header()["Content-Type"] = nil // no header: the reader sniffs
		}
		w.Write(b)
	}))
	f.Cleanup(srv.Close)
	fetcher := NewFetcher(FetchOptions{Timeout: 10 * time.Second, MaxBytes: 1 << 20, AllowPrivate: true, Tokens: fuzzTokens})
	known := map[string]bool{StatusOK: true, StatusNotHTML: true, StatusTooLarge: true, StatusEmpty: true, StatusBadPDF: true, StatusFailed: true}
	f.Fuzz(func(t *testing.T, data []byte, ct uint8) {
		mu.Lock()
		body, ctype = data, fuzzTypes[int(ct)%len(fuzzTypes)]
		mu.Unlock()
		d := fetcher.Fetch(context.Background(), Result{URL: srv.URL + "/page", Title: "search title"})
		if !known[d.Status] {
			t.Fatalf("status %q", d.Status)
		}
		if d.Status != StatusOK {
			if d.Text != "" {
				t.Fatalf("status %q with text %.100q", d.Status, d.Text)
			}
			return
		}
		if d.Text == "" || !utf8.ValidString(d.Text) || !utf8.ValidString(d.Title) {
			t.Fatalf("text %.200q, title %q: empty or not UTF-8", d.Text, d.Title)
		}
		for i, p := range strings.Split(d.Text, "\n\n") {
			if p == "" || strings.ContainsAny(p, "\n\r") || strings.TrimSpace(p) != p {
				t.Fatalf("paragraph %d badly shaped: %q", i, p)
			}
		}
		if n := tokens.Count(d.Text); n != d.Tokens || n > fuzzTokens {
			t.Fatalf("%d tokens, Doc says %d, budget %d", n, d.Tokens, fuzzTokens)
		}
		if d.Title != oneLine(d.Title) || d.Title == "" {
			t.Fatalf("title %q is not one line", d.Title)
		}
	})
}
