package model_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/paperlens/paperlens/model"
)

// Calls held at a fake server are counted from the moment they pass the
// gates until they return; the bubble's clock makes the ages exact.
func TestFlights(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		held := model.ChatFunc(func(ctx context.Context, req model.Request) (model.Response, error) {
			<-release
			return model.Response{Content: "ok"}, nil
		})
		var f model.Flights
		chat, closer, err := model.Stack(held, model.StackOptions{Concurrency: 2, Flights: &f})
		if err != nil {
			t.Fatal(err)
		}
		defer closer.Close()
		if n, oldest := f.InFlight(); n != 0 || !oldest.IsZero() {
			t.Fatalf("idle: %d, %v", n, oldest)
		}
		start := time.Now()
		var wg sync.WaitGroup
		for range 3 {
			wg.Go(func() { chat.Complete(t.Context(), ask("q")) })
			synctest.Wait()
			time.Sleep(time.Minute)
		}
		// Two calls are at the server, the third queued for a slot.
		n, oldest := f.InFlight()
		if n != 2 || oldest != start {
			t.Errorf("%d in flight, oldest from %v; want 2, from the start", n, oldest.Sub(start))
		}
		close(release)
		wg.Wait()
		if n, _ := f.InFlight(); n != 0 {
			t.Errorf("%d in flight after all returned", n)
		}
	})
}
