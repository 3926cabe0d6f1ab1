package model

import (
	"context"
	"fmt"
	"math"
	"time"

	"golang.org/x/time/rate"
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
//
// The buckets are golang.org/x/time/rate Limiters. What is added here is
// what rate.Limiter does not do: one start for both buckets (a call goes
// when both have room and is charged to both at that instant), the
// oversized request above (rate.Limiter refuses more than its burst), and a
// queue whose cancelled waiters leave nothing behind (a cancelled
// rate.Reservation gives back only what no later reservation has counted
// on, so a queue cancelled out of order would leave a phantom schedule).
// Time queued here does not count against WithRetry's AttemptTimeout.
func WithRateLimit(c Chat, rpm, tpm int) Chat {
	if rpm <= 0 && tpm <= 0 {
		return c
	}
	l := &limiter{next: c, turn: make(chan struct{}, 1)}
	if rpm > 0 {
		l.req = newBucket(rpm)
	}
	if tpm > 0 {
		l.tok = newBucket(tpm)
	}
	return l
}

// EstimateTokens is the token count WithRateLimit charges a request: all
// message text in bytes / 4 (about right for English under GPT tokenizers)
// plus MaxTokens. Tool calls in the messages and the tools' descriptions
// and schemas are prompt text too.
func EstimateTokens(req Request) int {
	n := 0
	for _, m := range req.Messages {
		n += len(m.Content) + len(m.Role)
		for _, c := range m.ToolCalls {
			n += len(c.Function.Name) + len(c.Function.Arguments)
		}
	}
	for _, t := range req.Tools {
		n += len(t.Function.Name) + len(t.Function.Description) + len(t.Function.Parameters)
	}
	return n/4 + max(req.MaxTokens, 0)
}

// unit is what a bucket counts one request or token as: sixtieths, so that
// a per-minute limit is a whole number per second and the one second's
// worth a bucket holds, perMinute/60, is a whole number too (rate.Limiter's
// burst is an int; 90 RPM holds 1.5 requests).
const unit = 60

func newBucket(perMinute int) *rate.Limiter {
	return rate.NewLimiter(rate.Limit(perMinute), max(unit, perMinute))
}

type limiter struct {
	next Chat
	// turn is held by the one caller waiting for the buckets; the others
	// queue for it in arrival order (a channel's waiting senders are served
	// first in, first out), so a small request does not overtake a large
	// one starved of tokens. A caller that gives up has taken nothing.
	turn     chan struct{}
	req, tok *rate.Limiter // nil: unlimited
}

func (l *limiter) Complete(ctx context.Context, req Request) (Response, error) {
	if err := ctx.Err(); err != nil {
		return Response{}, context.Cause(ctx)
	}
	if err := l.admit(ctx, EstimateTokens(req)); err != nil {
		return Response{}, fmt.Errorf("waiting for the rate limit: %w", err)
	}
	return l.next.Complete(ctx, req)
}

// admit waits for the caller's turn, then until both buckets have room,
// and charges them.
func (l *limiter) admit(ctx context.Context, tokens int) error {
	var admitted func() // set once the call waits
	defer func() {
		if admitted != nil {
			admitted()
		}
	}()
	select {
	case l.turn <- struct{}{}:
	default:
		admitted = Queued(ctx)
		select {
		case l.turn <- struct{}{}:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
	defer func() { <-l.turn }()
	n := tokens * unit
	for {
		now := time.Now()
		wait := max(delay(l.req, now, unit), delay(l.tok, now, n))
		if wait <= 0 {
			take(l.req, now, unit)
			take(l.tok, now, n)
			return nil
		}
		if admitted == nil {
			admitted = Queued(ctx)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return context.Cause(ctx)
		case <-t.C:
		}
	}
}

// delay is how long from now until b holds n, or as much as it can hold
// when n is more (the oversized request goes when the bucket is full); 0
// for no bucket. It rounds up, so that after the wait b has the room.
func delay(b *rate.Limiter, now time.Time, n int) time.Duration {
	if b == nil {
		return 0
	}
	need := float64(min(n, b.Burst()))
	have := b.TokensAt(now)
	if have >= need {
		return 0
	}
	return time.Duration(math.Ceil((need - have) / float64(b.Limit()) * float64(time.Second)))
}

// take charges n to b at now. rate.Limiter takes at most its burst at once,
// so an oversized n goes in parts, the later ones into debt; what they
// would have waited is ignored, since the call starts now.
func take(b *rate.Limiter, now time.Time, n int) {
	if b == nil {
		return
	}
	for burst := b.Burst(); n > 0; n -= burst {
		b.ReserveN(now, min(n, burst))
	}
}
