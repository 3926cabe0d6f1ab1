package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// DefaultResamples is the number of bootstrap resamples used when the caller
// passes 0 or less.
const DefaultResamples = 10000

// MeanStd returns the mean and the sample standard deviation (divisor n−1)
// of xs. The std is 0 when there are fewer than two values; an empty slice
// gives 0, 0.
func MeanStd(xs []float64) (mean, std float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	// Two passes: subtracting the mean first avoids the cancellation of the
	// sum-of-squares formula.
	var ss float64
	for _, x := range xs {
		d := x - mean
		ss += d * d
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1))
}

// Paired is the comparison of a treatment b against a baseline a on the same
// questions.
type Paired struct {
	N      int     // questions
	Diff   float64 // accuracy(b) − accuracy(a)
	Lo, Hi float64 // 95 % paired bootstrap percentile interval of Diff
	PValue float64 // McNemar, two-sided
	B10    int     // a right, b wrong
	B01    int     // a wrong, b right
}

func (p Paired) String() string {
	return fmt.Sprintf("n=%d diff=%+.4f 95%% CI [%+.4f, %+.4f] McNemar p=%.4g (a-only %d, b-only %d)",
		p.N, p.Diff, p.Lo, p.Hi, p.PValue, p.B10, p.B01)
}

// PairedBootstrap returns diff = mean(b) − mean(a) and its 95 % percentile
// interval from resampling question indices with replacement. a and b hold
// per-question scores (0/1, or fractions when averaged over runs) for the
// same questions in the same order. resamples ≤ 0 means DefaultResamples;
// the same seed gives the same interval. Empty input gives 0, 0, 0. It
// panics if the lengths differ.
func PairedBootstrap(a, b []float64, resamples int, seed uint64) (diff, lo, hi float64) {
	if len(a) != len(b) {
		panic(fmt.Sprintf("stats: PairedBootstrap: %d baseline scores but %d treatment scores", len(a), len(b)))
	}
	n := len(a)
	if n == 0 {
		return 0, 0, 0
	}
	if resamples <= 0 {
		resamples = DefaultResamples
	}
	// The difference of means is the mean of per-question differences, so
	// resampling d keeps each question's pair together.
	d := make([]float64, n)
	for i := range a {
		d[i] = b[i] - a[i]
		diff += d[i]
	}
	diff /= float64(n)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	stats := make([]float64, resamples)
	for r := range stats {
		var s float64
		for range n {
			s += d[rng.IntN(n)]
		}
		stats[r] = s / float64(n)
	}
	sort.Float64s(stats)
	return diff, quantile(stats, 0.025), quantile(stats, 0.975)
}

// quantile is the type-7 quantile of sorted xs: linear interpolation
// between the order statistics around (n−1)p.
func quantile(sorted []float64, p float64) float64 {
	h := float64(len(sorted)-1) * p
	i := int(math.Floor(h))
	if i+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
}

// exactBelow is the number of discordant pairs under which McNemar uses the
// exact binomial test; from 25 on the χ² approximation is adequate.
const exactBelow = 25

// McNemar tests whether paired binary outcomes differ: a is the baseline, b
// the treatment, one entry per question. b01 counts questions a got wrong and
// b right, b10 the reverse. The p-value is two-sided: exact binomial when
// b01+b10 < 25, else χ² with continuity correction (see the package
// documentation). It panics if the lengths differ.
func McNemar(a, b []bool) (b01, b10 int, p float64) {
	if len(a) != len(b) {
		panic(fmt.Sprintf("stats: McNemar: %d baseline outcomes but %d treatment outcomes", len(a), len(b)))
	}
	for i := range a {
		switch {
		case !a[i] && b[i]:
			b01++
		case a[i] && !b[i]:
			b10++
		}
	}
	return b01, b10, mcnemarP(b01, b10)
}

func mcnemarP(b01, b10 int) float64 {
	n := b01 + b10
	if n == 0 {
		return 1
	}
	if n < exactBelow {
		k := min(b01, b10)
		p := 2 * distuv.Binomial{N: float64(n), P: 0.5}.CDF(float64(k))
		return math.Min(1, p)
	}
	c := math.Max(0, math.Abs(float64(b01-b10))-1)
	return distuv.ChiSquared{K: 1}.Survival(c * c / float64(n))
}

// Compare reports the paired comparison of treatment b against baseline a,
// one binary outcome per question (which outcome — run 1, the majority of
// runs — is the caller's choice). It panics if the lengths differ.
func Compare(a, b []bool, resamples int, seed uint64) Paired {
	fa, fb := make([]float64, len(a)), make([]float64, len(b))
	for i, v := range a {
		if v {
			fa[i] = 1
		}
	}
	for i, v := range b {
		if v {
			fb[i] = 1
		}
	}
	diff, lo, hi := PairedBootstrap(fa, fb, resamples, seed)
	b01, b10, p := McNemar(a, b)
	return Paired{N: len(a), Diff: diff, Lo: lo, Hi: hi, PValue: p, B10: b10, B01: b01}
}

// Wilson is the 95% Wilson score interval of a proportion p over n items:
// unlike p ± 1.96 standard errors it stays inside [0, 1] and is not empty
// at 0% or 100%. With no items it is [0, 1]: nothing is known.
func Wilson(p float64, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959964
	nf := float64(n)
	d := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / d
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / d
	return math.Max(0, c-h), math.Min(1, c+h)
}
