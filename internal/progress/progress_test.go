package progress

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/paperlens/paperlens/eval/run"
)

func TestLine(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		name string
		p    run.Progress
		f    InFlight
		want string
	}{
		{"nothing finished, calls at the server", run.Progress{Total: 120}, InFlight{N: 8, Oldest: now.Add(-3*time.Minute - 12*time.Second)},
			"eval: 0/120 done (0%) · 8 calls in flight, oldest 3m12s"},
		{"one call", run.Progress{Total: 120}, InFlight{N: 1, Oldest: now.Add(-40 * time.Second)},
			"eval: 0/120 done (0%) · 1 call in flight, 40s old"},
		{"none in flight says nothing", run.Progress{Total: 120}, InFlight{}, "eval: 0/120 done (0%)"},
		{"before the work is counted", run.Progress{}, InFlight{}, "eval: preparing (questions, papers, indexes)"},
		{"before the work is counted, a call out", run.Progress{}, InFlight{N: 1, Oldest: now.Add(-5 * time.Second)},
			"eval: preparing (questions, papers, indexes) · 1 call in flight, 5s old"},
		{"under way", run.Progress{Done: 30, Total: 120, Mode: "full", Run: 1, ModeDone: 30, ModeTotal: 60, Started: now.Add(-10 * time.Second), Tokens: 12345},
			InFlight{N: 8, Oldest: now.Add(-2 * time.Second)},
			"eval: 30/120 done (25%) · full run 1: 30/60 · 8 calls in flight, oldest 2s · 3.0 rec/s · ETA 30s · 0 errors · 0 retries · 12k tokens"},
	}
	for _, tc := range cases {
		if got := Line(tc.p, tc.f, now); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// syncBuffer is a bytes.Buffer the reporter's goroutine may write while
// the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A run that has finished nothing prints, every interval, its totals and
// the calls it is waiting for, aging; the bubble's clock makes the ages
// exact.
func TestEvalLinesWhileNothingFinishes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out syncBuffer
		e := NewEval(&out, false, 10*time.Second)
		start := time.Now()
		e.Watch(func() (int, time.Time) { return 8, start })
		e.Update(run.Progress{Total: 120, ModeTotal: 60})
		time.Sleep(25 * time.Second)
		e.Close()
		want := "eval: 0/120 done (0%) · 8 calls in flight, oldest 10s\n" +
			"eval: 0/120 done (0%) · 8 calls in flight, oldest 20s\n"
		if got := out.String(); got != want {
			t.Errorf("got\n%s\nwant\n%s", got, want)
		}
	})
}

// On a terminal the bar's text carries the calls in flight too, refreshed
// while no record finishes.
func TestEvalBarShowsInFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out syncBuffer
		e := NewEval(&out, true, 10*time.Second)
		start := time.Now()
		e.Watch(func() (int, time.Time) { return 3, start })
		e.Update(run.Progress{Total: 120, ModeTotal: 60})
		time.Sleep(5 * time.Second)
		e.Close()
		// The bar's spinner goroutine notices Finish at its next tick.
		time.Sleep(time.Second)
		if got := out.String(); !strings.Contains(got, "3 calls in flight, oldest 4s") {
			t.Errorf("bar output lacks the calls in flight: %q", got)
		}
	})
}

// Work other than an eval (judge-check) says what it is at the start of
// the line, in every state of the line.
func TestNamedLine(t *testing.T) {
	now := time.Now()
	for _, p := range []run.Progress{{}, {Done: 3, Total: 10}} {
		if got := NamedLine("judge-check", p, InFlight{}, now); !strings.HasPrefix(got, "judge-check: ") {
			t.Errorf("NamedLine(judge-check, %+v) = %q", p, got)
		}
	}
	if got := Line(run.Progress{Done: 3, Total: 10}, InFlight{}, now); !strings.HasPrefix(got, "eval: 3/10 done") {
		t.Errorf("Line = %q, want eval's", got)
	}
}
