package openai

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/paperlens/paperlens/internal/httpx"
	"github.com/paperlens/paperlens/retrieve/embed"
	"golang.org/x/sync/errgroup"
)

// Defaults for the zero Options fields.
const (
	DefaultBaseURL       = "https://api.openai.com/v1"
	DefaultBatchSize     = 64
	DefaultConcurrency   = 4
	DefaultMaxRetries    = 5
	DefaultTimeout       = 2 * time.Minute
	DefaultMinBackoff    = 500 * time.Millisecond
	DefaultMaxBackoff    = 30 * time.Second
	DefaultMaxRetryAfter = 2 * time.Minute
)

// Options configure a Client. Only Model is required.
type Options struct {
	// BaseURL is the API root that "/embeddings" is appended to, e.g.
	// "http://localhost:8080/v1" for TEI or vLLM, "http://localhost:11434/v1"
	// for Ollama. Empty means DefaultBaseURL.
	BaseURL string
	// APIKey is sent as "Authorization: Bearer <key>"; empty sends no
	// header, as local servers expect. The caller reads it from the
	// environment; the client never logs it nor puts it in an error.
	APIKey string
	// Model is the served model name, e.g. "BAAI/bge-m3".
	Model string
	// Dim is the expected vector length; 0 learns it from the first
	// response. Either way every response must agree with it.
	Dim int
	// RequestDimensions sends Dim as the "dimensions" parameter, for models
	// that can shorten their vectors (OpenAI text-embedding-3, Matryoshka
	// models under vLLM). Servers that do not support it reject the request.
	RequestDimensions bool
	// BatchSize is the number of texts per request (DefaultBatchSize).
	BatchSize int
	// Concurrency is the number of requests in flight (DefaultConcurrency).
	Concurrency int
	// MaxRetries is the number of retries after a failed first try
	// (DefaultMaxRetries); negative means none. It is httpx.Policy's
	// MaxAttempts less one (internal/httpx compares the three clients'
	// retry knobs). Retried: HTTP 408, 409, 425,
	// 429 and 5xx, timeouts, connection errors and malformed bodies.
	MaxRetries int
	// QueryPrefix and PassagePrefix are prepended to texts of that Kind,
	// e.g. "query: " and "passage: " for E5, or an instruction for BGE
	// English models. bge-m3, the ElaipBench retriever, uses none.
	QueryPrefix, PassagePrefix string
	// Timeout bounds each request (DefaultTimeout).
	Timeout time.Duration
	// MinBackoff and MaxBackoff bound the exponential backoff between tries
	// (DefaultMinBackoff, DefaultMaxBackoff).
	MinBackoff, MaxBackoff time.Duration
	// MaxRetryAfter is the longest Retry-After the client waits out
	// (DefaultMaxRetryAfter); a server asking for longer fails the batch at
	// once rather than stalling the run.
	MaxRetryAfter time.Duration
	// OnRetry, when set, is called before each wait between tries of a
	// batch, with the number of the try that failed (from 1), the wait and
	// the error, e.g. to log it (as model.RetryOptions.OnRetry). Workers
	// call it concurrently.
	OnRetry func(attempt int, wait time.Duration, err error)
	// HTTPClient sends the requests; nil means a client of its own.
	HTTPClient *http.Client
}

// Client embeds texts through an OpenAI-compatible /v1/embeddings endpoint.
// It is safe for concurrent use.
type Client struct {
	o        Options
	endpoint string
	shown    string // endpoint without user info or query, for errors
	name     string
	http     *http.Client
	sec      httpx.Redactor // removes the API key
	dim      atomic.Int64   // learned or configured; 0 = unknown yet
}

var (
	_ embed.Embedder = (*Client)(nil)
	_ embed.Streamer = (*Client)(nil)
)

// New checks the options and returns a client. It makes no request; use
// Probe to learn the dimension or check the endpoint up front.
func New(o Options) (*Client, error) {
	if strings.TrimSpace(o.Model) == "" {
		return nil, errors.New("openai embedder: Model is required")
	}
	if o.BaseURL == "" {
		o.BaseURL = DefaultBaseURL
	}
	u, err := url.Parse(o.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// The parse error would quote the URL, which may carry credentials.
		return nil, errors.New("openai embedder: BaseURL must be an absolute http(s) URL")
	}
	if o.Dim < 0 || (o.RequestDimensions && o.Dim == 0) {
		return nil, errors.New("openai embedder: Dim must be positive when RequestDimensions is set, and never negative")
	}
	if o.BatchSize <= 0 {
		o.BatchSize = DefaultBatchSize
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	switch {
	case o.MaxRetries == 0:
		o.MaxRetries = DefaultMaxRetries
	case o.MaxRetries < 0:
		o.MaxRetries = 0
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = DefaultMinBackoff
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultMaxBackoff
	}
	o.MaxBackoff = max(o.MaxBackoff, o.MinBackoff)
	if o.MaxRetryAfter <= 0 {
		o.MaxRetryAfter = DefaultMaxRetryAfter
	}
	c := &Client{o: o, endpoint: strings.TrimRight(o.BaseURL, "/") + "/embeddings", http: o.HTTPClient,
		sec: httpx.NewRedactor(o.APIKey)}
	c.shown = httpx.DisplayURL(c.endpoint)
	if c.http == nil {
		c.http = httpx.NewHTTPClient(o.Concurrency) // one warm connection per worker
	}
	c.dim.Store(int64(o.Dim))
	c.name = "openai:" + o.Model
	if o.RequestDimensions {
		c.name += fmt.Sprintf("@%d", o.Dim)
	}
	if o.QueryPrefix != "" || o.PassagePrefix != "" {
		// Prefixes change the vectors, so they are part of the space's
		// identity; a hash keeps the name short and printable.
		h := sha256.Sum256([]byte(o.QueryPrefix + "\x00" + o.PassagePrefix))
		c.name += "#prefix-" + hex.EncodeToString(h[:4])
	}
	return c, nil
}

// Name is "openai:<model>", plus "@<dim>" when the dimension is requested
// and "#prefix-<hash>" when prefixes are set. "openai" names the protocol:
// the vectors are the served model's, whichever server runs it. The base
// URL is not part of the name, so the same model behind another server (or
// quantised differently) is taken to be the same space.
func (c *Client) Name() string { return c.name }

// Dim is the vector length: Options.Dim, or what the first response
// carried, or 0 before any response when Options.Dim is 0.
func (c *Client) Dim() int { return int(c.dim.Load()) }

// Probe embeds one short text, so that Dim is known and the endpoint, model
// and key are checked before a long run.
func (c *Client) Probe(ctx context.Context) (int, error) {
	if _, err := c.Embed(ctx, []string{"dimension probe"}, embed.Query); err != nil {
		return 0, err
	}
	return c.Dim(), nil
}

// Embed embeds texts in batches of BatchSize, Concurrency at a time, and
// returns the vectors L2-normalised, in input order. Texts that are empty or
// only whitespace are not sent (servers reject empty input) and get the zero
// vector. On error the result holds the batches that succeeded (see
// embed.Embedder).
func (c *Client) Embed(ctx context.Context, texts []string, kind embed.Kind) ([][]float32, error) {
	out := make([][]float32, len(texts))
	err := c.EmbedStream(ctx, texts, kind, func(start int, vecs [][]float32) error {
		copy(out[start:], vecs)
		return nil
	})
	return out, err
}

// EmbedStream is Embed delivering each batch as it completes; see
// embed.Streamer. When a batch fails for good, batches still in flight are
// cancelled, those already done are still emitted, and the error names the
// failed batch.
func (c *Client) EmbedStream(ctx context.Context, texts []string, kind embed.Kind, emit func(start int, vecs [][]float32) error) error {
	if len(texts) == 0 {
		return nil
	}
	prefix := c.o.QueryPrefix
	if kind == embed.Passage {
		prefix = c.o.PassagePrefix
	}
	nb := (len(texts) + c.o.BatchSize - 1) / c.o.BatchSize

	// The group's first error cancels gctx; batches that merely see that
	// cancellation return later and are not news. Finished batches are
	// handed over even after another batch failed: that work is done and
	// the cache should keep it. emitErr (the caller could not take more)
	// stops emitting and wins over a failed batch.
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(c.o.Concurrency)
	var (
		mu      sync.Mutex // emit is never called twice at once
		emitErr error
	)
	for b := range nb {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if gctx.Err() != nil {
				// Do not send: a request started now would reach the
				// server only to be abandoned.
				return nil
			}
			lo, hi := b*c.o.BatchSize, min((b+1)*c.o.BatchSize, len(texts))
			vecs, err := c.batch(gctx, texts[lo:hi], prefix, b, lo)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			if emitErr == nil {
				emitErr = emit(lo, vecs)
				return emitErr
			}
			return nil
		})
	}
	err := g.Wait()
	switch {
	case emitErr != nil:
		return emitErr
	case err != nil && !(ctx.Err() != nil && errors.Is(err, context.Canceled)):
		return fmt.Errorf("%s: %w", c.name, err)
	case ctx.Err() != nil:
		// The caller's context ended before every batch ran.
		return fmt.Errorf("%s: %w", c.name, context.Cause(ctx))
	}
	return nil
}

// BatchError reports a batch that failed for good.
type BatchError struct {
	Batch       int // 1-based
	First, Last int // 0-based indices of the batch's first and last text
	Tries       int
	Err         error
}

func (e *BatchError) Error() string {
	return fmt.Sprintf("embedding batch %d (texts %d–%d) failed after %d %s: %v",
		e.Batch, e.First, e.Last, e.Tries, plural(e.Tries, "try", "tries"), e.Err)
}

func (e *BatchError) Unwrap() error { return e.Err }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// HTTPError is a non-2xx answer: the shared transport's error (see
// internal/httpx), so retries and callers classify it like the chat
// client's. Body is a short excerpt of what the server said, with the API
// key removed should the server echo it; Hint says what to check for a
// status retrying cannot fix.
type HTTPError = httpx.HTTPError

// worded is an *HTTPError in this package's wording, "HTTP 429 Too Many
// Requests: <body> (<hint>)", which its errors have always used; it
// unwraps to the error itself, whose Retryable it shares.
type worded struct{ *httpx.HTTPError }

func (e worded) Error() string {
	s := fmt.Sprintf("HTTP %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	if e.Body != "" {
		s += ": " + e.Body
	}
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

func (e worded) Unwrap() error { return e.HTTPError }

// batch embeds one batch with retries. texts are the batch's raw texts,
// offset their position in the request.
func (c *Client) batch(ctx context.Context, texts []string, prefix string, b, offset int) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var send []string
	var at []int
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			continue
		}
		send = append(send, prefix+t)
		at = append(at, i)
	}
	if len(send) == 0 {
		// Only blank texts: zero vectors need the dimension, which a probe
		// of the server learns if nothing else has.
		if c.Dim() == 0 {
			if _, err := c.Probe(ctx); err != nil {
				return nil, err
			}
		}
	} else {
		vecs, err := c.withRetries(ctx, send, b, offset, len(texts))
		if err != nil {
			return nil, err
		}
		for j, i := range at {
			out[i] = vecs[j]
		}
	}
	for i := range out {
		if out[i] == nil {
			out[i] = make([]float32, c.Dim())
		}
	}
	return out, nil
}

func (c *Client) withRetries(ctx context.Context, send []string, b, offset, n int) ([][]float32, error) {
	var vecs [][]float32
	out, err := httpx.Retry(ctx, httpx.Policy{
		MaxAttempts: c.o.MaxRetries + 1, MinBackoff: c.o.MinBackoff, MaxBackoff: c.o.MaxBackoff,
		// Jitter over the upper half: workers that failed together do not
		// retry together, and none comes back much before its backoff.
		Jitter:        0.5,
		MaxRetryAfter: c.o.MaxRetryAfter,
		OnRetry:       c.o.OnRetry,
	}, func(ctx context.Context) error {
		var err error
		vecs, err = c.request(ctx, send)
		return err
	})
	switch {
	case err == nil:
		return vecs, nil
	case out.Cancelled:
		return nil, context.Cause(ctx)
	case out.TooLong > 0:
		err = fmt.Errorf("%w; server asks to retry after %v, more than MaxRetryAfter %v", err, out.TooLong, c.o.MaxRetryAfter)
	}
	return nil, &BatchError{Batch: b + 1, First: offset, Last: offset + n - 1, Tries: out.Attempts, Err: err}
}

type request struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	EncodingFormat string   `json:"encoding_format"`
	Dimensions     int      `json:"dimensions,omitempty"`
}

type response struct {
	Data []struct {
		Index     *int            `json:"index"`
		Embedding json.RawMessage `json:"embedding"`
	} `json:"data"`
}

// maxBody bounds how much of a response is read: 64 texts × 4096 floats
// as JSON is about 6 MB.
const maxBody = 256 << 20

// request makes one try. Its errors are the shared transport's family
// (internal/httpx), whose Retryable methods decide what is tried again;
// errors retrying cannot fix are marked httpx.Permanent.
func (c *Client) request(ctx context.Context, send []string) ([][]float32, error) {
	r := request{
		Model: c.o.Model, Input: send,
		// float, not the SDK default base64: not every server implements
		// base64, and those that do also accept float.
		EncodingFormat: "float",
	}
	if c.o.RequestDimensions {
		r.Dimensions = c.o.Dim
	}
	body, err := json.Marshal(r)
	if err != nil {
		return nil, httpx.Permanent(fmt.Errorf("encode request: %w", err))
	}
	var h http.Header
	if c.o.APIKey != "" {
		h = http.Header{"Authorization": {"Bearer " + c.o.APIKey}}
	}
	rep, err := httpx.Do(ctx, c.http, httpx.Call{URL: c.endpoint, Shown: c.shown, Header: h, Body: body,
		Secrets: c.sec, Timeout: c.o.Timeout, MaxBody: maxBody})
	if err != nil {
		var he *HTTPError
		if errors.As(err, &he) {
			switch he.StatusCode {
			case http.StatusNotFound:
				he.Hint = "is BaseURL the API root, e.g. ending in /v1?"
			case http.StatusUnauthorized, http.StatusForbidden:
				he.Hint = "check the API key"
			case http.StatusRequestEntityTooLarge:
				he.Hint = "lower BatchSize"
			case http.StatusTooManyRequests:
				if he.Quota() {
					he.Hint = "the account's quota is exhausted; waiting will not help"
				}
			}
			return nil, worded{he}
		}
		return nil, err
	}
	vecs, err := c.parse(rep.Body, len(send))
	if err != nil {
		var r interface{ Retryable() bool }
		if errors.As(err, &r) && !r.Retryable() {
			return nil, err
		}
		// A proxy cut the body short, a server hiccup: worth another try.
		return nil, &httpx.MalformedError{URL: c.shown, Reason: c.sec.Redact(err.Error()), Excerpt: c.sec.Excerpt(rep.Body, 0)}
	}
	return vecs, nil
}

// parse decodes and checks a 2xx body. Malformed bodies are retried (a proxy
// cut the body short, a server hiccup); a dimension that contradicts
// earlier responses is permanent, since retrying will not change the model.
func (c *Client) parse(raw []byte, n int) ([][]float32, error) {
	var r response
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	if len(r.Data) != n {
		return nil, fmt.Errorf("%d embeddings for %d inputs", len(r.Data), n)
	}
	out := make([][]float32, n)
	// Order by "index" where the server sets it: the spec does not promise
	// data in input order. A server that leaves it out (or at 0
	// throughout) is taken at its order.
	positional := true
	for _, d := range r.Data {
		if d.Index != nil && *d.Index != 0 {
			positional = false
		}
	}
	for i, d := range r.Data {
		at := i
		if !positional {
			if d.Index == nil || *d.Index < 0 || *d.Index >= n || out[*d.Index] != nil {
				return nil, fmt.Errorf("bad or repeated index in data[%d]", i)
			}
			at = *d.Index
		}
		v, err := decodeVector(d.Embedding)
		if err != nil {
			return nil, fmt.Errorf("data[%d]: %w", i, err)
		}
		if len(v) == 0 {
			return nil, fmt.Errorf("data[%d]: empty embedding", i)
		}
		if err := c.checkDim(len(v)); err != nil {
			return nil, err
		}
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, fmt.Errorf("data[%d]: non-finite value", i)
			}
		}
		// A zero vector stays zero: it is similar to nothing.
		embed.Normalize(v)
		out[at] = v
	}
	return out, nil
}

func (c *Client) checkDim(d int) error {
	if c.dim.CompareAndSwap(0, int64(d)) {
		return nil
	}
	if want := int(c.dim.Load()); want != d {
		src := "earlier responses"
		if c.o.Dim != 0 {
			src = "Options.Dim"
		}
		return httpx.Permanent(fmt.Errorf("server returned %d-dimensional vectors, %s say %d: is the endpoint serving another model?", d, src, want))
	}
	return nil
}

// decodeVector accepts a JSON array of numbers or, from servers that ignore
// encoding_format, base64 of little-endian float32s.
func decodeVector(raw json.RawMessage) ([]float32, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil || len(b)%4 != 0 {
			return nil, errors.New("embedding is a string but not base64 float32s")
		}
		v := make([]float32, len(b)/4)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
		return v, nil
	}
	var f []float64
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, err
	}
	v := make([]float32, len(f))
	for i, x := range f {
		v[i] = float32(x)
	}
	return v, nil
}
