package main

import (
	"bufio"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// Issue 23: a loopback model server answers one question with 30 MB and
// stalls another half-way through its body. The run ends, every record is
// written: the 30 MB one cut at --max-reply-bytes, scored and marked
// reply_cut; the stalled one given up at --read-idle-timeout (the
// attempt timeout is an hour) and answered on its retry. No time is
// asserted: the run ending under the test timeout is the check.
func TestEvalCutsRunawayAndStalledReplies(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.Config{
		Answer: func(r modeltest.Request) (string, string) {
			content, reasoning := answerByNumber(r)
			if strings.Contains(r.Prompt(), "Question number 0:") {
				content += strings.Repeat(" The answer is still A.", 30<<20/23)
			}
			return content, reasoning
		},
		Inject: func(r modeltest.Request) *modeltest.Fault {
			if strings.Contains(r.Prompt(), "Question number 1:") && r.Attempt == 1 {
				return &modeltest.Fault{Kind: modeltest.StallBody, Stall: time.Hour}
			}
			return nil
		},
	})
	data := writeQuestions(t, 3)
	out := filepath.Join(t.TempDir(), "run")
	// 256 KiB rather than the default 4 MiB keeps the scoring of the cut
	// reply short; the cut is the same.
	_, stderr, code := paperlens(t, "eval", "--bench", "jsonl", "--data", data, "--model", "m", "--base-url", srv.BaseURL(),
		"--mode", "closed-book", "--runs", "1", "--out", out, "--home", t.TempDir(),
		"--max-reply-bytes", "262144", "--read-idle-timeout", "300ms", "--attempt-timeout", "1h")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	recs := map[string]run.Record{}
	for _, r := range readRecords(t, out) {
		recs[r.QuestionID] = r
	}
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3", len(recs))
	}
	cut, stalled, plain := recs["q000"], recs["q001"], recs["q002"]
	if !cut.ReplyCut || !cut.Correct || cut.Error != "" || len(cut.Output) > 262144 || !strings.HasPrefix(cut.Output, "Option A looks tempting") {
		t.Errorf("q000: reply_cut %v, correct %v, error %q, %d bytes", cut.ReplyCut, cut.Correct, cut.Error, len(cut.Output))
	}
	if stalled.ReplyCut || stalled.Error != "" || stalled.Attempts != 2 || !stalled.Correct {
		t.Errorf("q001: error %q, %d attempts, correct %v; want answered on the second attempt", stalled.Error, stalled.Attempts, stalled.Correct)
	}
	if plain.ReplyCut || plain.Error != "" {
		t.Errorf("q002: reply_cut %v, error %q", plain.ReplyCut, plain.Error)
	}
}

// While nothing has finished, the progress line gives the totals (not
// 0/0) and the call the run waits for. The server holds the first call
// (the preflight) until the test has seen that line, so the check waits
// on the event, not on a clock.
func TestEvalProgressShowsCallsInFlight(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	defer free()
	srv := modeltest.NewServer(t, modeltest.Config{Answer: answerByNumber,
		Inject: func(r modeltest.Request) *modeltest.Fault {
			if r.N == 1 {
				<-release
			}
			return nil
		}})
	data := writeQuestions(t, 4)
	stderr, w := io.Pipe()
	wait := cli{}.start(io.Discard, w, "eval", "--bench", "jsonl", "--data", data, "--model", "m", "--base-url", srv.BaseURL(),
		"--mode", "closed-book", "--runs", "2", "--progress-every", "50ms",
		// Should the line never come, the held call times out and the run
		// ends, so the test fails instead of hanging.
		"--attempt-timeout", "60s",
		"--out", filepath.Join(t.TempDir(), "run"), "--home", t.TempDir())
	exited := make(chan int, 1)
	go func() {
		exited <- wait()
		w.Close()
	}()
	var seen []string
	found := ""
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		l := sc.Text()
		seen = append(seen, l)
		if strings.HasPrefix(l, "eval: 0/8 done") && strings.Contains(l, "1 call in flight, ") {
			found = l
			free()
			break
		}
	}
	io.Copy(io.Discard, stderr)
	if code := <-exited; code != 0 {
		t.Errorf("eval: exit %d\n%s", code, strings.Join(seen, "\n"))
	}
	if found == "" {
		t.Fatalf("no line with 0/8 done and the call in flight:\n%s", strings.Join(seen, "\n"))
	}
	t.Logf("%s", found)
	if strings.Contains(strings.Join(seen, "\n"), "0/0 done") {
		t.Errorf("a line says 0/0:\n%s", strings.Join(seen, "\n"))
	}
}
