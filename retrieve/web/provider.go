package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/paperlens/paperlens/internal/httpx"
	"github.com/paperlens/paperlens/internal/lazyregexp"
)

// Result is one hit of a web search, ranked from 1.
type Result struct {
	URL     string
	Title   string
	Snippet string
	Rank    int
}

// Provider is a web search engine.
type Provider interface {
	// Name identifies the engine in the cache and in error messages
	// ("searxng", "google", "brave").
	Name() string
	// Search returns at most n results for query, best first, Rank from 1.
	Search(ctx context.Context, query string, n int) ([]Result, error)
}

// pager is implemented by the providers of this package. page returns page
// p (from 0) of a query's results, pages of n (which the engine may cap),
// with the response body so that the cache can keep it verbatim; an empty
// page means there are no more. Searcher pages on when the first results
// are the paper itself, blocked or dead, so that a question still gets
// Results usable pages.
type pager interface {
	page(ctx context.Context, query string, n, p int) ([]Result, []byte, error)
}

// StatusError is a non-2xx answer from a search provider. It is the shared
// transport's *httpx.HTTPError (see internal/httpx) in this package's
// wording, and unwraps to it, so Searcher retries it by the same rules as
// the chat and embedding clients.
type StatusError struct {
	Provider   string
	Code       int
	Message    string        // short excerpt of the body, never the request URL, keys removed
	RetryAfter time.Duration // from Retry-After or retry-after-ms, 0 when absent
	err        *httpx.HTTPError
}

func (e *StatusError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("%s search: http %d", e.Provider, e.Code)
	}
	return fmt.Sprintf("%s search: http %d: %s", e.Provider, e.Code, e.Message)
}

// Unwrap gives the shared transport's error, with the endpoint called.
func (e *StatusError) Unwrap() error {
	if e.err == nil {
		return nil
	}
	return e.err
}

// Retryable reports whether the request may succeed when repeated: 408,
// 409, 425, 429 (unless a quota is exhausted) and 5xx other than 501, as
// for every remote client.
func (e *StatusError) Retryable() bool {
	if e.err != nil {
		return e.err.Retryable()
	}
	return (&httpx.HTTPError{StatusCode: e.Code}).Retryable()
}

// maxSearchBody bounds a provider response.
const maxSearchBody = 8 << 20

// searchTimeout bounds a provider call when the caller gives no
// *http.Client of its own.
const searchTimeout = 30 * time.Second

// Default endpoints.
const (
	GoogleEndpoint = "https://www.googleapis.com/customsearch/v1"
	BraveEndpoint  = "https://api.search.brave.com/res/v1/web/search"
)

// get makes one GET through the shared transport and returns the body of a
// 2xx answer. Errors never carry the URL's query, which may hold a key,
// and have sec's secrets removed.
func get(ctx context.Context, c *http.Client, name, u string, h http.Header, sec httpx.Redactor) ([]byte, error) {
	call := httpx.Call{Method: http.MethodGet, URL: u, Header: h, UserAgent: userAgent,
		Secrets: sec, MaxBody: maxSearchBody}
	if c == nil {
		call.Timeout = searchTimeout
	}
	rep, err := httpx.Do(ctx, c, call)
	if err != nil {
		var he *httpx.HTTPError
		if errors.As(err, &he) {
			return nil, &StatusError{Provider: name, Code: he.StatusCode, Message: sec.ErrorMessage(rep.Body, 200),
				RetryAfter: he.RetryAfter, err: he}
		}
		return nil, fmt.Errorf("%s search: %w", name, err)
	}
	return rep.Body, nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

var tagRE = lazyregexp.MustCompile(`<[^>]*>`)

// plain removes the HTML highlighting some engines put in titles and snippets.
func plain(s string) string {
	s = tagRE.ReplaceAllString(s, "")
	r := strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'", "&#x27;", "'", "&nbsp;", " ")
	return oneLine(r.Replace(s))
}

// finish trims results to n, drops entries without URL or with a repeated
// URL, and numbers them from 1.
func finish(rs []Result, n int) []Result {
	out := make([]Result, 0, min(len(rs), max(n, 0)))
	seen := map[string]bool{}
	for _, r := range rs {
		if len(out) >= n {
			break
		}
		r.URL = strings.TrimSpace(r.URL)
		if r.URL == "" || seen[r.URL] {
			continue
		}
		seen[r.URL] = true
		r.Title, r.Snippet = plain(r.Title), plain(r.Snippet)
		r.Rank = len(out) + 1
		out = append(out, r)
	}
	return out
}

// decode reads a 2xx body into v. A body that is not JSON (a captive
// portal, a proxy's error page, a cut-off answer) is a *MalformedError,
// which Searcher retries like the other clients do.
func decode(name, endpoint string, sec httpx.Redactor, body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%s search: %w", name, &httpx.MalformedError{URL: httpx.DisplayURL(endpoint),
			Reason: "bad JSON: " + err.Error(), Excerpt: sec.Excerpt(body, 200)})
	}
	return nil
}

// ---- SearXNG ----

type searxng struct {
	base string
	c    *http.Client
	sec  httpx.Redactor // the password of a base URL with user info
}

// NewSearXNG returns a provider querying a SearXNG instance at baseURL
// (GET {baseURL}/search?q=...&format=json; the instance must have the json
// format enabled in its settings.yml).
func NewSearXNG(baseURL string, c *http.Client) Provider {
	p := &searxng{base: strings.TrimRight(baseURL, "/"), c: c}
	if u, err := url.Parse(p.base); err == nil && u.User != nil {
		pw, _ := u.User.Password()
		p.sec = httpx.NewRedactor(pw)
	}
	return p
}

// SearXNGFromEnv reads the instance address from SEARXNG_URL.
func SearXNGFromEnv() (Provider, error) {
	u := strings.TrimSpace(os.Getenv("SEARXNG_URL"))
	if u == "" {
		return nil, errors.New("searxng search: SEARXNG_URL is not set (e.g. http://localhost:8888)")
	}
	return NewSearXNG(u, nil), nil
}

func (p *searxng) Name() string { return "searxng" }

func (p *searxng) Search(ctx context.Context, q string, n int) ([]Result, error) {
	rs, _, err := p.page(ctx, q, n, 0)
	if err != nil {
		return nil, err
	}
	return finish(rs, n), nil
}

// page ignores n: SearXNG has no page size, each engine it asks decides.
func (p *searxng) page(ctx context.Context, q string, _, page int) ([]Result, []byte, error) {
	v := url.Values{"q": {q}, "format": {"json"}}
	if page > 0 {
		v.Set("pageno", strconv.Itoa(page+1))
	}
	body, err := get(ctx, p.c, p.Name(), p.base+"/search?"+v.Encode(), nil, p.sec)
	if err != nil {
		return nil, nil, err
	}
	var r struct {
		Results []struct {
			URL     string `json:"url"`
			Title   string `json:"title"`
			Content string `json:"content"`
		} `json:"results"`
	}
	if err := decode(p.Name(), p.base+"/search", p.sec, body, &r); err != nil {
		return nil, body, err
	}
	rs := make([]Result, 0, len(r.Results))
	for _, x := range r.Results {
		rs = append(rs, Result{URL: x.URL, Title: x.Title, Snippet: x.Content})
	}
	return finish(rs, len(rs)), body, nil
}

// ---- Google Custom Search JSON API ----

type google struct {
	key, cx, endpoint string
	c                 *http.Client
	sec               httpx.Redactor // the key
}

// NewGoogle returns a provider for the Google Custom Search JSON API. key is
// the API key and cx the Programmable Search Engine id. endpoint defaults to
// GoogleEndpoint. The API returns at most 10 results per request.
func NewGoogle(key, cx string, c *http.Client, endpoint string) Provider {
	if endpoint == "" {
		endpoint = GoogleEndpoint
	}
	return &google{key: key, cx: cx, endpoint: endpoint, c: c, sec: httpx.NewRedactor(key)}
}

// GoogleFromEnv builds the Google provider from GOOGLE_API_KEY and
// GOOGLE_CSE_ID, failing with a message naming the missing variable.
func GoogleFromEnv() (Provider, error) {
	key := strings.TrimSpace(os.Getenv("GOOGLE_API_KEY"))
	cx := strings.TrimSpace(os.Getenv("GOOGLE_CSE_ID"))
	var missing []string
	if key == "" {
		missing = append(missing, "GOOGLE_API_KEY")
	}
	if cx == "" {
		missing = append(missing, "GOOGLE_CSE_ID")
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("google search: %s not set (API key from console.cloud.google.com, engine id from programmablesearchengine.google.com)", strings.Join(missing, " and "))
	}
	return NewGoogle(key, cx, nil, ""), nil
}

func (p *google) Name() string { return "google" }

func (p *google) Search(ctx context.Context, q string, n int) ([]Result, error) {
	rs, _, err := p.page(ctx, q, n, 0)
	return rs, err
}

// googleMaxResults is how deep the Custom Search API lets one page: start
// plus num may not pass 100.
const googleMaxResults = 100

func (p *google) page(ctx context.Context, q string, n, page int) ([]Result, []byte, error) {
	num := min(max(n, 1), 10)
	start := page*num + 1
	if start+num-1 > googleMaxResults {
		return nil, nil, nil
	}
	v := url.Values{"key": {p.key}, "cx": {p.cx}, "q": {q}, "num": {strconv.Itoa(num)}}
	if start > 1 {
		v.Set("start", strconv.Itoa(start))
	}
	// The key travels in the query, which no error shows; the Redactor
	// covers a body that echoes it.
	body, err := get(ctx, p.c, p.Name(), p.endpoint+"?"+v.Encode(), nil, p.sec)
	if err != nil {
		return nil, nil, err
	}
	var r struct {
		Items []struct {
			Link    string `json:"link"`
			Title   string `json:"title"`
			Snippet string `json:"snippet"`
		} `json:"items"`
	}
	if err := decode(p.Name(), p.endpoint, p.sec, body, &r); err != nil {
		return nil, body, err
	}
	rs := make([]Result, 0, len(r.Items))
	for _, x := range r.Items {
		rs = append(rs, Result{URL: x.Link, Title: x.Title, Snippet: x.Snippet})
	}
	return finish(rs, num), body, nil
}

// ---- Brave Search API ----

type brave struct {
	key, endpoint string
	c             *http.Client
	sec           httpx.Redactor // the key
}

// NewBrave returns a provider for the Brave Search API (web search), sending
// key in the X-Subscription-Token header. endpoint defaults to BraveEndpoint.
// Brave returns at most 20 results per request.
func NewBrave(key string, c *http.Client, endpoint string) Provider {
	if endpoint == "" {
		endpoint = BraveEndpoint
	}
	return &brave{key: key, endpoint: endpoint, c: c, sec: httpx.NewRedactor(key)}
}

// BraveFromEnv builds the Brave provider from BRAVE_API_KEY.
func BraveFromEnv() (Provider, error) {
	key := strings.TrimSpace(os.Getenv("BRAVE_API_KEY"))
	if key == "" {
		return nil, errors.New("brave search: BRAVE_API_KEY not set (subscription token from api-dashboard.search.brave.com)")
	}
	return NewBrave(key, nil, ""), nil
}

func (p *brave) Name() string { return "brave" }

func (p *brave) Search(ctx context.Context, q string, n int) ([]Result, error) {
	rs, _, err := p.page(ctx, q, n, 0)
	return rs, err
}

// braveMaxOffset is the last page the Brave API serves (offset counts
// pages of count results).
const braveMaxOffset = 9

func (p *brave) page(ctx context.Context, q string, n, page int) ([]Result, []byte, error) {
	count := min(max(n, 1), 20)
	if page > braveMaxOffset {
		return nil, nil, nil
	}
	v := url.Values{"q": {q}, "count": {strconv.Itoa(count)}}
	if page > 0 {
		v.Set("offset", strconv.Itoa(page))
	}
	body, err := get(ctx, p.c, p.Name(), p.endpoint+"?"+v.Encode(), http.Header{"X-Subscription-Token": {p.key}}, p.sec)
	if err != nil {
		return nil, nil, err
	}
	var r struct {
		Web struct {
			Results []struct {
				URL         string `json:"url"`
				Title       string `json:"title"`
				Description string `json:"description"`
			} `json:"results"`
		} `json:"web"`
	}
	if err := decode(p.Name(), p.endpoint, p.sec, body, &r); err != nil {
		return nil, body, err
	}
	rs := make([]Result, 0, len(r.Web.Results))
	for _, x := range r.Web.Results {
		rs = append(rs, Result{URL: x.URL, Title: x.Title, Snippet: x.Description})
	}
	return finish(rs, count), body, nil
}
