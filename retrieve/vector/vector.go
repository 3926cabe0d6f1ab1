package vector

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Point is one passage's embedding.
type Point struct {
	ID      string // passage id, e.g. "trpo#12"
	PaperID string
	Vector  []float32
}

// Match is one search result.
type Match struct {
	ID      string
	PaperID string
	Score   float64 // cosine similarity, in [-1, 1]
}

// Store holds passage embeddings and finds the nearest ones by cosine
// similarity. Implementations are safe for concurrent use.
type Store interface {
	// Name is a short label for logs and run records ("embedded", "qdrant").
	Name() string
	// Dim is the vector length the store was built with; 0 for a fresh store
	// before its first Upsert.
	Dim() int
	// Upsert adds points; a point whose ID is already stored replaces it. A
	// vector whose length differs from Dim is refused with ErrDimension, and
	// then none of the batch is stored.
	Upsert(ctx context.Context, pts []Point) error
	// Search returns the k points most similar to vec, within one paper
	// unless paperID is "", best first, equal scores ordered by ID. k <= 0
	// is an error; an empty store gives an empty result.
	Search(ctx context.Context, vec []float32, paperID string, k int) ([]Match, error)
	// DeletePaper removes every point of a paper; an unknown paper is not an
	// error.
	DeletePaper(ctx context.Context, paperID string) error
	// Count is the number of stored points.
	Count(ctx context.Context) (int, error)
	Close() error
}

// ErrDimension is matched (errors.Is) by every dimension mismatch, so callers
// can tell "the embedder changed, rebuild" from other failures.
var ErrDimension = errors.New("vector dimension mismatch")

// ErrClosed is returned by a store used after Close.
var ErrClosed = errors.New("vector store is closed")

// DimensionError reports a vector whose length is not the store's.
type DimensionError struct {
	Store string // what was built, e.g. "vector store /home/u/.paperlens/vectors"
	Want  int
	Got   int
}

func (e *DimensionError) Error() string {
	return fmt.Sprintf("%s was built with dimension %d, got %d: rebuild with 'paperlens index --rebuild'", e.Store, e.Want, e.Got)
}

// Is makes errors.Is(err, ErrDimension) hold.
func (e *DimensionError) Is(target error) bool { return target == ErrDimension }

// CheckPoints validates a batch before any of it is written: non-empty ids,
// finite non-zero vectors, one length. want is the store's dimension (0 when
// the batch will set it). It returns the batch's dimension.
func CheckPoints(store string, want int, pts []Point) (int, error) {
	if len(pts) == 0 {
		return want, nil
	}
	if want == 0 {
		want = len(pts[0].Vector)
		if want == 0 {
			return 0, fmt.Errorf("point %q: empty vector", pts[0].ID)
		}
	}
	for _, p := range pts {
		if p.ID == "" {
			return 0, fmt.Errorf("point with empty id (paper %q)", p.PaperID)
		}
		if p.PaperID == "" {
			// Every search within a paper filters on it; a point without one
			// could only ever be found corpus-wide.
			return 0, fmt.Errorf("point %q: empty paper id", p.ID)
		}
		if len(p.Vector) != want {
			return 0, fmt.Errorf("point %q: %w", p.ID, &DimensionError{Store: store, Want: want, Got: len(p.Vector)})
		}
		if _, err := norm(p.Vector); err != nil {
			return 0, fmt.Errorf("point %q: %w", p.ID, err)
		}
	}
	return want, nil
}

// Normalize returns v scaled to unit length, in dst when it has room. A zero
// or non-finite vector is an error: it has no direction, so no cosine.
func Normalize(dst, v []float32) ([]float32, error) {
	n, err := norm(v)
	if err != nil {
		return nil, err
	}
	dst = slices.Grow(dst[:0], len(v))[:len(v)]
	inv := 1 / n
	for i, x := range v {
		dst[i] = float32(float64(x) * inv)
	}
	return dst, nil
}

// norm is computed in float64 so that normalising very long or very small
// vectors neither overflows nor loses the direction.
func norm(v []float32) (float64, error) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	switch {
	case math.IsNaN(s) || math.IsInf(s, 0):
		return 0, errors.New("vector has a NaN or infinite component")
	case s == 0:
		return 0, errors.New("zero vector has no direction")
	}
	return math.Sqrt(s), nil
}

// SortMatches orders matches best first, equal scores by ID, the order every
// Store returns.
func SortMatches(ms []Match) {
	slices.SortFunc(ms, func(a, b Match) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}

// CheckK is the shared k validation, so every store words it the same way.
func CheckK(k int) error {
	if k <= 0 {
		return fmt.Errorf("vector search: k must be positive, got %d", k)
	}
	return nil
}
