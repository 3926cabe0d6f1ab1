package index

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paperlens/paperlens/chunk"
	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/embed"
	"github.com/paperlens/paperlens/retrieve/embed/lsa"
	"github.com/paperlens/paperlens/retrieve/vector"
)

// The dense benchmarks run on synthetic corpora made from BEIR SciFact:
// passages of about 1,000 characters (≈250 tokens) of abstract sentences
// drawn with a fixed seed, 20 passages a paper, queried with SciFact's
// claims. Vectors come from the default embedder, LSA of dimension 256,
// fitted as an index build fits it (within DefaultIndexMemory).
//
// Sizes are 10k and 100k passages by default; PAPERLENS_BENCH_PASSAGES
// (e.g. 1000000) replaces them.
//
//	go test ./retrieve/index -run '^$' -bench 'Dense|LSAFit' -benchtime 1x

const benchPerPaper = 20

func densePassageSizes(b *testing.B) []int {
	s := os.Getenv("PAPERLENS_BENCH_PASSAGES")
	if s == "" {
		return []int{10_000, 100_000}
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			b.Fatalf("PAPERLENS_BENCH_PASSAGES=%q: want sizes like 10000,100000", s)
		}
		out = append(out, n)
	}
	return out
}

var (
	sciFactMu               sync.Mutex
	sciFactSents, sciFactQs []string
)

func loadSciFact(path string) ([]string, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, nil, err
	}
	var sents, queries []string
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		if h.Name != "scifact/corpus.jsonl" && h.Name != "scifact/queries.jsonl" {
			continue
		}
		sc := bufio.NewScanner(tr)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var r struct{ Text string }
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", h.Name, err)
			}
			if h.Name == "scifact/queries.jsonl" {
				queries = append(queries, r.Text)
				continue
			}
			for _, s := range chunk.Sentences(r.Text) {
				if t := strings.Join(strings.Fields(r.Text[s.Start:s.End]), " "); len(t) >= 20 {
					sents = append(sents, t)
				}
			}
		}
	}
	return sents, queries, nil
}

// sciFact returns SciFact's abstract sentences and its claims.
func sciFact(tb testing.TB) (sents, queries []string) {
	tb.Helper()
	sciFactMu.Lock()
	defer sciFactMu.Unlock()
	if sciFactSents == nil {
		var err error
		sciFactSents, sciFactQs, err = loadSciFact(filepath.Join(testcorpus.Root(tb), "external", "scifact", "scifact-beir.tar.gz"))
		if err != nil {
			tb.Skipf("BEIR SciFact (shared/external/scifact): %v", err)
		}
	}
	return sciFactSents, sciFactQs
}

// sciFactHome writes n passages into a new corpus store (in memory, under
// /dev/shm when there is one: the store syncs every paper).
func sciFactHome(b *testing.B, n int) (*corpus.Store, []corpus.Document) {
	sents, _ := sciFact(b)
	dir := b.TempDir()
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "paperlens-dense-bench-"); err == nil {
			dir = d
			b.Cleanup(func() { os.RemoveAll(d) })
		}
	}
	st, err := corpus.Open(dir, false)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	rng := rand.New(rand.NewPCG(27, uint64(n)))
	var sb strings.Builder
	for p := 0; p*benchPerPaper < n; p++ {
		sb.Reset()
		var ps []corpus.Passage
		for range min(benchPerPaper, n-p*benchPerPaper) {
			if sb.Len() > 0 {
				sb.WriteString("\n\n")
			}
			start := sb.Len()
			for sb.Len()-start < 1000 {
				if sb.Len() > start {
					sb.WriteByte(' ')
				}
				sb.WriteString(sents[rng.IntN(len(sents))])
			}
			ps = append(ps, corpus.Passage{Tokens: (sb.Len() - start) / 4, Start: start, End: sb.Len(), Text: sb.String()[start:]})
		}
		text := sb.String()
		doc := corpus.Document{PaperID: fmt.Sprintf("sf-%06d", p), Title: fmt.Sprintf("SciFact resample %d", p),
			Source: "synthetic", Kind: "text", SourceHash: strconv.Itoa(p), Chars: len(text), IngestedAt: time.Unix(0, 0).UTC()}
		if err := st.Put(doc, text, ps); err != nil {
			b.Fatal(err)
		}
	}
	docs, err := st.Docs()
	if err != nil {
		b.Fatal(err)
	}
	return st, docs
}

// peakHeap runs fn and returns the most heap it had allocated beyond what
// was live before, sampled every 5 ms.
func peakHeap(fn func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > base && m.HeapAlloc-base > peak.Load() {
				peak.Store(m.HeapAlloc - base)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	fn()
	close(done)
	wg.Wait()
	return peak.Load()
}

// boundedFit fits LSA as Update does, through startFit.
func boundedFit(b *testing.B, st *corpus.Store, docs []corpus.Document) (*lsa.Model, string) {
	ix := &Index{cfg: Config{Embedder: "lsa"}, corpus: st, dir: b.TempDir()}
	var said string
	ch, err := ix.startFit(docs, func(format string, args ...any) { said = fmt.Sprintf(format, args...) })
	if err != nil {
		b.Fatal(err)
	}
	r := <-ch
	if r.err != nil {
		b.Fatal(r.err)
	}
	return r.model, said
}

// BenchmarkLSAFitHeap reports the LSA fit's peak heap as an index build
// runs it (fit-MB: passages read paper by paper, the whole corpus within
// the budget, a sample beyond it) against fitting every passage read into
// memory at once, the build before the bound (old-fit-MB), and their
// ratio; also the passages each fitted on.
func BenchmarkLSAFitHeap(b *testing.B) {
	for _, n := range densePassageSizes(b) {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			st, docs := sciFactHome(b, n)
			var m *lsa.Model
			var said string
			var newPeak, oldPeak uint64
			var oldDocs int
			for b.Loop() {
				newPeak = peakHeap(func() { m, said = boundedFit(b, st, docs) })
				oldPeak = peakHeap(func() {
					var all []string
					for _, d := range docs {
						ps, err := st.Passages(d.PaperID)
						if err != nil {
							b.Fatal(err)
						}
						for _, p := range ps {
							all = append(all, p.Text)
						}
					}
					old, err := lsa.Fit(all, lsa.Options{})
					if err != nil {
						b.Fatal(err)
					}
					oldDocs = old.Docs()
				})
			}
			b.Logf("%d passages: %s", n, said)
			b.ReportMetric(float64(newPeak)/(1<<20), "fit-MB")
			b.ReportMetric(float64(oldPeak)/(1<<20), "old-fit-MB")
			b.ReportMetric(float64(oldPeak)/float64(newPeak), "old/new")
			b.ReportMetric(float64(m.Docs()), "fit-passages")
			b.ReportMetric(float64(oldDocs), "old-fit-passages")
		})
	}
}

// denseFixture is an index over a SciFact home with its vectors in a
// mapped store (vec) and, as the reference, in the store this replaced
// (mem: oldStore).
type denseFixture struct {
	ix      *Index
	vec     *vector.Embedded
	mem     *oldStore
	queries []string
}

// oldStore is the embedded store before segments, as a search saw it once
// the bbolt file was loaded: one heap slice per paper in a map, scanned in
// map order one row at a time with the Go kernel, every row offered to
// the top-k. Only Search is used.
type oldStore struct {
	vector.Store
	papers map[string]*oldPaper
}

type oldPaper struct {
	ids  []string
	vecs []float32
}

func (s *oldStore) Upsert(_ context.Context, pts []vector.Point) error {
	for _, p := range pts {
		pp := s.papers[p.PaperID]
		if pp == nil {
			pp = &oldPaper{}
			s.papers[p.PaperID] = pp
		}
		u, err := vector.Normalize(nil, p.Vector)
		if err != nil {
			return err
		}
		pp.ids = append(pp.ids, p.ID)
		pp.vecs = append(pp.vecs, u...)
	}
	return nil
}

func (s *oldStore) Search(_ context.Context, vec []float32, paperID string, k int) ([]vector.Match, error) {
	q, err := vector.Normalize(nil, vec)
	if err != nil {
		return nil, err
	}
	var top []vector.Match // best first, at most k
	better := func(a, b vector.Match) bool { return a.Score > b.Score || a.Score == b.Score && a.ID < b.ID }
	for paper, p := range s.papers {
		if paperID != "" && paper != paperID {
			continue
		}
		dim := len(q)
		for r, id := range p.ids {
			m := vector.Match{ID: id, PaperID: paper, Score: float64(oldDot(q, p.vecs[r*dim:r*dim+dim]))}
			if len(top) == k && !better(m, top[k-1]) {
				continue
			}
			i, _ := slices.BinarySearchFunc(top, m, func(a, b vector.Match) int {
				if better(a, b) {
					return -1
				}
				return 1
			})
			top = slices.Insert(top, i, m)
			if len(top) > k {
				top = top[:k]
			}
		}
	}
	return top, nil
}

// oldDot is the store's Go kernel before the assembly one (the same bits).
func oldDot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	for len(a) >= 8 && len(b) >= 8 {
		s0 += a[0] * b[0]
		s1 += a[1] * b[1]
		s2 += a[2] * b[2]
		s3 += a[3] * b[3]
		s4 += a[4] * b[4]
		s5 += a[5] * b[5]
		s6 += a[6] * b[6]
		s7 += a[7] * b[7]
		a, b = a[8:], b[8:]
	}
	b = b[:len(a)]
	for i, x := range a {
		s0 += x * b[i]
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}

func newDenseFixture(b *testing.B, n int) *denseFixture {
	ctx := context.Background()
	st, docs := sciFactHome(b, n)
	start := time.Now()
	model, said := boundedFit(b, st, docs)
	b.Logf("%s in %v", said, time.Since(start).Round(time.Millisecond))
	home := b.TempDir()
	ix := &Index{cfg: Config{Home: home, Embedder: "lsa", Store: "embedded", ReadOnly: true}, dir: Dir(home), corpus: st, emb: model, denseLoaded: true}
	w, err := vector.OpenEmbedded(ix.vectorDir())
	if err != nil {
		b.Fatal(err)
	}
	mem := &oldStore{papers: map[string]*oldPaper{}}
	start = time.Now()
	err = ix.pending(docs, &passageSource{corpus: st}, func(paperState) bool { return false }, embedBatch, func(_ []string, ps []corpus.Passage) error {
		texts := make([]string, len(ps))
		for i, p := range ps {
			texts[i] = p.Text
		}
		vecs, err := model.Embed(ctx, texts, embed.Passage)
		if err != nil {
			return err
		}
		pts := make([]vector.Point, 0, len(ps))
		for i, p := range ps {
			if !isZero(vecs[i]) {
				pts = append(pts, vector.Point{ID: p.PassageID, PaperID: p.PaperID, Vector: vecs[i]})
			}
		}
		if err := w.Upsert(ctx, pts); err != nil {
			return err
		}
		return mem.Upsert(ctx, pts)
	})
	if err != nil {
		b.Fatal(err)
	}
	w.Close()
	b.Logf("embedded and stored %d passages in %v", n, time.Since(start).Round(time.Millisecond))
	vec, err := vector.OpenEmbeddedReadOnly(ix.vectorDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { vec.Close() })
	_, queries := sciFact(b)
	return &denseFixture{ix: ix, vec: vec, mem: mem, queries: queries}
}

// BenchmarkDenseSearch times corpus-wide top-10 dense searches (the dense
// retriever: embed the claim, scan, read the hits' texts) over every
// SciFact claim, on the mapped store and on the store it replaced (old-,
// oldStore), and splits the new store's time into its parts:
//
//	p50-ms, p99-ms           the whole search, mapped store
//	old-p50-ms, old-p99-ms   the same with the heap store
//	old/new-p50              their ratio
//	embed-ms, scan-ms, text-ms  medians of the query's LSA embedding, the
//	                         store's search, the hits' text lookups
//	paper-p50-ms             top-10 within one paper of 20 passages
func BenchmarkDenseSearch(b *testing.B) {
	for _, n := range densePassageSizes(b) {
		b.Run(strconv.Itoa(n), func(b *testing.B) { benchDense(b, n) })
	}
}

func benchDense(b *testing.B, n int) {
	f := newDenseFixture(b, n)
	ctx := context.Background()
	r := &denseRetriever{ix: f.ix}
	search := func(store vector.Store, paper string, queries []string) []time.Duration {
		f.ix.vec = store
		ds := make([]time.Duration, 0, len(queries))
		for i, q := range queries {
			if paper != "" {
				paper = fmt.Sprintf("sf-%06d", i%(n/benchPerPaper))
			}
			t := time.Now()
			_, err := r.Search(ctx, retrieve.Query{Text: q, PaperID: paper, K: 10})
			if err != nil && !strings.Contains(err.Error(), "no terms") {
				b.Fatal(err)
			}
			ds = append(ds, time.Since(t))
		}
		return ds
	}
	// Same hits from both stores first.
	for _, q := range f.queries[:20] {
		f.ix.vec = f.vec
		a, errA := r.Search(ctx, retrieve.Query{Text: q, K: 10})
		f.ix.vec = f.mem
		m, errM := r.Search(ctx, retrieve.Query{Text: q, K: 10})
		if (errA == nil) != (errM == nil) || !slices.EqualFunc(a, m, func(x, y retrieve.Hit) bool { return x.PassageID == y.PassageID && x.Score == y.Score }) {
			b.Fatalf("mapped and heap stores disagree on %q: %v / %v", q, errA, errM)
		}
	}
	// Each claim on one store, then on the other: a busy machine slows
	// both alike.
	var newD, oldD []time.Duration
	for b.Loop() {
		for i := range f.queries {
			newD = append(newD, search(f.vec, "", f.queries[i:i+1])...)
			oldD = append(oldD, search(f.mem, "", f.queries[i:i+1])...)
		}
	}
	paperD := search(f.vec, "x", f.queries)
	var embedD, scanD, textD []time.Duration
	for _, q := range f.queries {
		t := time.Now()
		vecs, _ := f.ix.emb.Embed(ctx, []string{q}, embed.Query)
		t1 := time.Now()
		if isZero(vecs[0]) {
			continue
		}
		ms, err := f.vec.Search(ctx, vecs[0], "", 10)
		if err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		for _, m := range ms {
			if _, err := f.ix.corpus.Passage(m.ID); err != nil {
				b.Fatal(err)
			}
		}
		embedD, scanD, textD = append(embedD, t1.Sub(t)), append(scanD, t2.Sub(t1)), append(textD, time.Since(t2))
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	p50, p99 := pct(newD, 0.5), pct(newD, 0.99)
	b.ReportMetric(ms(p50), "p50-ms")
	b.ReportMetric(ms(p99), "p99-ms")
	b.ReportMetric(ms(pct(oldD, 0.5)), "old-p50-ms")
	b.ReportMetric(ms(pct(oldD, 0.99)), "old-p99-ms")
	b.ReportMetric(float64(pct(oldD, 0.5))/float64(p50), "old/new-p50")
	b.ReportMetric(ms(pct(embedD, 0.5)), "embed-ms")
	b.ReportMetric(ms(pct(scanD, 0.5)), "scan-ms")
	b.ReportMetric(ms(pct(textD, 0.5)), "text-ms")
	b.ReportMetric(ms(pct(paperD, 0.5)), "paper-p50-ms")
}

func pct(ds []time.Duration, p float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}
