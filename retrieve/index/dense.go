package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/google/renameio/v2"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/embed"
	"github.com/paperlens/paperlens/retrieve/embed/cache"
	"github.com/paperlens/paperlens/retrieve/embed/lsa"
	"github.com/paperlens/paperlens/retrieve/vector"
)

// embedBatch is how many passages go to the embedder at once, from as many
// papers as it takes; each batch is stored before the next, so a failure
// keeps what was done. One store write per paper (a bbolt commit and fsync
// each) held the build of one-passage papers to ~10 passages/s; a remote
// embedder splits the batch into requests itself (--embed-batch).
const embedBatch = 1024

func (ix *Index) vectorDir() string { return filepath.Join(ix.dir, "vectors") }

// family names the embedder a user chose, independent of LSA refits, so a
// change of model is caught while a refit on a grown corpus is not.
func (ix *Index) family() string {
	if ix.cfg.Embedder == "lsa" {
		return "lsa"
	}
	return ix.cfg.Embedder + ":" + ix.cfg.EmbedModel
}

// checkDense refuses, from the state alone, an embedder or store other
// than the one the vectors are in, and an embedder it cannot build.
func (ix *Index) checkDense() error {
	if fam := stateFamily(ix.st.Embedder); fam != "" && fam != ix.family() {
		return fmt.Errorf("the dense index in %s was built with %s; you asked for %s: run 'paperlens index --rebuild' to re-embed, or pass the embedder it was built with",
			ix.dir, fam, ix.family())
	}
	if ix.st.Store != "" && ix.st.Store != ix.cfg.Store {
		return fmt.Errorf("the dense index in %s lives in the %s store; you asked for %s: run 'paperlens index --rebuild --store %s'",
			ix.dir, ix.st.Store, ix.cfg.Store, ix.cfg.Store)
	}
	switch ix.cfg.Embedder {
	case "lsa":
	case "openai":
		if ix.cfg.NewEmbedder == nil {
			return errors.New("embedder openai needs an endpoint: set --embed-base-url (or OPENAI_BASE_URL) and --embed-model")
		}
	default:
		return fmt.Errorf("unknown embedder %q: use lsa (embedded, no download) or openai (any /v1/embeddings endpoint)", ix.cfg.Embedder)
	}
	return nil
}

// ensureDense loads the embedder and opens the vector store, once: at Open
// for a writer, on the first dense or hybrid retriever for a read-only
// index. A failure is kept and returned again, but for a cancelled ctx.
func (ix *Index) ensureDense(ctx context.Context) error {
	ix.denseMu.Lock()
	defer ix.denseMu.Unlock()
	if ix.denseLoaded {
		return ix.denseErr
	}
	err := ix.loadDense(ctx)
	if err != nil && ctx.Err() != nil {
		return err
	}
	ix.denseLoaded, ix.denseErr = true, err
	return err
}

// loadedEmbedder is the embedder if it is loaded, else nil.
func (ix *Index) loadedEmbedder() embed.Embedder {
	ix.denseMu.Lock()
	defer ix.denseMu.Unlock()
	return ix.emb
}

func (ix *Index) loadDense(ctx context.Context) error {
	switch ix.cfg.Embedder {
	case "lsa":
		m, err := lsa.Load(ix.lsaPath())
		if err == nil {
			ix.emb = m
		} else if !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("load LSA model %s: %w (run 'paperlens index --rebuild')", ix.lsaPath(), err)
		}
	case "openai":
		e, err := ix.cfg.NewEmbedder(ctx)
		if err != nil {
			return err
		}
		wrap := cache.Wrap
		if ix.cfg.ReadOnly {
			wrap = cache.WrapReadOnly
		}
		c, err := wrap(e, filepath.Join(ix.dir, "embed-cache.db"))
		if err != nil {
			return fmt.Errorf("open embedding cache: %w", err)
		}
		ix.emb = c
	}
	if ix.cfg.ReadOnly && ix.emb != nil && ix.st.Embedder != "" && ix.st.Embedder != ix.emb.Name() {
		// Stale compares these when the model is loaded; a read-only open
		// loads it only now. Builds write the LSA fit's corpus key after
		// dropping the old vectors, so only a home built before that order
		// gets here.
		return fmt.Errorf("the vectors in %s came from %s, the embedder is %s: run 'paperlens index': %w",
			ix.dir, ix.st.Embedder, ix.emb.Name(), ErrStale)
	}
	if ix.st.Dim > 0 {
		return ix.openStore(ctx, ix.st.Dim)
	}
	return nil
}

func stateFamily(name string) string {
	if name == "" {
		return ""
	}
	if strings.HasPrefix(name, "lsa") {
		return "lsa"
	}
	return name
}

func (ix *Index) openStore(ctx context.Context, dim int) error {
	if ix.vec != nil {
		return nil
	}
	switch ix.cfg.Store {
	case "embedded":
		open := vector.OpenEmbedded
		if ix.cfg.ReadOnly {
			open = vector.OpenEmbeddedReadOnly
		}
		s, err := open(ix.vectorDir())
		if err != nil {
			return fmt.Errorf("open vector store: %w (if the file is damaged, run 'paperlens index --rebuild')", err)
		}
		ix.vec = s
	case "qdrant":
		if ix.cfg.OpenStore == nil {
			return errors.New("store qdrant needs --qdrant URL (or QDRANT_URL)")
		}
		s, err := ix.cfg.OpenStore(ctx, dim)
		if err != nil {
			return err
		}
		ix.vec = s
	default:
		return fmt.Errorf("unknown store %q: use embedded or qdrant", ix.cfg.Store)
	}
	return nil
}

// dropVectors empties the vector store, for a new LSA fit or dimension.
func (ix *Index) dropVectors(ctx context.Context) error {
	if ix.vec != nil {
		if d, ok := ix.vec.(interface{ Drop(context.Context) error }); ok {
			if err := d.Drop(ctx); err != nil {
				return fmt.Errorf("drop vectors: %w", err)
			}
		}
		ix.vec.Close()
		ix.vec = nil
	}
	if ix.cfg.Store == "embedded" {
		if err := os.RemoveAll(ix.vectorDir()); err != nil {
			return fmt.Errorf("drop vectors: %w", err)
		}
	}
	for id := range ix.st.Papers {
		ix.mark(id, func(p *paperState) { p.Dense = false })
	}
	ix.st.Dim, ix.st.Embedder = 0, ""
	return ix.saveState()
}

// corpusKey identifies the set of papers an LSA model was fitted on.
func corpusKey(docs []corpus.Document) string {
	fps := make([]string, len(docs))
	for i, d := range docs {
		fps[i] = d.PaperID + "=" + fingerprint(d)
	}
	sort.Strings(fps)
	sum := sha256.Sum256([]byte(strings.Join(fps, "\n")))
	return hex.EncodeToString(sum[:8])
}

func (ix *Index) lsaKeyPath() string { return ix.lsaPath() + ".corpus" }

// fitResult is an LSA fit run by startFit.
type fitResult struct {
	model *lsa.Model
	key   string // the corpus it was fitted on (corpusKey)
	err   error
}

// startFit starts fitting a new LSA model when the corpus is not the one
// the model was fitted on. The fit has no side effects: a build that fails
// or is cancelled meanwhile returns without waiting for it, and it is
// dropped. It returns nil when no fit is needed.
//
// The fit's memory is bounded by Config.IndexMemory: a corpus whose fit
// lsa.FitBytes estimates within it is fitted whole, passages in corpus
// order, exactly as before; a larger one on an evenly spread sample of
// lsa.FitPassages passages (fitTexts). Passages are read paper by paper
// and only the fitted texts are kept. A whole-corpus fit runs beside the
// sparse build when its estimate is within half the budget (on two idle
// cores the build is 30-45% faster at 5k and 20k documents); a larger or
// sampled one runs before it, so the two never hold more than the budget
// at once.
func (ix *Index) startFit(docs []corpus.Document, progress Progress) (<-chan fitResult, error) {
	if ix.cfg.Embedder != "lsa" || len(docs) == 0 {
		return nil, nil
	}
	key := corpusKey(docs)
	if old, _ := os.ReadFile(ix.lsaKeyPath()); ix.emb != nil && string(old) == key {
		return nil, nil
	}
	budget := ix.cfg.IndexMemory
	if budget <= 0 {
		budget = DefaultIndexMemory
	}
	opts := lsa.Options{Dim: ix.cfg.LSADim}
	total, chars := 0, int64(0)
	for _, d := range docs {
		total += d.Passages
		chars += int64(d.Chars)
	}
	limit := lsa.FitPassages(total, chars, opts, budget)
	texts, err := ix.fitTexts(docs, total, limit)
	if err != nil {
		return nil, err
	}
	sampled := limit < total
	if sampled {
		progress("lsa   fitting on a sample of %d of %d passages (within --index-memory %d MiB)", len(texts), total, budget>>20)
	} else {
		progress("lsa   fitting on %d passages", len(texts))
	}
	out := make(chan fitResult, 1)
	fit := func() {
		m, err := lsa.Fit(texts, opts)
		out <- fitResult{model: m, key: key, err: err}
	}
	// Beside the sparse build only when both fit in the budget together:
	// the sparse build takes up to IndexMemory itself (index/okapi.go).
	if sampled || lsa.FitBytes(total, chars, opts) > budget/2 {
		fit()
	} else {
		go fit()
	}
	return out, nil
}

// fitTexts reads the texts to fit on, paper by paper in corpus order:
// every passage when limit >= total (the corpus's passage count), else
// limit of them spread evenly over the corpus, the i-th passage taken when
// ⌊(i+1)·limit/total⌋ passes an integer. The sample depends only on the
// corpus, so a rebuild fits the same model.
func (ix *Index) fitTexts(docs []corpus.Document, total, limit int) ([]string, error) {
	all := limit >= total
	texts := make([]string, 0, min(limit, total))
	i := int64(0)
	for _, d := range docs {
		if !all && len(texts) >= limit {
			break
		}
		ps, err := ix.corpus.Passages(d.PaperID)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			if all || ((i+1)*int64(limit)/int64(total) > i*int64(limit)/int64(total) && len(texts) < limit) {
				texts = append(texts, p.Text)
			}
			i++
		}
	}
	return texts, nil
}

// updateDense embeds what is not embedded yet. LSA is fitted on the whole
// corpus, so when the corpus changes it is refitted (startFit) and every
// passage is embedded again (cheap: it runs locally); a remote model's
// vectors are cached by text and never recomputed. Passages go to the
// embedder and the store embedBatch at a time, across papers, and each
// batch's papers are marked once it is stored.
func (ix *Index) updateDense(ctx context.Context, docs []corpus.Document, fit <-chan fitResult, src *passageSource, freshStore bool, saver *stateSaver, progress Progress, touched map[string]bool) (int, error) {
	if len(docs) == 0 {
		return 0, nil
	}
	var newKey string
	if fit != nil {
		var r fitResult
		select {
		case r = <-fit:
		case <-ctx.Done():
			return 0, fmt.Errorf("fit LSA: %w", ctx.Err())
		}
		if r.err != nil {
			return 0, fmt.Errorf("fit LSA: %w", r.err)
		}
		if err := r.model.Save(ix.lsaPath()); err != nil {
			return 0, fmt.Errorf("save LSA model: %w", err)
		}
		ix.emb, newKey = r.model, r.key
		// A refit follows a change of papers, whose vectors Update left in
		// the store (forgetDense): they go with the old fit's.
		if ix.st.Embedder != "" {
			if err := ix.dropVectors(ctx); err != nil {
				return 0, err
			}
		}
	}
	if ix.st.Embedder != "" && ix.st.Embedder != ix.emb.Name() {
		if err := ix.dropVectors(ctx); err != nil {
			return 0, err
		}
	}
	if newKey != "" {
		// Written only now that no vector of another fit is left, so that
		// a key that matches the corpus means the vectors are this model's.
		if err := renameio.WriteFile(ix.lsaKeyPath(), []byte(newKey), 0o644, renameio.WithTempDir(ix.dir)); err != nil {
			return 0, fmt.Errorf("save LSA model key %s: %w", ix.lsaKeyPath(), err)
		}
	}
	todo := 0
	for _, d := range docs {
		if !ix.st.Papers[d.PaperID].Dense {
			todo++
		}
	}
	embedded, done := 0, 0
	err := ix.pending(docs, src, func(p paperState) bool { return p.Dense }, embedBatch, func(papers []string, ps []corpus.Passage) error {
		// Passage ids are fixed by a paper's fingerprint, and a paper whose
		// fingerprint changed lost its vectors (forgetDense, dropVectors):
		// vectors a killed build stored are overwritten by id, with no
		// delete per paper.
		if err := ix.embedStore(ctx, papers, ps, !freshStore); err != nil {
			return err
		}
		embedded += len(ps)
		done += len(papers)
		for _, id := range papers {
			ix.mark(id, func(p *paperState) { p.Dense = true })
			touched[id] = true
		}
		progress("dense %d/%d papers to embed, %d passages (%s)", done, todo, embedded, ix.emb.Name())
		return saver.marked()
	})
	return embedded, err
}

// embedStore embeds passages of papers and stores their vectors, first
// deleting any the papers had when the store's content is unknown.
func (ix *Index) embedStore(ctx context.Context, papers []string, ps []corpus.Passage, deleteFirst bool) error {
	if len(ps) == 0 {
		return nil
	}
	span := papers[0]
	if len(papers) > 1 {
		span = fmt.Sprintf("papers %s…%s", papers[0], papers[len(papers)-1])
	}
	texts := make([]string, len(ps))
	for i, p := range ps {
		texts[i] = p.Text
	}
	vecs, err := ix.emb.Embed(ctx, texts, embed.Passage)
	if err != nil {
		return fmt.Errorf("embed %d passages of %s: %w", len(texts), span, err)
	}
	if len(vecs) != len(ps) {
		return fmt.Errorf("embed %d passages of %s: the embedder returned %d vectors", len(texts), span, len(vecs))
	}
	dim := len(vecs[0])
	pts := make([]vector.Point, 0, len(ps))
	for i, p := range ps {
		// A passage with no term the embedder knows (a heading "## 4.2", a
		// row of numbers) embeds to zero, which has no direction: no query
		// can be near it, so it is left out rather than failing the build.
		if !isZero(vecs[i]) {
			pts = append(pts, vector.Point{ID: p.PassageID, PaperID: p.PaperID, Vector: vecs[i]})
		}
	}
	if ix.st.Dim != 0 && ix.st.Dim != dim {
		return fmt.Errorf("the vectors in %s have dimension %d but %s gives %d: run 'paperlens index --rebuild'",
			ix.dir, ix.st.Dim, ix.emb.Name(), dim)
	}
	if err := ix.openStore(ctx, dim); err != nil {
		return err
	}
	if deleteFirst {
		for _, id := range papers {
			if err := ix.vec.DeletePaper(ctx, id); err != nil {
				return fmt.Errorf("remove %s from vectors: %w", id, err)
			}
		}
	}
	if err := ix.vec.Upsert(ctx, pts); err != nil {
		if errors.Is(err, vector.ErrDimension) {
			return fmt.Errorf("%w: run 'paperlens index --rebuild'", err)
		}
		return fmt.Errorf("store vectors of %s: %w", span, err)
	}
	ix.st.Dim, ix.st.Embedder, ix.st.Store = dim, ix.emb.Name(), ix.cfg.Store
	return nil
}

func isZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// denseRetriever embeds the query and searches the vector store.
type denseRetriever struct{ ix *Index }

func (d *denseRetriever) Name() string { return Dense }

func (d *denseRetriever) Search(ctx context.Context, q retrieve.Query) ([]retrieve.Hit, error) {
	ix := d.ix
	if err := ix.ensureDense(ctx); err != nil {
		return nil, err
	}
	if ix.emb == nil || ix.vec == nil {
		return nil, errors.New("no dense index yet: run 'paperlens index'")
	}
	vecs, err := ix.emb.Embed(ctx, []string{q.Text}, embed.Query)
	if err != nil {
		return nil, fmt.Errorf("embed query: %w", err)
	}
	if isZero(vecs[0]) {
		return nil, fmt.Errorf("dense: query %q has no terms the embedder %s knows", truncate(q.Text, 60), ix.emb.Name())
	}
	ms, err := ix.vec.Search(ctx, vecs[0], q.PaperID, q.K)
	if err != nil {
		return nil, err
	}
	hits := make([]retrieve.Hit, 0, len(ms))
	for i, m := range ms {
		// One key lookup per hit: decoding the hit's whole paper for one
		// text was most of a dense search's CPU.
		p, err := ix.corpus.Passage(m.ID)
		if err != nil {
			return nil, fmt.Errorf("dense hit %s: %w (the corpus changed: run 'paperlens index')", m.ID, err)
		}
		hits = append(hits, retrieve.Hit{Rank: i + 1, Score: m.Score, PaperID: m.PaperID, PassageID: m.ID, Text: p.Text, Retriever: Dense})
	}
	return hits, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
