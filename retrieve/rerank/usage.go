package rerank

import (
	"context"
	"sync"

	"github.com/paperlens/paperlens/model"
)

// Usage adds up the tokens an LLM reranker's calls used, so that a run can
// count what reranking a question cost beside what answering it cost.
type Usage struct {
	mu sync.Mutex
	u  model.Usage
}

// Total is the usage counted so far.
func (c *Usage) Total() model.Usage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.u
}

func (c *Usage) add(u model.Usage) {
	c.mu.Lock()
	c.u = c.u.Add(u)
	c.mu.Unlock()
}

type usageKey struct{}

// CountUsage returns a context under which the LLM reranker adds the
// usage of every call it makes (served from the cache or not: a rerun
// counts what the first run paid) to c.
func CountUsage(ctx context.Context, c *Usage) context.Context {
	return context.WithValue(ctx, usageKey{}, c)
}

func countUsage(ctx context.Context, u model.Usage) {
	if c, ok := ctx.Value(usageKey{}).(*Usage); ok && c != nil {
		c.add(u)
	}
}
