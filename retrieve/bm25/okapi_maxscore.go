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
	scorePruned                      // pruned whenever it is safe (pruneSafe)
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

// When pruning pays, measured on the SciFact-like files of 100k and 1M
// passages with 300 SciFact claims, each query's best of five, against
// scoreCorpus: queries whose postings number up to about two a passage of
// the corpus take a third less time pruned or better (p50 at 1M 5.1 ms
// against 7.3 with pruning up to two a passage), but queries of many
// common terms beyond that take up to twice as long. Their bounds,
// w·(k1+1) for terms whose typical share is under half that, add up to far
// above the k-th score, so that nearly every passage stays a candidate to
// the end and the passes over the candidates are extra work. The limit is
// kept at 1.5, a margin for the slowest queries, whose times pruned vary
// more under load from other processes. Below some tens of thousands of
// postings both take well under a millisecond.
const (
	pruneMinPostings   = 32768
	pruneMaxPerPassage = 1.5
)

// usePruning is the scoreAuto choice: a one-term query cannot skip a
// posting (every passage holding the term may be among the best); short
// postings cost less to add up than to prune; a k near the number of
// candidates keeps the threshold low, so nothing is skipped; and many
// postings a passage mean bounds too loose to skip much (above).
func usePruning(qs []fileQterm, k int, docs uint64) bool {
	if len(qs) < 2 {
		return false
	}
	total, longest := uint64(0), uint64(0)
	for _, qt := range qs {
		total += uint64(qt.rec.df)
		longest = max(longest, uint64(qt.rec.df))
	}
	return total >= pruneMinPostings && float64(total) <= pruneMaxPerPassage*float64(docs) && uint64(k)*16 <= longest
}

// pruneSafe reports whether the bound ub = max(0, w·(k1+1)) holds for the
// file's parameters: okapiTerm(w, tf, norm, k1) = w·(k1+1)·tf/(tf+norm)
// is at most w·(k1+1) when w ≥ 0, and at most 0 (at least w·(k1+1)) when
// w < 0, as long as k1 ≥ 0 and norm = k1·(1 − b + b·|d|/avgdl) ≥ 0, that
// is 0 ≤ b ≤ 1.
func pruneSafe(k1, b float64) bool {
	return k1 >= 0 && b >= 0 && b <= 1 && !math.IsInf(k1, 0)
}

// msTerm is one query term of a pruned search.
type msTerm struct {
	w, ub      float64 // weight (count × floored idf) and inflated upper bound
	start, end uint64  // the term's postings
}

// scoreCorpusPruned finds the same top k as scoreCorpus, the same passages
// with the same scores to the bit, adding up the terms one at a time like
// scoreCorpus (a tight loop over each term's postings) but rarest first,
// and pruning in the manner of Turtle & Flood's (1995) term-at-a-time
// MaxScore:
//
//   - while the terms not yet added could lift a passage none of the
//     added terms holds into the top k, every posting is added;
//   - once they cannot (their bounds add up to less than the k-th best
//     lower bound of the passages met), the passages met are the only
//     candidates: the terms left are added to them alone (galloping to
//     them once they are few), and a candidate is dropped as soon as what
//     it has plus what the terms left could add falls strictly below that
//     k-th lower bound;
//   - the candidates within rounding of the k-th at the end are scored
//     again in query order, each term's tf found by binary search, which
//     gives scoreCorpus's sums to the bit.
//
// Ties: a passage is dropped only when it is sure to score strictly below
// the k-th, so every passage that could tie with it is offered and
// fileTop orders it as the exhaustive search does.
//
// Rarest first, not strongest: a very common term, its negative idf
// floored at a fraction of the mean idf, can bound higher than rarer
// ones, but adding it early would make nearly every passage a candidate.
func (f *OkapiFile) scoreCorpusPruned(ctx context.Context, qs []fileQterm, top *fileTop) error {
	v := &f.v
	k1 := v.h.opt.K1
	ts, w, slack := pruneTerms(v, qs)
	m := len(ts)
	// For the terms ts[:j] (added last): pre[j] bounds what they can add
	// to a passage from above, lo[j] from below (negative weights), and
	// rest[j] counts their postings.
	pre, lo, rest := make([]float64, m+1), make([]float64, m+1), make([]uint64, m+1)
	for j, t := range ts {
		pre[j+1] = (pre[j] + t.ub) * (1 + pruneRelSlack)
		lo[j+1] = lo[j] + min(0, t.w*(k1+1))*(1+pruneRelSlack)
		rest[j+1] = rest[j] + (t.end - t.start)
	}
	sc, _ := fileScratchPool.Get().(*fileScratch)
	if sc == nil || uint64(len(sc.scores)) < v.h.docs {
		sc = &fileScratch{scores: make([]float64, v.h.docs), seen: make([]bool, v.h.docs)}
	}
	defer fileScratchPool.Put(sc)
	// seen marks the passages met, then the candidates left.
	scores, seen, touched := sc.scores, sc.seen, sc.touched[:0]
	defer func() {
		for _, d := range touched {
			scores[d], seen[d] = 0, false
		}
		sc.touched = touched[:0]
	}()
	j, theta := m, math.Inf(-1)
	for ; j > 0; j-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		var err error
		if touched, err = addAll(v, &ts[j-1], scores, seen, touched); err != nil {
			return err
		}
		// Try the switch when the postings left are worth a few passes
		// over the passages met: are k of them sure to beat any passage
		// not met, and would most of the others be dropped? Candidates
		// of nearly all the passages met would cost a pass after each
		// term left and save nothing.
		if j-1 > 0 && len(touched) >= top.k && rest[j-1] >= uint64(len(touched)) &&
			countAtLeast(touched, scores, pre[j-1]+slack-lo[j-1], top.k) >= top.k {
			th := kthLargest(touched, scores, lo[j-1], top.k) - slack
			if 4*countAtLeast(touched, scores, th-pre[j-1]-slack, len(touched)) <= len(touched) {
				theta = th
				j--
				break
			}
		}
	}
	cands := touched
	if j > 0 { // switched: the candidates are those that can reach theta
		cands = make([]uint32, 0, len(touched)/4+1)
		for _, d := range touched {
			if scores[d]+pre[j]+slack >= theta {
				cands = append(cands, d)
			} else {
				seen[d] = false
			}
		}
	}
	sorted := false
	for ; j > 0; j-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		t := &ts[j-1]
		if uint64(len(cands))*8 < t.end-t.start {
			if !sorted {
				slices.Sort(cands)
				sorted = true
			}
			addGalloping(v, t, cands, scores)
		} else {
			addSeen(v, t, scores, seen)
		}
		kept := cands[:0]
		for _, d := range cands {
			if scores[d]+pre[j-1]+slack >= theta {
				kept = append(kept, d)
			} else {
				seen[d] = false
			}
		}
		cands = kept
	}
	// Every term added: the k-th best is known up to rounding.
	if len(cands) >= top.k {
		theta = max(theta, kthLargest(cands, scores, 0, top.k)-slack)
	}
	for _, d := range cands {
		if scores[d]+slack < theta {
			continue
		}
		top.scored++
		top.offer(fileHit{exactScore(v, qs, w, d), d})
	}
	return nil
}

// pruneTerms is the query's terms, most postings first, their weights by
// query order, and the slack that covers rounding for them.
func pruneTerms(v *okView, qs []fileQterm) (ts []msTerm, w []float64, slack float64) {
	n := float64(v.h.docs)
	floor := v.h.opt.Epsilon * v.h.meanIDF
	k1 := v.h.opt.K1
	ts, w, slack = make([]msTerm, len(qs)), make([]float64, len(qs)), pruneAbsSlack
	for i, qt := range qs {
		// scoreCorpus's weight, computed the same way: the same bits.
		w[i] = qt.count * flooredIDF(n, float64(qt.rec.df), floor)
		ub := max(0, w[i]*(k1+1)) * (1 + pruneRelSlack)
		slack += pruneRelSlack * math.Abs(w[i]) * (k1 + 1)
		ts[i] = msTerm{w: w[i], ub: ub, start: qt.rec.start, end: qt.rec.start + uint64(qt.rec.df)}
	}
	slices.SortStableFunc(ts, func(a, b msTerm) int { return int(b.end-b.start) - int(a.end-a.start) })
	return ts, w, slack
}

// addAll adds every posting of t, checking the order as scoreCorpus does.
func addAll(v *okView, t *msTerm, scores []float64, seen []bool, touched []uint32) ([]uint32, error) {
	k1 := v.h.opt.K1
	prev := int64(-1)
	for k := t.start; k < t.end; k++ {
		d, tf := v.posting(k)
		if int64(d) <= prev || uint64(d) >= v.h.docs {
			return touched, fmt.Errorf("%w: postings out of order", ErrCorruptOkapi)
		}
		prev = int64(d)
		if !seen[d] {
			seen[d] = true
			touched = append(touched, d)
		}
		scores[d] += okapiTerm(t.w, float64(tf), v.norm(d), k1)
	}
	return touched, nil
}

// addSeen adds the postings of t whose passage is still a candidate.
func addSeen(v *okView, t *msTerm, scores []float64, seen []bool) {
	k1 := v.h.opt.K1
	for k := t.start; k < t.end; k++ {
		if d, tf := v.posting(k); uint64(d) < v.h.docs && seen[d] {
			scores[d] += okapiTerm(t.w, float64(tf), v.norm(d), k1)
		}
	}
}

// addGalloping adds t's share to each candidate (sorted) it holds,
// galloping along its postings: fewer reads than walking them all when
// the candidates are few.
func addGalloping(v *okView, t *msTerm, cands []uint32, scores []float64) {
	k1 := v.h.opt.K1
	a := t.start
	for _, d := range cands {
		k, ok := gallop(v, a, t.end, d)
		a = k
		if ok {
			_, tf := v.posting(k)
			scores[d] += okapiTerm(t.w, float64(tf), v.norm(d), k1)
		}
	}
}

// gallop is the first posting at or after passage d in [lo, hi), sorted,
// found by doubling steps from lo then bisecting, and whether it is d's.
func gallop(v *okView, lo, hi uint64, d uint32) (uint64, bool) {
	end := hi
	for step := uint64(1); lo+step < hi; step *= 2 {
		if pd, _ := v.posting(lo + step); pd >= d {
			hi = lo + step + 1
			break
		}
		lo += step
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		if pd, _ := v.posting(mid); pd < d {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo >= end {
		return lo, false
	}
	pd, _ := v.posting(lo)
	return lo, pd == d
}

// exactScore is passage d's score as scoreCorpus adds it up: each term's
// share in query order, from 0, its tf found by binary search.
func exactScore(v *okView, qs []fileQterm, w []float64, d uint32) float64 {
	norm := v.norm(d)
	s := 0.0
	for i, qt := range qs {
		k := v.lowerBound(qt.rec, d)
		if k >= qt.rec.start+uint64(qt.rec.df) {
			continue
		}
		if pd, tf := v.posting(k); pd == d {
			s += okapiTerm(w[i], float64(tf), norm, v.h.opt.K1)
		}
	}
	return s
}

// countAtLeast is how many of the passages ds score at least bound,
// counting no further than limit.
func countAtLeast(ds []uint32, scores []float64, bound float64, limit int) int {
	n := 0
	for _, d := range ds {
		if scores[d] >= bound {
			if n++; n >= limit {
				break
			}
		}
	}
	return n
}

// kthLargest is the k-th largest of scores[d]+low over ds (len(ds) >= k),
// kept in a min-heap of k.
func kthLargest(ds []uint32, scores []float64, low float64, k int) float64 {
	h := make([]float64, 0, k)
	for _, d := range ds {
		x := scores[d] + low
		if len(h) < k {
			h = append(h, x)
			for i := len(h) - 1; i > 0 && h[(i-1)/2] > h[i]; i = (i - 1) / 2 {
				h[(i-1)/2], h[i] = h[i], h[(i-1)/2]
			}
			continue
		}
		if x <= h[0] {
			continue
		}
		h[0] = x
		for i := 0; ; {
			s, l, r := i, 2*i+1, 2*i+2
			if l < k && h[l] < h[s] {
				s = l
			}
			if r < k && h[r] < h[s] {
				s = r
			}
			if s == i {
				break
			}
			h[i], h[s] = h[s], h[i]
			i = s
		}
	}
	return h[0]
}
