package index

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/bm25"
)

// The Okapi index is one file, okapi.idx (bm25.OkapiFileFormat), searched
// in place through a memory mapping: a search process opens it in constant
// time and memory, however large the corpus. An Update that changes which
// papers it holds writes a new file with a bm25.OkapiWriter seeded from the
// old one (unchanged papers are merged, not analysed again) and renames it
// over the old one; papers are marked Okapi in the state only after that.
// So the file always holds every paper marked Okapi that has passages
// (okapiStale relies on it), and a build killed before the rename leaves
// the old file and the marks that go with it.
//
// Homes indexed before this format have okapi.gob (the gob of
// bm25.Okapi.Save, decoded whole by every search process): a writable open
// unmarks every paper, so the next 'paperlens index' writes okapi.idx from
// the corpus and removes okapi.gob; a read-only open says to run it.

func (ix *Index) okapiPath() string    { return filepath.Join(ix.dir, "okapi.idx") }
func (ix *Index) oldOkapiPath() string { return filepath.Join(ix.dir, "okapi.gob") }

// IndexMemory's split: the Okapi writer's buffer gets 1/okapiShare of it,
// the rest bounds the Bleve batch at blevePassageBytes a passage: the
// passages' text and analysed terms, and the segment scorch builds of
// them. Measured: a batch of 5,000 passages of 80-140 words (SciFact
// text) peaked at 29.5 KB a passage of heap in use, garbage included;
// 48 KiB leaves room for longer passages. BenchmarkIndexBuild prints the
// peak heap of whole builds.
const (
	okapiShare        = 2 // 1/okapiShare of IndexMemory
	blevePassageBytes = 48 << 10
	minBleveBatch     = 256
)

// memory is Config.IndexMemory with its default.
func (ix *Index) memory() int64 {
	if ix.cfg.IndexMemory > 0 {
		return ix.cfg.IndexMemory
	}
	return DefaultIndexMemory
}

// okapiBudget is the Okapi writer's share of IndexMemory.
func (ix *Index) okapiBudget() int64 { return ix.memory() / okapiShare }

// bleveBatch is the number of passages an Update gives Bleve at once (and
// analyses at once): the rest of IndexMemory, at blevePassageBytes a
// passage, at most bm25.DefaultBatchSize (larger batches gain little) and
// at least minBleveBatch (smaller ones make too many segments).
func (ix *Index) bleveBatch() int {
	n := (ix.memory() - ix.okapiBudget()) / blevePassageBytes
	return int(max(min(n, int64(bm25.DefaultBatchSize)), minBleveBatch))
}

// openOkapi opens okapi.idx for a writable index: a home without one (new,
// or indexed with okapi.gob) searches an empty Okapi and has every paper
// unmarked, so Update writes the file.
func (ix *Index) openOkapi() error {
	f, err := bm25.OpenOkapiFile(ix.okapiPath())
	if errors.Is(err, os.ErrNotExist) {
		if f, err = bm25.EmptyOkapiFile(bm25.OkapiOptions{}); err != nil {
			return err
		}
		for id, p := range ix.st.Papers {
			p.Okapi = false
			ix.st.Papers[id] = p
		}
	}
	if err != nil {
		return fmt.Errorf("open Okapi index %s: %w (remove it or run 'paperlens index --rebuild')", ix.okapiPath(), err)
	}
	ix.okapi = f
	if f.Path() != "" {
		// Converted already (a build that stopped between writing okapi.idx
		// and removing okapi.gob): the gob is only dead weight.
		if err := os.Remove(ix.oldOkapiPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove the old Okapi index: %w", err)
		}
	}
	return nil
}

// oldOkapiError is what a read-only open says of a home whose Okapi index
// is still okapi.gob, or nil.
func (ix *Index) oldOkapiError() error {
	if _, err := os.Stat(ix.oldOkapiPath()); err != nil {
		return nil
	}
	return fmt.Errorf("index in %s: the Okapi index is in the old format (%s, read whole by every search): run 'paperlens index' to convert it to %s: %w",
		ix.dir, filepath.Base(ix.oldOkapiPath()), filepath.Base(ix.okapiPath()), ErrStale)
}

// okapiStale reports whether the Okapi file must be written: a paper with
// passages is not marked Okapi, or the file holds papers no longer marked
// (gone from the corpus or changed). Marked papers are always in the file,
// so counts tell.
func (ix *Index) okapiStale(docs []corpus.Document) bool {
	marked := 0
	for _, d := range docs {
		p := ix.st.Papers[d.PaperID]
		if d.Passages > 0 && !p.Okapi {
			return true
		}
		if d.Passages > 0 {
			marked++
		}
	}
	return ix.okapi.Papers() != marked
}

// newOkapiWriter starts the new Okapi file: seeded with the current file's
// papers that are still marked, under the Okapi share of IndexMemory.
func (ix *Index) newOkapiWriter() (*bm25.OkapiWriter, error) {
	opt := bm25.OkapiWriterOptions{Budget: ix.okapiBudget(), Keep: func(id string) bool { return ix.st.Papers[id].Okapi }}
	if ix.okapi.Path() != "" {
		opt.Seed = ix.okapi.Path()
	}
	w, err := bm25.NewOkapiWriter(ix.okapiPath(), opt)
	if err != nil {
		return nil, fmt.Errorf("okapi index: %w (run 'paperlens index --rebuild')", err)
	}
	return w, nil
}

// finishOkapi writes the new Okapi file and searches it from now on; an
// okapi.gob it replaces goes.
func (ix *Index) finishOkapi(ctx context.Context, w *bm25.OkapiWriter) error {
	if err := w.Finish(ctx); errors.Is(err, bm25.ErrCorruptOkapi) {
		// The old file, merged into the new one, is damaged.
		return fmt.Errorf("write Okapi index: %w (run 'paperlens index --rebuild')", err)
	} else if err != nil {
		return fmt.Errorf("write Okapi index: %w", err)
	}
	f, err := bm25.OpenOkapiFile(ix.okapiPath())
	if err != nil {
		return fmt.Errorf("open the Okapi index just written: %w", err)
	}
	ix.okapiMu.Lock()
	old := ix.okapi
	ix.okapi = f
	ix.okapiMu.Unlock()
	if old != nil {
		old.Close() // waits for searches in flight
	}
	if err := os.Remove(ix.oldOkapiPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove the old Okapi index: %w", err)
	}
	return nil
}

// loadOkapi maps the Okapi file of a read-only index the first time the
// okapi retriever is asked for.
func (ix *Index) loadOkapi() (*bm25.OkapiFile, error) {
	ix.okapiMu.Lock()
	defer ix.okapiMu.Unlock()
	if ix.okapi == nil && ix.okapiErr == nil {
		o, err := bm25.OpenOkapiFile(ix.okapiPath())
		if err != nil {
			ix.okapiErr = fmt.Errorf("open Okapi index %s: %w (run 'paperlens index --rebuild')", ix.okapiPath(), err)
		} else {
			ix.okapi = o
		}
	}
	return ix.okapi, ix.okapiErr
}

// okapiRetriever searches whichever Okapi file the index has open when the
// search starts: an Update replaces the file, and a retriever handed out
// before it searches the new one.
type okapiRetriever struct{ ix *Index }

func (o okapiRetriever) Name() string { return Okapi }

func (o okapiRetriever) Search(ctx context.Context, q retrieve.Query) ([]retrieve.Hit, error) {
	for {
		f, err := o.ix.loadOkapi()
		if err != nil {
			return nil, err
		}
		hits, err := f.Search(ctx, q)
		if errors.Is(err, bm25.ErrClosed) && o.ix.currentOkapi() != f {
			continue // replaced between the load and the search: search the new one
		}
		if errors.Is(err, bm25.ErrCorruptOkapi) {
			return nil, fmt.Errorf("%w (run 'paperlens index --rebuild')", err)
		}
		return hits, err
	}
}

func (ix *Index) currentOkapi() *bm25.OkapiFile {
	ix.okapiMu.Lock()
	defer ix.okapiMu.Unlock()
	return ix.okapi
}

// analysed splits a batch's analysed passages by paper, in batch order.
func analysedByPaper(aps []bm25.AnalyzedPassage) (order []string, by map[string][]bm25.AnalyzedPassage) {
	by = map[string][]bm25.AnalyzedPassage{}
	for _, a := range aps {
		if _, ok := by[a.PaperID]; !ok {
			order = append(order, a.PaperID)
		}
		by[a.PaperID] = append(by[a.PaperID], a)
	}
	return order, by
}

// gcHeadroom is what a build needs beyond IndexMemory's working set: the
// runtime, Bleve's own structures, the LSA model.
const gcHeadroom = 256 << 20

// softMemoryLimit tells the garbage collector, for the length of an
// Update, to keep the heap near IndexMemory plus gcHeadroom instead of
// letting it grow to twice the live data (GOGC's default): at 100k
// passages that took the build's own memory from 851 to 693 MiB for the
// same CPU. A limit the user set (GOMEMLIMIT, or a caller's
// debug.SetMemoryLimit) is left alone. The returned function restores the
// previous limit.
func (ix *Index) softMemoryLimit() func() {
	prev := debug.SetMemoryLimit(-1)
	if prev != math.MaxInt64 {
		return func() {}
	}
	budget := ix.cfg.IndexMemory
	if budget <= 0 {
		budget = DefaultIndexMemory
	}
	debug.SetMemoryLimit(budget + gcHeadroom)
	return func() { debug.SetMemoryLimit(prev) }
}
