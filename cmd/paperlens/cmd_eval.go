package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/eval/study"
	"github.com/paperlens/paperlens/internal/cliflags"
)

func newEvalCmd(g *globalOptions) *cobra.Command {
	cmd := newEvalModelCmd(g)
	cmd.AddCommand(newEvalRetrievalCmd(g))
	return cmd
}

func newEvalRetrievalCmd(g *globalOptions) *cobra.Command {
	var f cliflags.ScoreRetrieval
	cmd := &cobra.Command{
		Use:     "retrieval --bench elaipbench --data FILE",
		Short:   "Score retrievers against the benchmark's gold evidence (recall@k, hit@k, MRR)",
		Long:    helpText("eval-retrieval") + helpText("rerank"),
		Example: helpText("eval-retrieval.example"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRetrieval(cmd.Context(), g, &f, cmd.Flags().Changed)
		},
	}
	f.Add(cmd.Flags())
	return cmd
}

// runRetrieval scores retrievers against the benchmark's gold evidence,
// or with --sweep a grid of configurations at equal token budgets.
func runRetrieval(ctx context.Context, g *globalOptions, f *cliflags.ScoreRetrieval, changed func(string) bool) error {
	cfg, err := f.Config(changed)
	if err != nil {
		return err
	}
	qs, problems, err := bench.LoadElaipBench(f.Data)
	for _, p := range problems {
		fmt.Fprintf(g.errOut, "%s:%s\n", f.Data, p)
	}
	if err != nil {
		return err
	}
	qs, err = session.EnsurePapers(ctx, session.Papers{Home: g.homeDir(), Data: f.Data, Dir: f.Papers, MaxTokens: f.MaxTokens, Log: g.errOut, Isolation: g.isolation}, qs)
	if err != nil {
		return err
	}
	r := f.Retrieval(g.invocation())
	if !f.JSON {
		r.Progress = g.errOut
	}
	if f.Sweep.On {
		grid, err := f.Grid(cfg, changed, g.stderr)
		if err != nil {
			return err
		}
		sw, err := session.Sweep(ctx, r, f.MaxTokens, qs, grid)
		if err != nil {
			return err
		}
		return sw.Write(g.stdout, study.SweepLevels, f.JSON)
	}
	enc := json.NewEncoder(g.stdout)
	sum, err := session.ScoreRetrieval(ctx, r, qs, cfg, func(r retrieval.QuestionResult) {
		if f.JSON {
			_ = enc.Encode(r)
		}
	})
	if err != nil {
		return err
	}
	if f.JSON {
		return enc.Encode(sum)
	}
	return sum.WriteTable(g.stdout, cfg.Ks)
}
