package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
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

// rawSearcher is implemented by the providers of this package: it also
// returns the response body so that the cache can keep it verbatim.
type rawSearcher interface {
	searchRaw(ctx context.Context, query string, n int) ([]Result, []byte, error)
}

// StatusError is a non-2xx answer from a search provider. Searcher retries
// it when Retryable reports true (429 and 5xx).
type StatusError struct {
	Provider   string
	Code       int
	Message    string        // short excerpt of the body, never the request URL
	RetryAfter time.Duration // from the Retry-After header, 0 when absent
}

func (e *StatusError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("%s search: http %d", e.Provider, e.Code)
	}
	return fmt.Sprintf("%s search: http %d: %s", e.Provider, e.Code, e.Message)
}

// Retryable reports whether the request may succeed when repeated.
func (e *StatusError) Retryable() bool {
	return e.Code == http.StatusTooManyRequests || e.Code >= 500
}

// maxSearchBody bounds a provider response.
const maxSearchBody = 8 << 20

// Default endpoints.
const (
	GoogleEndpoint = "https://www.googleapis.com/customsearch/v1"
	BraveEndpoint  = "https://api.search.brave.com/res/v1/web/search"
)

// getJSON performs req and returns the body of a 2xx answer. Transport
// errors are stripped of the request URL, which may carry an API key.
func getJSON(c *http.Client, req *http.Request, name string) ([]byte, error) {
	if c == nil {
		c = &http.Client{Timeout: 30 * time.Second}
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", userAgent)
	resp, err := c.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("%s search: %w", name, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxSearchBody+1))
	if err != nil {
		return nil, fmt.Errorf("%s search: reading response: %w", name, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		se := &StatusError{Provider: name, Code: resp.StatusCode, Message: excerpt(body)}
		if s := resp.Header.Get("Retry-After"); s != "" {
			if secs, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && secs >= 0 {
				se.RetryAfter = time.Duration(secs) * time.Second
			}
		}
		return nil, se
	}
	if len(body) > maxSearchBody {
		return nil, fmt.Errorf("%s search: response larger than %d bytes", name, maxSearchBody)
	}
	return body, nil
}

// excerpt returns the error message of a JSON error body ({"error":
// {"message": ...}} or {"message": ...}) or the first 200 bytes of the body.
func excerpt(body []byte) string {
	var e struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &e) == nil {
		var inner struct {
			Message string `json:"message"`
			Detail  string `json:"detail"`
		}
		if json.Unmarshal(e.Error, &inner) == nil && inner.Message+inner.Detail != "" {
			return oneLine(inner.Message + " " + inner.Detail)
		}
		if e.Message != "" {
			return oneLine(e.Message)
		}
	}
	s := oneLine(string(body))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

var tagRE = regexp.MustCompile(`<[^>]*>`)

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

func decode(name string, body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%s search: bad JSON response: %w", name, err)
	}
	return nil
}

// ---- SearXNG ----

type searxng struct {
	base string
	c    *http.Client
}

// NewSearXNG returns a provider querying a SearXNG instance at baseURL
// (GET {baseURL}/search?q=...&format=json; the instance must have the json
// format enabled in its settings.yml).
func NewSearXNG(baseURL string, c *http.Client) Provider {
	return &searxng{base: strings.TrimRight(baseURL, "/"), c: c}
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
	rs, _, err := p.searchRaw(ctx, q, n)
	return rs, err
}

func (p *searxng) searchRaw(ctx context.Context, q string, n int) ([]Result, []byte, error) {
	v := url.Values{"q": {q}, "format": {"json"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.base+"/search?"+v.Encode(), nil)
	if err != nil {
		return nil, nil, fmt.Errorf("searxng search: %w", err)
	}
	body, err := getJSON(p.c, req, p.Name())
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
	if err := decode(p.Name(), body, &r); err != nil {
		return nil, body, err
	}
	rs := make([]Result, 0, len(r.Results))
	for _, x := range r.Results {
		rs = append(rs, Result{URL: x.URL, Title: x.Title, Snippet: x.Content})
	}
	return finish(rs, n), body, nil
}

// ---- Google Custom Search JSON API ----

type google struct {
	key, cx, endpoint string
	c                 *http.Client
}

// NewGoogle returns a provider for the Google Custom Search JSON API. key is
// the API key and cx the Programmable Search Engine id. endpoint defaults to
// GoogleEndpoint. The API returns at most 10 results per request.
func NewGoogle(key, cx string, c *http.Client, endpoint string) Provider {
	if endpoint == "" {
		endpoint = GoogleEndpoint
	}
	return &google{key: key, cx: cx, endpoint: endpoint, c: c}
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
	rs, _, err := p.searchRaw(ctx, q, n)
	return rs, err
}

func (p *google) searchRaw(ctx context.Context, q string, n int) ([]Result, []byte, error) {
	v := url.Values{"key": {p.key}, "cx": {p.cx}, "q": {q}, "num": {strconv.Itoa(min(max(n, 1), 10))}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.endpoint+"?"+v.Encode(), nil)
	if err != nil {
		return nil, nil, fmt.Errorf("google search: bad endpoint")
	}
	body, err := getJSON(p.c, req, p.Name())
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
	if err := decode(p.Name(), body, &r); err != nil {
		return nil, body, err
	}
	rs := make([]Result, 0, len(r.Items))
	for _, x := range r.Items {
		rs = append(rs, Result{URL: x.Link, Title: x.Title, Snippet: x.Snippet})
	}
	return finish(rs, n), body, nil
}

// ---- Brave Search API ----

type brave struct {
	key, endpoint string
	c             *http.Client
}

// NewBrave returns a provider for the Brave Search API (web search), sending
// key in the X-Subscription-Token header. endpoint defaults to BraveEndpoint.
// Brave returns at most 20 results per request.
func NewBrave(key string, c *http.Client, endpoint string) Provider {
	if endpoint == "" {
		endpoint = BraveEndpoint
	}
	return &brave{key: key, endpoint: endpoint, c: c}
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
	rs, _, err := p.searchRaw(ctx, q, n)
	return rs, err
}

func (p *brave) searchRaw(ctx context.Context, q string, n int) ([]Result, []byte, error) {
	v := url.Values{"q": {q}, "count": {strconv.Itoa(min(max(n, 1), 20))}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.endpoint+"?"+v.Encode(), nil)
	if err != nil {
		return nil, nil, fmt.Errorf("brave search: bad endpoint")
	}
	req.Header.Set("X-Subscription-Token", p.key)
	body, err := getJSON(p.c, req, p.Name())
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
	if err := decode(p.Name(), body, &r); err != nil {
		return nil, body, err
	}
	rs := make([]Result, 0, len(r.Web.Results))
	for _, x := range r.Web.Results {
		rs = append(rs, Result{URL: x.URL, Title: x.Title, Snippet: x.Description})
	}
	return finish(rs, n), body, nil
}
