package bm25

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/internal/boltopen"
	"github.com/paperlens/paperlens/retrieve"
)

// Field names of a passage document in the Bleve index.
const (
	FieldPaperID   = "paper_id"
	FieldPassageID = "passage_id"
	FieldText      = "text"
	FieldOrdinal   = "ordinal"
	// FieldLength is the passage's analysed token count, stored only (not
	// indexed) so that deleting or replacing a passage can take its length
	// back out of the running total behind the average field length.
	FieldLength = "length"
)

// statsKey is the Bleve internal key of the document and token totals. It is
// written in the same batch as the documents, so the totals never disagree
// with the index after a crash.
const statsKey = "paperlens.bm25.stats"

// DefaultBatchSize is the number of passages per Bleve batch. Each batch
// becomes a segment that scorch must persist and later merge, so larger
// batches build faster (measured: 1,000 → 1.4k passages/s, 5,000 → 1.9k/s
// on 2 cores), while a batch of 5,000 passages still analyses to a few tens
// of MB.
const DefaultBatchSize = 5000

// BleveOptions tune OpenBleveWith.
type BleveOptions struct {
	// NativeAvgLen keeps Bleve's own average field length,
	// ceil(sum over segments of the text field's dictionary size / docs),
	// which is a vocabulary size and not a length (see the package doc).
	// By default the true mean analysed length is supplied instead.
	NativeAvgLen bool
	// BatchSize is the number of passages per Bleve batch; 0 means
	// DefaultBatchSize.
	BatchSize int
	// ReadOnly opens an existing index for searching only, under a shared
	// lock, so several processes can search one index at once; writes fail
	// with ErrReadOnly. A missing index is an error wrapping os.ErrNotExist.
	ReadOnly bool
}

// ErrReadOnly is returned by writes to an index opened with ReadOnly.
var ErrReadOnly = errors.New("index is open read-only")

// LockTimeout bounds how long opening waits for another process's lock on
// the index (scorch's root.bolt): without it bbolt waits forever, and a
// search started during an index build would hang instead of saying why.
// It is every bbolt file's timeout (boltopen.Timeout).
const LockTimeout = boltopen.Timeout

// Bleve is a BM25 passage index in Bleve (scorch). It is safe for
// concurrent use; writers are serialised.
type Bleve struct {
	idx bleve.Index
	dir string
	an  analysis.Analyzer
	opt BleveOptions
	// reanalyse indexes passages through the mapping, letting scorch
	// analyse the text again, as before AnalyzedPassage: tests compare the
	// two ways.
	reanalyse bool

	wmu   sync.Mutex   // serialises writers: the totals are read-modify-write
	smu   sync.RWMutex // guards stats between writers and searches
	stats bleveStats

	closeOnce sync.Once
	closeErr  error
}

type bleveStats struct {
	Docs   uint64 `json:"docs"`
	Tokens uint64 `json:"tokens"`
}

var _ retrieve.Retriever = (*Bleve)(nil)

// OpenBleve opens the index in dir, creating it when dir holds none.
func OpenBleve(dir string) (*Bleve, error) { return OpenBleveWith(dir, BleveOptions{}) }

// OpenBleveWith is OpenBleve with options.
func OpenBleveWith(dir string, opt BleveOptions) (*Bleve, error) {
	if opt.BatchSize <= 0 {
		opt.BatchSize = DefaultBatchSize
	}
	an, err := textAnalyzer()
	if err != nil {
		return nil, err
	}
	var idx bleve.Index
	if _, err := os.Stat(filepath.Join(dir, "index_meta.json")); err == nil {
		// scorch's read_only takes root.bolt's lock shared and starts no
		// persister or merger, so nothing in dir changes under other readers.
		idx, err = bleve.OpenUsing(dir, map[string]any{"read_only": opt.ReadOnly, "bolt_timeout": LockTimeout.String()})
		if errors.Is(err, bolterrors.ErrTimeout) {
			// Bleve opens root.bolt itself; the error is worded as for
			// every other busy file.
			return nil, &boltopen.BusyError{What: "bm25 index", Path: dir,
				Holder: "an index build, or a search while this one builds"}
		}
		if err != nil {
			return nil, fmt.Errorf("bm25: open index %s: %w", dir, err)
		}
	} else if errors.Is(err, os.ErrNotExist) && opt.ReadOnly {
		return nil, fmt.Errorf("bm25: no index in %s to open read-only: %w", dir, err)
	} else if errors.Is(err, os.ErrNotExist) {
		idx, err = bleve.New(dir, NewMapping())
		if err != nil {
			return nil, fmt.Errorf("bm25: create index %s: %w", dir, err)
		}
	} else {
		return nil, fmt.Errorf("bm25: open index %s: %w", dir, err)
	}
	b := &Bleve{idx: idx, dir: dir, an: an, opt: opt}
	if err := b.checkMapping(); err != nil {
		idx.Close()
		return nil, err
	}
	if err := b.loadStats(); err != nil {
		idx.Close()
		return nil, err
	}
	return b, nil
}

// NewMapping is the index mapping of a passage index. Only the fields below
// are indexed (no dynamic fields, no _all), and the scoring model is BM25.
func NewMapping() *mapping.IndexMappingImpl {
	keyword := func() *mapping.FieldMapping {
		f := bleve.NewKeywordFieldMapping()
		f.Store, f.IncludeInAll, f.IncludeTermVectors, f.DocValues = true, false, false, false
		return f
	}
	text := bleve.NewTextFieldMapping()
	text.Analyzer = AnalyzerName
	// Term vectors (positions) only serve phrase queries and highlighting,
	// which BM25 retrieval never runs, and would be written for every
	// posting. No doc values either: nothing sorts or facets on text.
	text.Store, text.IncludeInAll, text.IncludeTermVectors, text.DocValues = true, false, false, false

	ordinal := bleve.NewNumericFieldMapping()
	ordinal.Store, ordinal.IncludeInAll, ordinal.DocValues = true, false, false

	length := bleve.NewNumericFieldMapping()
	length.Index, length.Store, length.IncludeInAll, length.DocValues = false, true, false, false

	dm := bleve.NewDocumentStaticMapping()
	dm.AddFieldMappingsAt(FieldPaperID, keyword())
	dm.AddFieldMappingsAt(FieldPassageID, keyword())
	dm.AddFieldMappingsAt(FieldText, text)
	dm.AddFieldMappingsAt(FieldOrdinal, ordinal)
	dm.AddFieldMappingsAt(FieldLength, length)

	im := bleve.NewIndexMapping()
	im.DefaultMapping = dm
	im.DefaultAnalyzer = AnalyzerName
	im.IndexDynamic, im.StoreDynamic, im.DocValuesDynamic = false, false, false
	im.ScoringModel = index.BM25Scoring
	return im
}

// Mapping returns the index's mapping as stored in the index.
func (b *Bleve) Mapping() mapping.IndexMapping { return b.idx.Mapping() }

// checkMapping refuses an index built with another scoring model or text
// analyzer: its scores would silently not be BM25 over these terms.
func (b *Bleve) checkMapping() error {
	im, ok := b.idx.Mapping().(*mapping.IndexMappingImpl)
	if !ok {
		return fmt.Errorf("bm25: index %s: unexpected mapping type %T", b.dir, b.idx.Mapping())
	}
	if im.ScoringModel != index.BM25Scoring {
		return fmt.Errorf("bm25: index %s scores with %q, not %q: delete it and re-index", b.dir, im.ScoringModel, index.BM25Scoring)
	}
	if a := im.AnalyzerNameForPath(FieldText); a != AnalyzerName {
		return fmt.Errorf("bm25: index %s analyses text with %q, not %q: delete it and re-index", b.dir, a, AnalyzerName)
	}
	return nil
}

func (b *Bleve) loadStats() error {
	n, err := b.idx.DocCount()
	if err != nil {
		return fmt.Errorf("bm25: count %s: %w", b.dir, err)
	}
	raw, err := b.idx.GetInternal([]byte(statsKey))
	if err != nil {
		return fmt.Errorf("bm25: read totals of %s: %w", b.dir, err)
	}
	var st bleveStats
	if raw != nil {
		if err := json.Unmarshal(raw, &st); err != nil {
			return fmt.Errorf("bm25: decode totals of %s: %w", b.dir, err)
		}
	}
	if st.Docs != n {
		// The totals are written in the same batch as the passages, so
		// only an index written by something else gets here: rebuild them
		// once from the stored lengths (one pass over the stored fields).
		if st, err = b.recount(); err != nil {
			return err
		}
	}
	b.stats = st
	return nil
}

// recount rebuilds the totals from the stored lengths of every passage.
func (b *Bleve) recount() (bleveStats, error) {
	var st bleveStats
	var after []string
	for {
		req := bleve.NewSearchRequestOptions(query.NewMatchAllQuery(), 10000, 0, false)
		req.Fields = []string{FieldLength}
		req.SortBy([]string{"_id"})
		req.Score = "none"
		if after != nil {
			req.SetSearchAfter(after)
		}
		res, err := b.idx.Search(req)
		if err != nil {
			return st, fmt.Errorf("bm25: recount %s: %w", b.dir, err)
		}
		for _, h := range res.Hits {
			st.Docs++
			st.Tokens += storedLength(h)
		}
		if len(res.Hits) < 10000 {
			return st, nil
		}
		after = []string{res.Hits[len(res.Hits)-1].ID}
	}
}

func storedLength(h *search.DocumentMatch) uint64 {
	if f, ok := h.Fields[FieldLength].(float64); ok && f > 0 {
		return uint64(f)
	}
	return 0
}

// Name implements retrieve.Retriever.
func (b *Bleve) Name() string { return "bm25" }

// Count returns the number of passages in the index.
func (b *Bleve) Count() (int, error) {
	n, err := b.idx.DocCount()
	if err != nil {
		return 0, fmt.Errorf("bm25: count: %w", err)
	}
	return int(n), nil
}

// Close closes the index. Closing twice is a no-op: scorch itself panics
// on a second close, and deferred closes on error paths make one likely.
func (b *Bleve) Close() error {
	b.closeOnce.Do(func() {
		if err := b.idx.Close(); err != nil {
			b.closeErr = fmt.Errorf("bm25: close %s: %w", b.dir, err)
		}
	})
	return b.closeErr
}

// passageDoc is what the mapping indexes for one passage.
func passageDoc(p corpus.Passage, id string, length int) map[string]any {
	return map[string]any{
		FieldPaperID:   p.PaperID,
		FieldPassageID: id,
		FieldText:      p.Text,
		FieldOrdinal:   float64(p.Ordinal),
		FieldLength:    float64(length),
	}
}

func passageID(p corpus.Passage) string {
	if p.PassageID != "" {
		return p.PassageID
	}
	return corpus.PassageID(p.PaperID, p.Ordinal)
}

// Index adds passages, replacing any already indexed under the same passage
// id (an empty PassageID is derived from PaperID and Ordinal). Passages are
// written in batches; each batch is atomic, so on error the passages of
// earlier batches stay indexed. To replace whole papers, whose new chunking
// may have fewer passages, use ReplacePapers.
func (b *Bleve) Index(ctx context.Context, passages []corpus.Passage) error {
	if err := b.writable(); err != nil {
		return err
	}
	if err := checkPapers(passages); err != nil {
		return err
	}
	b.wmu.Lock()
	defer b.wmu.Unlock()
	return b.indexAll(ctx, len(passages), analyzeRange(passages), nil)
}

// IndexAnalyzed is Index for passages analysed already (with
// TokenizerAnalyzer, the analyzer of the text field): Bleve indexes their
// terms as they are instead of analysing the text again, with the same
// hits and scores.
func (b *Bleve) IndexAnalyzed(ctx context.Context, passages []AnalyzedPassage) error {
	if err := b.writable(); err != nil {
		return err
	}
	if err := checkAnalyzed(passages); err != nil {
		return err
	}
	b.wmu.Lock()
	defer b.wmu.Unlock()
	return b.indexAll(ctx, len(passages), sliceRange(passages), nil)
}

// analyzeRange gives indexAll the passages of a batch, analysed a batch at
// a time so that a large Index call holds one batch's terms at once.
func analyzeRange(ps []corpus.Passage) func(lo, hi int) ([]AnalyzedPassage, error) {
	return func(lo, hi int) ([]AnalyzedPassage, error) { return AnalyzePassages(ps[lo:hi], TokenizerAnalyzer) }
}

func sliceRange(ps []AnalyzedPassage) func(lo, hi int) ([]AnalyzedPassage, error) {
	return func(lo, hi int) ([]AnalyzedPassage, error) { return ps[lo:hi], nil }
}

// checkAnalyzed refuses passages Bleve cannot index as analysed: terms from
// another tokenizer would be searched with the analyzer's query terms.
func checkAnalyzed(ps []AnalyzedPassage) error {
	for _, p := range ps {
		if p.PaperID == "" {
			return fmt.Errorf("bm25: passage %q has no paper id", p.PassageID)
		}
		if p.Tokenizer != TokenizerAnalyzer {
			return fmt.Errorf("bm25: passage %s was analysed with %q; the Bleve index takes %q terms: analyse it with AnalyzePassages(ps, %q)", p.PassageID, p.Tokenizer, TokenizerAnalyzer, TokenizerAnalyzer)
		}
	}
	return nil
}

// ReplacePapers makes passages the whole content of their papers: every
// passage already indexed for one of those papers and absent from passages
// is deleted, in the first batch written, and passages are indexed as by
// Index. It is DeletePaper plus Index for many papers at once, and faster
// than calling those per paper: every Bleve batch is a segment that is
// persisted (fsync) and later merged, and one batch per paper of 50
// passages halved the rate (measured 960 against 2,000 passages/s).
func (b *Bleve) ReplacePapers(ctx context.Context, passages []corpus.Passage) error {
	if err := b.writable(); err != nil {
		return err
	}
	if err := checkPapers(passages); err != nil {
		return err
	}
	b.wmu.Lock()
	defer b.wmu.Unlock()
	ids := make([]corpus.Passage, len(passages))
	for i, p := range passages {
		ids[i] = corpus.Passage{PaperID: p.PaperID, PassageID: passageID(p)}
	}
	return b.replaceAll(ctx, ids, len(passages), analyzeRange(passages))
}

// ReplacePapersAnalyzed is ReplacePapers for passages analysed already, as
// IndexAnalyzed is Index.
func (b *Bleve) ReplacePapersAnalyzed(ctx context.Context, passages []AnalyzedPassage) error {
	if err := b.writable(); err != nil {
		return err
	}
	if err := checkAnalyzed(passages); err != nil {
		return err
	}
	b.wmu.Lock()
	defer b.wmu.Unlock()
	ids := make([]corpus.Passage, len(passages))
	for i, p := range passages {
		ids[i] = corpus.Passage{PaperID: p.PaperID, PassageID: p.PassageID}
	}
	return b.replaceAll(ctx, ids, len(passages), sliceRange(passages))
}

// replaceAll deletes the passages of the papers of ids that ids do not
// name, in the first batch, and indexes the n passages of batches. b.wmu
// must be held.
func (b *Bleve) replaceAll(ctx context.Context, ids []corpus.Passage, n int, batches func(lo, hi int) ([]AnalyzedPassage, error)) error {
	keep := make(map[string]bool, len(ids))
	papers := map[string]bool{}
	for _, p := range ids {
		keep[p.PassageID] = true
		papers[p.PaperID] = true
	}
	var stale []docLength
	for paper := range papers {
		docs, err := b.paperDocs(paper)
		if err != nil {
			return err
		}
		for _, d := range docs {
			if !keep[d.id] {
				stale = append(stale, d)
			}
		}
	}
	return b.indexAll(ctx, n, batches, stale)
}

// writable refuses writes to a read-only index up front: a read-only scorch
// runs no persister, so a batch would wait for a persist that never comes.
func (b *Bleve) writable() error {
	if b.opt.ReadOnly {
		return fmt.Errorf("bm25: %s: %w", b.dir, ErrReadOnly)
	}
	return nil
}

func checkPapers(passages []corpus.Passage) error {
	for _, p := range passages {
		if p.PaperID == "" {
			return fmt.Errorf("bm25: passage %q has no paper id", p.PassageID)
		}
	}
	return nil
}

// docLength is an indexed passage and its stored length.
type docLength struct {
	id     string
	length uint64
}

// indexAll writes n passages in batches (batches(lo, hi) gives passages
// lo to hi, analysed), the first of which also deletes stale. b.wmu must be
// held.
func (b *Bleve) indexAll(ctx context.Context, n int, batches func(lo, hi int) ([]AnalyzedPassage, error), stale []docLength) error {
	for start := 0; start < n || stale != nil; start += b.opt.BatchSize {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("bm25: index: %w", err)
		}
		ps, err := batches(min(start, n), min(start+b.opt.BatchSize, n))
		if err != nil {
			return err
		}
		if err := b.indexBatch(ps, stale); err != nil {
			return err
		}
		stale = nil
	}
	return nil
}

func (b *Bleve) indexBatch(ps []AnalyzedPassage, stale []docLength) error {
	// Within one call the last passage of an id wins, as it would across calls.
	last := make(map[string]int, len(ps))
	ids := make([]string, 0, len(ps))
	for i, p := range ps {
		id := p.PassageID
		if _, ok := last[id]; !ok {
			ids = append(ids, id)
		}
		last[id] = i
	}
	old, err := b.storedLengths(ids)
	if err != nil {
		return err
	}

	b.smu.RLock()
	st := b.stats
	b.smu.RUnlock()
	batch := b.idx.NewBatch()
	for _, d := range stale {
		batch.Delete(d.id)
		st.Docs--
		st.Tokens -= d.length
	}
	for _, id := range ids {
		i := last[id]
		if n, ok := old[id]; ok {
			st.Tokens -= n
		} else {
			st.Docs++
		}
		st.Tokens += uint64(ps[i].FieldLen)
		if err := b.addDoc(batch, &ps[i]); err != nil {
			return fmt.Errorf("bm25: index %s: %w", id, err)
		}
	}
	if err := b.commit(batch, st); err != nil {
		return fmt.Errorf("bm25: index batch of %d passages: %w", len(ids), err)
	}
	return nil
}

// commit writes batch together with the new totals.
func (b *Bleve) commit(batch *bleve.Batch, st bleveStats) error {
	raw, err := json.Marshal(st)
	if err != nil {
		return err
	}
	batch.SetInternal([]byte(statsKey), raw)
	if err := b.idx.Batch(batch); err != nil {
		return err
	}
	b.smu.Lock()
	b.stats = st
	b.smu.Unlock()
	return nil
}

// storedLengths returns the stored length of each id already in the index.
func (b *Bleve) storedLengths(ids []string) (map[string]uint64, error) {
	n, err := b.idx.DocCount()
	if err != nil {
		return nil, fmt.Errorf("bm25: count: %w", err)
	}
	if n == 0 || len(ids) == 0 {
		return nil, nil
	}
	req := bleve.NewSearchRequestOptions(query.NewDocIDQuery(ids), len(ids), 0, false)
	req.Fields = []string{FieldLength}
	req.Score = "none"
	res, err := b.idx.Search(req)
	if err != nil {
		return nil, fmt.Errorf("bm25: look up existing passages: %w", err)
	}
	out := make(map[string]uint64, len(res.Hits))
	for _, h := range res.Hits {
		out[h.ID] = storedLength(h)
	}
	return out, nil
}

// DeletePaper removes every passage of paperID in one batch; an unknown
// paper is not an error.
func (b *Bleve) DeletePaper(paperID string) error {
	if err := b.writable(); err != nil {
		return err
	}
	b.wmu.Lock()
	defer b.wmu.Unlock()
	docs, err := b.paperDocs(paperID)
	if err != nil || len(docs) == 0 {
		return err
	}
	b.smu.RLock()
	st := b.stats
	b.smu.RUnlock()
	batch := b.idx.NewBatch()
	for _, d := range docs {
		batch.Delete(d.id)
		st.Docs--
		st.Tokens -= d.length
	}
	if err := b.commit(batch, st); err != nil {
		return fmt.Errorf("bm25: delete paper %s: %w", paperID, err)
	}
	return nil
}

// paperDocs lists the indexed passages of paperID with their lengths.
func (b *Bleve) paperDocs(paperID string) ([]docLength, error) {
	const page = 10000
	var out []docLength
	var after []string
	for {
		q := query.NewTermQuery(paperID)
		q.SetField(FieldPaperID)
		req := bleve.NewSearchRequestOptions(q, page, 0, false)
		req.Fields = []string{FieldLength}
		req.Score = "none"
		req.SortBy([]string{"_id"})
		if after != nil {
			req.SetSearchAfter(after)
		}
		res, err := b.idx.Search(req)
		if err != nil {
			return nil, fmt.Errorf("bm25: list passages of %s: %w", paperID, err)
		}
		for _, h := range res.Hits {
			out = append(out, docLength{h.ID, storedLength(h)})
		}
		if len(res.Hits) < page {
			return out, nil
		}
		after = []string{res.Hits[len(res.Hits)-1].ID}
	}
}

// Search returns the q.K best passages for q.Text by BM25, within q.PaperID
// when set. The text is analysed like the indexed text and searched as a
// disjunction of its terms, never parsed as Bleve query syntax, so quotes,
// colons and operators in a question are just characters.
func (b *Bleve) Search(ctx context.Context, q retrieve.Query) ([]retrieve.Hit, error) {
	sq, err := b.buildQuery(q)
	if err != nil {
		return nil, err
	}
	// A few hits past k, so that passages tied with the k-th are all seen
	// and the id decides between them, not Bleve's document order.
	req := bleve.NewSearchRequestOptions(sq, q.K+tieSlack, 0, false)
	req.Fields = []string{FieldPaperID, FieldText}
	b.smu.RLock()
	st := b.stats
	b.smu.RUnlock()
	if !b.opt.NativeAvgLen && st.Docs > 0 {
		// Bleve takes avgdl = ceil(FieldCardinality / DocCount) from these
		// statistics when present (they exist for index aliases); giving the
		// token total as the "cardinality" makes it the mean length.
		req.PreSearchData = map[string]any{search.BM25PreSearchDataKey: &search.BM25Stats{
			DocCount: float64(st.Docs),
			FieldCardinality: map[string]int{
				FieldText:    int(st.Tokens),
				FieldPaperID: int(st.Docs), // boost 0: only needs to be present
			},
		}}
	}
	res, err := b.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("bm25: search: %w", err)
	}
	hits := make([]retrieve.Hit, 0, len(res.Hits))
	for _, h := range res.Hits {
		paper, _ := h.Fields[FieldPaperID].(string)
		text, _ := h.Fields[FieldText].(string)
		hits = append(hits, retrieve.Hit{Score: h.Score, PaperID: paper, PassageID: h.ID, Text: text, Retriever: b.Name()})
	}
	sortHits(hits)
	if len(hits) > q.K {
		hits = hits[:q.K]
	}
	for i := range hits {
		hits[i].Rank = i + 1
	}
	return hits, nil
}

// tieSlack is how many hits past k Search asks Bleve for.
const tieSlack = 8

// sortHits orders hits by score, best first, and ties by passage id. Bleve
// breaks ties by segment order, which changes as segments merge, and it
// numbers documents in map order, so the same BM25 sum can come out a few
// ulps apart for two passages with the same terms: scores equal to about
// twelve significant digits count as tied, so the passage id makes results
// reproducible. (Measured: exactly tied passages reordered in 66 of 2,000
// queries on a corpus that repeats sentences.)
func sortHits(hits []retrieve.Hit) {
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := tieKey(hits[i].Score), tieKey(hits[j].Score)
		if a != b {
			return a > b
		}
		return hits[i].PassageID < hits[j].PassageID
	})
}

// tieKey drops the low 12 bits of the mantissa (a relative 1e-12), where
// summation order shows.
func tieKey(score float64) float64 {
	return math.Float64frombits(math.Float64bits(score) &^ 0xfff)
}

// buildQuery turns free text into text-field term queries, one per distinct
// analysed term with the term's query frequency as boost, ANDed with a
// boost-0 paper filter. No query string is ever built: the question's own
// text would be parsed as syntax (a leading '-' excludes, "a:b" names a
// field, an unbalanced quote or parenthesis is an error).
func (b *Bleve) buildQuery(q retrieve.Query) (query.Query, error) {
	if q.K <= 0 {
		return nil, fmt.Errorf("bm25: k=%d: %w", q.K, ErrInvalidK)
	}
	terms, counts := queryTerms(analyze(b.an, q.Text))
	if len(terms) == 0 {
		return nil, fmt.Errorf("bm25: %q: %w", truncate(q.Text, 60), ErrEmptyQuery)
	}
	disj := make([]query.Query, len(terms))
	for i, t := range terms {
		tq := query.NewTermQuery(t)
		tq.SetField(FieldText)
		tq.SetBoost(float64(counts[i]))
		disj[i] = tq
	}
	var sq query.Query = query.NewDisjunctionQuery(disj)
	if q.PaperID != "" {
		pq := query.NewTermQuery(q.PaperID)
		pq.SetField(FieldPaperID)
		pq.SetBoost(0) // filter only: its own BM25 score must not shift the ranking
		sq = query.NewConjunctionQuery([]query.Query{sq, pq})
	}
	return sq, nil
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
