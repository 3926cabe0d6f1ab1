package bm25

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/retrieve"
)

// Several read-only opens of one index search at once and find what the
// writer found; writes to them are refused; a writer meanwhile gives up
// after LockTimeout with an error that says what to do.
func TestBleveReadOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bleve")
	if _, err := OpenBleveWith(dir, BleveOptions{ReadOnly: true}); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("read-only open of a missing index: %v", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the read-only open created %s", dir)
	}
	w, err := OpenBleve(dir)
	if err != nil {
		t.Fatal(err)
	}
	indexAll(t, w, passages("rl", rlText...), passages("rag", ragText...), passages("decoy", decoyText...))
	queries := []retrieve.Query{
		{Text: "trust region KL divergence bound", K: 5},
		{Text: "passages retrieved for a language model", PaperID: "rag", K: 2},
	}
	var want [][]retrieve.Hit
	for _, q := range queries {
		want = append(want, mustSearch(t, w, q))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	r1 := openTestBleve(t, dir, BleveOptions{ReadOnly: true})
	r2 := openTestBleve(t, dir, BleveOptions{ReadOnly: true})
	for _, r := range []*Bleve{r1, r2} {
		for i, q := range queries {
			if got := mustSearch(t, r, q); !reflect.DeepEqual(got, want[i]) {
				t.Errorf("read-only %q: %+v, want %+v", q.Text, got, want[i])
			}
		}
	}
	if err := r1.Index(context.Background(), passages("new", "a new passage")); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Index on a read-only index: %v", err)
	}
	if err := r1.ReplacePapers(context.Background(), passages("rl", "replaced")); !errors.Is(err, ErrReadOnly) {
		t.Errorf("ReplacePapers on a read-only index: %v", err)
	}
	if err := r1.DeletePaper("rl"); !errors.Is(err, ErrReadOnly) {
		t.Errorf("DeletePaper on a read-only index: %v", err)
	}

	// The writer gives up (a writer that waited for ever would hang the
	// test) with the error that says what to do. How soon is bolt's
	// timeout, set from LockTimeout; a busy machine stretches it, so the
	// test does not time it.
	_, err = OpenBleve(dir)
	if err == nil || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "wait for it") {
		t.Fatalf("writer while readers hold the index: %v", err)
	}
}
