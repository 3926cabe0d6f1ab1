package bm25

import (
	"bufio"
	"bytes"
	"container/heap"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
)

// mergeSource is what the merge reads: an Okapi file, or the sorted
// contents of a writer's buffer, with the same numbering rules (papers by
// id, passages numbered paper by paper, terms by byte order, each term's
// postings by passage number).
type mergeSource interface {
	numPapers() uint64
	paperAt(i uint64) (id []byte, r okPaperRec, err error)
	docAt(i uint64) (r okDocRec, id, text []byte, err error)
	numTerms() uint64
	numPostings() uint64
	termAt(i uint64) (term []byte, df uint32, err error)
	// postings returns term i's postings: (passage number, tf) pairs in
	// increasing passage order.
	postings(i uint64) (postingIter, error)
	// paperOf is the paper holding passage d: its index and first passage.
	paperOf(d uint32) (i uint64, first, n uint32, err error)
}

type postingIter interface {
	next() (doc, tf uint32, ok bool, err error)
}

// fileSource reads an OkapiFile for the merge.
type fileSource struct{ v *okView }

func (s fileSource) numPapers() uint64   { return s.v.h.papers }
func (s fileSource) numTerms() uint64    { return s.v.h.terms }
func (s fileSource) numPostings() uint64 { return s.v.h.postings }

func (s fileSource) paperAt(i uint64) ([]byte, okPaperRec, error) {
	r, err := s.v.paper(i)
	if err != nil {
		return nil, r, err
	}
	id, err := s.v.bytesAt(r.idOff, r.idLen)
	return id, r, err
}

func (s fileSource) docAt(i uint64) (okDocRec, []byte, []byte, error) {
	r, err := s.v.doc(i)
	if err != nil {
		return r, nil, nil, err
	}
	id, err := s.v.bytesAt(r.idOff, r.idLen)
	if err != nil {
		return r, nil, nil, err
	}
	text, err := s.v.bytesAt(r.textOff, r.textLen)
	return r, id, text, err
}

func (s fileSource) termAt(i uint64) ([]byte, uint32, error) {
	r, err := s.v.term(i)
	if err != nil {
		return nil, 0, err
	}
	t, err := s.v.bytesAt(r.strOff, r.strLen)
	return t, r.df, err
}

func (s fileSource) postings(i uint64) (postingIter, error) {
	r, err := s.v.term(i)
	if err != nil {
		return nil, err
	}
	return &filePostings{v: s.v, k: r.start, end: r.start + uint64(r.df), prev: -1}, nil
}

func (s fileSource) paperOf(d uint32) (uint64, uint32, uint32, error) {
	lo, hi := uint64(0), s.v.h.papers
	for lo < hi { // the last paper starting at or before d
		mid := lo + (hi-lo)/2
		r, err := s.v.paper(mid)
		if err != nil {
			return 0, 0, 0, err
		}
		if r.first <= d {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return 0, 0, 0, fmt.Errorf("%w: passage %d before the first paper", ErrCorruptOkapi, d)
	}
	r, err := s.v.paper(lo - 1)
	if err != nil {
		return 0, 0, 0, err
	}
	if d >= r.first+r.n {
		return 0, 0, 0, fmt.Errorf("%w: passage %d in no paper", ErrCorruptOkapi, d)
	}
	return lo - 1, r.first, r.n, nil
}

type filePostings struct {
	v      *okView
	k, end uint64
	prev   int64
}

func (p *filePostings) next() (uint32, uint32, bool, error) {
	if p.k >= p.end {
		return 0, 0, false, nil
	}
	doc, tf := p.v.posting(p.k)
	p.k++
	if int64(doc) <= p.prev || uint64(doc) >= p.v.h.docs {
		return 0, 0, false, fmt.Errorf("%w: postings out of order", ErrCorruptOkapi)
	}
	p.prev = int64(doc)
	return doc, tf, true, nil
}

// srcPaper is a paper of the output: where it comes from.
type srcPaper struct {
	src uint32
	i   uint64
}

// paperHeap orders sources by their next paper id, then by source index,
// so that a paper in several sources comes out of the earliest first.
type paperHeap struct {
	srcs []mergeSource
	at   []uint64 // next paper of each source
	ids  [][]byte // its id
	h    []int    // sources with papers left
}

func (h *paperHeap) Len() int { return len(h.h) }
func (h *paperHeap) Less(a, b int) bool {
	sa, sb := h.h[a], h.h[b]
	if c := bytes.Compare(h.ids[sa], h.ids[sb]); c != 0 {
		return c < 0
	}
	return sa < sb
}
func (h *paperHeap) Swap(a, b int) { h.h[a], h.h[b] = h.h[b], h.h[a] }
func (h *paperHeap) Push(x any)    { h.h = append(h.h, x.(int)) }
func (h *paperHeap) Pop() any      { x := h.h[len(h.h)-1]; h.h = h.h[:len(h.h)-1]; return x }

// load reads source s's paper id at h.at[s], reporting whether it has one.
func (h *paperHeap) load(s int) (bool, error) {
	if h.at[s] >= h.srcs[s].numPapers() {
		return false, nil
	}
	id, _, err := h.srcs[s].paperAt(h.at[s])
	if err != nil {
		return false, err
	}
	if prev := h.ids[s]; prev != nil && bytes.Compare(prev, id) >= 0 {
		if _, buffered := h.srcs[s].(*bufSource); buffered {
			return false, fmt.Errorf("bm25: okapi write: paper %s was added twice", id)
		}
		return false, fmt.Errorf("%w: papers out of order", ErrCorruptOkapi)
	}
	h.ids[s] = id
	return true, nil
}

// mergePlan is the output's papers, decided before anything is written:
// which source paper goes where, and what the tables will hold.
type mergePlan struct {
	order                  []srcPaper
	outFirst               [][]int64 // per source paper: its first passage in the output, -1 if dropped
	papers, docs, postings uint64
	tokens                 uint64
	strBytes               uint64
}

// planMerge merges the sources' papers by id. A paper in the seed (source
// 0 when seeded) that keep refuses, or that another source holds too, is
// dropped; a paper in two other sources is an error.
func planMerge(srcs []mergeSource, seeded bool, keep func(string) bool) (*mergePlan, error) {
	p := &mergePlan{outFirst: make([][]int64, len(srcs))}
	h := &paperHeap{srcs: srcs, at: make([]uint64, len(srcs)), ids: make([][]byte, len(srcs))}
	for s := range srcs {
		p.outFirst[s] = make([]int64, srcs[s].numPapers())
		for i := range p.outFirst[s] {
			p.outFirst[s][i] = -1
		}
		ok, err := h.load(s)
		if err != nil {
			return nil, err
		}
		if ok {
			h.h = append(h.h, s)
		}
	}
	heap.Init(h)
	var most uint64 // postings the sources hold: a corrupt paper record cannot claim more
	for _, s := range srcs {
		most += s.numPostings()
	}
	for h.Len() > 0 {
		// Every source whose next paper has the smallest id, earliest first.
		var group []int
		for h.Len() > 0 && (len(group) == 0 || bytes.Equal(h.ids[h.h[0]], h.ids[group[0]])) {
			group = append(group, heap.Pop(h).(int))
		}
		id := string(h.ids[group[0]])
		chosen := -1
		for _, s := range group {
			switch {
			case seeded && s == 0:
				if len(group) == 1 && (keep == nil || keep(id)) {
					chosen = s
				}
			case chosen >= 0 && !(seeded && chosen == 0):
				return nil, fmt.Errorf("bm25: okapi write: paper %s was added twice", id)
			default:
				chosen = s
			}
		}
		if chosen >= 0 {
			if err := p.add(srcs, chosen, h.at[chosen]); err != nil {
				return nil, err
			}
			if p.postings > most {
				return nil, fmt.Errorf("%w: papers claim more postings than the files hold", ErrCorruptOkapi)
			}
		}
		for _, s := range group {
			h.at[s]++
			ok, err := h.load(s)
			if err != nil {
				return nil, err
			}
			if ok {
				heap.Push(h, s)
			}
		}
	}
	return p, nil
}

func (p *mergePlan) add(srcs []mergeSource, s int, i uint64) error {
	id, r, err := srcs[s].paperAt(i)
	if err != nil {
		return err
	}
	if p.docs+uint64(r.n) > math.MaxUint32 {
		return fmt.Errorf("bm25: okapi write: more than %d passages", uint32(math.MaxUint32))
	}
	p.outFirst[s][i] = int64(p.docs)
	p.order = append(p.order, srcPaper{uint32(s), i})
	p.papers++
	p.docs += uint64(r.n)
	p.postings += r.postings
	p.tokens += r.tokens
	p.strBytes += uint64(len(id))
	for d := uint64(r.first); d < uint64(r.first)+uint64(r.n); d++ {
		dr, _, _, err := srcs[s].docAt(d)
		if err != nil {
			return err
		}
		p.strBytes += uint64(dr.idLen) + uint64(dr.textLen)
	}
	return nil
}

// fileOut is where a merge writes: a file it can write at offsets.
type fileOut interface {
	io.WriterAt
	io.Writer
}

// mergeTo writes the merge of srcs to out as an Okapi file with options
// opt. See planMerge for which papers are kept.
func mergeTo(ctx context.Context, out fileOut, tmpPrefix string, srcs []mergeSource, seeded bool, keep func(string) bool, opt OkapiOptions) error {
	plan, err := planMerge(srcs, seeded, keep)
	if err != nil {
		return err
	}
	h := okHeader{opt: opt, papers: plan.papers, docs: plan.docs, tokens: plan.tokens, postings: plan.postings}
	h.papersOff = okHeaderSize
	h.docsOff = h.papersOff + plan.papers*okPaperSize
	h.normsOff = h.docsOff + plan.docs*okDocSize
	strOff := h.normsOff + plan.docs*okNormSize
	h.postOff = strOff + plan.strBytes
	if err := writeTables(ctx, out, srcs, plan, &h, strOff); err != nil {
		return err
	}
	termStrOff := h.postOff + plan.postings*okPostSize
	n, termsOff, mean, err := writeTerms(ctx, out, tmpPrefix, srcs, plan, h.postOff, termStrOff)
	if err != nil {
		return err
	}
	h.terms, h.termsOff, h.meanIDF = n, termsOff, mean
	h.size = termsOff + n*okTermSize
	hb, err := h.encode()
	if err != nil {
		return err
	}
	_, err = out.WriteAt(hb, 0)
	return err
}

// writeTables writes the papers, passages and strings of plan.
func writeTables(ctx context.Context, out fileOut, srcs []mergeSource, plan *mergePlan, h *okHeader, strOff uint64) error {
	pw := bufio.NewWriterSize(io.NewOffsetWriter(out, int64(h.papersOff)), 64<<10)
	dw := bufio.NewWriterSize(io.NewOffsetWriter(out, int64(h.docsOff)), 256<<10)
	nw := bufio.NewWriterSize(io.NewOffsetWriter(out, int64(h.normsOff)), 64<<10)
	// As Okapi computes each passage's norm for corpus-wide searches.
	avgdl := float64(h.tokens) / float64(h.docs)
	var nrec [okNormSize]byte
	sw := bufio.NewWriterSize(io.NewOffsetWriter(out, int64(strOff)), 1<<20)
	le := binary.LittleEndian
	var rec [okPaperSize]byte
	at := strOff
	putStr := func(b []byte) (uint64, error) {
		off := at
		at += uint64(len(b))
		_, err := sw.Write(b)
		return off, err
	}
	for pi, sp := range plan.order {
		if pi%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		src := srcs[sp.src]
		id, r, err := src.paperAt(sp.i)
		if err != nil {
			return err
		}
		first := uint32(plan.outFirst[sp.src][sp.i])
		idOff, err := putStr(id)
		if err != nil {
			return err
		}
		le.PutUint64(rec[0:], idOff)
		le.PutUint32(rec[8:], uint32(len(id)))
		le.PutUint32(rec[12:], first)
		le.PutUint32(rec[16:], r.n)
		le.PutUint32(rec[20:], 0)
		le.PutUint64(rec[24:], r.tokens)
		le.PutUint64(rec[32:], math.Float64bits(r.meanIDF))
		le.PutUint64(rec[40:], r.postings)
		if _, err := pw.Write(rec[:]); err != nil {
			return err
		}
		for d := uint64(r.first); d < uint64(r.first)+uint64(r.n); d++ {
			dr, did, text, err := src.docAt(d)
			if err != nil {
				return err
			}
			idOff, err := putStr(did)
			if err != nil {
				return err
			}
			textOff, err := putStr(text)
			if err != nil {
				return err
			}
			var drec [okDocSize]byte
			le.PutUint64(drec[0:], uint64(dr.ordinal))
			le.PutUint64(drec[8:], idOff)
			le.PutUint64(drec[16:], textOff)
			le.PutUint32(drec[24:], dr.idLen)
			le.PutUint32(drec[28:], dr.textLen)
			le.PutUint32(drec[32:], dr.length)
			le.PutUint32(drec[36:], uint32(pi))
			if _, err := dw.Write(drec[:]); err != nil {
				return err
			}
			le.PutUint64(nrec[:], math.Float64bits(okapiNorm(float64(dr.length), avgdl, h.opt.K1, h.opt.B)))
			if _, err := nw.Write(nrec[:]); err != nil {
				return err
			}
		}
	}
	for _, w := range []*bufio.Writer{pw, dw, nw, sw} {
		if err := w.Flush(); err != nil {
			return err
		}
	}
	if at != h.postOff {
		return fmt.Errorf("%w: strings of %d bytes, the records say %d", ErrCorruptOkapi, at-strOff, h.postOff-strOff)
	}
	return nil
}

// termHeap orders sources by their next term, then by source index.
type termHeap struct {
	srcs  []mergeSource
	at    []uint64
	terms [][]byte
	h     []int
}

func (h *termHeap) Len() int { return len(h.h) }
func (h *termHeap) Less(a, b int) bool {
	sa, sb := h.h[a], h.h[b]
	if c := bytes.Compare(h.terms[sa], h.terms[sb]); c != 0 {
		return c < 0
	}
	return sa < sb
}
func (h *termHeap) Swap(a, b int) { h.h[a], h.h[b] = h.h[b], h.h[a] }
func (h *termHeap) Push(x any)    { h.h = append(h.h, x.(int)) }
func (h *termHeap) Pop() any      { x := h.h[len(h.h)-1]; h.h = h.h[:len(h.h)-1]; return x }

func (h *termHeap) load(s int) (bool, error) {
	if h.at[s] >= h.srcs[s].numTerms() {
		return false, nil
	}
	t, _, err := h.srcs[s].termAt(h.at[s])
	if err != nil {
		return false, err
	}
	if prev := h.terms[s]; prev != nil && bytes.Compare(prev, t) >= 0 {
		return false, fmt.Errorf("%w: terms out of order", ErrCorruptOkapi)
	}
	h.terms[s] = t
	return true, nil
}

// mappedPostings walks one source's postings of a term in output passage
// numbers, skipping the passages of dropped papers. The source paper of
// the current passage is cached: postings are in passage order, so it is
// looked up once per paper, not per posting.
type mappedPostings struct {
	src       mergeSource
	outFirst  []int64
	it        postingIter
	lo, hi    uint32 // source passages of the cached paper
	delta     int64  // output passage - source passage; -1<<62 when dropped
	doc, tf   uint32 // current, in output numbering
	exhausted bool
}

const droppedDelta = -1 << 62

func (m *mappedPostings) advance() error {
	for {
		d, tf, ok, err := m.it.next()
		if err != nil {
			return err
		}
		if !ok {
			m.exhausted = true
			return nil
		}
		if d < m.lo || d >= m.hi {
			i, first, n, err := m.src.paperOf(d)
			if err != nil {
				return err
			}
			m.lo, m.hi, m.delta = first, first+n, droppedDelta
			if of := m.outFirst[i]; of >= 0 {
				m.delta = of - int64(first)
			}
		}
		if m.delta != droppedDelta {
			m.doc, m.tf = uint32(int64(d)+m.delta), tf
			return nil
		}
	}
}

// postHeap orders a term's mapped postings by output passage.
type postHeap []*mappedPostings

func (h postHeap) Len() int           { return len(h) }
func (h postHeap) Less(a, b int) bool { return h[a].doc < h[b].doc }
func (h postHeap) Swap(a, b int)      { h[a], h[b] = h[b], h[a] }
func (h *postHeap) Push(x any)        { *h = append(*h, x.(*mappedPostings)) }
func (h *postHeap) Pop() any          { x := (*h)[len(*h)-1]; *h = (*h)[:len(*h)-1]; return x }

// termOut is where writeTerms puts a term: postings, the term's string,
// its record (in a temporary file until the count of terms is known).
type termOut struct {
	pw, tw, rw          *bufio.Writer
	termStrOff          uint64
	terms, posts, strAt uint64
	most                uint64 // postings the plan expects
	nDocs               float64
	sum                 exactSum
	ph                  postHeap
}

// write merges the postings of term from the sources of group (each at
// its term at[s]) and writes the term, unless only dropped papers held it.
func (o *termOut) write(term []byte, srcs []mergeSource, plan *mergePlan, group []int, at []uint64) error {
	o.ph = o.ph[:0]
	for _, s := range group {
		it, err := srcs[s].postings(at[s])
		if err != nil {
			return err
		}
		m := &mappedPostings{src: srcs[s], outFirst: plan.outFirst[s], it: it}
		if err := m.advance(); err != nil {
			return err
		}
		if !m.exhausted {
			o.ph = append(o.ph, m)
		}
	}
	heap.Init(&o.ph)
	le := binary.LittleEndian
	var pbuf [okPostSize]byte
	start, last := o.posts, int64(-1)
	for len(o.ph) > 0 {
		m := o.ph[0]
		if int64(m.doc) <= last {
			return fmt.Errorf("%w: term %q twice in passage %d", ErrCorruptOkapi, term, m.doc)
		}
		last = int64(m.doc)
		le.PutUint32(pbuf[0:], m.doc)
		le.PutUint32(pbuf[4:], m.tf)
		if _, err := o.pw.Write(pbuf[:]); err != nil {
			return err
		}
		if o.posts++; o.posts > o.most {
			return fmt.Errorf("%w: more postings than the papers say", ErrCorruptOkapi)
		}
		if err := m.advance(); err != nil {
			return err
		}
		if m.exhausted {
			heap.Pop(&o.ph)
		} else {
			heap.Fix(&o.ph, 0)
		}
	}
	df := o.posts - start
	if df == 0 { // a term of dropped papers only is gone
		return nil
	}
	var rec [okTermSize]byte
	le.PutUint64(rec[0:], o.termStrOff+o.strAt)
	le.PutUint32(rec[8:], uint32(len(term)))
	le.PutUint32(rec[12:], uint32(df))
	le.PutUint64(rec[16:], start)
	if _, err := o.rw.Write(rec[:]); err != nil {
		return err
	}
	if _, err := o.tw.Write(term); err != nil {
		return err
	}
	o.strAt += uint64(len(term))
	o.terms++
	o.sum.add(rawIDF(o.nDocs, float64(df)))
	return nil
}

// writeTerms merges the sources' terms and postings: postings at postOff,
// term strings from termStrOff, the term records (gathered in a temporary
// file named tmpPrefix and a random suffix, as their count is known only
// at the end) after the strings. It
// returns the number of terms, their records' offset and the corpus-wide
// mean raw idf.
func writeTerms(ctx context.Context, out fileOut, tmpPrefix string, srcs []mergeSource, plan *mergePlan, postOff, termStrOff uint64) (uint64, uint64, float64, error) {
	recs, err := os.CreateTemp(filepath.Dir(tmpPrefix), filepath.Base(tmpPrefix)+"*")
	if err != nil {
		return 0, 0, 0, err
	}
	defer os.Remove(recs.Name())
	defer recs.Close()
	o := &termOut{
		rw:         bufio.NewWriterSize(recs, 256<<10),
		pw:         bufio.NewWriterSize(io.NewOffsetWriter(out, int64(postOff)), 1<<20),
		tw:         bufio.NewWriterSize(io.NewOffsetWriter(out, int64(termStrOff)), 256<<10),
		termStrOff: termStrOff, most: plan.postings, nDocs: float64(plan.docs),
	}
	th := &termHeap{srcs: srcs, at: make([]uint64, len(srcs)), terms: make([][]byte, len(srcs))}
	for s := range srcs {
		ok, err := th.load(s)
		if err != nil {
			return 0, 0, 0, err
		}
		if ok {
			th.h = append(th.h, s)
		}
	}
	heap.Init(th)
	for n := 0; th.Len() > 0; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, 0, 0, err
			}
		}
		var group []int
		for th.Len() > 0 && (len(group) == 0 || bytes.Equal(th.terms[th.h[0]], th.terms[group[0]])) {
			group = append(group, heap.Pop(th).(int))
		}
		if err := o.write(th.terms[group[0]], srcs, plan, group, th.at); err != nil {
			return 0, 0, 0, err
		}
		for _, s := range group {
			th.at[s]++
			ok, err := th.load(s)
			if err != nil {
				return 0, 0, 0, err
			}
			if ok {
				heap.Push(th, s)
			}
		}
	}
	if o.posts != plan.postings {
		return 0, 0, 0, fmt.Errorf("%w: %d postings, the papers say %d", ErrCorruptOkapi, o.posts, plan.postings)
	}
	for _, w := range []*bufio.Writer{o.pw, o.tw, o.rw} {
		if err := w.Flush(); err != nil {
			return 0, 0, 0, err
		}
	}
	termsOff := termStrOff + o.strAt
	if _, err := recs.Seek(0, io.SeekStart); err != nil {
		return 0, 0, 0, err
	}
	if _, err := io.Copy(io.NewOffsetWriter(out, int64(termsOff)), recs); err != nil {
		return 0, 0, 0, err
	}
	mean := 0.0
	if o.terms > 0 {
		mean = o.sum.float64() / float64(o.terms)
	}
	return o.terms, termsOff, mean, nil
}
