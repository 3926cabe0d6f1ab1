package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// writeQuestions writes n closed-book multiple-choice questions in the
// generic JSONL format; question i's answer is "ABCD"[i%4].
func writeQuestions(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `{"id":"q%03d","type":"SA-MCQ","question":"Question number %d: which option is right?","options":["one","two","three","four"],"answer":"%c"}`+"\n", i, i, "ABCD"[i%4])
	}
	p := filepath.Join(t.TempDir(), "bench.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// answerByNumber stands in for a chat model: it answers question i with
// "ABCD"[i%3] in the words of a real reply, so about a third are right.
func answerByNumber(r modeltest.Request) (string, string) {
	p := r.Messages[len(r.Messages)-1].Content
	var i int
	if at := strings.Index(p, "Question number "); at >= 0 {
		fmt.Sscanf(p[at:], "Question number %d", &i)
	}
	return fmt.Sprintf("Option A looks tempting, but the answer is %c.", "ABCD"[i%3]), ""
}

func readRecords(t *testing.T, dir string) []run.Record {
	t.Helper()
	recs, err := run.ReadResults(filepath.Join(dir, run.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func countLines(path string) int {
	b, _ := os.ReadFile(path)
	return strings.Count(string(b), "\n")
}

// A run killed with SIGKILL half-way and rerun sends no completed call again,
// and its summary equals an uninterrupted run's. The loopback server stands in
// for an OpenAI-compatible chat API. It answers the first 30 questions and
// holds the next ones until the kill, so the run is killed with exactly 30
// records, however fast or slow the machine.
func TestEvalKilledAndResumed(t *testing.T) {
	t.Parallel()
	const answered, workers = 30, 4
	var held, killed atomic.Int32
	allHeld, release := make(chan struct{}), make(chan struct{})
	srv := modeltest.NewServer(t, modeltest.Config{Answer: func(r modeltest.Request) (string, string) {
		if r.N > 1+answered && killed.Load() == 0 { // call 1 is the preflight
			if held.Add(1) == workers {
				close(allHeld)
			}
			<-release
		}
		return answerByNumber(r)
	}})
	// Cleanups run last-in first-out: held answers are let go before the
	// server's Close waits for them.
	releaseOnce := sync.OnceFunc(func() { killed.Store(1); close(release) })
	t.Cleanup(releaseOnce)
	data := writeQuestions(t, 60)
	out := filepath.Join(t.TempDir(), "run")
	args := []string{"eval", "--bench", "jsonl", "--data", data, "--model", "fake-model", "--base-url", srv.BaseURL(),
		"--mode", "closed-book", "--runs", "2", "--concurrency", strconv.Itoa(workers), "--out", out, "--home", t.TempDir()}

	c := paperlensProcess(args...)
	c.Env = append(c.Env, "OPENAI_API_KEY=sk-test-not-a-secret")
	var stderr strings.Builder
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- c.Wait() }()
	t.Cleanup(func() { _ = c.Process.Kill() })
	guard := hangGuard(t)
	select {
	case <-allHeld:
	case err := <-exited:
		t.Fatalf("the run ended before its calls were held: %v\n%s", err, stderr.String())
	case <-guard:
		_ = c.Process.Kill()
		t.Fatalf("%d calls held, want %d\n%s", held.Load(), workers, stderr.String())
	}
	// Every worker waits on a held call: no record can come but those of
	// the answered calls, which the run writes as it goes.
	results := filepath.Join(out, run.ResultsFile)
	for countLines(results) < answered {
		select {
		case err := <-exited:
			t.Fatalf("the run ended with %d records: %v\n%s", countLines(results), err, stderr.String())
		case <-guard:
			_ = c.Process.Kill()
			t.Fatalf("%d records written of the %d answered", countLines(results), answered)
		case <-time.After(5 * time.Millisecond):
		}
	}
	_ = c.Process.Signal(syscall.SIGKILL)
	<-exited
	releaseOnce()
	before := readRecords(t, out)
	if len(before) != answered {
		t.Fatalf("%d records at the kill, want the %d answered", len(before), answered)
	}
	recorded := map[string]int{} // prompt → records
	for _, r := range before {
		recorded[r.QuestionID]++
	}
	servedBefore := srv.Served()
	countBefore := srv.Count()

	if _, errOut, code := paperlens(t, args...); code != 0 {
		t.Fatalf("rerun: exit %d: %s", code, errOut)
	}
	after := readRecords(t, out)
	if len(after) != 120 {
		t.Fatalf("%d records after the rerun, want 120", len(after))
	}
	// No question whose both runs were recorded was asked again. The
	// rerun also makes one preflight call, which asks no question.
	newCalls := srv.Count() - countBefore - 1
	for prompt, n := range srv.Served() {
		if n == servedBefore[prompt] || !strings.Contains(prompt, "Question number ") {
			continue
		}
		var i int
		fmt.Sscanf(prompt[strings.Index(prompt, "Question number "):], "Question number %d", &i)
		if recorded[fmt.Sprintf("q%03d", i)] == 2 {
			t.Errorf("question q%03d was finished before the kill and asked again", i)
		}
	}
	if newCalls > 120-len(before) {
		t.Errorf("the rerun made %d calls for %d unfinished records", newCalls, 120-len(before))
	}

	fresh := filepath.Join(t.TempDir(), "fresh")
	freshArgs := append(append([]string{}, args...), "--out", fresh)
	if _, errOut, code := paperlens(t, freshArgs...); code != 0 {
		t.Fatalf("fresh run: %s", errOut)
	}
	var a, b run.Summary
	for dir, s := range map[string]*run.Summary{out: &a, fresh: &b} {
		raw, err := os.ReadFile(filepath.Join(dir, "summary.json"))
		if err != nil || json.Unmarshal(raw, s) != nil {
			t.Fatalf("summary in %s: %v", dir, err)
		}
	}
	if a.ByMode["closed-book"].Accuracy != b.ByMode["closed-book"].Accuracy || a.ByMode["closed-book"].N != 60 {
		t.Errorf("resumed summary %+v differs from uninterrupted %+v", a.ByMode["closed-book"], b.ByMode["closed-book"])
	}
	if acc := a.ByMode["closed-book"].Accuracy; acc < 0.2 || acc > 0.45 {
		t.Errorf("accuracy %.3f; the fake answers a third right", acc)
	}
}

// 400 questions against a server that answers 20% of calls with 429, 500, a
// cut-off JSON body or a 30-second stall: every question is answered once.
// The key never appears in any file the run writes, nor in its output.
func TestEvalSurvivesFaultyServer(t *testing.T) {
	if testing.Short() {
		t.Skip("400 calls with injected faults")
	}
	const key = "sk-test-SECRET-4f9a2c"
	srv := modeltest.NewServer(t, modeltest.Config{Answer: answerByNumber, Key: key, EchoHeaders: true,
		Faults: modeltest.Faults{Seed: 3, RateLimit: 0.05, ServerError: 0.05, CutOff: 0.05, Stall: 0.05, StallFor: 30 * time.Second}})
	data := writeQuestions(t, 400)
	out := filepath.Join(t.TempDir(), "run")
	// The run starts before t.Parallel, with the package: it spends
	// seconds waiting out stalls and backoffs on ~0.4 s of CPU, and a
	// parallel test's turn can come last of seventy, which left the
	// package idling through that wait at its end. 64 questions in flight
	// (16 took 10-15 s) overlap more of those waits; which calls fail, and
	// how, depends on the question and the attempt, not on the order.
	var stdoutb, stderrb lockedBuffer
	wait := (cli{env: []string{"OPENAI_API_KEY=" + key}}).start(&stdoutb, &stderrb, "eval", "--bench", "jsonl", "--data", data, "--model", "fake-model", "--base-url", srv.BaseURL(),
		"--mode", "closed-book", "--runs", "1", "--concurrency", "64", "--attempt-timeout", "1s", "--max-attempts", "8",
		"--out", out, "--home", t.TempDir())
	t.Cleanup(func() { wait() }) // the run ends before the server closes, should the test stop early
	t.Parallel()
	code := wait()
	output := stdoutb.String() + stderrb.String()
	if code != 0 {
		t.Fatalf("eval: exit %d\n%s", code, output)
	}
	recs := readRecords(t, out)
	seen := map[string]bool{}
	for _, r := range recs {
		if r.Error != "" || r.Output == "" || seen[r.QuestionID] {
			t.Errorf("record %s: error %q output %q (seen before %v)", r.QuestionID, r.Error, r.Output, seen[r.QuestionID])
		}
		seen[r.QuestionID] = true
	}
	if len(seen) != 400 || countLines(filepath.Join(out, run.ResultsFile)) != 400 {
		t.Fatalf("%d questions answered, %d lines; want 400 each", len(seen), countLines(filepath.Join(out, run.ResultsFile)))
	}
	if f := srv.Faulted(); len(f) < 3 {
		t.Errorf("faults injected: %v", f)
	}
	if strings.Contains(string(output), key) {
		t.Error("the API key appears in the command's output")
	}
	filepath.Walk(out, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), key) {
				t.Errorf("the API key appears in %s", p)
			}
		}
		return nil
	})
}

// The main job works offline on the sample: ingest, index, retrieval
// scores, the offline baselines in every mode, and the report tables.
func TestStudyOffline(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("whole study")
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	// One run per mode: what is checked below is in the report of one
	// (a second cost ~0.3 s of CPU for nothing checked).
	c := paperlensProcess("study", "--home", t.TempDir(), "--out", t.TempDir(), "--runs", "1")
	c.Dir = root
	out, err := c.Output()
	if err != nil {
		var ee *exec.ExitError
		if errorsAs(err, &ee) {
			t.Fatalf("study: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{"Evidence recall", "hybrid+options", "# random on elaipbench", "# ir on elaipbench",
		"| full+hybrid |", "| full+web |", "Effect against full", "SA-MCQ", "MA-MCQ", "McNemar"} {
		if !strings.Contains(s, want) {
			t.Errorf("study output lacks %q", want)
		}
	}
}

func errorsAs(err error, target **exec.ExitError) bool {
	e, ok := err.(*exec.ExitError)
	if ok {
		*target = e
	}
	return ok
}
