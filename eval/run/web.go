package run

import (
	"context"
	"fmt"

	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/ingest/corpus"
	"github.com/paperlens/paperlens/retrieve"
)

// CorpusWeb is the offline stand-in for web search: it searches the indexed
// corpus with BM25 and leaves out the question's own paper. The ElaipBench
// paper found that web results were nearly all other papers, so this is a
// fair, reproducible proxy that needs no network. Each result is one
// passage, cut to maxTokens, named corpus://PAPER#N.
func CorpusWeb(ix Retrievers, st *corpus.Store, results, maxTokens int) WebSearch {
	return func(ctx context.Context, query, paperID string) ([]WebDoc, error) {
		r, err := ix.Retriever("bm25")
		if err != nil {
			return nil, err
		}
		hits, err := r.Search(ctx, retrieve.Query{Text: query, K: results + 20})
		if err != nil {
			return nil, fmt.Errorf("corpus provider: %w", err)
		}
		var docs []WebDoc
		for _, h := range hits {
			if h.PaperID == paperID {
				continue
			}
			title := h.PaperID
			if st != nil {
				if d, err := st.Doc(h.PaperID); err == nil && d.Title != "" {
					title = d.Title
				}
			}
			text := tokens.Head(h.Text, maxTokens)
			docs = append(docs, WebDoc{URL: "corpus://" + h.PassageID, Title: title, Text: text, Status: "ok",
				Rank: len(docs) + 1, Tokens: tokens.Count(text)})
			if len(docs) == results {
				break
			}
		}
		return docs, nil
	}
}
