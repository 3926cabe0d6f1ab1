package main

import (
	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/ingest"
)

// workerCommand is the hidden mode in which paperlens re-executes itself to
// extract, clean, chunk and count one untrusted document at a time.
const workerCommand = "__extract-worker"

func newWorkerCmd() *cobra.Command {
	return &cobra.Command{
		Use:                workerCommand,
		Short:              "extraction worker (started by paperlens itself)",
		Hidden:             true,
		DisableFlagParsing: true,
		Args:               cobra.ArbitraryArgs,
		RunE: func(*cobra.Command, []string) error {
			return ingest.ServeWorker()
		},
	}
}

// prepareIsolation settles how this invocation's documents are parsed:
// in workers that re-execute this program, bounded by the flags when the
// command has them. Commands pass it on explicitly (g.isolation).
func (g *globalOptions) prepareIsolation(cmd *cobra.Command) error {
	if cmd.Name() == workerCommand {
		return nil
	}
	iso, err := ingest.SelfIsolation(workerCommand)
	if err != nil {
		// Said when a document needs a worker, with the way out.
		iso = &ingest.Isolation{}
	}
	if cmd.Flags().Lookup("isolate") != nil {
		iso.Off = !g.iso.On
		iso.Memory = g.iso.Memory
	}
	g.isolation = iso
	return nil
}
