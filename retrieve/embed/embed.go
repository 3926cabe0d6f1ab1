package embed

import (
	"context"
	"fmt"
	"math"
)

// Kind says whether a text is a question or a passage to be searched.
// Asymmetric models (E5, BGE with an instruction) embed the two differently;
// symmetric ones, such as LSA and bge-m3 dense, ignore it.
type Kind int

const (
	// Query is a question or search string.
	Query Kind = iota
	// Passage is a stored unit of a paper that queries are matched against.
	Passage
)

func (k Kind) String() string {
	switch k {
	case Query:
		return "query"
	case Passage:
		return "passage"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Embedder maps texts to vectors in one fixed vector space.
//
// Name identifies that space: two embedders with the same Name must produce
// interchangeable vectors, because caches and indexes key on it. Anything that
// changes the vectors (model, fit, prefixes, requested dimension) belongs in
// the Name.
//
// Embed returns one vector per text, in input order, each of length Dim().
// Vectors are L2-normalised so that a dot product is a cosine similarity; a
// text with no content (empty, whitespace, or nothing the model knows) gets
// the all-zero vector, which is similar to nothing, rather than an error, so
// that one blank passage cannot fail a whole index build.
//
// On error Embed may return a partial result alongside it: a slice of
// len(texts) whose non-nil entries were embedded successfully and may be
// kept. A nil slice means nothing is usable.
type Embedder interface {
	Name() string
	// Dim is the vector length; 0 only for a remote model whose dimension is
	// learned from its first response and no response has arrived yet.
	Dim() int
	Embed(ctx context.Context, texts []string, kind Kind) ([][]float32, error)
}

// Streamer is an Embedder that hands back each batch as soon as it is done,
// so that a caller (the cache) can persist finished work before the rest of a
// long request completes or fails.
//
// EmbedStream embeds texts and calls emit once per finished batch with the
// batch's offset into texts and its vectors. Calls to emit never overlap and
// may come in any order of start; if emit returns an error, EmbedStream stops
// and returns it. Every text has been emitted exactly once when EmbedStream
// returns nil.
type Streamer interface {
	Embedder
	EmbedStream(ctx context.Context, texts []string, kind Kind, emit func(start int, vecs [][]float32) error) error
}

// Normalize scales v to unit L2 length in place, accumulating in float64 so
// that 1024-dimensional float32 vectors come out unit length to float32
// precision. It reports false and leaves v untouched when v is zero or holds
// a non-finite value; callers decide whether that is an error.
func Normalize(v []float32) bool {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	if ss == 0 || math.IsInf(ss, 0) || math.IsNaN(ss) {
		return false
	}
	inv := 1 / math.Sqrt(ss)
	for i, x := range v {
		v[i] = float32(float64(x) * inv)
	}
	return true
}

// Dot is the dot product of two equal-length vectors, which for the unit
// vectors every Embedder returns is their cosine similarity.
func Dot(a, b []float32) float64 {
	if len(a) != len(b) {
		panic(fmt.Sprintf("embed.Dot: lengths %d and %d differ", len(a), len(b)))
	}
	var s float64
	for i, x := range a {
		s += float64(x) * float64(b[i])
	}
	return s
}
