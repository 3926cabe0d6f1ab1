package lsa

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/paperlens/paperlens/retrieve/embed"
)

// Scaling selects how a projected vector is weighted before normalisation.
type Scaling int

const (
	// ScaleDefault resolves to the variant chosen on the seed-paper
	// evaluation (see the package documentation).
	ScaleDefault Scaling = iota
	// ScaleNone keeps the coordinates xᵀV: cosine in the truncated
	// tf-idf space, where strong topics dominate.
	ScaleNone
	// ScaleInvSigma uses xᵀVΣ⁻¹, the classic LSI fold-in, which gives
	// every retained dimension equal weight.
	ScaleInvSigma
)

func (s Scaling) String() string {
	switch s {
	case ScaleDefault:
		return "default"
	case ScaleNone:
		return "none"
	case ScaleInvSigma:
		return "inv-sigma"
	}
	return "unknown"
}

// Defaults, chosen as described in the package documentation.
const (
	DefaultDim        = 256
	DefaultMaxVocab   = 50000
	DefaultOversample = 10
	DefaultPowerIters = 2
	DefaultSeed       = 20250101
	DefaultScaling    = ScaleNone
	DefaultStemming   = StemLight
	// MinDFCorpus is the corpus size from which terms seen in a single
	// passage are dropped (MinDF 2). A judgement, not a measurement: on the
	// seeds (up to 636 passages) MinDF 1 and 2 retrieved alike, and in a
	// large corpus single-passage terms are mostly extraction debris and
	// typos that fill the vocabulary cap and the matrix.
	MinDFCorpus = 1000
)

// tokenizerVersion is part of every model: a model fitted with one tokenizer
// cannot embed with another, since its vocabulary would no longer match the
// terms produced. Bump it on any change to tokenize or the stemmers.
const tokenizerVersion = 1

// Options control Fit. The zero value gives the documented defaults.
type Options struct {
	// Dim is the number of dimensions wanted; fewer are kept when the
	// corpus has fewer passages or terms, or a rank-deficient matrix. 0
	// means DefaultDim.
	Dim int
	// MaxVocab caps the vocabulary to the terms in most passages. 0 means
	// DefaultMaxVocab.
	MaxVocab int
	// MinDF drops terms found in fewer passages. 0 means 2 for corpora of
	// at least MinDFCorpus passages and 1 below.
	MinDF int
	// Oversample and PowerIters tune the randomized SVD. 0 means the
	// defaults; a negative PowerIters means none.
	Oversample int
	PowerIters int
	// Seed seeds the random projection. 0 means DefaultSeed.
	Seed     uint64
	Scaling  Scaling
	Stemming Stemming
	// Workers bounds the goroutines used; 0 means GOMAXPROCS. The fit is
	// bit-identical for every value.
	Workers int
}

func (o Options) resolve(docs int) Options {
	if o.Dim <= 0 {
		o.Dim = DefaultDim
	}
	if o.MaxVocab <= 0 {
		o.MaxVocab = DefaultMaxVocab
	}
	if o.MinDF <= 0 {
		o.MinDF = 1
		if docs >= MinDFCorpus {
			o.MinDF = 2
		}
	}
	if o.Oversample <= 0 {
		o.Oversample = DefaultOversample
	}
	switch {
	case o.PowerIters == 0:
		o.PowerIters = DefaultPowerIters
	case o.PowerIters < 0:
		o.PowerIters = 0
	}
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	if o.Scaling == ScaleDefault {
		o.Scaling = DefaultScaling
	}
	if o.Stemming == StemDefault {
		o.Stemming = DefaultStemming
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	return o
}

// Model is a fitted LSA space. It is immutable and safe for concurrent use.
type Model struct {
	stemming Stemming
	scaling  Scaling
	docs     int // passages fitted on
	terms    []string
	index    map[string]int32
	idf      []float32
	sigma    []float64
	comp     []float32 // len(terms)×k right singular vectors, row per term
	proj     []float32 // comp, scaled per Scaling: what Embed multiplies by
	k        int
	hash     string
	workers  int
}

var _ embed.Embedder = (*Model)(nil)

// Fit builds a model from the passages to be indexed. Texts that have no
// terms are allowed (they get an empty row); a corpus with no terms at all is
// an error.
func Fit(texts []string, opts Options) (*Model, error) {
	if len(texts) == 0 {
		return nil, errors.New("lsa: fit: no texts")
	}
	o := opts.resolve(len(texts))
	m, a, err := buildMatrix(texts, o)
	if err != nil {
		return nil, err
	}

	sigma, v, err := randomizedSVD(a, rsvdParams{k: o.Dim, oversample: o.Oversample, power: o.PowerIters, seed: o.Seed, workers: o.Workers})
	if err != nil {
		return nil, fmt.Errorf("lsa: fit: randomized SVD of %d×%d tf-idf matrix: %w", a.rows, a.cols, err)
	}
	// randomizedSVD has dropped directions at rounding level: they carry
	// no signal, and ScaleInvSigma would blow them up to full weight.
	k := len(sigma)
	m.k, m.sigma = k, sigma
	m.comp = make([]float32, len(m.terms)*k)
	raw := v.RawMatrix()
	for i := range m.terms {
		for j, x := range raw.Data[i*raw.Stride : i*raw.Stride+k] {
			m.comp[i*k+j] = float32(x)
		}
	}
	m.finish()
	return m, nil
}

// buildMatrix tokenizes texts, chooses the vocabulary and returns the
// model so far (vocabulary and idf) with the passages' tf-idf matrix.
func buildMatrix(texts []string, o Options) (*Model, *csr, error) {
	docs := tokenizeAll(texts, o.Stemming, o.Workers)

	df := map[string]int{}
	for _, d := range docs {
		for i, t := range d {
			if i == 0 || d[i-1] != t {
				df[t]++
			}
		}
	}
	terms := make([]string, 0, len(df))
	for t, n := range df {
		if n >= o.MinDF {
			terms = append(terms, t)
		}
	}
	// By document frequency, then alphabetically so the cap is deterministic.
	slices.SortFunc(terms, func(a, b string) int {
		if c := cmp.Compare(df[b], df[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	if len(terms) > o.MaxVocab {
		terms = terms[:o.MaxVocab]
	}
	if len(terms) == 0 {
		return nil, nil, fmt.Errorf("lsa: fit: no term occurs in %d or more of the %d texts", o.MinDF, len(texts))
	}
	m := &Model{stemming: o.Stemming, scaling: o.Scaling, docs: len(texts), terms: terms, workers: o.Workers,
		index: make(map[string]int32, len(terms)), idf: make([]float32, len(terms))}
	for i, t := range terms {
		m.index[t] = int32(i)
		// Smoothed idf, as if one extra passage held every term: finite for
		// terms in every passage, and never zero, so no term is erased.
		m.idf[i] = float32(math.Log(float64(1+len(texts))/float64(1+df[t])) + 1)
	}

	a := &csr{rows: len(texts), cols: len(terms), ptr: make([]int, 1, len(texts)+1)}
	for _, d := range docs {
		ids, ws := m.weights(d)
		a.idx = append(a.idx, ids...)
		a.val = append(a.val, ws...)
		a.ptr = append(a.ptr, len(a.idx))
	}
	if a.nnz() == 0 {
		return nil, nil, errors.New("lsa: fit: no text has a vocabulary term")
	}
	return m, a, nil
}

// tokenizeAll returns each text's terms sorted, repeats adjacent: the form
// df counting and weights consume.
func tokenizeAll(texts []string, stem Stemming, workers int) [][]string {
	docs := make([][]string, len(texts))
	var g errgroup.Group
	g.SetLimit(max(workers, 1))
	for i := range texts {
		g.Go(func() error {
			ts := tokenize(nil, texts[i], stem)
			slices.Sort(ts)
			docs[i] = ts
			return nil
		})
	}
	_ = g.Wait() // no task fails
	return docs
}

// weights turns a sorted term list (repeats adjacent) into vocabulary ids
// and L2-normalised sublinear tf·idf weights, in the terms' order. Sublinear tf
// (1+ln tf) because a term said ten times is not ten times as relevant, and
// a long passage would otherwise be all about its most repeated word.
func (m *Model) weights(sorted []string) ([]int32, []float64) {
	var ids []int32
	var ws []float64
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j] == sorted[i] {
			j++
		}
		if id, ok := m.index[sorted[i]]; ok {
			ids = append(ids, id)
			ws = append(ws, (1+math.Log(float64(j-i)))*float64(m.idf[id]))
		}
		i = j
	}
	var ss float64
	for _, w := range ws {
		ss += w * w
	}
	if ss > 0 {
		inv := 1 / math.Sqrt(ss)
		for i := range ws {
			ws[i] *= inv
		}
	}
	// The order is the sorted terms', not the ids': fixed for a given
	// text, which is all determinism needs.
	return ids, ws
}

// finish derives the projection and the name from the fitted parts; Load
// calls it too, so a loaded model is exactly the saved one.
func (m *Model) finish() {
	m.proj = m.comp
	if m.scaling == ScaleInvSigma {
		m.proj = make([]float32, len(m.comp))
		for i := range m.terms {
			for j := 0; j < m.k; j++ {
				m.proj[i*m.k+j] = float32(float64(m.comp[i*m.k+j]) / m.sigma[j])
			}
		}
	}
	if m.index == nil {
		m.index = make(map[string]int32, len(m.terms))
		for i, t := range m.terms {
			m.index[t] = int32(i)
		}
	}
	m.hash = m.fingerprint()
}

// fingerprint hashes everything that determines the vectors, so the Name
// changes whenever two models could disagree on any text.
func (m *Model) fingerprint() string {
	h := sha256.New()
	var b []byte
	put := func(x uint64) { b = binary.LittleEndian.AppendUint64(b, x) }
	b = append(b, "paperlens-lsa\x00"...)
	put(tokenizerVersion)
	put(uint64(m.stemming))
	put(uint64(m.scaling))
	put(uint64(len(m.terms)))
	put(uint64(m.k))
	for _, t := range m.terms {
		b = append(b, t...)
		b = append(b, 0)
	}
	for _, x := range m.idf {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	for _, x := range m.sigma {
		put(math.Float64bits(x))
	}
	h.Write(b)
	// The components are most of the model; hash them in chunks rather
	// than building one more copy of them.
	chunk := make([]byte, 0, 1<<16)
	for _, x := range m.comp {
		chunk = binary.LittleEndian.AppendUint32(chunk, math.Float32bits(x))
		if len(chunk) == cap(chunk) {
			h.Write(chunk)
			chunk = chunk[:0]
		}
	}
	h.Write(chunk)
	return hex.EncodeToString(h.Sum(nil))
}

// Name is "lsa-<dim>@<first 12 hex digits of the fit's hash>". It never
// claims to be a neural model: LSA vectors are reported as LSA.
func (m *Model) Name() string { return fmt.Sprintf("lsa-%d@%s", m.k, m.hash[:12]) }

// Hash is the full fingerprint of the fit.
func (m *Model) Hash() string { return m.hash }

// Dim is the number of retained dimensions.
func (m *Model) Dim() int { return m.k }

// Vocab is the number of terms in the vocabulary.
func (m *Model) Vocab() int { return len(m.terms) }

// Docs is the number of passages the model was fitted on.
func (m *Model) Docs() int { return m.docs }

// SingularValues returns a copy of the retained singular values, descending.
func (m *Model) SingularValues() []float64 { return slices.Clone(m.sigma) }

// Scaling and Stemming report the resolved variants the model uses.
func (m *Model) Scaling() Scaling   { return m.scaling }
func (m *Model) Stemming() Stemming { return m.stemming }

// Embed projects each text's tf-idf vector into the LSA space. kind is
// ignored: LSA is symmetric. A text with no vocabulary term gets the zero
// vector. It fails only when ctx is done.
func (m *Model) Embed(ctx context.Context, texts []string, kind embed.Kind) ([][]float32, error) {
	out := make([][]float32, len(texts))
	// Per-text work is small; only spread large requests over goroutines.
	const perWorker = 64
	workers := min(m.workers, (len(texts)+perWorker-1)/perWorker)
	if workers <= 1 {
		for i, t := range texts {
			if i%perWorker == 0 && ctx.Err() != nil {
				return nil, fmt.Errorf("lsa: embed: %w", ctx.Err())
			}
			out[i] = m.embedOne(t)
		}
		return out, nil
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(texts); i += workers {
				if i%perWorker == w && ctx.Err() != nil {
					return
				}
				out[i] = m.embedOne(texts[i])
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("lsa: embed: %w", err)
	}
	return out, nil
}

func (m *Model) embedOne(text string) []float32 {
	ts := tokenize(nil, text, m.stemming)
	slices.Sort(ts)
	ids, ws := m.weights(ts)
	// float32 accumulation with gonum's SIMD kernel: a few hundred terms
	// sum to well within float32's precision, at twice float64's speed.
	saxpy := blas32.Implementation().Saxpy
	v := make([]float32, m.k)
	for j, id := range ids {
		saxpy(m.k, float32(ws[j]), m.proj[int(id)*m.k:int(id)*m.k+m.k], 1, v, 1)
	}
	// A text whose terms all sit (numerically) outside the retained
	// subspace is as contentless as an empty one.
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	if ss <= 1e-24 {
		clear(v)
		return v
	}
	embed.Normalize(v)
	return v
}
