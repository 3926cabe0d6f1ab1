package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/eval/study"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/index"
)

// studyOptions are the flags of study: eval's, the models and the sweep.
type studyOptions struct {
	evalOptions
	models string
	sweep  sweepFlags
}

func newStudyCmd(g *globalOptions) *cobra.Command {
	var o studyOptions
	cmd := &cobra.Command{
		Use:     "study [flags]",
		Short:   "The whole study: ingest, index, score retrieval, evaluate every mode, report the RAG effect",
		Long:    helpText("study"),
		Example: helpText("study.example"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runStudy(cmd.Context(), g, &o, cmd.Flags().Changed)
		},
	}
	addEvalFlags(cmd, &o.evalOptions)
	addSweepFlags(cmd, &o.sweep)
	cmd.Flags().IntVar(&o.sweep.top, "sweep-top", 3, "with --sweep: configurations evaluated with each model (the cheapest reaching complete@budget 0.95, 0.9, 0.8 on the Pareto set, then its most complete)")
	cmd.Flags().StringVar(&o.models, "models", "", "models to study, comma-separated (default: the offline baselines random,ir; --model NAME works too)")
	return cmd
}

// runStudy runs the whole study: with no data, the sample in testdata/;
// with no model, the offline baselines; with no modes, every mode but the
// tool modes, which need a model that calls tools (and a search engine, a
// sandbox): they are asked for by name.
func runStudy(ctx context.Context, g *globalOptions, o *studyOptions, changed func(string) bool) error {
	if o.cfg.Data == "" {
		o.cfg.Data = filepath.Join("testdata", "elaipbench", "sample.jsonl")
		if o.cfg.Papers == "" {
			o.cfg.Papers = filepath.Join("testdata", "papers")
		}
	}
	if _, err := os.Stat(o.cfg.Data); err != nil {
		return fmt.Errorf("benchmark %s: %w (run from the repository root, or pass --data)", o.cfg.Data, err)
	}
	if o.models == "" && o.cfg.Model != "" {
		o.models = o.cfg.Model // --model works as an alias of --models
	}
	ms := splitList(o.models)
	if len(ms) == 0 {
		ms = []string{"random", "ir"}
		fmt.Fprintln(g.errOut, "No model configured: running the offline baselines random and ir.\n"+
			"To study a real model: paperlens study --models NAME --base-url URL (key in $OPENAI_API_KEY).")
	}
	if o.modes == "" {
		var names []string
		for _, m := range mode.All() {
			if !m.UsesTools() {
				names = append(names, m.Name)
			}
		}
		o.modes = strings.Join(names, ",")
	}
	req, err := o.request(g, changed)
	if err != nil {
		return err
	}
	qs, err := session.Questions(o.cfg, g.errOut)
	if err != nil {
		return err
	}
	cfg := study.Config{Eval: req, OutRoot: o.cfg.Out, Models: ms, Out: g.stdout, PlanJSON: o.asJSON}
	if o.sweep.on {
		forms := []retrieve.QueryForm{retrieve.FormStem, retrieve.FormFull, retrieve.FormOptions}
		if changed("query") {
			// --query fixes the query form: the sweep then scores only
			// that one.
			forms = []retrieve.QueryForm{retrieve.QueryForm(o.cfg.QueryForm)}
		}
		grid, err := o.sweep.config([]string{index.BM25, index.Dense, index.Hybrid}, forms, o.index.x.RRFK, 0, req.Config.Excluded(), g.stderr)
		if err != nil {
			return err
		}
		cfg.Sweep = &study.Sweep{Grid: grid, Top: o.sweep.top}
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
