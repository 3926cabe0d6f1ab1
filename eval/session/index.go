package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/retrieve/embed"
	"github.com/paperlens/paperlens/retrieve/embed/openai"
	"github.com/paperlens/paperlens/retrieve/index"
	"github.com/paperlens/paperlens/retrieve/vector"
	"github.com/paperlens/paperlens/retrieve/vector/qdrant"
)

// Index says how a home's indexes are built and opened: the embedder, the
// vector store, fusion and the BM25 scorer.
type Index struct {
	Embedder, EmbedModel, EmbedBaseURL, EmbedKeyEnv string
	QueryPrefix, PassagePrefix                      string
	EmbedBatch, EmbedConcurrency                    int
	// Store is the dense vector store (--vector-store, alias --store):
	// embedded or qdrant.
	Store, QdrantURL, Collection string
	// QdrantShards and QdrantEF shape the Qdrant collections (see
	// qdrant.Options): shard keys of a new collection (0: Qdrant's
	// default sharding) and the HNSW ef of corpus-wide dense searches (0:
	// exact).
	QdrantShards, QdrantEF int
	// BM25Store is where corpus-wide bm25 is served from: embedded (or
	// "") or qdrant, a sparse collection named Collection+SparseSuffix.
	BM25Store    string
	LSADim, RRFK int
	// BM25 is the scorer within a paper; "": index.DefaultBM25.
	BM25 string
	// IndexMemory bounds an index build's working memory in bytes
	// (--index-memory); 0: index.DefaultIndexMemory.
	IndexMemory int64
	// Env overrides the process's environment for the embedding key and
	// default URLs; nil: none.
	Env map[string]string
}

// DefaultQdrantEF is --qdrant-ef's default: see qdrant.DefaultEF for why.
const DefaultQdrantEF = qdrant.DefaultEF

// SparseSuffix names the BM25 collection after the dense one: with
// --collection papers, BM25 lives in papers_bm25.
const SparseSuffix = "_bm25"

// QdrantOptions are the collection settings Open and OpenSparse take.
func (x Index) QdrantOptions() qdrant.Options {
	return qdrant.Options{Shards: x.QdrantShards, EF: x.QdrantEF}
}

// Scorer is the scorer behind bm25 and hybrid within a paper, as the index
// opened with these settings uses it (index.Index.BM25Scorer says the same
// of an open index): for a run to record, since it moves every bm25 number.
func (x Index) Scorer() string {
	if x.BM25 == "" {
		return index.DefaultBM25
	}
	return x.BM25
}

// Config is the index.Config of home under these settings.
func (x Index) Config(home string) index.Config {
	cfg := index.Config{
		Home: home, Embedder: x.Embedder, EmbedModel: x.EmbedModel, Store: x.Store,
		LSADim: x.LSADim, RRFK: x.RRFK, BM25: x.BM25, BM25Store: x.BM25Store,
		IndexMemory: x.IndexMemory,
	}
	env := envOf(x.Env)
	if x.Embedder == "openai" {
		cfg.NewEmbedder = func(ctx context.Context) (embed.Embedder, error) { return x.openAIEmbedder(env) }
	}
	url := x.QdrantURL
	if url == "" {
		url = env("QDRANT_URL")
	}
	if x.Store == "qdrant" {
		cfg.OpenStore = func(ctx context.Context, dim int) (vector.Store, error) {
			if url == "" {
				return nil, fmt.Errorf("--vector-store qdrant needs --qdrant URL or QDRANT_URL (start one with 'docker compose up -d qdrant', or a cluster: docs/scale.md)")
			}
			return qdrant.OpenWith(ctx, url, x.Collection, dim, x.QdrantOptions())
		}
	}
	if x.BM25Store == index.BM25StoreQdrant {
		cfg.OpenSparse = func(ctx context.Context) (vector.SparseStore, error) {
			if url == "" {
				return nil, fmt.Errorf("--bm25-store qdrant needs --qdrant URL or QDRANT_URL (start one with 'docker compose up -d qdrant', or a cluster: docs/scale.md)")
			}
			return qdrant.OpenSparse(ctx, url, x.Collection+SparseSuffix, x.QdrantOptions())
		}
	}
	return cfg
}

// Check validates the vector and BM25 store settings before anything is
// opened, naming the flags.
func (x Index) Check() error {
	switch x.Store {
	case "", "embedded", "qdrant":
	default:
		return fmt.Errorf("--vector-store %q: use embedded (on disk under --home) or qdrant", x.Store)
	}
	if err := index.CheckBM25Store(x.BM25Store); err != nil {
		return err
	}
	if x.QdrantShards < 0 || x.QdrantEF < 0 {
		return fmt.Errorf("--qdrant-shards %d, --qdrant-ef %d: give 0 or a positive number (0: Qdrant's default sharding; exact corpus-wide search)", x.QdrantShards, x.QdrantEF)
	}
	return nil
}

// Recorded is the store settings as a run records them (config.json's
// index block): the vector store and the BM25 store, and for Qdrant its
// collection, shard keys and ef. The URL is left out: it names a machine,
// not a setting that moves a number.
func (x Index) Recorded() map[string]string {
	rec := map[string]string{"vector_store": orDefault(x.Store, "embedded"), "bm25_store": orDefault(x.BM25Store, index.BM25StoreEmbedded)}
	if x.Store == "qdrant" || x.BM25Store == index.BM25StoreQdrant {
		rec["qdrant_collection"] = x.Collection
		rec["qdrant_shards"] = strconv.Itoa(x.QdrantShards)
	}
	if x.Store == "qdrant" {
		rec["qdrant_ef"] = strconv.Itoa(x.QdrantEF)
	}
	return rec
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// openAIEmbedder builds the remote embedder; the key is read here and goes
// nowhere but the Authorization header.
func (x Index) openAIEmbedder(env func(string) string) (embed.Embedder, error) {
	base := x.EmbedBaseURL
	if base == "" {
		base = env("OPENAI_BASE_URL")
	}
	return openai.New(openai.Options{
		BaseURL: base, APIKey: env(x.EmbedKeyEnv), Model: x.EmbedModel,
		BatchSize: x.EmbedBatch, Concurrency: x.EmbedConcurrency,
		QueryPrefix: x.QueryPrefix, PassagePrefix: x.PassagePrefix,
	})
}

// OpenIndex opens home's corpus and indexes for searching, bringing the
// indexes up to date first when they are behind the corpus, and reports
// that update on progress (nil: silent). What it returns is open
// read-only, under shared locks: the writer locks are taken only for an
// update and released before the search starts, so several evals and
// searches can share a home at once (an ingest or index build then waits
// for them, and they for it).
func OpenIndex(ctx context.Context, home string, x Index, progress io.Writer) (*corpus.Store, *index.Index, index.Report, error) {
	if err := x.Check(); err != nil {
		return nil, nil, index.Report{}, err
	}
	cfg := x.Config(home)
	report := func(format string, args ...any) {
		if progress != nil {
			fmt.Fprintf(progress, "index: "+format+"\n", args...)
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
		if rep, err = updateIndex(ctx, home, cfg, report); err != nil {
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

// UpdateIndex brings home's indexes in step with its corpus (from scratch
// with rebuild), reporting on progress (nil: silent): the index command.
func UpdateIndex(ctx context.Context, home string, x Index, rebuild bool, progress io.Writer) (index.Report, error) {
	if err := x.Check(); err != nil {
		return index.Report{}, err
	}
	st, err := corpus.Open(home, false)
	if err != nil {
		return index.Report{}, err
	}
	defer st.Close()
	cfg := x.Config(home)
	cfg.Rebuild = rebuild
	ix, err := index.Open(ctx, cfg, st)
	if err != nil {
		return index.Report{}, err
	}
	defer ix.Close()
	return ix.Update(ctx, func(format string, a ...any) {
		if progress != nil {
			fmt.Fprintf(progress, "index: "+format+"\n", a...)
		}
	})
}

// Ingest stores the inputs' cleaned text and passages in home's corpus
// (the ingest command), which it holds open for writing as long as the
// ingest runs: readers of the home wait for it, and it for them.
func Ingest(ctx context.Context, home string, inputs []string, opt ingest.Options, each func(ingest.Result)) (failed int, err error) {
	st, err := corpus.Open(home, false)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	return ingest.Run(ctx, st, inputs, opt, each)
}

// OpenCorpus opens home's corpus read-only, under a shared lock, to list
// or show what is stored.
func OpenCorpus(home string) (*corpus.Store, error) { return corpus.Open(home, true) }
