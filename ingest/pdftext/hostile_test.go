package pdftext

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paperlens/paperlens/internal/pdftest"
)

// A hostile PDF that gets past the guards dies with a Go fatal error (out of
// memory, stack overflow) that no recover can catch, and would take the test
// binary down with it. So each case is parsed in a child process - this test
// binary re-run on TestHostileChild - under an address-space cap and a
// deadline, and the parent reads its verdict.
const (
	childEnv      = "PDFTEXT_HOSTILE_CASE"
	childMemoryKB = 2 << 20 // 2 GiB, as the batch test in ingest uses
)

// TestHostileChild is the child's side: it extracts one case and prints a
// verdict line. It does nothing in a normal run.
func TestHostileChild(t *testing.T) {
	name := os.Getenv(childEnv)
	if name == "" {
		t.Skip("runs only as the child of TestHostile")
	}
	var data []byte
	if c, ok := pdftest.ByName(name); ok {
		data = c.Data
	}
	if name == "good" {
		data = pdftest.Good("A good page")
	}
	if data == nil {
		t.Fatalf("no case %q", name)
	}
	doc, err := Extract(context.Background(), bytes.NewReader(data), int64(len(data)))
	if err != nil {
		fmt.Printf("VERDICT error %s\n", err)
		return
	}
	fmt.Printf("VERDICT ok %d pages, %d bytes of text\n", doc.Pages, len(doc.Text))
}

// childVerdict is what happened to one case in a child process.
type childVerdict struct {
	kind   string // "error", "ok", "fatal", "oom", "timeout", "crash"
	detail string
	took   time.Duration
}

func runChild(t *testing.T, name string, timeout time.Duration) childVerdict {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", fmt.Sprintf(`ulimit -v %d && exec "$0" "$@"`, childMemoryKB),
		os.Args[0], "-test.run=^TestHostileChild$", "-test.v=false")
	cmd.Env = append(os.Environ(), childEnv+"="+name, "GOTRACEBACK=single")
	cmd.WaitDelay = time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	v := childVerdict{took: time.Since(start)}
	stderr := errb.String()
	for _, line := range strings.Split(out.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, "VERDICT "); ok {
			v.kind, v.detail, _ = strings.Cut(rest, " ")
			return v
		}
	}
	switch {
	case ctx.Err() != nil:
		v.kind = "timeout"
	case strings.Contains(stderr, "out of memory") || strings.Contains(stderr, "cannot allocate memory"):
		v.kind = "oom"
	case strings.Contains(stderr, "fatal error:"):
		v.kind = "fatal"
	default:
		v.kind = "crash"
	}
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "fatal error:") || strings.HasPrefix(line, "runtime:") || strings.HasPrefix(line, "panic:") {
			v.detail = line
			break
		}
	}
	if v.detail == "" && err != nil {
		v.detail = err.Error()
	}
	return v
}

// TestHostile parses every pdftest case in its own limited child process:
// each must come back as an error naming the damage, within the deadline
// and the memory cap.
func TestHostile(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		t.Skip("child")
	}
	if testing.Short() {
		t.Skip("spawns child processes")
	}
	timeout := 8 * time.Second
	if s := os.Getenv("PDFTEXT_HOSTILE_TIMEOUT"); s != "" {
		timeout, _ = time.ParseDuration(s)
	}
	cases := append(pdftest.Hostile(), pdftest.Case{Name: "good"})
	verdicts := make([]childVerdict, len(cases))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, c := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			verdicts[i] = runChild(t, c.Name, timeout)
		}()
	}
	wg.Wait()
	for i, c := range cases {
		v := verdicts[i]
		t.Logf("%-26s %-7s %6.2fs %s", c.Name, v.kind, v.took.Seconds(), v.detail)
		want := "error"
		if c.Name == "good" {
			want = "ok"
		}
		if v.kind != want {
			t.Errorf("%s: %s (%s), want %s", c.Name, v.kind, v.detail, want)
		}
	}
}
