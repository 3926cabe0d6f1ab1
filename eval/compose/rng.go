package compose

// rng is SplitMix64 with an unbiased bounded draw. It is written out here,
// not taken from math/rand, so that a seed gives the same questions
// whatever Go release builds paperlens: the composed file is a contract.
type rng struct{ s uint64 }

func newRNG(seed int64) *rng { return &rng{s: uint64(seed)} }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn is uniform in [0, n), n > 0, by rejection (no modulo bias).
func (r *rng) intn(n int) int {
	bound := uint64(n)
	limit := ^uint64(0) - ^uint64(0)%bound
	for {
		if v := r.next(); v < limit {
			return int(v % bound)
		}
	}
}

// between is uniform in [lo, hi]; lo when hi < lo.
func (r *rng) between(lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + r.intn(hi-lo+1)
}

// shuffle permutes xs (Fisher–Yates).
func shuffle[T any](r *rng, xs []T) {
	for i := len(xs) - 1; i > 0; i-- {
		j := r.intn(i + 1)
		xs[i], xs[j] = xs[j], xs[i]
	}
}

// sample is k distinct elements of xs, in random order; xs is left as is.
func sample[T any](r *rng, xs []T, k int) []T {
	c := append([]T(nil), xs...)
	for i := 0; i < k && i < len(c); i++ {
		j := i + r.intn(len(c)-i)
		c[i], c[j] = c[j], c[i]
	}
	return c[:min(k, len(c))]
}
