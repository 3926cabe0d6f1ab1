package vector

import "context"

// SparseDoc is one passage as a sparse vector: the ids of its analysed
// terms (a hash of each term, so that every process maps a term alike
// without a shared dictionary) and their document-side BM25 weights,
// tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl)).
type SparseDoc struct {
	ID, PaperID string
	Indices     []uint32
	Values      []float32
}

// SparseStore holds passages as sparse vectors and ranks them by the dot
// product with a query's term counts, each term weighted by its inverse
// document frequency on the server (Qdrant's IDF modifier): BM25 served
// from the same cluster as the dense vectors. Implementations are safe for
// concurrent use.
type SparseStore interface {
	Name() string
	// UpsertSparse writes docs, replacing any under the same ID.
	UpsertSparse(ctx context.Context, docs []SparseDoc) error
	// DeletePaper drops every passage of a paper; an unknown paper is not
	// an error.
	DeletePaper(ctx context.Context, paperID string) error
	// SearchSparse returns the k best passages for the query's term ids
	// and counts, within paperID when it is not empty.
	SearchSparse(ctx context.Context, indices []uint32, values []float32, paperID string, k int) ([]Match, error)
	Close() error
}
