package openai_test

import (
	"context"
	"net/http"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paperlens/paperlens/internal/testkit/openaitest"
	"github.com/paperlens/paperlens/retrieve/embed"
	"github.com/paperlens/paperlens/retrieve/embed/openai"
)

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Exactly Concurrency requests are in flight at the peak: never more, and
// that many, since the server holds the first ones until all of them have
// arrived (a client sending fewer at once would fail after the 10 s guard).
func TestConcurrencyBound(t *testing.T) {
	for _, workers := range []int{1, 3} {
		s := openaitest.NewServer(t, 8)
		var arrived atomic.Int32
		all := make(chan struct{})
		s.Delay = func(openaitest.Request) time.Duration {
			if arrived.Add(1) == int32(workers) {
				close(all)
			}
			select {
			case <-all:
			case <-time.After(10 * time.Second):
			}
			return 0
		}
		var now, peak atomic.Int32
		hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			v := now.Add(1)
			defer now.Add(-1)
			for p := peak.Load(); v > p && !peak.CompareAndSwap(p, v); p = peak.Load() {
			}
			return http.DefaultTransport.RoundTrip(r)
		})}
		c := newClient(t, s, openai.Options{BatchSize: 2, Concurrency: workers, HTTPClient: hc})
		in := texts(23)
		got, err := c.Embed(context.Background(), in, embed.Passage)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range got {
			if !slices.Equal(v, expected(in[i], 8)) {
				t.Fatalf("workers %d: vector %d is not the one for its text", workers, i)
			}
		}
		if p := peak.Load(); p != int32(workers) {
			t.Errorf("workers %d: peak %d requests in flight", workers, p)
		}
	}
}
