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
		Long: `bench measures paperlens against a reference measured in the same run, and
prints the ratio. Figures from different machines are not comparable; the
ratios are.`,
	}
	cmd.AddCommand(newBenchIngestCmd(g), newBenchStartupCmd(g), newBenchTextCmd(g))
	return cmd
}

func newBenchIngestCmd(g *globalOptions) *cobra.Command {
	var asJSON bool
	var workers, rounds int
	cmd := &cobra.Command{
		Use:   "ingest DIR",
		Short: "Pages/s of our PDF extraction and whole ingest against pdftotext (and mutool), tokens/s of the tokenizer",
		Long: `bench ingest runs, on the PDFs under DIR:
  - pdftotext (and mutool when installed) on each file, one at a time: the reference;
  - our extractor on each file, one at a time (same conditions as the reference);
  - our whole ingest (extract, clean, chunk, count tokens, store) with all
    workers, in this process (--isolate=false) and in worker processes (the
    default; starting the workers is part of the time);
  - the paperlens ingest command as a user runs it, a fresh process each
    time, with --isolate=false and with the default isolation;
  - the cl100k_base tokenizer over the extracted text.
pdftotext, the ingests and the commands run in --rounds interleaved rounds,
and each figure is the median, so that a busy machine shifts them alike. It
prints pages/s for each, the ratio of our whole ingest time to pdftotext's,
and of the isolated ingest to the in-process one: within this process (whose
in-process rounds run warm, the tokenizer and heap of earlier rounds ready,
while each isolated round starts new workers) and as commands, where each
side pays its own start.`,
		Example: "  paperlens bench ingest ../shared/corpus/pdf",
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
		Use:   "startup",
		Short: "CPU, memory and page faults of a fresh paperlens process, against pdftotext -v and other builds",
		Long: `bench startup runs paperlens --help as a fresh process, pdftotext -v
(when installed) and each --against binary with --help, in --rounds
interleaved rounds, and prints each one's median CPU time (user + system),
peak resident memory and page faults as the kernel accounts them for the
child, with each program's CPU as a ratio to ours.

Every command and every extraction worker pays this start, so it is the
floor of an ingest. To compare builds, keep the old binary:
  git stash; go build -o /tmp/paperlens-old ./cmd/paperlens; git stash pop
  paperlens bench startup --against /tmp/paperlens-old`,
		Example: "  paperlens bench startup --rounds 100\n  paperlens bench startup --against /tmp/paperlens-old --json",
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
