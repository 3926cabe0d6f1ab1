package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/bm25"
	"github.com/paperlens/paperlens/retrieve/web"
)

// queryParams and urlParams are the fixed argument schemas.
var (
	queryParams = json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"what to search for"}},"required":["query"],"additionalProperties":false}`)
	urlParams   = json.RawMessage(`{"type":"object","properties":{"url":{"type":"string","description":"an http or https URL"}},"required":["url"],"additionalProperties":false}`)
)

// stringArg reads the one string argument name of a call; "" with a
// "bad arguments" Result when it is missing or empty.
func stringArg(args json.RawMessage, name string) (string, *Result) {
	var m map[string]any
	if err := json.Unmarshal(args, &m); err != nil || m == nil {
		return "", &Result{Status: "bad arguments", Text: fmt.Sprintf("The arguments must be a JSON object like {%q: \"...\"}.", name)}
	}
	s, ok := m[name].(string)
	if !ok || strings.TrimSpace(s) == "" {
		return "", &Result{Status: "bad arguments", Text: fmt.Sprintf("The argument %q must be a non-empty string.", name)}
	}
	return strings.TrimSpace(s), nil
}

// SearchPaper is the search_paper tool: the top K passages of one paper
// for the model's query, ranked by a retriever, each under its passage id.
type SearchPaper struct {
	Retriever retrieve.Retriever
	PaperID   string      // the question's paper; the only one searched
	K         int         // passages per call (-k); 5 when 0
	Exclude   []kind.Kind // --exclude-kinds
}

func (s *SearchPaper) Name() string { return ToolSearchPaper }
func (s *SearchPaper) Description() string {
	return "Search the paper the question is about. Returns the passages that best match the query, each headed by its passage id in brackets."
}
func (s *SearchPaper) Parameters() json.RawMessage { return queryParams }
func (s *SearchPaper) Close() error                { return nil }

// Call searches. A query with nothing searchable in it is an ok result
// saying nothing matched; a retriever failure stops the question.
func (s *SearchPaper) Call(ctx context.Context, args json.RawMessage) (Result, error) {
	q, bad := stringArg(args, "query")
	if bad != nil {
		return *bad, nil
	}
	k := s.K
	if k <= 0 {
		k = 5
	}
	hits, err := s.Retriever.Search(ctx, retrieve.Query{Text: q, PaperID: s.PaperID, K: k, Exclude: s.Exclude})
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, err
		}
		// An index refusing the query (no searchable term) is the model's
		// query, not a broken index: the model can rephrase.
		if isQueryError(err) {
			return Result{Status: "ok", Text: "No passage matches " + strconvQuote(q) + "."}, nil
		}
		return Result{}, fmt.Errorf("search_paper %q in %s: %w", q, s.PaperID, err)
	}
	var b strings.Builder
	r := Result{Status: "ok"}
	for _, h := range hits {
		if h.PaperID != s.PaperID && s.PaperID != "" {
			continue // a retriever that cannot filter by paper
		}
		if len(r.Passages) == k {
			break
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, "[%s] %s", h.PassageID, strings.TrimSpace(h.Text))
		r.Passages = append(r.Passages, h.PassageID)
	}
	if len(r.Passages) == 0 {
		r.Text = "No passage matches " + strconvQuote(q) + "."
		return r, nil
	}
	r.Text = b.String()
	return r, nil
}

// isQueryError reports an error about the query itself: no searchable
// term in it (bm25.ErrEmptyQuery; a fused retriever passes it on).
func isQueryError(err error) bool { return errors.Is(err, bm25.ErrEmptyQuery) }

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// WebSearch is the web_search tool: a search engine's results as title,
// URL and snippet, without fetching the pages (open_page does that).
type WebSearch struct {
	Provider web.Provider
	N        int // results per call; 5 when 0
	// Skip, when set, leaves results out (the question's own paper, when
	// a runner wants it hidden as the web modes hide it).
	Skip func(web.Result) bool
}

func (w *WebSearch) Name() string { return ToolWebSearch }
func (w *WebSearch) Description() string {
	return "Search the web. Returns the results' titles, URLs and snippets; open a result with open_page to read it."
}
func (w *WebSearch) Parameters() json.RawMessage { return queryParams }
func (w *WebSearch) Close() error                { return nil }

// Call searches. An engine that fails (down, over quota) is an "error"
// result the model reads; the question goes on without it.
func (w *WebSearch) Call(ctx context.Context, args json.RawMessage) (Result, error) {
	q, bad := stringArg(args, "query")
	if bad != nil {
		return *bad, nil
	}
	n := w.N
	if n <= 0 {
		n = 5
	}
	want := n
	if w.Skip != nil {
		want += 2 // the own paper, often first, and its PDF
	}
	rs, err := w.Provider.Search(ctx, q, want)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, err
		}
		return Result{Status: "error", Text: "The search failed: " + err.Error()}, nil
	}
	var b strings.Builder
	r := Result{Status: "ok"}
	for _, x := range rs {
		if w.Skip != nil && w.Skip(x) {
			continue
		}
		if len(r.URLs) == n {
			break
		}
		fmt.Fprintf(&b, "%d. %s\n   %s\n", len(r.URLs)+1, strings.TrimSpace(x.Title), x.URL)
		if s := strings.TrimSpace(x.Snippet); s != "" {
			fmt.Fprintf(&b, "   %s\n", s)
		}
		r.URLs = append(r.URLs, x.URL)
	}
	if len(r.URLs) == 0 {
		r.Text = "No results for " + strconvQuote(q) + "."
		return r, nil
	}
	r.Text = strings.TrimRight(b.String(), "\n")
	return r, nil
}

// OpenPage is the open_page tool: a page's main text through the guarded
// fetcher (no private addresses, size and time limits, HTML and PDF
// extraction), cut to Tokens.
type OpenPage struct {
	Fetcher *web.Fetcher
	// Tokens cuts the text (--web-tokens); 0 keeps the fetcher's own cut.
	Tokens int
	// Skip, when set, refuses a page (the question's own paper), by its
	// URL before fetching and by its title after.
	Skip func(web.Result) bool
}

// StatusOwn is the status of a web_search result list or open_page call
// that left out the question's own paper.
const StatusOwn = web.StatusOwn

func (o *OpenPage) Name() string { return ToolOpenPage }
func (o *OpenPage) Description() string {
	return "Open a web page (HTML, PDF or text) by URL and return its title and main text."
}
func (o *OpenPage) Parameters() json.RawMessage { return urlParams }
func (o *OpenPage) Close() error                { return nil }

// Call fetches. A page that cannot be read is a result saying why:
// "refused" for a blocked address or scheme, "timeout", else "error".
func (o *OpenPage) Call(ctx context.Context, args json.RawMessage) (Result, error) {
	u, bad := stringArg(args, "url")
	if bad != nil {
		return *bad, nil
	}
	r := Result{URLs: []string{u}}
	own := func() (Result, error) {
		r.Status = StatusOwn
		r.Text = fmt.Sprintf("Not opened: %s is the paper the question is about, which this setting leaves out.", u)
		return r, nil
	}
	if o.Skip != nil && o.Skip(web.Result{URL: u}) {
		return own()
	}
	d := o.Fetcher.Fetch(ctx, web.Result{URL: u})
	if ctx.Err() != nil {
		return Result{}, ctx.Err()
	}
	if d.Status == web.StatusOK && o.Skip != nil && o.Skip(web.Result{URL: u, Title: d.Title}) {
		return own()
	}
	switch d.Status {
	case web.StatusOK:
		text := d.Text
		if o.Tokens > 0 {
			text = tokens.Head(text, o.Tokens)
		}
		r.Status = "ok"
		r.Text = text
		if t := strings.TrimSpace(d.Title); t != "" {
			r.Text = t + "\n\n" + text
		}
		return r, nil
	case web.StatusBlocked:
		r.Status = "refused"
	case web.StatusTimeout:
		r.Status = "timeout"
	case web.StatusTooLarge:
		r.Status = "too long"
	default:
		r.Status = "error"
	}
	r.Text = fmt.Sprintf("Could not open %s: %s.", u, d.Status)
	return r, nil
}

var (
	_ Tool = (*SearchPaper)(nil)
	_ Tool = (*WebSearch)(nil)
	_ Tool = (*OpenPage)(nil)
)
