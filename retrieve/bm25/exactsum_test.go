package bm25

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// exactSum rounds the exact sum once: it equals big.Float's sum at a
// precision that loses nothing, whatever the order of the terms, while the
// float64 sums of the same terms in two orders differ (which is why Okapi
// uses it for the mean idf).
func TestExactSum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, 5000)
	for i := range xs {
		// raw idfs span a few units either side of 0, with tiny ones near
		// df = N/2, plus extremes to cover subnormals and large exponents.
		xs[i] = (r.Float64()*2 - 1) * math.Pow(2, float64(r.IntN(60)-50))
	}
	xs = append(xs, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64*3, 1e300, -1e300, math.MaxFloat64/4)
	ref := new(big.Float).SetPrec(4000)
	for _, x := range xs {
		ref.Add(ref, new(big.Float).SetPrec(4000).SetFloat64(x))
	}
	want, _ := ref.Float64()
	naive := map[float64]bool{}
	for range 5 {
		r.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
		var s exactSum
		var plain float64
		for _, x := range xs {
			s.add(x)
			plain += x
		}
		naive[plain] = true
		if got := s.float64(); got != want {
			t.Fatalf("exact sum %v, want %v", got, want)
		}
	}
	if len(naive) < 2 {
		t.Logf("float64 sums agreed across orders this time: %v", naive)
	}
	var s exactSum
	s.add(math.Inf(1))
	s.add(1)
	if got := s.float64(); !math.IsInf(got, 1) {
		t.Errorf("sum with +Inf: %v", got)
	}
	var z exactSum
	z.add(0.5)
	z.add(-0.5)
	if z.float64() != 0 {
		t.Errorf("0.5 - 0.5 = %v", z.float64())
	}
}
