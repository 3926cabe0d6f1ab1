package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/ingest/corpus"
	"github.com/paperlens/paperlens/retrieve/index"
)

func newIndexCmd() *cobra.Command {
	var f indexFlags
	var asJSON, rebuild bool
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
			ctx := cmd.Context()
			home := homeDir(cmd)
			st, err := corpus.Open(home, false)
			if err != nil {
				return err
			}
			defer st.Close()
			cfg := f.config(home)
			cfg.Rebuild = rebuild
			ix, err := index.Open(ctx, cfg, st)
			if err != nil {
				return err
			}
			defer ix.Close()
			rep, err := ix.Update(ctx, func(format string, a ...any) {
				if !asJSON {
					fmt.Fprintf(stderr, "index: "+format+"\n", a...)
				}
			})
			if err != nil {
				return err
			}
			if asJSON {
				return json.NewEncoder(os.Stdout).Encode(rep)
			}
			fmt.Fprintf(stdout, "%d papers: %d indexed, %d removed, %d passages embedded by %s into the %s store (dimension %d)\n",
				rep.Papers, rep.Indexed, rep.Removed, rep.Embedded, rep.Embedder, rep.Store, rep.Dim)
			return nil
		},
	}
	addIndexFlags(cmd, &f)
	// Both BM25 scorers are always built: --bm25 is accepted, so one set of
	// index flags serves index and the commands that search, but not shown.
	cmd.Flags().MarkHidden("bm25")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&rebuild, "rebuild", false, "drop every index and build from scratch (after changing embedder or store)")
	return cmd
}
