package boltopen

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolterrors "go.etcd.io/bbolt/errors"
)

// short keeps a blocked open from waiting the full Timeout; when it gives
// up is not checked (a busy machine stretches it), only what it says.
const short = 50 * time.Millisecond

// A second open that conflicts with the first gives up with a BusyError
// that names the file, the holder, and what to do; opens that share the
// lock both succeed.
func TestLocks(t *testing.T) {
	tests := []struct {
		name          string
		first, second bool // ReadOnly of each open
		busy          bool
	}{
		{"writer blocks writer", false, false, true},
		{"writer blocks reader", false, true, true},
		{"reader blocks writer", true, false, true},
		{"readers share", true, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f.db")
			db, err := Open(path, Options{What: "test store"})
			if err != nil {
				t.Fatal(err)
			}
			db.Close() // created, so that a read-only open finds a database
			first, err := Open(path, Options{What: "test store", ReadOnly: tc.first})
			if err != nil {
				t.Fatal(err)
			}
			defer first.Close()
			o := Options{What: "test store", ReadOnly: tc.second, Timeout: short, Holder: "a test holding it", Else: "use another file"}
			second, err := Open(path, o)
			if !tc.busy {
				if err != nil {
					t.Fatalf("second open: %v", err)
				}
				second.Close()
				return
			}
			if err == nil {
				second.Close()
				t.Fatal("the second open got the file")
			}
			var be *BusyError
			if !errors.As(err, &be) || !errors.Is(err, bolterrors.ErrTimeout) {
				t.Errorf("error %v (%T) is not a BusyError wrapping bolt.ErrTimeout", err, err)
			}
			want := "test store " + path + " is in use: another paperlens process holds it (a test holding it); wait for it to finish and run again, or use another file"
			if err.Error() != want {
				t.Errorf("error:\n%s\nwant:\n%s", err, want)
			}
		})
	}
}

// The busy message leaves out the parts a caller did not give.
func TestBusyErrorWording(t *testing.T) {
	tests := []struct {
		err  BusyError
		want string
	}{
		{BusyError{What: "model cache", Path: "/r/cache.db"},
			"model cache /r/cache.db is in use: another paperlens process holds it; wait for it to finish and run again"},
		{BusyError{What: "bm25 index", Path: "/h/bm25", Holder: "an index build"},
			"bm25 index /h/bm25 is in use: another paperlens process holds it (an index build); wait for it to finish and run again"},
		{BusyError{What: "corpus store", Path: "/h/corpus.db", Else: "use another --home"},
			"corpus store /h/corpus.db is in use: another paperlens process holds it; wait for it to finish and run again, or use another --home"},
	}
	for _, tc := range tests {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}

// A read-only open of a missing or empty file is ErrNoFile and creates
// nothing; a read-write open creates the file and its folder.
func TestNoFile(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, path string }{
		{"missing", filepath.Join(dir, "missing.db")},
		{"missing folder", filepath.Join(dir, "no", "such.db")},
		{"empty", empty},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Open(tc.path, Options{What: "test store", ReadOnly: true})
			if !errors.Is(err, ErrNoFile) || !strings.Contains(err.Error(), tc.path) {
				t.Fatalf("read-only open: %v", err)
			}
			fi, err := os.Stat(tc.path)
			if tc.path == empty && (err != nil || fi.Size() != 0) || tc.path != empty && !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the read-only open changed %s: %v, %v", tc.path, fi, err)
			}
			db, err := Open(tc.path, Options{What: "test store"})
			if err != nil {
				t.Fatalf("read-write open: %v", err)
			}
			db.Close()
			if db, err = Open(tc.path, Options{What: "test store", ReadOnly: true}); err != nil {
				t.Fatalf("read-only open after the write: %v", err)
			}
			db.Close()
		})
	}
}

// Private files are for their owner alone; shared ones get the mode any
// file created with 0o644 gets under this process's umask.
func TestMode(t *testing.T) {
	dir := t.TempDir()
	ref := filepath.Join(dir, "ref")
	if err := os.WriteFile(ref, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(ref)
	if err != nil {
		t.Fatal(err)
	}
	shared := fi.Mode().Perm()
	tests := []struct {
		name    string
		private bool
		want    os.FileMode
	}{
		{"shared", false, shared},
		{"private", true, shared & 0o700},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".db")
			db, err := Open(path, Options{What: "test store", Private: tc.private})
			if err != nil {
				t.Fatal(err)
			}
			db.Close()
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != tc.want {
				t.Errorf("mode %v, want %v", got, tc.want)
			}
		})
	}
}
