package retrieve

import "context"

// Fused is R searched with every text of Texts, the lists fused by
// reciprocal rank (MultiSearch): the option-aware query as one Retriever,
// so that wrappers apply to the fused list. The Query's own Text is not
// searched; a wrapper that reads it (a reranker) gets the question whole.
type Fused struct {
	R     Retriever
	Texts []string
	RRFK  int    // 0: DefaultRRFK
	Depth int    // hits asked of R per text; 0: max(4K, 20)
	Label string // name reported (default R's)
}

// Name implements Retriever.
func (f Fused) Name() string {
	if f.Label != "" {
		return f.Label
	}
	return f.R.Name()
}

// Search implements Retriever.
func (f Fused) Search(ctx context.Context, q Query) ([]Hit, error) {
	if _, ok := f.R.(Precomputed); ok {
		// Every text would get the same list: fusing copies would only
		// replace its scores by reciprocal ranks.
		return f.R.Search(ctx, q)
	}
	return MultiSearch(ctx, []Retriever{f.R}, f.Texts, q, f.RRFK, f.Depth, f.Name())
}
