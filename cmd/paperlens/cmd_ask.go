package main

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mcq"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/internal/cliflags"
)

// askOptions are the flags of ask: eval's, and the paper.
type askOptions struct {
	cliflags.Eval
	paper string
}

func newAskCmd(g *globalOptions) *cobra.Command {
	var o askOptions
	cmd := &cobra.Command{
		Use:     "ask [--paper ID] [--mode hybrid] [--model M] QUESTION",
		Short:   "Answer one question over the indexed corpus and show the passages used, with scores",
		Long:    helpText("ask") + helpText("rerank"),
		Example: helpText("ask.example"),
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAsk(cmd.Context(), g, &o, cmd.Flags().Changed, args)
		},
	}
	o.Eval.Add(cmd.Flags())
	cmd.Flags().StringVar(&o.paper, "paper", "", "paper to answer from ('paperlens papers' lists the ids)")
	return cmd
}

// runAsk answers the question the words of args make, without a model
// (or with ir) by the offline ir baseline, in mode hybrid unless told.
func runAsk(ctx context.Context, g *globalOptions, o *askOptions, changed func(string) bool, args []string) error {
	text := strings.Join(args, " ")
	if o.Config.Model == "" {
		o.Config.Model = "ir"
	}
	mode := o.Modes
	if mode == "" {
		mode = run.ModeHybrid
	}
	req, err := o.Request(g.invocation(), changed)
	if err != nil {
		return err
	}
	q := bench.Question{ID: bench.StableID("ask-", o.paper, text), PaperID: o.paper, Text: text, MCQ: mcq.Parse(text), Type: "short"}
	if len(q.MCQ.Options) >= 2 {
		q.Type = "SA-MCQ"
	}
	a, err := session.Ask(ctx, req, q, mode)
	if err != nil {
		return err
	}
	if o.JSON {
		return json.NewEncoder(g.stdout).Encode(map[string]any{"record": a.Record, "passages": a.Hits})
	}
	return a.Write(g.out, q, mode)
}
