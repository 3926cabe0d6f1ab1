package bm25

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sort"
	"sync"

	"github.com/paperlens/paperlens/internal/mmapfile"
	"github.com/paperlens/paperlens/retrieve"
)

// OkapiFile is an Okapi index searched where it lies on disk
// ([OkapiFileFormat]): the file is memory-mapped and nothing is decoded at
// open, which takes the same time and memory for any corpus size. Searches
// give the hits and scores of the in-memory [Okapi] holding the same
// passages, to the bit. It is safe for concurrent use; Close waits for
// searches in flight.
type OkapiFile struct {
	path string
	tok  func(string) []string

	mu     sync.RWMutex // read by searches, written by Close
	v      okView
	unmap  func() error
	closed bool
}

var _ retrieve.Retriever = (*OkapiFile)(nil)

// OpenOkapiFile maps the Okapi file at path. A missing file is an error
// wrapping os.ErrNotExist; a file that is not one, or is damaged in its
// header or truncated, an error wrapping ErrCorruptOkapi. Damage further in
// is found by the search that reads it, which then fails.
func OpenOkapiFile(path string) (*OkapiFile, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("bm25: okapi open: %w", err)
	}
	defer fh.Close() // the mapping outlives the descriptor
	info, err := fh.Stat()
	if err != nil {
		return nil, fmt.Errorf("bm25: okapi open: %w", err)
	}
	data, unmap, err := mmapfile.Map(fh, info.Size())
	if err != nil {
		return nil, fmt.Errorf("bm25: okapi open %s: %w", path, err)
	}
	f, err := newOkapiFile(path, data)
	if err != nil {
		unmap()
		return nil, err
	}
	f.unmap = unmap
	return f, nil
}

func newOkapiFile(path string, data []byte) (*OkapiFile, error) {
	h, err := decodeHeader(data)
	if err != nil {
		return nil, fmt.Errorf("bm25: okapi open %s: %w", path, err)
	}
	tok, err := tokenizerFunc(h.opt.Tokenizer)
	if err != nil {
		return nil, fmt.Errorf("bm25: okapi open %s: %w", path, err)
	}
	return &OkapiFile{path: path, tok: tok, v: okView{data: data, h: h}, unmap: func() error { return nil }}, nil
}

// EmptyOkapiFile is an OkapiFile of no passages, which is what a home
// without an Okapi file searches: every search finds nothing.
func EmptyOkapiFile(opt OkapiOptions) (*OkapiFile, error) {
	opt = opt.withDefaults()
	tok, err := tokenizerFunc(opt.Tokenizer)
	if err != nil {
		return nil, err
	}
	return &OkapiFile{tok: tok, v: okView{h: okHeader{opt: opt}}, unmap: func() error { return nil }}, nil
}

// Name implements retrieve.Retriever.
func (f *OkapiFile) Name() string { return "okapi" }

// Path is the file searched ("" for EmptyOkapiFile).
func (f *OkapiFile) Path() string { return f.path }

// Options returns the options the file was written with.
func (f *OkapiFile) Options() OkapiOptions { return f.v.h.opt }

// Count returns the number of passages.
func (f *OkapiFile) Count() int { return int(f.v.h.docs) }

// Papers returns the number of papers.
func (f *OkapiFile) Papers() int { return int(f.v.h.papers) }

// Close unmaps the file, once searches in flight are done; searching
// afterwards is an error.
func (f *OkapiFile) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil
	}
	f.closed = true
	if err := f.unmap(); err != nil {
		return fmt.Errorf("bm25: okapi close %s: %w", f.path, err)
	}
	return nil
}

// ErrClosed is returned by a search of a closed OkapiFile.
var ErrClosed = errors.New("okapi file is closed")

// catchFault turns a fault reading the mapping into an error wrapping
// ErrCorruptOkapi. Writers replace files by renaming, never in place, but a
// file truncated in place by something else (a copy over it, a disk
// emptied) would make reads past its new end SIGBUS, which Go reports as a
// fault panic on a goroutine with debug.SetPanicOnFault set; any other
// panic goes on.
func catchFault(err *error) {
	r := recover()
	if r == nil {
		return
	}
	if _, ok := r.(interface{ Addr() uintptr }); ok {
		*err = fmt.Errorf("bm25: okapi: %w: reading the mapped file faulted (was it changed in place?): %v", ErrCorruptOkapi, r)
		return
	}
	panic(r)
}

// fileHit is a candidate: ties go to the lower passage number, which is
// the in-memory Okapi's order (paper id, ordinal, passage id).
type fileHit struct {
	score float64
	doc   uint32
}

func fileBetter(a, b fileHit) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.doc < b.doc
}

// fileTop keeps the k best hits, worst at h[0] (a binary heap). scored
// counts the passages whose full score a corpus-wide search computed,
// which tests read to see that pruning skipped some.
type fileTop struct {
	k      int
	h      []fileHit
	scored int
}

func (t *fileTop) offer(c fileHit) {
	if len(t.h) < t.k {
		t.h = append(t.h, c)
		for i := len(t.h) - 1; i > 0; {
			p := (i - 1) / 2
			if !fileBetter(t.h[p], t.h[i]) {
				break
			}
			t.h[p], t.h[i] = t.h[i], t.h[p]
			i = p
		}
		return
	}
	if !fileBetter(c, t.h[0]) {
		return
	}
	t.h[0] = c
	for i := 0; ; {
		w, l, r := i, 2*i+1, 2*i+2
		if l < len(t.h) && fileBetter(t.h[w], t.h[l]) {
			w = l
		}
		if r < len(t.h) && fileBetter(t.h[w], t.h[r]) {
			w = r
		}
		if w == i {
			return
		}
		t.h[i], t.h[w] = t.h[w], t.h[i]
		i = w
	}
}

// fileQterm is a query term found in the file.
type fileQterm struct {
	rec   okTermRec
	count float64
}

// Search is [Okapi.Search] on the file: q.Text scored against the passages
// of q.PaperID with that paper's statistics, or against every passage with
// the corpus's, returning only passages holding a query term. A damaged
// file fails the search that reads the damage, with an error wrapping
// ErrCorruptOkapi.
func (f *OkapiFile) Search(ctx context.Context, q retrieve.Query) ([]retrieve.Hit, error) {
	return f.searchMode(ctx, q, scoreAuto, nil)
}

// searchMode is Search scoring corpus-wide searches as mode says, adding
// the number of passages fully scored to *scored unless it is nil: tests
// compare the pruned and the exhaustive paths through it.
func (f *OkapiFile) searchMode(ctx context.Context, q retrieve.Query, mode scoreMode, scored *int) (_ []retrieve.Hit, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer catchFault(&err)
	if q.K <= 0 {
		return nil, fmt.Errorf("bm25: okapi: k=%d: %w", q.K, ErrInvalidK)
	}
	terms, counts := queryTerms(f.tok(q.Text))
	if len(terms) == 0 {
		return nil, fmt.Errorf("bm25: okapi: %q: %w", truncate(q.Text, 60), ErrEmptyQuery)
	}
	f.mu.RLock()
	defer f.mu.RUnlock()
	if f.closed {
		return nil, fmt.Errorf("bm25: okapi %s: %w", f.path, ErrClosed)
	}
	hits, err := f.search(ctx, q, terms, counts, mode, scored)
	if err != nil {
		return nil, fmt.Errorf("bm25: okapi %s: %w", f.path, err)
	}
	return hits, nil
}

func (f *OkapiFile) search(ctx context.Context, q retrieve.Query, terms []string, counts []int, mode scoreMode, scored *int) ([]retrieve.Hit, error) {
	v := &f.v
	var qs []fileQterm
	for i, t := range terms {
		// A term unknown to the corpus has idf 0 in rank_bm25: skip it.
		r, ok, err := v.findTerm([]byte(t))
		if err != nil {
			return nil, err
		}
		if ok {
			qs = append(qs, fileQterm{r, float64(counts[i])})
		}
	}
	top := &fileTop{k: q.K}
	if q.PaperID != "" {
		_, p, ok, err := v.findPaper([]byte(q.PaperID))
		if err != nil || !ok || len(qs) == 0 {
			return nil, err
		}
		if err := f.scorePaper(p, qs, top); err != nil {
			return nil, err
		}
	} else if len(qs) > 0 && v.h.docs > 0 {
		score := f.scoreCorpus
		if mode != scoreExhaustive && pruneSafe(v.h.opt.K1, v.h.opt.B) && (mode == scorePruned || usePruning(qs, q.K, v.h.docs)) {
			score = f.scoreCorpusPruned
		}
		if err := score(ctx, qs, top); err != nil {
			return nil, err
		}
		if scored != nil {
			*scored += top.scored
		}
	}
	sort.Slice(top.h, func(i, j int) bool { return fileBetter(top.h[i], top.h[j]) })
	hits := make([]retrieve.Hit, len(top.h))
	for i, h := range top.h {
		d, err := v.doc(uint64(h.doc))
		if err != nil {
			return nil, err
		}
		p, err := v.paper(uint64(d.paper))
		if err != nil {
			return nil, err
		}
		paper, err1 := v.bytesAt(p.idOff, p.idLen)
		id, err2 := v.bytesAt(d.idOff, d.idLen)
		text, err3 := v.bytesAt(d.textOff, d.textLen)
		if err := errors.Join(err1, err2, err3); err != nil {
			return nil, err
		}
		hits[i] = retrieve.Hit{Rank: i + 1, Score: h.score, PaperID: string(paper), PassageID: string(id), Text: string(text), Retriever: f.Name()}
	}
	return hits, nil
}

// scorePaper scores the passages of paper p with its own statistics, as
// Okapi.scorePaper does: each query term's postings in the paper (a range
// of the corpus-wide ones) added in query order.
func (f *OkapiFile) scorePaper(p okPaperRec, qs []fileQterm, top *fileTop) error {
	v := &f.v
	n := int(p.n)
	scores, seen := make([]float64, n), make([]bool, n)
	norms := make([]float64, n)
	nf, avgdl := float64(n), float64(p.tokens)/float64(n)
	k1, b := v.h.opt.K1, v.h.opt.B
	floor := v.h.opt.Epsilon * p.meanIDF
	matched := false
	end := p.first + p.n // p.first+p.n <= docs <= MaxUint32, checked by paper()
	for _, qt := range qs {
		lo, hi := v.lowerBound(qt.rec, p.first), v.lowerBound(qt.rec, end)
		if lo == hi {
			continue
		}
		w := qt.count * flooredIDF(nf, float64(hi-lo), floor)
		prev := -1
		for k := lo; k < hi; k++ {
			doc, tf := v.posting(k)
			i := int(doc) - int(p.first)
			if i <= prev || i >= n { // postings must be sorted and in range
				return fmt.Errorf("%w: postings out of order", ErrCorruptOkapi)
			}
			prev = i
			if !seen[i] { // the paper's own avgdl: not the file's norms
				d, err := v.doc(uint64(doc))
				if err != nil {
					return err
				}
				norms[i], seen[i] = okapiNorm(float64(d.length), avgdl, k1, b), true
			}
			scores[i] += okapiTerm(w, float64(tf), norms[i], k1)
		}
		matched = true
	}
	if !matched {
		return nil
	}
	for i := range scores {
		if seen[i] {
			top.offer(fileHit{scores[i], p.first + uint32(i)})
		}
	}
	return nil
}

// fileScratch is a corpus-wide search's working space: a score and a flag
// per passage number, reset after the search for the passages it touched
// only, so that rare query terms cost little whatever the corpus size. It
// is made on a file's first corpus-wide search, not at open, and pooled
// across searches (9 bytes a passage: 9 MB at a million).
type fileScratch struct {
	scores  []float64
	seen    []bool
	touched []uint32
}

var fileScratchPool sync.Pool

// scoreCorpus adds up each query term's postings in query order, as
// Okapi.scorePostings does, so every passage's score is the same sum.
//
// Postings of a tenth of the passages or more are added without noting
// which passages they touch, the passages being found afterwards by a
// pass over all the flags: noting them costs a branch a posting that
// mispredicts once the terms overlap, which took a third of the time of
// the longest queries at a million passages (BenchmarkOkapiFile/file).
func (f *OkapiFile) scoreCorpus(ctx context.Context, qs []fileQterm, top *fileTop) error {
	v := &f.v
	n := float64(v.h.docs)
	floor := v.h.opt.Epsilon * v.h.meanIDF
	k1 := v.h.opt.K1
	total := uint64(0)
	for _, qt := range qs {
		total += uint64(qt.rec.df)
	}
	dense := total >= v.h.docs/10
	sc, _ := fileScratchPool.Get().(*fileScratch)
	if sc == nil || uint64(len(sc.scores)) < v.h.docs {
		sc = &fileScratch{scores: make([]float64, v.h.docs), seen: make([]bool, v.h.docs)}
	}
	defer fileScratchPool.Put(sc)
	scores, seen, touched := sc.scores, sc.seen, sc.touched[:0]
	defer func() {
		if dense { // a search that failed midway leaves any flag set
			clear(scores[:v.h.docs])
			clear(seen[:v.h.docs])
		}
		for _, d := range touched {
			scores[d], seen[d] = 0, false
		}
		sc.touched = touched[:0]
	}()
	for _, qt := range qs {
		if err := ctx.Err(); err != nil {
			return err
		}
		w := qt.count * flooredIDF(n, float64(qt.rec.df), floor)
		prev := int64(-1)
		for k := qt.rec.start; k < qt.rec.start+uint64(qt.rec.df); k++ {
			d, tf := v.posting(k)
			if int64(d) <= prev || uint64(d) >= v.h.docs {
				return fmt.Errorf("%w: postings out of order", ErrCorruptOkapi)
			}
			prev = int64(d)
			if dense {
				seen[d] = true
			} else if !seen[d] {
				seen[d] = true
				touched = append(touched, d)
			}
			// The norm was computed by the writer as Okapi computes it,
			// okapiNorm(|d|, tokens/docs, k1, b): the same bits.
			scores[d] += okapiTerm(w, float64(tf), v.norm(d), k1)
		}
	}
	if dense {
		for d := range uint32(v.h.docs) {
			if seen[d] {
				s := scores[d]
				scores[d], seen[d] = 0, false // cleared as read
				top.scored++
				if len(top.h) < top.k || s >= top.h[0].score {
					top.offer(fileHit{s, d})
				}
			}
		}
		dense = false // all cleared: nothing left for the deferred clean-up
		return nil
	}
	top.scored += len(touched)
	for _, d := range touched {
		if len(top.h) == top.k && scores[d] < top.h[0].score {
			continue // worse than the k kept
		}
		top.offer(fileHit{scores[d], d})
	}
	return nil
}
