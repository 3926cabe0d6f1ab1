package main

import (
	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/internal/cliflags"
)

func newComposeCmd(g *globalOptions) *cobra.Command {
	var f cliflags.Compose
	cmd := &cobra.Command{
		Use:   "compose --data FILE --out FILE [--statements 8-10] [--options 4-8] [--per-option 2-4] [--questions N] [--seed N]",
		Short: "Compose a new benchmark in Encyclo-K's form from a benchmark's options: numbered statements, options that combine them",
		Long:  helpText("compose"), Example: helpText("compose.example"), Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return f.Run(g.stdout, g.errOut) },
	}
	f.Add(cmd.Flags())
	return cmd
}
