package lsa

import (
	"bufio"
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/google/renameio/v2"
)

// fileMagic starts every saved model; the version after it changes with the
// layout of modelFile.
const (
	fileMagic   = "paperlens-lsa\n"
	fileVersion = 1
)

// modelFile is the on-disk form. gob rather than a hand-written layout: the
// file is only ever read by this package, and gob's self-description turns
// a truncated or foreign file into an error rather than garbage.
type modelFile struct {
	Version          int
	TokenizerVersion int
	Stemming         int
	Scaling          int
	Docs             int
	Terms            []string
	IDF              []float32
	Sigma            []float64
	Comp             []float32
	K                int
	Hash             string
}

// Save writes the model to path atomically: a reader, or a crash mid-write,
// sees the old file or the new one, never a mix.
func (m *Model) Save(path string) error {
	var buf bytes.Buffer
	buf.WriteString(fileMagic)
	err := gob.NewEncoder(&buf).Encode(modelFile{
		Version: fileVersion, TokenizerVersion: tokenizerVersion,
		Stemming: int(m.stemming), Scaling: int(m.scaling), Docs: m.docs,
		Terms: m.terms, IDF: m.idf, Sigma: m.sigma, Comp: m.comp, K: m.k, Hash: m.hash,
	})
	if err != nil {
		return fmt.Errorf("lsa: save %s: encode: %w", path, err)
	}
	// renameio writes a temporary file beside path, syncs it and renames
	// it over path.
	if err := renameio.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("lsa: save %s: %w", path, err)
	}
	return nil
}

// Load reads a model written by Save. The fingerprint is recomputed and
// must match the stored one, so a damaged file cannot pass as the model
// whose Name it carries.
func Load(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("lsa: load: %w", err)
	}
	defer f.Close()
	m, err := read(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("lsa: load %s: %w", path, err)
	}
	return m, nil
}

func read(r io.Reader) (*Model, error) {
	magic := make([]byte, len(fileMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != fileMagic {
		return nil, errors.New("not a paperlens LSA model")
	}
	var mf modelFile
	if err := gob.NewDecoder(r).Decode(&mf); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	switch {
	case mf.Version != fileVersion:
		return nil, fmt.Errorf("file format %d, this paperlens reads %d: refit the model", mf.Version, fileVersion)
	case mf.TokenizerVersion != tokenizerVersion:
		return nil, fmt.Errorf("fitted with tokenizer %d, this paperlens tokenizes with %d: refit the model", mf.TokenizerVersion, tokenizerVersion)
	case mf.K <= 0 || len(mf.Sigma) != mf.K || len(mf.IDF) != len(mf.Terms) || len(mf.Comp) != len(mf.Terms)*mf.K:
		return nil, errors.New("inconsistent sizes: file is damaged")
	}
	m := &Model{
		stemming: Stemming(mf.Stemming), scaling: Scaling(mf.Scaling), docs: mf.Docs,
		terms: mf.Terms, idf: mf.IDF, sigma: mf.Sigma, comp: mf.Comp, k: mf.K,
		workers: runtime.GOMAXPROCS(0),
	}
	m.finish()
	if m.hash != mf.Hash {
		return nil, errors.New("content does not match its fingerprint: file is damaged")
	}
	return m, nil
}
