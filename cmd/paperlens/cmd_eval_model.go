package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/internal/cliflags"
)

func newEvalModelCmd(g *globalOptions) *cobra.Command {
	var f cliflags.Eval
	cmd := &cobra.Command{
		Use:     "eval --bench elaipbench|lpfqa|jsonl --data FILE --model NAME [flags]",
		Short:   "Evaluate a model on a benchmark in every mode, with repeats, exact scoring and a RAG-effect report",
		Long:    helpText("eval") + helpText("rerank"),
		Example: helpText("eval.example"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			req, err := f.Request(g.invocation(), cmd.Flags().Changed)
			if err != nil {
				return err
			}
			return runEval(cmd.Context(), g, &f, req)
		},
	}
	f.Add(cmd.Flags())
	f.AddRetrieved(cmd.Flags())
	f.AddConfig(cmd.Flags())
	f.AddLabels(cmd.Flags())
	f.AddCompose(cmd.Flags())
	return cmd
}

// runEval evaluates, then prints the summary (or the plan of a dry run)
// and maps the records that failed to the exit status.
func runEval(ctx context.Context, g *globalOptions, f *cliflags.Eval, req session.Request) error {
	res, plan, err := session.Eval(ctx, req)
	if plan != nil {
		return run.WritePlan(g.stdout, *plan, f.JSON)
	}
	var stopped *run.BreakerError
	if err != nil && !errors.As(err, &stopped) {
		return err
	}
	if f.JSON {
		b, _ := run.Dir(res.Dir).SummaryJSON()
		g.stdout.Write(b)
	} else {
		b, _ := run.Dir(res.Dir).SummaryMarkdown()
		g.stdout.Write(b)
		fmt.Fprintf(g.errOut, "\n%d records written, %d resumed; run folder %s\n", res.Done, res.Resumed, res.Dir)
	}
	if msg := res.Failures(err); msg != "" {
		return &exitError{code: 1, msg: msg}
	}
	return nil
}
