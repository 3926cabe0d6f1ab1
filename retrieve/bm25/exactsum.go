package bm25

import (
	"math"
	"math/big"
	"math/bits"
)

// exactSum adds float64s exactly, in fixed point, and rounds once at the
// end, so the sum does not depend on the order of the terms. Okapi's mean
// idf (the epsilon floor) is such a sum over the vocabulary: summed in
// floating point its last bits depend on the order terms are visited in
// (first seen in memory, lexical on disk, merged runs in a streaming
// build), and every floored score would follow them. Summed exactly, the
// in-memory Okapi, the file written from it and the file written by the
// streaming writer from the same papers agree to the bit.
//
// Every finite float64 is an integer multiple of 2^-1074 below 2^1024, so
// 2098 bits hold any of them; the extra word leaves room for 2^60 terms
// before the total could overflow. Positive and negative terms go to
// separate accumulators to keep the carries one-way.
type exactSum struct {
	pos, neg  [exactWords]uint64
	nonFinite float64 // NaN or ±Inf seen: the sum is that, as float addition would make it
	bad       bool
}

const exactWords = (2098+63)/64 + 1

func (s *exactSum) add(x float64) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		if s.bad {
			s.nonFinite += x // Inf + -Inf = NaN, as plain summation
		} else {
			s.nonFinite, s.bad = x, true
		}
		return
	}
	b := math.Float64bits(x)
	exp := int(b>>52) & 0x7ff
	m := b & (1<<52 - 1)
	shift := 0 // x = m × 2^(shift-1074)
	if exp == 0 {
		if m == 0 {
			return
		}
	} else {
		m |= 1 << 52
		shift = exp - 1
	}
	acc := &s.pos
	if b>>63 != 0 {
		acc = &s.neg
	}
	w, off := shift/64, uint(shift%64)
	lo, hi := m<<off, uint64(0)
	if off > 0 {
		hi = m >> (64 - off)
	}
	var c uint64
	acc[w], c = bits.Add64(acc[w], lo, 0)
	acc[w+1], c = bits.Add64(acc[w+1], hi, c)
	for i := w + 2; c != 0 && i < exactWords; i++ {
		acc[i], c = bits.Add64(acc[i], 0, c)
	}
}

// float64 is the exact sum rounded to the nearest float64 (ties to even).
func (s *exactSum) float64() float64 {
	if s.bad {
		return s.nonFinite
	}
	toInt := func(a *[exactWords]uint64) *big.Int {
		words := make([]big.Word, 0, 2*exactWords)
		for _, w := range a {
			if bits.UintSize == 64 {
				words = append(words, big.Word(w))
			} else {
				words = append(words, big.Word(uint32(w)), big.Word(w>>32))
			}
		}
		return new(big.Int).SetBits(words)
	}
	d := new(big.Int).Sub(toInt(&s.pos), toInt(&s.neg))
	if d.Sign() == 0 {
		return 0
	}
	f := new(big.Float).SetPrec(uint(d.BitLen())).SetInt(d) // exact
	f.SetMantExp(f, -1074)
	v, _ := f.Float64() // rounds to nearest even; ±Inf past the range
	return v
}

// exactMean is the exact sum of the n values each adds, rounded once,
// divided by n: Okapi's mean raw idf. n = 0 gives 0.
func exactMean(n int, each func(add func(float64))) float64 {
	if n == 0 {
		return 0
	}
	var s exactSum
	each(s.add)
	return s.float64() / float64(n)
}
