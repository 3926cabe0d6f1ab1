package bm25

import (
	"context"

	"bufio"
	"encoding/gob"
	"fmt"
	"github.com/paperlens/paperlens/corpus"
	"os"
	"path/filepath"
	"slices"

	"github.com/google/renameio/v2"
)

// okapiFormat names the on-disk layout; bump it on incompatible changes.
const okapiFormat = "paperlens-okapi/1"

// okapiFile is the gob form of an Okapi: the options it was built with
// (a file is useless with another tokenizer), the vocabulary, and each
// paper's passages and CSR postings. Corpus statistics are derived on load.
type okapiFile struct {
	Format  string
	Options OkapiOptions
	Terms   []string
	Papers  []okapiFilePaper
}

type okapiFilePaper struct {
	ID       string
	Passages []okPassage
	Terms    []uint32
	Off      []uint32
	Post     []uint32
}

// Save writes the scorer to path atomically (a temporary file synced and
// renamed into place), so a crash never leaves a truncated file behind.
// Terms no longer used by any passage are dropped.
func (o *Okapi) Save(path string) error {
	o.mu.RLock()
	f := okapiFile{Format: okapiFormat, Options: o.opt}
	remap := make([]uint32, len(o.terms))
	for id, df := range o.df {
		if df > 0 {
			remap[id] = uint32(len(f.Terms))
			f.Terms = append(f.Terms, o.terms[id])
		}
	}
	ids := make([]string, 0, len(o.papers))
	for id := range o.papers {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		p := o.papers[id]
		terms := make([]uint32, len(p.terms))
		for i, t := range p.terms {
			terms[i] = remap[t] // remap is monotonic, so terms stay sorted
		}
		f.Papers = append(f.Papers, okapiFilePaper{ID: id, Passages: p.passages, Terms: terms, Off: p.off, Post: p.post})
	}
	// Encoding reads slices shared with the live index, so the read lock is
	// held to the end.
	defer o.mu.RUnlock()

	// The temporary file sits beside path: a rename across file systems
	// would fail. renameio fsyncs it before the rename (mode 0600).
	pf, err := renameio.NewPendingFile(path, renameio.WithTempDir(filepath.Dir(path)))
	if err != nil {
		return fmt.Errorf("bm25: okapi save %s: %w", path, err)
	}
	defer pf.Cleanup() // no-op once replaced
	w := bufio.NewWriterSize(pf, 1<<20)
	if err := gob.NewEncoder(w).Encode(&f); err != nil {
		return fmt.Errorf("bm25: okapi save %s: %w", path, err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("bm25: okapi save %s: %w", path, err)
	}
	if err := pf.CloseAtomicallyReplace(); err != nil {
		return fmt.Errorf("bm25: okapi save %s: %w", path, err)
	}
	return nil
}

// LoadOkapi reads a scorer written by Save, with the options it was saved
// with.
func LoadOkapi(path string) (*Okapi, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("bm25: okapi load: %w", err)
	}
	defer fh.Close()
	var f okapiFile
	if err := gob.NewDecoder(bufio.NewReaderSize(fh, 1<<20)).Decode(&f); err != nil {
		return nil, fmt.Errorf("bm25: okapi load %s: %w", path, err)
	}
	if f.Format != okapiFormat {
		return nil, fmt.Errorf("bm25: okapi load %s: format %q, this build reads %q: rebuild it", path, f.Format, okapiFormat)
	}
	o, err := NewOkapi(f.Options)
	if err != nil {
		return nil, fmt.Errorf("bm25: okapi load %s: %w", path, err)
	}
	o.terms = f.Terms
	o.df = make([]int32, len(f.Terms))
	o.ids = make(map[string]uint32, len(f.Terms))
	for i, t := range f.Terms {
		o.ids[t] = uint32(i)
	}
	for _, fp := range f.Papers {
		if err := fp.check(len(f.Terms)); err != nil {
			return nil, fmt.Errorf("bm25: okapi load %s: paper %s: %w", path, fp.ID, err)
		}
		p := &okPaper{passages: fp.Passages, terms: fp.Terms, off: fp.Off, post: fp.Post}
		for _, ps := range p.passages {
			p.tokens += int64(ps.Len)
		}
		p.avgIDF = p.meanIDF()
		o.papers[fp.ID] = p
		o.account(p, +1)
	}
	return o, nil
}

// check validates the CSR layout so that a corrupt file is an error, not an
// index-out-of-range panic in a later search.
func (fp *okapiFilePaper) check(vocab int) error {
	if len(fp.Off) != len(fp.Terms)+1 || fp.Off[0] != 0 || 2*int(fp.Off[len(fp.Terms)]) != len(fp.Post) {
		return fmt.Errorf("corrupt postings layout")
	}
	for i, t := range fp.Terms {
		if int(t) >= vocab || (i > 0 && t <= fp.Terms[i-1]) || fp.Off[i+1] < fp.Off[i] {
			return fmt.Errorf("corrupt term table")
		}
	}
	for k := 0; k < len(fp.Post); k += 2 {
		if int(fp.Post[k]) >= len(fp.Passages) {
			return fmt.Errorf("posting points past the passages")
		}
	}
	return nil
}

// WriteFile writes the scorer as an Okapi file searched in place
// ([OkapiFileFormat], [OpenOkapiFile]), through an [OkapiWriter] with the
// given budget (0 for its default): the passages' terms are taken from the
// index, not analysed again. Searches of the file give the same hits and
// scores as searches of o.
func (o *Okapi) WriteFile(ctx context.Context, path string, budget int64) error {
	o.mu.RLock()
	defer o.mu.RUnlock()
	w, err := NewOkapiWriter(path, OkapiWriterOptions{Okapi: o.opt, Budget: budget})
	if err != nil {
		return err
	}
	defer w.Abort()
	for id, p := range o.papers {
		vecs := p.vectors()
		ps := make([]AnalyzedPassage, len(p.passages))
		for i, op := range p.passages {
			terms := make([]TermFreq, len(vecs[i]))
			for j, tf := range vecs[i] {
				terms[j] = TermFreq{o.terms[tf.term], tf.tf}
			}
			ps[i] = AnalyzedPassage{Passage: corpus.Passage{PaperID: id, PassageID: op.ID, Ordinal: op.Ordinal, Text: op.Text},
				Terms: terms, Len: int(op.Len), FieldLen: int(op.Len), Tokenizer: o.opt.Tokenizer}
		}
		if err := w.AddPaper(id, ps); err != nil {
			return err
		}
	}
	return w.Finish(ctx)
}
