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

// Pruning reads the essential terms' postings through cursors and looks
// the others up by galloping search, several times the cost of a posting
// in the exhaustive loop, so it pays only when most postings are skipped.
// Measured on the SciFact-like files of 100k and 1M passages with 300
// SciFact claims (BenchmarkOkapiFile/file, each query's best of five):
// pruning halves the time of queries whose postings number up to about
// 1.5 per passage of the corpus, but queries of many fairly common terms,
// beyond that, take up to twice as long pruned: their bounds, w·(k1+1)
// for a term whose typical share is under half that, add up to far above
// the k-th score, so nearly every passage is looked up term by term.
// Below some tens of thousands of postings both take well under a
// millisecond.
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
// upper bound; once the k-th score is known, the longest prefix of weakest
// terms whose bounds add up to less than it is non-essential: a passage
// holding only those cannot enter, so only the other terms' postings are
// walked, and the non-essential terms are looked up, strongest first, for
// a candidate whose bound still reaches the k-th score.
//
// Walking the passages in order, the k-th score rises slowly: the first k
// passages met set it, whatever they hold. So a first pass scores only the
// passages of the strongest (rarest) terms, where the best passages are
// most likely found, and the k-th best of those is where the second pass,
// over all the terms, starts its threshold: a real passage's score, so the
// k-th of the whole corpus is at least as high.
//
// Ties: a passage is skipped only when its bound is strictly below the
// threshold, so every passage that could tie with the k-th is scored and
// fileTop orders it as the exhaustive search does.
//
// Bits: a survivor's score is the sum of its terms' okapiTerm, computed
// from the same w, tf, norm and k1, added from 0 in query order, which is
// the sum scoreCorpus accumulates for it term by term.
func (f *OkapiFile) scoreCorpusPruned(ctx context.Context, qs []fileQterm, top *fileTop) error {
	ms, err := f.newMaxScore(qs)
	if err != nil {
		return err
	}
	theta0 := math.Inf(-1)
	if lo := ms.firstPassTerms(top.k); lo > 0 {
		first := &fileTop{k: top.k}
		if err := ms.run(ctx, slices.Clone(ms.ts), lo, theta0, first); err != nil {
			return err
		}
		top.scored += first.scored
		if len(first.h) == first.k {
			theta0 = first.h[0].score
		}
	}
	return ms.run(ctx, ms.ts, 0, theta0, top)
}

// maxScore is a pruned search's terms, weakest first, and their bounds.
type maxScore struct {
	v     *okView
	k1    float64
	ts    []msTerm
	pre   []float64 // pre[j] bounds what ts[:j] can add to a passage's score
	slack float64   // covers the rounding of sums in another order
	total uint64    // postings of all the terms
}

func (f *OkapiFile) newMaxScore(qs []fileQterm) (*maxScore, error) {
	v := &f.v
	n := float64(v.h.docs)
	floor := v.h.opt.Epsilon * v.h.meanIDF
	k1 := v.h.opt.K1
	m := len(qs)
	ms := &maxScore{v: v, k1: k1, ts: make([]msTerm, m), pre: make([]float64, m+1), slack: pruneAbsSlack}
	for i, qt := range qs {
		w := qt.count * flooredIDF(n, float64(qt.rec.df), floor)
		ub := max(0, w*(k1+1)) * (1 + pruneRelSlack)
		ms.slack += pruneRelSlack * math.Abs(w) * (k1 + 1)
		ms.ts[i] = msTerm{qi: i, w: w, ub: ub, pos: qt.rec.start, end: qt.rec.start + uint64(qt.rec.df)}
		ms.total += uint64(qt.rec.df)
		if err := ms.ts[i].at(v, msDone); err != nil {
			return nil, err
		}
	}
	// Weakest first; among equal bounds the longer postings first, so
	// they become non-essential first.
	slices.SortStableFunc(ms.ts, func(a, b msTerm) int {
		if a.ub != b.ub {
			if a.ub < b.ub {
				return -1
			}
			return 1
		}
		return int(b.end-b.pos) - int(a.end-a.pos)
	})
	for j, t := range ms.ts {
		ms.pre[j+1] = (ms.pre[j] + t.ub) * (1 + pruneRelSlack)
	}
	return ms, nil
}

// firstPassTerms is where the first pass's terms start, ts[lo:]: the
// strongest terms, enough of them to hold several times k passages, but
// few enough that their postings are a small share of all; 0 for no first
// pass.
func (ms *maxScore) firstPassTerms(k int) int {
	var n uint64
	for lo := len(ms.ts) - 1; lo > 0; lo-- {
		n += ms.ts[lo].end - ms.ts[lo].pos
		if n > ms.total/firstPassShare {
			return 0
		}
		if n >= uint64(k)*firstPassPerK {
			return lo
		}
	}
	return 0
}

// The first pass walks at most 1/firstPassShare of the postings and stops
// adding terms once they hold firstPassPerK·k passages, enough for the
// k-th best of them to be near the corpus's k-th.
const (
	firstPassShare = 8
	firstPassPerK  = 16
)

// run is one MaxScore pass over ts, whose cursors it moves: passages are
// taken from the postings of ts[lo:] only (the essential terms, fewer as
// the threshold rises) in passage order, and the other terms looked up;
// theta0 is a score the k-th is known to reach.
func (ms *maxScore) run(ctx context.Context, ts []msTerm, lo int, theta0 float64, top *fileTop) error {
	v, k1, pre, slack := ms.v, ms.k1, ms.pre, ms.slack
	m := len(ts)
	contrib := make([]float64, m) // by query order
	has := make([]bool, m)
	theta := theta0 // the threshold: max(theta0, the k-th kept)
	ne := lo        // ts[:ne] are non-essential
	for ne < m && pre[ne+1]+slack < theta {
		ne++
	}
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
		if !ms.complete(ts[:ne], d, norm, partial, theta, contrib, has) {
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
		if len(top.h) == top.k && top.h[0].score > theta {
			theta = top.h[0].score
			for ne < m && pre[ne+1]+slack < theta {
				ne++
			}
		}
	}
}

// complete looks up passage d in the non-essential terms ts, strongest
// first, stopping as soon as what it has found plus what the terms left
// could add falls strictly below theta (false: d cannot enter the top k).
// The terms found go into contrib and has, by query order.
func (ms *maxScore) complete(ts []msTerm, d uint64, norm, partial, theta float64, contrib []float64, has []bool) bool {
	for j := len(ts) - 1; j >= 0; j-- {
		if partial+ms.pre[j+1]+ms.slack < theta {
			return false
		}
		t := &ts[j]
		if tf := t.seek(ms.v, d); t.doc == d {
			c := okapiTerm(t.w, float64(tf), norm, ms.k1)
			contrib[t.qi], has[t.qi] = c, true
			partial += c
		}
	}
	return partial+ms.slack >= theta
}
