package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/internal/cliflags"
	"github.com/paperlens/paperlens/internal/measure/ingestspeed"
	"github.com/paperlens/paperlens/internal/measure/startup"
)

// newMeasureCmd is the measure group under name: "measure", or "bench",
// its old name, kept working (hidden, with a warning) since scripts call
// it; "bench" now means the benchmark datasets only.
func newMeasureCmd(g *globalOptions, name string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   name,
		Short: "Measure speed and text quality against a reference run on the same input in the same process",
		Long:  helpText("measure"),
	}
	if name != "measure" {
		cmd.Hidden = true
		cmd.Annotations = map[string]string{cliflags.Deprecated: "use 'paperlens measure' (bench names the benchmark datasets)"}
	}
	cmd.AddCommand(newMeasureIngestCmd(g), newMeasureScaleCmd(g), newMeasureStartupCmd(g), newMeasureTextCmd(g))
	return cmd
}

// measureOptions are the flags of a measure command: the measurement's
// own options, and --json.
type measureOptions[T any] struct {
	opt    T
	asJSON bool
}

func newMeasureIngestCmd(g *globalOptions) *cobra.Command {
	var o measureOptions[ingestspeed.Options]
	cmd := &cobra.Command{
		Use:     "ingest DIR",
		Short:   "Pages/s of our PDF extraction and whole ingest against pdftotext (and mutool), tokens/s of the tokenizer",
		Long:    helpText("measure-ingest"),
		Example: helpText("measure-ingest.example"),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMeasureIngest(cmd.Context(), g, o, args)
		},
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the figures as one JSON object")
	cmd.Flags().IntVar(&o.opt.Workers, "workers", 0, "ingest workers (default: number of CPUs)")
	cmd.Flags().IntVar(&o.opt.Rounds, "rounds", 3, "interleaved rounds of pdftotext and both ingests; each figure is the median")
	return cmd
}

func newMeasureStartupCmd(g *globalOptions) *cobra.Command {
	var o measureOptions[startup.Options]
	cmd := &cobra.Command{
		Use:     "startup",
		Short:   "CPU, memory and page faults of a fresh paperlens process, against pdftotext -v and other builds",
		Long:    helpText("measure-startup"),
		Example: helpText("measure-startup.example"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMeasureStartup(cmd.Context(), g, o)
		},
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the figures as one JSON object")
	cmd.Flags().IntVar(&o.opt.Rounds, "rounds", 50, "interleaved rounds; each figure is a median over them")
	cmd.Flags().StringArrayVar(&o.opt.Against, "against", nil, "another paperlens binary to time with --help (repeatable), e.g. an older build")
	return cmd
}

// runMeasureIngest times the ingest paths on the PDFs under args[0], the
// commands as this very program.
func runMeasureIngest(ctx context.Context, g *globalOptions, o measureOptions[ingestspeed.Options], args []string) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find this program to time the ingest command: %w", err)
	}
	o.opt.Dir, o.opt.Self, o.opt.Isolation = args[0], self, g.isolation
	r, err := ingestspeed.Run(ctx, o.opt)
	if err != nil {
		return err
	}
	return printReport(g.stdout, o.asJSON, r)
}

// runMeasureStartup times fresh processes of this program and the others.
func runMeasureStartup(ctx context.Context, g *globalOptions, o measureOptions[startup.Options]) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find this program to time its start: %w", err)
	}
	o.opt.Self = self
	r, err := startup.Run(ctx, o.opt)
	if err != nil {
		return err
	}
	return printReport(g.stdout, o.asJSON, r)
}

// printReport prints a measurement's report: one JSON object with --json, else its
// text form.
func printReport(w io.Writer, asJSON bool, r interface{ WriteText(io.Writer) }) error {
	if asJSON {
		return json.NewEncoder(w).Encode(r)
	}
	r.WriteText(w)
	return nil
}
