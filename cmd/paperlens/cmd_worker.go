package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

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

// isolation holds the flags that bound each untrusted document, shared by
// ingest and by the commands whose web modes fetch pages. One command runs
// per process, so package state is enough; prepareIsolation applies it
// before the command runs.
var isolation = struct {
	on      bool
	memory  byteSize
	timeout time.Duration // web pages; ingest has its own --timeout
}{on: true, memory: isolate.DefaultMemory}

// addIsolationFlags declares --isolate and --doc-memory.
func addIsolationFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.BoolVar(&isolation.on, "isolate", true, "parse each PDF and HTML document in a separate worker process with a memory cap and a time limit, so that a malicious or damaged file costs only its own result; --isolate=false parses in this process: a little faster to start, unsafe for untrusted files")
	f.Var(&isolation.memory, "doc-memory", "memory one document may use while it is parsed, chunked and counted (e.g. 512MiB, 2GiB); a document that needs more is reported as an error")
}

// prepareIsolation sets up the worker processes every ingest of this run
// uses, from the flags when the command has them.
func prepareIsolation(cmd *cobra.Command) error {
	if cmd.Name() == workerCommand {
		return nil
	}
	iso, err := ingest.SelfIsolation(workerCommand)
	if err != nil {
		// Said when a document needs a worker, with the way out.
		iso = &ingest.Isolation{}
	}
	if cmd.Flags().Lookup("isolate") != nil {
		iso.Off = !isolation.on
		iso.Memory = int64(isolation.memory)
	}
	ingest.DefaultIsolation = iso
	return nil
}

// byteSize is a flag holding a number of bytes, written with a unit.
type byteSize int64

var _ pflag.Value = (*byteSize)(nil)

func (b *byteSize) String() string { return isolate.FormatBytes(int64(*b)) }
func (b *byteSize) Type() string   { return "size" }
func (b *byteSize) Set(s string) error {
	n, err := isolate.ParseBytes(s)
	if err != nil {
		return err
	}
	if n < 64<<20 && b == &isolation.memory {
		return fmt.Errorf("%s is too little for a worker to start in; give at least 64MiB", isolate.FormatBytes(n))
	}
	*b = byteSize(n)
	return nil
}
