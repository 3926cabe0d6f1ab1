package vector

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// segment is one paper's points. Its vectors sit in one contiguous slice, so
// a paper-filtered search streams through exactly that memory and nothing
// else, and a corpus-wide search is a sequence of such streams.
type segment struct {
	paper string
	ids   []string
	vecs  []float32 // len(ids)*dim, unit length rows
}

// loc is where a point's row lives, so an upsert with a known ID overwrites
// in place instead of leaving a stale duplicate behind.
type loc struct {
	seg *segment
	row int
}

// Embedded is an exact-cosine store. Searches scan every candidate vector:
// a linear scan of unit rows never misses a passage, and at the corpus
// sizes paperlens works with (thousands to a million passages) it is
// milliseconds to tens of milliseconds.
//
// OpenEmbedded keeps the vectors in a folder of segment files mapped
// read-only (see disk.go): opening a store reads a small manifest and maps
// the files, so a search process starts in milliseconds and its heap does
// not grow with the corpus; the pages are the kernel's page cache, shared
// by every process searching the store. Writes go to new segment files and
// a manifest replaced atomically, under a lock file held only while
// writing, so any number of processes can search while one indexes. A
// store sees another process's writes when it is reopened, or at its own
// next write.
//
// NewMemory keeps everything on the heap in one contiguous slice per
// paper, for tests and one-off runs.
type Embedded struct {
	mu     sync.RWMutex
	path   string // the manifest; "" for a memory-only store
	dim    int
	closed bool
	// readOnly refuses writes, so a process that promised not to write
	// (an eval sharing the home with others) cannot take the writer lock
	// by mistake.
	readOnly bool

	// On disk: the current manifest's segments, and every mapping open.
	view *view
	maps map[string]*mapping

	// In memory (NewMemory, or a read-only open of a schema 1 file).
	segs  map[string]*segment
	where map[string]loc
	n     int
}

var _ Store = (*Embedded)(nil)

// FileName is the embedded store's manifest inside its folder. (It kept
// the name of the schema 1 bbolt file, which it replaces.)
const FileName = "vectors.db"

// OpenEmbedded opens the store in dir, creating the folder when needed.
// A store in the schema 1 layout (one bbolt file) is converted.
func OpenEmbedded(dir string) (*Embedded, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("open vector store: %w", err)
	}
	e := newEmbedded(filepath.Join(dir, FileName))
	kind, err := sniff(e.path)
	if err != nil {
		return nil, fmt.Errorf("open vector store %s: %w", e.path, err)
	}
	switch kind {
	case kindUnknown:
		return nil, fmt.Errorf("open vector store %s: not a vector store manifest (file damaged?)", e.path)
	case kindBolt:
		// begin converts it under the writer lock.
		tx, err := e.begin()
		if err != nil {
			return nil, fmt.Errorf("open vector store %s: %w", e.path, err)
		}
		if err := e.finishTx(tx, nil, ""); err != nil {
			return nil, err
		}
		return e, nil
	}
	if err := e.openView(); err != nil {
		return nil, err
	}
	return e, nil
}

// OpenEmbeddedReadOnly opens the store in dir for searching only: nothing
// is created or locked, and Upsert and DeletePaper fail with ErrReadOnly.
// A missing store is empty, as for OpenEmbedded.
func OpenEmbeddedReadOnly(dir string) (*Embedded, error) {
	e := newEmbedded(filepath.Join(dir, FileName))
	e.readOnly = true
	kind, err := sniff(e.path)
	if err != nil {
		return nil, fmt.Errorf("open vector store %s: %w", e.path, err)
	}
	switch kind {
	case kindUnknown:
		return nil, fmt.Errorf("open vector store %s: not a vector store manifest (file damaged?)", e.path)
	case kindBolt:
		e.view = nil
		if err := e.loadLegacy(); err != nil {
			return nil, err
		}
		return e, nil
	}
	if err := e.openView(); err != nil {
		return nil, err
	}
	return e, nil
}

func (e *Embedded) openView() error {
	v, err := openView(e.dir(), e.path, e.maps)
	if err != nil {
		return fmt.Errorf("load %s: %w", e.path, err)
	}
	e.view, e.dim = v, v.man.Dim
	return nil
}

// ErrReadOnly is returned by writes to a store opened with
// OpenEmbeddedReadOnly.
var ErrReadOnly = errors.New("vector store is open read-only")

// NewMemory returns an embedded store that is never written to disk, for
// tests and one-off runs.
func NewMemory() *Embedded { return newEmbedded("") }

func newEmbedded(path string) *Embedded {
	e := &Embedded{path: path, segs: map[string]*segment{}, where: map[string]loc{}}
	if path != "" {
		e.view, e.maps = &view{}, map[string]*mapping{}
	}
	return e
}

func (e *Embedded) dir() string { return filepath.Dir(e.path) }

// Name implements Store.
func (e *Embedded) Name() string { return "embedded" }

// Path is the store's file, or "" for a memory-only store.
func (e *Embedded) Path() string { return e.path }

func (e *Embedded) label() string {
	if e.path == "" {
		return "in-memory vector store"
	}
	return "vector store " + e.path
}

// Dim implements Store.
func (e *Embedded) Dim() int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.dim
}

// Count implements Store.
func (e *Embedded) Count(ctx context.Context) (int, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.closed {
		return 0, ErrClosed
	}
	if e.view != nil {
		return e.view.count(), nil
	}
	return e.n, nil
}

// Upsert implements Store. On disk the batch is one new segment and one
// manifest commit, so a failed or interrupted write leaves both the files
// and the store as they were.
func (e *Embedded) Upsert(ctx context.Context, pts []Point) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("upsert: %w", err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return ErrClosed
	}
	if e.readOnly {
		return fmt.Errorf("upsert into %s: %w", e.path, ErrReadOnly)
	}
	dim, err := CheckPoints(e.label(), e.dim, pts)
	if err != nil {
		return fmt.Errorf("upsert: %w", err)
	}
	if len(pts) == 0 {
		return nil
	}
	batch := dedupe(pts)
	// One allocation for the whole batch; rows are copied into their
	// segments below, so this slab is garbage afterwards.
	slab := make([]float32, len(batch)*dim)
	for i, p := range batch {
		row := slab[i*dim : (i+1)*dim]
		if _, err := Normalize(row, p.Vector); err != nil {
			return fmt.Errorf("upsert %q: %w", p.ID, err)
		}
		batch[i].Vector = row
	}
	if e.view != nil {
		return e.diskUpsert(dim, batch)
	}
	e.dim = dim
	e.reserve(batch)
	for _, p := range batch {
		e.put(p)
	}
	return nil
}

// reserve grows each paper's slices once for the rows the batch adds:
// appending a paper's passages one by one would otherwise copy its vectors
// about twice over and leave up to half of them as slack capacity.
func (e *Embedded) reserve(batch []Point) {
	adds := map[string]int{}
	for _, p := range batch {
		if l, ok := e.where[p.ID]; !ok || l.seg.paper != p.PaperID {
			adds[p.PaperID]++
		}
	}
	for paper, n := range adds {
		s := e.segs[paper]
		if s == nil {
			s = &segment{paper: paper}
			e.segs[paper] = s
		}
		s.ids = slices.Grow(s.ids, n)
		s.vecs = slices.Grow(s.vecs, n*e.dim)
	}
}

// dedupe keeps the last point for each ID, in first-seen order, so a batch
// that names an ID twice ends like two upserts in a row would.
func dedupe(pts []Point) []Point {
	idx := make(map[string]int, len(pts))
	out := make([]Point, 0, len(pts))
	for _, p := range pts {
		if i, ok := idx[p.ID]; ok {
			out[i] = p
			continue
		}
		idx[p.ID] = len(out)
		out = append(out, p)
	}
	return out
}

// put stores one normalised point in memory.
func (e *Embedded) put(p Point) {
	if l, ok := e.where[p.ID]; ok {
		if l.seg.paper == p.PaperID {
			copy(l.seg.vecs[l.row*e.dim:(l.row+1)*e.dim], p.Vector)
			return
		}
		e.removeRow(l)
	}
	s := e.segs[p.PaperID]
	if s == nil {
		s = &segment{paper: p.PaperID}
		e.segs[p.PaperID] = s
	}
	e.where[p.ID] = loc{seg: s, row: len(s.ids)}
	s.ids = append(s.ids, p.ID)
	s.vecs = append(s.vecs, p.Vector...)
	e.n++
}

// removeRow deletes one row by moving the segment's last row into its place,
// which keeps the vectors contiguous without shifting the rest.
func (e *Embedded) removeRow(l loc) {
	s, d := l.seg, e.dim
	last := len(s.ids) - 1
	delete(e.where, s.ids[l.row])
	if l.row != last {
		s.ids[l.row] = s.ids[last]
		copy(s.vecs[l.row*d:(l.row+1)*d], s.vecs[last*d:])
		e.where[s.ids[l.row]] = loc{seg: s, row: l.row}
	}
	s.ids = s.ids[:last]
	s.vecs = s.vecs[:last*d]
	e.n--
	if last == 0 {
		delete(e.segs, s.paper)
	}
}

// DeletePaper implements Store.
func (e *Embedded) DeletePaper(ctx context.Context, paperID string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("delete paper %q: %w", paperID, err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return ErrClosed
	}
	if e.readOnly {
		return fmt.Errorf("delete paper %q from %s: %w", paperID, e.path, ErrReadOnly)
	}
	if e.view != nil {
		return e.diskDeletePaper(paperID)
	}
	s := e.segs[paperID]
	if s == nil {
		return nil
	}
	for _, id := range s.ids {
		delete(e.where, id)
	}
	e.n -= len(s.ids)
	delete(e.segs, paperID)
	return nil
}

// Search implements Store by scanning every vector of the paper (or of the
// corpus) against the normalised query. The scan runs on one goroutine: past
// a few megabytes it is bound by memory bandwidth, and splitting it across
// cores measured no faster while costing every concurrent query.
func (e *Embedded) Search(ctx context.Context, vec []float32, paperID string, k int) ([]Match, error) {
	if err := CheckK(k); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("vector search: %w", err)
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.closed {
		return nil, ErrClosed
	}
	if e.dim == 0 {
		return []Match{}, nil
	}
	if len(vec) != e.dim {
		return nil, fmt.Errorf("vector search: %w", &DimensionError{Store: e.label(), Want: e.dim, Got: len(vec)})
	}
	q, err := Normalize(nil, vec)
	if err != nil {
		return nil, fmt.Errorf("vector search: query: %w", err)
	}
	h := newTopK(k)
	if e.view != nil {
		if err := e.view.search(ctx, q, paperID, h); err != nil {
			return nil, err
		}
		return h.matches(), nil
	}
	if paperID != "" {
		if s := e.segs[paperID]; s != nil {
			scan(q, s, h)
		}
		return h.matches(), nil
	}
	for _, s := range e.segs {
		// Checked per paper: cheap, and a cancelled corpus-wide search
		// stops within one paper's worth of work.
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("vector search: %w", err)
		}
		scan(q, s, h)
	}
	return h.matches(), nil
}

// scan scores every row of s against the unit query q into h.
func scan(q []float32, s *segment, h *topK) {
	var buf [scanBlock]float32
	dim := len(q)
	for lo := 0; lo < len(s.ids); lo += scanBlock {
		n := min(scanBlock, len(s.ids)-lo)
		scores := buf[:n]
		scoreRows(q, s.vecs[lo*dim:(lo+n)*dim], scores)
		for j, sc := range scores {
			if f, full := h.floor(); full && sc < f {
				continue
			}
			h.push(cand{score: sc, id: s.ids[lo+j], paper: s.paper})
		}
	}
}

// scanBlock rows are scored before any is offered to the heap: a block of
// scores stays in L1, and the scoring loop runs without the heap's
// branches between rows.
const scanBlock = 128

// Close implements Store: it unmaps the segments (no file is held open
// between writes) or drops the vectors from memory.
func (e *Embedded) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closed = true
	if e.maps != nil {
		unmapUnused(e.maps, nil)
	}
	e.view = nil
	e.segs, e.where, e.n = nil, nil, 0
	return nil
}
