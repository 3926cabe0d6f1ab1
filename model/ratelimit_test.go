package model_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/model"
)

// recorder is an instant Chat noting when each call arrived (in the
// synctest bubble's clock); it stands in for the server behind the limiter.
type recorder struct {
	mu     sync.Mutex
	start  time.Time
	starts []time.Duration
}

func (r *recorder) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.starts = append(r.starts, time.Since(r.start))
	return model.Response{Content: "ok"}, nil
}

func seconds(xs ...float64) []time.Duration {
	out := make([]time.Duration, len(xs))
	for i, x := range xs {
		out[i] = time.Duration(x * float64(time.Second))
	}
	return out
}

// Runs in a synctest bubble, whose clock jumps while all goroutines wait:
// a 9-second schedule is checked to the nanosecond in microseconds. Here
// and in the tests below that run in a bubble, time.Since reads its fake
// clock, never the wall's.
func TestRateLimitSchedule(t *testing.T) {
	words := func(n int) string { return strings.Repeat("x", n) }
	cases := []struct {
		name     string
		rpm, tpm int
		callers  int
		req      model.Request
		want     []time.Duration
	}{
		{"60 RPM: burst of 1, then one a second", 60, 0, 6, ask("q"), seconds(0, 1, 2, 3, 4, 5)},
		{"600 RPM: burst of 10 (one second's worth), then every 100ms", 600, 0, 13, ask("q"),
			seconds(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.1, 0.2, 0.3)},
		{"6000 TPM, 200-token calls: one every 2s", 0, 6000, 4,
			model.Request{Model: "m", MaxTokens: 100, Messages: []model.Message{{Role: "user", Content: words(396)}}}, seconds(0, 2, 4, 6)},
		{"a call above the bucket goes when it is full and leaves a debt", 0, 600, 3,
			model.Request{Model: "m", MaxTokens: 25, Messages: []model.Message{{Role: "user", Content: words(96)}}}, seconds(0, 5, 10)},
		{"the tighter of RPM and TPM wins", 6000, 60, 3,
			model.Request{Model: "m", MaxTokens: 1, Messages: []model.Message{{Role: "", Content: ""}}}, seconds(0, 1, 2)},
		{"0, 0 is unlimited", 0, 0, 5, ask("q"), seconds(0, 0, 0, 0, 0)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rec := &recorder{start: time.Now()}
				c := model.WithRateLimit(rec, tc.rpm, tc.tpm)
				for range tc.callers {
					// One at a time, so arrival order is the test's order.
					go c.Complete(t.Context(), tc.req)
					synctest.Wait()
				}
				time.Sleep(time.Minute)
				rec.mu.Lock()
				defer rec.mu.Unlock()
				if len(rec.starts) != len(tc.want) {
					t.Fatalf("starts %v, want %v", rec.starts, tc.want)
				}
				for i := range tc.want {
					if d := rec.starts[i] - tc.want[i]; d < -time.Microsecond || d > time.Microsecond {
						t.Fatalf("starts %v, want %v", rec.starts, tc.want)
					}
				}
			})
		})
	}
}

// A caller that gives up while waiting returns at once and hands its turn
// back, so the one after it is not delayed.
func TestRateLimitCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &recorder{start: time.Now()}
		c := model.WithRateLimit(rec, 60, 0)
		c.Complete(t.Context(), ask("a")) // t=0, the bucket is now empty
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(500*time.Millisecond, cancel)
		_, err := c.Complete(ctx, ask("b")) // would go at t=1
		if !errors.Is(err, context.Canceled) || time.Since(rec.start) != 500*time.Millisecond {
			t.Fatalf("%v at %v", err, time.Since(rec.start))
		}
		c.Complete(t.Context(), ask("c"))
		if got := rec.starts; len(got) != 2 || got[1] != time.Second {
			t.Errorf("starts %v, want [0s 1s]", got)
		}
	})
}

// A whole queue of waiters cancelled at once (an interrupted run) leaves
// no phantom schedule behind: the next caller waits only for the one call
// that really happened.
func TestRateLimitMassCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &recorder{start: time.Now()}
		c := model.WithRateLimit(rec, 60, 0)
		c.Complete(t.Context(), ask("a")) // t=0
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		for range 100 {
			wg.Go(func() { c.Complete(ctx, ask("queued")) })
		}
		synctest.Wait()
		time.Sleep(1500 * time.Millisecond) // one of them went at t=1
		cancel()
		wg.Wait()
		c.Complete(t.Context(), ask("after"))
		if got := rec.starts; len(got) != 3 || got[1] != time.Second || got[2] != 2*time.Second {
			t.Errorf("starts %v, want [0s 1s 2s]", got)
		}
	})
}

// The fake stands in for a provider: 150 calls at 6000 RPM (a burst of
// 100, then 100 a second) over the real client and the real clock all go
// through, one request each, 50 of them after waiting for the bucket. No
// duration is asserted here; the schedule is TestRateLimitSchedule's, on
// a fake clock, exact. This checks that the real timers end the waits.
func TestRateLimitRealTime(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Config{})
	c := model.WithRateLimit(newClient(t, model.Options{BaseURL: srv.BaseURL()}), 6000, 0)
	var wg sync.WaitGroup
	for range 150 {
		wg.Go(func() {
			if _, err := c.Complete(t.Context(), ask("q")); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := srv.Count(); n != 150 {
		t.Errorf("%d requests, want 150", n)
	}
}

// The fake stands in for a server with 20ms latency; at most n calls may
// be in flight.
func TestConcurrency(t *testing.T) {
	t.Parallel() // waits on loopback faults and stalls, not on the CPU
	for _, n := range []int{1, 4, 16} {
		srv := modeltest.NewServer(t, modeltest.Config{Latency: 20 * time.Millisecond})
		var now, peak atomic.Int32
		base := newClient(t, model.Options{BaseURL: srv.BaseURL()})
		counting := model.ChatFunc(func(ctx context.Context, req model.Request) (model.Response, error) {
			v := now.Add(1)
			for p := peak.Load(); v > p && !peak.CompareAndSwap(p, v); p = peak.Load() {
			}
			defer now.Add(-1)
			return base.Complete(ctx, req)
		})
		c := model.WithConcurrency(counting, n)
		var wg sync.WaitGroup
		for range 40 {
			wg.Go(func() {
				if _, err := c.Complete(t.Context(), ask("q")); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if p := peak.Load(); p != int32(n) {
			t.Errorf("n=%d: peak %d in flight", n, p)
		}
	}
	t.Run("cancel while queued", func(t *testing.T) {
		srv := modeltest.NewServer(t, modeltest.Config{Latency: 5 * time.Second})
		c := model.WithConcurrency(newClient(t, model.Options{BaseURL: srv.BaseURL()}), 1)
		go c.Complete(t.Context(), ask("holds the slot"))
		for srv.Count() == 0 {
			time.Sleep(time.Millisecond)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		defer cancel()
		if _, err := c.Complete(ctx, ask("q")); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%v", err)
		}
	})
}
