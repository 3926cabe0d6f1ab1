package scale

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Usage is the kernel's account of one child process.
type Usage struct {
	WallMs    float64 `json:"wall_ms"`     // from start to exit, as this process saw it
	CPUMs     float64 `json:"cpu_ms"`      // user + system
	MaxRSSKiB int64   `json:"max_rss_kib"` // peak resident memory of the child itself
	// PeakAnonKiB is the child's peak anonymous memory (RssAnon, sampled
	// every 5 ms): its own heap and stacks, without the pages of files it
	// maps. Those (the corpus's bbolt file, the mapped indexes) count in
	// MaxRSSKiB but are the kernel's page cache, shared and reclaimed
	// under pressure, so a 6 GB corpus read once shows as 6 GB of RSS.
	PeakAnonKiB int64 `json:"peak_anon_kib"`
}

// runner starts child processes and accounts for them.
//
// A child started by a Go program inherits the parent's peak resident
// memory: Go starts it with vfork, and Linux keeps the larger of the old
// and new address space's peak at exec, so a child's ru_maxrss would read
// as this measurement's own size whenever that is the larger. GNU time
// (/usr/bin/time) is a small C program whose child starts from a fresh
// fork, so its %M is the child's own; without it the child's VmHWM in
// /proc is sampled while it runs (a peak reached in its last few
// milliseconds may be missed).
type runner struct {
	timeBin string // GNU time, "" when not installed
	tmp     string // for GNU time's output
}

func newRunner(tmp string) runner {
	r := runner{tmp: tmp}
	if p, err := exec.LookPath("/usr/bin/time"); err == nil {
		r.timeBin = p
	}
	return r
}

// memorySource says how peak memory is measured, for the report.
func (r runner) memorySource() string {
	if r.timeBin != "" {
		return "peak RSS of the child as GNU time reports it (" + r.timeBin + "); own: its peak anonymous memory (RssAnon, sampled every 5 ms), without the pages of files it maps, which are page cache"
	}
	return "peak RSS of the child, its VmHWM sampled every 5 ms (GNU time /usr/bin/time not installed); own: its peak anonymous memory (RssAnon), without the pages of files it maps, which are page cache"
}

// run runs args with stdout to out (nil: discarded) and returns its
// usage. A failure carries the end of the child's standard error.
func (r runner) run(ctx context.Context, out io.Writer, env []string, args ...string) (Usage, error) {
	argv := args
	rssFile := ""
	if r.timeBin != "" {
		f, err := os.CreateTemp(r.tmp, "rss-")
		if err != nil {
			return Usage{}, fmt.Errorf("run %s: %w", args[0], err)
		}
		f.Close()
		rssFile = f.Name()
		defer os.Remove(rssFile)
		argv = append([]string{r.timeBin, "-f", "%M", "-o", rssFile}, args...)
	}
	c := exec.CommandContext(ctx, argv[0], argv[1:]...)
	c.Stdout = out
	if env != nil {
		c.Env = append(os.Environ(), env...)
	}
	var stderr tail
	c.Stderr = &stderr
	start := time.Now()
	if err := c.Start(); err != nil {
		return Usage{}, fmt.Errorf("start %s: %w", strings.Join(args, " "), err)
	}
	var polled, anon int64
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		// Under GNU time the measured program is time's child.
		polled, anon = pollHWM(c.Process.Pid, rssFile != "", done)
	}()
	err := c.Wait()
	wall := time.Since(start)
	close(done)
	wg.Wait()
	if err != nil {
		return Usage{}, fmt.Errorf("%s: %w%s", strings.Join(args, " "), err, stderr.String())
	}
	u := Usage{WallMs: ms(wall), CPUMs: ms(c.ProcessState.UserTime() + c.ProcessState.SystemTime()), PeakAnonKiB: anon}
	if rssFile != "" {
		kib, err := readTimeRSS(rssFile)
		if err != nil {
			return Usage{}, fmt.Errorf("%s: %w", strings.Join(args, " "), err)
		}
		u.MaxRSSKiB = kib
		return u, nil
	}
	u.MaxRSSKiB = polled
	// ru_maxrss is exact when it exceeds our own peak (see runner).
	if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > selfMaxRSS() {
		u.MaxRSSKiB = ru.Maxrss
	}
	return u, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// pollHWM samples /proc/PID/status until done closes, returning the
// highest VmHWM and RssAnon read, in KiB; with grandchild, those of pid's
// child (the program GNU time runs) instead.
func pollHWM(pid int, grandchild bool, done <-chan struct{}) (hwm, anon int64) {
	path := filepath.Join("/proc", strconv.Itoa(pid), "status")
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		if grandchild {
			if b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "task", strconv.Itoa(pid), "children")); err == nil {
				if f := strings.Fields(string(b)); len(f) > 0 {
					path = filepath.Join("/proc", f[0], "status")
				}
			}
		}
		if b, err := os.ReadFile(path); err == nil {
			hwm = max(hwm, statusKiB(b, "VmHWM:"))
			anon = max(anon, statusKiB(b, "RssAnon:"))
		}
		select {
		case <-done:
			return hwm, anon
		case <-t.C:
		}
	}
}

// statusKiB reads a "Key:   123 kB" line of /proc/PID/status.
func statusKiB(b []byte, key string) int64 {
	i := bytes.Index(b, []byte(key))
	if i < 0 {
		return 0
	}
	line := b[i+len(key):]
	if j := bytes.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	f := strings.Fields(string(line))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseInt(f[0], 10, 64)
	return v
}

// selfMaxRSS is this process's own peak resident memory in KiB.
func selfMaxRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Maxrss
}

// readTimeRSS reads GNU time's -f %M output: the last field is the peak
// in KiB (a line before it says so when the child failed).
func readTimeRSS(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("read peak memory: %w", err)
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, fmt.Errorf("GNU time printed no peak memory")
	}
	v, err := strconv.ParseInt(f[len(f)-1], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("GNU time's peak memory %q: %w", f[len(f)-1], err)
	}
	return v, nil
}

// tail keeps the last few KiB written to it: a failed child's message.
type tail struct{ b []byte }

const tailMax = 4 << 10

func (t *tail) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 2*tailMax {
		t.b = append(t.b[:0], t.b[len(t.b)-tailMax:]...)
	}
	return len(p), nil
}

// String is the kept text as a suffix for an error: "" when empty.
func (t *tail) String() string {
	s := strings.TrimSpace(string(t.b))
	if len(s) > tailMax {
		s = "…" + s[len(s)-tailMax:]
	}
	if s == "" {
		return ""
	}
	return ": " + s
}
