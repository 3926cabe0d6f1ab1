package cache_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/paperlens/paperlens/internal/testkit/openaitest"
	"github.com/paperlens/paperlens/retrieve/embed"
	"github.com/paperlens/paperlens/retrieve/embed/cache"
	"github.com/paperlens/paperlens/retrieve/embed/openai"
)

// fake is a non-streaming embedder that records what it is asked.
type fake struct {
	name   string
	dim    int
	poison string // a chunk containing it fails, returning the part before it

	mu    sync.Mutex
	calls int
	seen  []string
}

func (f *fake) Name() string { return f.name }
func (f *fake) Dim() int     { return f.dim }

func (f *fake) Embed(_ context.Context, texts []string, kind embed.Kind) ([][]float32, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if f.poison != "" && t == f.poison {
			return out, errors.New("fake: poisoned text")
		}
		f.seen = append(f.seen, t)
		out[i] = vec(f.name, kind, t, f.dim)
	}
	return out, nil
}

func vec(name string, kind embed.Kind, text string, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(len(name)+int(kind)*7+len(text)*(i+1)) / 100
	}
	return v
}

func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("text number %d", i)
	}
	return out
}

func wrap(t *testing.T, e embed.Embedder, path string) *cache.Cached {
	t.Helper()
	c, err := cache.Wrap(e, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestHitsMissesAndPersistence(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub", "vectors.db")
	in := texts(10)

	f := &fake{name: "fake-a", dim: 3}
	c := wrap(t, f, path)
	first, err := c.Embed(ctx, in, embed.Passage)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range first {
		if !slices.Equal(v, vec("fake-a", embed.Passage, in[i], 3)) {
			t.Fatalf("vector %d wrong", i)
		}
	}
	if s := c.Stats(); s != (cache.Stats{Hits: 0, Misses: 10, Embedded: 10}) {
		t.Fatalf("after first Embed: %+v", s)
	}

	calls := f.calls
	again, err := c.Embed(ctx, in, embed.Passage)
	if err != nil {
		t.Fatal(err)
	}
	if f.calls != calls {
		t.Fatalf("second Embed of the same texts made %d inner calls", f.calls-calls)
	}
	if s := c.Stats(); s.Hits != 10 || s.Misses != 10 {
		t.Fatalf("after second Embed: %+v", s)
	}
	for i := range in {
		if !slices.Equal(again[i], first[i]) {
			t.Fatalf("cached vector %d differs", i)
		}
	}

	if err := c.Close(); err != nil {
		t.Fatal(err)
	}

	// Reopen: nothing is re-embedded, and each space stays apart.
	for _, tc := range []struct {
		name      string
		inner     *fake
		kind      embed.Kind
		wantCalls int
	}{
		{"reopened, same name and kind: all hits", &fake{name: "fake-a", dim: 3}, embed.Passage, 0},
		{"reopened, other kind: misses", &fake{name: "fake-a", dim: 3}, embed.Query, 1},
		{"reopened, other model name: misses", &fake{name: "fake-b", dim: 3}, embed.Passage, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c2, err := cache.Wrap(tc.inner, path)
			if err != nil {
				t.Fatal(err)
			}
			defer c2.Close()
			got, err := c2.Embed(ctx, in, tc.kind)
			if err != nil {
				t.Fatal(err)
			}
			if tc.inner.calls != tc.wantCalls {
				t.Fatalf("%d inner calls, want %d", tc.inner.calls, tc.wantCalls)
			}
			for i, v := range got {
				if !slices.Equal(v, vec(tc.inner.name, tc.kind, in[i], 3)) {
					t.Fatalf("vector %d is not the %s/%v one", i, tc.inner.name, tc.kind)
				}
			}
		})
	}
}

func TestDuplicatesEmbeddedOnce(t *testing.T) {
	f := &fake{name: "f", dim: 2}
	c := wrap(t, f, filepath.Join(t.TempDir(), "c.db"))
	in := []string{"a", "b", "a", "a", "c", "b"}
	got, err := c.Embed(context.Background(), in, embed.Query)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.seen, []string{"a", "b", "c"}) {
		t.Fatalf("inner embedded %q", f.seen)
	}
	for i := range in {
		if !slices.Equal(got[i], vec("f", embed.Query, in[i], 2)) {
			t.Fatalf("vector %d wrong", i)
		}
	}
	if s := c.Stats(); s != (cache.Stats{Misses: 6, Embedded: 3}) {
		t.Fatalf("stats %+v", s)
	}
}

// TestFailureKeepsFinishedWork: the inner embedder (not a streamer) fails
// in the third chunk. The chunks before it, and the part of the third it
// finished, are stored; a rerun embeds only what is left.
func TestFailureKeepsFinishedWork(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	in := texts(100)
	f := &fake{name: "f", dim: 2, poison: in[45]}
	c := wrap(t, f, path)
	c.Chunk = 20
	got, err := c.Embed(context.Background(), in, embed.Passage)
	if err == nil || !strings.Contains(err.Error(), "poisoned") {
		t.Fatalf("error %v", err)
	}
	for i, v := range got {
		if (i < 45) != (v != nil) {
			t.Fatalf("partial result: text %d has vector %v", i, v)
		}
	}
	f.poison = ""
	f.seen = nil
	if _, err := c.Embed(context.Background(), in, embed.Passage); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.seen, in[45:]) {
		t.Fatalf("rerun embedded %d texts (%q…), want the 55 from text 45 on", len(f.seen), f.seen[:min(3, len(f.seen))])
	}
}

// TestStreamerFailureKeepsFinishedBatches wraps the OpenAI-compatible client
// around a loopback server speaking the real /v1/embeddings protocol. Batch
// 3 fails for good; batches 1 and 2 (done first, one worker) must be in the
// cache, so that once the server recovers only batches 3 to 5 are sent.
func TestStreamerFailureKeepsFinishedBatches(t *testing.T) {
	s := openaitest.NewServer(t, 8)
	in := texts(320)
	s.Fail = func(_ int, r openaitest.Request) *openaitest.Failure {
		if slices.Contains(r.Input, in[130]) {
			return &openaitest.Failure{Status: 500, Body: "down"}
		}
		return nil
	}
	client, err := openai.New(openai.Options{BaseURL: s.BaseURL(), Model: "BAAI/bge-m3", BatchSize: 64, Concurrency: 1,
		MaxRetries: 2, MinBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "c.db")
	c := wrap(t, client, path)
	_, err = c.Embed(context.Background(), in, embed.Passage)
	if err == nil || !strings.Contains(err.Error(), "embedding batch 3 (texts 128–191) failed after 3 tries") {
		t.Fatalf("error %v", err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}

	// The recovered server is a new one: a request of the first run that
	// the client abandoned when batch 3 failed may still reach the old
	// server late, and must not count as sent after recovery.
	s.Close()
	s2 := openaitest.NewServer(t, 8)
	client2, err := openai.New(openai.Options{BaseURL: s2.BaseURL(), Model: "BAAI/bge-m3", BatchSize: 64, Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	c2 := wrap(t, client2, path)
	got, err := c2.Embed(context.Background(), in, embed.Passage)
	if err != nil {
		t.Fatal(err)
	}
	var sent []string
	for _, r := range s2.Requests() {
		sent = append(sent, r.Input...)
	}
	if !slices.Equal(sent, in[128:]) {
		t.Fatalf("after recovery sent %d texts, want exactly texts 128–319", len(sent))
	}
	for i, v := range got {
		want := openaitest.Vector(in[i], 8)
		embed.Normalize(want)
		if !slices.Equal(v, want) {
			t.Fatalf("vector %d wrong", i)
		}
	}
	if st := c2.Stats(); st.Hits != 128 || st.Misses != 192 {
		t.Fatalf("stats %+v", st)
	}
	// A remote embedder that has not answered yet still has a Dim: the
	// cached one.
	fresh, _ := openai.New(openai.Options{BaseURL: s2.BaseURL(), Model: "BAAI/bge-m3"})
	c2.Close()
	c3 := wrap(t, fresh, path)
	if c3.Dim() != 8 {
		t.Fatalf("Dim %d from the cache, want 8", c3.Dim())
	}
}

func TestModelChangedUnderSameName(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	c := wrap(t, &fake{name: "m", dim: 4}, path)
	if _, err := c.Embed(context.Background(), []string{"a"}, embed.Query); err != nil {
		t.Fatal(err)
	}
	c.Close()
	c2 := wrap(t, &fake{name: "m", dim: 6}, path)
	_, err := c2.Embed(context.Background(), []string{"b"}, embed.Query)
	if err == nil || !strings.Contains(err.Error(), "model behind the name changed") {
		t.Fatalf("error %v", err)
	}
}

func TestLockedFile(t *testing.T) {
	// In a synctest bubble the lock timeout's polling sleeps advance a
	// fake clock: the second open gives up at once instead of after the
	// real timeout.
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "c.db")
		wrap(t, &fake{name: "m", dim: 1}, path)
		if _, err := cache.Wrap(&fake{name: "m", dim: 1}, path); err == nil || !strings.Contains(err.Error(), "in use") {
			t.Fatalf("second open: %v", err)
		}
	})
}
