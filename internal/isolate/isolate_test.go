package isolate

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The test binary is also the worker: started by a Pool, it serves
// requests that name what to do.
func TestMain(m *testing.M) {
	if IsWorker() {
		if err := Serve(testHandler); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

var sink [][]byte

func testHandler(req []byte) []byte {
	if bytes.HasPrefix(req, []byte("echo-size ")) {
		return []byte(strconv.Itoa(len(req)))
	}
	switch string(req) {
	case "alloc": // without bound, touching every page
		for {
			b := make([]byte, 32<<20)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
			sink = append(sink, b)
		}
	case "huge": // one allocation far over the cap, as a bad /Columns asks
		n, _ := strconv.Atoi(os.Getenv("HUGE"))
		b := make([]byte, 100<<30+n)
		return b[:1]
	case "mapwrite": // a Go fatal error recover() cannot catch
		m := map[int]int{}
		for i := 0; i < 4; i++ {
			go func() {
				for j := 0; ; j++ {
					m[j] = j
				}
			}()
		}
		for j := 0; ; j++ {
			m[-j] = j
		}
	case "recurse":
		var f func(int) int
		f = func(n int) int { return f(n+1) + 1 }
		return []byte(strconv.Itoa(f(0)))
	case "sleep":
		time.Sleep(time.Hour)
	case "exit":
		os.Exit(3)
	}
	return []byte(strconv.Itoa(os.Getpid()) + " " + string(req))
}

func testPool(t *testing.T, size int) *Pool {
	t.Helper()
	p, err := New(Config{Command: []string{os.Args[0]}, Size: size, Memory: 256 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func call(t *testing.T, p *Pool, req string, timeout time.Duration) (pid string, err error) {
	t.Helper()
	b, err := p.Call(context.Background(), timeout, []byte(req))
	if err != nil {
		return "", err
	}
	pid, echo, _ := strings.Cut(string(b), " ")
	if echo != req {
		t.Fatalf("reply %q to %q", b, req)
	}
	return pid, nil
}

// Warm workers are reused across calls; one that dies is replaced and the
// pool goes on.
func TestPoolReusesAndReplaces(t *testing.T) {
	p := testPool(t, 1)
	pids := map[string]bool{}
	for i := range 5 {
		pid, err := call(t, p, "doc"+strconv.Itoa(i), 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		pids[pid] = true
	}
	if len(pids) != 1 {
		t.Fatalf("5 calls on a pool of 1 ran in %d processes, want 1", len(pids))
	}
	_, err := call(t, p, "exit", 10*time.Second)
	var f *Failure
	if !errors.As(err, &f) || f.Reason != Crash {
		t.Fatalf("exit: %v, want a crash", err)
	}
	pid, err := call(t, p, "after", 10*time.Second)
	if err != nil || pids[pid] {
		t.Fatalf("after a crash: pid %s (%v), want a new worker", pid, err)
	}
}

// Each way a worker can die is told apart, in plain words, without the Go
// runtime's text.
func TestPoolFailures(t *testing.T) {
	p := testPool(t, 2)
	cases := []struct {
		req    string
		reason Reason
		words  string
	}{
		{"alloc", OutOfMemory, "needs more than 256 MiB"},
		{"huge", OutOfMemory, "needs more than 256 MiB"},
		{"mapwrite", Crash, "crashed"},
		{"recurse", StackOverflow, "nested too deeply"},
		{"sleep", Timeout, "timed out after 1s"},
	}
	for _, c := range cases {
		t.Run(c.req, func(t *testing.T) {
			t.Parallel()
			// A minute leaves the caps, not the clock, to end every case
			// but "sleep", which only the clock can end; which one ended it
			// is the Reason checked below, so no elapsed time is.
			timeout := time.Minute
			if c.reason == Timeout {
				timeout = time.Second
			}
			_, err := call(t, p, c.req, timeout)
			t.Logf("%s: %v", c.req, err)
			var f *Failure
			if !errors.As(err, &f) || f.Reason != c.reason || !strings.Contains(err.Error(), c.words) {
				t.Fatalf("%s: %v (%+v), want reason %d saying %q", c.req, err, f, c.reason, c.words)
			}
			if strings.Contains(err.Error(), "goroutine") || strings.Contains(err.Error(), "fatal error") {
				t.Errorf("%s: the runtime's text reached the message: %v", c.req, err)
			}
			if c.reason == Timeout && !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("a time-out does not match context.DeadlineExceeded: %v", err)
			}
		})
	}
}

func TestNewReportsMissingWorker(t *testing.T) {
	_, err := New(Config{Command: []string{"/nonexistent/paperlens"}})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/paperlens") || !strings.Contains(err.Error(), "--isolate=false") {
		t.Fatalf("missing worker: %v, want the path and the way out", err)
	}
	// A program that is not a worker is found out at its first call.
	p, err := New(Config{Command: []string{"/bin/sh", "-c", "echo not a worker"}})
	if err != nil {
		t.Skip(err)
	}
	defer p.Close()
	_, err = p.Call(context.Background(), 10*time.Second, []byte("x"))
	var f *Failure
	if !errors.As(err, &f) || f.Reason != NotWorker {
		t.Fatalf("not a worker: %v", err)
	}
}

func TestBytes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		out  string
	}{{"1GiB", 1 << 30, "1 GiB"}, {"512MiB", 512 << 20, "512 MiB"}, {"200MB", 200e6, "200 MB"}, {"1.5 GiB", 3 << 29, "1536 MiB"}, {"4096", 4096, "4 KiB"}} {
		n, err := ParseBytes(c.in)
		if err != nil || n != c.want || FormatBytes(n) != c.out {
			t.Errorf("%q: %d %v %q, want %d %q", c.in, n, err, FormatBytes(n), c.want, c.out)
		}
	}
	for _, bad := range []string{"", "-1", "1XB", "GiB"} {
		if _, err := ParseBytes(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// BenchmarkCall3MB is the round trip of a 3 MB request (a typical paper
// PDF) and a small reply, the transport's cost per document.
func BenchmarkCall3MB(b *testing.B) {
	p, err := New(Config{Command: []string{os.Args[0]}, Size: 1, Memory: 256 << 20})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	req := make([]byte, 3<<20)
	copy(req, "echo-size ")
	b.SetBytes(int64(len(req)))
	for b.Loop() {
		if _, err := p.Call(context.Background(), time.Minute, req); err != nil {
			b.Fatal(err)
		}
	}
}
