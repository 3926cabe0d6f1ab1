package model

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/paperlens/paperlens/internal/httpx"
)

// Defaults for zero RetryOptions fields.
const (
	DefaultMaxAttempts = 6
	DefaultMinBackoff  = time.Second
	DefaultMaxBackoff  = 60 * time.Second
	// DefaultAttemptTimeout matches DefaultTimeout: a reasoning model that
	// thinks for eight minutes is slow, not stalled, and abandoning it
	// would pay for the tokens twice. Lower it for fast models.
	DefaultAttemptTimeout = 10 * time.Minute
	// DefaultMaxRetryAfter is the longest Retry-After waited out; a server
	// asking for more (a daily quota) fails the call at once instead of
	// parking every worker for hours.
	DefaultMaxRetryAfter = 10 * time.Minute
)

// RetryOptions configure WithRetry. The zero value means the defaults.
type RetryOptions struct {
	// MaxAttempts is the number of calls in all, the first included
	// (DefaultMaxAttempts); 1 means no retry. internal/httpx compares it
	// with the other clients' knobs (MaxRetries, Retry).
	MaxAttempts int
	// MinBackoff is the ceiling of the first backoff; it doubles after each
	// failure up to MaxBackoff (DefaultMinBackoff, DefaultMaxBackoff).
	MinBackoff, MaxBackoff time.Duration
	// Jitter is the fraction of each backoff ceiling drawn at random: a
	// wait is ceiling × (1 − Jitter × U), U uniform in [0, 1). 0 means 1,
	// full jitter (a wait anywhere in [0, ceiling]), which spreads out
	// workers that failed together so they do not come back together.
	// Negative means none (waits exactly the ceiling, for tests).
	Jitter float64
	// AttemptTimeout bounds one attempt (DefaultAttemptTimeout); a call
	// past it is abandoned and retried, which is what gets a run past a
	// stalled connection. Time spent queued in WithRateLimit or
	// WithConcurrency below does not count (see Queued). Negative means no
	// limit of its own.
	AttemptTimeout time.Duration
	// MaxRetryAfter is the longest Retry-After honoured
	// (DefaultMaxRetryAfter); a longer one ends the call with the error.
	MaxRetryAfter time.Duration
	// OnRetry, when set, is called before each wait, e.g. to log it.
	OnRetry func(req Request, attempt int, wait time.Duration, err error)
}

// WithRetry retries c's retryable failures (see Retryable): HTTP 408, 409,
// 425, 429, 5xx, timeouts and stalls, dropped connections, malformed
// replies. Waits grow exponentially with full jitter and are never shorter
// than the server's Retry-After. HTTP 400, 401, 403, 404 and the like fail
// at once with a hint at what to check. The final error is a *RetryError
// wrapping the last cause; a cancelled ctx ends the waiting at once.
func WithRetry(c Chat, o RetryOptions) Chat {
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = DefaultMaxAttempts
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = DefaultMinBackoff
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultMaxBackoff
	}
	o.MaxBackoff = max(o.MaxBackoff, o.MinBackoff)
	switch {
	case o.Jitter == 0:
		o.Jitter = 1
	case o.Jitter < 0:
		o.Jitter = 0
	case o.Jitter > 1:
		o.Jitter = 1
	}
	if o.AttemptTimeout == 0 {
		o.AttemptTimeout = DefaultAttemptTimeout
	}
	if o.MaxRetryAfter <= 0 {
		o.MaxRetryAfter = DefaultMaxRetryAfter
	}
	return &retrier{next: c, o: o}
}

type retrier struct {
	next Chat
	o    RetryOptions
}

func (r *retrier) Complete(ctx context.Context, req Request) (Response, error) {
	if err := validate(req); err != nil {
		return Response{}, err
	}
	p := httpx.Policy{
		MaxAttempts: r.o.MaxAttempts, MinBackoff: r.o.MinBackoff, MaxBackoff: r.o.MaxBackoff,
		Jitter: r.o.Jitter, MaxRetryAfter: r.o.MaxRetryAfter, Retryable: Retryable,
	}
	if r.o.OnRetry != nil {
		p.OnRetry = func(attempt int, wait time.Duration, err error) { r.o.OnRetry(req, attempt, wait, err) }
	}
	var resp Response
	out, err := httpx.Retry(ctx, p, func(ctx context.Context) error {
		var err error
		resp, err = r.once(ctx, req)
		return err
	})
	switch {
	case err == nil:
		resp.Attempts = out.Attempts
		return resp, nil
	case out.Cancelled:
		return Response{}, r.cancelled(ctx, req, out.Attempts, err)
	case out.TooLong > 0:
		err = fmt.Errorf("%w (the server asks to wait %v, more than MaxRetryAfter %v)", err, out.TooLong, r.o.MaxRetryAfter)
	}
	return Response{}, &RetryError{Model: req.Model, Attempts: out.Attempts, Elapsed: out.Elapsed, Final: out.Final, Err: err}
}

// cancelled is the error for a caller's context that ended: it wraps the
// cause (so errors.Is(err, context.Canceled) holds) and quotes the last
// failure, which is usually why the caller gave up.
func (r *retrier) cancelled(ctx context.Context, req Request, n int, last error) error {
	return fmt.Errorf("%s: %w (after %s; last error: %v)", req.Model, context.Cause(ctx), attempts(n), last)
}

// once makes one attempt under the attempt timer.
func (r *retrier) once(ctx context.Context, req Request) (Response, error) {
	if r.o.AttemptTimeout < 0 {
		return r.next.Complete(ctx, req)
	}
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	t := &attemptTimer{d: r.o.AttemptTimeout, cancel: cancel,
		cause: &TimeoutError{After: r.o.AttemptTimeout, What: "AttemptTimeout"}}
	t.start()
	defer t.stop()
	resp, err := r.next.Complete(context.WithValue(actx, attemptKey{}, t), req)
	if err != nil && ctx.Err() == nil && actx.Err() != nil {
		// The timer fired. Whatever the inner Chat made of the
		// cancellation, the attempt timed out, which is retryable.
		var te *TimeoutError
		if !errors.As(err, &te) {
			err = fmt.Errorf("%w: %w", context.Cause(actx), err)
		}
	}
	return resp, err
}

type attemptKey struct{}

// attemptTimer cancels an attempt that has run AttemptTimeout without being
// queued. Queued stops it while a gate below holds the call, and restarts
// it in full when the call is let through: waiting for a free slot is not
// a stall.
type attemptTimer struct {
	d      time.Duration
	cancel context.CancelCauseFunc
	cause  error

	mu    sync.Mutex
	t     *time.Timer
	holds int
	done  bool
}

func (a *attemptTimer) start() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.t = time.AfterFunc(a.d, func() { a.cancel(a.cause) })
}

func (a *attemptTimer) hold() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.holds == 0 && a.t != nil {
		// If Stop reports the timer already fired, the context is
		// cancelled and the gate's wait ends at once: nothing to undo.
		a.t.Stop()
		a.t = nil
	}
	a.holds++
}

func (a *attemptTimer) release() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.holds--
	if a.holds == 0 && !a.done {
		a.t = time.AfterFunc(a.d, func() { a.cancel(a.cause) })
	}
}

func (a *attemptTimer) stop() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.done = true
	if a.t != nil {
		a.t.Stop()
	}
}

// Queued tells an enclosing WithRetry that the call is about to wait in a
// queue (a rate limiter, a concurrency gate) rather than at the server, so
// its AttemptTimeout stops until the returned func is called, and then
// starts afresh. Gates written outside this package should call it around
// their waits; without an enclosing WithRetry it does nothing.
func Queued(ctx context.Context) (admitted func()) {
	t, ok := ctx.Value(attemptKey{}).(*attemptTimer)
	if !ok {
		return func() {}
	}
	t.hold()
	var once sync.Once
	return func() { once.Do(t.release) }
}
