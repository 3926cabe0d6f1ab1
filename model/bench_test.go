package model_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/model"
)

// 1,000 calls, 32 at a time, against the fake standing in for a server
// with a steady 200 ms latency. The ideal is 1000 × 0.2 s / 32 = 6.25 s;
// since 1000 is not a multiple of 32 the last round runs 8 calls, so the
// best possible is 32 rounds = 6.4 s (x-ideal 1.024). x-ideal is wall time
// over 6.25 s.
//
//	go test ./model -run '^$' -bench Workload -benchtime 1x
func BenchmarkWorkload(b *testing.B) {
	const calls, conc, latency = 1000, 32, 200 * time.Millisecond
	for _, withCache := range []bool{false, true} {
		name := "stack"
		if withCache {
			name = "stack+cache"
		}
		b.Run(name, func(b *testing.B) {
			srv := modeltest.NewServer(b, modeltest.Config{Latency: latency})
			base, err := model.NewOpenAI(model.Options{BaseURL: srv.BaseURL()})
			if err != nil {
				b.Fatal(err)
			}
			o := model.StackOptions{Concurrency: conc}
			if withCache {
				o.CachePath = filepath.Join(b.TempDir(), "responses.db")
			}
			chat, closer, err := model.Stack(base, o)
			if err != nil {
				b.Fatal(err)
			}
			defer closer.Close()
			iter := 0
			var total time.Duration
			for b.Loop() {
				iter++
				start := time.Now()
				var wg sync.WaitGroup
				work := make(chan int)
				for range conc {
					wg.Go(func() {
						for i := range work {
							if _, err := chat.Complete(b.Context(), ask(fmt.Sprintf("iteration %d question %d", iter, i))); err != nil {
								b.Error(err)
							}
						}
					})
				}
				for i := range calls {
					work <- i
				}
				close(work)
				wg.Wait()
				total += time.Since(start)
			}
			wall := total / time.Duration(iter)
			ideal := time.Duration(calls) * latency / conc
			b.ReportMetric(wall.Seconds(), "s/1000calls")
			b.ReportMetric(float64(wall)/float64(ideal), "x-ideal")
		})
	}
}

// The client's own cost per call, with a fake answering at once: what the
// library adds on top of the model's latency (loopback HTTP, JSON both
// ways, and for the cache an fsynced bbolt commit per miss). The fake's
// handler runs in the same process, so these are upper bounds.
func BenchmarkOverhead(b *testing.B) {
	srv := modeltest.NewServer(b, modeltest.Config{})
	base, err := model.NewOpenAI(model.Options{BaseURL: srv.BaseURL()})
	if err != nil {
		b.Fatal(err)
	}
	stack, _, _ := model.Stack(base, model.StackOptions{})
	cached, closer, err := model.Stack(base, model.StackOptions{CachePath: filepath.Join(b.TempDir(), "c.db")})
	if err != nil {
		b.Fatal(err)
	}
	defer closer.Close()
	cases := []struct {
		name   string
		chat   model.Chat
		unique bool
	}{
		{"client", base, false},
		{"stack", stack, false},
		{"stack+cache-miss", cached, true},
		{"stack+cache-hit", cached, false},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			req := ask("What does Table 2 show?")
			n := 0
			start := time.Now()
			for b.Loop() {
				if tc.unique {
					n++
					req = ask(fmt.Sprintf("What does Table %d show?", n))
				}
				if _, err := tc.chat.Complete(b.Context(), req); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/float64(b.N), "µs/call")
		})
	}
}
