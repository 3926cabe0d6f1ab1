package rerank

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/paperlens/paperlens/internal/httpx"
	"github.com/paperlens/paperlens/retrieve"
)

// Protocols of rerank endpoints (APIOptions.Protocol, --rerank-protocol).
const (
	// TEI is Text Embeddings Inference's: POST <base>/rerank with
	// {"query", "texts", "truncate"}, answered by [{"index", "score"}].
	TEI = "tei"
	// Cohere is Cohere's, which Jina, vLLM, Infinity and most gateways
	// copy: POST <base>/rerank with {"model", "query", "documents",
	// "top_n"}, answered by {"results": [{"index", "relevance_score"}]}.
	// Its base URL is usually versioned: https://api.cohere.com/v2,
	// https://api.jina.ai/v1, http://localhost:8000/v1 (vLLM).
	Cohere = "cohere"
)

// Defaults for the zero APIOptions fields.
const (
	// DefaultBatchSize is TEI's default --max-client-batch-size: a larger
	// request is refused with 413 unless the server was started with more.
	DefaultBatchSize     = 32
	DefaultAPITimeout    = time.Minute
	DefaultMaxAttempts   = 6
	DefaultMinBackoff    = 500 * time.Millisecond
	DefaultMaxBackoff    = 30 * time.Second
	DefaultMaxRetryAfter = 2 * time.Minute
)

// APIOptions configure an API reranker. Only BaseURL is required.
type APIOptions struct {
	// BaseURL is the server's root, "/rerank" is appended: http://host:8080
	// for TEI, http://host:8000/v1 for vLLM, https://api.jina.ai/v1. A URL
	// that already ends in /rerank is used as it is.
	BaseURL string
	// Protocol is TEI or Cohere; empty picks Cohere when the base URL's
	// path ends in a version (/v1, /v2: Cohere, Jina, vLLM) and TEI
	// otherwise (TEI serves /rerank at its root). Infinity serves the
	// Cohere body at its root: say Cohere.
	Protocol string
	// Model is sent as "model" under the Cohere protocol (Cohere and Jina
	// require it; vLLM defaults to the model it serves); TEI serves one
	// model and is not told.
	Model string
	// APIKey is sent as "Authorization: Bearer <key>"; empty sends none,
	// as local servers expect. It never reaches an error or a log.
	APIKey string
	// BatchSize is the most passages per request (DefaultBatchSize).
	// Cross-encoders score each (query, passage) pair on its own, so
	// batches do not change the scores.
	BatchSize int
	// Timeout bounds each request (DefaultAPITimeout).
	Timeout time.Duration
	// MaxAttempts is the number of calls in all, the first included
	// (DefaultMaxAttempts). Retried: 408, 409, 425, 429 and 5xx,
	// timeouts, dropped connections, bodies that are not JSON.
	MaxAttempts int
	// MinBackoff, MaxBackoff and MaxRetryAfter shape the waits between
	// attempts, as in the embedding client (see internal/httpx).
	MinBackoff, MaxBackoff, MaxRetryAfter time.Duration
	// HTTPClient sends the requests; nil means a client of its own.
	HTTPClient *http.Client
}

// APIReranker scores passages through a rerank endpoint. It is safe for
// concurrent use.
type APIReranker struct {
	o        APIOptions
	endpoint string
	shown    string // endpoint without user info or query, for errors
	http     *http.Client
	sec      httpx.Redactor
}

var _ Reranker = (*APIReranker)(nil)

// NewAPI checks the options and returns a reranker. It makes no request.
func NewAPI(o APIOptions) (*APIReranker, error) {
	if strings.TrimSpace(o.BaseURL) == "" {
		return nil, errors.New("rerank api: a base URL is required: the rerank server's root, e.g. http://localhost:8080 (TEI) or http://localhost:8000/v1 (vLLM)")
	}
	u, err := url.Parse(o.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// The parse error would quote the URL, which may carry credentials.
		return nil, errors.New("rerank api: the base URL must be an absolute http(s) URL, e.g. http://localhost:8080")
	}
	path := strings.TrimRight(u.Path, "/")
	endpoint := strings.TrimRight(o.BaseURL, "/")
	if strings.HasSuffix(path, "/rerank") {
		path = strings.TrimSuffix(path, "/rerank")
	} else {
		endpoint += "/rerank"
	}
	switch o.Protocol {
	case "":
		o.Protocol = TEI
		if last := path[strings.LastIndex(path, "/")+1:]; len(last) >= 2 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
			o.Protocol = Cohere
		}
	case TEI, Cohere:
	default:
		return nil, fmt.Errorf("rerank api: protocol %q: use tei (Text Embeddings Inference) or cohere (Cohere, Jina, vLLM, Infinity)", o.Protocol)
	}
	if o.BatchSize <= 0 {
		o.BatchSize = DefaultBatchSize
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultAPITimeout
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = DefaultMaxAttempts
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = DefaultMinBackoff
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultMaxBackoff
	}
	if o.MaxRetryAfter <= 0 {
		o.MaxRetryAfter = DefaultMaxRetryAfter
	}
	r := &APIReranker{o: o, endpoint: endpoint, http: o.HTTPClient, sec: httpx.NewRedactor(o.APIKey)}
	r.shown = httpx.DisplayURL(endpoint)
	if r.http == nil {
		r.http = httpx.NewHTTPClient(8) // eval's default concurrency
	}
	return r, nil
}

// Name is "api".
func (r *APIReranker) Name() string { return API }

// Protocol is the protocol spoken, TEI or Cohere (resolved when
// APIOptions.Protocol was empty).
func (r *APIReranker) Protocol() string { return r.o.Protocol }

// Endpoint is the URL called, without user info or query.
func (r *APIReranker) Endpoint() string { return r.shown }

// Rerank scores every hit against query, BatchSize at a time, and returns
// them by descending score; equal scores keep their first-stage order.
func (r *APIReranker) Rerank(ctx context.Context, query string, hits []retrieve.Hit) ([]retrieve.Hit, error) {
	scores := make([]float64, len(hits))
	for lo := 0; lo < len(hits); lo += r.o.BatchSize {
		hi := min(lo+r.o.BatchSize, len(hits))
		texts := make([]string, hi-lo)
		for i, h := range hits[lo:hi] {
			texts[i] = h.Text
		}
		s, err := r.batch(ctx, query, texts)
		if err != nil {
			return nil, err
		}
		copy(scores[lo:], s)
	}
	order := make([]int, len(hits))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return 0
	})
	out := make([]retrieve.Hit, len(hits))
	for i, j := range order {
		out[i] = hits[j]
		out[i].Score = scores[j]
	}
	return out, nil
}

// Probe makes one small rerank request, tried twice at most, so that a
// dead endpoint, a wrong protocol or a refused key stops a run before its
// first question rather than failing every one after its retries.
func (r *APIReranker) Probe(ctx context.Context) error {
	_, err := r.batchTries(ctx, "rerank probe", []string{"a passage", "another passage"}, min(2, r.o.MaxAttempts))
	if err != nil {
		return fmt.Errorf("rerank endpoint %s (%s protocol): %w", r.shown, r.o.Protocol, err)
	}
	return nil
}

// batch scores one request's texts, with retries.
func (r *APIReranker) batch(ctx context.Context, query string, texts []string) ([]float64, error) {
	return r.batchTries(ctx, query, texts, r.o.MaxAttempts)
}

func (r *APIReranker) batchTries(ctx context.Context, query string, texts []string, attempts int) ([]float64, error) {
	var scores []float64
	out, err := httpx.Retry(ctx, httpx.Policy{
		MaxAttempts: attempts, MinBackoff: r.o.MinBackoff, MaxBackoff: r.o.MaxBackoff,
		Jitter: 0.5, MaxRetryAfter: r.o.MaxRetryAfter,
	}, func(ctx context.Context) error {
		var err error
		scores, err = r.request(ctx, query, texts)
		return err
	})
	switch {
	case err == nil:
		return scores, nil
	case out.Cancelled:
		return nil, context.Cause(ctx)
	case out.TooLong > 0:
		return nil, fmt.Errorf("%w; the server asks to retry after %v, more than %v", err, out.TooLong, r.o.MaxRetryAfter)
	case out.Attempts > 1:
		return nil, fmt.Errorf("after %d attempts: %w", out.Attempts, err)
	}
	return nil, err
}

type teiRequest struct {
	Query string   `json:"query"`
	Texts []string `json:"texts"`
	// Truncate lets TEI cut a pair longer than the model's window (512
	// tokens for most cross-encoders) instead of refusing the request:
	// passages are up to 512 tokens before the query is added.
	Truncate bool `json:"truncate"`
}

type teiRank struct {
	Index *int     `json:"index"`
	Score *float64 `json:"score"`
}

type cohereRequest struct {
	Model     string   `json:"model,omitempty"`
	Query     string   `json:"query"`
	Documents []string `json:"documents"`
	TopN      int      `json:"top_n"`
}

type cohereResponse struct {
	Results []struct {
		Index          *int     `json:"index"`
		RelevanceScore *float64 `json:"relevance_score"`
	} `json:"results"`
}

// request makes one call. Its errors are the httpx family, whose Retryable
// decides what is tried again; an answer that parses but does not fit the
// request is permanent, since the same server will answer it the same way.
func (r *APIReranker) request(ctx context.Context, query string, texts []string) ([]float64, error) {
	var body []byte
	var err error
	if r.o.Protocol == TEI {
		body, err = json.Marshal(teiRequest{Query: query, Texts: texts, Truncate: true})
	} else {
		body, err = json.Marshal(cohereRequest{Model: r.o.Model, Query: query, Documents: texts, TopN: len(texts)})
	}
	if err != nil {
		return nil, httpx.Permanent(fmt.Errorf("encode request: %w", err))
	}
	var h http.Header
	if r.o.APIKey != "" {
		h = http.Header{"Authorization": {"Bearer " + r.o.APIKey}}
	}
	rep, err := httpx.Do(ctx, r.http, httpx.Call{URL: r.endpoint, Shown: r.shown, Header: h, Body: body,
		UserAgent: "paperlens-rerank/1", Secrets: r.sec, Timeout: r.o.Timeout, MaxBody: 16 << 20})
	if err != nil {
		var he *httpx.HTTPError
		if errors.As(err, &he) {
			he.Body = r.sec.ErrorMessage(rep.Body, 0)
			he.Hint = r.hint(he.StatusCode)
		}
		return nil, err
	}
	idx, scores, err := r.decode(rep.Body)
	if err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) || errors.Is(err, errTruncated) {
			// Cut short by a proxy or an overloaded server: worth another try.
			return nil, &httpx.MalformedError{URL: r.shown, Reason: err.Error(), Excerpt: r.sec.Excerpt(rep.Body, 0)}
		}
		return nil, httpx.Permanent(fmt.Errorf("answer from %s does not fit the %s protocol: %v: %s", r.shown, r.o.Protocol, err, r.sec.Excerpt(rep.Body, 0)))
	}
	out := make([]float64, len(texts))
	got := make([]bool, len(texts))
	for i, at := range idx {
		if at < 0 || at >= len(texts) || got[at] {
			return nil, httpx.Permanent(fmt.Errorf("answer from %s has index %d, out of range or repeated, for %d passages", r.shown, at, len(texts)))
		}
		if math.IsNaN(scores[i]) || math.IsInf(scores[i], 0) {
			return nil, httpx.Permanent(fmt.Errorf("answer from %s scores passage %d %v", r.shown, at, scores[i]))
		}
		out[at], got[at] = scores[i], true
	}
	if n := len(idx); n != len(texts) {
		return nil, httpx.Permanent(fmt.Errorf("answer from %s scores %d of %d passages (a server that caps top_n?)", r.shown, n, len(texts)))
	}
	return out, nil
}

var errTruncated = errors.New("unexpected end of JSON input")

func (r *APIReranker) decode(raw []byte) ([]int, []float64, error) {
	var idx []int
	var scores []float64
	if r.o.Protocol == TEI {
		var ranks []teiRank
		if err := json.Unmarshal(raw, &ranks); err != nil {
			return nil, nil, jsonErr(err)
		}
		for i, x := range ranks {
			if x.Index == nil || x.Score == nil {
				return nil, nil, fmt.Errorf("item %d lacks index or score", i)
			}
			idx, scores = append(idx, *x.Index), append(scores, *x.Score)
		}
		return idx, scores, nil
	}
	var resp cohereResponse
	if err := json.Unmarshal(raw, &resp); err != nil {
		return nil, nil, jsonErr(err)
	}
	if resp.Results == nil {
		return nil, nil, errors.New(`no "results"`)
	}
	for i, x := range resp.Results {
		if x.Index == nil || x.RelevanceScore == nil {
			return nil, nil, fmt.Errorf("results[%d] lacks index or relevance_score", i)
		}
		idx, scores = append(idx, *x.Index), append(scores, *x.RelevanceScore)
	}
	return idx, scores, nil
}

// jsonErr marks a body cut short as such; encoding/json reports it as a
// plain error.
func jsonErr(err error) error {
	if err.Error() == errTruncated.Error() {
		return errTruncated
	}
	return err
}

// hint says what to do about a status a retry cannot fix.
func (r *APIReranker) hint(status int) string {
	other := "a TEI server wants protocol tei"
	if r.o.Protocol == TEI {
		other = "vLLM, Jina, Cohere and Infinity want protocol cohere (the default for a base URL ending in /v1)"
	}
	switch status {
	case http.StatusNotFound, http.StatusMethodNotAllowed:
		return "is the base URL the server's root? TEI serves /rerank at http://host:port, vLLM, Jina and Cohere under /v1; or the server has no rerank model loaded"
	case http.StatusUnauthorized, http.StatusForbidden:
		return "check the API key (local servers need none; Cohere and Jina do)"
	case http.StatusRequestEntityTooLarge:
		return "too many or too long passages for the server: lower the batch size or start TEI with a larger --max-client-batch-size"
	case http.StatusBadRequest, http.StatusUnprocessableEntity:
		if r.o.Protocol == Cohere && r.o.Model == "" {
			return "the server may need a model name; " + other
		}
		return "the server refused the request body: " + other
	}
	return ""
}
