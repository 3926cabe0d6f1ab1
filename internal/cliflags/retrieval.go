package cliflags

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/retrieve/evidence"
	"github.com/paperlens/paperlens/retrieve/index"
	"github.com/paperlens/paperlens/retrieve/rerank"
)

// Index is the flags of every command that opens the indexes: the
// embedder, the vector store, fusion and the BM25 scorer.
type Index struct{ session.Index }

// Add declares the index flags.
func (f *Index) Add(fl *pflag.FlagSet) {
	x := &f.Index
	fl.StringVar(&x.Embedder, "embedder", "lsa", "dense embedder: lsa (embedded, fitted on your corpus, no download) or openai (any OpenAI-compatible /v1/embeddings endpoint: TEI, vLLM, Ollama, OpenAI)")
	fl.StringVar(&x.EmbedModel, "embed-model", "BAAI/bge-m3", "embedding model name for --embedder openai (ElaipBench used BGE-m3)")
	fl.StringVar(&x.EmbedBaseURL, "embed-base-url", "", "embedding endpoint base URL, e.g. http://localhost:8080/v1 (default $OPENAI_BASE_URL)")
	fl.StringVar(&x.EmbedKeyEnv, "embed-api-key-env", "OPENAI_API_KEY", "environment variable holding the embedding endpoint's key")
	fl.StringVar(&x.QueryPrefix, "embed-query-prefix", "", `text put before queries, for models that want it (E5: "query: ")`)
	fl.StringVar(&x.PassagePrefix, "embed-passage-prefix", "", `text put before passages (E5: "passage: ")`)
	fl.IntVar(&x.EmbedBatch, "embed-batch", 64, "texts per embedding request")
	fl.IntVar(&x.EmbedConcurrency, "embed-concurrency", 4, "embedding requests in flight")
	// --vector-store names the dense store beside --bm25-store; --store,
	// its first name, stays a documented alias bound to the same setting.
	fl.StringVar(&x.Store, "vector-store", "embedded", "dense vector store: embedded (exact cosine, on disk under --home) or qdrant (a Qdrant server or cluster, see docs/scale.md)")
	fl.StringVar(&x.Store, "store", "embedded", "alias of --vector-store")
	fl.StringVar(&x.QdrantURL, "qdrant", "", "Qdrant gRPC URL, e.g. http://localhost:6334 (default $QDRANT_URL)")
	fl.StringVar(&x.Collection, "collection", "paperlens", "Qdrant collection of the dense vectors; the BM25 collection of --bm25-store qdrant is this name plus "+session.SparseSuffix)
	fl.IntVar(&x.QdrantShards, "qdrant-shards", 0, "shard keys of a new Qdrant collection: 0 leaves sharding to Qdrant (1 shard on one node, 1 per node on a cluster); N puts each paper on one of N keys (custom sharding, needs Qdrant's distributed mode), so a search within a paper touches one shard")
	fl.IntVar(&x.QdrantEF, "qdrant-ef", session.DefaultQdrantEF, "HNSW ef of corpus-wide Qdrant searches (within a paper searches are exact); 0 makes corpus-wide searches exact too")
	fl.StringVar(&x.BM25Store, "bm25-store", "embedded", "where corpus-wide bm25 is served from: embedded (the Okapi index under --home) or qdrant (a sparse collection with Qdrant's IDF modifier on the --qdrant server)")
	fl.Var(Size(&x.IndexMemory, 64<<20, func(s string) error {
		return fmt.Errorf("--index-memory %s is too little to build indexes in; give at least 64MiB", s)
	}, index.DefaultIndexMemory), "index-memory", "memory an index build may use for its working set, whatever the corpus size (e.g. 512MiB, 2GiB): Bleve's batches, the Okapi writer's postings before they spill to disk, and the LSA fit (fitted on a sample when the corpus needs more)")
	fl.IntVar(&x.LSADim, "lsa-dim", 256, "dimensions of the lsa embedder")
	fl.IntVar(&x.RRFK, "rrf-k", 60, "k of reciprocal rank fusion for hybrid retrieval")
	// Left empty, so the index applies index.DefaultBM25: one place says
	// what the default is (and the help does not print it twice).
	fl.Var(bm25Value(&x.BM25), "bm25", "scorer behind bm25 and hybrid within a paper: okapi (rank_bm25's BM25Okapi, as ElaipBench A.7.1; default) or bleve (Bleve's BM25)")
}

// Spec is the index settings, with the invocation's environment (env
// overrides the process's; nil: none).
func (f *Index) Spec(env map[string]string) session.Index {
	x := f.Index
	x.Env = env
	return x
}

// AddRerank declares the reranking flags of search, ask, eval, eval
// retrieval and study. Their longer help (help/rerank.txt in the command)
// is the caller's to append to the command's.
func AddRerank(fl *pflag.FlagSet, f *session.Rerank) {
	fl.StringVar(&f.Kind, "rerank", rerank.None, "second-stage reranking: none (the papers'), api (a /rerank endpoint: TEI, vLLM, Jina, Cohere) or llm (a chat model, RankGPT-style)")
	fl.IntVar(&f.Depth, "rerank-depth", rerank.DefaultDepth, "first-stage candidates the reranker reorders before the top k are kept")
	fl.StringVar(&f.BaseURL, "rerank-base-url", "", "rerank server root: http://host:8080 (TEI), http://host:8000/v1 (vLLM), https://api.jina.ai/v1; for llm an OpenAI-compatible API root (default --base-url)")
	fl.StringVar(&f.Model, "rerank-model", "", "reranker model: sent to cohere-protocol servers (e.g. BAAI/bge-reranker-v2-m3, jina-reranker-v2-base-multilingual); for llm the chat model (default --model)")
	fl.StringVar(&f.Protocol, "rerank-protocol", "auto", "api: tei (POST /rerank {query,texts}), cohere (POST /v1/rerank {model,query,documents,top_n}: Cohere, Jina, vLLM, Infinity) or auto (cohere when the URL ends in /v1 or /v2)")
	fl.StringVar(&f.KeyEnv, "rerank-api-key-env", "", "environment variable holding the reranker's key (api: none sent by default; llm: default --api-key-env, else OPENAI_API_KEY)")
}

// AddThreshold declares --threshold, the evidence rule's share of a gold
// sentence's words (eval retrieval, export), defaulting to the rule's.
func AddThreshold(fl *pflag.FlagSet, p *float64) {
	fl.Float64Var(p, "threshold", evidence.DefaultThreshold, "share of a gold sentence's words a passage must cover for the sentence to count as found (and the passage as a gold one)")
}

// excludeKindsUsage is --exclude-kinds' help in every command that
// retrieves.
const excludeKindsUsage = "passage kinds retrieval leaves out, comma-separated (e.g. references,front-matter; kinds: see 'paperlens ingest --help'), or none; k passages of the other kinds are still returned"

// AddExcludeKinds declares --exclude-kinds, the list ParseExcludeKinds
// reads.
func AddExcludeKinds(fl *pflag.FlagSet, p *string) {
	fl.StringVar(p, "exclude-kinds", "", excludeKindsUsage)
}

// ParseExcludeKinds reads --exclude-kinds, with errors that name the flag.
func ParseExcludeKinds(list string) ([]kind.Kind, error) {
	canon, err := run.ParseExcludeKinds(list)
	if err != nil {
		return nil, err
	}
	return kind.Parse(canon)
}

// AddPassageTokens declares --passage-tokens, the passage size in every
// command, with the old names kept working: old is "max-tokens" (ingest,
// eval retrieval: deprecated, since eval's --max-tokens is the answer
// length) or "max-passage-tokens" (eval, study, ask: a hidden alias).
func AddPassageTokens(fl *pflag.FlagSet, p *int, old string) {
	fl.IntVar(p, "passage-tokens", 512, "largest passage, in cl100k_base tokens, for papers this command ingests (ElaipBench: 512)")
	fl.IntVar(p, old, 512, "alias of --passage-tokens")
	_ = fl.MarkHidden(old)
	if old == "max-tokens" {
		_ = fl.SetAnnotation(old, Deprecated, []string{"use --passage-tokens (the passage size; --max-tokens is the answer length in eval)"})
	}
}
