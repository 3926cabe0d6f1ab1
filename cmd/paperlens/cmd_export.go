package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/export"
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
			home := ""
			if cmd.Flags().Changed("home") {
				home = g.homeDir()
			}
			return runExport(g, &f, home, args)
		},
	}
	f.Add(cmd.Flags())
	return cmd
}

// runExport writes the run folders in the format asked for, to standard
// output or to --out (one file per retrieval mode for trec).
func runExport(g *globalOptions, f *cliflags.Export, home string, dirs []string) error {
	format, opt, err := f.Options(home)
	if err != nil {
		return err
	}
	opt.Log = g.errOut
	if f.Out == "" {
		if format == export.Parquet && g.stdoutTTY {
			return fmt.Errorf("--format parquet is binary: give --out FILE.parquet (or redirect standard output to a file)")
		}
		return export.Write(g.stdout, format, dirs, opt)
	}
	files, err := export.WriteFiles(f.Out, format, dirs, opt)
	for _, p := range files {
		fmt.Fprintf(g.errOut, "wrote %s\n", p)
	}
	return err
}
