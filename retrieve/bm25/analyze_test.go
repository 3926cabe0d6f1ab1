package bm25

import (
	"sync/atomic"
	"testing"
)

// eachChunk visits every index exactly once, inline or on the pool.
func TestEachChunk(t *testing.T) {
	for _, c := range []struct{ n, size int }{{0, 16}, {1, 16}, {31, 16}, {32, 16}, {1000, 64}, {1001, 7}} {
		seen := make([]atomic.Int32, c.n)
		eachChunk(c.n, c.size, func(i int) { seen[i].Add(1) })
		for i := range seen {
			if v := seen[i].Load(); v != 1 {
				t.Fatalf("n=%d size=%d: index %d visited %d times", c.n, c.size, i, v)
			}
		}
	}
}
