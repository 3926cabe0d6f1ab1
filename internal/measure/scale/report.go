package scale

import (
	"fmt"
	"io"
)

// Target is one acceptance target of issue 27 at one size.
type Target struct {
	Passages int    `json:"passages"`
	Figure   string `json:"figure"`
	Want     string `json:"want"`
	Got      string `json:"got"`
	// Status is "met", "not met", or "n/a" when the run lacks what the
	// target compares with (a 100k size, the Xapian anchor).
	Status string `json:"status"`
}

const (
	met    = "met"
	notMet = "not met"
	na     = "n/a"
)

// The sizes the targets are set at.
const (
	size100k = 100_000
	size1M   = 1_000_000
)

// mib is bytes in a MiB; mb300KiB is 300 MB (decimal) in KiB.
const (
	mib      = 1 << 20
	mb300KiB = 300e6 / 1024
)

func status(ok bool) string {
	if ok {
		return met
	}
	return notMet
}

// targets checks the sizes that have targets: 1M (the build, the start
// and bm25's tail) and 100k (against Xapian, hybrid's cost, dense).
func targets(sizes []Size) []Target {
	var out []Target
	var at100k *Size
	for i := range sizes {
		if sizes[i].Passages == size100k {
			at100k = &sizes[i]
		}
	}
	for _, s := range sizes {
		switch s.Passages {
		case size1M:
			out = append(out, targets1M(s, at100k)...)
		case size100k:
			out = append(out, targets100k(s)...)
		}
	}
	return out
}

func targets1M(s Size, at100k *Size) []Target {
	n := s.Passages
	// The build's own memory: its RSS also counts the pages of the corpus
	// file it reads once, which are page cache (see Usage.PeakAnonKiB).
	peak := float64(s.Build.PeakAnonKiB) * 1024
	out := []Target{{n, "build peak own memory", "≤ 1 GiB", fmt.Sprintf("%.0f MiB (RSS %.0f)", peak/mib, float64(s.Build.MaxRSSKiB)/1024), status(peak <= 1<<30)}}
	cpu := Target{Passages: n, Figure: "build CPU/passage", Want: "≤ 1.2× 100k's", Status: na, Got: "no 100k size in this run"}
	if at100k != nil && at100k.BuildCPUPerPassageUs > 0 {
		r := s.BuildCPUPerPassageUs / at100k.BuildCPUPerPassageUs
		cpu.Got, cpu.Status = fmt.Sprintf("%.2f×", r), status(r <= 1.2)
	}
	return append(out, cpu,
		Target{n, "first query (fresh search process)", "< 100 ms", fmt.Sprintf("%.0f ms", s.Start.WallMs), status(s.Start.WallMs < 100)},
		Target{n, "first-query RSS", "< 300 MB", fmt.Sprintf("%.0f MB", float64(s.Start.MaxRSSKiB)*1024/1e6), status(float64(s.Start.MaxRSSKiB) < mb300KiB)},
		Target{n, "bm25 p99", "< 20 ms", fmt.Sprintf("%.2f ms", s.BM25.P99Ms), status(s.BM25.P99Ms < 20)},
	)
}

func targets100k(s Size) []Target {
	n := s.Passages
	x := Target{Passages: n, Figure: "bm25 batch CPU ÷ Xapian's", Want: "≤ 1.2", Status: na, Got: "Xapian anchor skipped"}
	if s.Xapian != nil {
		x.Got, x.Status = fmt.Sprintf("%.2f", s.Xapian.BM25OverXapian), status(s.Xapian.BM25OverXapian <= 1.2)
	}
	return []Target{x,
		{n, "hybrid batch CPU ÷ bm25's", "≤ 2", fmt.Sprintf("%.2f", s.HybridOverBM25), status(s.HybridOverBM25 <= 2)},
		{n, "dense p50", "< 15 ms", fmt.Sprintf("%.2f ms", s.Dense.P50Ms), status(s.Dense.P50Ms < 15)},
	}
}

// sizeName is 10k, 100k, 1M, or the count.
func sizeName(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprint(n)
}

// mark is a figure's target status at size n, as a suffix: " ✓", " ✗",
// or nothing when the figure has no target there.
func mark(ts []Target, n int, figure string) string {
	for _, t := range ts {
		if t.Passages == n && t.Figure == figure {
			switch t.Status {
			case met:
				return " ✓"
			case notMet:
				return " ✗"
			}
		}
	}
	return ""
}

// WriteText prints the table, the targets and the detail of each size.
func (r Result) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%-6s %9s %11s %7s %10s %9s %15s %9s %9s %9s\n",
		"size", "build own", "build CPU/p", "×first", "start", "start RSS", "bm25 p50/p99", "dense p50", "hyb÷bm25", "bm25÷xap")
	fmt.Fprintf(w, "%-6s %9s %11s %7s %10s %9s %15s %9s %9s %9s\n",
		"", "MiB", "µs", "", "ms", "MiB", "ms", "ms", "CPU", "CPU")
	for _, s := range r.Sizes {
		n := s.Passages
		xap := "—"
		if s.Xapian != nil {
			xap = fmt.Sprintf("%.2f", s.Xapian.BM25OverXapian) + mark(r.Targets, n, "bm25 batch CPU ÷ Xapian's")
		}
		fmt.Fprintf(w, "%-6s %9s %11s %7.2f %10s %9s %15s %9s %9s %9s\n", sizeName(n),
			fmt.Sprintf("%.0f", float64(s.Build.PeakAnonKiB)/1024)+mark(r.Targets, n, "build peak own memory"),
			fmt.Sprintf("%.0f", s.BuildCPUPerPassageUs)+mark(r.Targets, n, "build CPU/passage"),
			s.BuildCPURatio,
			fmt.Sprintf("%.0f", s.Start.WallMs)+mark(r.Targets, n, "first query (fresh search process)"),
			fmt.Sprintf("%.0f", float64(s.Start.MaxRSSKiB)/1024)+mark(r.Targets, n, "first-query RSS"),
			fmt.Sprintf("%.2f/%.2f", s.BM25.P50Ms, s.BM25.P99Ms)+mark(r.Targets, n, "bm25 p99"),
			fmt.Sprintf("%.2f", s.Dense.P50Ms)+mark(r.Targets, n, "dense p50"),
			fmt.Sprintf("%.2f", s.HybridOverBM25)+mark(r.Targets, n, "hybrid batch CPU ÷ bm25's"),
			xap)
	}
	if len(r.Targets) > 0 {
		fmt.Fprintln(w, "\nTargets (issue 27):")
		for _, t := range r.Targets {
			fmt.Fprintf(w, "  %-5s %-36s %-16s %-26s %s\n", sizeName(t.Passages), t.Figure, t.Want, t.Got, t.Status)
		}
	} else {
		fmt.Fprintln(w, "\n(no targets at these sizes: they are set at 100k and 1M)")
	}
	for _, s := range r.Sizes {
		r.writeDetail(w, s)
	}
	fmt.Fprintf(w, "\nbinary %s; %d SciFact queries, k=%d, seed %d; search figures are medians of %d interleaved rounds\n", r.Binary, r.Queries, r.K, r.Seed, r.Rounds)
	fmt.Fprintf(w, "memory: %s\n", r.Memory)
	fmt.Fprintf(w, "latency: one query at a time in this process, through the same searcher as paperlens search (search --queries reports no per-query times)\n")
	fmt.Fprintf(w, "anchor: %s\n", r.Xapian)
}

func (r Result) writeDetail(w io.Writer, s Size) {
	kept := ""
	if s.Kept {
		kept = " (home and build figures kept from an earlier run)"
	}
	fmt.Fprintf(w, "\n%s: %d passages in %d papers, %.0f MB of text, %.0f tokens/passage%s\n", sizeName(s.Passages), s.Passages, s.Papers,
		float64(s.Bytes)/1e6, float64(s.Tokens)/float64(s.Passages), kept)
	u := func(name string, u Usage) {
		fmt.Fprintf(w, "  %-28s %10.0f ms CPU %10.0f ms wall %8.0f MiB peak RSS %8.0f MiB own\n", name, u.CPUMs, u.WallMs, float64(u.MaxRSSKiB)/1024, float64(u.PeakAnonKiB)/1024)
	}
	u("paperlens index", s.Build)
	u("search, one bm25 query", s.Start)
	u(fmt.Sprintf("search --queries (%d), bm25", r.Queries), s.BM25Batch)
	u(fmt.Sprintf("search --queries (%d), hybrid", r.Queries), s.HybridBatch)
	if s.Xapian != nil {
		u("xapian index", s.Xapian.Build)
		fmt.Fprintf(w, "  %-28s %10.0f µs CPU/passage (paperlens index: %.0f)\n", "", s.Xapian.Build.CPUMs*1000/float64(s.Passages), s.BuildCPUPerPassageUs)
		u(fmt.Sprintf("xapian search (%d)", r.Queries), s.Xapian.Search)
		fmt.Fprintf(w, "  %-28s %10.0f ms CPU (open and queries, without the interpreter's start)\n", "xapian in-script", s.Xapian.InScriptCPUMs)
		fmt.Fprintf(w, "  %-28s %10.2f of Xapian's top %d are in bm25's\n", "top-k overlap", s.Xapian.Overlap, r.K)
	}
	fmt.Fprintf(w, "  %-28s %-22s %s\n", "latency, ms", "wall p50/p99/mean", "CPU p50/p99")
	for _, l := range []struct {
		name string
		l    Latency
	}{{"bm25", s.BM25}, {"dense", s.Dense}, {"hybrid", s.Hybrid}} {
		fmt.Fprintf(w, "  %-28s %-22s %.2f/%.2f\n", "  "+l.name, fmt.Sprintf("%.2f/%.2f/%.2f", l.l.P50Ms, l.l.P99Ms, l.l.MeanMs), l.l.CPUP50Ms, l.l.CPUP99Ms)
	}
	fmt.Fprintf(w, "  %-28s %10.2f ms (batch CPU less the one-query process's, over the other queries)\n", "bm25 CPU/query in the child", s.BM25DerivedMs)
}
