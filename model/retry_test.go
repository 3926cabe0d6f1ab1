package model_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/model"
)

// script is a Chat failing with errs in turn, then answering; it stands in
// for any inner layer. A nil entry answers; errStall blocks until the
// attempt's context ends, as a stalled connection does.
type script struct {
	errs  []error
	calls atomic.Int32
}

var errStall = errors.New("stall")

func (s *script) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	n := int(s.calls.Add(1))
	if n <= len(s.errs) && s.errs[n-1] != nil {
		if s.errs[n-1] == errStall {
			<-ctx.Done()
			return model.Response{}, fmt.Errorf("stalled call: %w", context.Cause(ctx))
		}
		return model.Response{}, s.errs[n-1]
	}
	return model.Response{Content: "ok", Attempts: 1}, nil
}

func httpErr(code int, retryAfter time.Duration) error {
	return &model.HTTPError{StatusCode: code, URL: "http://fake/v1/chat/completions", RetryAfter: retryAfter, Hint: "hint for " + fmt.Sprint(code)}
}

// Timings run in a synctest bubble: its clock jumps while every goroutine
// waits, so a 31-second backoff schedule is checked exactly and at once.
// time.Now and time.Since read that fake clock there, not the wall's: the
// elapsed times below are the schedule's, the same on any machine.
func TestRetrySchedule(t *testing.T) {
	nojitter := model.RetryOptions{Jitter: -1}
	cases := []struct {
		name         string
		opts         model.RetryOptions
		errs         []error
		wantErr      []string // substrings; none means success
		wantAttempts int
		wantElapsed  time.Duration
	}{
		{"5xx retried, backoff doubles from MinBackoff", nojitter, []error{httpErr(500, 0), httpErr(502, 0)}, nil, 3, 3 * time.Second},
		{"408 and malformed retried", nojitter, []error{httpErr(408, 0), &model.MalformedError{URL: "u", Reason: "cut"}}, nil, 3, 3 * time.Second},
		{"Retry-After is a floor", nojitter, []error{httpErr(429, 5*time.Second)}, nil, 2, 5 * time.Second},
		{"Retry-After 0 leaves the backoff", nojitter, []error{httpErr(429, 0)}, nil, 2, time.Second},
		{"Retry-After beyond MaxRetryAfter fails at once", nojitter, []error{httpErr(429, time.Hour)},
			[]string{"asks to wait 1h0m0s, more than MaxRetryAfter 10m0s", "not retried"}, 1, 0},
		{"gives up after MaxAttempts with the last cause", nojitter,
			[]error{httpErr(500, 0), httpErr(500, 0), httpErr(500, 0), httpErr(500, 0), httpErr(500, 0), httpErr(503, 0)},
			[]string{"fake-model: gave up after 6 attempts in 31s; last error: 503 Service Unavailable from http://fake"}, 6, 31 * time.Second},
		{"MaxBackoff caps the doubling", model.RetryOptions{Jitter: -1, MinBackoff: 10 * time.Second, MaxBackoff: 15 * time.Second, MaxAttempts: 4},
			[]error{httpErr(500, 0), httpErr(500, 0), httpErr(500, 0)}, nil, 4, 40 * time.Second},
		{"401 not retried, says what to check", nojitter, []error{httpErr(401, 0)}, []string{"401 Unauthorized", "hint for 401", "(not retried)"}, 1, 0},
		{"400, 403, 404 not retried", nojitter, []error{httpErr(404, 0)}, []string{"404"}, 1, 0},
		{"unclassified errors are final", nojitter, []error{errors.New("bug")}, []string{"bug"}, 1, 0},
		{"stall ends at AttemptTimeout and is retried", model.RetryOptions{Jitter: -1, AttemptTimeout: 30 * time.Second},
			[]error{errStall}, nil, 2, 31 * time.Second},
		{"MaxAttempts 1 means no retry", model.RetryOptions{MaxAttempts: 1}, []error{httpErr(500, 0)}, []string{"gave up after 1 attempt in"}, 1, 0},
		{"full jitter waits at most the ceiling", model.RetryOptions{}, []error{httpErr(500, 0), httpErr(500, 0)}, nil, 3, -3 * time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				inner := &script{errs: tc.errs}
				c := model.WithRetry(inner, tc.opts)
				start := time.Now()
				resp, err := c.Complete(t.Context(), ask("q"))
				// The bubble's fake clock: the waits the retries chose, exactly.
				waited := time.Since(start)
				if int(inner.calls.Load()) != tc.wantAttempts {
					t.Errorf("%d calls, want %d", inner.calls.Load(), tc.wantAttempts)
				}
				switch {
				case tc.wantElapsed < 0 && waited > -tc.wantElapsed:
					t.Errorf("waited %v, more than %v", waited, -tc.wantElapsed)
				case tc.wantElapsed >= 0 && waited != tc.wantElapsed:
					t.Errorf("waited %v, want %v", waited, tc.wantElapsed)
				}
				if tc.wantErr == nil {
					if err != nil || resp.Attempts != tc.wantAttempts {
						t.Fatalf("err %v, attempts %d", err, resp.Attempts)
					}
					return
				}
				var re *model.RetryError
				if !errors.As(err, &re) || re.Attempts != tc.wantAttempts {
					t.Fatalf("want a RetryError after %d attempts, got %T %v", tc.wantAttempts, err, err)
				}
				for _, w := range tc.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("%q lacks %q", err, w)
					}
				}
			})
		})
	}
}

// Cancelling the caller's context ends a backoff wait at once, and the
// error says both why it stopped and what had failed.
func TestRetryStopsOnCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inner := &script{errs: []error{httpErr(429, 50*time.Second), httpErr(429, 0)}}
		c := model.WithRetry(inner, model.RetryOptions{})
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(3*time.Second, cancel)
		start := time.Now()
		_, err := c.Complete(ctx, ask("q"))
		if !errors.Is(err, context.Canceled) || time.Since(start) != 3*time.Second || inner.calls.Load() != 1 {
			t.Errorf("after %v and %d calls: %v", time.Since(start), inner.calls.Load(), err)
		}
		if !strings.Contains(err.Error(), "429") {
			t.Errorf("error does not quote the last failure: %v", err)
		}
	})
}

// Time spent queued for a concurrency slot is not a stall: with one slot,
// a 20 s call and a 30 s AttemptTimeout, five callers all succeed at the
// first attempt though the last waits 80 s for its turn.
func TestAttemptTimeoutExcludesQueueing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		slow := model.ChatFunc(func(ctx context.Context, req model.Request) (model.Response, error) {
			select {
			case <-time.After(20 * time.Second):
				return model.Response{Content: "ok", Attempts: 1}, nil
			case <-ctx.Done():
				return model.Response{}, context.Cause(ctx)
			}
		})
		c := model.WithRetry(model.WithRateLimit(model.WithConcurrency(slow, 1), 600, 0),
			model.RetryOptions{AttemptTimeout: 30 * time.Second})
		errs := make(chan error, 5)
		for range 5 {
			go func() {
				resp, err := c.Complete(t.Context(), ask("q"))
				if err == nil && resp.Attempts != 1 {
					err = fmt.Errorf("%d attempts", resp.Attempts)
				}
				errs <- err
			}()
		}
		for range 5 {
			if err := <-errs; err != nil {
				t.Error(err)
			}
		}
	})
}

// The fake stands in for OpenAI rate-limiting, rejecting a key, and
// stalling: the retry decorator over the real HTTP client.
//
// The cancelling cases cancel on an event, never after a delay: a timer
// could fire before the request reached the loopback server on a loaded
// machine (0 requests seen), or, for the Retry-After case, before the 429
// came back. cancelOnRetry cancels when WithRetry is about to wait, i.e.
// the 429 is in hand; cancelReceived cancels from inside the server's
// handler, once the request is counted and before it starts to stall.
func TestRetryAgainstServer(t *testing.T) {
	const (
		cancelNever = iota
		cancelOnRetry
		cancelReceived
	)
	// No elapsed time is asserted (the clock is the wall's here): each
	// case checks what made it wait instead. minWait is the least every
	// wait WithRetry chose may be (a Retry-After is a floor), and
	// retriedOn is what the first failure, passed to OnRetry, must say.
	// The cancelling cases would end in a success after 30 s if the cancel
	// did not cut the wait or the stall short; they expect an error.
	cases := []struct {
		name         string
		cfg          modeltest.Config
		opts         model.RetryOptions
		cancel       int
		wantErr      []string
		wantRequests int
		minWait      time.Duration
		retriedOn    string
	}{
		{"Retry-After: 1 honoured", modeltest.Config{Inject: firstN(1, &modeltest.Fault{Kind: modeltest.RateLimited,
			Header: map[string]string{"Retry-After": "1"}})}, model.RetryOptions{MinBackoff: time.Millisecond},
			cancelNever, nil, 2, time.Second, "429"},
		{"retry-after-ms honoured", modeltest.Config{Inject: firstN(2, &modeltest.Fault{Kind: modeltest.RateLimited,
			Header: map[string]string{"Retry-After-Ms": "150"}})}, model.RetryOptions{MinBackoff: time.Millisecond},
			cancelNever, nil, 3, 150 * time.Millisecond, "429"},
		{"401 not retried", modeltest.Config{Key: "right"}, model.RetryOptions{MinBackoff: time.Millisecond},
			cancelNever, []string{"401 Unauthorized from http://127.0.0.1:", "/v1/chat/completions", "check the API key in $OPENAI_API_KEY", "not retried"}, 1, 0, ""},
		{"30 s stall cut at AttemptTimeout 1s", modeltest.Config{Inject: firstN(1, &modeltest.Fault{Kind: modeltest.Stall, Stall: 30 * time.Second})},
			model.RetryOptions{MinBackoff: time.Millisecond, AttemptTimeout: time.Second},
			cancelNever, nil, 2, 0, "no complete response within 1s (AttemptTimeout)"},
		{"cancel during a 30 s Retry-After", modeltest.Config{Inject: firstN(1, &modeltest.Fault{Kind: modeltest.RateLimited,
			Header: map[string]string{"Retry-After": "30"}})}, model.RetryOptions{},
			cancelOnRetry, []string{"context canceled", "429"}, 1, 30 * time.Second, "429"},
		{"cancel during a stall", modeltest.Config{Faults: modeltest.Faults{Stall: 1}}, model.RetryOptions{},
			cancelReceived, []string{"context canceled"}, 1, 0, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			cfg, opts := tc.cfg, tc.opts
			var waits []time.Duration
			var retried []error
			opts.OnRetry = func(_ model.Request, _ int, wait time.Duration, err error) {
				waits, retried = append(waits, wait), append(retried, err)
				if tc.cancel == cancelOnRetry {
					cancel()
				}
			}
			switch tc.cancel {
			case cancelReceived:
				inject := cfg.Inject
				cfg.Inject = func(r modeltest.Request) *modeltest.Fault {
					cancel()
					if inject != nil {
						return inject(r)
					}
					return nil
				}
			}
			srv := modeltest.NewServer(t, cfg)
			c := model.WithRetry(newClient(t, model.Options{BaseURL: srv.BaseURL(), APIKey: "wrong", APIKeyEnv: "$OPENAI_API_KEY"}), opts)
			resp, err := c.Complete(ctx, ask("q"))
			for _, w := range waits {
				if w < tc.minWait {
					t.Errorf("waited %v before a retry, want at least %v", w, tc.minWait)
				}
			}
			if tc.retriedOn != "" && (len(retried) == 0 || !strings.Contains(retried[0].Error(), tc.retriedOn)) {
				t.Errorf("retried after %v, want an error saying %q", retried, tc.retriedOn)
			}
			if n := srv.Count(); n != tc.wantRequests {
				t.Errorf("%d requests, want %d", n, tc.wantRequests)
			}
			if tc.wantErr == nil {
				if err != nil || resp.Attempts != tc.wantRequests || resp.Content != "answer: q" {
					t.Fatalf("%+v %v", resp, err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err, w)
				}
			}
		})
	}
}

// firstN injects f into the first n calls of each prompt.
func firstN(n int, f *modeltest.Fault) func(modeltest.Request) *modeltest.Fault {
	return func(r modeltest.Request) *modeltest.Fault {
		if r.Attempt <= n {
			return f
		}
		return nil
	}
}
