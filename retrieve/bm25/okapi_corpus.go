package bm25

import (
	"context"
	"math"
	"slices"
	"sync"
)

// okCorpus is every paper's postings laid end to end per term, so that a
// corpus-wide search reads the postings of its query terms and nothing
// else. Scoring paper by paper instead costs a term lookup in each paper
// for each query term, and a pass over every passage: 10 ms a query at
// 100,000 passages however rare the terms (BenchmarkCorpusWide).
//
// Passages are numbered paper by paper in paper id order, then in each
// paper's own order, which is the order ties are broken in.
type okCorpus struct {
	docs []okDoc
	norm []float64 // okapiNorm of each passage by number, with the corpus's avgdl
	off  []uint32  // postings of term t are post[2*off[t]:2*off[t+1]]
	post []uint32  // (passage number, term frequency) pairs, by number
}

type okDoc struct {
	paper string
	p     *okPassage
}

// PrepareCorpus builds what corpus-wide searches read and waits for it. A
// corpus-wide search that finds it missing (after loading, or after a
// change) starts building it in the background and meanwhile scores paper
// by paper, with the same hits and scores, only slower; a caller about to
// run many corpus-wide queries can call this first instead. It takes as
// long as 10 to 50 queries scored paper by paper (0.1–0.7 s at 100,000
// passages), and holds 8 bytes per distinct term of each passage.
func (o *Okapi) PrepareCorpus() {
	o.mu.RLock()
	defer o.mu.RUnlock()
	o.gmu.Lock()
	c := o.corpus
	o.gmu.Unlock()
	if c == nil {
		// Nothing changes under mu.RLock, so this is the current corpus's.
		c = o.buildCorpus()
		o.gmu.Lock()
		o.corpus = c
		o.gmu.Unlock()
	}
}

// readyCorpus returns the corpus-wide postings if they are built, and
// otherwise starts building them. o.mu must be held.
func (o *Okapi) readyCorpus() *okCorpus {
	o.gmu.Lock()
	defer o.gmu.Unlock()
	if o.corpus == nil && !o.building {
		o.building = true
		go func() {
			// Waits for the caller's writers, if any: the postings are
			// built for the corpus as it is when this gets the lock.
			o.mu.RLock()
			defer o.mu.RUnlock()
			c := o.buildCorpus()
			o.gmu.Lock()
			o.corpus, o.building = c, false
			o.gmu.Unlock()
		}()
	}
	return o.corpus
}

func (o *Okapi) buildCorpus() *okCorpus {
	ids := make([]string, 0, len(o.papers))
	for id := range o.papers {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	c := &okCorpus{docs: make([]okDoc, 0, o.docs), norm: make([]float64, 0, o.docs), off: make([]uint32, len(o.terms)+1)}
	avgdl := float64(o.tokens) / float64(o.docs) // as Search computes it
	for _, id := range ids {
		p := o.papers[id]
		for i := range p.passages {
			c.docs = append(c.docs, okDoc{id, &p.passages[i]})
			c.norm = append(c.norm, okapiNorm(float64(p.passages[i].Len), avgdl, o.opt.K1, o.opt.B))
		}
		for j, t := range p.terms {
			c.off[t+1] += p.off[j+1] - p.off[j]
		}
	}
	for t := range o.terms {
		c.off[t+1] += c.off[t]
	}
	c.post = make([]uint32, 2*c.off[len(o.terms)])
	next := slices.Clone(c.off[:len(o.terms)])
	base := uint32(0)
	for _, id := range ids {
		p := o.papers[id]
		for j, t := range p.terms {
			at := next[t]
			for k := p.off[j]; k < p.off[j+1]; k++ {
				c.post[2*at], c.post[2*at+1] = base+p.post[2*k], p.post[2*k+1]
				at++
			}
			next[t] = at
		}
		base += uint32(len(p.passages))
	}
	return c
}

// corpusScratch is a corpus-wide search's score per passage number. Only
// the passages a search touched are reset after it, so a query with rare
// terms costs little whatever the corpus size.
type corpusScratch struct {
	scores  []float64
	seen    []bool // a passage holds a query term: scores can be 0 or negative
	touched []uint32
}

var corpusScratchPool sync.Pool

// scoreCorpus is the corpusScorer of Search: from the corpus-wide postings
// when they are built, else paper by paper.
func (o *Okapi) scoreCorpus(ctx context.Context, qs []qterm, avgdl float64, top *topK) error {
	if c := o.readyCorpus(); c != nil {
		return o.scorePostings(ctx, c, qs, top)
	}
	return o.scoreCorpusByPaper(ctx, qs, avgdl, top)
}

// scoreCorpusByPaper scores every paper in turn, with corpus statistics.
func (o *Okapi) scoreCorpusByPaper(ctx context.Context, qs []qterm, avgdl float64, top *topK) error {
	sc := &scratch{}
	i := 0
	for paper, p := range o.papers {
		if i++; i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		o.scorePaper(paper, p, qs, math.NaN(), avgdl, sc, top)
	}
	return nil
}

// scorePostings adds up each query term's postings, in query order as
// scorePaper does, so every passage's score is the same sum. The passages'
// norms were computed with the corpus's avgdl when the postings were built.
func (o *Okapi) scorePostings(ctx context.Context, c *okCorpus, qs []qterm, top *topK) error {
	n := len(c.docs)
	sc, _ := corpusScratchPool.Get().(*corpusScratch)
	if sc == nil || len(sc.scores) < n {
		sc = &corpusScratch{scores: make([]float64, n), seen: make([]bool, n)}
	}
	defer corpusScratchPool.Put(sc)
	scores, seen, touched := sc.scores, sc.seen, sc.touched[:0]
	defer func() {
		for _, d := range touched {
			scores[d], seen[d] = 0, false
		}
		sc.touched = touched[:0]
	}()
	k1 := o.opt.K1
	for _, qt := range qs {
		if err := ctx.Err(); err != nil {
			return err
		}
		w := qt.count * qt.idf
		post := c.post[2*c.off[qt.id] : 2*c.off[qt.id+1]]
		for k := 0; k < len(post); k += 2 {
			d := post[k]
			scores[d] += okapiTerm(w, float64(post[k+1]), c.norm[d], k1)
			if !seen[d] {
				seen[d] = true
				touched = append(touched, d)
			}
		}
	}
	for _, d := range touched {
		if len(top.h) == top.k && scores[d] < top.h[0].score {
			continue // worse than the k kept: offer would say so, slower
		}
		top.offer(okHit{scores[d], c.docs[d].paper, c.docs[d].p})
	}
	return nil
}
