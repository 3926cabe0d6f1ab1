package cache_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/paperlens/paperlens/retrieve/embed"
	"github.com/paperlens/paperlens/retrieve/embed/cache"
)

// Read-only caches answer what was stored, side by side; what they lack
// they embed and do not store, so the file stays as the writer left it.
func TestReadOnly(t *testing.T) {
	// In a synctest bubble the lock timeout's polling sleeps advance a fake
	// clock: an open that must give up does so at once, not after the
	// real timeout.
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		path := filepath.Join(t.TempDir(), "sub", "c.db")
		inner := &fake{name: "m", dim: 4}

		// No file yet: an empty cache, and none is created.
		c0, err := cache.WrapReadOnly(inner, path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c0.Embed(ctx, []string{"x"}, embed.Query); err != nil {
			t.Fatal(err)
		}
		c0.Close()
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("a read-only cache created %s: %v", path, err)
		}

		w := wrap(t, inner, path)
		stored := texts(5)
		want, err := w.Embed(ctx, stored, embed.Passage)
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
		fi, _ := os.Stat(path)

		r1, err := cache.WrapReadOnly(inner, path)
		if err != nil {
			t.Fatal(err)
		}
		defer r1.Close()
		r2, err := cache.WrapReadOnly(inner, path)
		if err != nil {
			t.Fatal(err)
		}
		defer r2.Close()
		before := inner.calls
		for _, r := range []*cache.Cached{r1, r2} {
			got, err := r.Embed(ctx, stored, embed.Passage)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("read-only lookup: %v, %v", got, err)
			}
			if r.Dim() != 4 {
				t.Errorf("Dim %d", r.Dim())
			}
		}
		if inner.calls != before {
			t.Errorf("stored texts reached the embedder %d times", inner.calls-before)
		}
		// A miss is embedded each time it is asked for: nothing is written.
		q := []string{"a question"}
		for range 2 {
			got, err := r1.Embed(ctx, q, embed.Query)
			if err != nil || len(got) != 1 || !reflect.DeepEqual(got[0], vec("m", embed.Query, q[0], 4)) {
				t.Fatalf("read-only miss: %v, %v", got, err)
			}
		}
		if s := r1.Stats(); s.Misses != 2 || s.Embedded != 2 || s.Hits != 5 {
			t.Errorf("stats %+v, want 5 hits, 2 misses, 2 embedded", s)
		}
		if fi2, _ := os.Stat(path); fi2.ModTime() != fi.ModTime() || fi2.Size() != fi.Size() {
			t.Errorf("read-only caches changed the file")
		}

		// A writer waits for the readers and gives up with an error (when is
		// bolt's timeout, not timed here: a busy machine stretches it).
		if _, err := cache.Wrap(inner, path); err == nil || !strings.Contains(err.Error(), "in use") {
			t.Errorf("writer while readers hold the cache: %v", err)
		}
	})
}

// A reader that finds a writer holding the cache says so instead of hanging.
func TestReadOnlyBlockedByWriter(t *testing.T) {
	// In a synctest bubble the lock timeout's polling sleeps advance a fake
	// clock: an open that must give up does so at once, not after the
	// real timeout.
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "c.db")
		w := wrap(t, &fake{name: "m", dim: 1}, path)
		defer w.Close()
		_, err := cache.WrapReadOnly(&fake{name: "m", dim: 1}, path)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "wait for it") {
			t.Fatalf("reader while a writer holds the cache: %v", err)
		}
	})
}
