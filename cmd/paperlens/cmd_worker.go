package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/internal/isolate"
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

// isolationOptions are the flags that bound each untrusted document,
// shared by ingest and by the commands whose web modes fetch pages.
type isolationOptions struct {
	on      bool
	memory  int64
	timeout time.Duration // web pages; ingest has its own --timeout
}

func defaultIsolation() isolationOptions {
	return isolationOptions{on: true, memory: isolate.DefaultMemory, timeout: 2 * time.Minute}
}

// addIsolationFlags declares --isolate and --doc-memory.
func addIsolationFlags(cmd *cobra.Command, o *isolationOptions) {
	f := cmd.Flags()
	f.BoolVar(&o.on, "isolate", true, "parse each PDF and HTML document in a separate worker process with a memory cap and a time limit, so that a malicious or damaged file costs only its own result; --isolate=false parses in this process: a little faster to start, unsafe for untrusted files")
	tooLittle := func(s string) error {
		return fmt.Errorf("%s is too little for a worker to start in; give at least 64MiB", s)
	}
	f.Var(size(&o.memory, 64<<20, tooLittle, 0), "doc-memory", "memory one document may use while it is parsed, chunked and counted (e.g. 512MiB, 2GiB); a document that needs more is reported as an error")
}

// addWebDocFlags bounds each fetched page (and each paper ingested from
// --papers) the way ingest bounds a file: --isolate, --doc-memory, and a
// time limit on parsing one page.
func addWebDocFlags(cmd *cobra.Command, o *isolationOptions) {
	addIsolationFlags(cmd, o)
	cmd.Flags().DurationVar(&o.timeout, "doc-timeout", 2*time.Minute, "web modes: give up parsing one fetched PDF or HTML page after this long (the download has its own limit)")
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
		iso.Off = !g.iso.on
		iso.Memory = g.iso.memory
	}
	g.isolation = iso
	return nil
}
