package cache_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/paperlens/paperlens/retrieve/embed"
	"github.com/paperlens/paperlens/retrieve/embed/cache"
)

// BenchmarkHits measures answering 1000 cached 1024-dimensional vectors
// (bge-m3's size): the cost of a re-index that embeds nothing.
func BenchmarkHits(b *testing.B) {
	c, err := cache.Wrap(&fake{name: "bench", dim: 1024}, filepath.Join(b.TempDir(), "c.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	in := texts(1000)
	if _, err := c.Embed(context.Background(), in, embed.Passage); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := c.Embed(context.Background(), in, embed.Passage); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(in)*b.N)/b.Elapsed().Seconds(), "texts/s")
}
