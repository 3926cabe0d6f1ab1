package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/internal/textbench"
)

// defaultGroundTruth is the repository's ground-truth set, relative to the
// working directory (the repository root).
const defaultGroundTruth = "testdata/groundtruth"

func newBenchTextCmd(g *globalOptions) *cobra.Command {
	var o benchOptions[textbench.Options]
	cmd := &cobra.Command{
		Use:     "text [DIR]",
		Short:   "Score our PDF text, pdftotext's and PyMuPDF's against ground truth typed by a reader",
		Long:    helpText("bench-text"),
		Example: helpText("bench-text.example"),
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBenchText(cmd.Context(), g, o, args)
		},
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the report as one JSON object")
	cmd.Flags().IntVar(&o.opt.Rounds, "rounds", 1, "rounds of every tool; each time is the median over them")
	cmd.Flags().StringVar(&o.opt.Save, "save", "", "write each tool's text to `DIR`/TOOL/NAME.txt")
	return cmd
}

// runBenchText scores every tool's text of the PDFs under args[0] (the
// repository's set by default) against their ground truth.
func runBenchText(ctx context.Context, g *globalOptions, o benchOptions[textbench.Options], args []string) error {
	o.opt.Dir = defaultGroundTruth
	if len(args) == 1 {
		o.opt.Dir = args[0]
	}
	r, err := textbench.Run(ctx, o.opt)
	if err != nil {
		if len(args) == 0 && errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w (run from the repository root, or pass the ground-truth directory: paperlens bench text DIR)", err)
		}
		return err
	}
	return printBench(g.stdout, o.asJSON, r)
}
