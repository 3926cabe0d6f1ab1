package index

import (
	"context"
	"fmt"
	"github.com/paperlens/paperlens/internal/testkit/golden"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/ingest"
)

// TestUpdateGolden pins what a sequence of Updates reports and what every
// retriever then finds: a first build, an update with nothing to do, a
// re-chunked paper (changed), a deleted paper (gone), a build without its
// state file (vectors of unknown origin dropped), and a read-only open.
// Regenerate with INDEX_WRITE_GOLDEN=1 only for a deliberate change.
func TestUpdateGolden(t *testing.T) {
	ctx := context.Background()
	files := samplePapers(t)
	home := t.TempDir()
	var b strings.Builder
	step := func(name string, ix *Index) {
		rep, err := ix.Update(ctx, nil)
		fmt.Fprintf(&b, "== %s\nreport %+v err %v\n", name, rep, err)
		if !ix.cfg.ReadOnly { // a read-only index loads only what is searched
			fmt.Fprintf(&b, "counts %v\n", counts(t, ix))
		}
		all := hitsOf(t, ix)
		for _, k := range slices.Sorted(maps.Keys(all)) {
			for qi, hs := range all[k] {
				for _, h := range hs {
					fmt.Fprintf(&b, "%s q%d %d %s %.6f\n", k, qi, h.Rank, h.PassageID, h.Score)
				}
			}
		}
	}
	st, ix, _ := build(t, home, files...)
	defer st.Close()
	ix.Close()
	open := func(cfg Config) *Index {
		cfg.Home = home
		ix, err := Open(ctx, cfg, st)
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}
	ix = open(Config{})
	step("nothing to do", ix)
	ix.Close()
	if failed, err := ingest.Run(ctx, st, files[:1], ingest.Options{MaxTokens: 64}, func(ingest.Result) {}); err != nil || failed > 0 {
		t.Fatalf("re-ingest: %d failed, %v", failed, err)
	}
	ix = open(Config{})
	step("re-chunked", ix)
	if err := st.Delete("claim-anchored-verification"); err != nil {
		t.Fatal(err)
	}
	step("deleted", ix)
	ix.Close()
	if err := os.Remove(ix.statePath()); err != nil {
		t.Fatal(err)
	}
	ix = open(Config{})
	step("state lost", ix)
	ix.Close()
	ro := open(Config{ReadOnly: true})
	step("read-only", ro)
	ro.Close()

	got := b.String()
	golden.Check(t, "testdata/update.golden", got, "INDEX_WRITE_GOLDEN")
}
