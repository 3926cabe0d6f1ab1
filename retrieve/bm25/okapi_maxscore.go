package bm25

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// scoreMode chooses how a corpus-wide search of an OkapiFile scores:
// Search always asks for scoreAuto; tests force either path to compare
// them on the same file.
type scoreMode int

const (
	scoreAuto       scoreMode = iota // pruned when it pays (usePruning)
	scoreExhaustive                  // every posting of every query term
	scorePruned                      // MaxScore whenever it is safe
)

// Bounds are inflated so that floating-point rounding (of the terms, of
// the bounds' sums, of the partial scores added in another order than the
// exact ones) can never prune a passage that belongs in the top k: each
// of those errors is a few ulps of the sum of |contributions|, some 1e-15
// of it for any query of fewer than a thousand terms, far below 1e-9.
const (
	pruneRelSlack = 1e-9
	pruneAbsSlack = 1e-12
)

// Pruning reads a term's postings one at a time through cursors and
// looks up the others' by galloping search, a few times the cost of a
// posting in the exhaustive loop; it pays only when the postings are long
// enough for most of them to be skipped. Measured on the 100k and 1M
// SciFact-like files (BenchmarkOkapiFile/.../prune): below some tens of
// thousands of postings both take well under a millisecond.
const pruneMinPostings = 32768

// usePruning is the scoreAuto choice: a one-term query cannot skip a
// posting (every passage holding the term may be among the best), and
// short postings cost less to add up than to prune; a k near the number
// of candidates keeps the threshold low, so nothing is skipped either.
func usePruning(qs []fileQterm, k int) bool {
	if len(qs) < 2 {
		return false
	}
	total, longest := uint64(0), uint64(0)
	for _, qt := range qs {
		total += uint64(qt.rec.df)
		longest = max(longest, uint64(qt.rec.df))
	}
	return total >= pruneMinPostings && uint64(k)*16 <= longest
}

// pruneSafe reports whether the bound ub = max(0, w·(k1+1)) holds for the
// file's parameters: okapiTerm(w, tf, norm, k1) = w·(k1+1)·tf/(tf+norm)
// is at most w·(k1+1) when w ≥ 0 and at most 0 when w < 0 as long as
// k1 ≥ 0 and norm = k1·(1 − b + b·|d|/avgdl) ≥ 0, that is 0 ≤ b ≤ 1.
func pruneSafe(k1, b float64) bool {
	return k1 >= 0 && b >= 0 && b <= 1 && !math.IsInf(k1, 0)
}

// msTerm is one query term's cursor in a MaxScore search.
type msTerm struct {
	qi       int     // the term's place in query order
	w, ub    float64 // weight (count × floored idf) and inflated upper bound
	pos, end uint64  // the next posting and the end of the term's postings
	doc      uint64  // the passage at pos; msDone when the postings are spent
}

const msDone = math.MaxUint64

// at loads the cursor's passage, checking the order the exhaustive loop
// checks: postings strictly increasing and within the passages.
func (t *msTerm) at(v *okView, prev uint64) error {
	if t.pos >= t.end {
		t.doc = msDone
		return nil
	}
	d, _ := v.posting(t.pos)
	if uint64(d) >= v.h.docs || (prev != msDone && uint64(d) <= prev) {
		return fmt.Errorf("%w: postings out of order", ErrCorruptOkapi)
	}
	t.doc = uint64(d)
	return nil
}

// seek moves a non-essential term's cursor to its first posting at or
// after passage d, galloping then bisecting: candidates come in
// increasing order, so the cursor never goes back and the steps are
// short where the term is common. It returns the tf at d, 0 if absent.
func (t *msTerm) seek(v *okView, d uint64) uint32 {
	if t.doc == msDone {
		return 0
	}
	if t.doc >= d {
		if t.doc == d {
			_, tf := v.posting(t.pos)
			return tf
		}
		return 0
	}
	lo, step := t.pos, uint64(1)
	var hi uint64
	for {
		hi = lo + step
		if hi >= t.end {
			hi = t.end
			break
		}
		if pd, _ := v.posting(hi); uint64(pd) >= d {
			break
		}
		lo, step = hi, step*2
	}
	// postings[lo] < d (or lo is the old position, already below d);
	// postings[hi] >= d or hi = end.
	for lo < hi {
		mid := lo + (hi-lo)/2
		if pd, _ := v.posting(mid); uint64(pd) < d {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	t.pos = lo
	if lo >= t.end {
		t.doc = msDone
		return 0
	}
	pd, tf := v.posting(lo)
	t.doc = uint64(pd)
	if t.doc != d {
		return 0
	}
	return tf
}

// scoreCorpusPruned finds the same top k as scoreCorpus, the same
// passages with the same scores to the bit, by MaxScore (Turtle & Flood,
// 1995) over the postings read in passage order. Terms are ranked by their
// upper bound; once the k kept are full, the longest prefix of weakest
// terms whose bounds add up to less than the k-th score is non-essential:
// a passage holding only those cannot enter, so only the other terms'
// postings are walked, and the non-essential terms are looked up, strongest
// first, for a candidate whose bound still reaches the k-th score.
//
// Ties: a passage is skipped only when its bound is strictly below the
// k-th score, so every passage that could tie with it is scored and
// fileTop orders it as the exhaustive search does.
//
// Bits: a survivor's score is the sum of its terms' okapiTerm, computed
// from the same w, tf, norm and k1, added from 0 in query order, which is
// the sum scoreCorpus accumulates for it term by term.
func (f *OkapiFile) scoreCorpusPruned(ctx context.Context, qs []fileQterm, top *fileTop) error {
	v := &f.v
	n := float64(v.h.docs)
	floor := v.h.opt.Epsilon * v.h.meanIDF
	k1 := v.h.opt.K1
	m := len(qs)
	ts := make([]msTerm, m)
	slack := pruneAbsSlack
	for i, qt := range qs {
		w := qt.count * flooredIDF(n, float64(qt.rec.df), floor)
		ub := max(0, w*(k1+1)) * (1 + pruneRelSlack)
		slack += pruneRelSlack * math.Abs(w) * (k1 + 1)
		ts[i] = msTerm{qi: i, w: w, ub: ub, pos: qt.rec.start, end: qt.rec.start + uint64(qt.rec.df)}
		if err := ts[i].at(v, msDone); err != nil {
			return err
		}
	}
	// Weakest first; among equal bounds the longer postings first, so
	// they become non-essential first.
	slices.SortStableFunc(ts, func(a, b msTerm) int {
		if a.ub != b.ub {
			if a.ub < b.ub {
				return -1
			}
			return 1
		}
		return int(b.end-b.pos) - int(a.end-a.pos)
	})
	// pre[j] bounds what ts[:j] can add to a passage's score.
	pre := make([]float64, m+1)
	for j, t := range ts {
		pre[j+1] = (pre[j] + t.ub) * (1 + pruneRelSlack)
	}
	contrib := make([]float64, m) // by query order
	has := make([]bool, m)
	theta := math.Inf(-1) // the k-th score once k are kept
	ne := 0               // ts[:ne] are non-essential
	for steps := 0; ; steps++ {
		if steps&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		d := uint64(msDone)
		for j := ne; j < m; j++ {
			d = min(d, ts[j].doc)
		}
		if d == msDone {
			return nil
		}
		clear(has)
		norm := v.norm(uint32(d))
		partial := 0.0
		for j := ne; j < m; j++ {
			t := &ts[j]
			if t.doc != d {
				continue
			}
			_, tf := v.posting(t.pos)
			c := okapiTerm(t.w, float64(tf), norm, k1)
			contrib[t.qi], has[t.qi] = c, true
			partial += c
			t.pos++
			if err := t.at(v, d); err != nil {
				return err
			}
		}
		if !f.completeCandidate(ts, pre, ne, d, norm, partial, slack, theta, contrib, has) {
			continue
		}
		s := 0.0
		for i := range m {
			if has[i] {
				s += contrib[i]
			}
		}
		top.scored++
		top.offer(fileHit{s, uint32(d)})
		if len(top.h) == top.k {
			theta = top.h[0].score
			for ne < m && pre[ne+1]+slack < theta {
				ne++
			}
		}
	}
}

// completeCandidate looks up passage d in the non-essential terms,
// strongest first, stopping as soon as what it has found plus what the
// terms left could add falls strictly below theta (false: d cannot enter
// the top k). The terms found go into contrib and has.
func (f *OkapiFile) completeCandidate(ts []msTerm, pre []float64, ne int, d uint64, norm, partial, slack, theta float64, contrib []float64, has []bool) bool {
	v := &f.v
	k1 := v.h.opt.K1
	for j := ne - 1; j >= 0; j-- {
		if partial+pre[j+1]+slack < theta {
			return false
		}
		t := &ts[j]
		if tf := t.seek(v, d); t.doc == d {
			c := okapiTerm(t.w, float64(tf), norm, k1)
			contrib[t.qi], has[t.qi] = c, true
			partial += c
		}
	}
	return partial+slack >= theta
}
