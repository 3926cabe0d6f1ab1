package vector

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/paperlens/paperlens/internal/boltopen"
)

// On disk: bucket "meta" holds the schema version and the dimension; bucket
// "papers" holds one nested bucket per paper, mapping passage id to the
// unit-length vector as little-endian float32s. One bucket per paper makes
// DeletePaper a single bucket drop and lets loading fill each paper's
// contiguous slice in one pass.
var (
	bucketMeta   = []byte("meta")
	bucketPapers = []byte("papers")
	keySchema    = []byte("schema")
	keyDim       = []byte("dim")
)

// SchemaVersion is bumped when the file layout changes incompatibly.
const SchemaVersion = 1

// lockTimeout bounds how long a write waits for another process's write:
// long enough to ride out a single batch, short enough to report a stuck
// writer instead of hanging.
const lockTimeout = 5 * time.Second

// load reads the whole file into memory. bbolt commits are atomic, so what
// is read is always some committed state, never a torn write.
func (e *Embedded) load() error {
	db, err := e.open(true)
	if errors.Is(err, boltopen.ErrNoFile) {
		// Nothing stored yet, or an empty file: what a crash between bbolt
		// creating the file and initialising it leaves; the next write
		// initialises it.
		return nil
	}
	if err != nil {
		return err
	}
	defer db.Close()
	err = db.View(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta == nil {
			return nil // created but never committed a write
		}
		if err := checkSchema(meta); err != nil {
			return err
		}
		if v := meta.Get(keyDim); v != nil {
			e.dim = int(binary.BigEndian.Uint32(v))
		}
		papers := tx.Bucket(bucketPapers)
		if papers == nil {
			return nil
		}
		return papers.ForEachBucket(func(name []byte) error {
			return e.loadPaper(string(name), papers.Bucket(name))
		})
	})
	if err != nil {
		e.segs, e.where, e.n, e.dim = map[string]*segment{}, map[string]loc{}, 0, 0
		return fmt.Errorf("load %s: %w", e.path, err)
	}
	return nil
}

func (e *Embedded) loadPaper(paper string, b *bolt.Bucket) error {
	// Counting first sizes the paper's slice exactly: no regrowth copies,
	// no slack capacity held for the life of the process.
	n := 0
	if err := b.ForEach(func(_, _ []byte) error { n++; return nil }); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	s := &segment{paper: paper, ids: make([]string, 0, n), vecs: make([]float32, n*e.dim)}
	err := b.ForEach(func(k, v []byte) error {
		if len(v) != 4*e.dim {
			return fmt.Errorf("paper %q passage %q: %d bytes, want %d for dimension %d (file damaged?)", paper, k, len(v), 4*e.dim, e.dim)
		}
		row := s.vecs[len(s.ids)*e.dim:][:e.dim]
		for i := range row {
			row[i] = math.Float32frombits(binary.LittleEndian.Uint32(v[4*i:]))
		}
		id := string(k)
		if old, dup := e.where[id]; dup {
			return fmt.Errorf("passage %q is stored under both paper %q and %q (file damaged?)", id, old.seg.paper, paper)
		}
		e.where[id] = loc{seg: s, row: len(s.ids)}
		s.ids = append(s.ids, id)
		return nil
	})
	if err != nil {
		return err
	}
	e.segs[paper] = s
	e.n += n
	return nil
}

func checkSchema(meta *bolt.Bucket) error {
	if v := meta.Get(keySchema); v != nil && int(binary.BigEndian.Uint32(v)) != SchemaVersion {
		return fmt.Errorf("vector store schema %d, this paperlens reads %d: rebuild with 'paperlens index --rebuild'", binary.BigEndian.Uint32(v), SchemaVersion)
	}
	return nil
}

// open opens the file for one load or one write. Only a writer can hold
// it long enough to block: readers open it just to load it.
func (e *Embedded) open(readOnly bool) (*bolt.DB, error) {
	return boltopen.Open(e.path, boltopen.Options{What: "vector store", ReadOnly: readOnly,
		Timeout: lockTimeout, Holder: "an index build writing it"})
}

// update runs fn in one write transaction on a file opened just for it, so
// the exclusive lock is held only while writing.
func (e *Embedded) update(fn func(meta, papers *bolt.Bucket) error) error {
	db, err := e.open(false)
	if err != nil {
		return err
	}
	err = db.Update(func(tx *bolt.Tx) error {
		meta, err := tx.CreateBucketIfNotExists(bucketMeta)
		if err != nil {
			return err
		}
		if err := checkSchema(meta); err != nil {
			return err
		}
		var v [4]byte
		binary.BigEndian.PutUint32(v[:], SchemaVersion)
		if err := meta.Put(keySchema, v[:]); err != nil {
			return err
		}
		papers, err := tx.CreateBucketIfNotExists(bucketPapers)
		if err != nil {
			return err
		}
		return fn(meta, papers)
	})
	if cerr := db.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close %s: %w", e.path, cerr)
	}
	return err
}

func (e *Embedded) persistUpsert(dim int, batch []Point) error {
	err := e.update(func(meta, papers *bolt.Bucket) error {
		// Another process may have set the dimension since this store was
		// opened; the file, not memory, is the authority.
		if v := meta.Get(keyDim); v != nil {
			if have := int(binary.BigEndian.Uint32(v)); have != dim {
				return &DimensionError{Store: e.label(), Want: have, Got: dim}
			}
		} else {
			var v [4]byte
			binary.BigEndian.PutUint32(v[:], uint32(dim))
			if err := meta.Put(keyDim, v[:]); err != nil {
				return err
			}
		}
		buf := make([]byte, 4*dim)
		for _, p := range batch {
			if l, ok := e.where[p.ID]; ok && l.seg.paper != p.PaperID {
				if old := papers.Bucket([]byte(l.seg.paper)); old != nil {
					if err := old.Delete([]byte(p.ID)); err != nil {
						return err
					}
				}
			}
			b, err := papers.CreateBucketIfNotExists([]byte(p.PaperID))
			if err != nil {
				return fmt.Errorf("paper %q: %w", p.PaperID, err)
			}
			for i, x := range p.Vector {
				binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(x))
			}
			// bbolt copies neither key nor value until commit, so each
			// value needs its own bytes; buf is reused only as scratch.
			if err := b.Put([]byte(p.ID), append([]byte(nil), buf...)); err != nil {
				return fmt.Errorf("passage %q: %w", p.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("upsert into %s: %w", e.path, err)
	}
	return nil
}

func (e *Embedded) persistDeletePaper(paperID string) error {
	if _, err := os.Stat(e.path); errors.Is(err, os.ErrNotExist) {
		return nil // nothing was ever written, so nothing to delete
	}
	err := e.update(func(_, papers *bolt.Bucket) error {
		err := papers.DeleteBucket([]byte(paperID))
		if errors.Is(err, bolterrors.ErrBucketNotFound) {
			return nil
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("delete paper %q from %s: %w", paperID, e.path, err)
	}
	return nil
}
