// Package retrieve finds the passages of a paper that bear on a question:
// BM25 over Bleve, dense vectors over an embedded store or Qdrant, and their
// fusion. Subpackages hold each part behind a small interface.
package retrieve

import (
	"context"

	"github.com/paperlens/paperlens/chunk/kind"
)

// Hit is one retrieved passage.
type Hit struct {
	Rank      int     `json:"rank"` // 1-based
	Score     float64 `json:"score"`
	PaperID   string  `json:"paper_id"`
	PassageID string  `json:"passage_id"`
	Text      string  `json:"text"`
	Retriever string  `json:"retriever,omitempty"`
	// Kind is what the passage is (body, table, references, …), filled
	// where the corpus is at hand (index.WithKinds): search prints it.
	Kind kind.Kind `json:"kind,omitempty"`
}

// Query asks for the K best passages for Text, within one paper when
// PaperID is set (intra-paper retrieval, as ElaipBench does), else corpus-wide.
type Query struct {
	Text    string
	PaperID string
	K       int
	// Exclude leaves passages of these kinds out (--exclude-kinds): the
	// K hits are the best of the other kinds. The retrievers of package
	// index honour it; a Retriever that cannot tell kinds ignores it.
	Exclude []kind.Kind
	// QuestionID names the question asked, for a retriever whose rankings
	// were made beforehand and are looked up by question (Precomputed);
	// the others ignore it. "" when the search is no benchmark question's.
	QuestionID string
}

// Retriever is anything that ranks passages for a query.
type Retriever interface {
	Name() string
	Search(ctx context.Context, q Query) ([]Hit, error)
}

// Precomputed is a Retriever whose rankings were made before the
// question was asked (a run file, package retrieve/trec): it looks a
// question's ranking up by Query.QuestionID, so the query text does not
// change it. The option-aware query (Fused) searches it once instead of
// fusing copies of one list, and so keeps its scores.
type Precomputed interface {
	Retriever
	Precomputed()
}

// Excluding makes every query of r leave out the given kinds (see
// Query.Exclude), for callers that hand a retriever on: r unchanged when
// kinds is empty.
func Excluding(r Retriever, kinds []kind.Kind) Retriever {
	if len(kinds) == 0 {
		return r
	}
	return excluding{r, kinds}
}

type excluding struct {
	Retriever
	kinds []kind.Kind
}

func (e excluding) Search(ctx context.Context, q Query) ([]Hit, error) {
	q.Exclude = append(q.Exclude[:len(q.Exclude):len(q.Exclude)], e.kinds...)
	return e.Retriever.Search(ctx, q)
}
