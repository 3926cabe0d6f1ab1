package vector

import (
	"bytes"
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/renameio/v2"
)

// On disk the store is a folder: the manifest (FileName, JSON, replaced
// atomically by rename) lists the segment files that make up the store and,
// per segment, the rows deleted since it was written. Segments are never
// changed once written. A write takes the folder's lock file, writes a new
// segment (and, now and then, merges old ones) and then a new manifest: a
// process killed at any point leaves the previous manifest, which names
// only complete files, and the next writer deletes the files it does not
// name. Readers take no lock: they read the manifest and map its segments;
// a segment a writer removes meanwhile stays readable to whoever mapped it.
//
// Level-tiered merging keeps the number of segments logarithmic in the
// number of writes: a write adds a level-0 segment, and mergeFanIn
// segments of one level at the end of the list become one of the next. At
// 1024 points a write (the index build's batch), 1M points are 7 levels'
// worth of at most mergeFanIn-1 segments each, and every point is
// rewritten about log8(writes) times.
const (
	manifestFormat = "paperlens-vectors"
	// SchemaVersion is the manifest and segment layout; bumped on any
	// incompatible change. 1 was the bbolt file, still read (see legacy.go).
	SchemaVersion = 2
	mergeFanIn    = 8
	lockName      = "vectors.lock"
	segPrefix     = "seg-"
	segSuffix     = ".vec"
)

// lockTimeout bounds how long a write waits for another process's write:
// long enough to ride out a merge, short enough to report a stuck writer
// instead of hanging.
const lockTimeout = 5 * time.Second

// errBusy is a write that gave up waiting for another writer.
var errBusy = errors.New("vector store is busy")

// writeManifest replaces the manifest atomically: readers see the old one
// or the new one, never a part.
func writeManifest(dir, path string, raw []byte) error {
	return renameio.WriteFile(path, raw, 0o644, renameio.WithTempDir(dir))
}

type manifest struct {
	Format   string     `json:"format"`
	Schema   int        `json:"schema"`
	Dim      int        `json:"dim"`
	Gen      uint64     `json:"gen"`
	Segments []segEntry `json:"segments"`
}

type segEntry struct {
	File  string `json:"file"`
	Rows  int    `json:"rows"`
	Level int    `json:"level"`
	// Deleted lists the deleted rows as ranges, start and end (exclusive)
	// flattened, ascending and apart: a paper's rows are one range, so
	// deleting or rewriting papers adds a pair each, not a number a row.
	Deleted []uint32 `json:"deleted,omitempty"`
}

// view is one manifest with its segments mapped: what a search reads.
type view struct {
	man  manifest
	segs []vseg
}

type vseg struct {
	m     *mapping
	dead  []uint64 // bitmap of deleted rows; nil when none is
	live  int
	level int // merge level (see mergeFanIn)
}

func (v *view) count() int {
	n := 0
	for _, s := range v.segs {
		n += s.live
	}
	return n
}

func (s *vseg) isDead(r int) bool { return s.dead != nil && s.dead[r>>6]&(1<<(r&63)) != 0 }

func (s *vseg) kill(r int) {
	if s.dead == nil {
		s.dead = make([]uint64, (s.m.rows+63)/64)
	}
	if !s.isDead(r) {
		s.dead[r>>6] |= 1 << (r & 63)
		s.live--
	}
}

// deleted is the manifest's form of the deleted rows (segEntry.Deleted).
func (s *vseg) deleted() []uint32 {
	if s.dead == nil {
		return nil
	}
	var out []uint32
	for r := 0; r < s.m.rows; r++ {
		if !s.isDead(r) {
			continue
		}
		start := r
		for r < s.m.rows && s.isDead(r) {
			r++
		}
		out = append(out, uint32(start), uint32(r))
	}
	return out
}

// sniff tells what the file at path holds without reading all of it.
type fileKind int

const (
	kindNone     fileKind = iota // missing or empty
	kindManifest                 // this layout
	kindBolt                     // the schema 1 bbolt file
	kindUnknown
)

func sniff(path string) (fileKind, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return kindNone, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	head := make([]byte, 32)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return 0, err
	}
	head = head[:n]
	switch {
	case n == 0:
		return kindNone, nil
	case bytes.HasPrefix(bytes.TrimLeft(head, " \n\t"), []byte(`{"format"`)):
		return kindManifest, nil
	case n >= 20 && bytes.Equal(head[16:20], []byte{0xed, 0xda, 0x0c, 0xed}):
		// bbolt's meta page: magic 0xED0CDAED, little-endian, at 16.
		return kindBolt, nil
	}
	return kindUnknown, nil
}

func readManifest(path string) (manifest, error) {
	var m manifest
	raw, err := os.ReadFile(path)
	if err != nil {
		return m, err
	}
	if len(raw) == 0 {
		return m, nil
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return m, fmt.Errorf("manifest: %w", err)
	}
	if m.Format != manifestFormat {
		return m, fmt.Errorf("manifest format %q, want %q", m.Format, manifestFormat)
	}
	if m.Schema != SchemaVersion {
		return m, fmt.Errorf("vector store schema %d, this paperlens reads %d: rebuild with 'paperlens index --rebuild'", m.Schema, SchemaVersion)
	}
	if m.Dim < 0 || m.Dim > maxDim || (m.Dim == 0 && len(m.Segments) > 0) {
		return m, fmt.Errorf("manifest dimension %d", m.Dim)
	}
	for _, s := range m.Segments {
		if !validSegName(s.File) {
			return m, fmt.Errorf("manifest names segment %q", s.File)
		}
		d := s.Deleted
		for i := 0; i < len(d); i += 2 {
			if i+1 == len(d) || d[i] >= d[i+1] || int(d[i+1]) > s.Rows || (i > 0 && d[i] <= d[i-1]) {
				return m, fmt.Errorf("segment %s: deleted rows %v not ascending ranges within %d rows", s.File, d[i:min(i+2, len(d))], s.Rows)
			}
		}
	}
	return m, nil
}

// validSegName keeps the manifest from naming anything outside the folder.
func validSegName(name string) bool {
	return strings.HasPrefix(name, segPrefix) && strings.HasSuffix(name, segSuffix) &&
		filepath.Base(name) == name && !strings.ContainsAny(name, `/\`)
}

// loadView maps the segments man names, through reg: the mappings open
// by file name, reused (segments never change, and their names are never
// reused) and added to.
func loadView(dir string, man manifest, reg map[string]*mapping) (*view, error) {
	v := &view{man: man}
	for _, e := range man.Segments {
		m := reg[e.File]
		if m == nil {
			var err error
			if m, err = openSegment(dir, e.File); err != nil {
				return nil, err
			}
			reg[e.File] = m
		}
		if m.rows != e.Rows || m.dim != man.Dim {
			return nil, fmt.Errorf("segment %s holds %d rows of dimension %d, the manifest says %d of %d (file damaged?)", e.File, m.rows, m.dim, e.Rows, man.Dim)
		}
		s := vseg{m: m, live: m.rows, level: e.Level}
		for i := 0; i+1 < len(e.Deleted); i += 2 {
			for r := e.Deleted[i]; r < e.Deleted[i+1]; r++ {
				s.kill(int(r))
			}
		}
		v.segs = append(v.segs, s)
	}
	return v, nil
}

// unmapUnused closes the mappings in reg that v does not use.
func unmapUnused(reg map[string]*mapping, v *view) {
	used := map[*mapping]bool{}
	if v != nil {
		for _, s := range v.segs {
			used[s.m] = true
		}
	}
	for name, m := range reg {
		if !used[m] {
			_ = m.close()
			delete(reg, name)
		}
	}
}

// openView reads the manifest at path and maps its segments. A writer may
// merge segments away between the two steps; the manifest is then read
// again.
func openView(dir, path string, reg map[string]*mapping) (*view, error) {
	for attempt := 0; ; attempt++ {
		man, err := readManifest(path)
		if errors.Is(err, fs.ErrNotExist) {
			return &view{}, nil
		}
		if err != nil {
			return nil, err
		}
		v, err := loadView(dir, man, reg)
		if errors.Is(err, fs.ErrNotExist) && attempt < 10 {
			unmapUnused(reg, nil)
			continue
		}
		if err != nil {
			unmapUnused(reg, nil)
		}
		return v, err
	}
}

// writeTx is one write under the folder's lock: it starts from the
// manifest on disk (another process may have written since this store
// read it) and ends by replacing it.
type writeTx struct {
	dir, path string
	lock      *os.File
	v         *view // the new state, built up by the write
	created   []string
}

func (e *Embedded) begin() (*writeTx, error) {
	lf, err := os.OpenFile(filepath.Join(e.dir(), lockName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := lockFile(lf, lockTimeout); err != nil {
		lf.Close()
		if errors.Is(err, errBusy) {
			return nil, fmt.Errorf("%w: another process (an index build) is writing it; wait for it to finish", err)
		}
		return nil, err
	}
	tx := &writeTx{dir: e.dir(), path: e.path, lock: lf}
	kind, err := sniff(e.path)
	if err == nil && kind == kindBolt {
		err = migrateLegacy(e.dir(), e.path)
	}
	if err == nil {
		var man manifest
		if man, err = readManifest(e.path); errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
		if err == nil {
			tx.v, err = loadView(tx.dir, man, e.maps)
		}
	}
	if err != nil {
		tx.unlock()
		return nil, err
	}
	return tx, nil
}

func (tx *writeTx) unlock() {
	_ = unlockFile(tx.lock)
	tx.lock.Close()
}

// newSegName is unique across folders and rebuilds: a store whose folder
// was deleted and recreated must not mistake a new file for one it mapped.
func newSegName(gen uint64) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s%012d-%s%s", segPrefix, gen, hex.EncodeToString(b[:]), segSuffix)
}

// commit writes the manifest for tx.v and removes what it no longer names.
func (tx *writeTx) commit() error {
	man := &tx.v.man
	man.Format, man.Schema = manifestFormat, SchemaVersion
	man.Gen++
	man.Segments = man.Segments[:0]
	for _, s := range tx.v.segs {
		man.Segments = append(man.Segments, segEntry{File: s.m.file, Rows: s.m.rows, Level: s.level, Deleted: s.deleted()})
	}
	raw, err := json.Marshal(man)
	if err != nil {
		return err
	}
	if err := writeManifest(tx.dir, tx.path, raw); err != nil {
		return err
	}
	tx.created = nil
	tx.sweep()
	return nil
}

// sweep deletes segment files no manifest names: those a killed writer
// left, and those merged away. Readers that mapped them keep their pages.
func (tx *writeTx) sweep() {
	named := map[string]bool{}
	for _, s := range tx.v.segs {
		named[s.m.file] = true
	}
	ents, err := os.ReadDir(tx.dir)
	if err != nil {
		return
	}
	for _, d := range ents {
		n := d.Name()
		stale := validSegName(n) && !named[n]
		// renameio's temporary files from a killed manifest write.
		stale = stale || strings.HasPrefix(n, "."+FileName)
		if stale {
			os.Remove(filepath.Join(tx.dir, n))
		}
	}
}

// abort drops what the write created and releases the lock; the store
// keeps its old view.
func (tx *writeTx) abort() {
	for _, f := range tx.created {
		os.Remove(filepath.Join(tx.dir, f))
	}
	tx.unlock()
}

// appendSegment writes pts (normalised, one per id) as a new level-0
// segment at the end of tx.v.
func (tx *writeTx) appendSegment(pts []Point, reg map[string]*mapping) error {
	slices.SortFunc(pts, func(a, b Point) int {
		return cmp.Or(cmp.Compare(a.PaperID, b.PaperID), cmp.Compare(a.ID, b.ID))
	})
	s, err := tx.writeSegment(0, reg, func(add func(paper, id string, vec []float32) error) error {
		for _, p := range pts {
			if err := add(p.PaperID, p.ID, p.Vector); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil && s.m != nil {
		tx.v.segs = append(tx.v.segs, s)
	}
	return err
}

// writeSegment writes a segment of the rows fill gives and maps it; an
// empty one is not written (s.m is nil).
func (tx *writeTx) writeSegment(level int, reg map[string]*mapping, fill func(add func(paper, id string, vec []float32) error) error) (vseg, error) {
	name := newSegName(tx.v.man.Gen + 1)
	w, err := newSegWriter(filepath.Join(tx.dir, name), tx.v.man.Dim)
	if err != nil {
		return vseg{}, err
	}
	tx.created = append(tx.created, name)
	if err := fill(w.add); err != nil {
		w.abort()
		return vseg{}, err
	}
	if w.rows == 0 {
		w.abort()
		return vseg{}, nil
	}
	if err := w.finish(); err != nil {
		return vseg{}, err
	}
	m, err := openSegment(tx.dir, name)
	if err != nil {
		return vseg{}, err
	}
	reg[name] = m
	return vseg{m: m, live: m.rows, level: level}, nil
}
