package index

import (
	"context"
	"errors"
	"os"
	"reflect"
	"testing"

	"github.com/paperlens/paperlens/corpus"
)

// TestSealedOpenSkipsThePaperByPaperCheck: after an Update, a read-only
// open trusts the seal (it searches like the writer even with the state
// file made unreadable, which only the paper-by-paper check reads); a
// change to the corpus voids the seal; a writable open removes it before
// it could change anything.
func TestSealedOpenSkipsThePaperByPaperCheck(t *testing.T) {
	home := t.TempDir()
	papers := samplePapers(t)
	st, ix, _ := build(t, home, papers[:2]...)
	want := searchAll(t, ix)
	ix.Close()
	st.Close()
	if _, err := os.Stat(ix.sealPath()); err != nil {
		t.Fatalf("an up-to-date Update left no seal: %v", err)
	}

	state, err := os.ReadFile(ix.statePath())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ix.statePath(), []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	st1, ro := openReadOnly(t, home)
	if !ro.sealed {
		t.Fatal("read-only open did not use the seal")
	}
	if got := searchAll(t, ro); !reflect.DeepEqual(got, want) {
		t.Errorf("sealed open: hits differ from the writer's")
	}
	if rep := ro.Summary(); rep.Papers != 2 {
		t.Errorf("sealed Summary: %+v, want 2 papers", rep)
	}
	ro.Close()
	st1.Close()
	if err := os.WriteFile(ix.statePath(), state, 0o644); err != nil {
		t.Fatal(err)
	}

	// A paper deleted from the corpus moves its generation: the seal no
	// longer holds, and the open finds out paper by paper.
	w, err := corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Delete("tidal-token-pruning"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	ro2, err := corpus.Open(home, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(context.Background(), Config{Home: home, ReadOnly: true}, ro2); !errors.Is(err, ErrStale) {
		t.Errorf("read-only open after a corpus change: %v, want ErrStale", err)
	}
	ro2.Close()

	// A writable open breaks the seal at once; the Update that brings the
	// indexes up to date seals them again.
	w, err = corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	wix, err := Open(context.Background(), Config{Home: home}, w)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(wix.sealPath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a writable open left the seal in place: %v", err)
	}
	if _, err := wix.Update(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(wix.sealPath()); err != nil {
		t.Errorf("Update left no seal: %v", err)
	}
	wix.Close()
}
