package index

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// seal is HOME/index/sealed.json: written when an Update leaves every
// index up to date with the corpus, and removed before anything changes
// them. It records the corpus's generation then, so that a read-only open
// knows the indexes are current from two small reads, instead of
// decoding every paper's record and the whole state file (at a million
// passages, 33k records and 6 MB of JSON: most of a search process's
// start).
type seal struct {
	Version    int    `json:"version"`
	Generation uint64 `json:"corpus_generation"`
	Papers     int    `json:"papers"`
	Embedder   string `json:"embedder,omitempty"`
	Store      string `json:"store,omitempty"`
	Dim        int    `json:"dim,omitempty"`
	BM25Store  string `json:"bm25_store,omitempty"`
}

func (ix *Index) sealPath() string { return filepath.Join(ix.dir, "sealed.json") }

// breakSeal removes the seal: a writable open calls it before anything
// can change an index.
func (ix *Index) breakSeal() error {
	if err := os.Remove(ix.sealPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("index: remove %s: %w", ix.sealPath(), err)
	}
	return nil
}

// writeSeal seals the indexes if Stale finds nothing to do; the state is
// saved first, so a seal never names indexes the state does not.
func (ix *Index) writeSeal(saver *stateSaver) error {
	if err := saver.flush(); err != nil {
		return err
	}
	gen, err := ix.corpus.Generation()
	if err != nil {
		return err
	}
	if reason, err := ix.Stale(); err != nil || reason != "" {
		return err
	}
	b, err := json.Marshal(seal{Version: stateVersion, Generation: gen, Papers: len(ix.st.Papers),
		Embedder: ix.st.Embedder, Store: ix.st.Store, Dim: ix.st.Dim, BM25Store: ix.cfg.BM25Store})
	if err != nil {
		return err
	}
	if err := renameio.WriteFile(ix.sealPath(), b, 0o644, renameio.WithTempDir(ix.dir)); err != nil {
		return fmt.Errorf("index: write %s: %w", ix.sealPath(), err)
	}
	return nil
}

// openSealed reports whether the indexes are sealed at the corpus's
// current generation, with the same BM25 store; if so the state's header
// comes from the seal, and every paper of the corpus counts as indexed
// (ready). Anything else (no seal, an unreadable one, another generation)
// is false: the open then checks paper by paper.
func (ix *Index) openSealed() (bool, error) {
	b, err := os.ReadFile(ix.sealPath())
	if err != nil {
		return false, nil
	}
	var s seal
	if json.Unmarshal(b, &s) != nil || s.Version != stateVersion || s.BM25Store != ix.cfg.BM25Store {
		return false, nil
	}
	gen, err := ix.corpus.Generation()
	if err != nil {
		return false, err
	}
	if gen != s.Generation {
		return false, nil
	}
	ix.st = state{Version: s.Version, Embedder: s.Embedder, Store: s.Store, Dim: s.Dim}
	ix.stateFound, ix.sealed, ix.sealedPapers, ix.sealedGen = true, true, s.Papers, s.Generation
	return true, nil
}
