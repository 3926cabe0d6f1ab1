package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/eval/agent/python"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/ingest/corpus"
	"github.com/paperlens/paperlens/internal/isolate"
	"github.com/paperlens/paperlens/retrieve/web"
)

// newWebTools builds what tool-search's web_search and open_page call: the
// engine of --web-provider and the guarded fetcher, its pages parsed in
// worker processes. As in the web modes, the question's own paper is left
// out: st gives its title. Replay comes from the run's tool cache.
func newWebTools(c run.Config, f *evalFlags, st *corpus.Store) (*run.WebTools, io.Closer, error) {
	switch c.WebProvider {
	case "google", "brave", "searxng":
	default:
		return nil, nil, fmt.Errorf("mode tool-search calls a search engine itself: use --web-provider searxng, google or brave (not %q)", c.WebProvider)
	}
	p, err := remoteProvider(c.WebProvider, f.searxngURL)
	if err != nil {
		return nil, nil, err
	}
	fo := web.FetchOptions{Tokens: c.WebTokens, AllowPrivate: f.allowPrivate}
	var closer io.Closer
	x, err := ingest.NewPageExtractor(nil, runtime.GOMAXPROCS(0), isolation.timeout)
	if err != nil {
		return nil, nil, err
	}
	if x != nil {
		fo.Extract, closer = x.Extract, x
	}
	wt := &run.WebTools{Provider: p, Fetcher: web.NewFetcher(fo)}
	if st != nil {
		wt.Title = func(id string) string {
			if d, err := st.Doc(id); err == nil {
				return d.Title
			}
			return ""
		}
	}
	return wt, closer, nil
}

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
