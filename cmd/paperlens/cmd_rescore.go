package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/internal/cliflags"
)

func newRescoreCmd(g *globalOptions) *cobra.Command {
	var f cliflags.Rescore
	cmd := &cobra.Command{
		Use:     "rescore RUN_DIR [--judge-model NAME] [--data FILE] [--json]",
		Short:   "Score a run's saved replies again by the current rules (and judge), without asking the model",
		Long:    helpText("rescore"),
		Example: helpText("rescore.example"),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRescore(cmd.Context(), g, &f, cmd.Flags().Changed, args[0])
		},
	}
	f.Add(cmd.Flags())
	return cmd
}

// runRescore rescores the run folder and prints what it did; judge calls
// that failed (their records keep their scores) are exit status 1.
func runRescore(ctx context.Context, g *globalOptions, f *cliflags.Rescore, changed func(string) bool, dir string) error {
	home := ""
	if changed("home") {
		home = g.homeDir()
	}
	req, err := f.Request(dir, home, g.invocation(), changed)
	if err != nil {
		return err
	}
	res, err := session.Rescore(ctx, req)
	if err != nil && res.Failed == 0 {
		return err
	}
	if werr := res.Write(g.stdout, g.errOut, f.JSON); werr != nil {
		return werr
	}
	if err != nil {
		return &exitError{code: 1, msg: err.Error()}
	}
	return nil
}
