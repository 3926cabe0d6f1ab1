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
		Use:   "text [DIR]",
		Short: "Score our PDF text, pdftotext's and PyMuPDF's against ground truth typed by a reader",
		Long: `bench text runs, on every NAME.pdf under DIR that has a NAME.txt (the text a
reader would type, paragraphs separated by blank lines): our extractor in
this process, pdftotext -enc UTF-8 FILE -, and PyMuPDF (when /usr/bin/python3
can import fitz) joining page.get_text() of every page as py-pdf/benchmarks
does. Each text is scored against NAME.txt with:
  ratio     py-pdf's Levenshtein ratio over the whole text, 2·LCS/(n+m)
  ratio-ws  the same after every run of white space becomes one space
  order     of the paragraphs located in the output, the fraction of pairs
            in the ground truth's order (located/paragraphs beside it)
  symbols   recall of Greek letters, arrows and maths operators
It prints the table (document × tool), each tool's means, each mean ratio
over PyMuPDF's, and our extraction time over pdftotext's (medians over
--rounds). DIR defaults to testdata/groundtruth under the working directory,
the repository's own set (regenerate its PDFs with its make.sh).`,
		Example: "  paperlens bench text\n  paperlens bench text testdata/groundtruth --save /tmp/texts\n  paperlens bench text --json --rounds 5",
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
