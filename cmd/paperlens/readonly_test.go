package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// Two evals of different models on one home run at once: the first, held
// mid-run by the loopback model, keeps the corpus and indexes open
// read-only, and a second (the offline ir model, which searches the same
// indexes) starts, finishes and writes nothing to the home. Meanwhile an
// ingest is refused with a message saying what to do; and an eval started
// while something writes the home fails, naming it, instead of waiting.
func TestEvalsShareAHome(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	arrived := make(chan struct{})
	var once sync.Once
	srv := modeltest.NewServer(t, modeltest.Config{Answer: func(r modeltest.Request) (string, string) {
		if r.N > 1 { // the first call is the preflight, made before the run starts
			once.Do(func() { close(arrived) })
			<-release
		}
		return "The answer is A.", ""
	}})
	// Cleanups run last-in first-out: the held answers are let go before
	// the server's Close waits for them.
	releaseOnce := sync.OnceFunc(func() { close(release) })
	t.Cleanup(releaseOnce)

	sample := filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")
	home := t.TempDir()
	out1, out2 := filepath.Join(t.TempDir(), "m"), filepath.Join(t.TempDir(), "ir")
	common := []string{"eval", "--bench", "elaipbench", "--data", sample, "--mode", "bm25,hybrid", "--runs", "1", "--limit", "4", "--home", home}

	first := paperlensProcess(append(common, "--model", "m", "--base-url", srv.BaseURL(), "--concurrency", "2", "--out", out1)...)
	first.Env = append(first.Env, "OPENAI_API_KEY=sk-test-not-a-secret")
	var firstErr bytes.Buffer
	first.Stderr = &firstErr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- first.Wait() }()
	t.Cleanup(func() {
		_ = first.Process.Kill()
		<-exited
	})
	select {
	case <-arrived:
	case err := <-exited:
		exited <- err
		t.Fatalf("the first eval ended before its first question: %v\n%s", err, firstErr.String())
	case <-hangGuard(t):
		t.Fatalf("the first eval sent no question\n%s", firstErr.String())
	}

	// The first eval is mid-run, holding the home read-only.
	start := time.Now()
	_, errOut, code := paperlens(t, append(common, "--model", "ir", "--out", out2)...)
	if code != 0 {
		t.Fatalf("second eval on the same home: exit %d\n%s", code, errOut)
	}
	if strings.Contains(errOut, "ingested ") || strings.Contains(errOut, "index: ") {
		t.Errorf("the second eval ingested or indexed although the home was up to date:\n%s", errOut)
	}
	t.Logf("second eval took %v while the first ran", time.Since(start))
	if n := len(readRecords(t, out2)); n != 8 {
		t.Errorf("second eval wrote %d records, want 8", n)
	}

	// A writer waits for both readers, then gives up saying why.
	note := filepath.Join(t.TempDir(), "note.md")
	if err := os.WriteFile(note, []byte("# A note\n\nA short note on retrieval."), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = paperlens(t, "ingest", "--home", home, note)
	if code == 0 || !strings.Contains(errOut, home) || !strings.Contains(errOut, "wait for it to finish") {
		t.Errorf("ingest while an eval reads the home: exit %d\n%s", code, errOut)
	}

	releaseOnce()
	if err := <-exited; err != nil {
		t.Fatalf("first eval: %v\n%s", err, firstErr.String())
	}
	exited <- nil
	if n := len(readRecords(t, out1)); n != 8 {
		t.Errorf("first eval wrote %d records, want 8", n)
	}

	// While something writes the home, an eval does not hang: it gives up
	// (after corpus.LockTimeout, not timed: a busy machine stretches it)
	// and names the home.
	w, err := corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	_, errOut, code = paperlens(t, append(common, "--model", "ir", "--out", filepath.Join(t.TempDir(), "blocked"))...)
	if code == 0 || !strings.Contains(errOut, home) || !strings.Contains(errOut, "wait for it to finish") {
		t.Errorf("eval while the home is written: exit %d\n%s", code, errOut)
	}
}
