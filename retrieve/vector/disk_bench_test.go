package vector

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// benchSizes are the store sizes of BenchmarkOpen: 10k and 100k points by
// default, PAPERLENS_BENCH_VECTORS=1000000 (or any list) by hand.
func benchSizes(b *testing.B) []int {
	s := os.Getenv("PAPERLENS_BENCH_VECTORS")
	if s == "" {
		return []int{10_000, 100_000}
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			b.Fatalf("PAPERLENS_BENCH_VECTORS=%q: want sizes like 10000,100000", s)
		}
		out = append(out, n)
	}
	return out
}

// BenchmarkOpen compares, on one store of random unit vectors (256-d, 200
// a paper) written both ways, the mapped store with the schema 1 one it
// replaces (a bbolt file read whole into the heap at open, which is what
// a read-only open of such a file still does):
//
//	open-ms, old-open-ms   open and first corpus-wide top-10 search
//	open-x                 old ÷ new
//	heap-MB, old-heap-MB   heap allocated and live after the open and search
//	p50-ms, p99-ms         corpus-wide top-10 over 200 queries, new store
//	old-p50-ms, old-p99-ms the same on the old store with its scan (one
//	                       dotGo per row, each row offered to the heap:
//	                       oldSearch, the code this replaced)
//	old/new-p50            their ratio
//
//	go test ./retrieve/vector -run '^$' -bench Open -benchtime 1x
func BenchmarkOpen(b *testing.B) {
	for _, n := range benchSizes(b) {
		b.Run(strconv.Itoa(n), func(b *testing.B) { benchOpen(b, n) })
	}
}

func benchOpen(b *testing.B, n int) {
	f := getFixture(b, n)
	var pts []Point
	for i, row := range f.rows {
		id := f.ids[i]
		pts = append(pts, Point{ID: id, PaperID: id[:strings.IndexByte(id, '#')], Vector: row})
	}
	newDir, oldDir := b.TempDir(), b.TempDir()
	w, err := OpenEmbedded(newDir)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	writeBatches(b, w, pts, 1024) // the index build's batch
	b.Logf("wrote %d points in 1,024-point batches in %v (%d segments)", n, time.Since(start).Round(time.Millisecond), len(w.view.segs))
	w.Close()
	writeLegacy(b, oldDir, benchDim, pts)
	f.rows, f.ids, f.e, pts = nil, nil, nil, nil
	clear(fixtures) // the fixture's heap is not the stores'
	ctx := context.Background()
	q := f.queries[0]

	// open opens dir read-only and searches once, returning the time and
	// the heap it holds.
	open := func(dir string) (*Embedded, time.Duration, float64) {
		runtime.GC()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		t := time.Now()
		e, err := OpenEmbeddedReadOnly(dir)
		if err == nil {
			_, err = e.Search(ctx, q, "", benchK)
		}
		d := time.Since(t)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		return e, d, float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20)
	}
	var newOpen, oldOpen time.Duration
	var newHeap, oldHeap float64
	for b.Loop() {
		e, d, h := open(newDir)
		e.Close()
		newOpen, newHeap = newOpen+d, h
		e, d, h = open(oldDir)
		e.Close()
		oldOpen, oldHeap = oldOpen+d, h
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(ms(newOpen), "open-ms")
	b.ReportMetric(ms(oldOpen), "old-open-ms")
	b.ReportMetric(float64(oldOpen)/float64(newOpen), "open-x")
	b.ReportMetric(newHeap, "heap-MB")
	b.ReportMetric(oldHeap, "old-heap-MB")

	// One query on each store in turn, so a busy machine slows both alike.
	e, _, _ := open(newDir)
	old, _, _ := open(oldDir)
	var newD, oldD []time.Duration
	for _, q := range f.queries {
		t := time.Now()
		got, err := e.Search(ctx, q, "", benchK)
		if err != nil {
			b.Fatal(err)
		}
		newD = append(newD, time.Since(t))
		t = time.Now()
		want := oldSearch(old, q, benchK)
		oldD = append(oldD, time.Since(t))
		for i := range want {
			if got[i].ID != want[i].ID || got[i].Score != want[i].Score {
				b.Fatalf("the stores disagree at rank %d: %+v, %+v", i+1, got[i], want[i])
			}
		}
	}
	e.Close()
	old.Close()
	msf := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(msf(median(newD)), "p50-ms")
	b.ReportMetric(msf(percentile(newD, 0.99)), "p99-ms")
	b.ReportMetric(msf(median(oldD)), "old-p50-ms")
	b.ReportMetric(msf(percentile(oldD, 0.99)), "old-p99-ms")
	b.ReportMetric(float64(median(oldD))/float64(median(newD)), "old/new-p50")
}

// oldSearch is the corpus-wide search of the store before segments: the
// paper slices of a heap store in map order, one dot per row, each row
// offered to the heap.
func oldSearch(e *Embedded, vec []float32, k int) []Match {
	q, _ := Normalize(nil, vec)
	h := newTopK(k)
	for _, s := range e.segs {
		dim := len(q)
		for r, id := range s.ids {
			sc := dotGo(q, s.vecs[r*dim:r*dim+dim])
			if f, full := h.floor(); full && sc < f {
				continue
			}
			h.push(cand{score: sc, id: id, paper: s.paper})
		}
	}
	return h.matches()
}
