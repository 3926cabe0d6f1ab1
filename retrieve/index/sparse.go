package index

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/bm25"
	"github.com/paperlens/paperlens/retrieve/vector"
)

// BM25 stores (Config.BM25Store, the --bm25-store flag).
const (
	BM25StoreEmbedded = "embedded" // the Okapi file under the home
	BM25StoreQdrant   = "qdrant"   // a sparse collection with Qdrant's IDF modifier
)

// CheckBM25Store validates a Config.BM25Store value.
func CheckBM25Store(name string) error {
	switch name {
	case "", BM25StoreEmbedded, BM25StoreQdrant:
		return nil
	}
	return fmt.Errorf("--bm25-store %q: use embedded (the Okapi file under --home) or qdrant (a sparse collection beside the dense one)", name)
}

// The document side of a sparse BM25 vector is rank_bm25's BM25Okapi term
// weight, as the embedded Okapi scores it: k1 1.5, b 0.75.
const (
	sparseK1 = bm25.DefaultK1
	sparseB  = bm25.DefaultB
)

// sparseBatch is how many passages go to the sparse store per write, from
// as many papers as it takes; each batch's papers are marked once stored,
// so a killed build resumes from the next batch.
const sparseBatch = 2048

// TermID is a term's index in a sparse BM25 vector: FNV-1a (32-bit) of the
// analysed term's UTF-8 bytes. A hash rather than a vocabulary, as
// fastembed's BM25 does (with murmur3), so that any process maps a term
// alike without a shared dictionary; FNV-1a because its definition fixes
// every bit and Go's standard library has it. With 32 bits, a vocabulary of
// a million terms has about a hundred colliding pairs, each then counted as
// one term. Changing it would orphan every vector already stored.
func TermID(term string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(term))
	return h.Sum32()
}

// SparseTerms turns analysed terms into sparse indices and their counts,
// ids in first-occurrence order, colliding terms summed into one id.
func SparseTerms(terms []string) (ids []uint32, counts []float32) {
	at := make(map[uint32]int, len(terms))
	for _, t := range terms {
		id := TermID(t)
		if i, ok := at[id]; ok {
			counts[i]++
			continue
		}
		at[id] = len(ids)
		ids = append(ids, id)
		counts = append(counts, 1)
	}
	return ids, counts
}

// SparseWeights turns a passage's term counts (from SparseTerms) into its
// BM25 term weights in place, tf·(k1+1)/(tf + k1·(1 − b + b·dl/avgdl)) with
// dl the passage's analysed length: the document half of Okapi BM25, which
// Qdrant completes with the query's counts and its IDF.
func SparseWeights(counts []float32, avgdl float64) {
	var dl float64
	for _, c := range counts {
		dl += float64(c)
	}
	norm := sparseK1 * (1 - sparseB + sparseB*dl/avgdl)
	for i, tf := range counts {
		counts[i] = float32(float64(tf) * (sparseK1 + 1) / (float64(tf) + norm))
	}
}

// AnalyzeBM25 is the analysis every BM25 index of paperlens applies
// (bm25.Terms: Bleve's English analyzer, word segmentation, lower case,
// stop words, Porter stemming): the terms of text in order, repeats kept.
func AnalyzeBM25(text string) ([]string, error) { return bm25.Terms(text) }

// sparseMeta is HOME/index/sparse.json: how the vectors in the sparse store
// were made. avgdl is the mean analysed length of the corpus's passages
// when the store was first filled; later updates keep it, so every stored
// vector shares one length normalisation (a rebuild recomputes it).
type sparseMeta struct {
	Version    int     `json:"version"`
	TermHash   string  `json:"term_hash"`
	Analyzer   string  `json:"analyzer"`
	K1         float64 `json:"k1"`
	B          float64 `json:"b"`
	AvgDL      float64 `json:"avgdl"`
	Passages   int     `json:"passages"` // behind avgdl
	Collection string  `json:"collection,omitempty"`
}

const sparseMetaVersion = 1

func (ix *Index) sparseMetaPath() string { return filepath.Join(ix.dir, "sparse.json") }

// wantMeta is the meta of vectors made by this build of paperlens, without
// avgdl.
func wantMeta(collection string) sparseMeta {
	return sparseMeta{Version: sparseMetaVersion, TermHash: "fnv1a32", Analyzer: bm25.AnalyzerName, K1: sparseK1, B: sparseB, Collection: collection}
}

// loadSparseMeta reads the meta; ok is false when there is none, or it
// describes vectors made otherwise (then they are all made again).
func (ix *Index) loadSparseMeta(collection string) (sparseMeta, bool) {
	b, err := os.ReadFile(ix.sparseMetaPath())
	if err != nil {
		return sparseMeta{}, false
	}
	var m sparseMeta
	if json.Unmarshal(b, &m) != nil || m.AvgDL <= 0 {
		return sparseMeta{}, false
	}
	want := wantMeta(collection)
	want.AvgDL, want.Passages = m.AvgDL, m.Passages
	return m, m == want
}

// UsesSparseStore says whether bm25 over the whole corpus is served by the
// remote sparse store (Config.BM25Store "qdrant").
func (ix *Index) UsesSparseStore() bool { return ix.cfg.BM25Store == BM25StoreQdrant }

// openSparse opens the sparse store once; a failure is returned each time
// it is asked for, so a server down at the first query is retried.
func (ix *Index) openSparse(ctx context.Context) (vector.SparseStore, error) {
	ix.sparseMu.Lock()
	defer ix.sparseMu.Unlock()
	if ix.sparse != nil {
		return ix.sparse, nil
	}
	if ix.cfg.OpenSparse == nil {
		return nil, errors.New("--bm25-store qdrant needs a Qdrant server: give --qdrant URL (or set QDRANT_URL)")
	}
	s, err := ix.cfg.OpenSparse(ctx)
	if err != nil {
		return nil, fmt.Errorf("open the BM25 store: %w", err)
	}
	ix.sparse = s
	return s, nil
}

// closeSparse closes the sparse store if it was opened: Close calls it.
func (ix *Index) closeSparse() error {
	ix.sparseMu.Lock()
	defer ix.sparseMu.Unlock()
	if ix.sparse == nil {
		return nil
	}
	err := ix.sparse.Close()
	ix.sparse = nil
	return err
}

// sparseStale says why a paper's state is behind the sparse store, or "".
func (ix *Index) sparseStale(id string, p paperState) string {
	if ix.UsesSparseStore() && !p.Sparse {
		return fmt.Sprintf("paper %s is not in the BM25 store yet", id)
	}
	return ""
}

// forgetSparse drops a paper from the sparse store, for a paper that left
// the corpus. A changed paper need not be: pushSparse deletes a paper's
// old vectors before writing its new ones.
func (ix *Index) forgetSparse(ctx context.Context, id string) error {
	if !ix.UsesSparseStore() || !ix.st.Papers[id].Sparse {
		return nil
	}
	s, err := ix.openSparse(ctx)
	if err != nil {
		return err
	}
	if err := s.DeletePaper(ctx, id); err != nil {
		return fmt.Errorf("remove %s from the BM25 store: %w", id, err)
	}
	return nil
}

// collectionOf names a store's collection, when it has one.
func collectionOf(s vector.SparseStore) string {
	if c, ok := s.(interface{ Collection() string }); ok {
		return c.Collection()
	}
	return ""
}

// pushSparse writes to the sparse store the passages of every paper not
// marked Sparse, sparseBatch passages at a time, marking each batch's
// papers once it is stored, so that a killed build resumes where it
// stopped. The first fill (no sparse.json, or one from another term hash,
// analyzer, k1, b or collection) measures avgdl over the whole corpus,
// empties the store and unmarks every paper. It returns the passages
// written.
func (ix *Index) pushSparse(ctx context.Context, docs []corpus.Document, src *passageSource, saver *stateSaver, progress Progress, touched map[string]bool) (int, error) {
	if !ix.UsesSparseStore() || len(docs) == 0 {
		return 0, nil
	}
	s, err := ix.openSparse(ctx)
	if err != nil {
		return 0, err
	}
	meta, ok := ix.loadSparseMeta(collectionOf(s))
	fresh := !ok
	if fresh {
		if meta, err = ix.startSparse(ctx, s, docs, src, progress); err != nil {
			return 0, err
		}
	}
	todo := 0
	for _, d := range docs {
		if !ix.st.Papers[d.PaperID].Sparse {
			todo++
		}
	}
	written, done := 0, 0
	err = ix.pending(docs, src, func(p paperState) bool { return p.Sparse }, sparseBatch, func(papers []string, ps []corpus.Passage) error {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("index: %w", err)
		}
		if !fresh {
			// A paper not marked may hold vectors of a killed build or
			// of its previous chunking; after a first fill it holds none.
			for _, id := range papers {
				if err := s.DeletePaper(ctx, id); err != nil {
					return fmt.Errorf("remove %s from the BM25 store before writing it: %w", id, err)
				}
			}
		}
		sd, err := sparseDocs(ps, meta.AvgDL)
		if err != nil {
			return err
		}
		if err := s.UpsertSparse(ctx, sd); err != nil {
			return fmt.Errorf("BM25 store, papers %s…%s: %w", papers[0], papers[len(papers)-1], err)
		}
		for _, id := range papers {
			ix.mark(id, func(p *paperState) { p.Sparse = true })
			touched[id] = true
		}
		written += len(sd)
		done += len(papers)
		progress("bm25 store %d/%d papers, %d passages", done, todo, written)
		return saver.marked()
	})
	return written, err
}

// startSparse begins a first fill: avgdl over every passage of the corpus,
// the store emptied, every paper unmarked and saved so, and only then the
// meta written, so that a build killed in between starts over.
func (ix *Index) startSparse(ctx context.Context, s vector.SparseStore, docs []corpus.Document, src *passageSource, progress Progress) (sparseMeta, error) {
	meta := wantMeta(collectionOf(s))
	var terms int
	for _, d := range docs {
		ps, err := src.get(d.PaperID)
		if err != nil {
			return meta, err
		}
		for _, p := range ps {
			ts, err := AnalyzeBM25(p.Text)
			if err != nil {
				return meta, err
			}
			terms += len(ts)
			meta.Passages++
		}
	}
	if meta.Passages == 0 || terms == 0 {
		meta.AvgDL = 1 // no passage has a term: nothing will be written
	} else {
		meta.AvgDL = float64(terms) / float64(meta.Passages)
	}
	progress("bm25 store: avgdl %.1f terms over %d passages", meta.AvgDL, meta.Passages)
	if d, ok := s.(interface{ Drop(context.Context) error }); ok {
		if err := d.Drop(ctx); err != nil {
			return meta, fmt.Errorf("empty the BM25 store for a fresh fill: %w", err)
		}
	}
	for id := range ix.st.Papers {
		ix.mark(id, func(p *paperState) { p.Sparse = false })
	}
	if err := ix.saveState(); err != nil {
		return meta, err
	}
	b, err := json.MarshalIndent(meta, "", " ")
	if err != nil {
		return meta, fmt.Errorf("encode %s: %w", ix.sparseMetaPath(), err)
	}
	if err := renameio.WriteFile(ix.sparseMetaPath(), b, 0o644, renameio.WithTempDir(ix.dir)); err != nil {
		return meta, fmt.Errorf("write %s: %w", ix.sparseMetaPath(), err)
	}
	return meta, nil
}

// sparseDocs encodes passages; one with no term (a row of numbers, only
// stop words) is left out, as no query could match it.
func sparseDocs(ps []corpus.Passage, avgdl float64) ([]vector.SparseDoc, error) {
	out := make([]vector.SparseDoc, 0, len(ps))
	for _, p := range ps {
		ts, err := AnalyzeBM25(p.Text)
		if err != nil {
			return nil, err
		}
		if len(ts) == 0 {
			continue
		}
		ids, vals := SparseTerms(ts)
		SparseWeights(vals, avgdl)
		out = append(out, vector.SparseDoc{ID: p.PassageID, PaperID: p.PaperID, Indices: ids, Values: vals})
	}
	return out, nil
}

// sparseRetriever is bm25 served by the sparse store: the query's analysed
// terms and their counts, scored by the store (BM25 with Qdrant's IDF),
// over the corpus or within q.PaperID.
type sparseRetriever struct{ ix *Index }

// SparseRetriever returns the retriever of the sparse store, or an error
// when the index has none (Config.BM25Store is not "qdrant").
func (ix *Index) SparseRetriever() (retrieve.Retriever, error) {
	if !ix.UsesSparseStore() {
		return nil, errors.New("no BM25 store: index with --bm25-store qdrant")
	}
	return &sparseRetriever{ix: ix}, nil
}

func (r *sparseRetriever) Name() string { return BM25 }

func (r *sparseRetriever) Search(ctx context.Context, q retrieve.Query) ([]retrieve.Hit, error) {
	s, err := r.ix.openSparse(ctx)
	if err != nil {
		return nil, err
	}
	ts, err := AnalyzeBM25(q.Text)
	if err != nil {
		return nil, err
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("bm25: %q: %w", truncate(q.Text, 60), bm25.ErrEmptyQuery)
	}
	ids, counts := SparseTerms(ts)
	ms, err := s.SearchSparse(ctx, ids, counts, q.PaperID, q.K)
	if err != nil {
		return nil, err
	}
	hits := make([]retrieve.Hit, 0, len(ms))
	for i, m := range ms {
		p, err := r.ix.corpus.Passage(m.ID)
		if err != nil {
			return nil, fmt.Errorf("bm25 hit %s: %w (the corpus changed: run 'paperlens index')", m.ID, err)
		}
		hits = append(hits, retrieve.Hit{Rank: i + 1, Score: m.Score, PaperID: m.PaperID, PassageID: m.ID, Text: p.Text})
	}
	return hits, nil
}
