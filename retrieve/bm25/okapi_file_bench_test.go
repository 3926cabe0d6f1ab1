package bm25

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/retrieve"
)

// BenchmarkOkapiFile compares the Okapi file searched in place
// (OpenOkapiFile, written by the streaming OkapiWriter) with the gob Okapi
// loaded whole (LoadOkapi, written by Okapi.Save), on passages synthesised
// from SciFact text, each ratio measured in the same run:
//
//   - build: a child process writes the file through the writer under a
//     budget of 64 MiB (PAPERLENS_OKAPI_BENCH_BUDGET to change), another
//     builds the in-memory Okapi and saves the gob; peak heap (sampled
//     every 10 ms, less the SciFact text both cut passages from), peak
//     heap live after a GC (the same, without garbage awaiting collection)
//     and peak RSS of each, and their ratios;
//
//   - open: a fresh child process opens each file and runs one corpus-wide
//     query: time, peak RSS and heap after, and the gob/file ratios;
//
//   - query: p50 and p99 latency of SciFact's queries over the corpus and
//     within one paper, after one untimed pass, the file against the gob
//     Okapi loaded with its corpus-wide postings prepared (same hits
//     checked), and the ratios.
//
//   - prune: p50 and p99 latency of SciFact's queries over the corpus
//     (k=10) on the file, pruned (Search, which prunes when it pays)
//     against exhaustive and against pruning forced on every query
//     (same hits checked), and the exhaustive/pruned ratios; and the
//     same percentiles of each query's best of its rounds, which load
//     from other processes disturbs least.
//
// PAPERLENS_OKAPI_FILE=/path/okapi.idx runs only the prune case on that
// file (read, never written), with the queries of PAPERLENS_OKAPI_QUERIES
// (JSON lines with a "query" field) if set, else SciFact's.
//
// Sizes are 10,000 and 100,000 passages; PAPERLENS_OKAPI_BENCH_SIZES=
// 10000,1000000 replaces them, and -bench 'OkapiFile/N=1000000' selects
// a million by name. PAPERLENS_OKAPI_BENCH_NOGOB=1 leaves the gob Okapi
// out (only the file's build is then reported).
//
//	go test ./retrieve/bm25 -run '^$' -bench OkapiFile -benchtime 1x
func BenchmarkOkapiFile(b *testing.B) {
	if path := os.Getenv(okapiFileEnvVar); path != "" {
		b.Run("file", func(b *testing.B) { benchPrune(b, path, benchPruneQueries(b)) })
		return
	}
	for _, n := range okapiBenchSizes(b) {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			env := okapiFileEnv(b, n)
			b.Run("build", func(b *testing.B) {
				for range b.N {
				}
				f, g := env.build["file"], env.build["gob"]
				b.ReportMetric(f.PeakLiveMB, "file-peak-live-MB")
				if env.gob == "" {
					b.ReportMetric(f.PeakHeapMB, "file-peak-heap-MB")
					b.ReportMetric(f.Ms/1000, "file-build-s")
					b.ReportMetric(float64(f.Runs), "file-runs")
					return
				}
				b.ReportMetric(f.PeakHeapMB, "file-peak-heap-MB")
				b.ReportMetric(g.PeakHeapMB, "gob-peak-heap-MB")
				b.ReportMetric(g.PeakHeapMB/f.PeakHeapMB, "gob/file-peak-heap")
				b.ReportMetric(g.PeakLiveMB, "gob-peak-live-MB")
				b.ReportMetric(g.PeakLiveMB/f.PeakLiveMB, "gob/file-peak-live")
				b.ReportMetric(f.PeakRSSMB, "file-peak-rss-MB")
				b.ReportMetric(g.PeakRSSMB, "gob-peak-rss-MB")
				b.ReportMetric(f.Ms/1000, "file-build-s")
				b.ReportMetric(g.Ms/1000, "gob-build-s")
				b.ReportMetric(float64(f.Runs), "file-runs")
				b.ReportMetric(env.fileMB, "file-MB")
				b.ReportMetric(env.gobMB, "gob-MB")
			})
			b.Run("open", func(b *testing.B) {
				if env.gob == "" {
					b.Skipf("%s=1: no gob to compare with", noGobEnvVar)
				}
				var f, g probeResult
				for range b.N {
					f = probe(b, "open-file", env.file)
					g = probe(b, "open-gob", env.gob)
				}
				b.ReportMetric(f.Ms, "file-open+query-ms")
				b.ReportMetric(g.Ms, "gob-open+query-ms")
				b.ReportMetric(g.Ms/f.Ms, "gob/file-open-time")
				b.ReportMetric(f.PeakRSSMB, "file-peak-rss-MB")
				b.ReportMetric(g.PeakRSSMB, "gob-peak-rss-MB")
				b.ReportMetric(g.PeakRSSMB/f.PeakRSSMB, "gob/file-rss")
				b.ReportMetric(f.HeapMB, "file-heap-MB")
				b.ReportMetric(g.HeapMB, "gob-heap-MB")
			})
			b.Run("prune", func(b *testing.B) {
				benchPrune(b, env.file, sciQueryTexts)
			})
			b.Run("query", func(b *testing.B) {
				if env.gob == "" {
					b.Skipf("%s=1: no gob to compare with", noGobEnvVar)
				}
				benchFileQueries(b, env)
			})
		})
	}
}

const (
	probeEnvVar       = "PAPERLENS_OKAPI_PROBE"
	benchSizesEnvVar  = "PAPERLENS_OKAPI_BENCH_SIZES"
	benchBudgetEnvVar = "PAPERLENS_OKAPI_BENCH_BUDGET"
	noGobEnvVar       = "PAPERLENS_OKAPI_BENCH_NOGOB"
	okapiFileEnvVar   = "PAPERLENS_OKAPI_FILE"
	okapiQueryEnvVar  = "PAPERLENS_OKAPI_QUERIES"
	sciPaperSize      = 50
	sciQueryRounds    = 3
)

func okapiBenchSizes(b *testing.B) []int {
	sizes := []int{10000, 100000}
	if s := os.Getenv(benchSizesEnvVar); s != "" {
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n <= 0 {
				b.Fatalf("%s=%q: want sizes like 10000,1000000", benchSizesEnvVar, s)
			}
			sizes = append(sizes, n)
		}
	}
	if f := flag.Lookup("test.bench"); f != nil && strings.Contains(f.Value.String(), "N=1000000") && !containsInt(sizes, benchMillion) {
		sizes = append(sizes, benchMillion)
	}
	return sizes
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// sciWords is every word of SciFact's abstracts in file order, and
// sciQueryTexts its queries: the material of the synthetic corpus.
var (
	sciOnce       sync.Once
	sciWords      []string
	sciQueryTexts []string
)

func loadSciWords(tb testing.TB) {
	sciOnce.Do(func() {
		sf := loadSciFact(tb)
		for _, t := range sf.texts {
			sciWords = append(sciWords, strings.Fields(t)...)
		}
		sciQueryTexts = sf.queries
	})
}

// sciPassage i is 80-140 consecutive words of SciFact text from a place
// drawn from seed i alone (so the corpus is never held whole), in papers
// of sciPaperSize passages.
func sciPassage(i int) corpus.Passage {
	r := rand.New(rand.NewPCG(uint64(i), 0x5c1fac7))
	n := 80 + r.IntN(61)
	at := r.IntN(len(sciWords) - n)
	paper := fmt.Sprintf("sci%07d", i/sciPaperSize)
	ord := i % sciPaperSize
	return corpus.Passage{PaperID: paper, PassageID: corpus.PassageID(paper, ord), Ordinal: ord, Text: strings.Join(sciWords[at:at+n], " ")}
}

// sciBatches yields the n passages a few thousand at a time, whole papers.
func sciBatches(n int, fn func([]corpus.Passage) error) error {
	const size = 5000 // a multiple of sciPaperSize
	batch := make([]corpus.Passage, 0, size)
	for i := range n {
		batch = append(batch, sciPassage(i))
		if len(batch) == size || i == n-1 {
			if err := fn(batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	return nil
}

type okapiBenchEnv struct {
	n             int
	file, gob     string
	fileMB, gobMB float64
	build         map[string]probeResult
}

var okapiEnvs = map[int]*okapiBenchEnv{}

// okapiFileEnv writes the two files of n passages, each in a child
// process that reports its build's peak memory.
func okapiFileEnv(b *testing.B, n int) *okapiBenchEnv {
	if env := okapiEnvs[n]; env != nil {
		return env
	}
	loadSciWords(b)
	dir := benchTempDir(b)
	env := &okapiBenchEnv{n: n, file: filepath.Join(dir, "okapi.idx"), gob: filepath.Join(dir, "okapi.gob"), build: map[string]probeResult{}}
	budget := int64(64 << 20)
	if s := os.Getenv(benchBudgetEnvVar); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v <= 0 {
			b.Fatalf("%s=%q: want bytes", benchBudgetEnvVar, s)
		}
		budget = v
	}
	env.build["file"] = probe(b, "build-file", fmt.Sprintf("%d:%d:%s", n, budget, env.file))
	files := []struct {
		path string
		mb   *float64
	}{{env.file, &env.fileMB}}
	if os.Getenv(noGobEnvVar) == "1" {
		env.gob = "" // the in-memory Okapi of a million passages needs ~6 GB
	} else {
		env.build["gob"] = probe(b, "build-gob", fmt.Sprintf("%d:%s", n, env.gob))
		files = append(files, struct {
			path string
			mb   *float64
		}{env.gob, &env.gobMB})
	}
	for _, f := range files {
		info, err := os.Stat(f.path)
		if err != nil {
			b.Fatal(err)
		}
		*f.mb = float64(info.Size()) / (1 << 20)
	}
	okapiEnvs[n] = env
	return env
}

// probeResult is what a child process measured.
type probeResult struct {
	Ms         float64 `json:"ms"`
	PeakRSSMB  float64 `json:"peak_rss_mb"`
	HeapMB     float64 `json:"heap_mb"`
	PeakHeapMB float64 `json:"peak_heap_mb"`
	PeakLiveMB float64 `json:"peak_live_mb"`
	Runs       int     `json:"runs"`
	Error      string  `json:"error,omitempty"`
}

// probe runs this test binary again to measure kind alone, in a process
// holding nothing else.
func probe(b *testing.B, kind, arg string) probeResult {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), probeEnvVar+"="+kind+":"+arg)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("probe %s %s: %v", kind, arg, err)
	}
	var r probeResult
	if err := json.Unmarshal(out, &r); err != nil || r.Error != "" {
		b.Fatalf("probe %s %s: %q %v", kind, arg, out, err)
	}
	return r
}

// runProbe is the child's side of probe.
func runProbe(spec string) int {
	kind, arg, _ := strings.Cut(spec, ":")
	var r probeResult
	err := func() error {
		switch kind {
		case "open-file", "open-gob":
			return probeOpen(kind, arg, &r)
		case "build-file", "build-gob":
			return probeBuild(kind, arg, &r)
		}
		return fmt.Errorf("unknown probe %q", kind)
	}()
	if err != nil {
		r.Error = err.Error()
	}
	json.NewEncoder(os.Stdout).Encode(r)
	return 0
}

// probeOpen opens the file and runs one corpus-wide query (SciFact's
// first), the work of a search process answering its first question.
func probeOpen(kind, path string, r *probeResult) error {
	q := retrieve.Query{Text: "0-dimensional biomaterials show inductive properties.", K: 10}
	start := time.Now()
	var s retrieve.Retriever
	if kind == "open-file" {
		f, err := OpenOkapiFile(path)
		if err != nil {
			return err
		}
		s = f
	} else {
		o, err := LoadOkapi(path)
		if err != nil {
			return err
		}
		s = o
	}
	if _, err := s.Search(context.Background(), q); err != nil {
		return err
	}
	r.Ms = float64(time.Since(start)) / 1e6
	r.PeakRSSMB = peakRSSMB()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	r.HeapMB = float64(ms.HeapInuse) / (1 << 20)
	runtime.KeepAlive(s)
	return nil
}

// probeBuild builds n synthetic passages into a file: through the
// streaming writer from analysed passages, or into an in-memory Okapi
// saved as gob, sampling the heap meanwhile.
func probeBuild(kind, arg string, r *probeResult) error {
	parts := strings.Split(arg, ":")
	n, err := strconv.Atoi(parts[0])
	if err != nil {
		return err
	}
	loadSciWords(&testing.B{})
	// The SciFact text the passages are cut from is not the build's: its
	// heap is the baseline taken off the peak.
	base, baseLive := heapInUseMB(), liveHeapMB()
	stop := sampleHeap(&r.PeakHeapMB, &r.PeakLiveMB)
	defer func() { r.PeakHeapMB -= base; r.PeakLiveMB -= baseLive }()
	start := time.Now()
	if kind == "build-file" {
		budget, err := strconv.ParseInt(parts[1], 10, 64)
		if err != nil {
			return err
		}
		w, err := NewOkapiWriter(parts[2], OkapiWriterOptions{Budget: budget})
		if err != nil {
			return err
		}
		err = sciBatches(n, func(ps []corpus.Passage) error {
			aps, err := AnalyzePassages(ps, TokenizerAnalyzer)
			if err != nil {
				return err
			}
			for lo := 0; lo < len(aps); lo += sciPaperSize {
				hi := min(lo+sciPaperSize, len(aps))
				if err := w.AddPaper(aps[lo].PaperID, aps[lo:hi]); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := w.Finish(context.Background()); err != nil {
			return err
		}
		r.Runs = w.Stats().Runs
	} else {
		o, err := NewOkapi(OkapiOptions{})
		if err != nil {
			return err
		}
		if err := sciBatches(n, o.Add); err != nil {
			return err
		}
		if err := o.Save(parts[1]); err != nil {
			return err
		}
		runtime.KeepAlive(o)
	}
	r.Ms = float64(time.Since(start)) / 1e6
	stop()
	r.PeakRSSMB = peakRSSMB()
	return nil
}

// liveHeapMB is the heap live after the last GC.
func liveHeapMB() float64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return float64(s[0].Value.Uint64()) / (1 << 20)
}

// sampleHeap records the largest HeapInuse (garbage included, so it moves
// with GOGC) and the largest heap live after a GC seen every 10 ms, until
// stop.
func sampleHeap(peak, peakLive *float64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			*peak = max(*peak, float64(ms.HeapInuse)/(1<<20))
			*peakLive = max(*peakLive, liveHeapMB())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// peakRSSMB is the process's peak resident set (VmHWM), mapped file pages
// it touched included.
func peakRSSMB() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// benchFileQueries times SciFact's queries on the file and on the gob
// Okapi (postings prepared), interleaved query by query so that load from
// other processes falls on both alike, and checks they find the same.
func benchFileQueries(b *testing.B, env *okapiBenchEnv) {
	f, err := OpenOkapiFile(env.file)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	o, err := LoadOkapi(env.gob)
	if err != nil {
		b.Fatal(err)
	}
	o.PrepareCorpus()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 7))
	papers := (env.n + sciPaperSize - 1) / sciPaperSize
	var qs []retrieve.Query
	for _, t := range sciQueryTexts {
		qs = append(qs, retrieve.Query{Text: t, K: 10}, retrieve.Query{Text: t, K: 5, PaperID: fmt.Sprintf("sci%07d", r.IntN(papers))})
	}
	engines := []retrieve.Retriever{f, o}
	// One untimed pass: the file's pages are faulted in, as a search
	// process's are after its first queries (the open sub-benchmark times
	// a cold first query).
	for _, q := range qs {
		for _, e := range engines {
			e.Search(ctx, q)
		}
	}
	lat := map[string][]time.Duration{}
	b.ResetTimer()
	for range b.N {
		for round := range sciQueryRounds {
			for i, q := range qs {
				var hits [2][]retrieve.Hit
				for j := range engines {
					e := (i + round + j) % 2 // rotate who goes first
					start := time.Now()
					h, err := engines[e].Search(ctx, q)
					d := time.Since(start)
					if err != nil && err.Error() != "" && !strings.Contains(err.Error(), ErrEmptyQuery.Error()) {
						b.Fatal(err)
					}
					mode := "corpus"
					if q.PaperID != "" {
						mode = "paper"
					}
					lat[fmt.Sprintf("%d-%s", e, mode)] = append(lat[fmt.Sprintf("%d-%s", e, mode)], d)
					hits[e] = h
				}
				if !reflect.DeepEqual(hits[0], hits[1]) {
					b.Fatalf("%+v: file %v, gob %v", q, hitIDs(hits[0]), hitIDs(hits[1]))
				}
			}
		}
	}
	b.StopTimer()
	for _, mode := range []string{"corpus", "paper"} {
		f50, f99 := percentiles(lat["0-"+mode])
		g50, g99 := percentiles(lat["1-"+mode])
		b.ReportMetric(f50, "file-"+mode+"-p50-ms")
		b.ReportMetric(f99, "file-"+mode+"-p99-ms")
		b.ReportMetric(g50, "gob-"+mode+"-p50-ms")
		b.ReportMetric(g99, "gob-"+mode+"-p99-ms")
		b.ReportMetric(f99/g99, "file/gob-"+mode+"-p99")
	}
}

// benchPruneQueries are the queries of PAPERLENS_OKAPI_QUERIES, or
// SciFact's.
func benchPruneQueries(b *testing.B) []string {
	path := os.Getenv(okapiQueryEnvVar)
	if path == "" {
		loadSciWords(b)
		return sciQueryTexts
	}
	fh, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer fh.Close()
	var qs []string
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r struct {
			Query string `json:"query"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			b.Fatalf("%s: %v", path, err)
		}
		qs = append(qs, r.Query)
	}
	if err := sc.Err(); err != nil || len(qs) == 0 {
		b.Fatalf("%s: %d queries, %v", path, len(qs), err)
	}
	return qs
}

// benchPrune times corpus-wide k=10 searches of the file at path in the
// three modes, interleaved query by query (who goes first rotating) so
// that load from other processes falls on all alike, after one untimed
// pass that faults the file's pages in; every mode must find the same.
func benchPrune(b *testing.B, path string, texts []string) {
	f, err := OpenOkapiFile(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	ctx := context.Background()
	modes := []scoreMode{scoreAuto, scoreExhaustive, scorePruned}
	var qs []retrieve.Query
	for _, t := range texts {
		q := retrieve.Query{Text: t, K: 10}
		if _, err := f.searchMode(ctx, q, scoreExhaustive, nil); err == nil {
			qs = append(qs, q) // not a query of stop words only
		}
	}
	for _, q := range qs {
		for _, m := range modes[1:] {
			f.searchMode(ctx, q, m, nil)
		}
	}
	lat := make([][]time.Duration, len(modes))
	// best[m][i] is query i's fastest round in mode m: percentiles of
	// those are what other processes' load disturbs least.
	best := make([][]time.Duration, len(modes))
	for m := range best {
		best[m] = make([]time.Duration, len(qs))
		for i := range best[m] {
			best[m][i] = time.Hour
		}
	}
	b.ResetTimer()
	for range b.N {
		for round := range sciQueryRounds {
			for i, q := range qs {
				var hits [3][]retrieve.Hit
				for j := range modes {
					m := (i + round + j) % len(modes)
					start := time.Now()
					h, err := f.searchMode(ctx, q, modes[m], nil)
					d := time.Since(start)
					lat[m] = append(lat[m], d)
					best[m][i] = min(best[m][i], d)
					if err != nil {
						b.Fatal(err)
					}
					hits[m] = h
				}
				if !reflect.DeepEqual(hits[0], hits[1]) || !reflect.DeepEqual(hits[2], hits[1]) {
					b.Fatalf("%+v: pruned %v, forced %v, exhaustive %v", q, hitIDs(hits[0]), hitIDs(hits[2]), hitIDs(hits[1]))
				}
			}
		}
	}
	b.StopTimer()
	p50, p99 := percentiles(lat[0])
	e50, e99 := percentiles(lat[1])
	f50, f99 := percentiles(lat[2])
	b.ReportMetric(float64(len(qs)), "queries")
	b.ReportMetric(p50, "pruned-p50-ms")
	b.ReportMetric(p99, "pruned-p99-ms")
	b.ReportMetric(e50, "exhaustive-p50-ms")
	b.ReportMetric(e99, "exhaustive-p99-ms")
	b.ReportMetric(f50, "forced-p50-ms")
	b.ReportMetric(f99, "forced-p99-ms")
	b.ReportMetric(e50/p50, "exhaustive/pruned-p50")
	b.ReportMetric(e99/p99, "exhaustive/pruned-p99")
	bp50, bp99 := percentiles(best[0])
	be50, be99 := percentiles(best[1])
	b.ReportMetric(bp50, "pruned-best-p50-ms")
	b.ReportMetric(bp99, "pruned-best-p99-ms")
	b.ReportMetric(be50, "exhaustive-best-p50-ms")
	b.ReportMetric(be99, "exhaustive-best-p99-ms")
}
