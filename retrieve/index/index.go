// Package index keeps the retrieval indexes of a paperlens home in step with
// its corpus: a Bleve BM25 index, the Okapi scorer (rank_bm25's BM25Okapi,
// behind bm25 by default), and dense vectors from an embedder in a vector
// store. It hands out the retrievers (bm25, bleve, okapi, dense, hybrid)
// that search them.
//
// Progress is recorded per paper and per index in HOME/index/state.json,
// written atomically a batch of papers at a time, so an index build killed
// half-way leaves nothing marked that is not indexed and loses at most the
// batches written since the last save: a paper is searched only once it is
// marked, and the next build redoes whatever is not.
//
// An index opened read-only loads only what its retrievers need, when they
// are first asked for: a bm25 search never reads the LSA model or the vector
// store, and reads the Okapi file only when bm25 means okapi (the default
// within a paper, and always over the whole corpus).
//
// A home is searched read-only (Config.ReadOnly) once its indexes are up to
// date: every file is read under a shared lock or not locked at all, so any
// number of processes can search one home while none writes it. Writers take
// the corpus's writer lock before touching the indexes, which is what keeps
// the unlocked files (state, Okapi, LSA) still under a reader.
package index

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/renameio/v2"
	"golang.org/x/sync/errgroup"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/bm25"
	"github.com/paperlens/paperlens/retrieve/embed"
	"github.com/paperlens/paperlens/retrieve/vector"
)

// Retriever names accepted by Retriever (the --retriever flag).
const (
	BM25   = "bm25"   // the BM25 scorer of the index's Config.BM25 (see DefaultBM25)
	Bleve  = "bleve"  // Bleve's BM25
	Okapi  = "okapi"  // textbook Okapi BM25 (rank_bm25's BM25Okapi)
	Dense  = "dense"  // embedder + vector store
	Hybrid = "hybrid" // reciprocal rank fusion of bm25 and dense
)

// DefaultBM25 is the scorer behind "bm25" within one paper (ElaipBench's
// intra-paper retrieval) when Config.BM25 is empty: Okapi, as ElaipBench
// A.7.1 ranks passages with rank_bm25's BM25Okapi, so that paperlens
// reproduces the benchmark's retrieval unless asked otherwise. Bleve had
// slightly better evidence recall on the sample benchmark (README, "BM25:
// Bleve or Okapi"), and stays one Config.BM25 (--bm25 bleve) away.
const DefaultBM25 = Okapi

// DefaultCorpusBM25 is the scorer behind "bm25" over the whole corpus (a
// query without a paper), whatever Config.BM25 says: ElaipBench never
// searches across papers, so it is picked by latency alone. By bm25's
// BenchmarkCorpusWide at 100k passages, Okapi's corpus-wide postings answer
// in p50 0.47 ms / p99 5.8 ms, Bleve in 7.3 / 62 ms, against a target of
// p99 under 10 ms. The index searches the Okapi file in place, whose
// corpus-wide p99 is 1.1-1.4 times the in-memory Okapi's
// (BenchmarkOkapiFile, SciFact queries at 100k passages: p50 0.38 ms,
// p99 1.3 ms on a quiet machine).
const DefaultCorpusBM25 = Okapi

// ErrBM25 says what Config.BM25 (the --bm25 flag) accepts.
var ErrBM25 = errors.New("use okapi (rank_bm25's BM25Okapi, ElaipBench A.7.1) or bleve")

// CheckBM25 validates a Config.BM25 value: "" (the default), okapi or
// bleve. The error names the --bm25 flag, which is where every value comes
// from outside tests.
func CheckBM25(name string) error {
	switch name {
	case "", Okapi, Bleve:
		return nil
	}
	return fmt.Errorf("--bm25 %q: %w", name, ErrBM25)
}

// bm25Scorer is the scorer "bm25" uses for q.
func (ix *Index) bm25Scorer(q retrieve.Query) string {
	if q.PaperID == "" {
		return DefaultCorpusBM25
	}
	return ix.BM25Scorer()
}

// BM25Scorer is the scorer behind "bm25" (and so hybrid) within one paper:
// Config.BM25, or DefaultBM25 when that is empty. A run records it, since
// it moves every bm25 and hybrid number.
func (ix *Index) BM25Scorer() string {
	if ix.cfg.BM25 == "" {
		return DefaultBM25
	}
	return ix.cfg.BM25
}

// DefaultIndexMemory is Config.IndexMemory's default (--index-memory):
// 512 MiB, whatever the corpus size.
const DefaultIndexMemory int64 = 512 << 20

// Names lists the retriever names.
func Names() []string { return []string{BM25, Bleve, Okapi, Dense, Hybrid} }

// Config says which embedder and vector store to use.
type Config struct {
	Home       string
	Embedder   string // "lsa" (default) or "openai"
	EmbedModel string // for openai: the model name served by the endpoint
	// NewEmbedder builds the embedder for "openai"; the command wires the
	// endpoint, key and batching. Nil means only lsa is available.
	NewEmbedder func(ctx context.Context) (embed.Embedder, error)
	Store       string // "embedded" (default) or "qdrant"
	// OpenStore opens a remote vector store of the given dimension; the
	// command wires Qdrant's URL and collection.
	OpenStore func(ctx context.Context, dim int) (vector.Store, error)
	LSADim    int
	RRFK      int
	// BM25 is the scorer behind "bm25" within one paper, and so behind
	// hybrid and every caller that asks for bm25 (the agent's search_paper,
	// self-route): okapi or bleve, "" for DefaultBM25. It is a setting of
	// the open index rather than a package variable so that two indexes in
	// one process (a sweep, tests run in parallel) can differ. Both scorers
	// are always built, so it changes what is searched, never what is built.
	BM25    string
	Rebuild bool // drop every index and build from scratch
	// IndexMemory bounds the working memory of an Update in bytes (the
	// --index-memory flag), whatever the corpus size; 0 means
	// DefaultIndexMemory.
	IndexMemory int64
	// BM25Store is where corpus-wide BM25 is served from: "embedded" (or
	// "", the default: the Okapi file under the home) or "qdrant" (a
	// sparse collection opened by OpenSparse, beside the dense one).
	BM25Store string
	// OpenSparse opens the remote sparse store for BM25Store "qdrant"; the
	// command wires Qdrant's URL and collection.
	OpenSparse func(ctx context.Context) (vector.SparseStore, error)
	// ReadOnly opens existing indexes for searching only: Bleve and the
	// embedded vector store under shared locks, the embedding cache without
	// storing query vectors, nothing created or rewritten. Any number of
	// read-only opens can share a home while no index build runs; pair it
	// with a read-only corpus. An index that is missing or behind its
	// corpus fails to open with an error wrapping ErrStale, and Update
	// refuses to change anything.
	ReadOnly bool
}

// ErrStale means a read-only open found the indexes missing or behind the
// corpus: open for writing and Update first.
var ErrStale = errors.New("index is not up to date with the corpus")

// state is what has been indexed, per paper.
type state struct {
	Version  int                   `json:"version"`
	Embedder string                `json:"embedder,omitempty"` // Name() of the embedder the vectors came from
	Store    string                `json:"store,omitempty"`
	Dim      int                   `json:"dim,omitempty"`
	Papers   map[string]paperState `json:"papers"`
}

type paperState struct {
	Fingerprint string `json:"fingerprint"`
	Bleve       bool   `json:"bleve"`
	Okapi       bool   `json:"okapi"`
	Dense       bool   `json:"dense"`
	// Sparse says the paper is in the remote sparse store (BM25Store
	// "qdrant").
	Sparse bool `json:"sparse,omitempty"`
}

const stateVersion = 1

// Index is an open set of indexes over one corpus.
type Index struct {
	cfg    Config
	dir    string
	corpus *corpus.Store
	st     state
	// stateFound says state.json existed when the index was opened: only
	// then does every paper an index holds have its entry in st.
	stateFound bool
	bleve      *bm25.Bleve

	// A read-only open loads Okapi, the embedder and the vector store on
	// first use; the mutexes guard that load, the fields are set by it.
	okapiMu     sync.Mutex
	okapi       *bm25.OkapiFile // okapi.go
	okapiErr    error
	denseMu     sync.Mutex
	denseLoaded bool
	denseErr    error
	emb         embed.Embedder
	vec         vector.Store

	// sparse is the remote BM25 store when Config.BM25Store is "qdrant",
	// opened on first use under sparseMu (sparse.go).
	sparseMu sync.Mutex
	sparse   vector.SparseStore

	// sealed says a read-only open found the indexes sealed at the
	// corpus's generation (seal.go): st then holds the header only, and
	// every paper of the corpus is indexed.
	sealed       bool
	sealedPapers int
	sealedGen    uint64
}

// Dir is the index folder inside a home.
func Dir(home string) string { return filepath.Join(home, "index") }

// Open opens (creating when needed) the indexes of a home. It does not
// bring them up to date: call Update.
func Open(ctx context.Context, cfg Config, cs *corpus.Store) (*Index, error) {
	if cfg.Embedder == "" {
		cfg.Embedder = "lsa"
	}
	if cfg.Store == "" {
		cfg.Store = "embedded"
	}
	if err := CheckBM25(cfg.BM25); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	if err := CheckBM25Store(cfg.BM25Store); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	ix := &Index{cfg: cfg, dir: Dir(cfg.Home), corpus: cs}
	if cfg.ReadOnly {
		if cfg.Rebuild {
			return nil, errors.New("index: a rebuild cannot open the index read-only")
		}
		return ix, ix.openReadOnly(ctx)
	}
	if cfg.Rebuild {
		if err := os.RemoveAll(ix.dir); err != nil {
			return nil, fmt.Errorf("rebuild: remove %s: %w", ix.dir, err)
		}
	}
	if err := os.MkdirAll(ix.dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", ix.dir, err)
	}
	// Before anything can change: a writer that dies leaves no seal.
	if err := ix.breakSeal(); err != nil {
		return nil, err
	}
	if err := ix.loadState(); err != nil {
		return nil, err
	}
	var err error
	if ix.bleve, err = bm25.OpenBleveWith(filepath.Join(ix.dir, "bleve"), bm25.BleveOptions{BatchSize: ix.bleveBatch()}); err != nil {
		return nil, fmt.Errorf("open BM25 index: %w", err)
	}
	if err := ix.openOkapi(); err != nil {
		ix.Close()
		return nil, err
	}
	if err := ix.checkDense(); err != nil {
		ix.Close()
		return nil, err
	}
	if err := ix.ensureDense(ctx); err != nil {
		ix.Close()
		return nil, err
	}
	return ix, nil
}

// openReadOnly opens what Open would, changing nothing on disk. Writers of a
// home take the corpus's writer lock before touching the index, so while
// the caller holds the corpus read-only the files read here stay put.
func (ix *Index) openReadOnly(ctx context.Context) (err error) {
	defer func() {
		if err != nil {
			ix.Close()
		}
	}()
	if _, err := os.Stat(ix.statePath()); errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("no index state in %s: %w", ix.dir, ErrStale)
	}
	sealed, err := ix.openSealed()
	if err != nil {
		return err
	}
	if !sealed {
		if err := ix.loadState(); err != nil {
			return err
		}
	}
	bleveDir := filepath.Join(ix.dir, "bleve")
	if ix.bleve, err = bm25.OpenBleveWith(bleveDir, bm25.BleveOptions{ReadOnly: true}); errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("no BM25 index in %s: %w", bleveDir, ErrStale)
	} else if err != nil {
		return fmt.Errorf("open BM25 index: %w", err)
	}
	if _, err := os.Stat(ix.okapiPath()); errors.Is(err, os.ErrNotExist) {
		if sealed { // papers are listed paper by paper below
			ix.sealed = false
			if err := ix.loadState(); err != nil {
				return err
			}
		}
		if err := ix.oldOkapiError(); err != nil {
			return err
		}
		// Update writes the file only once it has a paper to put in it, so
		// an empty corpus has none; Stale catches any paper it should hold.
		if ix.okapi, err = bm25.EmptyOkapiFile(bm25.OkapiOptions{}); err != nil {
			return err
		}
		for id, p := range ix.st.Papers {
			p.Okapi = false
			ix.st.Papers[id] = p
		}
	}
	// The Okapi file, the LSA model and the vectors are read when a
	// retriever needs them (loadOkapi, ensureDense): a bm25 search reads
	// only the Okapi file, and with BM25 bleve a one-paper one reads none.
	if err := ix.checkDense(); err != nil {
		return err
	}
	if ix.sealed {
		return nil
	}
	reason, err := ix.Stale()
	if err != nil {
		return err
	}
	if reason != "" {
		return fmt.Errorf("index in %s: %s: %w", ix.dir, reason, ErrStale)
	}
	return nil
}

// Stale says why Update would change the indexes, or "" when they are up
// to date with the corpus: the same comparison Update makes (per-paper
// fingerprints, every index marked done, the LSA fit's corpus, the
// embedder the vectors came from), without writing anything.
func (ix *Index) Stale() (string, error) {
	if ix.sealed {
		// Searches read ix.sealed concurrently, so it is not changed here.
		// A read-only open holds the corpus's shared lock: no writer can
		// have moved the generation since the open found it sealed.
		gen, err := ix.corpus.Generation()
		if err != nil || gen == ix.sealedGen {
			return "", err
		}
		return "the corpus changed since the indexes were built", nil
	}
	docs, err := ix.corpus.Docs()
	if err != nil {
		return "", err
	}
	in := make(map[string]bool, len(docs))
	for _, d := range docs {
		in[d.PaperID] = true
		p, ok := ix.st.Papers[d.PaperID]
		switch {
		case !ok:
			return fmt.Sprintf("paper %s is not indexed", d.PaperID), nil
		case p.Fingerprint != fingerprint(d):
			return fmt.Sprintf("paper %s changed since it was indexed", d.PaperID), nil
		case !p.Bleve || !p.Okapi || !p.Dense:
			return fmt.Sprintf("paper %s is not in every index yet", d.PaperID), nil
		case ix.sparseStale(d.PaperID, p) != "":
			return ix.sparseStale(d.PaperID, p), nil
		}
	}
	for id := range ix.st.Papers {
		if !in[id] {
			return fmt.Sprintf("paper %s left the corpus", id), nil
		}
	}
	if len(docs) == 0 {
		return "", nil
	}
	emb := ix.loadedEmbedder()
	if ix.cfg.Embedder == "lsa" {
		// A read-only open has not loaded the model: that the file exists
		// is enough here, and ensureDense checks the rest when it loads it.
		if _, err := os.Stat(ix.lsaPath()); emb == nil && err != nil {
			return "no LSA model yet", nil
		}
		if old, _ := os.ReadFile(ix.lsaKeyPath()); string(old) != corpusKey(docs) {
			return "the LSA model was fitted on another set of papers", nil
		}
	}
	if ix.st.Embedder != "" && emb != nil && ix.st.Embedder != emb.Name() {
		return fmt.Sprintf("the vectors came from %s, the embedder is %s", ix.st.Embedder, emb.Name()), nil
	}
	return "", nil
}

// Summary describes the open indexes the way Update's report does, for a
// caller that did not need to update them.
func (ix *Index) Summary() Report {
	rep := Report{Papers: len(ix.st.Papers), Embedder: ix.cfg.Embedder, Store: ix.cfg.Store, Dim: ix.st.Dim}
	if ix.sealed {
		rep.Papers = ix.sealedPapers
	}
	if emb := ix.loadedEmbedder(); emb != nil {
		rep.Embedder = emb.Name()
	} else if ix.st.Embedder != "" {
		// Not loaded yet (a read-only open): the vectors' embedder, which
		// an index that is up to date has loaded under this name.
		rep.Embedder = ix.st.Embedder
	}
	return rep
}

func (ix *Index) statePath() string { return filepath.Join(ix.dir, "state.json") }
func (ix *Index) lsaPath() string   { return filepath.Join(ix.dir, "lsa.model") }

func (ix *Index) loadState() error {
	ix.st = state{Version: stateVersion, Papers: map[string]paperState{}}
	b, err := os.ReadFile(ix.statePath())
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	ix.stateFound = err == nil
	if err != nil {
		return fmt.Errorf("read index state: %w", err)
	}
	if err := json.Unmarshal(b, &ix.st); err != nil || ix.st.Version != stateVersion {
		return fmt.Errorf("index state %s is unreadable or from another version: run 'paperlens index --rebuild'", ix.statePath())
	}
	if ix.st.Papers == nil {
		ix.st.Papers = map[string]paperState{}
	}
	return nil
}

// saveState writes the state atomically: a crash leaves the old or the new
// file, never half of one. It costs a pass over every paper, so a build
// calls it through a stateSaver, not after each paper.
func (ix *Index) saveState() error {
	b, err := json.MarshalIndent(ix.st, "", " ")
	if err != nil {
		return fmt.Errorf("encode index state: %w", err)
	}
	if err := renameio.WriteFile(ix.statePath(), b, 0o644, renameio.WithTempDir(ix.dir)); err != nil {
		return fmt.Errorf("write index state %s: %w", ix.statePath(), err)
	}
	ix.stateFound = true
	return nil
}

// Saving the state is O(papers), so saving it after every paper made a
// build quadratic (5,000 one-passage papers: 500 s). A stateSaver saves at
// most every saveEvery, and never more often than saveCostFactor times the
// last save took, which keeps saving under ~5% of a build of any size while
// a killed build loses only the last few seconds of marks.
const (
	saveEvery      = 2 * time.Second
	saveCostFactor = 20
)

type stateSaver struct {
	ix    *Index
	dirty bool
	last  time.Time
	cost  time.Duration
}

func (ix *Index) newSaver() *stateSaver { return &stateSaver{ix: ix, last: time.Now()} }

// marked records that the state changed, and saves it when it is due.
func (s *stateSaver) marked() error {
	s.dirty = true
	if time.Since(s.last) < max(saveEvery, saveCostFactor*s.cost) {
		return nil
	}
	return s.flush()
}

// flush saves the state now if it changed since the last save.
func (s *stateSaver) flush() error {
	if !s.dirty {
		return nil
	}
	start := time.Now()
	if err := s.ix.saveState(); err != nil {
		return err
	}
	s.last = time.Now()
	s.cost, s.dirty = s.last.Sub(start), false
	return nil
}

// Close releases every index.
func (ix *Index) Close() error {
	var errs []error
	if ix.bleve != nil {
		errs = append(errs, ix.bleve.Close())
	}
	if o := ix.currentOkapi(); o != nil {
		errs = append(errs, o.Close())
	}
	ix.denseMu.Lock()
	defer ix.denseMu.Unlock()
	if ix.vec != nil {
		errs = append(errs, ix.vec.Close())
	}
	if c, ok := ix.emb.(interface{ Close() error }); ok {
		errs = append(errs, c.Close())
	}
	errs = append(errs, ix.closeSparse())
	return errors.Join(errs...)
}

// fingerprint changes whenever a paper's passages may have changed. The
// drop setting is added only when recorded, so that papers stored before
// it existed keep their fingerprints.
func fingerprint(d corpus.Document) string {
	fp := fmt.Sprintf("%s/%s/%d/%d", d.SourceHash, d.Extractor, d.MaxTokens, d.Passages)
	if d.Drop != "" {
		fp += "/drop=" + d.Drop
	}
	return fp
}

// Report says what an Update did.
type Report struct {
	Papers   int    `json:"papers"`
	Indexed  int    `json:"indexed"` // papers (re)indexed in at least one index
	Removed  int    `json:"removed"`
	Passages int    `json:"passages"` // passages written to any index
	Embedder string `json:"embedder"`
	Store    string `json:"store"`
	Dim      int    `json:"dim"`
	Embedded int    `json:"embedded"` // passages embedded (cache misses included)
}

// Progress receives a line of progress for long work.
type Progress func(format string, args ...any)

// Update brings every index in step with the corpus: papers that are new or
// changed are (re)indexed, papers no longer in the corpus are removed.
//
// Each index takes papers a batch at a time (bm25.DefaultBatchSize passages
// for Bleve, whose every batch is a segment to persist and merge;
// embedBatch passages for the dense side), and the state is saved through a
// stateSaver, so the work per passage does not grow with the corpus. The
// state is saved on every return, an error or cancelled ctx included: what
// was marked is indexed, and the next Update goes on from there.
func (ix *Index) Update(ctx context.Context, progress Progress) (rep Report, err error) {
	if ix.cfg.ReadOnly {
		return ix.readOnlyUpdate()
	}
	if progress == nil {
		progress = func(string, ...any) {}
	}
	defer ix.softMemoryLimit()()
	docs, err := ix.corpus.Docs()
	if err != nil {
		return Report{}, err
	}
	rep = Report{Papers: len(docs)}
	freshStore, err := ix.dropUnknownVectors()
	if err != nil {
		return rep, err
	}
	want := make(map[string]string, len(docs))
	for _, d := range docs {
		want[d.PaperID] = fingerprint(d)
	}
	if rep.Removed, err = ix.forgetOld(ctx, want); err != nil {
		return rep, err
	}
	fresh, err := ix.listNew(docs, want)
	if err != nil {
		return rep, err
	}
	saver := ix.newSaver()
	defer func() {
		if ferr := saver.flush(); ferr != nil {
			err = errors.Join(err, ferr)
		}
	}()

	touched := map[string]bool{}
	src := &passageSource{corpus: ix.corpus}
	// The LSA fit reads only the passages it fits on, within IndexMemory;
	// a small fit runs beside the sparse indexes, a large or sampled one
	// before them (startFit).
	fit, err := ix.startFit(docs, progress)
	if err != nil {
		return rep, err
	}
	n, err := ix.updateSparse(ctx, docs, fresh, src, saver, progress, touched)
	rep.Passages += n
	if err != nil {
		return rep, err
	}
	n, err = ix.pushSparse(ctx, docs, src, saver, progress, touched)
	rep.Passages += n
	if err != nil {
		return rep, err
	}
	n, err = ix.updateDense(ctx, docs, fit, src, freshStore, saver, progress, touched)
	rep.Embedded = n
	if err != nil {
		return rep, err
	}
	rep.Indexed = len(touched)
	rep.Embedder, rep.Store, rep.Dim = ix.cfg.Embedder, ix.cfg.Store, ix.st.Dim
	if ix.emb != nil {
		rep.Embedder = ix.emb.Name()
	}
	return rep, ix.writeSeal(saver)
}

// readOnlyUpdate is Update on an index open read-only: Open checked it
// was up to date, and the caller's read-only corpus keeps it so. There is
// nothing to do, and nothing may be written; a stale index is an error.
func (ix *Index) readOnlyUpdate() (Report, error) {
	reason, err := ix.Stale()
	if err != nil {
		return Report{}, err
	}
	if reason != "" {
		return Report{}, fmt.Errorf("index in %s is open read-only and %s: run 'paperlens index': %w", ix.dir, reason, ErrStale)
	}
	return ix.Summary(), nil
}

// dropUnknownVectors handles a missing state file: nothing is then known
// of vectors already stored (a state deleted by hand), so those of the
// embedded store go, and each paper's are deleted from a remote one before
// it is embedded again. It reports whether the vector store starts empty.
func (ix *Index) dropUnknownVectors() (freshStore bool, err error) {
	if ix.stateFound || ix.cfg.Store != "embedded" {
		return ix.stateFound, nil
	}
	if err := os.RemoveAll(ix.vectorDir()); err != nil {
		return false, fmt.Errorf("drop vectors of unknown origin: %w", err)
	}
	return true, nil
}

// stalePapers compares the state with the corpus's fingerprints (want):
// the papers gone from the corpus and those changed, each sorted.
func (ix *Index) stalePapers(want map[string]string) (gone, changed []string) {
	for id, p := range ix.st.Papers {
		if fp, ok := want[id]; !ok {
			gone = append(gone, id)
		} else if fp != p.Fingerprint {
			changed = append(changed, id)
		}
	}
	sort.Strings(gone)
	sort.Strings(changed)
	return gone, changed
}

// forgetOld forgets papers that left the corpus, and returns how many; a
// changed paper is forgotten by every index but Bleve, whose ReplacePapers
// drops its old passages in the batch that writes the new ones.
func (ix *Index) forgetOld(ctx context.Context, want map[string]string) (removed int, err error) {
	gone, changed := ix.stalePapers(want)
	for _, id := range gone {
		if err := ix.removePaper(ctx, id); err != nil {
			return removed, err
		}
		removed++
	}
	for _, id := range changed {
		if err := ix.forgetDense(ctx, id); err != nil {
			return removed, err
		}
		// The Okapi file keeps the paper until updateSparse writes a new
		// one, which keeps only the papers still marked (okapi.go).
		ix.st.Papers[id] = paperState{Fingerprint: want[id]}
	}
	return removed, nil
}

// listNew lists the corpus's new papers in the state, and saves it, so
// that whatever a killed build writes is under a paper the next one knows.
// It returns the papers Bleve cannot hold yet (fresh): new to a state that
// lists every paper an index was given, or to an empty index, Bleve adds
// them without looking for old passages.
func (ix *Index) listNew(docs []corpus.Document, want map[string]string) (map[string]bool, error) {
	n, err := ix.bleve.Count()
	if err != nil {
		return nil, err
	}
	fresh := map[string]bool{}
	for _, d := range docs {
		if _, ok := ix.st.Papers[d.PaperID]; !ok {
			ix.st.Papers[d.PaperID] = paperState{Fingerprint: want[d.PaperID]}
			fresh[d.PaperID] = ix.stateFound || n == 0
		}
	}
	if err := ix.saveState(); err != nil {
		return nil, err
	}
	return fresh, nil
}

// passageSource reads papers' passages from the corpus, a paper at a
// time, so that no index build holds the corpus.
type passageSource struct {
	corpus *corpus.Store
}

func (s *passageSource) get(paperID string) ([]corpus.Passage, error) {
	return s.corpus.Passages(paperID)
}

// pending yields, a batch at a time, the passages of the papers that are not
// marked done for one index, in corpus order: whole papers, at most size
// passages a batch unless one paper has more.
func (ix *Index) pending(docs []corpus.Document, src *passageSource, done func(paperState) bool, size int, fn func(papers []string, ps []corpus.Passage) error) error {
	var papers []string
	var ps []corpus.Passage
	for _, d := range docs {
		if done(ix.st.Papers[d.PaperID]) {
			continue
		}
		got, err := src.get(d.PaperID)
		if err != nil {
			return err
		}
		if len(ps) > 0 && len(ps)+len(got) > size {
			if err := fn(papers, ps); err != nil {
				return err
			}
			papers, ps = nil, nil
		}
		papers = append(papers, d.PaperID)
		ps = append(ps, got...)
	}
	if len(papers) > 0 {
		return fn(papers, ps)
	}
	return nil
}

// updateSparse indexes the papers Bleve or Okapi lacks, reading and
// analysing each once (bm25.AnalyzePassages) for both: into Bleve a batch
// at a time, each marked once written; into a new Okapi file through a
// bm25.OkapiWriter seeded with the papers the old one keeps, written at
// the end and only then marked. Working memory is bounded by
// Config.IndexMemory: a Bleve batch (bleveBatch) and the Okapi writer's
// buffer (okapiBudget), whatever the corpus size.
func (ix *Index) updateSparse(ctx context.Context, docs []corpus.Document, fresh map[string]bool, src *passageSource, saver *stateSaver, progress Progress, touched map[string]bool) (int, error) {
	written, todo, done := 0, 0, 0
	for _, d := range docs {
		if !ix.st.Papers[d.PaperID].Bleve {
			todo++
		}
	}
	var okw *bm25.OkapiWriter
	if ix.okapiStale(docs) {
		var err error
		if okw, err = ix.newOkapiWriter(); err != nil {
			return 0, err
		}
		defer okw.Abort() // removes its runs unless finished
	}
	var okapiAdded []string
	sparseDone := func(p paperState) bool { return p.Bleve && p.Okapi }
	err := ix.pending(docs, src, sparseDone, ix.bleveBatch(), func(papers []string, ps []corpus.Passage) error {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("index: %w", err)
		}
		n, err := ix.bm25Batch(ctx, papers, ps, fresh, okw)
		if err != nil {
			return err
		}
		// A paper with no passages is in no batch, yet done.
		bleveNew := 0
		for _, id := range papers {
			if !ix.st.Papers[id].Okapi {
				okapiAdded = append(okapiAdded, id)
			}
			if !ix.st.Papers[id].Bleve {
				ix.mark(id, func(p *paperState) { p.Bleve = true })
				touched[id] = true
				bleveNew++
			}
		}
		if bleveNew > 0 {
			done += bleveNew
			written += n
			progress("bm25  %d/%d papers to index, %d passages", done, todo, written)
		}
		return saver.marked()
	})
	if err != nil {
		return written, err
	}
	if okw != nil {
		progress("okapi %d papers", len(okapiAdded))
		if err := ix.finishOkapi(ctx, okw); err != nil {
			return written, err
		}
	}
	// Without a writer, the papers left to mark have no passages: the
	// file need not hold them.
	for _, id := range okapiAdded {
		ix.mark(id, func(p *paperState) { p.Okapi = true })
		touched[id] = true
	}
	return written, saver.flush()
}

// bm25Batch analyses a batch of papers' passages once and gives them to
// Bleve (the papers it lacks) and to the Okapi writer (the papers not
// marked Okapi), side by side. It returns the passages written to Bleve.
func (ix *Index) bm25Batch(ctx context.Context, papers []string, ps []corpus.Passage, fresh map[string]bool, okw *bm25.OkapiWriter) (int, error) {
	span := fmt.Sprintf("papers %s…%s", papers[0], papers[len(papers)-1])
	aps, err := bm25.AnalyzePassages(ps, bm25.TokenizerAnalyzer)
	if err != nil {
		return 0, fmt.Errorf("analyse %s: %w", span, err)
	}
	// A paper Bleve may hold (a build killed before marking it, a paper
	// re-chunked since) has its old passages replaced; a fresh one is only
	// added, which spares a lookup per paper.
	var add, replace, okapi []bm25.AnalyzedPassage
	for _, p := range aps {
		st := ix.st.Papers[p.PaperID]
		switch {
		case st.Bleve:
		case fresh[p.PaperID]:
			add = append(add, p)
		default:
			replace = append(replace, p)
		}
		if !st.Okapi && okw != nil {
			okapi = append(okapi, p)
		}
	}
	// The Okapi writer takes the batch while Bleve writes it: Bleve's
	// segment build is long and mostly serial.
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		if len(replace) > 0 {
			if err := ix.bleve.ReplacePapersAnalyzed(gctx, replace); err != nil {
				return fmt.Errorf("BM25 index %s: %w", span, err)
			}
		}
		if len(add) > 0 {
			if err := ix.bleve.IndexAnalyzed(gctx, add); err != nil {
				return fmt.Errorf("BM25 index %s: %w", span, err)
			}
		}
		return nil
	})
	g.Go(func() error {
		order, by := analysedByPaper(okapi)
		for _, id := range order {
			if err := okw.AddPaper(id, by[id]); err != nil {
				return fmt.Errorf("okapi index %s: %w", span, err)
			}
		}
		return nil
	})
	return len(add) + len(replace), g.Wait()
}

func (ix *Index) mark(id string, f func(*paperState)) {
	p := ix.st.Papers[id]
	f(&p)
	ix.st.Papers[id] = p
}

// removePaper takes a paper that left the corpus out of Bleve, the vectors
// and the state. The Okapi file drops it when updateSparse writes the next
// one, which keeps only papers the state marks (okapiStale sees the file
// holds more papers than are marked).
func (ix *Index) removePaper(ctx context.Context, id string) error {
	if err := ix.bleve.DeletePaper(id); err != nil {
		return fmt.Errorf("remove %s from BM25: %w", id, err)
	}
	if err := ix.forgetDense(ctx, id); err != nil {
		return err
	}
	if err := ix.forgetSparse(ctx, id); err != nil {
		return err
	}
	delete(ix.st.Papers, id)
	return nil
}

// forgetDense drops a paper's vectors. With LSA there is nothing to do:
// the corpus changed, so the model is refitted and every vector dropped
// before any is written again (updateDense writes the fit's corpus key
// only after that drop, so a killed build refits too).
func (ix *Index) forgetDense(ctx context.Context, id string) error {
	if ix.vec == nil || ix.cfg.Embedder == "lsa" {
		return nil
	}
	if err := ix.vec.DeletePaper(ctx, id); err != nil {
		return fmt.Errorf("remove %s from vectors: %w", id, err)
	}
	return nil
}

// Has reports whether a paper is in the corpus.
func (ix *Index) Has(paperID string) bool {
	_, err := ix.corpus.Doc(paperID)
	return err == nil
}

// Retriever returns a retriever by name. The okapi, dense and hybrid
// retrievers of a read-only index load their files here, the first time
// one is asked for; a file that cannot be read fails them and no other.
func (ix *Index) Retriever(name string) (retrieve.Retriever, error) {
	var r retrieve.Retriever
	switch name {
	case BM25:
		r = &bm25Router{ix: ix}
	case Bleve:
		r = ix.bleve
	case Okapi:
		if _, err := ix.loadOkapi(); err != nil {
			return nil, err
		}
		r = okapiRetriever{ix}
	case Dense:
		if err := ix.ensureDense(context.Background()); err != nil {
			return nil, err
		}
		r = &denseRetriever{ix: ix}
	case Hybrid:
		bm, err := ix.Retriever(BM25)
		if err != nil {
			return nil, err
		}
		if err := ix.ensureDense(context.Background()); err != nil {
			return nil, err
		}
		r = &retrieve.Hybrid{Parts: []retrieve.Retriever{bm, &denseRetriever{ix: ix}}, K: ix.cfg.RRFK}
	default:
		return nil, fmt.Errorf("unknown retriever %q: use one of %s", name, strings.Join(Names(), ", "))
	}
	return &checked{Retriever: r, ix: ix, label: name}, nil
}

// bm25Router is "bm25": one paper's queries go to the index's BM25Scorer,
// corpus-wide ones to DefaultCorpusBM25, each loaded when first needed.
type bm25Router struct{ ix *Index }

func (b *bm25Router) Name() string { return BM25 }

func (b *bm25Router) Search(ctx context.Context, q retrieve.Query) ([]retrieve.Hit, error) {
	// Corpus-wide bm25 is the cluster's when BM25 lives on Qdrant; within
	// a paper it stays --bm25's scorer, with the paper's own statistics
	// (ElaipBench A.7.1).
	if q.PaperID == "" && b.ix.UsesSparseStore() {
		return (&sparseRetriever{ix: b.ix}).Search(ctx, q)
	}
	r, err := b.ix.Retriever(b.ix.bm25Scorer(q))
	if err != nil {
		return nil, err
	}
	return r.Search(ctx, q)
}

// checked validates queries once for every retriever, so they all refuse
// the same bad input with the same words.
type checked struct {
	retrieve.Retriever
	ix    *Index
	label string
}

func (c *checked) Name() string { return c.label }

func (c *checked) Search(ctx context.Context, q retrieve.Query) ([]retrieve.Hit, error) {
	if q.K <= 0 {
		return nil, fmt.Errorf("k must be at least 1, got %d", q.K)
	}
	if strings.TrimSpace(q.Text) == "" {
		return nil, errors.New("empty query: give the question text")
	}
	if q.PaperID != "" && !c.ix.Has(q.PaperID) {
		return nil, fmt.Errorf("no paper %q in the corpus; 'paperlens papers' lists the ids", q.PaperID)
	}
	if q.PaperID != "" && !c.ix.ready(q.PaperID, c.label, q) {
		return nil, fmt.Errorf("paper %q is not indexed for %s yet: run 'paperlens index'", q.PaperID, c.label)
	}
	var hits []retrieve.Hit
	var err error
	if len(q.Exclude) == 0 {
		hits, err = c.Retriever.Search(ctx, q)
	} else {
		hits, err = c.searchExcluding(ctx, q)
	}
	if err != nil {
		return nil, err
	}
	if q.PaperID == "" {
		// A paper whose indexing was interrupted may be partly in an index;
		// it is not searched until it is marked done.
		kept := hits[:0]
		for _, h := range hits {
			if c.ix.ready(h.PaperID, c.label, q) {
				kept = append(kept, h)
			}
		}
		hits = kept
	}
	for i := range hits {
		hits[i].Rank = i + 1
		if hits[i].Retriever == "" {
			hits[i].Retriever = c.label
		}
	}
	return hits, nil
}

// searchExcluding answers a query that leaves some passage kinds out. The
// indexes do not hold kinds, so it asks for more hits than q.K and drops
// the excluded ones, asking again for four times as many while fewer than
// q.K are left and the retriever had more to give: the result holds q.K
// hits whenever that many passages of the other kinds match. Kinds are
// read from the corpus, a paper at a time, once per open index.
func (c *checked) searchExcluding(ctx context.Context, q retrieve.Query) ([]retrieve.Hit, error) {
	ex := kind.NewSet(q.Exclude)
	want := q.K
	q.K = 2*want + 8
	for {
		hits, err := c.Retriever.Search(ctx, q)
		if err != nil {
			return nil, err
		}
		kept := make([]retrieve.Hit, 0, want)
		for _, h := range hits {
			k, err := c.ix.kindOf(h.PassageID)
			if err != nil {
				return nil, err
			}
			if !ex.Has(k) {
				kept = append(kept, h)
				if len(kept) == want {
					break
				}
			}
		}
		if len(kept) == want || len(hits) < q.K {
			return kept, nil
		}
		q.K *= 4
	}
}

// WithKinds returns r with each hit's Kind filled from the corpus (body
// when the corpus does not say), for output that shows what a passage is.
// Each hit's kind is one key lookup in the corpus.
func (ix *Index) WithKinds(r retrieve.Retriever) retrieve.Retriever {
	return kinded{Retriever: r, ix: ix}
}

type kinded struct {
	retrieve.Retriever
	ix *Index
}

func (k kinded) Search(ctx context.Context, q retrieve.Query) ([]retrieve.Hit, error) {
	hits, err := k.Retriever.Search(ctx, q)
	if err != nil {
		return nil, err
	}
	for i := range hits {
		if hits[i].Kind, err = k.ix.kindOf(hits[i].PassageID); err != nil {
			return nil, err
		}
	}
	return hits, nil
}

// kindOf is the kind of a passage, from the corpus: body when the corpus
// does not know it. One key lookup per hit: reading the hit's whole paper
// (and caching its kinds) cost most of a corpus-wide bm25 search's CPU, and
// a cache that grew with every paper a long batch touched.
func (ix *Index) kindOf(passageID string) (kind.Kind, error) {
	p, err := ix.corpus.Passage(passageID)
	if errors.Is(err, corpus.ErrNotFound) {
		return kind.Body, nil
	}
	if err != nil {
		return "", fmt.Errorf("passage kind of %s: %w", passageID, err)
	}
	return p.KindOf(), nil
}

// ready reports whether a paper is fully indexed for a retriever answering
// q (for bm25, the scorer that serves q).
func (ix *Index) ready(paperID, name string, q retrieve.Query) bool {
	if ix.sealed {
		// Sealed at the corpus's generation: every index holds every
		// paper of the corpus (checked.Search asks Has first).
		return true
	}
	p, ok := ix.st.Papers[paperID]
	if !ok {
		return false
	}
	if name == BM25 && q.PaperID == "" && ix.UsesSparseStore() {
		return p.Sparse
	}
	if name == BM25 {
		name = ix.bm25Scorer(q)
	}
	switch name {
	case Bleve:
		return p.Bleve
	case Okapi:
		return p.Okapi
	case Dense:
		return p.Dense
	case Hybrid:
		return p.Dense && ix.ready(paperID, BM25, q)
	}
	return false
}
