package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/session"
)

// indexOptions are the flags of index.
type indexOptions struct {
	index           indexFlags
	asJSON, rebuild bool
}

func newIndexCmd(g *globalOptions) *cobra.Command {
	var o indexOptions
	cmd := &cobra.Command{
		Use:   "index",
		Short: "Build or update the BM25 and dense indexes for what is ingested",
		Long: `index brings the retrieval indexes under --home in step with the corpus:
new or changed papers are indexed, removed ones dropped. It is safe to run
again at any time; what is up to date is left alone, and a build killed
half-way resumes where it stopped.

  BM25     Okapi BM25 as rank_bm25's BM25Okapi (bm25's default) and Bleve
           (scoring model bm25): both are built, and --bm25 on the commands
           that search picks one
  dense    an embedder (lsa by default: latent semantic analysis fitted on your
           corpus, no download; or any OpenAI-compatible /v1/embeddings model
           such as BGE-m3 served by TEI, vLLM or Ollama) into a vector store
           (embedded exact-cosine store by default, or Qdrant)

Embeddings from a remote model are cached by (model, text), so re-indexing
never pays for the same text twice.`,
		Example: `  paperlens index
  paperlens index --embedder openai --embed-base-url http://localhost:8080/v1 --embed-model BAAI/bge-m3
  paperlens index --store qdrant --qdrant http://localhost:6334`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runIndex(cmd.Context(), g, o)
		},
	}
	addIndexFlags(cmd, &o.index)
	// Both BM25 scorers are always built: --bm25 is accepted, so one set of
	// index flags serves index and the commands that search, but not shown.
	cmd.Flags().MarkHidden("bm25")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&o.rebuild, "rebuild", false, "drop every index and build from scratch (after changing embedder or store)")
	return cmd
}

// runIndex brings the home's indexes in step with its corpus.
func runIndex(ctx context.Context, g *globalOptions, o indexOptions) error {
	var progress io.Writer
	if !o.asJSON {
		progress = g.errOut
	}
	rep, err := session.UpdateIndex(ctx, g.homeDir(), o.index.spec(g), o.rebuild, progress)
	if err != nil {
		return err
	}
	if o.asJSON {
		return json.NewEncoder(g.stdout).Encode(rep)
	}
	fmt.Fprintf(g.out, "%d papers: %d indexed, %d removed, %d passages embedded by %s into the %s store (dimension %d)\n",
		rep.Papers, rep.Indexed, rep.Removed, rep.Embedded, rep.Embedder, rep.Store, rep.Dim)
	return nil
}
