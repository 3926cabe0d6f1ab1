package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/internal/cliflags"
)

// indexOptions are the flags of index.
type indexOptions struct {
	index           cliflags.Index
	asJSON, rebuild bool
}

func newIndexCmd(g *globalOptions) *cobra.Command {
	var o indexOptions
	cmd := &cobra.Command{
		Use:     "index",
		Short:   "Build or update the BM25 and dense indexes for what is ingested",
		Long:    helpText("index"),
		Example: helpText("index.example"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runIndex(cmd.Context(), g, o)
		},
	}
	o.index.Add(cmd.Flags())
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
	rep, err := session.UpdateIndex(ctx, g.homeDir(), o.index.Spec(g.env), o.rebuild, progress)
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
