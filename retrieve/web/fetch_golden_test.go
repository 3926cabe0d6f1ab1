package web

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"github.com/paperlens/paperlens/internal/testkit/golden"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/paperlens/paperlens/doctext/htmltext"
	"github.com/paperlens/paperlens/doctext/pdftext"
)

// TestFetchGolden pins what fetch returns, the Doc and the cache's Page
// (all but its time), for each page of the test server, for bodies sniffed
// without a Content-Type, for extractors failing each way, and for URLs
// refused before any request. The server's address is cut out. Regenerate
// with WEB_WRITE_GOLDEN=1 only for a deliberate change.
func TestFetchGolden(t *testing.T) {
	srv := pageServer(t, 1<<20)
	extra := http.NewServeMux()
	raw := func(b string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Content-Type"] = nil // no header: the client sniffs
			w.Write([]byte(b))
		}
	}
	extra.HandleFunc("/sniff-html", raw("<html><body><p>One two three four five six seven eight.</p></body></html>"))
	extra.HandleFunc("/sniff-binary", raw("\x00\x01\x02\x03binary"))
	extra.HandleFunc("/sniff-text", raw("Plain words, enough of them to count as a page of text."))
	extra.HandleFunc("/latin1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
		w.Write([]byte("caf\xe9 cr\xe8me br\xfbl\xe9e is served at the end of the meal."))
	})
	extra.HandleFunc("/bad.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		w.Write([]byte("%PDF-1.4 not really"))
	})
	extra.HandleFunc("/title-only", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("just a title"))
	})
	xsrv := httptest.NewServer(extra)
	defer xsrv.Close()

	failing := func(err error) *Fetcher {
		return NewFetcher(FetchOptions{Timeout: time.Minute, MaxBytes: 1 << 20, AllowPrivate: true, Tokens: 1024,
			Extract: func(context.Context, string, []byte, string) (string, string, error) { return "", "", err }})
	}
	titled := NewFetcher(FetchOptions{Timeout: time.Minute, MaxBytes: 1 << 20, AllowPrivate: true, Tokens: 1024,
		Extract: func(context.Context, string, []byte, string) (string, string, error) {
			return "  A\n title ", "Words enough to make a page of main text here.", nil
		}})
	sameAsTitle := NewFetcher(FetchOptions{Timeout: time.Minute, MaxBytes: 1 << 20, AllowPrivate: true, Tokens: 1024,
		Extract: func(context.Context, string, []byte, string) (string, string, error) {
			return "one two three four five six", "one two three four five six", nil
		}})
	type fetchCase struct {
		name string
		f    *Fetcher
		url  string
	}
	cases := []fetchCase{
		{"bad url", loopbackFetcher(1024), "http://[::1"},
		{"ftp", loopbackFetcher(1024), "ftp://example.com/x"},
		{"html extractor: no text", failing(htmltext.ErrNoText), srv.URL + "/tsne"},
		{"html extractor: deadline", failing(context.DeadlineExceeded), srv.URL + "/tsne"},
		{"html extractor: other", failing(errors.New("broken")), srv.URL + "/tsne"},
		{"pdf extractor: empty", failing(pdftext.ErrEmpty), srv.URL + "/paper.pdf"},
		{"pdf extractor: deadline", failing(context.DeadlineExceeded), srv.URL + "/paper.pdf"},
		{"pdf extractor: other", failing(errors.New("broken")), srv.URL + "/paper.pdf"},
		{"extractor's title", titled, srv.URL + "/tsne"},
		{"text no more than the title", sameAsTitle, srv.URL + "/tsne"},
	}
	for _, p := range []string{"/tsne", "/moved", "/momentum", "/plain", "/paper.pdf", "/missing", "/broken", "/image",
		"/huge", "/huge-declared", "/loop", "/to-file", "/empty", "/app-shell"} {
		cases = append(cases, fetchCase{p, loopbackFetcher(1024), srv.URL + p})
	}
	for _, p := range []string{"/sniff-html", "/sniff-binary", "/sniff-text", "/latin1", "/bad.pdf", "/title-only"} {
		cases = append(cases, fetchCase{p, loopbackFetcher(1024), xsrv.URL + p})
	}
	cases = append(cases, fetchCase{"/tsne at 60 tokens", loopbackFetcher(60), srv.URL + "/tsne"})
	var b strings.Builder
	for _, c := range cases {
		d, p := c.f.fetch(context.Background(), Result{URL: c.url, Title: "search title", Rank: 3})
		cut := func(s string) string {
			return strings.ReplaceAll(strings.ReplaceAll(s, srv.URL, "SRV"), xsrv.URL, "XSRV")
		}
		fmt.Fprintf(&b, "== %s\ndoc url=%s title=%q rank=%d tokens=%d status=%q text=%x (%d bytes)\n", c.name, cut(d.URL), d.Title, d.Rank, d.Tokens, d.Status, sha256.Sum256([]byte(d.Text)), len(d.Text))
		fmt.Fprintf(&b, "page url=%s final=%s http=%d type=%q status=%q sha=%q bytes=%d body=%x error=%q\n", cut(p.URL), cut(p.FinalURL), p.HTTPStatus, p.ContentType, p.Status, p.SHA256, p.Bytes, sha256.Sum256(p.body), cut(p.Error))
	}
	got := b.String()
	golden.Check(t, "testdata/fetch.golden", got, "WEB_WRITE_GOLDEN")
}
