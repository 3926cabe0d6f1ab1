package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/report"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
)

// inspectOptions are the flags of inspect.
type inspectOptions struct {
	mode, data string
	plain      bool
}

func newInspectCmd(g *globalOptions) *cobra.Command {
	var o inspectOptions
	cmd := &cobra.Command{
		Use:     "inspect RUN_DIR [QUESTION_ID]",
		Short:   "Show, per question, what each mode retrieved, where the gold evidence was, and why it scored as it did",
		Long:    helpText("inspect"),
		Example: helpText("inspect.example"),
		Args:    cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runInspect(g, o, args)
		},
	}
	cmd.Flags().StringVar(&o.mode, "mode", "", "show only this mode")
	cmd.Flags().BoolVar(&o.plain, "plain", false, "no colour even on a terminal")
	cmd.Flags().StringVar(&o.data, "data", "", "the run's dataset, when config.json's path no longer finds it")
	return cmd
}

// runInspect lists a run's questions with a mark per mode, or shows one
// question in every mode.
func runInspect(g *globalOptions, o inspectOptions, args []string) error {
	dir := args[0]
	over := run.Paths{Data: o.data, Home: g.home} // --home given: the corpus is there now
	folder, err := run.ReadFolder(dir, over)
	if err != nil {
		return err
	}
	cfg := folder.Config
	recs, err := run.Dir(dir).Records()
	if err != nil {
		return err
	}
	if len(args) == 1 {
		return report.WriteQuestionList(g.stdout, cfg.Modes, recs)
	}
	for _, n := range folder.Notes {
		fmt.Fprintln(g.errOut, n)
	}
	qs, _, err := folder.Questions()
	if err != nil {
		return fmt.Errorf("cannot show question %q: %w", args[1], err)
	}
	if w := folder.DataChanged(); w != "" {
		fmt.Fprintln(g.errOut, "warning: "+w)
	}
	var q *bench.Question
	for i := range qs {
		if qs[i].ID == args[1] {
			q = &qs[i]
		}
	}
	if q == nil {
		return fmt.Errorf("no question %q in %s; 'paperlens inspect %s' lists them", args[1], cfg.Data, dir)
	}
	var st *corpus.Store
	if s, err := session.OpenCorpus(cfg.Home); err == nil {
		st = s
		defer st.Close()
	} else {
		fmt.Fprintf(g.errOut, "passages not shown: %v (--home DIR names the corpus home the run used)\n", err)
	}
	return report.WriteQuestion(g.stdout, *q, recs, o.mode, st, !o.plain && g.stdoutTTY)
}
