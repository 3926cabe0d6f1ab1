package model

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/paperlens/paperlens/internal/boltopen"
)

// Cache file layout: bucket "responses" maps the 32-byte CacheKey to the
// JSON of a cacheEntry; bucket "meta" holds the schema version.
var (
	bucketResponses = []byte("responses")
	bucketMeta      = []byte("meta")
)

// cacheSchema is bumped when the key or the entry changes incompatibly.
const cacheSchema = 1

// Cached is a Chat that answers from an on-disk cache what it has been
// asked before and passes the rest to the Chat it wraps. See WithCache.
type Cached struct {
	next     Chat
	db       *bolt.DB
	path     string
	endpoint string

	mu      sync.Mutex
	flights map[[32]byte]chan struct{} // misses being fetched now

	wmu     sync.Mutex
	pending []*pendingPut // answers waiting for the next commit
	writing bool          // a committer goroutine is running

	hits, misses, stored atomic.Int64
}

var _ Chat = (*Cached)(nil)

// CacheStats counts calls since WithCache: Hits were answered from the
// file, Misses went to the wrapped Chat, Stored of them were written.
type CacheStats struct{ Hits, Misses, Stored int64 }

// cacheEntry is what is stored per key: the response and, for people
// inspecting the file, where it came from. It never holds the prompt (papers
// would make the file huge) nor the API key.
type cacheEntry struct {
	Content      string     `json:"content"`
	Reasoning    string     `json:"reasoning,omitempty"`
	Usage        Usage      `json:"usage"`
	FinishReason string     `json:"finish_reason"`
	ToolCalls    []ToolCall `json:"tool_calls,omitempty"`
	// Cut is Response.Cut: a resumed run still reports the reply as cut.
	// Left out when false, so entries written before it read the same.
	Cut       bool      `json:"cut,omitempty"`
	Endpoint  string    `json:"endpoint"`
	Model     string    `json:"model"`
	Run       int       `json:"run"`
	LatencyMS int64     `json:"latency_ms"`
	Attempts  int       `json:"attempts"`
	StoredAt  time.Time `json:"stored_at"`
}

// WithCache opens (creating when needed) the bbolt file at path as a
// response cache in front of c. endpoint is the API root c talks to (e.g.
// OpenAI.BaseURL()); it is part of the key, so the same model name on two
// servers (a local vLLM and the vendor's API) never share answers.
//
// A hit returns the stored response with Cached true, Latency 0 and
// Attempts 0, without calling c. Only successful responses are stored, and
// each is committed (fsynced) before Complete returns, so a run killed right
// after a paid call finds it on restart. Identical requests in flight at once
// make one call; the others wait for it and are then served from the file.
//
// The file is locked while open: a second process gets an error after two
// seconds (boltopen.Timeout) instead of hanging. Close releases it.
func WithCache(c Chat, path, endpoint string) (*Cached, error) {
	if endpoint == "" {
		return nil, errors.New("model: WithCache needs the endpoint (the API base URL) for its keys")
	}
	// Private: the file holds paid replies, which may quote private papers.
	db, err := boltopen.Open(path, boltopen.Options{What: "model cache", Private: true})
	if err != nil {
		return nil, err
	}
	err = db.Update(func(tx *bolt.Tx) error {
		if _, err := tx.CreateBucketIfNotExists(bucketResponses); err != nil {
			return err
		}
		meta, err := tx.CreateBucketIfNotExists(bucketMeta)
		if err != nil {
			return err
		}
		if v := meta.Get([]byte("schema")); v != nil && (len(v) != 4 || binary.BigEndian.Uint32(v) != cacheSchema) {
			return fmt.Errorf("written by an incompatible paperlens (schema %x): move it aside to start afresh", v)
		}
		return meta.Put([]byte("schema"), binary.BigEndian.AppendUint32(nil, cacheSchema))
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("model cache %s: %w", path, err)
	}
	return &Cached{next: c, db: db, path: path, endpoint: NormalizeEndpoint(endpoint),
		flights: map[[32]byte]chan struct{}{}}, nil
}

// Close releases the file. Calls after Close fail.
func (c *Cached) Close() error { return c.db.Close() }

// Stats returns the counts so far.
func (c *Cached) Stats() CacheStats {
	return CacheStats{Hits: c.hits.Load(), Misses: c.misses.Load(), Stored: c.stored.Load()}
}

// Path is the cache file.
func (c *Cached) Path() string { return c.path }

// CacheKey is the SHA-256 of the canonical JSON of what determines an
// answer: the endpoint (normalised, see NormalizeEndpoint), model,
// messages, temperature, top_p, max_tokens and the name it is sent under,
// reasoning_effort, seed, the extra body, the names of extra headers, the
// run index and the scope (the evaluation mode, when set). The API key and header values are not part of it: a
// rotated key still finds its answers.
func CacheKey(endpoint string, req Request) [32]byte {
	// A fixed struct marshals with a fixed field order, and encoding/json
	// prints floats in their shortest round-trip form: the same request
	// always gives the same bytes.
	type keyDoc struct {
		V           int       `json:"v"`
		Endpoint    string    `json:"endpoint"`
		Model       string    `json:"model"`
		Messages    []Message `json:"messages"`
		Temperature *float64  `json:"temperature"`
		TopP        *float64  `json:"top_p"`
		MaxTokens   int       `json:"max_tokens"`
		Seed        *int64    `json:"seed"`
		Run         int       `json:"run"`
		// Added later, and left out when unset, so that keys of earlier
		// caches stay valid.
		MaxTokensParam  string          `json:"max_tokens_param,omitempty"`
		ReasoningEffort string          `json:"reasoning_effort,omitempty"`
		ExtraBody       json.RawMessage `json:"extra_body,omitempty"`
		HeaderNames     []string        `json:"header_names,omitempty"`
		Tools           []ToolSpec      `json:"tools,omitempty"`
		ToolChoice      string          `json:"tool_choice,omitempty"`
		Scope           string          `json:"scope,omitempty"`
	}
	norm := func(p *float64) *float64 {
		if p != nil && *p == 0 {
			z := 0.0 // -0 and 0 ask for the same thing
			return &z
		}
		return p
	}
	msgs := req.Messages
	if msgs == nil {
		msgs = []Message{}
	}
	b, err := json.Marshal(keyDoc{V: cacheSchema, Endpoint: NormalizeEndpoint(endpoint), Model: req.Model, Messages: msgs,
		Temperature: norm(req.Temperature), TopP: norm(req.TopP), MaxTokens: max(req.MaxTokens, 0), Seed: req.Seed, Run: req.Run,
		MaxTokensParam: req.MaxTokensParam, ReasoningEffort: req.ReasoningEffort,
		ExtraBody: CanonicalJSON(req.ExtraBody), HeaderNames: headerNames(req.Header),
		Tools: canonicalTools(req.Tools), ToolChoice: req.ToolChoice, Scope: req.Scope})
	if err != nil {
		// Only NaN or ±Inf temperatures get here; hash their text instead
		// so the key stays a function of the request.
		b = fmt.Appendf(nil, "%d|%q|%q|%#v|%v|%v|%d|%v|%d", cacheSchema, endpoint, req.Model, msgs,
			deref(req.Temperature), deref(req.TopP), req.MaxTokens, req.Seed, req.Run)
	}
	return sha256.Sum256(b)
}

// canonicalTools is tools with each schema in canonical form, so that two
// spellings of one schema share a key.
func canonicalTools(tools []ToolSpec) []ToolSpec {
	if len(tools) == 0 {
		return nil
	}
	out := make([]ToolSpec, len(tools))
	for i, t := range tools {
		t.Function.Parameters = CanonicalJSON(t.Function.Parameters)
		out[i] = t
	}
	return out
}

// CanonicalJSON re-encodes a JSON value with sorted object keys and no
// spaces, so that two spellings of one extra body share a cache key (and
// compare equal in a run's config). Invalid JSON (which validate refuses
// before any call) is kept as it is.
func CanonicalJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	b, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return b
}

// headerNames are the canonical names of the extra headers, sorted: what
// of them enters the key. Values (tokens) are never hashed into a file.
func headerNames(h http.Header) []string {
	var names []string
	for k := range h {
		names = append(names, http.CanonicalHeaderKey(k))
	}
	sort.Strings(names)
	return names
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// Lookup returns the cached response for req, if any, without calling the
// wrapped Chat or counting a hit.
func (c *Cached) Lookup(req Request) (Response, bool, error) {
	key := CacheKey(c.endpoint, req)
	return c.get(key)
}

func (c *Cached) get(key [32]byte) (Response, bool, error) {
	var e cacheEntry
	found := false
	err := c.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketResponses).Get(key[:])
		if v == nil {
			return nil
		}
		found = true
		return json.Unmarshal(v, &e)
	})
	if err != nil {
		return Response{}, false, fmt.Errorf("model cache %s: read %s: %w", c.path, hex.EncodeToString(key[:8]), err)
	}
	if !found {
		return Response{}, false, nil
	}
	return Response{Content: e.Content, Reasoning: e.Reasoning, Usage: e.Usage, FinishReason: e.FinishReason,
		ToolCalls: e.ToolCalls, Cut: e.Cut, Cached: true}, true, nil
}

func (c *Cached) put(key [32]byte, req Request, resp Response) error {
	v, err := json.Marshal(cacheEntry{
		Content: resp.Content, Reasoning: resp.Reasoning, Usage: resp.Usage, FinishReason: resp.FinishReason,
		ToolCalls: resp.ToolCalls, Cut: resp.Cut,
		Endpoint: c.endpoint, Model: req.Model, Run: req.Run,
		LatencyMS: resp.Latency.Milliseconds(), Attempts: resp.Attempts, StoredAt: time.Now().UTC(),
	})
	if err != nil {
		return err
	}
	p := &pendingPut{key: key, val: v, done: make(chan error, 1)}
	c.wmu.Lock()
	c.pending = append(c.pending, p)
	if !c.writing {
		c.writing = true
		go c.commit()
	}
	c.wmu.Unlock()
	return <-p.done
}

type pendingPut struct {
	key  [32]byte
	val  []byte
	done chan error
}

// commit writes pending answers until there are none, each batch in one
// transaction. bbolt fsyncs every commit (about a millisecond, much more on
// a network disk), so answers arriving while one commit runs share the
// next instead of queueing for one fsync each; and unlike bbolt's own Batch
// no answer waits for a timer. Every answer is durable before its caller
// hears back.
func (c *Cached) commit() {
	for {
		c.wmu.Lock()
		batch := c.pending
		c.pending = nil
		if len(batch) == 0 {
			c.writing = false
			c.wmu.Unlock()
			return
		}
		c.wmu.Unlock()
		err := c.db.Update(func(tx *bolt.Tx) error {
			b := tx.Bucket(bucketResponses)
			for _, p := range batch {
				if err := b.Put(p.key[:], p.val); err != nil {
					return err
				}
			}
			return nil
		})
		for _, p := range batch {
			p.done <- err
		}
	}
}

// CacheWriteError is returned with a good Response whose storing failed
// (disk full, file closed). The answer is valid; the run should stop and
// fix the disk before paying for more answers it cannot keep.
type CacheWriteError struct {
	Path string
	Err  error
}

func (e *CacheWriteError) Error() string {
	return fmt.Sprintf("model cache %s: answer received but not stored: %v", e.Path, e.Err)
}

func (e *CacheWriteError) Unwrap() error { return e.Err }

// Complete answers from the file or calls the wrapped Chat and stores its
// answer. See WithCache.
func (c *Cached) Complete(ctx context.Context, req Request) (Response, error) {
	if err := validate(req); err != nil {
		return Response{}, err
	}
	key := CacheKey(c.endpoint, req)
	for {
		resp, ok, err := c.get(key)
		if err != nil {
			return Response{}, err
		}
		if ok {
			c.hits.Add(1)
			return resp, nil
		}
		c.mu.Lock()
		wait, busy := c.flights[key]
		if !busy {
			done := make(chan struct{})
			c.flights[key] = done
			c.mu.Unlock()
			return c.fetch(ctx, key, req, done)
		}
		c.mu.Unlock()
		// The same request is being fetched: wait for it, then look again.
		// If it failed, this caller tries in turn.
		select {
		case <-wait:
		case <-ctx.Done():
			return Response{}, context.Cause(ctx)
		}
	}
}

func (c *Cached) fetch(ctx context.Context, key [32]byte, req Request, done chan struct{}) (Response, error) {
	defer func() {
		c.mu.Lock()
		delete(c.flights, key)
		c.mu.Unlock()
		close(done)
	}()
	c.misses.Add(1)
	resp, err := c.next.Complete(ctx, req)
	if err != nil {
		return resp, err
	}
	if err := c.put(key, req, resp); err != nil {
		return resp, &CacheWriteError{Path: c.path, Err: err}
	}
	c.stored.Add(1)
	resp.Cached = false
	return resp, nil
}
