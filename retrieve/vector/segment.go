package vector

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"slices"
	"sort"
	"unsafe"

	"github.com/paperlens/paperlens/internal/mmapfile"
)

// A segment file holds the points of one write (or of a merge of several)
// so that a search reads them straight from the page cache:
//
//	header   64 bytes: magic, dim, rows, papers, names and ids blob sizes,
//	         CRC-32C of the metadata
//	vectors  rows × dim little-endian float32, unit length, row by row,
//	         rows ordered by (paper, id): each paper's rows are one range
//	metadata paperStart [papers+1]u32  first row of each paper, then rows
//	         nameOff    [papers+1]u32  paper names in the names blob
//	         idOff      [rows+1]u32    passage ids in the ids blob
//	         byID       [rows]u32      rows in id order, for lookups by id
//	         names blob, ids blob
//
// Everything is found by offset arithmetic and binary search over the
// mapping: opening a segment allocates a few small structs whatever its
// size. The vectors start at byte 64 and every array at a multiple of 4,
// so the mapping (page-aligned) can be read as []float32 and []uint32
// without copying.
const (
	segMagic      = "PLVSEG\x00\x01"
	segHeaderSize = 64
	// maxSegRows and maxDim keep every size computed below far from
	// overflow, and offsets within u32.
	maxSegRows = 1 << 30
	maxDim     = 1 << 16
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// hostLittleEndian: the file is little-endian and read in place.
var hostLittleEndian = func() bool { x := uint16(1); return *(*byte)(unsafe.Pointer(&x)) == 1 }()

// mapping is one open segment file. It is immutable; which of its rows
// are deleted is the manifest's business (view).
type mapping struct {
	file       string // base name in the store's folder
	data       []byte // the whole file, mapped
	unmap      func() error
	dim, rows  int
	vecs       []float32
	paperStart []uint32
	nameOff    []uint32
	idOff      []uint32
	byID       []uint32
	names, ids []byte
}

// u32s views b[off:off+4n] as n uint32s.
func u32s(b []byte, off, n int) []uint32 {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(&b[off])), n)
}

// openSegment maps and validates path. Every offset is checked against the
// file's size and the metadata against its checksum, so that a damaged or
// truncated file is an error here and never an out-of-range read later.
// The vectors are not checksummed (that would read the whole file at
// every start): a flipped bit there changes a score, not the program.
func openSegment(dir, file string) (*mapping, error) {
	path := dir + string(os.PathSeparator) + file
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	data, unmap, err := mmapfile.Map(f, fi.Size())
	if err != nil {
		return nil, fmt.Errorf("segment %s: %w", path, err)
	}
	m, err := parseSegment(file, data)
	if err != nil {
		_ = unmap()
		return nil, fmt.Errorf("segment %s: %w (file damaged?)", path, err)
	}
	m.unmap = unmap
	return m, nil
}

// parseSegment checks data and builds the views into it.
func parseSegment(file string, data []byte) (*mapping, error) {
	if !hostLittleEndian {
		return nil, errors.New("the embedded vector store needs a little-endian machine")
	}
	if len(data) < segHeaderSize || string(data[:8]) != segMagic {
		return nil, errors.New("not a vector segment (bad header)")
	}
	le := binary.LittleEndian
	dim, rows, papers := uint64(le.Uint32(data[8:])), uint64(le.Uint32(data[12:])), uint64(le.Uint32(data[16:]))
	namesLen, idsLen, sum := uint64(le.Uint32(data[20:])), le.Uint64(data[24:]), le.Uint32(data[32:])
	if dim == 0 || dim > maxDim || rows > maxSegRows || papers > rows || (papers == 0) != (rows == 0) || idsLen > 1<<40 {
		return nil, fmt.Errorf("implausible header: dim %d, %d rows, %d papers", dim, rows, papers)
	}
	metaOff := segHeaderSize + rows*dim*4
	arrays := 4 * (2*(papers+1) + 2*rows + 1)
	if want := metaOff + arrays + namesLen + idsLen; uint64(len(data)) != want {
		return nil, fmt.Errorf("%d bytes, want %d for %d rows of dimension %d (truncated?)", len(data), want, rows, dim)
	}
	if got := crc32.Checksum(data[metaOff:], crcTable); got != sum {
		return nil, fmt.Errorf("metadata checksum %08x, want %08x", got, sum)
	}
	m := &mapping{file: file, data: data, dim: int(dim), rows: int(rows)}
	if rows > 0 {
		m.vecs = unsafe.Slice((*float32)(unsafe.Pointer(&data[segHeaderSize])), int(rows*dim))
	}
	off := int(metaOff)
	take := func(n int) []uint32 { s := u32s(data, off, n); off += 4 * n; return s }
	m.paperStart = take(int(papers) + 1)
	m.nameOff = take(int(papers) + 1)
	m.idOff = take(int(rows) + 1)
	m.byID = take(int(rows))
	m.names = data[off : off+int(namesLen)]
	m.ids = data[off+int(namesLen):]
	if err := m.checkOffsets(); err != nil {
		return nil, err
	}
	return m, nil
}

// checkOffsets makes every later slice expression safe: ranges start at 0,
// never decrease, end at their blob's or the rows' end, and byID names
// rows that exist. Papers must be non-empty, so a paper has one range.
func (m *mapping) checkOffsets() error {
	mono := func(what string, s []uint32, end int, strict bool) error {
		if s[0] != 0 || int(s[len(s)-1]) != end {
			return fmt.Errorf("%s offsets do not span 0..%d", what, end)
		}
		for i := 1; i < len(s); i++ {
			if s[i] < s[i-1] || (strict && s[i] == s[i-1]) {
				return fmt.Errorf("%s offsets out of order at %d", what, i)
			}
		}
		return nil
	}
	if err := mono("paper row", m.paperStart, m.rows, true); err != nil {
		return err
	}
	if err := mono("paper name", m.nameOff, len(m.names), false); err != nil {
		return err
	}
	if err := mono("passage id", m.idOff, len(m.ids), false); err != nil {
		return err
	}
	for _, r := range m.byID {
		if int(r) >= m.rows {
			return fmt.Errorf("id index names row %d of %d", r, m.rows)
		}
	}
	return nil
}

func (m *mapping) close() error {
	unmap := m.unmap
	m.data, m.vecs, m.paperStart, m.nameOff, m.idOff, m.byID, m.names, m.ids, m.unmap = nil, nil, nil, nil, nil, nil, nil, nil, nil
	if unmap == nil { // parsed from bytes not mapped (tests, fuzzing)
		return nil
	}
	return unmap()
}

// row is the unit vector of row r, in the mapping.
func (m *mapping) row(r int) []float32 { return m.vecs[r*m.dim : r*m.dim+m.dim] }

// id and paperName return strings that point into the mapping: valid only
// while it is mapped, so results that leave the store are cloned.
func (m *mapping) id(r int) string {
	b := m.ids[m.idOff[r]:m.idOff[r+1]]
	return unsafe.String(unsafe.SliceData(b), len(b))
}

func (m *mapping) paperName(p int) string {
	b := m.names[m.nameOff[p]:m.nameOff[p+1]]
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// papers is the number of papers with rows here.
func (m *mapping) papers() int { return len(m.paperStart) - 1 }

// paperRows is the row range of paper, empty when it has none here.
func (m *mapping) paperRows(paper string) (lo, hi int) {
	n := m.papers()
	p := sort.Search(n, func(i int) bool { return m.paperName(i) >= paper })
	if p == n || m.paperName(p) != paper {
		return 0, 0
	}
	return int(m.paperStart[p]), int(m.paperStart[p+1])
}

// paperOf is the index of the paper row r belongs to.
func (m *mapping) paperOf(r int) int {
	return sort.Search(m.papers(), func(i int) bool { return int(m.paperStart[i+1]) > r })
}

// findID is the row holding id, or -1.
func (m *mapping) findID(id string) int {
	i := sort.Search(m.rows, func(i int) bool { return m.id(int(m.byID[i])) >= id })
	if i < m.rows && m.id(int(m.byID[i])) == id {
		return int(m.byID[i])
	}
	return -1
}

// segWriter writes one segment file, streaming the vectors: only the
// metadata (a few words and the id per row) is held until the end.
type segWriter struct {
	f          *os.File
	bw         *bufio.Writer
	dim        int
	rows       int
	paperStart []uint32
	nameOff    []uint32
	names      []byte
	idOff      []uint32
	ids        []byte
	lastPaper  string
	lastID     string
	buf        []byte
}

func newSegWriter(path string, dim int) (*segWriter, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	w := &segWriter{f: f, bw: bufio.NewWriterSize(f, 1<<20), dim: dim, nameOff: []uint32{0}, idOff: []uint32{0}, buf: make([]byte, 4*dim)}
	if _, err := w.bw.Write(make([]byte, segHeaderSize)); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// add appends one unit vector. Points must come in strictly increasing
// (paper, id) order, which gives each paper one range of rows.
func (w *segWriter) add(paper, id string, vec []float32) error {
	if w.rows > 0 && cmp.Or(cmp.Compare(paper, w.lastPaper), cmp.Compare(id, w.lastID)) <= 0 {
		return fmt.Errorf("segment rows out of order: %s/%s after %s/%s", paper, id, w.lastPaper, w.lastID)
	}
	if w.rows == maxSegRows {
		return fmt.Errorf("a segment holds at most %d rows", maxSegRows)
	}
	if w.rows == 0 || paper != w.lastPaper {
		w.paperStart = append(w.paperStart, uint32(w.rows))
		w.names = append(w.names, paper...)
		w.nameOff = append(w.nameOff, uint32(len(w.names)))
		w.lastPaper = paper
	}
	w.ids = append(w.ids, id...)
	if len(w.ids) > math.MaxUint32 {
		return errors.New("a segment's ids exceed 4 GB")
	}
	w.idOff = append(w.idOff, uint32(len(w.ids)))
	w.lastID = id
	for i, x := range vec {
		binary.LittleEndian.PutUint32(w.buf[4*i:], math.Float32bits(x))
	}
	w.rows++
	_, err := w.bw.Write(w.buf)
	return err
}

// finish writes the metadata and header and syncs the file: once it
// returns, a manifest may name the file.
func (w *segWriter) finish() (err error) {
	defer func() {
		if cerr := w.f.Close(); err == nil {
			err = cerr
		}
	}()
	w.paperStart = append(w.paperStart, uint32(w.rows))
	byID := make([]uint32, w.rows)
	for i := range byID {
		byID[i] = uint32(i)
	}
	id := func(r uint32) string { return string(w.ids[w.idOff[r]:w.idOff[r+1]]) }
	slices.SortFunc(byID, func(a, b uint32) int { return cmp.Compare(id(a), id(b)) })
	crc := crc32.New(crcTable)
	var b4 [4]byte
	put := func(s []uint32) error {
		for _, x := range s {
			binary.LittleEndian.PutUint32(b4[:], x)
			crc.Write(b4[:])
			if _, err := w.bw.Write(b4[:]); err != nil {
				return err
			}
		}
		return nil
	}
	for _, s := range [][]uint32{w.paperStart, w.nameOff, w.idOff, byID} {
		if err := put(s); err != nil {
			return err
		}
	}
	for _, blob := range [][]byte{w.names, w.ids} {
		crc.Write(blob)
		if _, err := w.bw.Write(blob); err != nil {
			return err
		}
	}
	if err := w.bw.Flush(); err != nil {
		return err
	}
	h := make([]byte, segHeaderSize)
	copy(h, segMagic)
	le := binary.LittleEndian
	le.PutUint32(h[8:], uint32(w.dim))
	le.PutUint32(h[12:], uint32(w.rows))
	le.PutUint32(h[16:], uint32(len(w.paperStart)-1))
	le.PutUint32(h[20:], uint32(len(w.names)))
	le.PutUint64(h[24:], uint64(len(w.ids)))
	le.PutUint32(h[32:], crc.Sum32())
	if _, err := w.f.WriteAt(h, 0); err != nil {
		return err
	}
	return w.f.Sync()
}

// abort drops a half-written segment.
func (w *segWriter) abort() {
	w.f.Close()
	os.Remove(w.f.Name())
}
