package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/internal/measure/textquality"
)

// defaultGroundTruth is the repository's ground-truth set, relative to the
// working directory (the repository root).
const defaultGroundTruth = "testdata/groundtruth"

func newMeasureTextCmd(g *globalOptions) *cobra.Command {
	var o measureOptions[textquality.Options]
	cmd := &cobra.Command{
		Use:     "text [DIR]",
		Short:   "Score our PDF text, pdftotext's and PyMuPDF's against ground truth typed by a reader",
		Long:    helpText("measure-text"),
		Example: helpText("measure-text.example"),
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMeasureText(cmd.Context(), g, o, args)
		},
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the report as one JSON object")
	cmd.Flags().IntVar(&o.opt.Rounds, "rounds", 1, "rounds of every tool; each time is the median over them")
	cmd.Flags().StringVar(&o.opt.Save, "save", "", "write each tool's text to `DIR`/TOOL/NAME.txt")
	return cmd
}

// runMeasureText scores every tool's text of the PDFs under args[0] (the
// repository's set by default) against their ground truth.
func runMeasureText(ctx context.Context, g *globalOptions, o measureOptions[textquality.Options], args []string) error {
	o.opt.Dir = defaultGroundTruth
	if len(args) == 1 {
		o.opt.Dir = args[0]
	}
	r, err := textquality.Run(ctx, o.opt)
	if err != nil {
		if len(args) == 0 && errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w (run from the repository root, or pass the ground-truth directory: paperlens measure text DIR)", err)
		}
		return err
	}
	return printReport(g.stdout, o.asJSON, r)
}
