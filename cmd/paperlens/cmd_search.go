package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/index"
	"github.com/paperlens/paperlens/retrieve/rerank"
)

func newSearchCmd() *cobra.Command {
	var f indexFlags
	var asJSON bool
	var paper, retr, queries, excludeKinds string
	var k int
	var rf rerankFlags
	cmd := &cobra.Command{
		Use:   "search [flags] QUERY | --queries FILE.jsonl",
		Short: "Retrieve passages for a query, within one paper or across the corpus",
		Long: `search ranks passages for QUERY with one retriever:

  bm25    BM25: within a paper the --bm25 scorer (okapi unless told),
          over the corpus okapi
  bleve   Bleve's BM25        okapi   textbook Okapi BM25 (rank_bm25)
  dense   embedder + vector store
  hybrid  reciprocal rank fusion of bm25 and dense

Indexes are brought up to date first, so search works right after ingest.

--queries FILE.jsonl searches many queries with the indexes loaded once:
each line is {"id": ..., "query": "...", "paper": "..."} (paper optional:
search within that paper), and each writes one line to stdout,
{"id","query","paper","hits":[...]} with hits as --json prints them, in the
order of the file. A line that fails writes {"id","line","error"} instead
and the others go on; the exit status is then 1. FILE "-" reads stdin.`,
		Example: `  paperlens search --paper tidal-token-pruning "how are pruned tokens restored"
  paperlens search --retriever hybrid -k 5 --json "early exit calibration"
  paperlens search --queries questions.jsonl -k 10 > hits.jsonl
  paperlens search --paper trpo --rerank api --rerank-base-url http://localhost:8080 "what does the trust region bound"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if queries != "" {
				if len(args) > 0 {
					return fmt.Errorf("give either QUERY or --queries FILE, not both (got %d words of query with --queries %s)", len(args), queries)
				}
				return nil
			}
			return cobra.MinimumNArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if k <= 0 {
				return fmt.Errorf("-k must be at least 1, got %d", k)
			}
			if queries != "" && paper != "" {
				return fmt.Errorf("--paper does not apply to --queries: give each line its own \"paper\"")
			}
			exclude, err := parseExcludeKinds(excludeKinds)
			if err != nil {
				return err
			}
			if err := rf.check(); err != nil {
				return err
			}
			ctx := cmd.Context()
			if queries != "" {
				ctx = cmd.Context()
				if queries != "-" {
					// Fail on a missing file before loading any index.
					if _, err := os.Stat(queries); err != nil {
						return fmt.Errorf("--queries: %w", err)
					}
				}
			}
			st, ix, _, err := openIndex(ctx, homeDir(cmd), &f, true)
			if err != nil {
				return err
			}
			defer st.Close()
			defer ix.Close()
			r, err := ix.Retriever(retr)
			if err != nil {
				return err
			}
			r = retrieve.Excluding(r, exclude)
			rr, closer, err := rf.standalone(homeDir(cmd), os.Stderr)
			if err != nil {
				return err
			}
			defer closer.Close()
			r = rerank.Wrap(r, rr, rf.depth)
			if queries != "" {
				return searchBatch(ctx, r, queries, k, os.Stdout, os.Stderr)
			}
			hits, err := r.Search(ctx, retrieve.Query{Text: strings.Join(args, " "), PaperID: paper, K: k})
			if err != nil {
				return err
			}
			enc := json.NewEncoder(os.Stdout)
			for _, h := range hits {
				if asJSON {
					if err := enc.Encode(h); err != nil {
						return err
					}
					continue
				}
				fmt.Fprintf(stdout, "%2d  %8.4f  %s\n    %s\n\n", h.Rank, h.Score, h.PassageID, truncate(strings.Join(strings.Fields(h.Text), " "), 300))
			}
			if len(hits) == 0 && !asJSON {
				fmt.Fprintln(stderr, "no passages matched")
			}
			return nil
		},
	}
	addIndexFlags(cmd, &f)
	cmd.Flags().BoolVar(&asJSON, "json", false, `one JSON object per hit: {"rank","score","paper_id","passage_id","text"}`)
	cmd.Flags().StringVar(&paper, "paper", "", "search only this paper (intra-paper retrieval, as ElaipBench)")
	cmd.Flags().StringVar(&retr, "retriever", index.BM25, "bm25, bleve, okapi, dense or hybrid")
	cmd.Flags().IntVarP(&k, "k", "k", 5, "passages to return")
	addExcludeKinds(cmd, &excludeKinds)
	addRerankFlags(cmd, &rf)
	cmd.Flags().StringVar(&queries, "queries", "", `search every line of this JSONL file, {"id","query","paper"?}, loading the indexes once ("-" for stdin)`)
	return cmd
}
