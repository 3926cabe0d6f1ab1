package bm25

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"unsafe"

	"github.com/google/renameio/v2"
)

// DefaultOkapiBudget is OkapiWriterOptions.Budget's default.
const DefaultOkapiBudget int64 = 64 << 20

// Estimated heap bytes a writer's buffer holds beyond the strings and
// postings themselves: a passage's record, a paper's, and a distinct term's
// map entry, string and postings slice headers. They make the budget a
// bound on the buffer's heap, not only on its payload.
const (
	bufDocBytes   = 72
	bufPaperBytes = 96
	bufTermBytes  = 120
)

// OkapiWriterOptions tune NewOkapiWriter.
type OkapiWriterOptions struct {
	// Okapi are the scoring options written into the file; zero fields
	// take the defaults, as for NewOkapi.
	Okapi OkapiOptions
	// Budget bounds, in bytes, what the writer holds in memory: passages
	// and postings are buffered up to three quarters of it (the rest is
	// for sorting and writing a run), then spilled to a sorted run file
	// beside the target. 0 means DefaultOkapiBudget.
	Budget int64
	// Seed is an existing Okapi file whose papers the new file keeps,
	// without analysing them again, except those Keep refuses and those
	// added to the writer (which replace them). "" starts empty. It may be
	// the target itself: the file is replaced only at Finish.
	Seed string
	// Keep says whether to keep a paper of Seed; nil keeps every one.
	Keep func(paperID string) bool
}

// OkapiWriterStats says what a writer did.
type OkapiWriterStats struct {
	Papers, Passages int   // added (seeded ones not counted)
	Runs             int   // runs spilled to disk
	PeakBytes        int64 // most bytes the buffer held, by its accounting
}

// OkapiWriter writes an Okapi file ([OkapiFileFormat]) from papers given
// in any order, in memory bounded by a budget whatever the corpus size:
// papers are buffered, spilled as sorted runs (each an Okapi file) to
// temporary files beside the target when the buffer is full, and merged
// with the seed file, if any, into the target at Finish. Passages are
// renumbered by paper id, so the file depends on the papers given, not on
// their order. It is not safe for concurrent use.
type OkapiWriter struct {
	path   string
	opt    OkapiOptions
	budget int64
	seed   *OkapiFile
	keep   func(string) bool
	buf    *runBuf
	runs   []string
	stats  OkapiWriterStats
	done   bool
}

// NewOkapiWriter starts writing the Okapi file at path. What a writer of
// path that was killed left beside it (runs, temporary files) is removed:
// one writer of a path at a time.
func NewOkapiWriter(path string, opt OkapiWriterOptions) (*OkapiWriter, error) {
	o := opt.Okapi.withDefaults()
	if _, err := tokenizerFunc(o.Tokenizer); err != nil {
		return nil, err
	}
	if opt.Budget <= 0 {
		opt.Budget = DefaultOkapiBudget
	}
	w := &OkapiWriter{path: path, opt: o, budget: opt.Budget, keep: opt.Keep, buf: newRunBuf()}
	// What a killed writer leaves: runs, the term records of a merge, and
	// renameio's temporary file of the target.
	for _, pat := range []string{path + ".run-*", path + ".terms-*", filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+"[0-9]*")} {
		old, _ := filepath.Glob(pat)
		for _, f := range old {
			os.Remove(f)
		}
	}
	if opt.Seed != "" {
		seed, err := OpenOkapiFile(opt.Seed)
		if err != nil {
			return nil, fmt.Errorf("bm25: okapi write %s: seed: %w", path, err)
		}
		if seed.Options() != o {
			seed.Close()
			return nil, fmt.Errorf("bm25: okapi write %s: seed %s was written with %+v, not %+v: rebuild it without a seed", path, opt.Seed, seed.Options(), o)
		}
		w.seed = seed
	}
	return w, nil
}

// Stats says what the writer did so far.
func (w *OkapiWriter) Stats() OkapiWriterStats { return w.stats }

// AddPaper adds a paper's passages, analysed with the writer's tokenizer.
// Within the paper the last passage of an id wins, and passages are
// ordered by ordinal then id, as Okapi orders them. A paper with no
// passages is not added (Okapi holds no such paper). Adding a paper twice
// is an error at Finish.
func (w *OkapiWriter) AddPaper(paperID string, ps []AnalyzedPassage) error {
	if w.done {
		return errors.New("bm25: okapi write: AddPaper after Finish or Abort")
	}
	if paperID == "" {
		return errors.New("bm25: okapi write: empty paper id")
	}
	if len(ps) == 0 {
		return nil
	}
	items := make([]*AnalyzedPassage, 0, len(ps))
	pos := make(map[string]int, len(ps))
	for i := range ps {
		p := &ps[i]
		if p.PaperID != paperID {
			return fmt.Errorf("bm25: okapi write: passage %s of paper %q given with paper %q", p.PassageID, p.PaperID, paperID)
		}
		if p.Tokenizer != w.opt.Tokenizer {
			return fmt.Errorf("bm25: okapi write: passage %s analysed with %q, the file tokenizes with %q", p.PassageID, p.Tokenizer, w.opt.Tokenizer)
		}
		id := passageID(p.Passage)
		if j, ok := pos[id]; ok {
			items[j] = p
			continue
		}
		pos[id] = len(items)
		items = append(items, p)
	}
	slices.SortStableFunc(items, func(a, b *AnalyzedPassage) int {
		return cmp.Or(cmp.Compare(a.Ordinal, b.Ordinal), cmp.Compare(passageID(a.Passage), passageID(b.Passage)))
	})
	w.buf.add(paperID, items)
	w.stats.Papers++
	w.stats.Passages += len(items)
	w.stats.PeakBytes = max(w.stats.PeakBytes, w.buf.bytes)
	if w.buf.bytes > w.budget/4*3 {
		return w.spill()
	}
	return nil
}

// spill writes the buffer as a sorted run and empties it.
func (w *OkapiWriter) spill() error {
	f, err := os.CreateTemp(filepath.Dir(w.path), filepath.Base(w.path)+".run-*")
	if err != nil {
		return fmt.Errorf("bm25: okapi write %s: spill: %w", w.path, err)
	}
	w.runs = append(w.runs, f.Name())
	src := w.buf.seal()
	err = mergeTo(context.Background(), f, w.path+".terms-", []mergeSource{src}, false, nil, w.opt)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("bm25: okapi write %s: spill: %w", w.path, err)
	}
	w.buf = newRunBuf()
	w.stats.Runs++
	return nil
}

// Finish merges the seed, the runs and the buffer into the target, written
// to a temporary file synced and renamed over it, so that a crash leaves
// the old file or the new one. The temporary runs are removed, and the
// writer is done.
func (w *OkapiWriter) Finish(ctx context.Context) (err error) {
	if w.done {
		return errors.New("bm25: okapi write: Finish after Finish or Abort")
	}
	defer w.Abort()
	// The seed and the runs are mapped (see catchFault).
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer catchFault(&err)
	var srcs []mergeSource
	if w.seed != nil {
		srcs = append(srcs, fileSource{&w.seed.v})
	}
	for _, r := range w.runs {
		f, err := OpenOkapiFile(r)
		if err != nil {
			return fmt.Errorf("bm25: okapi write %s: %w", w.path, err)
		}
		defer f.Close()
		srcs = append(srcs, fileSource{&f.v})
	}
	if len(w.buf.papers) > 0 {
		srcs = append(srcs, w.buf.seal())
	}
	pf, err := renameio.NewPendingFile(w.path, renameio.WithTempDir(filepath.Dir(w.path)))
	if err != nil {
		return fmt.Errorf("bm25: okapi write %s: %w", w.path, err)
	}
	defer pf.Cleanup() // no-op once replaced
	if err := mergeTo(ctx, pf, w.path+".terms-", srcs, w.seed != nil, w.keep, w.opt); err != nil {
		return fmt.Errorf("bm25: okapi write %s: %w", w.path, err)
	}
	if err := pf.CloseAtomicallyReplace(); err != nil {
		return fmt.Errorf("bm25: okapi write %s: %w", w.path, err)
	}
	return nil
}

// Abort drops what was added and removes the temporary runs; the target is
// left as it was. It is a no-op after Finish.
func (w *OkapiWriter) Abort() {
	if w.done {
		return
	}
	w.done = true
	if w.seed != nil {
		w.seed.Close()
	}
	for _, r := range w.runs {
		os.Remove(r)
	}
	w.runs, w.buf = nil, nil
}

// runBuf is the writer's buffer: papers in the order added, their passages,
// and each term's postings as (buffer passage, tf) pairs.
type runBuf struct {
	papers  []bufPaper
	docs    []bufDoc
	termIdx map[string]uint32
	terms   []string
	post    [][]uint32
	bytes   int64
}

type bufPaper struct {
	id       string
	first, n uint32
	tokens   uint64
	meanIDF  float64
	postings uint64
}

type bufDoc struct {
	ordinal  int64
	id, text string
	length   uint32
	paper    uint32
}

func newRunBuf() *runBuf { return &runBuf{termIdx: map[string]uint32{}} }

func (b *runBuf) add(paperID string, ps []*AnalyzedPassage) {
	first := uint32(len(b.docs))
	p := bufPaper{id: paperID, first: first, n: uint32(len(ps))}
	local := map[string]int{} // the paper's own document frequencies
	for _, a := range ps {
		d := uint32(len(b.docs))
		id := passageID(a.Passage)
		b.docs = append(b.docs, bufDoc{ordinal: int64(a.Ordinal), id: id, text: a.Text, length: uint32(a.Len), paper: uint32(len(b.papers))})
		b.bytes += bufDocBytes + int64(len(id)+len(a.Text))
		p.tokens += uint64(a.Len)
		p.postings += uint64(len(a.Terms))
		for _, t := range a.Terms {
			local[t.Term]++
			i, ok := b.termIdx[t.Term]
			if !ok {
				i = uint32(len(b.terms))
				b.termIdx[t.Term] = i
				b.terms = append(b.terms, t.Term)
				b.post = append(b.post, nil)
				b.bytes += bufTermBytes + int64(len(t.Term))
			}
			before := cap(b.post[i])
			b.post[i] = append(b.post[i], d, t.Freq)
			b.bytes += 4 * int64(cap(b.post[i])-before)
		}
	}
	n := float64(len(ps))
	p.meanIDF = exactMean(len(local), func(add func(float64)) {
		for _, df := range local {
			add(rawIDF(n, float64(df)))
		}
	})
	b.papers = append(b.papers, p)
	b.bytes += bufPaperBytes + int64(len(paperID))
}

// seal sorts the buffer into a mergeSource: papers by id, passages
// renumbered paper by paper, terms by byte order.
func (b *runBuf) seal() *bufSource {
	s := &bufSource{b: b, order: make([]uint32, len(b.papers)), rank: make([]uint32, len(b.papers)),
		runFirst: make([]uint32, len(b.papers)), docOf: make([]uint32, len(b.docs)), runOf: make([]uint32, len(b.docs)),
		termOrder: make([]uint32, len(b.terms))}
	for i := range s.order {
		s.order[i] = uint32(i)
	}
	slices.SortStableFunc(s.order, func(x, y uint32) int { return strings.Compare(b.papers[x].id, b.papers[y].id) })
	next := uint32(0)
	for r, pi := range s.order {
		s.rank[pi] = uint32(r)
		p := b.papers[pi]
		s.runFirst[r] = next
		for k := range p.n {
			s.docOf[next+k] = p.first + k
			s.runOf[p.first+k] = next + k
		}
		next += p.n
	}
	for i := range s.termOrder {
		s.termOrder[i] = uint32(i)
	}
	slices.SortFunc(s.termOrder, func(x, y uint32) int { return strings.Compare(b.terms[x], b.terms[y]) })
	return s
}

// bufSource is a sealed buffer, read by the merge as if it were a file.
type bufSource struct {
	b         *runBuf
	order     []uint32 // run paper -> buffer paper
	rank      []uint32 // buffer paper -> run paper
	runFirst  []uint32 // run paper -> its first run passage
	docOf     []uint32 // run passage -> buffer passage
	runOf     []uint32 // buffer passage -> run passage
	termOrder []uint32 // run term -> buffer term
	scratch   []uint64
}

func (s *bufSource) numPapers() uint64 { return uint64(len(s.order)) }
func (s *bufSource) numTerms() uint64  { return uint64(len(s.termOrder)) }

func (s *bufSource) numPostings() uint64 {
	var n uint64
	for _, p := range s.b.papers {
		n += p.postings
	}
	return n
}

func (s *bufSource) paperAt(i uint64) ([]byte, okPaperRec, error) {
	p := s.b.papers[s.order[i]]
	return strBytes(p.id), okPaperRec{idLen: uint32(len(p.id)), first: s.runFirst[i], n: p.n, tokens: p.tokens, meanIDF: p.meanIDF, postings: p.postings}, nil
}

func (s *bufSource) docAt(i uint64) (okDocRec, []byte, []byte, error) {
	d := s.b.docs[s.docOf[i]]
	return okDocRec{ordinal: d.ordinal, idLen: uint32(len(d.id)), textLen: uint32(len(d.text)), length: d.length, paper: s.rank[d.paper]},
		strBytes(d.id), strBytes(d.text), nil
}

func (s *bufSource) termAt(i uint64) ([]byte, uint32, error) {
	t := s.termOrder[i]
	return strBytes(s.b.terms[t]), uint32(len(s.b.post[t]) / 2), nil
}

// postings maps the term's pairs to run passages and sorts them; one term
// at a time is read, so one scratch slice serves.
func (s *bufSource) postings(i uint64) (postingIter, error) {
	pairs := s.b.post[s.termOrder[i]]
	s.scratch = s.scratch[:0]
	for k := 0; k < len(pairs); k += 2 {
		s.scratch = append(s.scratch, uint64(s.runOf[pairs[k]])<<32|uint64(pairs[k+1]))
	}
	slices.Sort(s.scratch)
	return &bufPostings{p: s.scratch}, nil
}

func (s *bufSource) paperOf(d uint32) (uint64, uint32, uint32, error) {
	r := s.rank[s.b.docs[s.docOf[d]].paper]
	return uint64(r), s.runFirst[r], s.b.papers[s.order[r]].n, nil
}

// strBytes is s's bytes without a copy: the merge only reads what a
// source returns, and copying every passage's text twice per spill would
// churn the heap the budget bounds.
func strBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

type bufPostings struct{ p []uint64 }

func (b *bufPostings) next() (uint32, uint32, bool, error) {
	if len(b.p) == 0 {
		return 0, 0, false, nil
	}
	x := b.p[0]
	b.p = b.p[1:]
	return uint32(x >> 32), uint32(x), true, nil
}
