package vector

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"

	bolt "go.etcd.io/bbolt"
)

// testPoints is n points of dimension dim spread over papers of per points.
func testPoints(seed uint64, n, per, dim int) []Point {
	r := rand.New(rand.NewPCG(seed, 1))
	pts := make([]Point, n)
	for i := range pts {
		v := make([]float32, dim)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		paper := fmt.Sprintf("paper%03d", i/per)
		pts[i] = Point{ID: fmt.Sprintf("%s#%d", paper, i%per), PaperID: paper, Vector: v}
	}
	return pts
}

func mustOpen(t testing.TB, dir string, readOnly bool) *Embedded {
	t.Helper()
	open := OpenEmbedded
	if readOnly {
		open = OpenEmbeddedReadOnly
	}
	e, err := open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// writeBatches upserts pts batch points at a time.
func writeBatches(t testing.TB, e *Embedded, pts []Point, batch int) {
	t.Helper()
	for i := 0; i < len(pts); i += batch {
		if err := e.Upsert(context.Background(), pts[i:min(i+batch, len(pts))]); err != nil {
			t.Fatal(err)
		}
	}
}

func segFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, segPrefix+"*"+segSuffix))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Writes of many batches merge into few segments, and the folder holds
// only the files the manifest names.
func TestEmbeddedMerges(t *testing.T) {
	dir := t.TempDir()
	e := mustOpen(t, dir, false)
	pts := testPoints(1, 3000, 40, 16)
	writeBatches(t, e, pts, 20) // 150 writes
	if n, _ := e.Count(context.Background()); n != len(pts) {
		t.Fatalf("Count = %d, want %d", n, len(pts))
	}
	segs := len(e.view.segs)
	if segs > 3*(mergeFanIn-1) {
		t.Errorf("150 writes left %d segments; merging should keep them at most %d", segs, 3*(mergeFanIn-1))
	}
	if files := segFiles(t, dir); len(files) != segs {
		t.Errorf("folder holds %d segment files, the manifest names %d", len(files), segs)
	}
	// Deleting most of the papers rewrites or drops the segments they were in.
	for p := range 70 {
		if err := e.DeletePaper(context.Background(), fmt.Sprintf("paper%03d", p)); err != nil {
			t.Fatal(err)
		}
	}
	rows := 0
	for _, s := range e.view.segs {
		rows += s.m.rows
		if s.live*2 < s.m.rows {
			t.Errorf("segment %s: %d of %d rows live after compaction", s.m.file, s.live, s.m.rows)
		}
	}
	if n, _ := e.Count(context.Background()); n != len(pts)-70*40 {
		t.Errorf("Count = %d after deleting 70 papers, want %d", n, len(pts)-70*40)
	}
	if rows > 2*(len(pts)-70*40) {
		t.Errorf("%d rows stored for %d live points", rows, len(pts)-70*40)
	}
}

// A reader maps a snapshot: writes and merges after it opened, which
// delete the files it mapped, change nothing it finds; a reader opened
// after them finds everything.
func TestEmbeddedReaderSurvivesMerges(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	w := mustOpen(t, dir, false)
	pts := testPoints(2, 1600, 20, 8)
	writeBatches(t, w, pts[:200], 25)
	r := mustOpen(t, dir, true)
	q := pts[5].Vector
	before, err := r.Search(ctx, q, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	mapped := r.view.segs[0].m.file
	writeBatches(t, w, pts[200:], 25) // 56 more writes: merges
	if _, err := os.Stat(filepath.Join(dir, mapped)); !os.IsNotExist(err) {
		t.Fatalf("the segment the reader mapped was not merged away (stat: %v)", err)
	}
	after, err := r.Search(ctx, q, "", 10)
	if err != nil || !reflect.DeepEqual(after, before) {
		t.Fatalf("reader's search after the writer merged: %v, %v; want %v", after, err, before)
	}
	if n, _ := r.Count(ctx); n != 200 {
		t.Errorf("reader counts %d, want its snapshot's 200", n)
	}
	fresh := mustOpen(t, dir, true)
	if n, _ := fresh.Count(ctx); n != len(pts) {
		t.Errorf("new reader counts %d, want %d", n, len(pts))
	}
	got, _ := fresh.Search(ctx, q, pts[5].PaperID, 1)
	if len(got) != 1 || got[0].ID != pts[5].ID {
		t.Errorf("new reader's best match in %s: %v, want %s", pts[5].PaperID, got, pts[5].ID)
	}
}

// Opening a store allocates for its manifest and segments, not its rows:
// 16 times the points, about the same allocation (the search's own, a
// top-k heap, is included).
func TestEmbeddedOpenDoesNotLoad(t *testing.T) {
	ctx := context.Background()
	alloc := func(n int) uint64 {
		dir := t.TempDir()
		w := mustOpen(t, dir, false)
		writeBatches(t, w, testPoints(3, n, 50, 64), n) // one segment
		w.Close()
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		r, err := OpenEmbeddedReadOnly(dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Search(ctx, make4x16(), "", 10); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&b)
		r.Close()
		return b.TotalAlloc - a.TotalAlloc
	}
	small, large := alloc(1000), alloc(16000)
	if float64(large) > 2*float64(small)+64<<10 {
		t.Errorf("open and search of 16,000 points allocated %d bytes, of 1,000 points %d: the open reads the rows", large, small)
	}
	t.Logf("allocated at open and first search: %d B for 1,000 points, %d B for 16,000 (the vectors: %d B)", small, large, 16000*64*4)
}

func make4x16() []float32 {
	v := make([]float32, 64)
	for i := range v {
		v[i] = float32(i%4) - 1.5
	}
	return v
}

// Damage to any file of the store is an error naming the file, at open,
// for writers and readers alike; never a panic or a wrong answer later.
func TestEmbeddedCorruptFiles(t *testing.T) {
	src := t.TempDir()
	w := mustOpen(t, src, false)
	writeBatches(t, w, testPoints(4, 120, 30, 8), 120)
	w.Close()
	seg := filepath.Base(segFiles(t, src)[0])
	segData, _ := os.ReadFile(filepath.Join(src, seg))
	man, _ := os.ReadFile(filepath.Join(src, FileName))
	metaOff := segHeaderSize + 120*8*4
	edit := func(b []byte, f func([]byte) []byte) []byte { return f(slices.Clone(b)) }
	cases := []struct {
		name     string
		file     string // which file is replaced: FileName or the segment
		data     []byte
		mentions string
	}{
		{"truncated segment", seg, segData[:len(segData)-7], seg},
		{"segment cut in the vectors", seg, segData[:segHeaderSize+100], seg},
		{"segment header only", seg, segData[:10], seg},
		{"bad magic", seg, edit(segData, func(b []byte) []byte { b[0] = 'X'; return b }), seg},
		{"huge dimension", seg, edit(segData, func(b []byte) []byte { binary.LittleEndian.PutUint32(b[8:], 1<<31); return b }), seg},
		{"row count off", seg, edit(segData, func(b []byte) []byte { binary.LittleEndian.PutUint32(b[12:], 121); return b }), seg},
		{"metadata bit flip", seg, edit(segData, func(b []byte) []byte { b[metaOff+5] ^= 1; return b }), seg},
		{"id blob bit flip", seg, edit(segData, func(b []byte) []byte { b[len(b)-1] ^= 0x40; return b }), seg},
		{"empty segment", seg, nil, seg},
		{"manifest garbage", FileName, []byte(strings.Repeat("x", 300)), FileName},
		{"manifest cut", FileName, man[:len(man)/2], FileName},
		{"manifest names a path", FileName, []byte(strings.Replace(string(man), seg, "../"+seg, 1)), FileName},
		{"manifest rows", FileName, []byte(strings.Replace(string(man), `"rows":120`, `"rows":119`, 1)), seg},
		{"manifest dimension", FileName, []byte(strings.Replace(string(man), `"dim":8`, `"dim":9`, 1)), seg},
		{"manifest deleted row out of range", FileName, []byte(strings.Replace(string(man), `"level":0`, `"level":0,"deleted":[5,500]`, 1)), FileName},
		{"manifest deleted ranges out of order", FileName, []byte(strings.Replace(string(man), `"level":0`, `"level":0,"deleted":[8,9,3,4]`, 1)), FileName},
		{"manifest deleted range open", FileName, []byte(strings.Replace(string(man), `"level":0`, `"level":0,"deleted":[8]`, 1)), FileName},
		{"manifest schema", FileName, []byte(strings.Replace(string(man), `"schema":2`, `"schema":3`, 1)), "rebuild"},
		{"missing segment", seg, []byte("remove"), seg},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range []string{FileName, seg} {
				data := man
				if f == seg {
					data = segData
				}
				if f == tc.file {
					data = tc.data
				}
				if string(data) == "remove" {
					continue
				}
				if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, open := range []func(string) (*Embedded, error){OpenEmbedded, OpenEmbeddedReadOnly} {
				e, err := open(dir)
				if err == nil {
					e.Close()
					t.Fatalf("opened a store with %s", tc.name)
				}
				if !strings.Contains(err.Error(), tc.mentions) {
					t.Errorf("error does not name %s: %v", tc.mentions, err)
				}
			}
		})
	}
}

// aligned copies b into memory aligned as a mapping is (page-aligned in
// use), since segments are read as []uint32 and []float32 in place.
func aligned(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	words := make([]uint64, (len(b)+7)/8)
	out := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(b))
	copy(out, b)
	return out
}

// FuzzParseSegment: whatever the bytes, parsing fails or gives a segment
// whose every accessor stays in range.
func FuzzParseSegment(f *testing.F) {
	dir := f.TempDir()
	w, err := OpenEmbedded(dir)
	if err != nil {
		f.Fatal(err)
	}
	pts := testPoints(5, 40, 7, 4)
	pts = append(pts, Point{ID: "", PaperID: "x", Vector: []float32{1, 0, 0, 0}})
	if err := w.Upsert(context.Background(), pts[:40]); err != nil {
		f.Fatal(err)
	}
	w.Close()
	m, _ := filepath.Glob(filepath.Join(dir, segPrefix+"*"))
	seed, _ := os.ReadFile(m[0])
	f.Add(seed)
	f.Add(seed[:segHeaderSize])
	f.Add([]byte(segMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := parseSegment("fuzz", aligned(data))
		if err != nil {
			return
		}
		var s float32
		for r := range m.rows {
			s += m.row(r)[0]
			_ = m.findID(m.id(r))
			_ = m.paperName(m.paperOf(r))
		}
		for p := range m.papers() {
			m.paperRows(m.paperName(p))
		}
		m.paperRows("nope")
		_ = math.IsNaN(float64(s))
	})
}

// writeLegacy writes pts as the schema 1 bbolt file did.
func writeLegacy(t testing.TB, dir string, dim int, pts []Point) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, FileName), 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		meta, _ := tx.CreateBucket(bucketMeta)
		var v [4]byte
		binary.BigEndian.PutUint32(v[:], legacySchema)
		meta.Put(keySchema, slices.Clone(v[:]))
		binary.BigEndian.PutUint32(v[:], uint32(dim))
		meta.Put(keyDim, slices.Clone(v[:]))
		papers, _ := tx.CreateBucket(bucketPapers)
		for _, p := range pts {
			b, err := papers.CreateBucketIfNotExists([]byte(p.PaperID))
			if err != nil {
				return err
			}
			u, _ := Normalize(nil, p.Vector)
			buf := make([]byte, 4*dim)
			for i, x := range u {
				binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(x))
			}
			if err := b.Put([]byte(p.ID), buf); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A schema 1 store is searched read-only as it was, and converted by the
// first writer to open it, with the same results.
func TestEmbeddedLegacyConverted(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	pts := testPoints(6, 300, 30, 12)
	writeLegacy(t, dir, 12, pts)
	mem := NewMemory()
	if err := mem.Upsert(ctx, pts); err != nil {
		t.Fatal(err)
	}
	q := testPoints(7, 1, 1, 12)[0].Vector
	want, _ := mem.Search(ctx, q, "", 20)
	wantPaper, _ := mem.Search(ctx, q, "paper003", 5)
	r := mustOpen(t, dir, true)
	if r.view != nil {
		t.Fatal("a read-only open converted the store")
	}
	w := mustOpen(t, dir, false)
	if k, _ := sniff(filepath.Join(dir, FileName)); k != kindManifest {
		t.Fatalf("after a writer's open the file is kind %d, want the manifest", k)
	}
	again := mustOpen(t, dir, true)
	for name, s := range map[string]*Embedded{"legacy read-only": r, "converting writer": w, "converted read-only": again} {
		got, err := s.Search(ctx, q, "", 20)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, %v; want %v", name, got, err, want)
		}
		got, _ = s.Search(ctx, q, "paper003", 5)
		if !reflect.DeepEqual(got, wantPaper) {
			t.Errorf("%s in paper003: %v; want %v", name, got, wantPaper)
		}
	}
}

// Deleted rows round-trip through the manifest's ranges.
func TestDeletedRanges(t *testing.T) {
	dir := t.TempDir()
	e := mustOpen(t, dir, false)
	pts := testPoints(8, 200, 10, 4)
	writeBatches(t, e, pts, 200)
	ctx := context.Background()
	for _, p := range []string{"paper000", "paper005", "paper006", "paper019"} {
		if err := e.DeletePaper(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	// Single rows too: replacing a point deletes its old row.
	if err := e.Upsert(ctx, []Point{pts[33], pts[35], pts[36]}); err != nil {
		t.Fatal(err)
	}
	if got, want := e.view.segs[0].deleted(), []uint32{0, 10, 33, 34, 35, 37, 50, 70, 190, 200}; !slices.Equal(got, want) {
		t.Errorf("deleted ranges %v, want %v", got, want)
	}
	r := mustOpen(t, dir, true)
	if n, _ := r.Count(ctx); n != 160 {
		t.Errorf("reopened: %d points, want 160", n)
	}
	for i := range e.view.segs {
		if !slices.Equal(e.view.segs[i].dead, r.view.segs[i].dead) {
			t.Errorf("segment %d: reopened deletions differ", i)
		}
	}
}
