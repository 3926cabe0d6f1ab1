package run

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/model"
)

// An evaluation's memory does not grow with the records it writes: its
// records go to results.jsonl and its summary is made as they are read
// back, its prompts are assembled for each run rather than kept, so
// what it holds per question is the question and a few counters. Issue
// 27: 10,000 questions peaked at 2.98 GB, every record and prompt held.
//
// The claim is a ratio, not a size: the live heap's peak over a run of
// 4× the questions is under 1.5× that of the small run (records and
// prompts held for the run made it about 2×, since they outweigh the fixed
// part: tokenizer, index, the papers). The live heap is read after each
// collection, and collections are made frequent for the test, so that a
// peak between two of them is not missed.
func TestEvalMemoryDoesNotGrowWithRecords(t *testing.T) {
	if testing.Short() {
		t.Skip("evaluates 1,000 questions in two modes")
	}
	qs, st, ix := fixture(t)
	// The model is a loopback server in a process of its own: modeltest
	// keeps every request it served, which in this process would be
	// memory that grows with the questions.
	chat, err := model.NewOpenAI(model.Options{BaseURL: modelServerProcess(t)})
	if err != nil {
		t.Fatal(err)
	}
	peak := func(n int) (uint64, Summary) {
		cfg := sampleConfig(t, "thinker", ClosedBook, ModeBM25)
		cfg.Runs, cfg.Concurrency = 1, 4
		res, peak := livePeak(t, func() (Result, error) {
			return Run(context.Background(), Options{Config: cfg, Chat: chat, Corpus: st, Index: ix, Questions: manyQuestions(qs, n)})
		})
		return peak, res.Summary
	}
	const small = 200
	defer debug.SetGCPercent(debug.SetGCPercent(20))
	peakSmall, sumSmall := peak(small)
	peakLarge, sumLarge := peak(4 * small)
	t.Logf("live heap peak: %d questions %.1f MB, %d questions %.1f MB (×%.2f)", small, mb(peakSmall), 4*small, mb(peakLarge), float64(peakLarge)/float64(peakSmall))
	for _, s := range []struct {
		sum Summary
		n   int
	}{{sumSmall, small}, {sumLarge, 4 * small}} {
		for _, m := range []string{ClosedBook, ModeBM25} {
			if ms := s.sum.ByMode[m]; ms.Records != s.n || ms.Errors != 0 || ms.N != s.n {
				t.Fatalf("%d questions, mode %s: %d records, %d errors, n %d", s.n, m, ms.Records, ms.Errors, ms.N)
			}
		}
	}
	if float64(peakLarge) > 1.5*float64(peakSmall) {
		t.Errorf("4× the questions took %.2f× the memory (%.1f MB against %.1f MB), want under 1.5×", float64(peakLarge)/float64(peakSmall), mb(peakLarge), mb(peakSmall))
	}
}

// modelServerEnv makes the test binary modelServerProcess's server.
const modelServerEnv = "PAPERLENS_RUN_TEST_MODEL_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(modelServerEnv) == "1" {
		serveModel()
		return
	}
	os.Exit(m.Run())
}

// serveModel serves a reasoning model on loopback until its standard
// input closes, after printing its API root: each reply is several
// kilobytes of reasoning and a letter, so that a record is as large as
// a real one and holding records would show.
func serveModel() {
	reasoning := strings.Repeat("Weighing each option against the method section of the paper. ", 64)
	srv := modeltest.Start(modeltest.Config{Answer: func(r modeltest.Request) (string, string) {
		return "The answer is " + string("ABCD"[len(r.Prompt())%4]) + ".", reasoning
	}})
	defer srv.Close()
	fmt.Println(srv.BaseURL())
	_, _ = io.Copy(io.Discard, os.Stdin)
}

// modelServerProcess starts serveModel in a child process, stopped when
// the test ends, and returns its API root.
func modelServerProcess(t *testing.T) string {
	t.Helper()
	c := exec.Command(os.Args[0], "-test.run=^$")
	c.Env = append(os.Environ(), modelServerEnv+"=1")
	stdin, err := c.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		_ = c.Wait()
	})
	url, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("model server: %v", err)
	}
	return strings.TrimSpace(url)
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }

// manyQuestions is n questions made from qs, each a copy under an id of its
// own, as a benchmark of n questions over the same papers.
func manyQuestions(qs []bench.Question, n int) []bench.Question {
	out := make([]bench.Question, n)
	for i := range out {
		q := qs[i%len(qs)]
		q.ID = fmt.Sprintf("%s-%d", q.ID, i)
		out[i] = q
	}
	return out
}

// livePeak runs f and returns its result and the most live heap (heap
// objects still reachable at the end of a collection) seen while it ran,
// sampled every millisecond and once after it returned.
func livePeak[T any](t *testing.T, f func() (T, error)) (T, uint64) {
	t.Helper()
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	var most atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			if v := read(); v > most.Load() {
				most.Store(v)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	res, err := f()
	runtime.GC()
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	return res, max(most.Load(), read())
}
