package main

import (
	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/retrieve/rerank"
)

// The reranking flags of search, ask, eval, eval retrieval and study
// (fixed names) fill a session.Rerank.

func addRerankFlags(cmd *cobra.Command, f *session.Rerank) {
	cmd.Long += helpText("rerank")
	fl := cmd.Flags()
	fl.StringVar(&f.Kind, "rerank", rerank.None, "second-stage reranking: none (the papers'), api (a /rerank endpoint: TEI, vLLM, Jina, Cohere) or llm (a chat model, RankGPT-style)")
	fl.IntVar(&f.Depth, "rerank-depth", rerank.DefaultDepth, "first-stage candidates the reranker reorders before the top k are kept")
	fl.StringVar(&f.BaseURL, "rerank-base-url", "", "rerank server root: http://host:8080 (TEI), http://host:8000/v1 (vLLM), https://api.jina.ai/v1; for llm an OpenAI-compatible API root (default --base-url)")
	fl.StringVar(&f.Model, "rerank-model", "", "reranker model: sent to cohere-protocol servers (e.g. BAAI/bge-reranker-v2-m3, jina-reranker-v2-base-multilingual); for llm the chat model (default --model)")
	fl.StringVar(&f.Protocol, "rerank-protocol", "auto", "api: tei (POST /rerank {query,texts}), cohere (POST /v1/rerank {model,query,documents,top_n}: Cohere, Jina, vLLM, Infinity) or auto (cohere when the URL ends in /v1 or /v2)")
	fl.StringVar(&f.KeyEnv, "rerank-api-key-env", "", "environment variable holding the reranker's key (api: none sent by default; llm: default --api-key-env, else OPENAI_API_KEY)")
}
