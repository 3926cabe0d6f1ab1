package cache_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/paperlens/paperlens/retrieve/embed"
	"github.com/paperlens/paperlens/retrieve/embed/cache"
	"github.com/paperlens/paperlens/retrieve/embed/lsa"
)

func ExampleWrap() {
	passages := []string{"sparse retrieval with BM25", "dense retrieval with an encoder", "retrieval augmented generation"}
	m, err := lsa.Fit(passages, lsa.Options{})
	if err != nil {
		panic(err)
	}
	dir, _ := os.MkdirTemp("", "cache-example")
	defer os.RemoveAll(dir)

	c, err := cache.Wrap(m, filepath.Join(dir, "embeddings.db"))
	if err != nil {
		panic(err)
	}
	defer c.Close()
	ctx := context.Background()
	c.Embed(ctx, passages, embed.Passage) // embeds all three
	c.Embed(ctx, passages, embed.Passage) // answers from the file
	fmt.Printf("%+v\n", c.Stats())
	// Output: {Hits:3 Misses:3 Embedded:3}
}
