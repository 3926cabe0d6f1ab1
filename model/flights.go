package model

import (
	"context"
	"sync"
	"time"
)

// Flights counts the calls that are at the server now and knows when the
// oldest began, for a progress report: a run whose calls are all slow or
// stalled finishes nothing for minutes, and without this looks the same
// as one that is doing nothing. The zero value is ready; it is safe for
// concurrent use. WithFlights (or StackOptions.Flights) reports into it.
type Flights struct {
	mu      sync.Mutex
	next    uint64
	started map[uint64]time.Time
}

// InFlight is how many calls are at the server now and when the oldest of
// them started (the zero Time when none is).
func (f *Flights) InFlight() (n int, oldest time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, t := range f.started {
		if oldest.IsZero() || t.Before(oldest) {
			oldest = t
		}
	}
	return len(f.started), oldest
}

func (f *Flights) begin() (end func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.started == nil {
		f.started = map[uint64]time.Time{}
	}
	id := f.next
	f.next++
	f.started[id] = time.Now()
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.started, id)
	}
}

// WithFlights reports every call through c to f, from its start to its
// return. Placed right above the client (as Stack does), it counts
// attempts at the server: each retry is a new call, and time queued in
// WithRateLimit or WithConcurrency above it is not counted.
func WithFlights(c Chat, f *Flights) Chat {
	if f == nil {
		return c
	}
	return ChatFunc(func(ctx context.Context, req Request) (Response, error) {
		end := f.begin()
		defer end()
		return c.Complete(ctx, req)
	})
}
