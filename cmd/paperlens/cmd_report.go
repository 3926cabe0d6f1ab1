package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/report"
)

func newReportCmd() *cobra.Command {
	var htmlPath, mdPath, data, frontierSVG string
	cmd := &cobra.Command{
		Use:   "report RUN_DIR... [--html FILE] [--md FILE] [--frontier-svg FILE] [--data FILE]",
		Short: "Combine runs into one self-contained HTML report (inline SVG charts, no network) and Markdown",
		Long: `report reads run folders (several models and modes) and writes:
  - an accuracy table by question type (ElaipBench Table 2 style), with replies
    truncated by the token limit, the server's tokens per question
    (prompt · completion (reasoning)) and the cost when the run had --price
  - the RAG effect per model and mode with 95% intervals (like Figure 6)
  - accuracy against prompt tokens per question, one point per run and mode
  - evidence recall against accuracy per retrieval mode
  - accuracy by reasoning length bucket (like Figure 4), when reasoning is present
  - reasoning length by breakdown value (e.g. difficulty)
  - reasoning flips: given a base (or cot) and a reasoning run of the same model
    on the same data, the questions reasoning turned from right to wrong, per mode
  - the miss rate
  - the accuracy–cost frontier per model: accuracy (95% interval) against mean
    prompt tokens per question, and cost when priced, one point per run and
    mode labelled by the settings that differ, the Pareto frontier marked, and
    the cheapest configuration within full's 95% interval named
The HTML file has no scripts and no external links: it opens offline.
Without --html, --md or --frontier-svg the Markdown goes to standard output.
--frontier-svg writes the frontier figures alone as one standalone SVG file
(for a README or a paper).

A run folder without summary.json (eval was killed before the end) is
summarised from its records over the questions of its dataset, and the
report marks it incomplete with the records present and expected. The
dataset is looked for as config.json records it, then next to the run
folder; --data FILE says where it is (for every run given).`,
		Example: `  paperlens report runs/study-ir-base runs/study-random-base --html report.html --md report.md
  paperlens report runs/gpt-5-base runs/gpt-5-reasoning --html reasoning.html   # with reasoning flips
  paperlens report runs/k3 runs/k5 runs/k10 --frontier-svg frontier.svg        # the frontier figure alone`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			over := report.Paths{Data: data}
			if cmd.Flags().Changed("home") {
				over.Home = homeDir(cmd)
			}
			runs, err := report.LoadWith(report.Options{Paths: over, Log: os.Stderr}, args...)
			if err != nil {
				return err
			}
			for _, r := range runs {
				if s := r.Progress.String(); s != "" {
					fmt.Fprintf(os.Stderr, "%s: %s\n", r.Dir, s)
				}
			}
			if htmlPath == "" && mdPath == "" && frontierSVG == "" {
				return report.Markdown(os.Stdout, runs)
			}
			write := func(path string, f func(*os.File) error) error {
				out, err := os.Create(path)
				if err != nil {
					return fmt.Errorf("report: %w", err)
				}
				if err := f(out); err != nil {
					out.Close()
					return fmt.Errorf("write %s: %w", path, err)
				}
				return out.Close()
			}
			if htmlPath != "" {
				if err := write(htmlPath, func(f *os.File) error { return report.HTML(f, runs) }); err != nil {
					return err
				}
				fmt.Fprintf(os.Stderr, "wrote %s\n", htmlPath)
			}
			if frontierSVG != "" {
				if err := write(frontierSVG, func(f *os.File) error { return report.FrontierSVG(f, runs) }); err != nil {
					return err
				}
				fmt.Fprintf(os.Stderr, "wrote %s\n", frontierSVG)
			}
			if mdPath != "" {
				if err := write(mdPath, func(f *os.File) error { return report.Markdown(f, runs) }); err != nil {
					return err
				}
				fmt.Fprintf(os.Stderr, "wrote %s\n", mdPath)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&htmlPath, "html", "", "write the HTML report here")
	cmd.Flags().StringVar(&mdPath, "md", "", "write the Markdown report here")
	cmd.Flags().StringVar(&frontierSVG, "frontier-svg", "", "write the frontier figures (accuracy against prompt tokens, and cost) here as a standalone SVG file")
	cmd.Flags().StringVar(&data, "data", "", "the runs' dataset, when config.json's path no longer finds it (needed only for a run without summary.json)")
	return cmd
}
