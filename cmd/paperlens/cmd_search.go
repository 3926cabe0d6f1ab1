package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/internal/cliflags"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/batch"
	"github.com/paperlens/paperlens/retrieve/index"
)

// searchOptions are the flags of search.
type searchOptions struct {
	index                               cliflags.Index
	asJSON                              bool
	paper, retriever, queries, excludes string
	k                                   int
	rerank                              session.Rerank
}

func newSearchCmd(g *globalOptions) *cobra.Command {
	var o searchOptions
	cmd := &cobra.Command{
		Use:     "search [flags] QUERY | --queries FILE.jsonl",
		Short:   "Retrieve passages for a query, within one paper or across the corpus",
		Long:    helpText("search") + helpText("rerank"),
		Example: helpText("search.example"),
		Args: func(cmd *cobra.Command, args []string) error {
			if o.queries != "" {
				if len(args) > 0 {
					return fmt.Errorf("give either QUERY or --queries FILE, not both (got %d words of query with --queries %s)", len(args), o.queries)
				}
				return nil
			}
			return cobra.MinimumNArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSearch(cmd.Context(), g, o, args)
		},
	}
	o.index.Add(cmd.Flags())
	cmd.Flags().BoolVar(&o.asJSON, "json", false, `one JSON object per hit: {"rank","score","paper_id","passage_id","text","retriever","kind"}`)
	cmd.Flags().StringVar(&o.paper, "paper", "", "search only this paper (intra-paper retrieval, as ElaipBench)")
	cmd.Flags().StringVar(&o.retriever, "retriever", index.BM25, "bm25, bleve, okapi, dense or hybrid")
	cmd.Flags().IntVarP(&o.k, "k", "k", 5, "passages to return")
	cliflags.AddExcludeKinds(cmd.Flags(), &o.excludes)
	cliflags.AddRerank(cmd.Flags(), &o.rerank)
	cmd.Flags().StringVar(&o.queries, "queries", "", `search every line of this JSONL file, {"id","query","paper"?}, loading the indexes once ("-" for stdin)`)
	return cmd
}

// runSearch searches one query, or every line of --queries with the
// indexes loaded once.
func runSearch(ctx context.Context, g *globalOptions, o searchOptions, args []string) error {
	if o.k <= 0 {
		return fmt.Errorf("-k must be at least 1, got %d", o.k)
	}
	if o.queries != "" && o.paper != "" {
		return fmt.Errorf("--paper does not apply to --queries: give each line its own \"paper\"")
	}
	exclude, err := cliflags.ParseExcludeKinds(o.excludes)
	if err != nil {
		return err
	}
	if err := o.rerank.Check(); err != nil {
		return err
	}
	if o.queries != "" && o.queries != "-" {
		// Fail on a missing file before loading any index.
		if _, err := os.Stat(o.queries); err != nil {
			return fmt.Errorf("--queries: %w", err)
		}
	}
	home := g.homeDir()
	r, closer, err := session.Searcher(ctx, session.Retrieval{Home: home, Index: o.index.Spec(g.env), Rerank: o.rerank, Env: g.env, Log: g.errOut}, o.retriever, exclude)
	if err != nil {
		return err
	}
	defer closer.Close()
	if o.queries != "" {
		return searchQueries(ctx, g, r, o.queries, o.k)
	}
	hits, err := r.Search(ctx, retrieve.Query{Text: strings.Join(args, " "), PaperID: o.paper, K: o.k})
	if err != nil {
		return err
	}
	enc := json.NewEncoder(g.stdout)
	for _, h := range hits {
		if o.asJSON {
			if err := enc.Encode(h); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(g.out, "%2d  %8.4f  %s\n    %s\n\n", h.Rank, h.Score, h.PassageID, truncate(strings.Join(strings.Fields(h.Text), " "), 300))
	}
	if len(hits) == 0 && !o.asJSON {
		fmt.Fprintln(g.errOut, "no passages matched")
	}
	return nil
}

// searchQueries searches every line of the queries file (stdin for "-")
// with the indexes already open, and exits 1 when some line failed.
func searchQueries(ctx context.Context, g *globalOptions, r retrieve.Retriever, path string, k int) error {
	in, name := g.stdin, "standard input"
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("--queries: %w", err)
		}
		defer f.Close()
		in, name = f, path
	}
	n, err := batch.Search(ctx, r, in, name, k, g.stdout, g.stderr)
	if err == nil && n.Failed > 0 {
		return &exitError{code: 1, msg: fmt.Sprintf("%d of %d queries in %s failed; each has an {\"id\",\"line\",\"error\"} line in the output, the others their hits", n.Failed, n.Total, name)}
	}
	return err
}
