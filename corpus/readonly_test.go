package corpus

import (
	"strings"
	"testing"
	"testing/synctest"
)

// Readers share the store; a writer and a reader exclude each other, and
// whichever comes second is told, after LockTimeout (not timed: a busy
// machine stretches it), which home is busy and what to do, instead of
// hanging.
func TestReadersShareWritersExclude(t *testing.T) {
	// In a synctest bubble the lock timeout's polling sleeps advance a fake
	// clock: an open that must give up does so at once, not after the
	// real timeout.
	synctest.Test(t, func(t *testing.T) {
		home := t.TempDir()
		w, err := Open(home, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Put(Document{PaperID: "p"}, "Text.", tile("Text.")); err != nil {
			t.Fatal(err)
		}
		blocked := func(readOnly bool, want string) {
			t.Helper()
			_, err := Open(home, readOnly)
			if err == nil || !strings.Contains(err.Error(), home) || !strings.Contains(err.Error(), want) {
				t.Errorf("open (read-only %v) of a busy home: %v", readOnly, err)
			}
		}
		blocked(true, "wait for it to finish")
		w.Close()

		r1, err := Open(home, true)
		if err != nil {
			t.Fatal(err)
		}
		defer r1.Close()
		r2, err := Open(home, true)
		if err != nil {
			t.Fatalf("second reader: %v", err)
		}
		defer r2.Close()
		for _, r := range []*Store{r1, r2} {
			if d, err := r.Doc("p"); err != nil || d.Passages != 1 {
				t.Errorf("reader: %+v, %v", d, err)
			}
		}
		blocked(false, "wait for it to finish")
	})
}
