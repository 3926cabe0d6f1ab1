package scale

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paperlens/paperlens/chunk"
	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// testSciFact is BEIR SciFact from the shared folder.
func testSciFact(t *testing.T) (sciFact, string) {
	t.Helper()
	path := testcorpus.Path(t, sciFactFile)
	sf, err := loadSciFact(path)
	if err != nil {
		t.Fatal(err)
	}
	return sf, path
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int{"2000": 2000, "10k": 10_000, "100K": 100_000, "1M": 1_000_000, "2.5k": 2500, " 1m ": 1_000_000} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "k", "-5", "0", "ten", "1G"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q): no error", in)
		}
	}
}

func TestLoadSciFact(t *testing.T) {
	sf, _ := testSciFact(t)
	if len(sf.queries) != 1109 {
		t.Errorf("%d queries, want SciFact's 1,109", len(sf.queries))
	}
	// The test queries come first: 300 of them, the first in file order
	// being claim 1 (claim 0 has no qrels).
	if sf.queries[0].ID != "1" {
		t.Errorf("first query %s, want 1 (the first test query)", sf.queries[0].ID)
	}
	if len(sf.sentences) < 30_000 {
		t.Errorf("%d sentences from 5,183 abstracts, want more", len(sf.sentences))
	}
}

// Synthetic papers are what ingest would store: passages that tile the
// text (the store's own check), at most 512 tokens as the tokenizer
// counts them, with the count recorded close to it; and the same seed
// gives the same corpus.
func TestSyntheticPapers(t *testing.T) {
	sf, _ := testSciFact(t)
	home := t.TempDir()
	var x1 bytes.Buffer
	syn, err := synthesize(home, sf, 2000, 7, &x1)
	if err != nil {
		t.Fatal(err)
	}
	if syn.Passages != 2000 || syn.Papers < 2000/maxPassagesPerPaper || syn.Papers > 2000/minPassagesPerPaper+1 {
		t.Errorf("%d passages in %d papers", syn.Passages, syn.Papers)
	}
	if n := bytes.Count(x1.Bytes(), []byte{'\n'}); n != 2000 {
		t.Errorf("%d passages written for Xapian, want 2000", n)
	}
	st, err := corpus.Open(home, true)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if errs := st.Check(); len(errs) > 0 {
		t.Fatalf("store check: %v", errs)
	}
	docs, err := st.Docs()
	if err != nil {
		t.Fatal(err)
	}
	off := 0
	for _, d := range docs[:10] {
		ps, err := st.Passages(d.PaperID)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			n := tokens.Count(p.Text)
			if n > chunk.DefaultMaxTokens || p.Tokens > chunk.DefaultMaxTokens {
				t.Errorf("%s: %d tokens (recorded %d), over %d", p.PassageID, n, p.Tokens, chunk.DefaultMaxTokens)
			}
			off = max(off, abs(n-p.Tokens))
		}
	}
	if off > 3 {
		t.Errorf("recorded token counts off by up to %d, want at most 3", off)
	}
	var x2 bytes.Buffer
	if _, err := synthesize(t.TempDir(), sf, 2000, 7, &x2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(x1.Bytes(), x2.Bytes()) {
		t.Error("the same seed gave another corpus")
	}
}

func abs(x int) int { return max(x, -x) }

func TestPaperFillsPassages(t *testing.T) {
	sf, _ := testSciFact(t)
	rng := rand.New(rand.NewPCG(1, 1))
	text, ps := paper(rng, sf.sentences, 30)
	if len(ps) != 30 || ps[0].Start != 0 || ps[29].End != len(text) {
		t.Fatalf("%d passages, covering %d..%d of %d bytes", len(ps), ps[0].Start, ps[len(ps)-1].End, len(text))
	}
	for _, p := range ps[:29] {
		if p.Tokens < minFill-maxSentenceTokens || p.Tokens > chunk.DefaultMaxTokens || !strings.HasSuffix(p.Text, "\n\n") {
			t.Errorf("passage %d..%d: %d tokens, ends %q", p.Start, p.End, p.Tokens, p.Text[max(0, len(p.Text)-5):])
		}
	}
}

func TestTargets(t *testing.T) {
	at100k := Size{synthetic: synthetic{Passages: 100_000}, BuildCPUPerPassageUs: 100, HybridOverBM25: 2.5,
		Dense: Latency{P50Ms: 9}, Xapian: &XapianFigures{BM25OverXapian: 1.1}}
	at1M := Size{synthetic: synthetic{Passages: 1_000_000}, BuildCPUPerPassageUs: 130,
		Build: Usage{MaxRSSKiB: 6 << 20, PeakAnonKiB: 900 << 10}, Start: Usage{WallMs: 80, MaxRSSKiB: 400 << 10}, BM25: Latency{P99Ms: 12}}
	got := map[string]string{}
	for _, tg := range targets([]Size{{synthetic: synthetic{Passages: 10_000}}, at100k, at1M}) {
		got[sizeName(tg.Passages)+" "+tg.Figure] = tg.Status
	}
	want := map[string]string{
		"100k bm25 batch CPU ÷ Xapian's":        met,
		"100k hybrid batch CPU ÷ bm25's":        notMet,
		"100k dense p50":                        met,
		"1M build peak own memory":              met,    // its RSS, 6 GiB, counts the corpus file read
		"1M build CPU/passage":                  notMet, // 1.3× 100k's
		"1M first query (fresh search process)": met,
		"1M first-query RSS":                    notMet,
		"1M bm25 p99":                           met,
	}
	if len(got) != len(want) {
		t.Errorf("targets %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	// Without a 100k size or the anchor, what they compare with is n/a.
	at100k.Xapian = nil
	for _, tg := range append(targets([]Size{at100k}), targets([]Size{at1M})...) {
		wantNA := tg.Figure == "bm25 batch CPU ÷ Xapian's" || tg.Figure == "build CPU/passage"
		if (tg.Status == na) != wantNA {
			t.Errorf("alone: %s %s: %s", sizeName(tg.Passages), tg.Figure, tg.Status)
		}
	}
}

// The harness end to end at 1,000 passages and 10 queries: the real
// paperlens binary (built here) indexes and searches a synthetic home,
// Xapian too when installed, and a second run with the kept home reuses
// it.
func TestRunSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds paperlens and indexes 1,000 passages")
	}
	_, path := testSciFact(t)
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build paperlens with")
	}
	bin := filepath.Join(t.TempDir(), "paperlens")
	if out, err := exec.Command(goBin, "build", "-ldflags=-s -w", "-o", bin, "github.com/paperlens/paperlens/cmd/paperlens").CombinedOutput(); err != nil {
		t.Fatalf("build paperlens: %v\n%s", err, out)
	}
	keep := t.TempDir()
	progress := &stampWriter{start: time.Now()}
	opt := Options{Self: bin, Sizes: []string{"1k"}, Queries: 10, K: 10, Rounds: 1, Keep: keep, SciFact: path, Seed: 1, Progress: progress}
	r, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatalf("%v\n%s", err, progress.b.String())
	}
	checkSmall(t, r)
	s := r.Sizes[0]
	var text bytes.Buffer
	r.WriteText(&text)
	if !strings.Contains(text.String(), "\n1k ") || !strings.Contains(text.String(), "no targets at these sizes") {
		t.Errorf("report:\n%s", text.String())
	}
	t.Logf("\n%s%s", progress.b.String(), text.String())

	// Again on the kept home with another binary, and without Python's
	// xapian: the corpus is reused, the index built again by that binary
	// and measured, the anchor skipped with its reason.
	other := filepath.Join(t.TempDir(), "paperlens-other")
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, append(b, 0), 0o755); err != nil { // runs the same, hashes differently
		t.Fatal(err)
	}
	opt.Self, opt.Python = other, filepath.Join(t.TempDir(), "python3")
	again, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if s2 := again.Sizes[0]; s2.Kept || s2.Build == s.Build || s2.Build.CPUMs <= 0 || s2.Passages != 1000 || s2.BM25Batch.CPUMs <= 0 {
		t.Errorf("another binary on the kept home: kept %v, build %+v (first %+v)", s2.Kept, s2.Build, s.Build)
	}
	// And with that binary again, the whole home is reused.
	third, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if s3 := third.Sizes[0]; !s3.Kept || s3.Build != again.Sizes[0].Build {
		t.Errorf("the same binary on the kept home: kept %v, build %+v (before %+v)", s3.Kept, s3.Build, again.Sizes[0].Build)
	}
	if again.XapianOK || again.Sizes[0].Xapian != nil || !strings.HasPrefix(again.Xapian, "skipped: ") {
		t.Errorf("without xapian: %q, %+v", again.Xapian, again.Sizes[0].Xapian)
	}
	text.Reset()
	again.WriteText(&text)
	if !strings.Contains(text.String(), "anchor: skipped: ") {
		t.Errorf("the report does not say the anchor was skipped:\n%s", text.String())
	}
}

// checkSmall checks every figure of TestRunSmall's one size is there.
func checkSmall(t *testing.T, r Result) {
	t.Helper()
	if len(r.Sizes) != 1 {
		t.Fatalf("%d sizes", len(r.Sizes))
	}
	s := r.Sizes[0]
	if s.Passages != 1000 || s.Kept || s.Build.CPUMs <= 0 || s.Build.MaxRSSKiB <= 0 || s.BuildCPURatio != 1 {
		t.Errorf("build: %+v", s)
	}
	// The build's own memory is sampled from the measured program (under
	// GNU time, time's child): some, and never more than its RSS.
	if s.Build.PeakAnonKiB <= 0 || s.Build.PeakAnonKiB > s.Build.MaxRSSKiB {
		t.Errorf("build own memory %d KiB, RSS %d KiB", s.Build.PeakAnonKiB, s.Build.MaxRSSKiB)
	}
	if s.Start.WallMs <= 0 || s.Start.MaxRSSKiB <= 0 || s.BM25Batch.CPUMs <= 0 || s.HybridOverBM25 <= 0 {
		t.Errorf("searches: start %+v, bm25 batch %+v, hybrid ÷ bm25 %.2f", s.Start, s.BM25Batch, s.HybridOverBM25)
	}
	if s.BM25.P50Ms <= 0 || s.BM25.P99Ms < s.BM25.P50Ms || s.Dense.P50Ms <= 0 || s.Hybrid.P50Ms <= 0 {
		t.Errorf("latency: bm25 %+v, dense %+v, hybrid %+v", s.BM25, s.Dense, s.Hybrid)
	}
	if r.XapianOK {
		if s.Xapian == nil || s.Xapian.BM25OverXapian <= 0 || s.Xapian.InScriptCPUMs <= 0 {
			t.Errorf("xapian: %+v", s.Xapian)
		} else if s.Xapian.Overlap < 0.5 {
			t.Errorf("xapian's top 10 and bm25's share %.2f, want most: is the anchor ranking the same way?", s.Xapian.Overlap)
		}
	} else {
		t.Logf("anchor %s", r.Xapian)
	}
}

// stampWriter keeps what is written with the time since start before
// each write.
type stampWriter struct {
	start time.Time
	b     bytes.Buffer
}

func (w *stampWriter) Write(p []byte) (int, error) {
	fmt.Fprintf(&w.b, "%6.2fs %s", time.Since(w.start).Seconds(), p)
	return len(p), nil
}

// Without Python's xapian the anchor is skipped with the reason, not
// failed.
func TestAnchorMissing(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "python3")
	_, err := newAnchor(context.Background(), missing, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("no interpreter: %v", err)
	}
}

// overlap reads both sides' answers: search --queries lines and the
// anchor's, whose summary line it passes over.
func TestOverlap(t *testing.T) {
	ours := `{"id":"1","query":"q","hits":[{"passage_id":"a#0"},{"passage_id":"a#1"}]}
{"id":"2","query":"r","hits":[]}
`
	xap := `{"id": "1", "hits": ["a#1", "b#0"]}
{"id": "2", "hits": ["c#3"]}
{"cpu_s": 0.1, "queries": 2}
`
	got, err := overlap([]byte(ours), []byte(xap), 2)
	if err != nil || got != 0.25 { // query 1: 1 of 2, query 2: 0 of 2
		t.Errorf("overlap %v, %v; want 0.25", got, err)
	}
	if cpu, err := xapianSummary([]byte(xap), 2); err != nil || cpu != 100 {
		t.Errorf("summary: %v ms, %v; want 100", cpu, err)
	}
	if _, err := xapianSummary([]byte(xap), 3); err == nil {
		t.Error("a short batch: no error")
	}
}
