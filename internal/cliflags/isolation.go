package cliflags

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/internal/isolate"
)

// Isolation is the flags that bound each untrusted document, shared by
// ingest and by the commands whose web modes fetch pages. Start from
// DefaultIsolation: a command without the flags keeps its values.
type Isolation struct {
	On      bool          // --isolate: parse in worker processes
	Memory  int64         // --doc-memory, in bytes
	Timeout time.Duration // --doc-timeout: web pages; ingest has its own --timeout
}

// DefaultIsolation is the flags' defaults.
func DefaultIsolation() Isolation {
	return Isolation{On: true, Memory: isolate.DefaultMemory, Timeout: 2 * time.Minute}
}

// Add declares --isolate and --doc-memory.
func (o *Isolation) Add(fl *pflag.FlagSet) {
	fl.BoolVar(&o.On, "isolate", true, "parse each PDF and HTML document in a separate worker process with a memory cap and a time limit, so that a malicious or damaged file costs only its own result; --isolate=false parses in this process: a little faster to start, unsafe for untrusted files")
	tooLittle := func(s string) error {
		return fmt.Errorf("%s is too little for a worker to start in; give at least 64MiB", s)
	}
	fl.Var(Size(&o.Memory, 64<<20, tooLittle, 0), "doc-memory", "memory one document may use while it is parsed, chunked and counted (e.g. 512MiB, 2GiB); a document that needs more is reported as an error")
}

// AddWeb bounds each fetched page (and each paper ingested from --papers)
// the way ingest bounds a file: --isolate, --doc-memory, and a time limit
// on parsing one page.
func (o *Isolation) AddWeb(fl *pflag.FlagSet) {
	o.Add(fl)
	fl.DurationVar(&o.Timeout, "doc-timeout", 2*time.Minute, "web modes: give up parsing one fetched PDF or HTML page after this long (the download has its own limit)")
}
