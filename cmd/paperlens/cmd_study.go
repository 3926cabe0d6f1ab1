package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/eval/study"
	"github.com/paperlens/paperlens/internal/cliflags"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/index"
)

// studyOptions are the flags of study: eval's, the models and the sweep.
type studyOptions struct {
	cliflags.Eval
	models   string
	sweep    cliflags.Sweep
	sweepTop int
}

func newStudyCmd(g *globalOptions) *cobra.Command {
	var o studyOptions
	cmd := &cobra.Command{
		Use:     "study [flags]",
		Short:   "The whole study: ingest, index, score retrieval, evaluate every mode, report the RAG effect",
		Long:    helpText("study") + helpText("rerank"),
		Example: helpText("study.example"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runStudy(cmd.Context(), g, &o, cmd.Flags().Changed)
		},
	}
	o.Eval.Add(cmd.Flags())
	cliflags.StudyUsage(cmd.Flags())
	o.Eval.AddRetrieved(cmd.Flags())
	o.sweep.Add(cmd.Flags())
	cmd.Flags().IntVar(&o.sweepTop, "sweep-top", 3, "with --sweep: configurations evaluated with each model (the cheapest reaching complete@budget 0.95, 0.9, 0.8 on the Pareto set, then its most complete)")
	cmd.Flags().StringVar(&o.models, "models", "", "models to study, comma-separated (default: the offline baselines random,ir; --model NAME works too)")
	return cmd
}

// runStudy runs the whole study (study.Config.Defaults says what it
// studies when not told).
func runStudy(ctx context.Context, g *globalOptions, o *studyOptions, changed func(string) bool) error {
	req, err := o.Request(g.invocation(), changed)
	if err != nil {
		return err
	}
	ms := cliflags.SplitList(o.models)
	if len(ms) == 0 {
		ms = cliflags.SplitList(o.Config.Model) // --model works as an alias of --models
	}
	cfg := study.Config{Eval: req, OutRoot: o.Config.Out, Models: ms, Out: g.stdout, PlanJSON: o.JSON}
	if err := cfg.Defaults(g.errOut); err != nil {
		return err
	}
	qs, err := session.Questions(cfg.Eval.Config, g.errOut)
	if err != nil {
		return err
	}
	if o.sweep.On {
		forms := []retrieve.QueryForm{retrieve.FormStem, retrieve.FormFull, retrieve.FormOptions}
		if changed("query") {
			// --query fixes the query form: the sweep then scores only
			// that one.
			forms = []retrieve.QueryForm{retrieve.QueryForm(o.Config.QueryForm)}
		}
		grid, err := o.sweep.Config([]string{index.BM25, index.Dense, index.Hybrid}, forms, o.Index.RRFK, 0, req.Config.Excluded(), g.stderr)
		if err != nil {
			return err
		}
		cfg.Sweep = &study.Sweep{Grid: grid, Top: o.sweepTop}
	}
	res, err := study.Run(ctx, cfg, qs)
	if err != nil {
		return err
	}
	if dirs := res.Dirs(); len(dirs) > 0 {
		fmt.Fprintf(g.out, "Next: browse every question with 'paperlens serve %s',\nor write a report with 'paperlens report %s --html report.html'.\n",
			strings.Join(dirs, " "), strings.Join(dirs, " "))
	}
	return nil
}
