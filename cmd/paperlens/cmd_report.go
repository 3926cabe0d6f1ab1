package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/report"
)

// reportOptions are the flags of report.
type reportOptions struct {
	htmlPath, mdPath, data, frontierSVG string
	paperTable, asJSON                  bool
	publishedAs                         []string
	homeChanged                         bool // --home given: the corpus is there now
}

func newReportCmd(g *globalOptions) *cobra.Command {
	var o reportOptions
	cmd := &cobra.Command{
		Use:   "report RUN_DIR... [--html FILE] [--md FILE] [--frontier-svg FILE] [--data FILE] [--paper-table [--published-as NAME] [--json]]",
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
  - with --paper-table, the papers' published numbers beside yours (below)
The HTML file has no scripts and no external links: it opens offline.
Without --html, --md or --frontier-svg the Markdown goes to standard output.
--frontier-svg writes the frontier figures alone as one standalone SVG file
(for a README or a paper).

A run folder without summary.json (eval was killed before the end) is
summarised from its records over the questions of its dataset, and the
report marks it incomplete with the records present and expected. The
dataset is looked for as config.json records it, then next to the run
folder; --data FILE says where it is (for every run given).

--paper-table sets each run beside the number the paper publishes for the
same model: ElaipBench Table 2 (§4.2; the row of the run's --paradigm:
Base Models = base, CoTs = cot, LRMs = reasoning; compared with the run's
full mode), LPFQA Table 2 (§4.1; closed-book, Overall and per domain) and
LPFQA Table 4 (§4.3; closed-book, tool-python, tool-search against No
tools, Jupyter CI, Search). Per column the run has (Total, SA-MCQ/MA-MCQ
from its question types, difficulty, discipline or domain from its
breakdowns) it prints the published value, the measured accuracy with a
95% Wilson interval over the run's questions (repeated runs ask the same
questions, so they do not narrow it), and whether the interval covers the
published value. Model names match ignoring case, punctuation and a
provider prefix ("deepseek-ai/DeepSeek-V3" is DeepSeek-V3; "gpt-5" is
GPT-5, never GPT-5-thinking-all). A run no row names is reported as such.
--published-as NAME compares every run with the row NAME (a local
quantisation under its paper name); --published-as MODEL=NAME only the
runs whose model or folder is MODEL (repeatable).
Alone, --paper-table prints this comparison to standard output (Markdown,
or JSON with --json); with --html or --md those reports gain a "Published
numbers" section instead.`,
		Example: `  paperlens report runs/study-ir-base runs/study-random-base --html report.html --md report.md
  paperlens report runs/gpt-5-base runs/gpt-5-reasoning --html reasoning.html   # with reasoning flips
  paperlens report runs/k3 runs/k5 runs/k10 --frontier-svg frontier.svg        # the frontier figure alone
  paperlens report runs/deepseek-v3-base --paper-table                        # against ElaipBench Table 2
  paperlens report runs/qwen3-8b-awq --paper-table --published-as Qwen3-8B --html report.html`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.homeChanged = cmd.Flags().Changed("home")
			return runReport(g, o, args)
		},
	}
	cmd.Flags().StringVar(&o.htmlPath, "html", "", "write the HTML report here")
	cmd.Flags().StringVar(&o.mdPath, "md", "", "write the Markdown report here")
	cmd.Flags().StringVar(&o.frontierSVG, "frontier-svg", "", "write the frontier figures (accuracy against prompt tokens, and cost) here as a standalone SVG file")
	cmd.Flags().StringVar(&o.data, "data", "", "the runs' dataset, when config.json's path no longer finds it (needed only for a run without summary.json)")
	cmd.Flags().BoolVar(&o.paperTable, "paper-table", false, "set each run beside the papers' published numbers for its model (ElaipBench Table 2, LPFQA Tables 2 and 4): published, measured with its 95% interval, covered or not")
	cmd.Flags().StringArrayVar(&o.publishedAs, "published-as", nil, "with --paper-table: compare the runs with the published row NAME, or only runs of model (or folder) MODEL with MODEL=NAME (repeatable)")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "with --paper-table alone: print the comparison as JSON")
	return cmd
}

// runReport combines the runs into Markdown on standard output, or into
// the files the flags name.
func runReport(g *globalOptions, o reportOptions, args []string) error {
	// Checked before loading: a misplaced flag should not cost a
	// read of every run folder.
	switch {
	case !o.paperTable && len(o.publishedAs) > 0:
		return fmt.Errorf("--published-as needs --paper-table")
	case o.asJSON && (!o.paperTable || o.htmlPath != "" || o.mdPath != "" || o.frontierSVG != ""):
		return fmt.Errorf("--json prints --paper-table's comparison alone: give --paper-table and none of --html, --md, --frontier-svg")
	}
	over := report.Paths{Data: o.data}
	if o.homeChanged {
		over.Home = g.homeDir()
	}
	runs, err := report.LoadWith(report.Options{Paths: over, Log: g.errOut}, args...)
	if err != nil {
		return err
	}
	for _, r := range runs {
		if s := r.Progress.String(); s != "" {
			fmt.Fprintf(g.errOut, "%s: %s\n", r.Dir, s)
		}
	}
	var opt report.WriteOptions
	if o.paperTable {
		as, err := report.ParsePublishedAs(o.publishedAs)
		if err != nil {
			return err
		}
		opt.Published = &report.PaperOptions{As: as}
	}
	if o.htmlPath == "" && o.mdPath == "" && o.frontierSVG == "" {
		if opt.Published == nil {
			return report.Markdown(g.stdout, runs)
		}
		cmp := report.ComparePublished(runs, *opt.Published)
		if o.asJSON {
			enc := json.NewEncoder(g.stdout)
			enc.SetIndent("", "  ")
			if err := enc.Encode(cmp); err != nil {
				return fmt.Errorf("report --paper-table: %w", err)
			}
			return nil
		}
		return report.PaperMarkdown(g.stdout, cmp)
	}
	return report.WriteFiles(runs, opt, report.Files{HTML: o.htmlPath, Markdown: o.mdPath, FrontierSVG: o.frontierSVG}, g.errOut)
}
