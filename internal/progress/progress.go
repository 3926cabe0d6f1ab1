// Package progress shows how a long evaluation is going: a bar on a
// terminal, and on anything else (a pipe, a CI log, nohup) a plain line at
// least every interval and whenever a mode finishes a run, so that a
// stalled or failing run is visible in a log file.
package progress

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/paperlens/paperlens/eval/run"
)

// Eval reports the progress of run.Run.
type Eval struct {
	w        io.Writer
	name     string // what the line says is going on: "eval" unless Named
	bar      *progressbar.ProgressBar
	interval time.Duration

	mu          sync.Mutex
	last        run.Progress
	inflight    func() (n int, oldest time.Time) // nil: not shown
	printed     time.Time
	printedDone int // Done at the last line, so Close does not repeat it
	stop        chan struct{}
	done        chan struct{}
}

// NewEval starts a reporter writing to w: a bar when terminal is true,
// lines every interval otherwise (10 s when zero). Close stops it.
func NewEval(w io.Writer, terminal bool, interval time.Duration) *Eval {
	if interval <= 0 {
		interval = 10 * time.Second
	}
	e := &Eval{w: w, name: "eval", interval: interval, stop: make(chan struct{}), done: make(chan struct{}), printed: time.Now()}
	if terminal {
		e.bar = progressbar.NewOptions(-1, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription("evaluating"),
			progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("rec"),
			progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100*time.Millisecond))
	}
	go e.tick()
	return e
}

// Watch makes every line (and the bar) say how many model calls are in
// flight and how old the oldest is, as inflight reports them (e.g.
// (*model.Flights).InFlight): while nothing finishes, that is what shows
// whether the run waits on slow answers or on nothing.
func (e *Eval) Watch(inflight func() (n int, oldest time.Time)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.inflight = inflight
}

// InFlight is what Line says about the calls in flight; N 0 says nothing.
type InFlight struct {
	N      int
	Oldest time.Time
}

func (e *Eval) inFlightLocked() InFlight {
	if e.inflight == nil {
		return InFlight{}
	}
	n, oldest := e.inflight()
	return InFlight{N: n, Oldest: oldest}
}

// Update takes the state after a record; it is safe for concurrent use.
func (e *Eval) Update(p run.Progress) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.last = p
	if e.bar != nil {
		e.bar.ChangeMax(p.Total)
		e.describeLocked(time.Now())
		_ = e.bar.Set(p.Done)
		return
	}
	if p.ModeDone == p.ModeTotal {
		// A mode's run is complete: say so at once.
		e.printLocked(time.Now())
	}
}

// describeLocked sets the bar's text: the mode, and the calls in flight,
// which change while no record finishes.
func (e *Eval) describeLocked(now time.Time) {
	p := e.last
	d := "evaluating"
	if p.Mode != "" {
		d = fmt.Sprintf("%s run %d %d/%d · %d errors · %d retries", p.Mode, p.Run, p.ModeDone, p.ModeTotal, p.Errors, p.Retries)
	}
	if f := inFlightText(e.inFlightLocked(), now); f != "" {
		d += " · " + f
	}
	e.bar.Describe(d)
}

func (e *Eval) tick() {
	defer close(e.done)
	every := e.interval / 4
	if e.bar != nil {
		every = min(every, time.Second) // the bar's in-flight ages
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-e.stop:
			return
		case now := <-t.C:
			e.mu.Lock()
			switch {
			case e.bar != nil:
				e.describeLocked(now)
			case now.Sub(e.printed) >= e.interval:
				e.printLocked(now)
			}
			e.mu.Unlock()
		}
	}
}

// Named makes the lines say name instead of "eval" (judge-check runs on
// the same reporter). Call it before the first Update.
func (e *Eval) Named(name string) *Eval {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.name = name
	return e
}

// printLocked writes one line: "eval: 120/444 done (27%) · full run 1:
// 37/37 · 8 calls in flight, oldest 1m2s · 3.2 rec/s · ETA 1m41s · 2
// errors · 5 retries · 1.2M tokens".
func (e *Eval) printLocked(now time.Time) {
	e.printed, e.printedDone = now, e.last.Done
	fmt.Fprintln(e.w, NamedLine(e.name, e.last, e.inFlightLocked(), now))
}

// Line renders p and the calls in flight f as a progress line; it always
// holds "done/total".
func Line(p run.Progress, f InFlight, now time.Time) string { return NamedLine("eval", p, f, now) }

// NamedLine is Line for work other than an eval, name starting the line.
func NamedLine(name string, p run.Progress, f InFlight, now time.Time) string {
	if p.Total == 0 && p.Done == 0 {
		// The run has not counted its work yet (it is loading the
		// questions, ingesting papers or opening the index): "0/0 done"
		// would read as a run with nothing to do.
		s := name + ": preparing (questions, papers, indexes)"
		if t := inFlightText(f, now); t != "" {
			s += " · " + t
		}
		return s
	}
	s := fmt.Sprintf("%s: %d/%d done", name, p.Done, p.Total)
	if p.Total > 0 {
		s += fmt.Sprintf(" (%.0f%%)", 100*float64(p.Done)/float64(p.Total))
	}
	if p.Mode != "" {
		s += fmt.Sprintf(" · %s run %d: %d/%d", p.Mode, p.Run, p.ModeDone, p.ModeTotal)
	}
	if t := inFlightText(f, now); t != "" {
		s += " · " + t
	}
	if p.Started.IsZero() {
		return s
	}
	el := now.Sub(p.Started)
	fresh := p.Done - p.Resumed
	if fresh > 0 && el > 0 {
		rate := float64(fresh) / el.Seconds()
		s += fmt.Sprintf(" · %.1f rec/s", rate)
		if left := p.Total - p.Done; left > 0 {
			s += " · ETA " + time.Duration(float64(left)/rate*float64(time.Second)).Round(time.Second).String()
		}
	}
	s += fmt.Sprintf(" · %d errors · %d retries · %s tokens", p.Errors, p.Retries, humanCount(p.Tokens))
	return s
}

// inFlightText is "8 calls in flight, oldest 3m12s", or "" for none.
func inFlightText(f InFlight, now time.Time) string {
	if f.N <= 0 {
		return ""
	}
	age := max(now.Sub(f.Oldest), 0).Round(time.Second)
	if f.N == 1 {
		return fmt.Sprintf("1 call in flight, %v old", age)
	}
	return fmt.Sprintf("%d calls in flight, oldest %v", f.N, age)
}

func humanCount(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%.0fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// Close prints the final state (lines mode) or clears the bar.
func (e *Eval) Close() {
	close(e.stop)
	<-e.done
	if e.bar != nil {
		_ = e.bar.Finish()
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.last.Total > 0 && e.last.Done != e.printedDone {
		e.printLocked(time.Now())
	}
}
