package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/eval/agent/python"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/isolate"
)

// toolMemory is --tool-memory: a size with a unit, stored in bytes in
// run.Config.ToolMemory, where zero means python.DefaultMemory (so that
// config.json names a limit only when one was asked for).
type toolMemory struct{ p *int64 }

var _ pflag.Value = toolMemory{}

func (m toolMemory) String() string {
	if m.p == nil || *m.p == 0 {
		return isolate.FormatBytes(python.DefaultMemory)
	}
	return isolate.FormatBytes(*m.p)
}
func (m toolMemory) Type() string { return "size" }
func (m toolMemory) Set(s string) error {
	n, err := isolate.ParseBytes(s)
	if err != nil {
		return fmt.Errorf("--tool-memory: %w", err)
	}
	// python3 with numpy needs about 100 MiB of address space to start.
	if n < 128<<20 {
		return fmt.Errorf("--tool-memory %s is too little for python3 and numpy to start in; give at least 128MiB", isolate.FormatBytes(n))
	}
	*m.p = n
	return nil
}

// addToolLimitFlags registers the python session's limits.
func addToolLimitFlags(fl *pflag.FlagSet, c *run.Config) {
	fl.Var(toolMemory{&c.ToolMemory}, "tool-memory",
		"tool-python: memory of one question's Python session as a whole, every process it starts and its files included (e.g. 512MiB, 2GiB); 'eval --dry-run' says how this machine enforces it")
	fl.IntVar(&c.ToolProcesses, "tool-processes", python.DefaultProcesses,
		"tool-python: processes (threads included) one question's Python session may run at once; a fork past it is refused")
}
