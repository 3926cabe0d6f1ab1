package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/internal/ingestbench"
	"github.com/paperlens/paperlens/internal/startupbench"
)

func newBenchCmd(g *globalOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure speed against a reference run on the same input in the same process",
		Long:  helpText("bench"),
	}
	cmd.AddCommand(newBenchIngestCmd(g), newBenchStartupCmd(g), newBenchTextCmd(g))
	return cmd
}

// benchOptions are the flags of a bench command: the benchmark's own
// options, and --json.
type benchOptions[T any] struct {
	opt    T
	asJSON bool
}

func newBenchIngestCmd(g *globalOptions) *cobra.Command {
	var o benchOptions[ingestbench.Options]
	cmd := &cobra.Command{
		Use:     "ingest DIR",
		Short:   "Pages/s of our PDF extraction and whole ingest against pdftotext (and mutool), tokens/s of the tokenizer",
		Long:    helpText("bench-ingest"),
		Example: helpText("bench-ingest.example"),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBenchIngest(cmd.Context(), g, o, args)
		},
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the figures as one JSON object")
	cmd.Flags().IntVar(&o.opt.Workers, "workers", 0, "ingest workers (default: number of CPUs)")
	cmd.Flags().IntVar(&o.opt.Rounds, "rounds", 3, "interleaved rounds of pdftotext and both ingests; each figure is the median")
	return cmd
}

func newBenchStartupCmd(g *globalOptions) *cobra.Command {
	var o benchOptions[startupbench.Options]
	cmd := &cobra.Command{
		Use:     "startup",
		Short:   "CPU, memory and page faults of a fresh paperlens process, against pdftotext -v and other builds",
		Long:    helpText("bench-startup"),
		Example: helpText("bench-startup.example"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBenchStartup(cmd.Context(), g, o)
		},
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the figures as one JSON object")
	cmd.Flags().IntVar(&o.opt.Rounds, "rounds", 50, "interleaved rounds; each figure is a median over them")
	cmd.Flags().StringArrayVar(&o.opt.Against, "against", nil, "another paperlens binary to time with --help (repeatable), e.g. an older build")
	return cmd
}

// runBenchIngest times the ingest paths on the PDFs under args[0], the
// commands as this very program.
func runBenchIngest(ctx context.Context, g *globalOptions, o benchOptions[ingestbench.Options], args []string) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find this program to time the ingest command: %w", err)
	}
	o.opt.Dir, o.opt.Self, o.opt.Isolation = args[0], self, g.isolation
	r, err := ingestbench.Run(ctx, o.opt)
	if err != nil {
		return err
	}
	return printBench(g.stdout, o.asJSON, r)
}

// runBenchStartup times fresh processes of this program and the others.
func runBenchStartup(ctx context.Context, g *globalOptions, o benchOptions[startupbench.Options]) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find this program to time its start: %w", err)
	}
	o.opt.Self = self
	r, err := startupbench.Run(ctx, o.opt)
	if err != nil {
		return err
	}
	return printBench(g.stdout, o.asJSON, r)
}

// printBench prints a bench report: one JSON object with --json, else its
// text form.
func printBench(w io.Writer, asJSON bool, r interface{ WriteText(io.Writer) }) error {
	if asJSON {
		return json.NewEncoder(w).Encode(r)
	}
	r.WriteText(w)
	return nil
}
