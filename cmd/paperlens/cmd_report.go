package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/report"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/cliflags"
)

// reportOptions are the flags of report.
type reportOptions struct {
	htmlPath, mdPath, data, frontierSVG, labels string
	paperTable, asJSON                          bool
	publishedAs                                 []string
}

func newReportCmd(g *globalOptions) *cobra.Command {
	var o reportOptions
	cmd := &cobra.Command{
		Use:     "report RUN_DIR... [--html FILE] [--md FILE] [--frontier-svg FILE] [--data FILE] [--paper-table [--published-as NAME] [--json]]",
		Short:   "Combine runs into one self-contained HTML report (inline SVG charts, no network) and Markdown",
		Long:    helpText("report"),
		Example: helpText("report.example"),
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
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
	cliflags.AddReportLabels(cmd.Flags(), &o.labels)
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
	over := run.Paths{Data: o.data, Home: g.home} // --home given: the corpus is there now
	runs, err := report.LoadWith(report.Options{Paths: over, Log: g.errOut, Labels: o.labels}, args...)
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
