// Package rerank reorders a retriever's candidates with a stronger, slower
// model before the top k reach a reader: the second stage of two-stage
// retrieval. ElaipBench retrieved in one stage (BM25 or bge-m3, top 5);
// its evidence is often ranked 6th to 30th, where a reader never sees it.
//
// Two rerankers implement [Reranker]:
//
//   - [APIReranker] (--rerank api) calls a cross-encoder served behind a
//     rerank endpoint, in either protocol real servers speak: Text
//     Embeddings Inference's POST /rerank {"query", "texts"} →
//     [{"index", "score"}], or Cohere's POST /v1/rerank {"model", "query",
//     "documents", "top_n"} → {"results": [{"index", "relevance_score"}]},
//     which Jina, vLLM and Infinity copy. It goes through internal/httpx,
//     the one HTTP base of paperlens's remote clients: retries with
//     backoff and Retry-After, the error family, the key kept out of every
//     message.
//   - [LLMReranker] (--rerank llm) asks a chat model to order the passages
//     listwise, with RankGPT's prompt and sliding window (20 passages,
//     step 10, from the back of the list), through a model.Chat: give it
//     the answering model's stack, and a repeated rerank comes from its
//     cache.
//
// [Wrap] turns any retriever into a two-stage one:
//
//	rr, _ := rerank.NewAPI(rerank.APIOptions{BaseURL: "http://localhost:8080"}) // TEI serving BAAI/bge-reranker-v2-m3
//	r = rerank.Wrap(r, rr, 30) // search 30, rerank, keep the top k
//
// The reranked hits carry the reranker's scores (a cross-encoder's
// relevance, or 1/rank for the LLM) and the retriever name "bm25>api".
package rerank
