package bm25

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/retrieve"
)

// rank_bm25's BM25Okapi defaults.
const (
	DefaultK1      = 1.5
	DefaultB       = 0.75
	DefaultEpsilon = 0.25
)

// OkapiOptions tune NewOkapi. Zero fields take rank_bm25's defaults, so an
// exact 0 for B or Epsilon cannot be asked for; use a tiny value instead.
type OkapiOptions struct {
	K1        float64 // term-frequency saturation; 0 means DefaultK1
	B         float64 // length normalisation; 0 means DefaultB
	Epsilon   float64 // floor of negative idf, as a fraction of the mean idf; 0 means DefaultEpsilon
	Tokenizer string  // TokenizerAnalyzer (default) or TokenizerWhitespace
}

func (o OkapiOptions) withDefaults() OkapiOptions {
	if o.K1 == 0 {
		o.K1 = DefaultK1
	}
	if o.B == 0 {
		o.B = DefaultB
	}
	if o.Epsilon == 0 {
		o.Epsilon = DefaultEpsilon
	}
	if o.Tokenizer == "" {
		o.Tokenizer = TokenizerAnalyzer
	}
	return o
}

// Okapi is textbook Okapi BM25 exactly as rank_bm25's BM25Okapi scores it,
// held in memory: the reference the Bleve index is compared against, and
// the scorer that reproduces ElaipBench's intra-paper retrieval. With
// Query.PaperID set, every statistic (N, avgdl, document frequencies, the
// mean idf behind the epsilon floor) is that of the paper's passages alone,
// as if rank_bm25 had been built on that one paper; without it, of the
// whole corpus. It is safe for concurrent use.
type Okapi struct {
	opt OkapiOptions
	tok func(string) []string

	mu     sync.RWMutex
	ids    map[string]uint32 // interned terms
	terms  []string
	df     []int32 // corpus-wide document frequency by term id
	vocab  int     // terms with df > 0: rank_bm25's len(self.idf)
	docs   int
	tokens int64
	papers map[string]*okPaper

	// The corpus-wide mean idf costs a pass over the vocabulary, so the
	// first corpus-wide search after a change computes it, holding only
	// mu.RLock; gmu orders those searches. The corpus-wide postings cost a
	// pass over every paper's, and are built in the background
	// (readyCorpus). A change drops both.
	gmu      sync.Mutex
	avgIDF   float64
	avgOK    bool
	corpus   *okCorpus // nil until built
	building bool      // a goroutine is building corpus
}

// okPaper is one paper's passages and their inverted index in compressed
// sparse row form: far smaller than a map per paper, and a query term is a
// binary search away.
type okPaper struct {
	passages []okPassage // by ordinal, then id
	terms    []uint32    // sorted ids of the paper's distinct terms
	off      []uint32    // postings of terms[i] are post[2*off[i]:2*off[i+1]]
	post     []uint32    // (passage index, term frequency) pairs, by passage index
	tokens   int64
	avgIDF   float64 // mean idf over the paper's vocabulary, for the epsilon floor
}

type okPassage struct {
	ID      string
	Ordinal int
	Text    string
	Len     int32 // tokens
}

type termFreq struct{ term, tf uint32 }

var _ retrieve.Retriever = (*Okapi)(nil)

// NewOkapi returns an empty Okapi scorer.
func NewOkapi(opt OkapiOptions) (*Okapi, error) {
	opt = opt.withDefaults()
	tok, err := tokenizerFunc(opt.Tokenizer)
	if err != nil {
		return nil, err
	}
	return &Okapi{opt: opt, tok: tok, ids: map[string]uint32{}, papers: map[string]*okPaper{}}, nil
}

// Options returns the options in effect, defaults filled in.
func (o *Okapi) Options() OkapiOptions { return o.opt }

// Name implements retrieve.Retriever.
func (o *Okapi) Name() string { return "okapi" }

// Count returns the number of passages held.
func (o *Okapi) Count() int {
	o.mu.RLock()
	defer o.mu.RUnlock()
	return o.docs
}

// Add adds passages, replacing any held under the same passage id (an
// empty PassageID is derived from PaperID and Ordinal). Each paper touched
// is re-indexed whole, so adding a large paper one passage at a time is
// quadratic: pass a paper's passages together.
func (o *Okapi) Add(passages []corpus.Passage) error { return o.add(passages, false) }

// ReplacePapers makes passages the whole content of their papers, dropping
// any other passage those papers had: DeletePaper then Add, per paper,
// without a moment where a paper is missing.
func (o *Okapi) ReplacePapers(passages []corpus.Passage) error { return o.add(passages, true) }

func (o *Okapi) add(passages []corpus.Passage, replace bool) error {
	var order []string
	groups := map[string][]corpus.Passage{}
	for _, p := range passages {
		if p.PaperID == "" {
			return fmt.Errorf("bm25: okapi: passage %q has no paper id", p.PassageID)
		}
		if _, ok := groups[p.PaperID]; !ok {
			order = append(order, p.PaperID)
		}
		groups[p.PaperID] = append(groups[p.PaperID], p)
	}
	for _, paper := range order {
		ps := groups[paper]
		toks := o.tokenizeAll(ps) // outside the lock: it is the slow part
		o.mu.Lock()
		if replace {
			o.removePaper(paper)
		}
		o.addPaper(paper, ps, toks)
		o.mu.Unlock()
	}
	return nil
}

func (o *Okapi) tokenizeAll(ps []corpus.Passage) [][]string {
	out := make([][]string, len(ps))
	eachChunk(len(ps), 16, func(i int) { out[i] = o.tok(ps[i].Text) })
	return out
}

func (o *Okapi) intern(t string) uint32 {
	if id, ok := o.ids[t]; ok {
		return id
	}
	id := uint32(len(o.terms))
	o.ids[t] = id
	o.terms = append(o.terms, t)
	o.df = append(o.df, 0)
	return id
}

// addPaper merges ps into paper's passages and rebuilds the paper. o.mu
// must be held for writing.
func (o *Okapi) addPaper(paper string, ps []corpus.Passage, toks [][]string) {
	type item struct {
		p   okPassage
		vec []termFreq
	}
	var items []item
	pos := map[string]int{}
	if old := o.papers[paper]; old != nil {
		vecs := old.vectors()
		for i, p := range old.passages {
			pos[p.ID] = len(items)
			items = append(items, item{p, vecs[i]})
		}
	}
	for i, p := range ps {
		counts := map[uint32]uint32{}
		for _, t := range toks[i] {
			counts[o.intern(t)]++
		}
		vec := make([]termFreq, 0, len(counts))
		for t, n := range counts {
			vec = append(vec, termFreq{t, n})
		}
		it := item{okPassage{ID: passageID(p), Ordinal: p.Ordinal, Text: p.Text, Len: int32(len(toks[i]))}, vec}
		if j, ok := pos[it.p.ID]; ok {
			items[j] = it
		} else {
			pos[it.p.ID] = len(items)
			items = append(items, it)
		}
	}
	slices.SortStableFunc(items, func(a, b item) int {
		return cmp.Or(cmp.Compare(a.p.Ordinal, b.p.Ordinal), cmp.Compare(a.p.ID, b.p.ID))
	})
	passages := make([]okPassage, len(items))
	vecs := make([][]termFreq, len(items))
	for i, it := range items {
		passages[i], vecs[i] = it.p, it.vec
	}
	o.removePaper(paper)
	p := buildPaper(passages, vecs)
	o.papers[paper] = p
	o.account(p, +1)
	p.avgIDF = p.meanIDF()
}

// buildPaper lays out the CSR index of passages with term vectors vecs.
func buildPaper(passages []okPassage, vecs [][]termFreq) *okPaper {
	p := &okPaper{passages: passages}
	counts := map[uint32]uint32{}
	for i, vec := range vecs {
		p.tokens += int64(passages[i].Len)
		for _, tf := range vec {
			counts[tf.term]++
		}
	}
	p.terms = make([]uint32, 0, len(counts))
	for t := range counts {
		p.terms = append(p.terms, t)
	}
	slices.Sort(p.terms)
	p.off = make([]uint32, len(p.terms)+1)
	index := make(map[uint32]int, len(p.terms))
	for i, t := range p.terms {
		index[t] = i
		p.off[i+1] = p.off[i] + counts[t]
	}
	p.post = make([]uint32, 2*p.off[len(p.terms)])
	next := slices.Clone(p.off[:len(p.terms)])
	for doc, vec := range vecs {
		for _, tf := range vec {
			i := index[tf.term]
			p.post[2*next[i]], p.post[2*next[i]+1] = uint32(doc), tf.tf
			next[i]++
		}
	}
	return p
}

// vectors inverts the CSR index back into one term vector per passage.
func (p *okPaper) vectors() [][]termFreq {
	out := make([][]termFreq, len(p.passages))
	for i, t := range p.terms {
		for k := p.off[i]; k < p.off[i+1]; k++ {
			doc := p.post[2*k]
			out[doc] = append(out[doc], termFreq{t, p.post[2*k+1]})
		}
	}
	return out
}

// meanIDF is rank_bm25's average_idf over the paper's own vocabulary, raw
// (negative) idfs included, as rank_bm25 averages before flooring. The sum
// is exact (exactSum), so it does not depend on the order of the terms and
// the on-disk Okapi, which visits them in another order, gets the same bits.
func (p *okPaper) meanIDF() float64 {
	n := float64(len(p.passages))
	return exactMean(len(p.terms), func(add func(float64)) {
		for i := range p.terms {
			add(rawIDF(n, float64(p.off[i+1]-p.off[i])))
		}
	})
}

// account adds (sign +1) or removes (-1) a paper's share of the corpus-wide
// statistics. o.mu must be held for writing.
func (o *Okapi) account(p *okPaper, sign int) {
	o.docs += sign * len(p.passages)
	o.tokens += int64(sign) * p.tokens
	for i, t := range p.terms {
		before := o.df[t]
		o.df[t] += int32(sign) * int32(p.off[i+1]-p.off[i])
		switch {
		case before == 0 && o.df[t] > 0:
			o.vocab++
		case before > 0 && o.df[t] == 0:
			o.vocab--
		}
	}
	o.gmu.Lock()
	o.avgOK = false
	o.corpus = nil
	o.gmu.Unlock()
}

func (o *Okapi) removePaper(paper string) {
	if p := o.papers[paper]; p != nil {
		o.account(p, -1)
		delete(o.papers, paper)
	}
}

// DeletePaper drops every passage of paper; an unknown paper is not an error.
func (o *Okapi) DeletePaper(paper string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.removePaper(paper)
	return nil
}

// rawIDF is rank_bm25's idf before the floor: ln(N-n+0.5) - ln(n+0.5).
func rawIDF(n, df float64) float64 { return math.Log(n-df+0.5) - math.Log(df+0.5) }

// globalMeanIDF returns the corpus-wide mean raw idf. o.mu must be held.
func (o *Okapi) globalMeanIDF() float64 {
	o.gmu.Lock()
	defer o.gmu.Unlock()
	if !o.avgOK {
		// Exact, hence independent of the order terms were first seen in
		// (see exactSum).
		n := float64(o.docs)
		o.avgIDF = exactMean(o.vocab, func(add func(float64)) {
			for _, df := range o.df {
				if df > 0 {
					add(rawIDF(n, float64(df)))
				}
			}
		})
		o.avgOK = true
	}
	return o.avgIDF
}

type qterm struct {
	id    uint32
	count float64
	idf   float64 // corpus-wide searches only: the same for every paper
}

// okHit is a candidate; paper and ordinal order ties, as rank_bm25's
// argsort order is not a contract worth copying.
type okHit struct {
	score float64
	paper string
	p     *okPassage
}

func better(a, b okHit) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if a.paper != b.paper {
		return a.paper < b.paper
	}
	if a.p.Ordinal != b.p.Ordinal {
		return a.p.Ordinal < b.p.Ordinal
	}
	return a.p.ID < b.p.ID
}

// topK keeps the k best hits seen, worst on top.
type topK struct {
	k int
	h []okHit
}

func (t *topK) Len() int           { return len(t.h) }
func (t *topK) Less(i, j int) bool { return better(t.h[j], t.h[i]) }
func (t *topK) Swap(i, j int)      { t.h[i], t.h[j] = t.h[j], t.h[i] }
func (t *topK) Push(x any)         { t.h = append(t.h, x.(okHit)) }
func (t *topK) Pop() any           { x := t.h[len(t.h)-1]; t.h = t.h[:len(t.h)-1]; return x }

func (t *topK) offer(h okHit) {
	if len(t.h) < t.k {
		heap.Push(t, h)
	} else if better(h, t.h[0]) {
		t.h[0] = h
		heap.Fix(t, 0)
	}
}

// Search scores q.Text against the passages of q.PaperID with that paper's
// statistics, or against every passage with corpus statistics when PaperID
// is empty. Only passages containing at least one query term are returned
// (rank_bm25's get_top_n would pad with zero-score passages).
//
// Corpus-wide searches read only the postings of the query's terms, from
// corpus-wide postings built in the background after loading or a change
// ([Okapi.PrepareCorpus]); until they are ready, every paper is scored in
// turn, with the same hits and scores.
func (o *Okapi) Search(ctx context.Context, q retrieve.Query) ([]retrieve.Hit, error) {
	return o.search(ctx, q, o.scoreCorpus)
}

// corpusScorer adds to top the corpus-wide scores of the passages holding
// a query term; each qterm's idf is the corpus-wide one. o.mu is held.
type corpusScorer func(ctx context.Context, qs []qterm, avgdl float64, top *topK) error

func (o *Okapi) search(ctx context.Context, q retrieve.Query, corpusWide corpusScorer) ([]retrieve.Hit, error) {
	if q.K <= 0 {
		return nil, fmt.Errorf("bm25: okapi: k=%d: %w", q.K, ErrInvalidK)
	}
	terms, counts := queryTerms(o.tok(q.Text))
	if len(terms) == 0 {
		return nil, fmt.Errorf("bm25: okapi: %q: %w", truncate(q.Text, 60), ErrEmptyQuery)
	}
	o.mu.RLock()
	defer o.mu.RUnlock()
	var qs []qterm
	for i, t := range terms {
		// A term unknown to the corpus has idf 0 in rank_bm25: skip it.
		if id, ok := o.ids[t]; ok {
			qs = append(qs, qterm{id: id, count: float64(counts[i])})
		}
	}
	top := &topK{k: q.K}
	if q.PaperID != "" {
		p := o.papers[q.PaperID]
		if p == nil || len(qs) == 0 {
			return nil, nil
		}
		n := float64(len(p.passages))
		o.scorePaper(q.PaperID, p, qs, o.opt.Epsilon*p.avgIDF, float64(p.tokens)/n, &scratch{}, top)
	} else if len(qs) > 0 && o.docs > 0 {
		n := float64(o.docs)
		floor := o.opt.Epsilon * o.globalMeanIDF()
		for i := range qs {
			qs[i].idf = flooredIDF(n, float64(o.df[qs[i].id]), floor)
		}
		if err := corpusWide(ctx, qs, float64(o.tokens)/n, top); err != nil {
			return nil, fmt.Errorf("bm25: okapi: %w", err)
		}
	}
	sort.Slice(top.h, func(i, j int) bool { return better(top.h[i], top.h[j]) })
	hits := make([]retrieve.Hit, len(top.h))
	for i, h := range top.h {
		hits[i] = retrieve.Hit{Rank: i + 1, Score: h.score, PaperID: h.paper, PassageID: h.p.ID, Text: h.p.Text, Retriever: o.Name()}
	}
	return hits, nil
}

// flooredIDF replaces a negative idf (a term in more than half the
// passages) by floor = epsilon × mean idf, as BM25Okapi._calc_idf does; an
// idf of exactly 0 is kept, as there.
func flooredIDF(n, df, floor float64) float64 {
	if idf := rawIDF(n, df); idf >= 0 {
		return idf
	}
	return floor
}

// okapiNorm is the length normalisation of a passage of dl tokens,
// k1·(1 − b + b·dl/avgdl), and okapiTerm one query term's share of the
// passage's score, with w = count × idf and tf the term's frequency in the
// passage. Per-paper and corpus-wide scoring both call them, so the two add
// up the same bits; corpus-wide scoring computes each passage's norm once.
func okapiNorm(dl, avgdl, k1, b float64) float64 { return k1 * (1 - b + b*dl/avgdl) }

func okapiTerm(w, tf, norm, k1 float64) float64 { return w * tf * (k1 + 1) / (tf + norm) }

// scratch is per-search working space reused across papers.
type scratch struct {
	scores []float64
	seen   []bool // a passage holds a query term: scores can be 0 or negative
}

// scorePaper adds the passages of p that contain a query term to top. With
// floor a number, idf is the paper's own, floored at floor; with floor NaN
// it is the corpus-wide qterm.idf.
func (o *Okapi) scorePaper(paper string, p *okPaper, qs []qterm, floor, avgdl float64, sc *scratch, top *topK) {
	n := len(p.passages)
	if cap(sc.scores) < n {
		sc.scores, sc.seen = make([]float64, n), make([]bool, n)
	}
	scores, seen := sc.scores[:n], sc.seen[:n]
	clear(scores)
	clear(seen)
	matched := false
	k1, b := o.opt.K1, o.opt.B
	local, nf := !math.IsNaN(floor), float64(n)
	for _, qt := range qs {
		j, found := slices.BinarySearch(p.terms, qt.id)
		if !found {
			continue
		}
		lo, hi := p.off[j], p.off[j+1]
		idf := qt.idf
		if local {
			idf = flooredIDF(nf, float64(hi-lo), floor)
		}
		w := qt.count * idf
		for k := lo; k < hi; k++ {
			doc := p.post[2*k]
			scores[doc] += okapiTerm(w, float64(p.post[2*k+1]), okapiNorm(float64(p.passages[doc].Len), avgdl, k1, b), k1)
			seen[doc] = true
		}
		matched = true
	}
	if !matched {
		return
	}
	for i := range p.passages {
		if seen[i] {
			top.offer(okHit{scores[i], paper, &p.passages[i]})
		}
	}
}
