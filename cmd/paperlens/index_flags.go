package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/ingest/corpus"
	"github.com/paperlens/paperlens/retrieve/embed"
	"github.com/paperlens/paperlens/retrieve/embed/openai"
	"github.com/paperlens/paperlens/retrieve/index"
	"github.com/paperlens/paperlens/retrieve/vector"
	"github.com/paperlens/paperlens/retrieve/vector/qdrant"
)

// indexFlags are the flags of every command that opens the indexes.
type indexFlags struct {
	embedder, embedModel, embedBaseURL, embedKeyEnv string
	queryPrefix, passagePrefix                      string
	embedBatch, embedConcurrency                    int
	store, qdrantURL, collection                    string
	lsaDim, rrfK                                    int
	bm25                                            bm25Flag
}

// bm25Flag is --bm25, checked as it is parsed so that a bad value fails
// the command before it ingests or indexes anything.
type bm25Flag string

var _ pflag.Value = (*bm25Flag)(nil)

func (b *bm25Flag) String() string { return string(*b) }
func (b *bm25Flag) Type() string   { return "okapi|bleve" }
func (b *bm25Flag) Set(s string) error {
	if err := index.CheckBM25(s); err != nil {
		// pflag already names the flag and the value.
		return index.ErrBM25
	}
	*b = bm25Flag(s)
	return nil
}

func addIndexFlags(cmd *cobra.Command, f *indexFlags) {
	fl := cmd.Flags()
	fl.StringVar(&f.embedder, "embedder", "lsa", "dense embedder: lsa (embedded, fitted on your corpus, no download) or openai (any OpenAI-compatible /v1/embeddings endpoint: TEI, vLLM, Ollama, OpenAI)")
	fl.StringVar(&f.embedModel, "embed-model", "BAAI/bge-m3", "embedding model name for --embedder openai (ElaipBench used BGE-m3)")
	fl.StringVar(&f.embedBaseURL, "embed-base-url", "", "embedding endpoint base URL, e.g. http://localhost:8080/v1 (default $OPENAI_BASE_URL)")
	fl.StringVar(&f.embedKeyEnv, "embed-api-key-env", "OPENAI_API_KEY", "environment variable holding the embedding endpoint's key")
	fl.StringVar(&f.queryPrefix, "embed-query-prefix", "", `text put before queries, for models that want it (E5: "query: ")`)
	fl.StringVar(&f.passagePrefix, "embed-passage-prefix", "", `text put before passages (E5: "passage: ")`)
	fl.IntVar(&f.embedBatch, "embed-batch", 64, "texts per embedding request")
	fl.IntVar(&f.embedConcurrency, "embed-concurrency", 4, "embedding requests in flight")
	fl.StringVar(&f.store, "store", "embedded", "vector store: embedded (exact cosine, on disk under --home) or qdrant")
	fl.StringVar(&f.qdrantURL, "qdrant", "", "Qdrant gRPC URL, e.g. http://localhost:6334 (default $QDRANT_URL)")
	fl.StringVar(&f.collection, "collection", "paperlens", "Qdrant collection")
	fl.IntVar(&f.lsaDim, "lsa-dim", 256, "dimensions of the lsa embedder")
	fl.IntVar(&f.rrfK, "rrf-k", 60, "k of reciprocal rank fusion for hybrid retrieval")
	// Left empty, so the index applies index.DefaultBM25: one place says
	// what the default is (and the help does not print it twice).
	fl.Var(&f.bm25, "bm25", "scorer behind bm25 and hybrid within a paper: okapi (rank_bm25's BM25Okapi, as ElaipBench A.7.1; default) or bleve (Bleve's BM25)")
}

// BM25 is the scorer behind bm25 and hybrid within a paper, as the index
// opened with these flags uses it (index.Index.BM25Scorer says the same of
// an open index): for a run to record, since it moves every bm25 number.
func (f *indexFlags) BM25() string {
	if f.bm25 == "" {
		return index.DefaultBM25
	}
	return string(f.bm25)
}

func (f *indexFlags) config(home string) index.Config {
	cfg := index.Config{
		Home: home, Embedder: f.embedder, EmbedModel: f.embedModel, Store: f.store,
		LSADim: f.lsaDim, RRFK: f.rrfK, BM25: string(f.bm25),
	}
	if f.embedder == "openai" {
		cfg.NewEmbedder = func(ctx context.Context) (embed.Embedder, error) { return f.openAIEmbedder() }
	}
	if f.store == "qdrant" {
		url := f.qdrantURL
		if url == "" {
			url = os.Getenv("QDRANT_URL")
		}
		cfg.OpenStore = func(ctx context.Context, dim int) (vector.Store, error) {
			if url == "" {
				return nil, fmt.Errorf("--store qdrant needs --qdrant URL or QDRANT_URL (start one with 'docker compose up -d qdrant')")
			}
			return qdrant.Open(ctx, url, f.collection, dim)
		}
	}
	return cfg
}

// openIndex opens the corpus and its indexes for searching, bringing the
// indexes up to date first when they are behind the corpus, and prints
// progress to stderr unless quiet. What it returns is open read-only, under
// shared locks: the writer locks are taken only for an update and released
// before the search starts, so several evals and searches can share a home
// at once (an ingest or index build then waits for them, and they for it).
func openIndex(ctx context.Context, home string, f *indexFlags, quiet bool) (*corpus.Store, *index.Index, index.Report, error) {
	cfg := f.config(home)
	progress := func(format string, args ...any) {
		if !quiet {
			fmt.Fprintf(stderr, "index: "+format+"\n", args...)
		}
	}
	var rep index.Report
	updated := false
	// Another process may ingest between our update and the read-only
	// reopen; a few rounds catch up with it rather than fail the run.
	for range 3 {
		st, ix, err := openIndexReadOnly(ctx, home, cfg)
		if err == nil {
			if !updated {
				rep = ix.Summary()
			}
			return st, ix, rep, nil
		}
		if !errors.Is(err, index.ErrStale) {
			return nil, nil, index.Report{}, err
		}
		if rep, err = updateIndex(ctx, home, cfg, progress); err != nil {
			return nil, nil, rep, err
		}
		updated = true
	}
	return nil, nil, rep, fmt.Errorf("the index of home %s keeps changing under this process (an ingest running?): wait for it to finish and run again", home)
}

// openIndexReadOnly opens the corpus and indexes read-only, failing with
// index.ErrStale when the indexes need an update (or the home has no corpus
// yet, which an update creates).
func openIndexReadOnly(ctx context.Context, home string, cfg index.Config) (*corpus.Store, *index.Index, error) {
	if _, err := os.Stat(filepath.Join(home, corpus.FileName)); errors.Is(err, os.ErrNotExist) {
		return nil, nil, fmt.Errorf("no corpus in %s: %w", home, index.ErrStale)
	}
	st, err := corpus.Open(home, true)
	if err != nil {
		return nil, nil, err
	}
	cfg.ReadOnly = true
	ix, err := index.Open(ctx, cfg, st)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return st, ix, nil
}

// updateIndex opens the corpus and indexes for writing, updates them and
// closes them again.
func updateIndex(ctx context.Context, home string, cfg index.Config, progress index.Progress) (index.Report, error) {
	st, err := corpus.Open(home, false)
	if err != nil {
		return index.Report{}, err
	}
	defer st.Close()
	ix, err := index.Open(ctx, cfg, st)
	if err != nil {
		return index.Report{}, err
	}
	rep, err := ix.Update(ctx, progress)
	if cerr := ix.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close the index of home %s: %w", home, cerr)
	}
	return rep, err
}

// openAIEmbedder builds the remote embedder from flags and environment; the
// key is read here and goes nowhere but the Authorization header.
func (f *indexFlags) openAIEmbedder() (embed.Embedder, error) {
	base := f.embedBaseURL
	if base == "" {
		base = os.Getenv("OPENAI_BASE_URL")
	}
	return openai.New(openai.Options{
		BaseURL: base, APIKey: os.Getenv(f.embedKeyEnv), Model: f.embedModel,
		BatchSize: f.embedBatch, Concurrency: f.embedConcurrency,
		QueryPrefix: f.queryPrefix, PassagePrefix: f.passagePrefix,
	})
}
