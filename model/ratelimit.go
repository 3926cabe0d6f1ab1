package model

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// WithRateLimit lets calls through to c at no more than rpm requests and
// tpm tokens per minute; 0 leaves that dimension unlimited. Callers over
// the limit wait their turn, first come first served; a cancelled ctx ends
// the wait.
//
// Tokens are estimated before the call, as OpenAI does for its own limits:
// EstimateTokens, the message text in bytes / 4 plus MaxTokens. A request
// with MaxTokens 0 counts only its prompt.
//
// Burst: each limit is a token bucket refilled continuously at rpm/60 (or
// tpm/60) per second, holding at most one second's worth (at least one
// request). So a burst of callers is let through one second's worth at
// once and then paced evenly, and any 60-second window sees at most rpm +
// rpm/60 requests. (A bucket holding a whole minute would allow twice the
// limit in a minute straddling the refill.) A request estimated at more
// tokens than the bucket holds is let through once the bucket is full and
// leaves it in debt, so later ones wait until the average is back under tpm;
// it is never refused.
func WithRateLimit(c Chat, rpm, tpm int) Chat {
	if rpm <= 0 && tpm <= 0 {
		return c
	}
	l := &limiter{next: c}
	if rpm > 0 {
		l.req = newBucket(float64(rpm) / 60)
	}
	if tpm > 0 {
		l.tok = newBucket(float64(tpm) / 60)
	}
	return l
}

// EstimateTokens is the token count WithRateLimit charges a request: all
// message text in bytes / 4 (about right for English under GPT tokenizers)
// plus MaxTokens.
func EstimateTokens(req Request) int {
	n := 0
	for _, m := range req.Messages {
		n += len(m.Content) + len(m.Role)
	}
	return n/4 + max(req.MaxTokens, 0)
}

type limiter struct {
	next Chat

	mu       sync.Mutex
	req, tok *bucket // nil: unlimited
	waiting  int     // reservations whose start is still ahead
}

// bucket is a token bucket whose takes are scheduled: at is the time of the
// latest scheduled take, possibly in the future, and level the content just
// after it, possibly negative (debt).
type bucket struct {
	rate  float64 // per second
	cap   float64
	level float64
	at    time.Time
}

func newBucket(perSecond float64) *bucket {
	return &bucket{rate: perSecond, cap: max(1, perSecond), level: max(1, perSecond)}
}

// levelAt is the content at t ≥ b.at.
func (b *bucket) levelAt(t time.Time) float64 {
	if b.at.IsZero() {
		return b.level
	}
	return min(b.cap, b.level+t.Sub(b.at).Seconds()*b.rate)
}

// readyAt is the earliest time ≥ t at which n can be taken.
func (b *bucket) readyAt(t time.Time, n float64) time.Time {
	need := min(n, b.cap)
	if l := b.levelAt(t); l < need {
		t = t.Add(time.Duration((need - l) / b.rate * float64(time.Second)))
	}
	return t
}

func (b *bucket) take(t time.Time, n float64) {
	b.level = b.levelAt(t) - n
	b.at = t
}

// reserve schedules a call costing tokens and returns when it may start.
// Calls start in the order they reserve, so a small request does not
// overtake a large one starved of tokens.
func (l *limiter) reserve(now time.Time, tokens float64) time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	start := now
	for _, b := range []*bucket{l.req, l.tok} {
		if b != nil && b.at.After(start) {
			start = b.at
		}
	}
	if l.req != nil {
		start = l.req.readyAt(start, 1)
	}
	if l.tok != nil {
		start = l.tok.readyAt(start, tokens)
	}
	if l.req != nil {
		l.req.take(start, 1)
	}
	if l.tok != nil {
		l.tok.take(start, tokens)
	}
	if start.After(now) {
		l.waiting++
	}
	return start
}

// started records that a reservation's wait ended.
func (l *limiter) started() {
	l.mu.Lock()
	l.waiting--
	l.mu.Unlock()
}

// unreserve gives back what a cancelled wait took, so that an abandoned
// call does not slow the others. The level is the one at the latest
// scheduled start, so it is not capped here (levelAt caps it). When no one
// is left waiting, the schedule is brought back to now: otherwise a batch
// of cancelled waiters (a run interrupted and resumed on the same limiter)
// would leave the next caller queued behind starts that will never happen.
func (l *limiter) unreserve(now time.Time, tokens float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.waiting--
	for _, x := range []struct {
		b *bucket
		n float64
	}{{l.req, 1}, {l.tok, tokens}} {
		if x.b == nil {
			continue
		}
		x.b.level += x.n
		if l.waiting == 0 && x.b.at.After(now) {
			// Nothing is scheduled after now but refill: run it backwards.
			x.b.level = min(x.b.cap, x.b.level-x.b.at.Sub(now).Seconds()*x.b.rate)
			x.b.at = now
		}
	}
}

func (l *limiter) Complete(ctx context.Context, req Request) (Response, error) {
	if err := ctx.Err(); err != nil {
		return Response{}, context.Cause(ctx)
	}
	tokens := float64(EstimateTokens(req))
	now := time.Now()
	if wait := l.reserve(now, tokens).Sub(now); wait > 0 {
		admitted := Queued(ctx)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			admitted()
			l.unreserve(time.Now(), tokens)
			return Response{}, fmt.Errorf("waiting for the rate limit: %w", context.Cause(ctx))
		case <-t.C:
		}
		l.started()
		admitted()
	}
	return l.next.Complete(ctx, req)
}
