package vector

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

// The search benchmarks build stores of random unit vectors, 200 per paper
// (a long paper's passage count), and report besides ns/op:
//
//	p50-ns, p99-ns   latency of single corpus-wide top-10 queries
//	naive-x          how many times slower the plain loop over [][]float32
//	                 is on the same vectors and queries (median vs median)
//	bound-x          median latency ÷ (bytes scanned ÷ copy() rate): 1 means
//	                 the scan runs at memory-copy speed
//	heap-MB          heap in use by the store (runtime.MemStats.HeapInuse)
//
// Select one size with e.g. -bench 'Search/5000$'. The 1,000,000 case holds
// 1 GB of vectors and takes ~10 s to build and run with -benchtime 1x.

const (
	benchDim      = 256
	benchPerPaper = 200
	benchK        = 10
)

type fixture struct {
	e       *Embedded
	rows    [][]float32 // views into the store's own slabs, for the naive loop
	ids     []string
	queries [][]float32
	heapMB  float64
}

var (
	fixtureMu sync.Mutex
	fixtures  = map[int]*fixture{}
)

// getFixture builds (once per size) an in-memory store through the real
// Upsert path, so heap-MB is what an index of that size really costs.
func getFixture(b *testing.B, n int) *fixture {
	fixtureMu.Lock()
	defer fixtureMu.Unlock()
	if f := fixtures[n]; f != nil {
		return f
	}
	// Only one large fixture at a time, so heap-MB is not inflated by the
	// previous size and 1M does not need 1.1 GB on top of 100k.
	clear(fixtures)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	start := time.Now()
	e := NewMemory()
	r := rand.New(rand.NewPCG(uint64(n), 42))
	scratch := make([]float32, benchPerPaper*benchDim)
	pts := make([]Point, 0, benchPerPaper)
	for p := 0; p*benchPerPaper < n; p++ {
		m := min(benchPerPaper, n-p*benchPerPaper)
		paper := "paper" + strconv.Itoa(p)
		pts = pts[:0]
		for i := range m {
			v := scratch[i*benchDim : (i+1)*benchDim]
			fillRandom(r, v)
			pts = append(pts, Point{ID: paper + "#" + strconv.Itoa(i), PaperID: paper, Vector: v})
		}
		if err := e.Upsert(context.Background(), pts); err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)

	f := &fixture{e: e, heapMB: float64(after.HeapInuse-before.HeapInuse) / (1 << 20)}
	for _, s := range e.segs {
		for row, id := range s.ids {
			f.rows = append(f.rows, s.vecs[row*benchDim:(row+1)*benchDim])
			f.ids = append(f.ids, id)
		}
	}
	for range 200 {
		q := make([]float32, benchDim)
		fillRandom(r, q)
		f.queries = append(f.queries, q)
	}
	fixtures[n] = f
	b.Logf("built %d vectors × %d in %v", n, benchDim, time.Since(start).Round(time.Millisecond))
	return f
}

// fillRandom is uniform in [-1, 1): cheap to generate a gigabyte of, and
// as good as any for timing a scan that looks at every vector.
func fillRandom(r *rand.Rand, v []float32) {
	for i := range v {
		v[i] = float32(r.Uint32()>>8)/(1<<23) - 1
	}
}

// naiveSearch is the reference: the loop anyone would write first, over one
// slice per vector, with the same top-k heap so only the scan differs.
func naiveSearch(q []float32, rows [][]float32, ids []string, k int) []Match {
	h := newTopK(k)
	for r, v := range rows {
		var s float32
		for i := range v {
			s += q[i] * v[i]
		}
		h.push(cand{score: s, id: ids[r]})
	}
	return h.matches()
}

var (
	copyOnce sync.Once
	copyRate float64 // bytes per second
)

// memCopyRate measures copy() over 256 MB, far beyond any cache, once per
// process: the practical ceiling for streaming memory on this machine.
func memCopyRate() float64 {
	copyOnce.Do(func() {
		const size = 256 << 20
		src, dst := make([]byte, size), make([]byte, size)
		for i := range src {
			src[i] = byte(i)
		}
		copy(dst, src) // fault in dst's pages before timing
		best := time.Duration(1 << 62)
		for range 3 {
			t := time.Now()
			copy(dst, src)
			best = min(best, time.Since(t))
		}
		copyRate = size / best.Seconds()
	})
	return copyRate
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func percentile(ds []time.Duration, p float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{5000, 100_000, 1_000_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) { benchSearch(b, n) })
	}
}

func benchSearch(b *testing.B, n int) {
	f := getFixture(b, n)
	ctx := context.Background()
	rate := memCopyRate()

	// Same answers first: the comparison is only meaningful if both loops
	// compute the same thing.
	got, err := f.e.Search(ctx, f.queries[0], "", benchK)
	if err != nil {
		b.Fatal(err)
	}
	want := naiveSearch(f.queries[0], f.rows, f.ids, benchK)
	for i := range want {
		if got[i].ID != want[i].ID {
			b.Fatalf("store and naive loop disagree at rank %d: %s vs %s", i+1, got[i].ID, want[i].ID)
		}
	}

	b.ResetTimer()
	i := 0
	for b.Loop() {
		if _, err := f.e.Search(ctx, f.queries[i%len(f.queries)], "", benchK); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.StopTimer()

	// 200 queries give a stable p99; at 1M that would be a minute, so the
	// largest size settles for 25 (its p99 is then close to the maximum).
	samples := len(f.queries)
	if n >= 1_000_000 {
		samples = 25
	}
	fast := make([]time.Duration, samples)
	naive := make([]time.Duration, samples)
	for j := range samples {
		q := f.queries[j]
		t := time.Now()
		_, _ = f.e.Search(ctx, q, "", benchK)
		fast[j] = time.Since(t)
		t = time.Now()
		naiveSearch(q, f.rows, f.ids, benchK)
		naive[j] = time.Since(t)
	}
	p50 := median(fast)
	bound := time.Duration(float64(n*benchDim*4) / rate * float64(time.Second))
	b.ReportMetric(float64(p50.Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(percentile(fast, 0.99).Nanoseconds()), "p99-ns")
	b.ReportMetric(float64(median(naive))/float64(p50), "naive-x")
	b.ReportMetric(float64(p50)/float64(bound), "bound-x")
	b.ReportMetric(f.heapMB, "heap-MB")
	b.Logf("n=%d: p50 %v, naive p50 %v, copy rate %.1f GB/s, bound %v", n, p50, median(naive), rate/1e9, bound)
}

// BenchmarkSearchPaper is the ElaipBench case: top-10 within one paper of
// 200 passages, in a corpus of 100,000.
func BenchmarkSearchPaper(b *testing.B) {
	f := getFixture(b, 100_000)
	ctx := context.Background()
	i := 0
	for b.Loop() {
		paper := "paper" + strconv.Itoa(i%(100_000/benchPerPaper))
		if _, err := f.e.Search(ctx, f.queries[i%len(f.queries)], paper, benchK); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkDot times the kernel on cache-resident vectors, where memory
// bandwidth does not hide the difference from the plain loop.
func BenchmarkDot(b *testing.B) {
	naive := func(x, y []float32) float32 {
		var s float32
		for i := range x {
			s += x[i] * y[i]
		}
		return s
	}
	for _, dim := range []int{256, 384, 1024} {
		r := rand.New(rand.NewPCG(1, 1))
		x, y := make([]float32, dim), make([]float32, dim)
		fillRandom(r, x)
		fillRandom(r, y)
		for _, k := range []struct {
			name string
			f    func(x, y []float32) float32
		}{{"unrolled", dot}, {"naive", naive}} {
			b.Run(fmt.Sprintf("%d/%s", dim, k.name), func(b *testing.B) {
				b.SetBytes(int64(4 * dim))
				var s float32
				for b.Loop() {
					s += k.f(x, y)
				}
				sink = s
			})
		}
	}
}

var sink float32
