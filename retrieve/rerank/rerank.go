package rerank

import (
	"context"
	"fmt"

	"github.com/paperlens/paperlens/retrieve"
)

// Kinds of reranking (the --rerank flag; fixed names).
const (
	None = "none" // the first-stage ranking as it is (what the papers did)
	API  = "api"  // a cross-encoder behind a /rerank endpoint (TEI, vLLM, Jina, Cohere)
	LLM  = "llm"  // a chat model ordering the passages, RankGPT-style
)

// DefaultDepth is how many first-stage candidates a reranker reorders when
// the caller gives no depth (--rerank-depth): deep enough that the evidence
// BM25 ranks 6th to 30th can reach the top 5, shallow enough that an LLM
// reranker needs two windows.
const DefaultDepth = 30

// Reranker reorders the candidates of a query. It returns the same hits
// (no more, no fewer) best first, each with the reranker's score; Rank and
// Retriever are left to the caller (Wrap renumbers them).
type Reranker interface {
	Name() string
	Rerank(ctx context.Context, query string, hits []retrieve.Hit) ([]retrieve.Hit, error)
}

// Wrap is r with its results reranked by rr: each search asks r for depth
// candidates (at least q.K; DefaultDepth when depth ≤ 0), reranks them
// against q.Text and returns the best q.K, ranked 1, 2, … with the
// reranker's scores, under the name "<r>><rr>" (e.g. "bm25>api"). A nil rr
// gives r itself.
func Wrap(r retrieve.Retriever, rr Reranker, depth int) retrieve.Retriever {
	if rr == nil {
		return r
	}
	if depth <= 0 {
		depth = DefaultDepth
	}
	return wrapped{r: r, rr: rr, depth: depth}
}

type wrapped struct {
	r     retrieve.Retriever
	rr    Reranker
	depth int
}

func (w wrapped) Name() string { return w.r.Name() + ">" + w.rr.Name() }

func (w wrapped) Search(ctx context.Context, q retrieve.Query) ([]retrieve.Hit, error) {
	if q.K <= 0 {
		return nil, fmt.Errorf("k must be positive, got %d", q.K)
	}
	sub := q
	sub.K = max(w.depth, q.K)
	cands, err := w.r.Search(ctx, sub)
	if err != nil || len(cands) == 0 {
		return cands, err
	}
	out, err := w.rr.Rerank(ctx, q.Text, cands)
	if err != nil {
		return nil, fmt.Errorf("rerank %d %s candidates (%s): %w", len(cands), w.r.Name(), w.rr.Name(), err)
	}
	if err := samePassages(cands, out); err != nil {
		return nil, fmt.Errorf("rerank (%s): %w", w.rr.Name(), err)
	}
	if len(out) > q.K {
		out = out[:q.K]
	}
	name := w.Name()
	for i := range out {
		out[i].Rank, out[i].Retriever = i+1, name
	}
	return out, nil
}

// samePassages checks that a reranker returned a permutation of its input:
// a passage lost or invented would silently change what a reader sees.
func samePassages(in, out []retrieve.Hit) error {
	if len(in) != len(out) {
		return fmt.Errorf("returned %d passages for %d", len(out), len(in))
	}
	seen := make(map[string]int, len(in))
	for _, h := range in {
		seen[h.PassageID]++
	}
	for _, h := range out {
		if seen[h.PassageID] == 0 {
			return fmt.Errorf("returned passage %q, which was not a candidate (or twice)", h.PassageID)
		}
		seen[h.PassageID]--
	}
	return nil
}
