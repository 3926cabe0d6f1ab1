package main

import (
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
	var asJSON bool
	var rounds int
	var save string
	cmd := &cobra.Command{
		Use:     "text [DIR]",
		Short:   "Score our PDF text, pdftotext's and PyMuPDF's against ground truth typed by a reader",
		Long:    helpText("bench-text"),
		Example: helpText("bench-text.example"),
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := defaultGroundTruth
			if len(args) == 1 {
				dir = args[0]
			}
			r, err := textbench.Run(cmd.Context(), textbench.Options{Dir: dir, Rounds: rounds, Save: save})
			if err != nil {
				if len(args) == 0 && errors.Is(err, fs.ErrNotExist) {
					return fmt.Errorf("%w (run from the repository root, or pass the ground-truth directory: paperlens bench text DIR)", err)
				}
				return err
			}
			return printBench(g.stdout, asJSON, r)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as one JSON object")
	cmd.Flags().IntVar(&rounds, "rounds", 1, "rounds of every tool; each time is the median over them")
	cmd.Flags().StringVar(&save, "save", "", "write each tool's text to `DIR`/TOOL/NAME.txt")
	return cmd
}
