package model_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/model"
)

// A benchmark run in miniature: 400 questions through the full Stack, 16
// at a time, against a fake standing in for an overloaded provider that
// fails 20% of calls: 429s, 500s, bodies cut off mid-JSON (dropped
// connections and cleanly ended halves) and 30-second stalls. Every
// question must get exactly one answer, its own; the provider must have
// completed one call per question (nothing paid twice), and every stall
// must have been given up at the 1 s attempt timeout rather than waited out
// for its 30 s (each shows as a timeout passed to OnRetry; no duration is
// asserted). A second pass is all cache hits.
//
// The one way a question can be paid twice is the client abandoning a call
// that was slow but alive: then the server may finish it after the client
// hung up. That needs a non-stalled call to take over a second here, which
// happens only when the machine is starved of CPU (CI runs other packages'
// tests beside this one); such duplicates must each match an attempt
// timeout the client saw, and are logged.
func TestWorkloadUnderFaults(t *testing.T) {
	t.Parallel() // waits on loopback faults and stalls, not on the CPU
	const questions = 400
	cases := []struct {
		name   string
		faults modeltest.Faults
		cache  bool
	}{
		{"20% mixed faults, cached stack", modeltest.Faults{Seed: 7, RateLimit: 0.05, ServerError: 0.05,
			CutOff: 0.025, BadJSON: 0.025, Stall: 0.05, StallFor: 30 * time.Second, RetryAfter: "0"}, true},
		{"20% mixed faults, no cache", modeltest.Faults{Seed: 11, RateLimit: 0.05, ServerError: 0.05,
			CutOff: 0.05, Stall: 0.05, StallFor: 30 * time.Second}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := modeltest.NewServer(t, modeltest.Config{
				Latency: 2 * time.Millisecond,
				Faults:  tc.faults,
				Answer: func(r modeltest.Request) (string, string) {
					return "answer to " + r.Messages[1].Content, "thought about " + r.Messages[1].Content
				},
			})
			base := newClient(t, model.Options{BaseURL: srv.BaseURL()})
			o := model.StackOptions{Concurrency: 16, Retry: model.RetryOptions{
				MinBackoff: 5 * time.Millisecond, MaxBackoff: 50 * time.Millisecond, AttemptTimeout: time.Second}}
			var tmu sync.Mutex
			timeouts := map[string]int{}
			o.Retry.OnRetry = func(r model.Request, attempt int, wait time.Duration, err error) {
				var te *model.TimeoutError
				if errors.As(err, &te) {
					tmu.Lock()
					timeouts[r.Messages[1].Content]++
					tmu.Unlock()
				}
			}
			if tc.cache {
				o.CachePath = filepath.Join(t.TempDir(), "responses.db")
			}
			chat, closer, err := model.Stack(base, o)
			if err != nil {
				t.Fatal(err)
			}
			defer closer.Close()

			run := func() (hits int) {
				var wg sync.WaitGroup
				var mu sync.Mutex
				answered := map[string]int{}
				work := make(chan int)
				for range 16 { // the caller's workers; the stack gates at 16 too
					wg.Go(func() {
						for i := range work {
							q := fmt.Sprintf("question %d", i)
							resp, err := chat.Complete(t.Context(), ask(q))
							if err != nil {
								t.Errorf("%s: %v", q, err)
								continue
							}
							if resp.Content != "answer to "+q || resp.Reasoning != "thought about "+q {
								t.Errorf("%s: got %+v", q, resp)
							}
							mu.Lock()
							answered[resp.Content]++
							if resp.Cached {
								hits++
							}
							mu.Unlock()
						}
					})
				}
				for i := range questions {
					work <- i
				}
				close(work)
				wg.Wait()
				for i := range questions {
					if n := answered[fmt.Sprintf("answer to question %d", i)]; n != 1 {
						t.Errorf("question %d answered %d times", i, n)
					}
				}
				return hits
			}

			start := time.Now()
			if hits := run(); hits != 0 {
				t.Errorf("%d cache hits on a fresh file", hits)
			}
			elapsed := time.Since(start)
			served := srv.Served()
			for i := range questions {
				key := modeltest.PromptKey([]modeltest.Message{{Role: "system", Content: "Answer with one letter."},
					{Role: "user", Content: fmt.Sprintf("question %d", i)}})
				q := fmt.Sprintf("question %d", i)
				switch extra := served[key] - 1; {
				case extra < 0 || extra > timeouts[q]:
					t.Errorf("%s completed %d times by the server, after %d client timeouts", q, served[key], timeouts[q])
				case extra > 0:
					t.Logf("%s completed %d times: the client gave up on a slow call %d times", q, served[key], timeouts[q])
				}
			}
			faults := srv.Faulted()
			for _, k := range []modeltest.Kind{modeltest.RateLimited, modeltest.ServerError, modeltest.CutOff, modeltest.Stall} {
				if faults[k] == 0 {
					t.Errorf("no %v injected", k)
				}
			}
			t.Logf("%d questions in %v: %d requests, faults %v", questions, elapsed.Round(time.Millisecond), srv.Count(), faults)
			// A stall waited out to its end would be a completed call and
			// no timeout; the machine being slow can only add timeouts.
			sawTimeouts := 0
			for _, n := range timeouts {
				sawTimeouts += n
			}
			if sawTimeouts < faults[modeltest.Stall] {
				t.Errorf("%d attempt timeouts for %d stalls: some stall was waited out", sawTimeouts, faults[modeltest.Stall])
			}
			if !tc.cache {
				return
			}
			before := srv.Count()
			if hits := run(); hits != questions || srv.Count() != before {
				t.Errorf("second pass: %d hits, %d new server calls", hits, srv.Count()-before)
			}
		})
	}
}
