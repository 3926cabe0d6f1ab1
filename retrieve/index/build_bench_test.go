package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/paperlens/paperlens/chunk"
	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// BenchmarkIndexBuild builds every index (Bleve, Okapi, LSA and its vector
// store) of synthetic homes of 5,000 and 20,000 documents of about 250
// tokens (a passage each, a few cut at a heading; tokens/passage is
// reported), and reports the passages indexed per second at each size and
// the per-passage cost of the larger build over the smaller: 1 for a build
// linear in the corpus, 4 for one quadratic at 20k/5k.
//
// Each size is reported twice: the whole build ("all"), and the time until
// Bleve and Okapi hold every passage ("bm25", timed up to the "okapi"
// progress line), because the LSA fit, which belongs to the embed package,
// is a large share of the whole. The build fits LSA while it writes Bleve
// and Okapi, so "bm25" is their time beside the fit, not alone.
//
// Each size also reports the peak heap in use during the build (sampled
// every 10 ms) and its ratio to the smallest size's: with working memory
// bounded by Config.IndexMemory (PAPERLENS_BENCH_INDEX_MEMORY, bytes;
// default DefaultIndexMemory) the sparse indexes add nothing that grows
// with the corpus, while the LSA fit (dense.go) does.
//
// PAPERLENS_BENCH_50K=1 adds a 50,000-document home and its ratio to 5k;
// PAPERLENS_BENCH_DOCS=1000,5000 replaces the sizes (the quadratic build
// this replaced needed 10 minutes for 5,000).
//
//	go test ./retrieve/index -run '^$' -bench IndexBuild -benchtime 1x
func BenchmarkIndexBuild(b *testing.B) {
	sizes := []int{5000, 20000}
	if os.Getenv("PAPERLENS_BENCH_50K") == "1" {
		sizes = append(sizes, 50000)
	}
	if s := os.Getenv("PAPERLENS_BENCH_DOCS"); s != "" {
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n <= 0 {
				b.Fatalf("PAPERLENS_BENCH_DOCS=%q: want sizes like 1000,5000", s)
			}
			sizes = append(sizes, n)
		}
	}
	sents := seedSentences(b)
	homes := make([]string, len(sizes))
	passages := make([]int, len(sizes))
	tokens := 0
	for i, n := range sizes {
		var t int
		homes[i], passages[i], t = syntheticHome(b, sents, n)
		tokens += t
	}
	all := make([]time.Duration, len(sizes))
	sparse := make([]time.Duration, len(sizes))
	peak := make([]float64, len(sizes))
	for b.Loop() {
		for i, home := range homes {
			b.StopTimer()
			if err := os.RemoveAll(Dir(home)); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			a, s, p := buildOnce(b, home)
			all[i] += a
			sparse[i] += s
			peak[i] = max(peak[i], p)
		}
	}
	sum := 0
	for _, n := range passages {
		sum += n
	}
	b.ReportMetric(float64(tokens)/float64(sum), "tokens/passage")
	perPassage := func(d time.Duration, i int) float64 { return d.Seconds() / float64(b.N) / float64(passages[i]) }
	for i, n := range sizes {
		label := sizeLabel(n)
		b.ReportMetric(1/perPassage(all[i], i), "all-passages/s@"+label)
		b.ReportMetric(1/perPassage(sparse[i], i), "bm25-passages/s@"+label)
		b.ReportMetric(peak[i], "peak-heap-MB@"+label)
		if i > 0 {
			b.ReportMetric(peak[i]/peak[0], "peak-heap-ratio-"+label+"/"+sizeLabel(sizes[0]))
			b.ReportMetric(perPassage(all[i], i)/perPassage(all[0], 0), "all-cost-ratio-"+label+"/"+sizeLabel(sizes[0]))
			b.ReportMetric(perPassage(sparse[i], i)/perPassage(sparse[0], 0), "bm25-cost-ratio-"+label+"/"+sizeLabel(sizes[0]))
		}
	}
}

func sizeLabel(n int) string {
	if n%1000 == 0 {
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}

// buildOnce opens, updates and closes the indexes of home, returning the
// whole time, the time until Bleve and Okapi were written, and the peak
// heap in use meanwhile in MB.
func buildOnce(b *testing.B, home string) (all, sparse time.Duration, peakMB float64) {
	ctx := context.Background()
	st, err := corpus.Open(home, false)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	start := time.Now()
	progress := func(format string, _ ...any) {
		if sparse == 0 && strings.HasPrefix(format, "okapi") {
			sparse = time.Since(start)
		}
	}
	cfg := Config{Home: home}
	if s := os.Getenv("PAPERLENS_BENCH_INDEX_MEMORY"); s != "" {
		if cfg.IndexMemory, err = strconv.ParseInt(s, 10, 64); err != nil {
			b.Fatalf("PAPERLENS_BENCH_INDEX_MEMORY=%q: want bytes", s)
		}
	}
	ix, err := Open(ctx, cfg, st)
	if err != nil {
		b.Fatal(err)
	}
	stop := sampleHeap(&peakMB)
	rep, err := ix.Update(ctx, progress)
	stop()
	if err != nil {
		b.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		b.Fatal(err)
	}
	all = time.Since(start)
	if sparse == 0 {
		sparse = all
	}
	if rep.Indexed != rep.Papers {
		b.Fatalf("indexed %d of %d papers", rep.Indexed, rep.Papers)
	}
	return all, sparse, peakMB
}

// sampleHeap records the largest HeapInuse seen every 10 ms until stop.
func sampleHeap(peakMB *float64) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			*peakMB = max(*peakMB, float64(ms.HeapInuse)/(1<<20))
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}

// seedSentences are the sentences of the five seed papers: real English
// with the statistics of research prose (stop words, numbers, citations).
func seedSentences(tb testing.TB) []string {
	tb.Helper()
	var out []string
	for _, f := range testcorpus.Glob(tb, "seeds", "*.txt") {
		raw, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		text := string(raw)
		for _, s := range chunk.Sentences(text) {
			if t := strings.Join(strings.Fields(text[s.Start:s.End]), " "); len(t) >= 20 {
				out = append(out, t)
			}
		}
	}
	if len(out) < 500 {
		tb.Fatalf("the seed papers gave %d sentences; expected over 500", len(out))
	}
	return out
}

// syntheticHome stores n documents of about 250 tokens, sentences of the
// seed papers drawn with a fixed seed, in a new home through the corpus
// store, and returns the home and its passage count. The store fsyncs every
// document, so it is written in memory (/dev/shm) when there is one and
// copied to a home on disk: the index build is what is timed, on disk.
// It also returns the passages' cl100k tokens.
func syntheticHome(tb testing.TB, sents []string, n int) (home string, passages, tokens int) {
	tb.Helper()
	scratch := ""
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "paperlens-bench-"); err == nil {
			scratch = d
			defer os.RemoveAll(d)
		}
	}
	home = tb.TempDir()
	if scratch == "" {
		scratch = home
	}
	st, err := corpus.Open(scratch, false)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(13, uint64(n)))
	var sb strings.Builder
	for i := range n {
		sb.Reset()
		for sb.Len() < 1000 { // ~250 cl100k tokens of this English
			if sb.Len() > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(sents[rng.IntN(len(sents))])
		}
		text := sb.String()
		spans := chunk.Split(text, chunk.Options{MaxTokens: ingest.DefaultMaxTokens})
		ps := make([]corpus.Passage, len(spans))
		docTokens := 0
		for j, p := range spans {
			ps[j] = corpus.Passage{Tokens: p.Tokens, Start: p.Start, End: p.End, Section: p.Section, Text: p.Text}
			docTokens += p.Tokens
		}
		sum := sha256.Sum256([]byte(text))
		doc := corpus.Document{
			PaperID: fmt.Sprintf("syn-%06d", i), Title: fmt.Sprintf("Synthetic paper %d", i),
			Source: fmt.Sprintf("synthetic:%d", i), Kind: "text", SourceHash: hex.EncodeToString(sum[:]),
			Extractor: ingest.ExtractorVersion, Chars: len(text), Tokens: docTokens, MaxTokens: ingest.DefaultMaxTokens,
			IngestedAt: time.Unix(0, 0).UTC(),
		}
		if err := st.Put(doc, text, ps); err != nil {
			tb.Fatal(err)
		}
		passages += len(ps)
		tokens += docTokens
	}
	if err := st.Close(); err != nil {
		tb.Fatal(err)
	}
	if scratch != home {
		if err := copyFile(filepath.Join(scratch, corpus.FileName), filepath.Join(home, corpus.FileName)); err != nil {
			tb.Fatal(err)
		}
	}
	return home, passages, tokens
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
