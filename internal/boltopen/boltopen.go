// Package boltopen opens the bbolt files paperlens keeps (the corpus
// store, the vector store, the response, embedding and tool caches, the
// prompt log) the one way they are all opened: with a lock timeout, a
// file mode chosen by what the file holds, read-only under a shared lock
// or read-write under an exclusive one, and one wording for "another
// process holds it".
//
// bbolt waits for ever for a conflicting lock; a command started while
// another holds the file would hang without saying why. Open gives up
// after Timeout with a *BusyError that names the file, who is likely to
// hold it, and what to do. It imports nothing of paperlens.
package boltopen

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Timeout is how long Open waits for another process's lock before giving
// up: long enough to ride out another process's open or short write,
// short enough that a blocked command says why instead of hanging.
const Timeout = 2 * time.Second

// The file modes Open creates files with.
const (
	// ModeShared is for files other local users may read (a corpus, an
	// index): nothing in them is more private than the papers.
	ModeShared os.FileMode = 0o644
	// ModePrivate is for files that hold what a paid API answered or what
	// a tool returned, which may quote private data or cost money to redo.
	ModePrivate os.FileMode = 0o600
)

// ErrNoFile says a read-only open found no database to read: the file is
// missing, or empty (what a writer killed between creating the file and
// its first commit leaves). bbolt cannot open either read-only, as it
// would have to initialise the file; callers that treat "nothing stored
// yet" as empty test for it with errors.Is.
var ErrNoFile = errors.New("no database in the file (missing or empty)")

// Options say how to open one file.
type Options struct {
	// What names the file in errors: "model cache", "corpus store".
	What string
	// ReadOnly takes a shared lock: any number of readers, no writer. A
	// missing or empty file is then an error wrapping ErrNoFile, and
	// nothing is created. Otherwise the lock is exclusive, and the file
	// and its folder are created when missing.
	ReadOnly bool
	// Private creates the file with ModePrivate instead of ModeShared.
	Private bool
	// Timeout overrides the package's Timeout when positive: a file whose
	// writes are long batches may need longer.
	Timeout time.Duration
	// Holder says which paperlens process is likely to hold the file, for
	// the busy error: "an index build, or a search reading it".
	Holder string
	// Else is what to do besides waiting, for the busy error: "use
	// another --home".
	Else string
}

// Open opens the bbolt file at path as o says. A lock held past the
// timeout is a *BusyError (which also satisfies errors.Is with bbolt's
// ErrTimeout); other failures are wrapped with the file's name.
func Open(path string, o Options) (*bolt.DB, error) {
	mode := ModeShared
	if o.Private {
		mode = ModePrivate
	}
	timeout := Timeout
	if o.Timeout > 0 {
		timeout = o.Timeout
	}
	if o.ReadOnly {
		fi, err := os.Stat(path)
		if errors.Is(err, os.ErrNotExist) || err == nil && fi.Size() == 0 {
			return nil, fmt.Errorf("open %s %s: %w", o.What, path, ErrNoFile)
		}
	} else if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create the folder of %s %s: %w", o.What, path, err)
	}
	db, err := bolt.Open(path, mode, &bolt.Options{Timeout: timeout, ReadOnly: o.ReadOnly})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, &BusyError{What: o.What, Path: path, Holder: o.Holder, Else: o.Else}
	}
	if err != nil {
		return nil, fmt.Errorf("open %s %s: %w", o.What, path, err)
	}
	return db, nil
}

// BusyError is a lock another process held past the timeout. Files that
// bbolt opens inside another library (Bleve's root.bolt) report their
// timeouts with it too, so that every busy file is told the same way.
type BusyError struct {
	What   string // "corpus store"
	Path   string // the file or folder
	Holder string // who is likely to hold it, or ""
	Else   string // what to do besides waiting, or ""
}

// Error says what is busy, who holds it and what to do, e.g. "corpus
// store /h/corpus.db is in use: another paperlens process holds it (an
// ingest); wait for it to finish and run again, or use another --home".
func (e *BusyError) Error() string {
	s := fmt.Sprintf("%s %s is in use: another paperlens process holds it", e.What, e.Path)
	if e.Holder != "" {
		s += " (" + e.Holder + ")"
	}
	s += "; wait for it to finish and run again"
	if e.Else != "" {
		s += ", or " + e.Else
	}
	return s
}

// Unwrap keeps errors.Is(err, bolterrors.ErrTimeout) true, as it was for the
// error bbolt returned.
func (e *BusyError) Unwrap() error { return bolterrors.ErrTimeout }
