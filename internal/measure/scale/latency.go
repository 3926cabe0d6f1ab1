package scale

import (
	"context"
	"fmt"
	"runtime/debug"
	"sort"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/internal/cliflags"
	"github.com/paperlens/paperlens/retrieve"
)

// Latency is one retriever's per-query wall time, one query at a time,
// and the CPU time the process spent on each: on a busy machine the wall
// time waits for a core, the CPU time does not.
type Latency struct {
	P50Ms    float64 `json:"p50_ms"`
	P99Ms    float64 `json:"p99_ms"`
	MeanMs   float64 `json:"mean_ms"`
	CPUP50Ms float64 `json:"cpu_p50_ms"`
	CPUP99Ms float64 `json:"cpu_p99_ms"`
}

// warmQueries are searched before the timed ones, so that the first
// timed query does not pay for pages the index has not touched yet.
const warmQueries = 10

// measureLatency opens home's index the way paperlens search does
// (session.Searcher with search's default flags) in this process and
// times each query alone. search --queries answers many at once and
// reports no per-query times, so a child cannot give quantiles; this
// process runs the same code, only without a process around it.
func measureLatency(ctx context.Context, home, retriever string, qs []query, k int) (Latency, error) {
	var ix cliflags.Index
	ix.Add(pflag.NewFlagSet("search", pflag.ContinueOnError)) // search's defaults
	r, closer, err := session.Searcher(ctx, session.Retrieval{Home: home, Index: ix.Spec(nil)}, retriever, nil)
	if err != nil {
		return Latency{}, fmt.Errorf("open %s for %s latency: %w", home, retriever, err)
	}
	defer func() {
		closer.Close()
		debug.FreeOSMemory()
	}()
	for _, q := range qs[:min(warmQueries, len(qs))] {
		if _, err := r.Search(ctx, retrieve.Query{Text: q.Text, K: k}); err != nil {
			return Latency{}, fmt.Errorf("%s search of query %s: %w", retriever, q.ID, err)
		}
	}
	times, cpus := make([]float64, 0, len(qs)), make([]float64, 0, len(qs))
	var sum float64
	for _, q := range qs {
		start, cpu := time.Now(), selfCPU()
		if _, err := r.Search(ctx, retrieve.Query{Text: q.Text, K: k}); err != nil {
			return Latency{}, fmt.Errorf("%s search of query %s: %w", retriever, q.ID, err)
		}
		t := ms(time.Since(start))
		times, cpus = append(times, t), append(cpus, ms(selfCPU()-cpu))
		sum += t
	}
	sort.Float64s(times)
	sort.Float64s(cpus)
	return Latency{P50Ms: quantile(times, 0.5), P99Ms: quantile(times, 0.99), MeanMs: sum / float64(len(times)),
		CPUP50Ms: quantile(cpus, 0.5), CPUP99Ms: quantile(cpus, 0.99)}, nil
}

// selfCPU is this process's CPU time so far, user and system.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// quantile is the nearest-rank quantile q of sorted xs.
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[int(q*float64(len(sorted)-1)+0.5)]
}

// median of xs (not sorted in place).
func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return quantile(s, 0.5)
}
