package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/retrieve/index"
)

// indexFlags are the flags of every command that opens the indexes.
type indexFlags struct{ x session.Index }

// bm25Flag is --bm25, checked as it is parsed so that a bad value fails
// the command before it ingests or indexes anything.
type bm25Flag struct{ p *string }

var _ pflag.Value = bm25Flag{}

func (b bm25Flag) String() string {
	if b.p == nil {
		return ""
	}
	return *b.p
}
func (b bm25Flag) Type() string { return "okapi|bleve" }
func (b bm25Flag) Set(s string) error {
	if err := index.CheckBM25(s); err != nil {
		// pflag already names the flag and the value.
		return index.ErrBM25
	}
	*b.p = s
	return nil
}

func addIndexFlags(cmd *cobra.Command, f *indexFlags) {
	fl, x := cmd.Flags(), &f.x
	fl.StringVar(&x.Embedder, "embedder", "lsa", "dense embedder: lsa (embedded, fitted on your corpus, no download) or openai (any OpenAI-compatible /v1/embeddings endpoint: TEI, vLLM, Ollama, OpenAI)")
	fl.StringVar(&x.EmbedModel, "embed-model", "BAAI/bge-m3", "embedding model name for --embedder openai (ElaipBench used BGE-m3)")
	fl.StringVar(&x.EmbedBaseURL, "embed-base-url", "", "embedding endpoint base URL, e.g. http://localhost:8080/v1 (default $OPENAI_BASE_URL)")
	fl.StringVar(&x.EmbedKeyEnv, "embed-api-key-env", "OPENAI_API_KEY", "environment variable holding the embedding endpoint's key")
	fl.StringVar(&x.QueryPrefix, "embed-query-prefix", "", `text put before queries, for models that want it (E5: "query: ")`)
	fl.StringVar(&x.PassagePrefix, "embed-passage-prefix", "", `text put before passages (E5: "passage: ")`)
	fl.IntVar(&x.EmbedBatch, "embed-batch", 64, "texts per embedding request")
	fl.IntVar(&x.EmbedConcurrency, "embed-concurrency", 4, "embedding requests in flight")
	fl.StringVar(&x.Store, "store", "embedded", "vector store: embedded (exact cosine, on disk under --home) or qdrant")
	fl.StringVar(&x.QdrantURL, "qdrant", "", "Qdrant gRPC URL, e.g. http://localhost:6334 (default $QDRANT_URL)")
	fl.StringVar(&x.Collection, "collection", "paperlens", "Qdrant collection")
	fl.IntVar(&x.LSADim, "lsa-dim", 256, "dimensions of the lsa embedder")
	fl.IntVar(&x.RRFK, "rrf-k", 60, "k of reciprocal rank fusion for hybrid retrieval")
	// Left empty, so the index applies index.DefaultBM25: one place says
	// what the default is (and the help does not print it twice).
	fl.Var(bm25Flag{&x.BM25}, "bm25", "scorer behind bm25 and hybrid within a paper: okapi (rank_bm25's BM25Okapi, as ElaipBench A.7.1; default) or bleve (Bleve's BM25)")
}

// spec is the index settings, with the invocation's environment.
func (f *indexFlags) spec(g *globalOptions) session.Index {
	x := f.x
	x.Env = g.getenv
	return x
}
