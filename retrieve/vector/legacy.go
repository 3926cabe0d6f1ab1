package vector

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"

	bolt "go.etcd.io/bbolt"

	"github.com/paperlens/paperlens/internal/boltopen"
)

// The schema 1 store was one bbolt file (FileName): bucket "meta" with the
// schema and the dimension, bucket "papers" with one nested bucket per
// paper mapping passage id to the little-endian float32 unit vector. A
// writer converts it on open; a read-only open, which may write nothing,
// loads it into memory as before until an index build has converted it.
var (
	bucketMeta   = []byte("meta")
	bucketPapers = []byte("papers")
	keySchema    = []byte("schema")
	keyDim       = []byte("dim")
)

const legacySchema = 1

func openLegacy(path string) (*bolt.DB, error) {
	return boltopen.Open(path, boltopen.Options{What: "vector store", ReadOnly: true,
		Timeout: lockTimeout, Holder: "an index build writing it"})
}

// eachLegacy calls fn for every stored point in (paper, id) order, which is
// bbolt's key order and the order a segment wants. v is a scratch row.
func eachLegacy(db *bolt.DB, fn func(dim int, paper, id string, v []float32) error) error {
	return db.View(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta == nil {
			return nil // created but never committed a write
		}
		if v := meta.Get(keySchema); v != nil && binary.BigEndian.Uint32(v) != legacySchema {
			return fmt.Errorf("vector store schema %d: rebuild with 'paperlens index --rebuild'", binary.BigEndian.Uint32(v))
		}
		dim := 0
		if v := meta.Get(keyDim); v != nil {
			dim = int(binary.BigEndian.Uint32(v))
		}
		if dim <= 0 || dim > maxDim {
			return fn(0, "", "", nil) // no point was ever stored
		}
		papers := tx.Bucket(bucketPapers)
		if papers == nil {
			return fn(dim, "", "", nil)
		}
		row := make([]float32, dim)
		return papers.ForEachBucket(func(name []byte) error {
			return papers.Bucket(name).ForEach(func(k, v []byte) error {
				if len(v) != 4*dim {
					return fmt.Errorf("paper %q passage %q: %d bytes, want %d for dimension %d (file damaged?)", name, k, len(v), 4*dim, dim)
				}
				for i := range row {
					row[i] = math.Float32frombits(binary.LittleEndian.Uint32(v[4*i:]))
				}
				return fn(dim, string(name), string(k), row)
			})
		})
	})
}

// migrateLegacy rewrites the bbolt file at path as one segment and a
// manifest, under the writer's lock. The manifest replaces the bbolt file
// by rename, so a migration killed part-way leaves the bbolt file, and an
// orphan segment the next writer deletes.
func migrateLegacy(dir, path string) (err error) {
	db, err := openLegacy(path)
	if err != nil {
		return err
	}
	defer db.Close()
	man := manifest{Format: manifestFormat, Schema: SchemaVersion, Gen: 1}
	var w *segWriter
	name := newSegName(1)
	err = eachLegacy(db, func(dim int, paper, id string, v []float32) error {
		man.Dim = dim
		if v == nil {
			return nil
		}
		if w == nil {
			var err error
			if w, err = newSegWriter(filepath.Join(dir, name), dim); err != nil {
				return err
			}
		}
		return w.add(paper, id, v)
	})
	if err == nil && w != nil {
		err = w.finish()
		if err == nil {
			man.Segments = []segEntry{{File: name, Rows: w.rows, Level: levelFor(w.rows)}}
		}
	} else if w != nil {
		w.abort()
	}
	if err != nil {
		return fmt.Errorf("convert %s to the segment layout: %w", path, err)
	}
	raw, err := json.Marshal(man)
	if err != nil {
		return err
	}
	db.Close()
	return writeManifest(dir, path, raw)
}

// levelFor is the merge level of a segment of rows points: as if built by
// writes of mergeBase points each, so that it is not merged again soon.
func levelFor(rows int) int {
	const mergeBase = 1024
	l := 0
	for n := mergeBase * mergeFanIn; rows >= n; n *= mergeFanIn {
		l++
	}
	return l
}

// loadLegacy reads a schema 1 file into memory, for a read-only open.
func (e *Embedded) loadLegacy() error {
	db, err := openLegacy(e.path)
	if err != nil {
		return err
	}
	defer db.Close()
	var batch []Point
	flush := func() {
		if len(batch) > 0 {
			e.reserve(batch)
			for _, p := range batch {
				e.put(p)
			}
			batch = batch[:0]
		}
	}
	err = eachLegacy(db, func(dim int, paper, id string, v []float32) error {
		e.dim = dim
		if v == nil {
			return nil
		}
		if len(batch) > 0 && batch[0].PaperID != paper {
			flush()
		}
		if _, dup := e.where[id]; dup {
			return fmt.Errorf("passage %q is stored under two papers (file damaged?)", id)
		}
		batch = append(batch, Point{ID: id, PaperID: paper, Vector: append([]float32(nil), v...)})
		return nil
	})
	flush()
	if err != nil {
		e.segs, e.where, e.n, e.dim = map[string]*segment{}, map[string]loc{}, 0, 0
		return fmt.Errorf("load %s: %w", e.path, err)
	}
	return nil
}
