package main

import (
	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/internal/cliflags"
)

func newExportCmd(g *globalOptions) *cobra.Command {
	var f cliflags.Export
	cmd := &cobra.Command{
		Use:     "export RUN_DIR... [--format csv|parquet|jsonl|trec|qrels] [--out FILE] [--mode M,...]",
		Short:   "Write runs for other tools: CSV, Parquet, JSONL with RAGAS's names, TREC run files and qrels",
		Long:    helpText("export"),
		Example: helpText("export.example"),
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExport(g, &f, args)
		},
	}
	f.Add(cmd.Flags())
	return cmd
}

// runExport writes the run folders in the format asked for, to standard
// output or to --out; the corpus home is the runs' unless --home is given.
func runExport(g *globalOptions, f *cliflags.Export, dirs []string) error {
	return f.Write(g.stdout, g.stdoutTTY, g.errOut, g.home, dirs)
}
