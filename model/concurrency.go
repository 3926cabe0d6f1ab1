package model

import (
	"context"
	"fmt"
)

// WithConcurrency lets at most n calls into c at once; the others wait for
// a free slot or for their ctx to end. n ≤ 0 means no limit (c itself).
// It is a semaphore rather than a worker pool, so callers keep their own
// goroutines and contexts, and waiting does not count against WithRetry's
// AttemptTimeout.
func WithConcurrency(c Chat, n int) Chat {
	if n <= 0 {
		return c
	}
	return &gate{next: c, slots: make(chan struct{}, n)}
}

type gate struct {
	next  Chat
	slots chan struct{}
}

func (g *gate) Complete(ctx context.Context, req Request) (Response, error) {
	select {
	case g.slots <- struct{}{}:
	default:
		admitted := Queued(ctx)
		select {
		case g.slots <- struct{}{}:
			admitted()
		case <-ctx.Done():
			admitted()
			return Response{}, fmt.Errorf("waiting for a free slot: %w", context.Cause(ctx))
		}
	}
	defer func() { <-g.slots }()
	return g.next.Complete(ctx, req)
}
