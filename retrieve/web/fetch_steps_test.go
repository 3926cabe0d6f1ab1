package web

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/paperlens/paperlens/doctext/htmltext"
	"github.com/paperlens/paperlens/doctext/pdftext"
)

func TestExtractStatus(t *testing.T) {
	live := context.Background()
	done, cancel := context.WithCancel(context.Background())
	cancel()
	broken := errors.New("broken")
	for _, tc := range []struct {
		name string
		ctx  context.Context
		kind string
		err  error
		want string
	}{
		{"html without text", live, "html", htmltext.ErrNoText, StatusEmpty},
		{"empty html", live, "html", fmt.Errorf("x: %w", htmltext.ErrEmpty), StatusEmpty},
		{"pdf without text", live, "pdf", pdftext.ErrNoText, StatusEmpty},
		{"empty pdf", live, "pdf", pdftext.ErrEmpty, StatusEmpty},
		{"a pdf error from html is a failure", live, "html", pdftext.ErrEmpty, StatusFailed},
		{"deadline", live, "pdf", context.DeadlineExceeded, StatusTimeout},
		{"caller gone", done, "html", broken, StatusTimeout},
		{"bad pdf", live, "pdf", broken, StatusBadPDF},
		{"html failure", live, "html", broken, StatusFailed},
	} {
		if got := extractStatus(tc.ctx, tc.kind, tc.err); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestPageTextPlain(t *testing.T) {
	f := NewFetcher(FetchOptions{})
	for _, tc := range []struct {
		name, ctype, body, want string
	}{
		{"utf-8", "text/plain; charset=utf-8", "café", "café"},
		{"latin-1", "text/plain; charset=iso-8859-1", "caf\xe9", "café"},
		{"unknown charset: sniffed", "text/plain; charset=nope", "caf\xe9", "café"},
	} {
		title, text, status, err := f.pageText(context.Background(), "text", &Page{ContentType: tc.ctype, body: []byte(tc.body)})
		if title != "" || text != tc.want || status != "" || err != nil {
			t.Errorf("%s: %q %q %q %v, want text %q", tc.name, title, text, status, err, tc.want)
		}
	}
	// Extraction failures carry their status word.
	bad := NewFetcher(FetchOptions{Extract: func(context.Context, string, []byte, string) (string, string, error) {
		return "", "", pdftext.ErrNoText
	}})
	if _, _, status, err := bad.pageText(context.Background(), "pdf", &Page{}); status != StatusEmpty || !errors.Is(err, pdftext.ErrNoText) {
		t.Errorf("failing extractor: %q %v", status, err)
	}
}
