package model_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/paperlens/paperlens/model"
)

// Cases the rate.Limiter underneath does not cover by itself, in a synctest
// bubble like TestRateLimitSchedule.
func TestRateLimitQueue(t *testing.T) {
	// 90 RPM holds one second's worth, 1.5 requests, and refills 1.5 a
	// second: the half request left after the first call is kept.
	t.Run("a fractional burst", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			rec := &recorder{start: time.Now()}
			c := model.WithRateLimit(rec, 90, 0)
			for range 4 {
				go c.Complete(t.Context(), ask("q"))
				synctest.Wait()
			}
			time.Sleep(time.Minute)
			got := rec.snapshot()
			want := []time.Duration{0, time.Second / 3, time.Second, 5 * time.Second / 3}
			if len(got) != len(want) {
				t.Fatalf("starts %v, want %v", got, want)
			}
			for i := range want {
				if d := got[i] - want[i]; d < -time.Microsecond || d > time.Microsecond {
					t.Fatalf("starts %v, want %v", got, want)
				}
			}
		})
	})
	// A caller that gives up in the middle of the queue took nothing, so
	// the one behind it moves up to its turn.
	t.Run("a cancel inside the queue", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			rec := &recorder{start: time.Now()}
			c := model.WithRateLimit(rec, 60, 0)
			c.Complete(t.Context(), ask("a")) // t=0
			ctx, cancel := context.WithCancel(t.Context())
			errc := make(chan error, 1)
			go func() {
				_, err := c.Complete(ctx, ask("b")) // would go at t=1
				errc <- err
			}()
			synctest.Wait()
			go c.Complete(t.Context(), ask("c")) // behind b
			synctest.Wait()
			time.Sleep(500 * time.Millisecond)
			cancel()
			if err := <-errc; !errors.Is(err, context.Canceled) {
				t.Fatalf("b: %v", err)
			}
			time.Sleep(time.Minute)
			if got := rec.snapshot(); len(got) != 2 || got[1] != time.Second {
				t.Errorf("starts %v, want [0s 1s]", got)
			}
		})
	})
	// Both limits are charged at the call's one start: a call held back by
	// TPM is counted against RPM when it goes, not when RPM alone would
	// have let it, or the call after it could follow sooner than RPM
	// allows.
	t.Run("one start for both limits", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			rec := &recorder{start: time.Now()}
			// RPM 60: a burst of 1, one a second. TPM 120: a burst of 2,
			// two a second.
			tok := func(n int) model.Request {
				return model.Request{Model: "m", Messages: []model.Message{{Content: strings.Repeat("x", 4*n)}}}
			}
			c := model.WithRateLimit(rec, 60, 120)
			for _, r := range []model.Request{tok(1), tok(5), tok(1), tok(1)} {
				go c.Complete(t.Context(), r)
				synctest.Wait()
			}
			time.Sleep(time.Minute)
			// 0: TPM 2 → 1. 1 s: RPM's turn; 5 tokens from a full TPM
			// leave it at -3. 3 s: TPM back at 1. 4 s: RPM, charged at
			// 3 s, has one again (TPM alone would allow 3.5 s).
			got, want := rec.snapshot(), seconds(0, 1, 3, 4)
			if len(got) != len(want) {
				t.Fatalf("starts %v, want %v", got, want)
			}
			for i := range want {
				if d := got[i] - want[i]; d < -time.Microsecond || d > time.Microsecond {
					t.Fatalf("starts %v, want %v", got, want)
				}
			}
		})
	})
}

// snapshot is a copy of the starts so far, taken under the lock.
func (r *recorder) snapshot() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.starts)
}
