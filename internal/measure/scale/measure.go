package scale

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// measurer measures the sizes of one run.
type measurer struct {
	opt     Options
	sf      sciFact
	dir     string
	run     runner
	anchor  *anchor // nil: skipped
	binary  string  // sha256 of opt.Self: a kept index is reused only with its builder
	qs      []query
	queries string // the batch as a search --queries file
}

func (m *measurer) logf(format string, a ...any) {
	if m.opt.Progress != nil {
		fmt.Fprintf(m.opt.Progress, "measure scale: "+format+"\n", a...)
	}
}

// size builds (or reuses) the home of n passages and measures it.
func (m *measurer) size(ctx context.Context, n int) (Size, error) {
	d := filepath.Join(m.dir, "passages-"+strconv.Itoa(n))
	home, xdb := filepath.Join(d, "home"), filepath.Join(d, "xapian")
	b, kept, err := m.prepare(ctx, n, d, home, xdb)
	if err != nil {
		return Size{}, err
	}
	s := Size{synthetic: b.Synthetic, Kept: kept, Build: b.Build}
	s.BuildCPUPerPassageUs = s.Build.CPUMs * 1000 / float64(s.Passages)
	if m.anchor != nil {
		s.Xapian = &XapianFigures{Build: *b.Xapian}
	}
	if err := m.searches(ctx, &s, home, xdb); err != nil {
		return s, err
	}
	m.logf("%d passages: per-query latency in this process", n)
	for _, l := range []struct {
		name string
		to   *Latency
	}{{"bm25", &s.BM25}, {"dense", &s.Dense}, {"hybrid", &s.Hybrid}} {
		if *l.to, err = measureLatency(ctx, home, l.name, m.qs, m.opt.K); err != nil {
			return s, err
		}
	}
	return s, nil
}

// prepare reuses the kept home under d when it was built for n passages
// with this seed: whole when this binary built its index, else with the
// index built again by this one (--rebuild), so that the build figures
// are always the measured binary's. Otherwise it builds the home: the
// synthetic corpus, paperlens index (measured), and the Xapian index when
// the anchor runs.
func (m *measurer) prepare(ctx context.Context, n int, d, home, xdb string) (built, bool, error) {
	record := filepath.Join(d, "build.json")
	b, err := readBuilt(record)
	fits := err == nil && b.Version == builtVersion && b.Seed == m.opt.Seed && b.Synthetic.Passages == n && (m.anchor == nil || b.Xapian != nil)
	switch {
	case fits && b.Binary == m.binary:
		m.logf("%d passages: reusing the home kept in %s", n, d)
		return b, true, nil
	case fits:
		m.logf("%d passages: the corpus kept in %s, indexed again by this binary", n, d)
		if b.Build, err = m.index(ctx, n, home, "--rebuild"); err != nil {
			return built{}, false, err
		}
		b.Binary = m.binary
		return b, false, writeBuilt(record, b)
	case err != nil && !isNotExist(err):
		m.logf("%d passages: rebuilding (%v)", n, err)
	}
	if b, err = m.create(ctx, n, d, home, xdb); err != nil {
		return built{}, false, err
	}
	return b, false, writeBuilt(record, b)
}

// index runs and measures paperlens index on home.
func (m *measurer) index(ctx context.Context, n int, home string, flags ...string) (Usage, error) {
	u, err := m.run.run(ctx, nil, nil, append([]string{m.opt.Self, "index", "--home", home}, flags...)...)
	if err != nil {
		return u, fmt.Errorf("build the index of %d passages: %w", n, err)
	}
	return u, nil
}

// create builds the home of n passages under d from nothing.
func (m *measurer) create(ctx context.Context, n int, d, home, xdb string) (built, error) {
	if err := os.RemoveAll(d); err != nil {
		return built{}, fmt.Errorf("clear %s: %w", d, err)
	}
	if err := os.MkdirAll(d, 0o755); err != nil {
		return built{}, fmt.Errorf("home for %d passages: %w", n, err)
	}
	m.logf("%d passages: writing the synthetic corpus", n)
	var xw io.WriteCloser
	passages := filepath.Join(d, "passages.jsonl")
	if m.anchor != nil {
		f, err := os.Create(passages)
		if err != nil {
			return built{}, fmt.Errorf("passages for xapian: %w", err)
		}
		xw = f
	}
	syn, err := synthesize(home, m.sf, n, m.opt.Seed, xw)
	if xw != nil {
		if cerr := xw.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("passages for xapian: %w", cerr)
		}
	}
	if err != nil {
		return built{}, err
	}
	b := built{Version: builtVersion, Seed: m.opt.Seed, Synthetic: syn, Binary: m.binary}
	m.logf("%d passages in %d papers: paperlens index", n, syn.Papers)
	if b.Build, err = m.index(ctx, n, home); err != nil {
		return built{}, err
	}
	if m.anchor != nil {
		m.logf("%d passages: Xapian index", n)
		u, err := m.run.run(ctx, nil, nil, m.anchor.indexArgs(xdb, passages)...)
		if err != nil {
			return built{}, fmt.Errorf("index %d passages with Xapian: %w", n, err)
		}
		b.Xapian = &u
		if err := os.Remove(passages); err != nil {
			return built{}, fmt.Errorf("remove the passages given to Xapian: %w", err)
		}
	}
	return b, nil
}

// searches runs the search processes in interleaved rounds: one bm25
// query in a fresh process, the bm25 and hybrid batches, and Xapian's
// batch, each figure the median over the rounds.
func (m *measurer) searches(ctx context.Context, s *Size, home, xdb string) error {
	var start, bm, hy, xs []Usage
	var xin []float64
	var bmOut, xOut []byte // the last round's answers
	search := func(retriever string, rest ...string) []string {
		return append([]string{m.opt.Self, "search", "--home", home, "--retriever", retriever, "-k", strconv.Itoa(m.opt.K)}, rest...)
	}
	for round := 1; round <= m.opt.Rounds; round++ {
		m.logf("%d passages: search round %d of %d", s.Passages, round, m.opt.Rounds)
		u, err := m.run.run(ctx, nil, nil, search("bm25", "--json", m.qs[0].Text)...)
		if err != nil {
			return fmt.Errorf("first query at %d passages: %w", s.Passages, err)
		}
		start = append(start, u)
		for _, b := range []struct {
			retriever string
			to        *[]Usage
		}{{"bm25", &bm}, {"hybrid", &hy}} {
			var out bytes.Buffer
			u, err := m.run.run(ctx, &out, nil, search(b.retriever, "--queries", m.queries)...)
			if err != nil {
				return fmt.Errorf("%s batch at %d passages: %w", b.retriever, s.Passages, err)
			}
			if n := bytes.Count(out.Bytes(), []byte{'\n'}); n != len(m.qs) {
				return fmt.Errorf("%s batch at %d passages: %d answers to %d queries", b.retriever, s.Passages, n, len(m.qs))
			}
			*b.to = append(*b.to, u)
			if b.retriever == "bm25" {
				bmOut = out.Bytes()
			}
		}
		if m.anchor == nil {
			continue
		}
		var out bytes.Buffer
		u, err = m.run.run(ctx, &out, nil, m.anchor.searchArgs(xdb, m.queries, m.opt.K)...)
		if err != nil {
			return fmt.Errorf("xapian batch at %d passages: %w", s.Passages, err)
		}
		in, err := xapianSummary(out.Bytes(), len(m.qs))
		if err != nil {
			return fmt.Errorf("at %d passages: %w", s.Passages, err)
		}
		xs, xin, xOut = append(xs, u), append(xin, in), out.Bytes()
	}
	s.Start, s.BM25Batch, s.HybridBatch = medianUsage(start), medianUsage(bm), medianUsage(hy)
	s.HybridOverBM25 = ratio(s.HybridBatch.CPUMs, s.BM25Batch.CPUMs)
	s.BM25DerivedMs = (s.BM25Batch.CPUMs - s.Start.CPUMs) / float64(len(m.qs)-1)
	if s.Xapian != nil {
		s.Xapian.Search, s.Xapian.InScriptCPUMs = medianUsage(xs), median(xin)
		s.Xapian.BM25OverXapian = ratio(s.BM25Batch.CPUMs, s.Xapian.Search.CPUMs)
		var err error
		if s.Xapian.Overlap, err = overlap(bmOut, xOut, m.opt.K); err != nil {
			return fmt.Errorf("at %d passages: %w", s.Passages, err)
		}
	}
	return nil
}

// overlap is the mean share of the k passages Xapian returns for a query
// that paperlens' bm25 returns too: near 1 when both rank by the same
// BM25 over the same terms, so that the CPU ratio compares like with like.
func overlap(paperlens, xapian []byte, k int) (float64, error) {
	ours := map[string]map[string]bool{}
	for _, line := range bytes.Split(bytes.TrimSpace(paperlens), []byte{'\n'}) {
		var r struct {
			ID   string `json:"id"`
			Hits []struct {
				PassageID string `json:"passage_id"`
			} `json:"hits"`
		}
		if err := json.Unmarshal(line, &r); err != nil {
			return 0, fmt.Errorf("read paperlens' bm25 answers: %w", err)
		}
		ours[r.ID] = map[string]bool{}
		for _, h := range r.Hits {
			ours[r.ID][h.PassageID] = true
		}
	}
	var sum float64
	n := 0
	for _, line := range bytes.Split(bytes.TrimSpace(xapian), []byte{'\n'}) {
		var r struct {
			ID   *string  `json:"id"`
			Hits []string `json:"hits"`
		}
		if err := json.Unmarshal(line, &r); err != nil {
			return 0, fmt.Errorf("read Xapian's answers: %w", err)
		}
		if r.ID == nil { // the summary line
			continue
		}
		both := 0
		for _, h := range r.Hits {
			if ours[*r.ID][h] {
				both++
			}
		}
		sum += float64(both) / float64(k)
		n++
	}
	if n == 0 {
		return 0, fmt.Errorf("the Xapian search answered no query")
	}
	return sum / float64(n), nil
}

func ratio(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}

// medianUsage is each field's median over us.
func medianUsage(us []Usage) Usage {
	var wall, cpu, rss, anon []float64
	for _, u := range us {
		wall, cpu, rss = append(wall, u.WallMs), append(cpu, u.CPUMs), append(rss, float64(u.MaxRSSKiB))
		anon = append(anon, float64(u.PeakAnonKiB))
	}
	return Usage{WallMs: median(wall), CPUMs: median(cpu), MaxRSSKiB: int64(median(rss)), PeakAnonKiB: int64(median(anon))}
}
