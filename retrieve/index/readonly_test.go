package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/internal/testkit/openaitest"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/bm25"
	"github.com/paperlens/paperlens/retrieve/embed"
	"github.com/paperlens/paperlens/retrieve/embed/openai"
	"github.com/paperlens/paperlens/retrieve/vector"
)

var readOnlyQueries = []retrieve.Query{
	{Text: "parked tokens restored reservoir saliency", K: 5},
	{Text: "parked tokens restored reservoir saliency", PaperID: "tidal-token-pruning", K: 3},
	{Text: "what does the method measure and how is it evaluated?", K: 10},
	{Text: "retrieval of long papers", K: 4},
}

// searchAll runs every query through every retriever.
func searchAll(t *testing.T, ix *Index) map[string][][]retrieve.Hit {
	t.Helper()
	out := map[string][][]retrieve.Hit{}
	for _, name := range Names() {
		r, err := ix.Retriever(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range readOnlyQueries {
			hits, err := r.Search(context.Background(), q)
			if err != nil {
				t.Fatalf("%s %q: %v", name, q.Text, err)
			}
			out[name] = append(out[name], hits)
		}
	}
	return out
}

// snapshot records every file under dir with its size and modification
// time, to show that a read-only open leaves the index as it found it.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[p] = fmt.Sprint(fi.ModTime(), " ", fi.Size())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func openReadOnly(t *testing.T, home string) (*corpus.Store, *Index) {
	t.Helper()
	return openReadOnlyWith(t, Config{Home: home, ReadOnly: true})
}

// openReadOnlyBleve opens home read-only with Bleve behind bm25 within a
// paper.
func openReadOnlyBleve(t *testing.T, home string) (*corpus.Store, *Index) {
	t.Helper()
	return openReadOnlyWith(t, Config{Home: home, ReadOnly: true, BM25: Bleve})
}

func openReadOnlyWith(t *testing.T, cfg Config) (*corpus.Store, *Index) {
	t.Helper()
	st, err := corpus.Open(cfg.Home, true)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := Open(context.Background(), cfg, st)
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	return st, ix
}

// Two read-only opens of one home at once search exactly like the
// read-write index that built it, and change no file.
func TestReadOnlySearchesLikeReadWrite(t *testing.T) {
	home := t.TempDir()
	st, ix, rep := build(t, home, samplePapers(t)...)
	want := searchAll(t, ix)
	ix.Close()
	st.Close()
	before := snapshot(t, Dir(home))

	st1, ro1 := openReadOnly(t, home)
	defer st1.Close()
	defer ro1.Close()
	st2, ro2 := openReadOnly(t, home)
	defer st2.Close()
	defer ro2.Close()
	for i, ro := range []*Index{ro1, ro2} {
		if got := searchAll(t, ro); !reflect.DeepEqual(got, want) {
			t.Errorf("read-only open %d: hits differ from the read-write index's\n got %+v\nwant %+v", i+1, got, want)
		}
	}
	// Update has nothing to do, and says what is open as Update did.
	got, err := ro1.Update(context.Background(), nil)
	if err != nil || got.Embedder != rep.Embedder || got.Dim != rep.Dim || got.Store != rep.Store || got.Papers != rep.Papers {
		t.Errorf("read-only Update: %+v, %v; the build reported %+v", got, err, rep)
	}
	// Writes are refused rather than left to wait for a persister that a
	// read-only index does not run.
	if err := ro1.bleve.DeletePaper("tidal-token-pruning"); !errors.Is(err, bm25.ErrReadOnly) {
		t.Errorf("Bleve delete on a read-only index: %v", err)
	}
	if err := ro1.vec.DeletePaper(context.Background(), "tidal-token-pruning"); !errors.Is(err, vector.ErrReadOnly) {
		t.Errorf("vector delete on a read-only index: %v", err)
	}
	ro1.Close()
	ro2.Close()
	st1.Close()
	st2.Close()
	if after := snapshot(t, Dir(home)); !reflect.DeepEqual(after, before) {
		t.Errorf("read-only opens changed the index folder:\nbefore %v\nafter  %v", before, after)
	}
}

// A read-only open refuses an index that is missing or behind its corpus
// with ErrStale, so the caller knows to update it, and accepts it again
// once updated. An empty corpus, for which Update writes no Okapi file,
// opens too.
func TestReadOnlyStale(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	papers := samplePapers(t)
	st, err := corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Run(ctx, st, papers[:1], ingest.Options{MaxTokens: 128}, func(ingest.Result) {}); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, Config{Home: home, ReadOnly: true}, st); !errors.Is(err, ErrStale) {
		t.Fatalf("read-only open of a home never indexed: %v", err)
	}
	if _, err := os.Stat(Dir(home)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the read-only open created %s: %v", Dir(home), err)
	}
	update := func() {
		t.Helper()
		ix, err := Open(ctx, Config{Home: home}, st)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ix.Update(ctx, nil); err != nil {
			t.Fatal(err)
		}
		ix.Close()
	}
	update()
	ro, err := Open(ctx, Config{Home: home, ReadOnly: true}, st)
	if err != nil {
		t.Fatalf("read-only open after an update: %v", err)
	}
	ro.Close()

	// A new paper, and a re-chunked one, make it stale again.
	if _, err := ingest.Run(ctx, st, papers[1:2], ingest.Options{MaxTokens: 128}, func(ingest.Result) {}); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, Config{Home: home, ReadOnly: true}, st); !errors.Is(err, ErrStale) {
		t.Fatalf("read-only open after a paper was added: %v", err)
	}
	update()
	if _, err := ingest.Run(ctx, st, papers[:1], ingest.Options{MaxTokens: 256}, func(ingest.Result) {}); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, Config{Home: home, ReadOnly: true}, st); !errors.Is(err, ErrStale) {
		t.Fatalf("read-only open after a paper was re-chunked: %v", err)
	}
	update()
	if ro, err = Open(ctx, Config{Home: home, ReadOnly: true}, st); err != nil {
		t.Fatal(err)
	}
	ro.Close()
	st.Close()

	empty := t.TempDir()
	est, err := corpus.Open(empty, false)
	if err != nil {
		t.Fatal(err)
	}
	defer est.Close()
	ix, err := Open(ctx, Config{Home: empty}, est)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Update(ctx, nil); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	if ro, err = Open(ctx, Config{Home: empty, ReadOnly: true}, est); err != nil {
		t.Fatalf("read-only open of an indexed empty corpus: %v", err)
	}
	ro.Close()
}

// A writer that finds the index held by readers gives up with an error
// after the lock timeout instead of hanging.
func TestWriterBlockedByReaderFails(t *testing.T) {
	home := t.TempDir()
	st, ix, _ := build(t, home, samplePapers(t)...)
	ix.Close()
	ro, err := Open(context.Background(), Config{Home: home, ReadOnly: true}, st)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	// How soon it gives up is bm25.LockTimeout, stretched by a busy
	// machine, so it is not timed; what it says is checked.
	_, err = Open(context.Background(), Config{Home: home}, st)
	if err == nil {
		t.Fatal("a writer opened the index while a reader held it")
	}
	if !strings.Contains(err.Error(), "another paperlens process holds it") || !strings.Contains(err.Error(), "wait for it to finish") {
		t.Errorf("the blocked writer's error does not say what to do: %v", err)
	}
	st.Close()
}

// With a remote embedder, read-only opens share the embedding cache: passage
// vectors come from the build, query vectors are embedded and not stored,
// and the dense hits equal the read-write index's.
func TestReadOnlyOpenAIEmbedder(t *testing.T) {
	ctx := context.Background()
	srv := openaitest.NewServer(t, 8)
	cfg := Config{Embedder: "openai", EmbedModel: "test-embed", NewEmbedder: func(context.Context) (embed.Embedder, error) {
		return openai.New(openai.Options{BaseURL: srv.BaseURL(), Model: "test-embed"})
	}}
	home := t.TempDir()
	cfg.Home = home
	st, err := corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Run(ctx, st, samplePapers(t), ingest.Options{MaxTokens: 128}, func(ingest.Result) {}); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(ctx, cfg, st)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Update(ctx, nil); err != nil {
		t.Fatal(err)
	}
	want := searchAll(t, ix)
	ix.Close()
	st.Close()
	cache := filepath.Join(Dir(home), "embed-cache.db")
	fi, err := os.Stat(cache)
	if err != nil {
		t.Fatal(err)
	}

	ro := cfg
	ro.ReadOnly = true
	var opened []*Index
	for range 2 {
		st, err := corpus.Open(home, true)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		ix, err := Open(ctx, ro, st)
		if err != nil {
			t.Fatalf("read-only open with the openai embedder: %v", err)
		}
		defer ix.Close()
		opened = append(opened, ix)
	}
	calls := len(srv.Requests())
	for i, ix := range opened {
		if got := searchAll(t, ix); !reflect.DeepEqual(got, want) {
			t.Errorf("read-only open %d: hits differ from the read-write index's", i+1)
		}
	}
	if n := len(srv.Requests()); n != calls {
		t.Errorf("queries the build cached were sent to the embedder again (%d calls)", n-calls)
	}
	// A query new to the cache is embedded each time it is asked.
	r, _ := opened[0].Retriever(Dense)
	for i := range 2 {
		if _, err := r.Search(ctx, retrieve.Query{Text: "a query the build never saw", K: 3}); err != nil {
			t.Fatal(err)
		}
		if n := len(srv.Requests()); n != calls+i+1 {
			t.Errorf("after asking a new query %d times the embedder had %d calls, want %d", i+1, n-calls, i+1)
		}
	}
	if fi2, _ := os.Stat(cache); fi2.ModTime() != fi.ModTime() || fi2.Size() != fi.Size() {
		t.Error("read-only opens wrote to the embedding cache")
	}
}
