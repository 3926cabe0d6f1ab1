package model_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/model"
)

// The fake stands in for a paid API: every request reaching it is money,
// so the tests count them.
func TestCache(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Config{Answer: func(r modeltest.Request) (string, string) {
		return "answer to " + r.Messages[len(r.Messages)-1].Content, "because"
	}})
	base := newClient(t, model.Options{BaseURL: srv.BaseURL(), APIKey: "k"})
	path := filepath.Join(t.TempDir(), "sub", "responses.db")
	open := func(endpoint string) *model.Cached {
		c, err := model.WithCache(base, path, endpoint)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := open(base.BaseURL())

	a := ask("What is the main result?")
	with := func(f func(r *model.Request)) model.Request {
		r := a
		r.Messages = append([]model.Message(nil), a.Messages...)
		f(&r)
		return r
	}
	steps := []struct {
		name    string
		req     model.Request
		wantHit bool
	}{
		{"first call goes to the server", a, false},
		{"identical request is a hit", a, true},
		{"another Run is another sample", with(func(r *model.Request) { r.Run = 1 }), false},
		{"that Run is cached too", with(func(r *model.Request) { r.Run = 1 }), true},
		{"temperature", with(func(r *model.Request) { r.Temperature = ptr(0.7) }), false},
		{"temperature 0 is not unset", with(func(r *model.Request) { r.Temperature = ptr(0.0) }), false},
		{"-0 is 0", with(func(r *model.Request) { z := 0.0; z = -z; r.Temperature = &z }), true},
		{"top_p", with(func(r *model.Request) { r.TopP = ptr(0.9) }), false},
		{"max_tokens", with(func(r *model.Request) { r.MaxTokens = 100 }), false},
		{"seed", with(func(r *model.Request) { r.Seed = ptr(int64(1)) }), false},
		{"model", with(func(r *model.Request) { r.Model = "other" }), false},
		{"a message's role", with(func(r *model.Request) { r.Messages[0].Role = "user" }), false},
		{"a message's text", with(func(r *model.Request) { r.Messages[1].Content += " " }), false},
		{"the original again", a, true},
	}
	for _, s := range steps {
		before := srv.Count()
		resp, err := c.Complete(t.Context(), s.req)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		calls := srv.Count() - before
		if resp.Cached != s.wantHit || (s.wantHit && calls != 0) || (!s.wantHit && calls != 1) {
			t.Errorf("%s: Cached %v after %d server calls, want hit %v", s.name, resp.Cached, calls, s.wantHit)
		}
		if resp.Content != "answer to "+s.req.Messages[1].Content || resp.Reasoning != "because" || resp.Usage.TotalTokens == 0 {
			t.Errorf("%s: %+v", s.name, resp)
		}
		if s.wantHit && (resp.Latency != 0 || resp.Attempts != 0) {
			t.Errorf("%s: a hit has Latency %v, Attempts %d", s.name, resp.Latency, resp.Attempts)
		}
	}
	if st := c.Stats(); st.Hits != 4 || st.Misses != 10 || st.Stored != 10 {
		t.Errorf("stats %+v", st)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}

	// Reopened, spelled differently: same endpoint, same answers.
	c = open(srv.URL + "/v1/")
	defer func() { c.Close() }()
	before := srv.Count()
	if resp, err := c.Complete(t.Context(), a); err != nil || !resp.Cached || srv.Count() != before {
		t.Errorf("after reopen: %+v %v", resp, err)
	}
	if _, ok, err := c.Lookup(with(func(r *model.Request) { r.Run = 1 })); !ok || err != nil {
		t.Errorf("Lookup: %v %v", ok, err)
	}
	c.Close()

	// Another endpoint serving the same model name shares nothing.
	c = open("http://localhost:11434/v1")
	if resp, err := c.Complete(t.Context(), a); err != nil || resp.Cached {
		t.Errorf("other endpoint: %+v %v", resp, err)
	}
}

// Only successful answers are kept: a failure is asked again next time.
// The fake stands in for a provider failing the first time.
func TestCacheSkipsFailures(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Config{Inject: firstN(1, &modeltest.Fault{Kind: modeltest.ServerError})})
	base := newClient(t, model.Options{BaseURL: srv.BaseURL()})
	c, err := model.WithCache(base, filepath.Join(t.TempDir(), "c.db"), base.BaseURL())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Complete(t.Context(), ask("q")); err == nil {
		t.Fatal("no error")
	}
	for i, wantCached := range []bool{false, true} {
		resp, err := c.Complete(t.Context(), ask("q"))
		if err != nil || resp.Cached != wantCached {
			t.Errorf("call %d: %+v %v", i+2, resp, err)
		}
	}
	if srv.Count() != 2 {
		t.Errorf("%d server calls, want 2", srv.Count())
	}
}

// Identical requests in flight at once make one call: the fake stands in
// for a slow server hit by 20 workers asking the same thing.
func TestCacheCoalescesInFlight(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Config{Latency: 100 * time.Millisecond})
	base := newClient(t, model.Options{BaseURL: srv.BaseURL()})
	c, err := model.WithCache(base, filepath.Join(t.TempDir(), "c.db"), base.BaseURL())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var wg sync.WaitGroup
	var mu sync.Mutex
	hits := 0
	for range 20 {
		wg.Go(func() {
			resp, err := c.Complete(t.Context(), ask("same"))
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			if resp.Cached {
				hits++
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	if srv.Count() != 1 || hits != 19 {
		t.Errorf("%d server calls, %d hits", srv.Count(), hits)
	}
	// A waiter whose own context ends stops waiting.
	srv.Update(func(c *modeltest.Config) { c.Latency = 5 * time.Second })
	go c.Complete(t.Context(), ask("slow"))
	for srv.Count() < 2 {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.Complete(ctx, ask("slow")); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("%v", err)
	}
}

func TestCacheKey(t *testing.T) {
	a := ask("q")
	if model.CacheKey("http://h/v1", a) != model.CacheKey("HTTP://H/v1/", a) ||
		model.CacheKey("http://h/v1", a) != model.CacheKey("http://user:pw@h/v1/chat/completions?key=x", a) {
		t.Error("spellings of one endpoint give different keys")
	}
	if model.CacheKey("http://h/v1", a) == model.CacheKey("http://h:8000/v1", a) {
		t.Error("different endpoints share a key")
	}
	if _, err := model.WithCache(model.ChatFunc(nil), filepath.Join(t.TempDir(), "c.db"), ""); err == nil {
		t.Error("empty endpoint accepted")
	}
}
