package bm25

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/retrieve"
)

// Synthetic corpus for the benchmarks: passages of 100–140 words drawn from
// a Zipf(s=1) vocabulary of 50,000 words whose 40 most frequent words are
// English stop words (about a third of all tokens, as in real prose, and
// dropped by the analyzer like real ones), grouped into papers of 50
// passages. Passage i is generated from seed i alone, so a query can
// regenerate the passage it is about without the corpus being held in
// memory.
const (
	benchVocab         = 50000
	benchPaperSize     = 50
	benchQueries       = 200
	benchMillion       = 1000000
	benchBuildBatch    = 10000
	benchMillionEnvVar = "PAPERLENS_BENCH_1M"
)

var benchStopWords = []string{
	"the", "of", "and", "to", "a", "in", "is", "that", "for", "it",
	"as", "with", "was", "on", "be", "by", "this", "are", "from", "at",
	"or", "an", "which", "not", "have", "but", "we", "has", "their", "its",
	"were", "had", "these", "been", "more", "than", "they", "such", "there", "into",
}

type zipfGen struct {
	words []string
	cdf   []float64
}

var benchGen = func() *zipfGen {
	g := &zipfGen{words: make([]string, benchVocab), cdf: make([]float64, benchVocab)}
	consonants, vowels := "bdfgklmnprstvz", "aiou" // no e or y: Porter would rewrite the endings
	seen := map[string]bool{}
	for i := range g.words {
		if i < len(benchStopWords) {
			g.words[i] = benchStopWords[i]
			continue
		}
		// Pseudo-words of 2–5 syllables, distinct by construction of the
		// mixed-radix digits, never an English stop word.
		var sb strings.Builder
		n := i
		for {
			sb.WriteByte(consonants[n%len(consonants)])
			n /= len(consonants)
			sb.WriteByte(vowels[n%len(vowels)])
			n /= len(vowels)
			if n == 0 && sb.Len() >= 4 {
				break
			}
		}
		sb.WriteByte('x') // closes the word so Porter leaves the vowel ending alone
		w := sb.String()
		if seen[w] {
			panic("duplicate synthetic word " + w)
		}
		seen[w] = true
		g.words[i] = w
	}
	var sum float64
	for i := range g.cdf {
		sum += 1 / float64(i+1)
		g.cdf[i] = sum
	}
	for i := range g.cdf {
		g.cdf[i] /= sum
	}
	return g
}()

func (g *zipfGen) word(r *rand.Rand) string {
	i, _ := slices.BinarySearch(g.cdf, r.Float64())
	return g.words[min(i, len(g.words)-1)]
}

func benchPassage(i int) corpus.Passage {
	r := rand.New(rand.NewPCG(uint64(i), 0x9e3779b97f4a7c15))
	n := 100 + r.IntN(41)
	var sb strings.Builder
	for j := range n {
		if j > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(benchGen.word(r))
	}
	paper := fmt.Sprintf("paper%06d", i/benchPaperSize)
	ord := i % benchPaperSize
	return corpus.Passage{PaperID: paper, PassageID: corpus.PassageID(paper, ord), Ordinal: ord, Text: sb.String()}
}

// benchQuery i is 5–15 content words (stop words are skipped, so every
// word is a searchable term) picked from one passage of the corpus, like a
// question about that passage; PaperID is its paper.
func benchQuery(i, n int) retrieve.Query {
	r := rand.New(rand.NewPCG(uint64(i), 42))
	p := benchPassage(r.IntN(n))
	var content []string
	for _, w := range strings.Fields(p.Text) {
		if !slices.Contains(benchStopWords, w) {
			content = append(content, w)
		}
	}
	q := make([]string, 5+r.IntN(11))
	for j := range q {
		q[j] = content[r.IntN(len(content))]
	}
	return retrieve.Query{Text: strings.Join(q, " "), PaperID: p.PaperID, K: 5}
}

// benchEnv is one built index, kept while benchmarks use its size:
// building it is the expensive part, and the benchmark framework calls each
// function several times.
type benchEnv struct {
	kind      string
	n         int
	r         retrieve.Retriever
	close     func()
	dir       string
	buildRate float64 // passages/s
	heapMB    float64
	diskMB    float64
	latency   map[string][2]float64 // mode → p50, p99 in ms
	// okapi: building the corpus-wide postings, and their heap.
	prepareMs, postingsMB float64
}

var (
	benchEnvs = map[string]*benchEnv{} // by kind and size
	benchDirs []string
)

func TestMain(m *testing.M) {
	if probe := os.Getenv(probeEnvVar); probe != "" {
		// A child process of BenchmarkOkapiFile measuring one thing alone.
		os.Exit(runProbe(probe))
	}
	code := m.Run()
	for _, env := range benchEnvs {
		env.close()
	}
	for _, d := range benchDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

// millionSelected reports whether the 1M case was asked for by name (or by
// PAPERLENS_BENCH_1M=1): it takes minutes, so -bench . alone skips it.
func millionSelected() bool {
	if os.Getenv(benchMillionEnvVar) == "1" {
		return true
	}
	f := flag.Lookup("test.bench")
	return f != nil && strings.Contains(f.Value.String(), "1000000")
}

func heapInUseMB() float64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapInuse) / (1 << 20)
}

func dirSizeMB(dir string) float64 {
	var total int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				total += info.Size()
			}
		}
		return nil
	})
	return float64(total) / (1 << 20)
}

// getEnv returns the index of kind over n passages, building it on first
// use and dropping the indexes of other sizes. Kinds: "bleve", Bleve as
// built, closed and reopened read-only as a search process opens it;
// "bleve-merged", a copy of that index merged into one segment; "okapi",
// with its corpus-wide postings built.
func getEnv(b *testing.B, kind string, n int) *benchEnv {
	key := fmt.Sprintf("%s/%d", kind, n)
	if env := benchEnvs[key]; env != nil {
		return env
	}
	for k, env := range benchEnvs {
		if env.n != n {
			env.close()
			delete(benchEnvs, k)
		}
	}
	if kind == "bleve-merged" {
		env := mergedBleve(b, getEnv(b, "bleve", n))
		benchEnvs[key] = env
		return env
	}
	env := &benchEnv{kind: kind, n: n, latency: map[string][2]float64{}}
	base := heapInUseMB()
	ctx := context.Background()
	var add func([]corpus.Passage) error
	var built func()
	switch kind {
	case "bleve":
		dir := benchTempDir(b)
		path := filepath.Join(dir, "idx")
		idx, err := OpenBleve(path)
		if err != nil {
			b.Fatal(err)
		}
		env.dir = dir
		add = func(ps []corpus.Passage) error { return idx.Index(ctx, ps) }
		built = func() {
			if err := idx.Close(); err != nil {
				b.Fatal(err)
			}
			ro, err := OpenBleveWith(path, BleveOptions{ReadOnly: true})
			if err != nil {
				b.Fatal(err)
			}
			env.r, env.close = ro, func() { ro.Close(); os.RemoveAll(dir) }
		}
	case "okapi":
		o, err := NewOkapi(OkapiOptions{})
		if err != nil {
			b.Fatal(err)
		}
		env.r, env.close = o, func() {}
		add = o.Add
		built = func() {}
	default:
		b.Fatalf("unknown kind %q", kind)
	}
	start := time.Now()
	batch := make([]corpus.Passage, 0, benchBuildBatch)
	var gen time.Duration
	for i := 0; i < n; i++ {
		t := time.Now()
		batch = append(batch, benchPassage(i))
		gen += time.Since(t)
		if len(batch) == cap(batch) || i == n-1 {
			if err := add(batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	env.buildRate = float64(n) / (time.Since(start) - gen).Seconds()
	built()
	env.heapMB = heapInUseMB() - base
	if env.dir != "" {
		env.diskMB = dirSizeMB(env.dir)
	}
	if o, ok := env.r.(*Okapi); ok {
		t := time.Now()
		o.PrepareCorpus()
		env.prepareMs = float64(time.Since(t)) / 1e6
		env.postingsMB = heapInUseMB() - base - env.heapMB
	}
	benchEnvs[key] = env
	return env
}

func benchTempDir(b *testing.B) string {
	dir, err := os.MkdirTemp("", "bm25-bench-")
	if err != nil {
		b.Fatal(err)
	}
	benchDirs = append(benchDirs, dir)
	return dir
}

// mergedBleve copies the index of src, which is open read-only and so
// unchanging, merges the copy into one segment, and opens it read-only.
func mergedBleve(b *testing.B, src *benchEnv) *benchEnv {
	dir := benchTempDir(b)
	path := filepath.Join(dir, "idx")
	if out, err := exec.Command("cp", "-r", filepath.Join(src.dir, "idx"), path).CombinedOutput(); err != nil {
		b.Fatalf("copy the Bleve index: %v: %s", err, out)
	}
	idx, err := OpenBleve(path)
	if err != nil {
		b.Fatal(err)
	}
	ai, err := idx.idx.Advanced()
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := ai.(*scorch.Scorch).ForceMerge(context.Background(), &mergeplan.SingleSegmentMergePlanOptions); err != nil {
		b.Fatal(err)
	}
	b.Logf("merged %d passages into one segment in %v", src.n, time.Since(start).Round(time.Millisecond))
	if err := idx.Close(); err != nil {
		b.Fatal(err)
	}
	ro, err := OpenBleveWith(path, BleveOptions{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	return &benchEnv{kind: "bleve-merged", n: src.n, r: ro, dir: dir, close: func() { ro.Close(); os.RemoveAll(dir) }, latency: map[string][2]float64{}}
}

func percentiles(ds []time.Duration) (p50, p99 float64) {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	at := func(q float64) float64 {
		i := int(math.Ceil(q*float64(len(ds)))) - 1
		return float64(ds[max(i, 0)]) / 1e6
	}
	return at(0.50), at(0.99)
}

func benchScorer(b *testing.B, kind string) {
	for _, n := range []int{5000, 100000, benchMillion} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			if n == benchMillion && !millionSelected() {
				b.Skipf("1M passages take minutes to build: select with -bench '%s/N=1000000' or %s=1", b.Name()[:strings.Index(b.Name(), "/")], benchMillionEnvVar)
			}
			env := getEnv(b, kind, n)
			queries := make([]retrieve.Query, benchQueries)
			for i := range queries {
				queries[i] = benchQuery(i, n)
			}
			for _, mode := range []string{"corpus", "paper"} {
				b.Run(mode, func(b *testing.B) {
					qs := slices.Clone(queries)
					if mode == "corpus" {
						for i := range qs {
							qs[i].PaperID = ""
						}
					}
					ctx := context.Background()
					lat, ok := env.latency[mode]
					if !ok {
						ds := make([]time.Duration, len(qs))
						for i, q := range qs {
							t := time.Now()
							if _, err := env.r.Search(ctx, q); err != nil {
								b.Fatal(err)
							}
							ds[i] = time.Since(t)
						}
						lat[0], lat[1] = percentiles(ds)
						env.latency[mode] = lat
					}
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						if _, err := env.r.Search(ctx, qs[i%len(qs)]); err != nil {
							b.Fatal(err)
						}
					}
					b.StopTimer()
					b.ReportMetric(lat[0], "p50-ms")
					b.ReportMetric(lat[1], "p99-ms")
					b.ReportMetric(env.buildRate, "build-passages/s")
					b.ReportMetric(env.heapMB, "heap-MB")
					if env.dir != "" {
						b.ReportMetric(env.diskMB, "disk-MB")
					}
					if kind == "okapi" {
						b.ReportMetric(env.prepareMs, "prepare-ms")
						b.ReportMetric(env.postingsMB, "postings-MB")
					}
				})
			}
		})
	}
}

// BenchmarkBleve measures the Bleve BM25 index; see the package doc for
// the numbers measured.
func BenchmarkBleve(b *testing.B) { benchScorer(b, "bleve") }

// BenchmarkOkapi measures the in-memory Okapi reference scorer. Its
// corpus-wide postings are built before the queries are timed
// (prepare-ms, postings-MB).
func BenchmarkOkapi(b *testing.B) { benchScorer(b, "okapi") }

// Corpus-wide latency target of issue 13, and the size of the sweep that
// measures it: every engine runs every query in every round, the engines
// interleaved query by query so that load from other processes falls on
// all of them alike.
const (
	corpusTargetMs = 10
	corpusQueries  = 500
	corpusRounds   = 3
)

// BenchmarkCorpusWide times corpus-wide queries (no paper filter), K = 5, in
// one sweep over every engine: "bleve" (as built and reopened read-only,
// as a search process opens it), "bleve-merged" (the same index merged into
// one segment), "okapi" (corpus-wide postings) and "okapi-bypaper" (the
// same Okapi scored paper by paper, as before the postings; same hits and
// scores). It prints each engine's p50 and p99, each p99 against the 10 ms
// target, and Bleve's p99 against Okapi's. One iteration is the whole sweep:
// run it with -benchtime 1x, and -count N for repeated sweeps.
func BenchmarkCorpusWide(b *testing.B) {
	for _, n := range []int{5000, 100000, benchMillion} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			if n == benchMillion && !millionSelected() {
				b.Skipf("1M passages take minutes to build: select with -bench 'CorpusWide/N=1000000' or %s=1", benchMillionEnvVar)
			}
			ok := getEnv(b, "okapi", n)
			o := ok.r.(*Okapi)
			bl := getEnv(b, "bleve", n)
			merged := getEnv(b, "bleve-merged", n)
			ctx := context.Background()
			engines := []struct {
				name   string
				search func(retrieve.Query) ([]retrieve.Hit, error)
			}{
				{"bleve", func(q retrieve.Query) ([]retrieve.Hit, error) { return bl.r.Search(ctx, q) }},
				{"bleve-merged", func(q retrieve.Query) ([]retrieve.Hit, error) { return merged.r.Search(ctx, q) }},
				{"okapi", func(q retrieve.Query) ([]retrieve.Hit, error) { return o.Search(ctx, q) }},
				{"okapi-bypaper", func(q retrieve.Query) ([]retrieve.Hit, error) { return o.search(ctx, q, o.scoreCorpusByPaper) }},
			}
			const okapi, bypaper = 2, 3 // engines compared hit for hit
			queries := make([]retrieve.Query, corpusQueries)
			for i := range queries {
				queries[i] = benchQuery(i, n)
				queries[i].PaperID = ""
			}
			// Warm up: Bleve's segments are memory-mapped and fault in on
			// first reads.
			for _, q := range queries[:20] {
				for _, e := range engines {
					if _, err := e.search(q); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.Logf("load average before: %s", loadAvg())
			lat := make([][]time.Duration, len(engines))
			hits := make([][]retrieve.Hit, len(engines))
			b.ResetTimer()
			for range b.N {
				for r := range corpusRounds {
					for i, q := range queries {
						for j := range engines {
							e := (i + r + j) % len(engines) // rotate who goes first
							t := time.Now()
							h, err := engines[e].search(q)
							lat[e] = append(lat[e], time.Since(t))
							if err != nil {
								b.Fatal(err)
							}
							hits[e] = h
						}
						// The postings must not change what Okapi finds.
						if !reflect.DeepEqual(hits[okapi], hits[bypaper]) {
							b.Fatalf("%q: okapi %v, paper by paper %v", q.Text, hitIDs(hits[okapi]), hitIDs(hits[bypaper]))
						}
					}
				}
			}
			b.StopTimer()
			b.Logf("load average after: %s", loadAvg())
			p99 := map[string]float64{}
			for e, eng := range engines {
				p50, p := percentiles(lat[e])
				p99[eng.name] = p
				b.ReportMetric(p50, eng.name+"-p50-ms")
				b.ReportMetric(p, eng.name+"-p99-ms")
			}
			b.ReportMetric(p99["bleve"]/corpusTargetMs, "bleve-p99/10ms")
			b.ReportMetric(p99["okapi"]/corpusTargetMs, "okapi-p99/10ms")
			b.ReportMetric(p99["bleve"]/p99["okapi"], "bleve/okapi-p99")
			b.ReportMetric(p99["okapi-bypaper"]/p99["okapi"], "bypaper/okapi-p99")
			b.ReportMetric(ok.prepareMs, "okapi-prepare-ms")
			b.ReportMetric(ok.postingsMB, "okapi-postings-MB")
		})
	}
}

// loadAvg is the 1, 5 and 15 minute load averages, to read a sweep's
// numbers by: other processes share the cores.
func loadAvg() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(raw))
	return strings.Join(f[:min(3, len(f))], " ")
}

func TestBenchCorpus(t *testing.T) {
	// The generator is deterministic and its words survive analysis as
	// distinct terms, except the stop words, which it drops.
	if p, q := benchPassage(123), benchPassage(123); p.Text != q.Text {
		t.Fatal("generator not deterministic")
	}
	a, err := textAnalyzer()
	if err != nil {
		t.Fatal(err)
	}
	stems := map[string]string{}
	for i, w := range benchGen.words {
		terms := analyze(a, w)
		if i < len(benchStopWords) {
			if len(terms) != 0 {
				t.Errorf("stop word %q analysed to %q", w, terms)
			}
			continue
		}
		if len(terms) != 1 {
			t.Fatalf("%q analysed to %q", w, terms)
		}
		if prev, ok := stems[terms[0]]; ok {
			t.Fatalf("%q and %q share the term %q", prev, w, terms[0])
		}
		stems[terms[0]] = w
	}
	q := benchQuery(7, 5000)
	if n := len(strings.Fields(q.Text)); n < 5 || n > 15 || q.PaperID == "" {
		t.Errorf("query %+v", q)
	}
}
