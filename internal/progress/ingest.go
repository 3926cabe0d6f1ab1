package progress

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/paperlens/paperlens/ingest"
)

// Ingest reports the progress of an ingest: a count on a terminal, and
// the closing line of what was stored.
type Ingest struct {
	bar    *progressbar.ProgressBar // nil: no bar
	start  time.Time
	mu     sync.Mutex
	counts map[string]int // results by status
}

// NewIngest starts a reporter, with a bar on w when bar is true.
func NewIngest(w io.Writer, bar bool) *Ingest {
	p := &Ingest{start: time.Now(), counts: map[string]int{}}
	if bar {
		p.bar = progressbar.NewOptions(-1, progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("ingesting"), progressbar.OptionShowCount(),
			progressbar.OptionClearOnFinish())
	}
	return p
}

// Add counts one document's result, printed by show with the bar out of
// its way.
func (p *Ingest) Add(status string, show func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.counts[status]++
	if p.bar != nil {
		p.bar.Clear()
	}
	show()
	if p.bar != nil {
		_ = p.bar.Add(1)
	}
}

// Done ends the bar and, on log unless nil, says how many documents were
// stored, skipped and failed, how long it took and where the corpus is.
func (p *Ingest) Done(log io.Writer, home string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
	}
	if log != nil {
		fmt.Fprintf(log, "%d ingested, %d unchanged (skipped), %d failed in %.1fs; corpus at %s\n",
			p.counts[ingest.StatusOK], p.counts[ingest.StatusSkipped], p.counts[ingest.StatusError], time.Since(p.start).Seconds(), home)
	}
}
