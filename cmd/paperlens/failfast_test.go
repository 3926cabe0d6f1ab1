package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// A dead endpoint (nothing listens on the port) and a rejected key stop
// the run at the preflight call: non-zero exit, a message saying what to
// fix, no record written. The loopback server stands in for an
// OpenAI-compatible API that checks its key.
func TestEvalFailsFast(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadURL := "http://" + l.Addr().String() + "/v1"
	l.Close()
	keyed := modeltest.NewServer(t, modeltest.Config{Key: "sk-right-key"})
	data := writeQuestions(t, 40)
	cases := []struct {
		name, url, key string
		want           []string
	}{
		{"wrong port", deadURL, "", []string{"preflight", "is the server running?"}},
		{"401", keyed.BaseURL(), "sk-wrong-key", []string{"401", "check the API key in $OPENAI_API_KEY"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "run")
			// Failing fast is failing at the preflight, before any
			// question: the message and the empty results say so. How
			// soon is not timed (a busy machine decides that).
			_, stderr, code := (cli{env: []string{"OPENAI_API_KEY=" + tc.key}}).run(t, "eval", "--bench", "jsonl", "--data", data, "--model", "m",
				"--base-url", tc.url, "--mode", "closed-book", "--runs", "3", "--out", out, "--home", t.TempDir())
			if code == 0 {
				t.Fatal("exit 0")
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if strings.Contains(stderr, "sk-wrong-key") {
				t.Error("the key was printed")
			}
			if recs := readRecords(t, out); len(recs) != 0 {
				t.Errorf("%d records written", len(recs))
			}
		})
	}
	if n := keyed.Count(); n > 3 {
		t.Errorf("%d calls to the server with the wrong key", n)
	}
}

// A server that starts failing mid-run trips the breaker after 20 like
// failures: exit 1, the finished records kept, the cause named.
func TestEvalBreaker(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.Config{Answer: answerByNumber})
	srv.Update(func(c *modeltest.Config) {
		c.Inject = func(r modeltest.Request) *modeltest.Fault {
			if r.N > 11 { // the preflight and ten questions get through
				return &modeltest.Fault{Kind: modeltest.Status, Status: 403, Body: `{"error":{"message":"key revoked"}}`}
			}
			return nil
		}
	})
	data := writeQuestions(t, 200)
	out := filepath.Join(t.TempDir(), "run")
	_, stderr, code := paperlens(t, "eval", "--bench", "jsonl", "--data", data, "--model", "m", "--base-url", srv.BaseURL(),
		"--mode", "closed-book", "--runs", "1", "--concurrency", "1", "--out", out, "--home", t.TempDir())
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "the last 20 model calls all failed the same way") || !strings.Contains(stderr, "key revoked") {
		t.Errorf("stderr:\n%s", stderr)
	}
	recs := readRecords(t, out)
	good := 0
	for _, r := range recs {
		if r.Error == "" {
			good++
		}
	}
	if good != 10 || len(recs) != 30 || srv.Count() != 31 {
		t.Errorf("%d good of %d records, %d calls; want 10 of 30, 31 calls", good, len(recs), srv.Count())
	}
}

// Exit status 1 when some records failed (and the summary says why), 0 when
// none did.
func TestEvalExitStatus(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.Config{Answer: answerByNumber, Inject: func(r modeltest.Request) *modeltest.Fault {
		if strings.Contains(r.Prompt(), "Question number 3:") {
			return &modeltest.Fault{Kind: modeltest.Status, Status: 400, Body: `{"error":{"message":"This prompt was flagged"}}`}
		}
		return nil
	}})
	data := writeQuestions(t, 8)
	args := []string{"eval", "--bench", "jsonl", "--data", data, "--model", "m", "--base-url", srv.BaseURL(),
		"--mode", "closed-book", "--runs", "1", "--out", filepath.Join(t.TempDir(), "run"), "--home", t.TempDir()}
	_, stderr, code := paperlens(t, args...)
	if code != 1 || !strings.Contains(stderr, "1 record(s) ended in an error") || !strings.Contains(stderr, "flagged") {
		t.Errorf("exit %d:\n%s", code, stderr)
	}
	srv.Update(func(c *modeltest.Config) { c.Inject = nil })
	if _, stderr, code := paperlens(t, args...); code != 0 {
		t.Errorf("rerun with the failure gone: exit %d\n%s", code, stderr)
	}
}

// --dry-run sends nothing and counts exactly what the run then sends;
// --limit keeps the first questions.
func TestEvalDryRunAndLimit(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.Config{Answer: answerByNumber})
	sample := filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")
	home, out := t.TempDir(), filepath.Join(t.TempDir(), "run")
	args := []string{"eval", "--bench", "elaipbench", "--data", sample, "--model", "m", "--base-url", srv.BaseURL(),
		"--mode", "full,bm25,closed-book", "--runs", "2", "--limit", "9", "--out", out, "--home", home, "--price", "in=2,out=8"}
	stdout, stderr, code := paperlens(t, append(args, "--dry-run", "--json")...)
	if code != 0 {
		t.Fatalf("dry run: exit %d\n%s", code, stderr)
	}
	if srv.Count() != 0 {
		t.Fatalf("the dry run sent %d calls", srv.Count())
	}
	var plan run.Plan
	if err := json.Unmarshal([]byte(stdout), &plan); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if _, err := os.Stat(filepath.Join(out, run.ResultsFile)); err == nil {
		t.Error("the dry run wrote results")
	}
	if _, stderr, code := paperlens(t, args...); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	reqs := questionRequests(srv)
	sent := 0
	for _, r := range reqs {
		for _, m := range r.Messages {
			sent += countTokens(m.Content)
		}
	}
	recs := readRecords(t, out)
	qs := map[string]bool{}
	prompt := 0
	for _, r := range recs {
		qs[r.QuestionID] = true
		prompt += r.PromptTokens
	}
	if plan.Calls != len(reqs) || plan.Calls != 9*3*2 || len(qs) != 9 {
		t.Errorf("plan %d calls, sent %d, %d questions", plan.Calls, len(reqs), len(qs))
	}
	if plan.PromptTokens != prompt {
		t.Errorf("plan %d prompt tokens, the run's records %d", plan.PromptTokens, prompt)
	}
	if plan.CostUSD == nil || *plan.PromptCostUSD != float64(prompt)*2/1e6 {
		t.Errorf("plan cost %v / %v", plan.CostUSD, plan.PromptCostUSD)
	}
	t.Logf("plan: %d calls, %d prompt tokens (records), %d bytes/4 of what was sent", plan.Calls, plan.PromptTokens, sent)
	// A finished run plans nothing.
	stdout, _, _ = paperlens(t, append(args, "--dry-run", "--json")...)
	json.Unmarshal([]byte(stdout), &plan)
	if plan.Calls != 0 || plan.Resumed != 54 {
		t.Errorf("after the run: %+v", plan)
	}
}

// Progress goes to a pipe as plain lines with done/total.
func TestEvalProgressLines(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.Config{Answer: answerByNumber, Latency: 20 * time.Millisecond})
	data := writeQuestions(t, 30)
	_, stderr, code := paperlens(t, "eval", "--bench", "jsonl", "--data", data, "--model", "m", "--base-url", srv.BaseURL(),
		"--mode", "closed-book", "--runs", "2", "--concurrency", "2", "--progress-every", "100ms",
		"--out", filepath.Join(t.TempDir(), "run"), "--home", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var lines []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "eval: ") {
			lines = append(lines, l)
		}
	}
	if len(lines) < 4 {
		t.Fatalf("%d progress lines:\n%s", len(lines), stderr)
	}
	for _, want := range []string{"closed-book run 1: 30/30", "closed-book run 2: 30/30", "60/60 done"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("no line with %q:\n%s", want, strings.Join(lines, "\n"))
		}
	}
}

// Two evaluations on one run folder: the second is refused while the first
// holds it. The server holds the first eval's first question until the
// second has been refused, so the first is mid-run throughout, however
// slow the machine.
func TestEvalFolderLock(t *testing.T) {
	t.Parallel()
	arrived, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	srv := modeltest.NewServer(t, modeltest.Config{Answer: func(r modeltest.Request) (string, string) {
		if r.N == 2 { // the first call is the preflight
			once.Do(func() { close(arrived) })
			<-release
		}
		return answerByNumber(r)
	}})
	// Cleanups run last-in first-out: the held answer is let go before the
	// server's Close waits for it.
	releaseOnce := sync.OnceFunc(func() { close(release) })
	t.Cleanup(releaseOnce)
	data := writeQuestions(t, 20)
	out, home := filepath.Join(t.TempDir(), "run"), t.TempDir()
	args := []string{"eval", "--bench", "jsonl", "--data", data, "--model", "m", "--base-url", srv.BaseURL(),
		"--mode", "closed-book", "--runs", "1", "--concurrency", "1", "--out", out, "--home", home}
	first := paperlensProcess(args...)
	var firstErr strings.Builder
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
	_, stderr, code := paperlens(t, args...)
	if code == 0 || !strings.Contains(stderr, "in use by another paperlens eval") {
		t.Errorf("second eval on one folder: exit %d\n%s", code, stderr)
	}
	releaseOnce()
	err := <-exited
	exited <- err
	if err != nil {
		t.Errorf("first eval: %v\n%s", err, firstErr.String())
	}
	if n := len(readRecords(t, out)); n != 20 {
		t.Errorf("%d records", n)
	}
}

// A results file ending in half a record (a disk that filled up) is
// repaired before appending: the cut record is redone, none is lost.
func TestEvalRepairsPartialLine(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.Config{Answer: answerByNumber})
	data := writeQuestions(t, 10)
	out := filepath.Join(t.TempDir(), "run")
	args := []string{"eval", "--bench", "jsonl", "--data", data, "--model", "m", "--base-url", srv.BaseURL(),
		"--mode", "closed-book", "--runs", "1", "--out", out, "--home", t.TempDir()}
	if _, stderr, code := paperlens(t, args...); code != 0 {
		t.Fatal(stderr)
	}
	path := filepath.Join(out, run.ResultsFile)
	b, _ := os.ReadFile(path)
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	last := lines[len(lines)-1]
	cut := strings.Join(lines[:len(lines)-1], "") + last[:len(last)/2]
	if err := os.WriteFile(path, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := paperlens(t, args...); code != 0 {
		t.Fatal(stderr)
	}
	recs := readRecords(t, out)
	b, _ = os.ReadFile(path)
	if len(recs) != 10 || strings.Count(string(b), "\n") != 10 {
		t.Errorf("%d records, %d lines after repair:\n%s", len(recs), strings.Count(string(b), "\n"), b)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if !json.Valid([]byte(l)) {
			t.Errorf("invalid line %q", l)
		}
	}
}

func countTokens(s string) int { return len(s) / 4 } // a rough size for the log line only
