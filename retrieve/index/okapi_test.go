package index

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/retrieve/bm25"
)

// updateLogged runs Update and returns its progress lines.
func updateLogged(t *testing.T, ix *Index) []string {
	t.Helper()
	var lines []string
	if _, err := ix.Update(context.Background(), func(format string, args ...any) {
		lines = append(lines, fmt.Sprintf(format, args...))
	}); err != nil {
		t.Fatal(err)
	}
	return lines
}

// okapiLine is Update's "okapi N papers" line, or "" when it wrote no
// Okapi file.
func okapiLine(lines []string) string {
	for _, l := range lines {
		if strings.HasPrefix(l, "okapi") {
			return l
		}
	}
	return ""
}

// A home whose Okapi index is the old gob file: a read-only open says to
// run 'paperlens index', which writes okapi.idx from the corpus, removes
// okapi.gob, and then searches as a home built afresh.
func TestOkapiGobHomeConverted(t *testing.T) {
	ctx := context.Background()
	files := samplePapers(t)
	home := t.TempDir()
	st, ix, _ := build(t, home, files...)
	want := searchAll(t, ix)
	ix.Close()
	// The old format: every passage in a gob Okapi, no okapi.idx.
	docs, err := st.Docs()
	if err != nil {
		t.Fatal(err)
	}
	o, err := bm25.NewOkapi(bm25.OkapiOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		ps, err := st.Passages(d.PaperID)
		if err != nil {
			t.Fatal(err)
		}
		if err := o.Add(ps); err != nil {
			t.Fatal(err)
		}
	}
	gob := filepath.Join(Dir(home), "okapi.gob")
	if err := o.Save(gob); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(Dir(home), "okapi.idx")); err != nil {
		t.Fatal(err)
	}
	st.Close()

	ro, err := corpus.Open(home, true)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(ctx, Config{Home: home, ReadOnly: true}, ro)
	ro.Close()
	if !errors.Is(err, ErrStale) || !strings.Contains(err.Error(), "okapi.gob") || !strings.Contains(err.Error(), "'paperlens index'") {
		t.Fatalf("read-only open of a home with okapi.gob: %v; want ErrStale naming the file and the command", err)
	}

	st, err = corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ix, err = Open(ctx, Config{Home: home}, st)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if got, wantLine := okapiLine(updateLogged(t, ix)), fmt.Sprintf("okapi %d papers", len(docs)); got != wantLine {
		t.Errorf("converting: %q, want %q", got, wantLine)
	}
	if _, err := os.Stat(gob); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("okapi.gob after conversion: %v", err)
	}
	if got := searchAll(t, ix); !reflect.DeepEqual(got, want) {
		t.Error("the converted home searches differently from the one built afresh")
	}
}

// An Update adds only the new paper to the Okapi file, merging the others
// from the old file; one after a deletion rewrites the file without the
// paper and adds none. Each time the home searches as one built afresh
// from the same papers.
func TestOkapiUpdateIncremental(t *testing.T) {
	files := samplePapers(t)
	home := t.TempDir()
	st, ix, _ := build(t, home, files[:1]...)
	defer st.Close()
	ix.Close()
	if failed, err := ingest.Run(context.Background(), st, files[1:], ingest.Options{MaxTokens: 128}, func(ingest.Result) {}); err != nil || failed > 0 {
		t.Fatalf("ingest: %d failed, %v", failed, err)
	}
	ix, err := Open(context.Background(), Config{Home: home}, st)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if got, want := okapiLine(updateLogged(t, ix)), fmt.Sprintf("okapi %d papers", len(files)-1); got != want {
		t.Errorf("adding papers: %q, want %q", got, want)
	}
	if got, want := hitsOf(t, ix), freshSearch(t, files); !reflect.DeepEqual(got, want) {
		t.Error("after adding a paper, hits differ from a fresh build's")
	}
	if got := okapiLine(updateLogged(t, ix)); got != "" {
		t.Errorf("nothing to do, yet %q", got)
	}
	docs, err := st.Docs()
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Delete(docs[0].PaperID); err != nil {
		t.Fatal(err)
	}
	if got := okapiLine(updateLogged(t, ix)); got != "okapi 0 papers" {
		t.Errorf("after a deletion: %q, want the file rewritten with no paper added", got)
	}
	if n, want := ix.currentOkapi().Papers(), len(docs)-1; n != want {
		t.Errorf("the Okapi file holds %d papers, want %d", n, want)
	}
}

// A small IndexMemory (Bleve batches of the minimum size, the Okapi writer
// spilling runs) builds the same indexes as the default, and a build
// leaves no run file behind, its own or one a killed build left.
func TestIndexMemoryBounded(t *testing.T) {
	files := samplePapers(t)
	home := t.TempDir()
	st, err := corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if failed, err := ingest.Run(context.Background(), st, files, ingest.Options{MaxTokens: 128}, func(ingest.Result) {}); err != nil || failed > 0 {
		t.Fatalf("ingest: %d failed, %v", failed, err)
	}
	cfg := Config{Home: home, IndexMemory: 256 << 10}
	ix, err := Open(context.Background(), cfg, st)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if ix.bleveBatch() != minBleveBatch || ix.okapiBudget() != 128<<10 {
		t.Fatalf("IndexMemory 256 KiB: Bleve batch %d, Okapi budget %d", ix.bleveBatch(), ix.okapiBudget())
	}
	for _, leftover := range []string{"okapi.idx.run-123", "okapi.idx.terms-456", ".okapi.idx789"} {
		if err := os.WriteFile(filepath.Join(Dir(home), leftover), []byte("a killed build's"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	updateLogged(t, ix)
	if got, want := hitsOf(t, ix), freshSearch(t, files); !reflect.DeepEqual(got, want) {
		t.Error("hits under a small IndexMemory differ from the default's")
	}
	entries, err := os.ReadDir(Dir(home))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "okapi.idx.") || strings.HasPrefix(e.Name(), ".okapi") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	if d := (&Index{}); d.memory() != DefaultIndexMemory || d.bleveBatch() != bm25.DefaultBatchSize {
		t.Errorf("default IndexMemory: %d bytes, Bleve batch %d", d.memory(), d.bleveBatch())
	}
}

// TestSoftMemoryLimit: an Update bounds the collector at IndexMemory plus
// headroom when no limit is set, restores it after, and leaves a limit
// the user set alone.
func TestSoftMemoryLimit(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(prev)
	debug.SetMemoryLimit(math.MaxInt64)
	ix := &Index{cfg: Config{IndexMemory: 100 << 20}}
	restore := ix.softMemoryLimit()
	if got := debug.SetMemoryLimit(-1); got != 100<<20+gcHeadroom {
		t.Errorf("during an Update: limit %d, want %d", got, 100<<20+gcHeadroom)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("after: limit %d, want none", got)
	}
	debug.SetMemoryLimit(3 << 30) // GOMEMLIMIT=3GiB
	ix.softMemoryLimit()()
	if got := debug.SetMemoryLimit(-1); got != 3<<30 {
		t.Errorf("a user's limit became %d", got)
	}
}
