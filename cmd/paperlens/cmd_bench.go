package main

import (
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

func newBenchIngestCmd(g *globalOptions) *cobra.Command {
	var asJSON bool
	var workers, rounds int
	cmd := &cobra.Command{
		Use:     "ingest DIR",
		Short:   "Pages/s of our PDF extraction and whole ingest against pdftotext (and mutool), tokens/s of the tokenizer",
		Long:    helpText("bench-ingest"),
		Example: helpText("bench-ingest.example"),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			self, err := os.Executable()
			if err != nil {
				return fmt.Errorf("find this program to time the ingest command: %w", err)
			}
			r, err := ingestbench.Run(cmd.Context(), ingestbench.Options{Dir: args[0], Workers: workers, Rounds: rounds, Self: self, Isolation: g.isolation})
			if err != nil {
				return err
			}
			return printBench(g.stdout, asJSON, r)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the figures as one JSON object")
	cmd.Flags().IntVar(&workers, "workers", 0, "ingest workers (default: number of CPUs)")
	cmd.Flags().IntVar(&rounds, "rounds", 3, "interleaved rounds of pdftotext and both ingests; each figure is the median")
	return cmd
}

func newBenchStartupCmd(g *globalOptions) *cobra.Command {
	var asJSON bool
	var rounds int
	var against []string
	cmd := &cobra.Command{
		Use:     "startup",
		Short:   "CPU, memory and page faults of a fresh paperlens process, against pdftotext -v and other builds",
		Long:    helpText("bench-startup"),
		Example: helpText("bench-startup.example"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			self, err := os.Executable()
			if err != nil {
				return fmt.Errorf("find this program to time its start: %w", err)
			}
			r, err := startupbench.Run(cmd.Context(), startupbench.Options{Self: self, Against: against, Rounds: rounds})
			if err != nil {
				return err
			}
			return printBench(g.stdout, asJSON, r)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the figures as one JSON object")
	cmd.Flags().IntVar(&rounds, "rounds", 50, "interleaved rounds; each figure is a median over them")
	cmd.Flags().StringArrayVar(&against, "against", nil, "another paperlens binary to time with --help (repeatable), e.g. an older build")
	return cmd
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
