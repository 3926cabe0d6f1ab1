package openai_test

// These tests talk to openaitest.Server, a loopback (127.0.0.1) HTTP server
// speaking the real /v1/embeddings protocol: JSON request with model, input
// array and encoding_format, Bearer auth, and a {"object":"list","data":
// [{"index","embedding"}]} response, with vectors derived from each text.

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/paperlens/paperlens/internal/testkit/openaitest"
	"github.com/paperlens/paperlens/retrieve/embed"
	"github.com/paperlens/paperlens/retrieve/embed/openai"
)

const testKey = "sk-test-5f2b9c0e1d7a4e3b8c6f"

func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("passage %d about dense retrieval of paper evidence", i)
	}
	return out
}

// expected is what the client must return for text: the server's vector,
// L2-normalised.
func expected(text string, dim int) []float32 {
	v := openaitest.Vector(text, dim)
	embed.Normalize(v)
	return v
}

func newClient(t *testing.T, s *openaitest.Server, o openai.Options) *openai.Client {
	t.Helper()
	o.BaseURL = s.BaseURL()
	if o.Model == "" {
		o.Model = "BAAI/bge-m3"
	}
	if o.MinBackoff == 0 {
		o.MinBackoff = time.Millisecond
	}
	if o.MaxBackoff == 0 {
		o.MaxBackoff = 5 * time.Millisecond
	}
	c, err := openai.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestBatchingOrderAndProtocol(t *testing.T) {
	for _, tc := range []struct {
		name               string
		n, batch, workers  int
		shuffle, base64Ans bool
	}{
		{name: "one batch", n: 5, batch: 64, workers: 4},
		{name: "exact multiple", n: 128, batch: 64, workers: 4},
		{name: "ragged, concurrent, shuffled", n: 1000, batch: 7, workers: 8, shuffle: true},
		{name: "serial", n: 50, batch: 3, workers: 1},
		{name: "server answers base64", n: 20, batch: 6, workers: 2, base64Ans: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openaitest.NewServer(t, 16)
			s.Key, s.Shuffle, s.Base64 = testKey, tc.shuffle, tc.base64Ans
			// Random delays make later batches finish before earlier ones.
			s.Delay = func(openaitest.Request) time.Duration { return time.Duration(rand.IntN(3)) * time.Millisecond }
			c := newClient(t, s, openai.Options{APIKey: testKey, BatchSize: tc.batch, Concurrency: tc.workers})
			in := texts(tc.n)
			got, err := c.Embed(context.Background(), in, embed.Passage)
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range got {
				if !slices.Equal(v, expected(in[i], 16)) {
					t.Fatalf("vector %d is not the one for its text (order lost?)", i)
				}
			}
			reqs := s.Requests()
			if want := (tc.n + tc.batch - 1) / tc.batch; len(reqs) != want {
				t.Fatalf("%d requests, want %d", len(reqs), want)
			}
			seen := map[string]int{}
			for _, r := range reqs {
				if len(r.Input) > tc.batch {
					t.Fatalf("request of %d inputs, batch size %d", len(r.Input), tc.batch)
				}
				if r.Model != "BAAI/bge-m3" || r.EncodingFormat != "float" || r.Dimensions != 0 {
					t.Fatalf("request model %q encoding_format %q dimensions %d", r.Model, r.EncodingFormat, r.Dimensions)
				}
				if r.Authorization != "Bearer "+testKey || r.ContentType != "application/json" {
					t.Fatalf("headers: Authorization %q, Content-Type %q", r.Authorization, r.ContentType)
				}
				for _, x := range r.Input {
					seen[x]++
				}
			}
			for _, x := range in {
				if seen[x] != 1 {
					t.Fatalf("text %q sent %d times", x, seen[x])
				}
			}
			if c.Dim() != 16 {
				t.Fatalf("Dim %d after the first response, want 16", c.Dim())
			}
		})
	}
}

// Each failure a retry can fix is retried until the batch succeeds, after
// waiting at least what the server asked for. The waits are the client's
// own record of them (OnRetry), not a clock: a busy machine only makes the
// real waits longer.
func TestRetriedThenSucceeds(t *testing.T) {
	for _, tc := range []struct {
		name       string
		fail       openaitest.Failure
		failures   int
		retryAfter time.Duration // each wait at least this
	}{
		{name: "429 with Retry-After", fail: openaitest.Failure{Status: 429, Body: `{"error":{"message":"rate limited"}}`, Header: openaitest.RetryAfter(1)}, failures: 1, retryAfter: time.Second},
		{name: "500s", fail: openaitest.Failure{Status: 500, Body: "internal error"}, failures: 3},
		{name: "503 with Retry-After-Ms", fail: openaitest.Failure{Status: 503, Header: map[string]string{"Retry-After-Ms": "150"}}, failures: 2, retryAfter: 150 * time.Millisecond},
		{name: "malformed JSON", fail: openaitest.Failure{Body: `{"object":"list","data":[{"index":0,"embedding":[0.1,`}, failures: 2},
		{name: "wrong count", fail: openaitest.Failure{Body: `{"object":"list","data":[]}`}, failures: 1},
		{name: "HTML from a proxy", fail: openaitest.Failure{Body: `<html>502 Bad Gateway</html>`}, failures: 1},
		{name: "non-finite value", fail: openaitest.Failure{Body: `{"data":[{"index":0,"embedding":"AADAfwAAwH8AAMB/AADAfw=="}]}`}, failures: 1},
		{name: "dropped connection", fail: openaitest.Failure{Drop: true}, failures: 2},
		// The server holds the request until the client gives up.
		{name: "timeout", fail: openaitest.Failure{Hang: time.Hour}, failures: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openaitest.NewServer(t, 4)
			s.Fail = func(n int, _ openaitest.Request) *openaitest.Failure {
				if n <= tc.failures {
					f := tc.fail
					return &f
				}
				return nil
			}
			// The request time limit also bounds the good answer after the
			// failures, so it is far above a loopback round trip on a busy
			// machine; only the hanging case needs it to end a request, and
			// it gets a second, not a minute.
			timeout := time.Minute
			if tc.fail.Hang > 0 {
				timeout = time.Second
			}
			var mu sync.Mutex
			var waits []time.Duration
			c := newClient(t, s, openai.Options{BatchSize: 8, Timeout: timeout, OnRetry: func(_ int, wait time.Duration, _ error) {
				mu.Lock()
				waits = append(waits, wait)
				mu.Unlock()
			}})
			got, err := c.Embed(context.Background(), []string{"only text"}, embed.Query)
			if err != nil {
				t.Fatalf("after %d failures: %v", tc.failures, err)
			}
			if !slices.Equal(got[0], expected("only text", 4)) {
				t.Fatalf("wrong vector after retries")
			}
			if n := len(s.Requests()); n != tc.failures+1 {
				t.Fatalf("%d requests, want %d", n, tc.failures+1)
			}
			if len(waits) != tc.failures {
				t.Fatalf("%d waits before retrying, want %d", len(waits), tc.failures)
			}
			for i, w := range waits {
				if w < tc.retryAfter {
					t.Errorf("wait %d: %v, the server asked for at least %v", i+1, w, tc.retryAfter)
				}
			}
		})
	}
}

func TestPermanentFailures(t *testing.T) {
	for _, tc := range []struct {
		name      string
		fail      openaitest.Failure
		retries   int
		wantTries int
		want      []string
	}{
		{name: "always 500", fail: openaitest.Failure{Status: 500, Body: "boom"}, retries: 2, wantTries: 3,
			want: []string{"openai:BAAI/bge-m3: embedding batch 1 (texts 0–9) failed after 3 tries: HTTP 500 Internal Server Error: boom"}},
		{name: "400 is not retried", fail: openaitest.Failure{Status: 400, Body: `{"error":{"message":"maximum context length is 8192 tokens"}}`}, retries: 5, wantTries: 1,
			want: []string{"failed after 1 try", "HTTP 400", "maximum context length"}},
		{name: "401 hints at the key", fail: openaitest.Failure{Status: 401}, retries: 5, wantTries: 1, want: []string{"HTTP 401", "check the API key"}},
		{name: "404 hints at /v1", fail: openaitest.Failure{Status: 404}, retries: 5, wantTries: 1, want: []string{"HTTP 404", "/v1"}},
		{name: "Retry-After beyond the cap", fail: openaitest.Failure{Status: 429, Header: openaitest.RetryAfter(3600)}, retries: 5, wantTries: 1,
			want: []string{"HTTP 429", "retry after 1h0m0s"}},
		{name: "malformed every time", fail: openaitest.Failure{Body: "not json"}, retries: 1, wantTries: 2, want: []string{"malformed response"}},
		{name: "no retries", fail: openaitest.Failure{Status: 503}, retries: -1, wantTries: 1, want: []string{"failed after 1 try", "HTTP 503"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openaitest.NewServer(t, 4)
			s.Fail = func(int, openaitest.Request) *openaitest.Failure { f := tc.fail; return &f }
			c := newClient(t, s, openai.Options{BatchSize: 10, MaxRetries: tc.retries})
			_, err := c.Embed(context.Background(), texts(10), embed.Passage)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			var be *openai.BatchError
			if !errors.As(err, &be) || be.Batch != 1 || be.Tries != tc.wantTries {
				t.Errorf("BatchError %+v, want batch 1 after %d tries", be, tc.wantTries)
			}
			if n := len(s.Requests()); n != tc.wantTries {
				t.Errorf("%d requests, want %d", n, tc.wantTries)
			}
		})
	}
}

// TestFailedBatchNamed: one batch keeps failing while the others succeed.
// The error names that batch with its text range; the result holds every
// other batch (the Embedder contract's partial result), and EmbedStream
// emitted them.
func TestFailedBatchNamed(t *testing.T) {
	s := openaitest.NewServer(t, 4)
	in := texts(320)
	poison := in[150] // batch 3 of size 64: texts 128–191
	s.Fail = func(_ int, r openaitest.Request) *openaitest.Failure {
		if slices.Contains(r.Input, poison) {
			return &openaitest.Failure{Status: 500, Body: "shard down"}
		}
		return nil
	}
	c := newClient(t, s, openai.Options{BatchSize: 64, Concurrency: 1, MaxRetries: 4})
	got, err := c.Embed(context.Background(), in, embed.Passage)
	want := "embedding batch 3 (texts 128–191) failed after 5 tries: HTTP 500 Internal Server Error: shard down"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want it to contain %q", err, want)
	}
	if len(got) != len(in) {
		t.Fatalf("partial result of length %d", len(got))
	}
	for i, v := range got {
		inBatch3 := i >= 128 && i <= 191
		switch {
		case inBatch3 && v != nil:
			t.Fatalf("text %d of the failed batch has a vector", i)
		case !inBatch3 && i < 128 && !slices.Equal(v, expected(in[i], 4)):
			// With one worker, batches 1 and 2 finished before batch 3
			// failed; batches 4 and 5 may or may not have run.
			t.Fatalf("text %d: finished batch missing from the partial result", i)
		case !inBatch3 && v != nil && !slices.Equal(v, expected(in[i], 4)):
			t.Fatalf("text %d: wrong vector", i)
		}
	}
}

func TestAPIKeyNeverInErrors(t *testing.T) {
	// A hostile or buggy server that echoes the Authorization header back.
	echo := func(status int) func(int, openaitest.Request) *openaitest.Failure {
		return func(_ int, r openaitest.Request) *openaitest.Failure {
			return &openaitest.Failure{Status: status, Body: `{"error":"bad header: ` + r.Authorization + `"}`}
		}
	}
	for _, tc := range []struct {
		name string
		fail func(int, openaitest.Request) *openaitest.Failure
	}{
		{"400 echo", echo(400)},
		{"500 echo", echo(500)},
		{"malformed 200 echo", echo(0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openaitest.NewServer(t, 4)
			s.Fail = tc.fail
			c := newClient(t, s, openai.Options{APIKey: testKey, MaxRetries: 1})
			_, err := c.Embed(context.Background(), []string{"x y"}, embed.Query)
			if err == nil {
				t.Fatal("no error")
			}
			if strings.Contains(err.Error(), testKey) || strings.Contains(fmt.Sprintf("%+v %#v", err, err), testKey) {
				t.Fatalf("the API key leaked into the error: %v", err)
			}
			if !strings.Contains(err.Error(), "[redacted]") {
				t.Errorf("error %q: expected the echoed key to show as [redacted]", err)
			}
			for _, r := range s.Requests() {
				if r.Authorization != "Bearer "+testKey {
					t.Fatalf("Authorization header %q", r.Authorization)
				}
			}
		})
	}
	// An unreachable server: the transport error must not carry the key
	// either (it travels in a header, never in the URL).
	c, err := openai.New(openai.Options{BaseURL: "http://127.0.0.1:1/v1", APIKey: testKey, Model: "m", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Embed(context.Background(), []string{"x"}, embed.Query); err == nil || strings.Contains(err.Error(), testKey) {
		t.Fatalf("connection refused error: %v", err)
	}
}

func TestPrefixes(t *testing.T) {
	s := openaitest.NewServer(t, 8)
	c := newClient(t, s, openai.Options{Model: "intfloat/e5-base-v2", QueryPrefix: "query: ", PassagePrefix: "passage: "})
	plain := newClient(t, s, openai.Options{Model: "intfloat/e5-base-v2"})
	if c.Name() == plain.Name() || !strings.HasPrefix(c.Name(), "openai:intfloat/e5-base-v2#prefix-") {
		t.Fatalf("names %q and %q: prefixes must change the name", c.Name(), plain.Name())
	}
	for _, tc := range []struct {
		kind   embed.Kind
		prefix string
	}{{embed.Query, "query: "}, {embed.Passage, "passage: "}} {
		got, err := c.Embed(context.Background(), []string{"what is LSA?"}, tc.kind)
		if err != nil {
			t.Fatal(err)
		}
		reqs := s.Requests()
		if last := reqs[len(reqs)-1]; !slices.Equal(last.Input, []string{tc.prefix + "what is LSA?"}) {
			t.Fatalf("%v: sent %q", tc.kind, last.Input)
		}
		if !slices.Equal(got[0], expected(tc.prefix+"what is LSA?", 8)) {
			t.Fatalf("%v: wrong vector", tc.kind)
		}
	}
	if _, err := plain.Embed(context.Background(), []string{"what is LSA?"}, embed.Query); err != nil {
		t.Fatal(err)
	}
	if reqs := s.Requests(); reqs[len(reqs)-1].Input[0] != "what is LSA?" {
		t.Fatalf("no prefix configured, sent %q", reqs[len(reqs)-1].Input[0])
	}
}

func TestDimensions(t *testing.T) {
	t.Run("learned, then inconsistent", func(t *testing.T) {
		s := openaitest.NewServer(t, 8)
		var calls atomic.Int32
		s.Fail = func(int, openaitest.Request) *openaitest.Failure {
			if calls.Add(1) == 2 {
				return &openaitest.Failure{Body: `{"data":[{"index":0,"embedding":[1,2,3]}]}`}
			}
			return nil
		}
		c := newClient(t, s, openai.Options{MaxRetries: 3})
		if c.Dim() != 0 {
			t.Fatalf("Dim %d before any response", c.Dim())
		}
		if _, err := c.Embed(context.Background(), []string{"a"}, embed.Query); err != nil || c.Dim() != 8 {
			t.Fatalf("Dim %d, err %v", c.Dim(), err)
		}
		_, err := c.Embed(context.Background(), []string{"b"}, embed.Query)
		if err == nil || !strings.Contains(err.Error(), "3-dimensional") || !strings.Contains(err.Error(), "say 8") {
			t.Fatalf("error %v, want a dimension mismatch", err)
		}
		if calls.Load() != 2 {
			t.Fatalf("a dimension mismatch was retried (%d calls)", calls.Load())
		}
	})
	t.Run("configured and wrong", func(t *testing.T) {
		s := openaitest.NewServer(t, 8)
		c := newClient(t, s, openai.Options{Dim: 1024})
		if _, err := c.Embed(context.Background(), []string{"a"}, embed.Query); err == nil || !strings.Contains(err.Error(), "Options.Dim say 1024") {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("requested", func(t *testing.T) {
		s := openaitest.NewServer(t, 8)
		c := newClient(t, s, openai.Options{Model: "text-embedding-3-small", Dim: 5, RequestDimensions: true})
		if c.Name() != "openai:text-embedding-3-small@5" {
			t.Fatalf("Name %q", c.Name())
		}
		got, err := c.Embed(context.Background(), []string{"a"}, embed.Query)
		if err != nil || len(got[0]) != 5 {
			t.Fatalf("got %v, %v", got, err)
		}
		if r := s.Requests()[0]; r.Dimensions != 5 {
			t.Fatalf("dimensions %d sent", r.Dimensions)
		}
	})
	t.Run("probe", func(t *testing.T) {
		s := openaitest.NewServer(t, 12)
		c := newClient(t, s, openai.Options{})
		if d, err := c.Probe(context.Background()); err != nil || d != 12 {
			t.Fatalf("Probe = %d, %v", d, err)
		}
	})
}

func TestBlankTexts(t *testing.T) {
	s := openaitest.NewServer(t, 6)
	c := newClient(t, s, openai.Options{BatchSize: 2})
	in := []string{"", "real text", "  \n", "more", "", ""}
	got, err := c.Embed(context.Background(), in, embed.Passage)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range in {
		if strings.TrimSpace(text) == "" {
			if !slices.Equal(got[i], make([]float32, 6)) {
				t.Fatalf("blank text %d: %v, want the zero vector", i, got[i])
			}
		} else if !slices.Equal(got[i], expected(text, 6)) {
			t.Fatalf("text %d: wrong vector", i)
		}
	}
	for _, r := range s.Requests() {
		for _, x := range r.Input {
			if strings.TrimSpace(x) == "" {
				t.Fatalf("blank text sent: %q", r.Input)
			}
		}
	}
	// Only blanks and an unknown dimension: a probe learns it.
	c2 := newClient(t, s, openai.Options{})
	got, err = c2.Embed(context.Background(), []string{"", " "}, embed.Query)
	if err != nil || len(got[0]) != 6 || len(got[1]) != 6 {
		t.Fatalf("got %v, %v", got, err)
	}
}

// The context's end ends Embed, with the context's error, at once:
// requests in flight are abandoned, not waited for. The test runs in a
// synctest bubble on a transport that holds every request until its
// context ends, so "at once" is exact on the bubble's clock (Embed returns
// at the deadline), and a client that waited for its requests would never
// return: the bubble would fail the test as deadlocked. A real server and
// clock could only say "under a second", which a busy machine can break.
func TestCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var held atomic.Int32
		hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			held.Add(1)
			<-r.Context().Done()
			return nil, r.Context().Err()
		})}
		c, err := openai.New(openai.Options{BaseURL: "http://embeddings.invalid/v1", Model: "m", BatchSize: 1, Concurrency: 2,
			MinBackoff: time.Millisecond, HTTPClient: hc})
		if err != nil {
			t.Fatal(err)
		}
		const deadline = 50 * time.Millisecond
		ctx, cancel := context.WithTimeout(t.Context(), deadline)
		defer cancel()
		start := time.Now()
		_, err = c.Embed(ctx, texts(10), embed.Query)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("error %v, want the context's", err)
		}
		if el := time.Since(start); el != deadline {
			t.Errorf("Embed returned %v after it started, want at the %v deadline", el, deadline)
		}
		if n := held.Load(); n < 2 {
			t.Errorf("%d requests were in flight at the deadline, want one a worker", n)
		}
	})
}

func TestNewValidates(t *testing.T) {
	for _, o := range []openai.Options{
		{},
		{Model: "m", BaseURL: "localhost:8080"},
		{Model: "m", BaseURL: "ftp://x/v1"},
		{Model: "m", RequestDimensions: true},
		{Model: "m", Dim: -1},
	} {
		if _, err := openai.New(o); err == nil {
			t.Errorf("New(%+v) accepted", o)
		}
	}
	secret := "http://user:hunter2@example.com/v1\x7f"
	if _, err := openai.New(openai.Options{Model: "m", BaseURL: secret}); err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("bad URL error %v", err)
	}
}

// TestEmitErrorStops: when the caller's emit fails (the cache could not
// write), EmbedStream stops and returns that error as is.
func TestEmitErrorStops(t *testing.T) {
	s := openaitest.NewServer(t, 4)
	c := newClient(t, s, openai.Options{BatchSize: 10, Concurrency: 2})
	diskFull := errors.New("disk full")
	calls := 0
	err := c.EmbedStream(context.Background(), texts(100), embed.Passage, func(int, [][]float32) error {
		calls++
		if calls == 2 {
			return diskFull
		}
		return nil
	})
	if !errors.Is(err, diskFull) {
		t.Fatalf("error %v, want the emit error", err)
	}
	if calls != 2 {
		t.Fatalf("emit called %d times after failing", calls-2)
	}
}
