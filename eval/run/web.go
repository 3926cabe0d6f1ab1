package run

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/bm25"
)

// CorpusWeb is the offline stand-in for web search: it searches the indexed
// corpus with BM25 and leaves out the question's own paper. The ElaipBench
// paper found that web results were nearly all other papers, so this is a
// fair, reproducible proxy that needs no network. Each result is one
// passage, cut to maxTokens, named corpus://PAPER#N.
//
// It returns the best results passages of other papers, exactly: the own
// paper is removed before the cut, not after, so a question whose paper
// fills the top of the ranking still gets results. Fewer exist only when
// the rest of the corpus has fewer passages sharing a term with the query;
// none (a corpus of one paper, say) is an empty answer, not an error.
func CorpusWeb(ix Retrievers, st *corpus.Store, results, maxTokens int) WebSearch {
	if results <= 0 {
		results = 5
	}
	return func(ctx context.Context, query, paperID string) ([]WebDoc, error) {
		r, err := ix.Retriever("bm25")
		if err != nil {
			return nil, err
		}
		// The retriever cannot leave a paper out, so ask for more than
		// wanted and, while the own paper crowds out the rest, for more
		// again, until the corpus is exhausted.
		total := -1
		for k := 3 * results; ; k *= 4 {
			hits, err := r.Search(ctx, retrieve.Query{Text: query, K: k})
			if errors.Is(err, bm25.ErrEmptyQuery) {
				return nil, nil // nothing searchable in the query: nothing found
			}
			if err != nil {
				return nil, fmt.Errorf("corpus provider: %w", err)
			}
			docs := corpusDocs(st, hits, paperID, results, maxTokens)
			if len(docs) >= results || len(hits) == 0 {
				return docs, nil
			}
			// Fewer hits than k is no proof of the end: the index drops the
			// hits of half-indexed papers after its cut. The passage count
			// is; without a store, fewer hits is the best there is.
			if total < 0 {
				total = passageCount(st)
			}
			if total > 0 && k >= total || total <= 0 && len(hits) < k {
				return docs, nil
			}
		}
	}
}

// corpusDocs turns hits into web docs: other papers' non-empty passages,
// at most n, ranked from 1.
func corpusDocs(st *corpus.Store, hits []retrieve.Hit, paperID string, n, maxTokens int) []WebDoc {
	var docs []WebDoc
	titles := map[string]string{}
	for _, h := range hits {
		if len(docs) == n {
			break
		}
		if h.PaperID == paperID || strings.TrimSpace(h.Text) == "" {
			continue
		}
		title, ok := titles[h.PaperID]
		if !ok {
			title = h.PaperID
			if st != nil {
				if d, err := st.Doc(h.PaperID); err == nil && d.Title != "" {
					title = d.Title
				}
			}
			titles[h.PaperID] = title
		}
		text := tokens.Head(h.Text, maxTokens)
		docs = append(docs, WebDoc{URL: "corpus://" + h.PassageID, Title: title, Text: text, Status: "ok",
			Rank: len(docs) + 1, Tokens: tokens.Count(text)})
	}
	return docs
}

// passageCount is the number of passages in the corpus, -1 when unknown.
func passageCount(st *corpus.Store) int {
	if st == nil {
		return -1
	}
	ds, err := st.Docs()
	if err != nil {
		return -1
	}
	n := 0
	for _, d := range ds {
		n += d.Passages
	}
	return n
}
