package pdftext

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/paperlens/paperlens/internal/testkit/pdftest"
)

// A hostile PDF that gets past the guards dies with a Go fatal error (out of
// memory, stack overflow) that no recover can catch, and would take the test
// binary down with it. So each case is parsed in a child process - this test
// binary re-run on TestHostileChild - under an address-space cap and a CPU
// time cap, and the parent reads its verdict.
//
// The cap on a parse that never ends is CPU time (ulimit -t), not a
// deadline: a busy machine stretches a child's elapsed time, not the CPU
// time its parse needs (at most 0.2 s for every case). The deadline left is
// only a guard against a child that hangs without computing.
const (
	childEnv      = "PDFTEXT_HOSTILE_CASE"
	childMemoryKB = 2 << 20 // 2 GiB, as the batch test in ingest uses
	childCPU      = 8       // seconds of CPU time; PDFTEXT_HOSTILE_CPU overrides
	childHang     = 5 * time.Minute
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
	kind   string // "error", "ok", "fatal", "oom", "cpu", "hang", "crash"
	detail string
	cpu    time.Duration // the child's CPU time, user and system
}

func runChild(t *testing.T, name string, cpuSeconds int) childVerdict {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), childHang)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", fmt.Sprintf(`ulimit -v %d && ulimit -t %d && exec "$0" "$@"`, childMemoryKB, cpuSeconds),
		os.Args[0], "-test.run=^TestHostileChild$", "-test.v=false")
	cmd.Env = append(os.Environ(), childEnv+"="+name, "GOTRACEBACK=single")
	cmd.WaitDelay = time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var v childVerdict
	if ps := cmd.ProcessState; ps != nil {
		v.cpu = ps.UserTime() + ps.SystemTime()
	}
	stderr := errb.String()
	for _, line := range strings.Split(out.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, "VERDICT "); ok {
			v.kind, v.detail, _ = strings.Cut(rest, " ")
			return v
		}
	}
	// The kernel sends SIGXCPU at the CPU cap and SIGKILL at its hard
	// limit, the same number here; Go ignores SIGXCPU.
	var sig syscall.Signal
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		sig = ws.Signal()
	}
	switch {
	case ctx.Err() != nil:
		v.kind = "hang"
	case (sig == syscall.SIGKILL || sig == syscall.SIGXCPU) && v.cpu >= time.Duration(cpuSeconds)*time.Second*9/10:
		v.kind = "cpu"
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
// each must come back as an error naming the damage, within the CPU and
// memory caps.
func TestHostile(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		t.Skip("child")
	}
	if testing.Short() {
		t.Skip("spawns child processes")
	}
	cpu := childCPU
	if s := os.Getenv("PDFTEXT_HOSTILE_CPU"); s != "" {
		var err error
		if cpu, err = strconv.Atoi(s); err != nil || cpu < 1 {
			t.Fatalf("PDFTEXT_HOSTILE_CPU=%q: want whole seconds", s)
		}
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
			verdicts[i] = runChild(t, c.Name, cpu)
		}()
	}
	wg.Wait()
	for i, c := range cases {
		v := verdicts[i]
		t.Logf("%-26s %-7s %6.2fs of CPU %s", c.Name, v.kind, v.cpu.Seconds(), v.detail)
		want := "error"
		if c.Name == "good" {
			want = "ok"
		}
		if v.kind != want {
			t.Errorf("%s: %s (%s), want %s", c.Name, v.kind, v.detail, want)
		}
	}
}
