package cgroup

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestParseMountinfo(t *testing.T) {
	cases := []struct {
		name string
		line string
		want []mount
	}{
		{"v1 memory", "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory",
			[]mount{{root: "/", point: "/sys/fs/cgroup/memory", fstype: "cgroup", opts: []string{"rw", "memory"}}}},
		{"optional fields", "30 23 0:26 / /sys/fs/cgroup rw,nosuid shared:4 master:1 - cgroup2 cgroup2 rw,nsdelegate",
			[]mount{{root: "/", point: "/sys/fs/cgroup", fstype: "cgroup2", opts: []string{"rw", "nsdelegate"}}}},
		{"escaped space, deeper root", `40 31 0:37 /a\040b /mnt/c\040g rw - cgroup2 cgroup2 rw`,
			[]mount{{root: "/a b", point: "/mnt/c g", fstype: "cgroup2", opts: []string{"rw"}}}},
		{"no separator", "garbage line", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := parseMountinfo(c.line + "\n"); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestParseProcCgroup(t *testing.T) {
	pc := parseProcCgroup("9:name=systemd:/\n8:pids:/p\n4:memory:/process_api/x\n2:cpu,cpuacct:/c\n0::/u/v\n")
	if !pc.hasV2 || pc.v2 != "/u/v" {
		t.Errorf("v2 %q %v, want /u/v", pc.v2, pc.hasV2)
	}
	want := map[string]string{"name=systemd": "/", "pids": "/p", "memory": "/process_api/x", "cpu": "/c", "cpuacct": "/c"}
	if !reflect.DeepEqual(pc.v1, want) {
		t.Errorf("v1 %v, want %v", pc.v1, want)
	}
	if pc := parseProcCgroup("4:memory:/m\n"); pc.hasV2 {
		t.Error("a v1-only machine read as having a v2 path")
	}
}

// candidates looks at cgroup.subtree_control, so a fake hierarchy in a
// temporary folder stands for /sys/fs/cgroup.
func TestCandidates(t *testing.T) {
	cases := []struct {
		name    string
		subtree map[string]string // folder under the v2 mount -> cgroup.subtree_control
		v1      bool              // mount v1 memory and pids too
		want    []string          // each candidate as "v2 <dir>", "v1 <dir> <dir>" or "why"
	}{
		{name: "own group delegates", subtree: map[string]string{"a/b": "cpu memory pids", "a": "memory pids"}, want: []string{"v2 a/b", "v2 a"}},
		{name: "parent delegates", subtree: map[string]string{"a/b": "", "a": "memory pids io"}, want: []string{"why", "v2 a"}},
		{name: "no memory", subtree: map[string]string{"a/b": "pids", "a": "pids"}, v1: true, want: []string{"why", "why", "v1 mem/m pids/p"}},
		{name: "v1 only", v1: true, want: []string{"v1 mem/m pids/p"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			var ms []mount
			pc := procCgroup{v1: map[string]string{}}
			if c.subtree != nil {
				ms = append(ms, mount{root: "/", point: filepath.Join(root, "unified"), fstype: "cgroup2"})
				pc.v2, pc.hasV2 = "/a/b", true
				for d, ctl := range c.subtree {
					mustWrite(t, filepath.Join(root, "unified", d, "cgroup.subtree_control"), ctl+"\n")
				}
			}
			if c.v1 {
				ms = append(ms,
					mount{root: "/", point: filepath.Join(root, "mem"), fstype: "cgroup", opts: []string{"rw", "memory"}},
					mount{root: "/", point: filepath.Join(root, "pids"), fstype: "cgroup", opts: []string{"rw", "pids"}},
				)
				pc.v1["memory"], pc.v1["pids"] = "/m", "/p"
				for _, d := range []string{"mem/m", "pids/p"} {
					if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
						t.Fatal(err)
					}
				}
			}
			var got []string
			for _, cand := range candidates(ms, pc) {
				switch cand.place.Version {
				case None:
					got = append(got, "why")
				case V2:
					got = append(got, "v2 "+rel(t, root, cand.place.Parents[0], "unified"))
				case V1:
					got = append(got, "v1 "+rel(t, root, cand.place.Parents[0], "")+" "+rel(t, root, cand.place.Parents[1], ""))
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("candidates %q, want %q", got, c.want)
			}
		})
	}
}

func rel(t *testing.T, root, dir, under string) string {
	t.Helper()
	r, err := filepath.Rel(filepath.Join(root, under), dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func mustWrite(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Counters reads the kernel's formats; fake files stand for them.
func TestCountersFormats(t *testing.T) {
	cases := []struct {
		name    string
		version Version
		files   map[string]string // under dir 0 ("m/") or dir 1 ("p/")
		want    Counters
	}{
		{name: "v1", version: V1, files: map[string]string{
			"m/memory.oom_control":        "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n",
			"m/memory.failcnt":            "17\n",
			"m/memory.memsw.failcnt":      "4\n",
			"m/memory.max_usage_in_bytes": "268435456\n",
			"m/memory.usage_in_bytes":     "1000\n",
			"p/pids.events":               "max 1937\n",
			"p/pids.current":              "4\n",
		}, want: Counters{OOMKills: 3, MemoryMax: 21, ForksRefused: 1937, Peak: 256 << 20, Memory: 1000, Processes: 4}},
		{name: "v1 before oom_kill was counted", version: V1, files: map[string]string{
			"m/memory.oom_control": "oom_kill_disable 0\nunder_oom 0\n",
			"m/memory.failcnt":     "2\n",
			"p/pids.events":        "max 0\n",
		}, want: Counters{OOMKills: -1, MemoryMax: 2, ForksRefused: 0, Peak: -1, Memory: -1, Processes: -1}},
		{name: "v2", version: V2, files: map[string]string{
			"m/memory.events":  "low 0\nhigh 0\nmax 9\noom 2\noom_kill 2\noom_group_kill 0\n",
			"m/memory.peak":    "300\n",
			"m/memory.current": "200\n",
			"m/pids.events":    "max 5\n",
			"m/pids.current":   "3\n",
		}, want: Counters{OOMKills: 2, MemoryMax: 9, ForksRefused: 5, Peak: 300, Memory: 200, Processes: 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			for name, text := range c.files {
				mustWrite(t, filepath.Join(root, name), text)
			}
			g := &Group{version: c.version, dirs: []string{filepath.Join(root, "m"), filepath.Join(root, "p")}}
			if c.version == V2 {
				g.dirs = g.dirs[:1]
			}
			got, err := g.Counters()
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("counters %+v, want %+v", got, c.want)
			}
		})
	}
}

// The v1 wrapper writes its own pid into both cgroup.procs before the
// program runs, and runs nothing when it cannot. Plain files stand for
// the cgroup.procs files.
func TestWrapperJoinsFirst(t *testing.T) {
	if _, err := os.Stat(Shell); err != nil {
		t.Skipf("no %s: %v", Shell, err)
	}
	cases := []struct {
		name    string
		missing bool // the pids folder is missing: joining fails
	}{
		{name: "joins then runs"},
		{name: "fails to join, runs nothing", missing: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			g := &Group{version: V1, dirs: []string{filepath.Join(root, "m"), filepath.Join(root, "p")}}
			mustWrite(t, filepath.Join(root, "m", "cgroup.procs"), "")
			if !c.missing {
				mustWrite(t, filepath.Join(root, "p", "cgroup.procs"), "")
			}
			marker := filepath.Join(root, "ran")
			cmd := exec.Command("/bin/sh", "-c", `echo "$0 $1" > "$2"; echo out`, "a b", "c", marker)
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			if err := g.Start(cmd); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			ran, rerr := os.ReadFile(marker)
			if c.missing {
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() != 125 {
					t.Errorf("wait: %v, want exit status 125", err)
				}
				if rerr == nil {
					t.Errorf("the program ran although joining failed: %q", ran)
				}
				if !strings.Contains(errOut.String(), "could not join the control group") {
					t.Errorf("stderr %q does not say why", errOut.String())
				}
				return
			}
			if err != nil {
				t.Fatalf("wait: %v; stderr %s", err, errOut.String())
			}
			if string(ran) != "a b c\n" || out.String() != "out\n" {
				t.Errorf("the program's arguments or output changed: ran %q, stdout %q", ran, out.String())
			}
			for _, d := range g.dirs {
				b, _ := os.ReadFile(filepath.Join(d, "cgroup.procs"))
				if strings.TrimSpace(string(b)) != strconv.Itoa(cmd.Process.Pid) {
					t.Errorf("%s/cgroup.procs holds %q, want the program's pid %d", d, b, cmd.Process.Pid)
				}
			}
		})
	}
}

// place is what Detect finds, or a skip that says why there is none.
func place(t *testing.T) Place {
	t.Helper()
	p := Detect()
	if p.Version == None {
		t.Skipf("no control group can be made here, so real groups cannot be tested: %s", p.Why)
	}
	return p
}

// until polls cond until it holds or the test's context ends (its
// deadline): never a time limit of its own, so a slow machine is not a
// failure.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for pause := time.Millisecond; !cond(); pause = min(2*pause, 100*time.Millisecond) {
		select {
		case <-t.Context().Done():
			t.Fatalf("the test ended before %s", what)
		case <-time.After(pause):
		}
	}
}

func running(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command's closing parenthesis; a zombie has
	// ended and only waits to be reaped.
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}

func TestRealGroupProcesses(t *testing.T) {
	p := place(t)
	const procs = 6
	g, err := p.New(Limits{Memory: 64 << 20, Processes: procs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	// The limits are set where the kernel reads them.
	limitFiles := map[Version][][2]string{
		V1: {{g.dirs[0] + "/memory.limit_in_bytes", strconv.Itoa(64 << 20)}, {g.dirs[1] + "/pids.max", strconv.Itoa(procs)}},
		V2: {{g.dirs[0] + "/memory.max", strconv.Itoa(64 << 20)}, {g.dirs[0] + "/pids.max", strconv.Itoa(procs)}},
	}
	for _, f := range limitFiles[g.Version()] {
		if b, err := os.ReadFile(f[0]); err != nil || strings.TrimSpace(string(b)) != f[1] {
			t.Errorf("%s holds %q (%v), want %s", f[0], b, err, f[1])
		}
	}
	// A shell that starts 20 sleeps in the background and exits: the
	// sleeps it could start are left behind, outside its process group
	// and orphaned, which Close must still reach.
	cmd := exec.Command(Shell, "-c", `i=0; while [ $i -lt 20 ]; do setsid sleep 1000 2>/dev/null & i=$((i+1)); done; exit 0`)
	if err := g.Start(cmd); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	c, err := g.Counters()
	if err != nil {
		t.Fatal(err)
	}
	if c.ForksRefused <= 0 {
		t.Errorf("%d forks refused, want some of 20 refused at %d processes", c.ForksRefused, procs)
	}
	var left []int
	until(t, "the started sleeps are visible", func() bool {
		left, err = g.Procs()
		return err == nil && len(left) > 0 && c.Processes <= procs
	})
	if len(left) > procs {
		t.Errorf("%d processes in the group, more than its limit %d", len(left), procs)
	}
	t.Logf("%d forks refused, %d sleeps left running before Close", c.ForksRefused, len(left))
	dirs := g.Dirs()
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range left {
		if running(pid) {
			t.Errorf("process %d of the group still runs after Close", pid)
		}
	}
	for _, d := range dirs {
		if _, err := os.Stat(d); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("group folder %s is still there after Close: %v", d, err)
		}
	}
}

func TestRealGroupMemory(t *testing.T) {
	p := place(t)
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to allocate memory with")
	}
	const limit = 64 << 20
	g, err := p.New(Limits{Memory: limit, Processes: 16})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	// Three times the limit, every page written.
	cmd := exec.Command(py, "-c", fmt.Sprintf("b = bytearray(b'x') * %d", 3*limit))
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	if err := g.Start(cmd); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Errorf("the allocation ended with %v (stderr %q), want SIGKILL from the kernel at the limit", err, errOut.String())
	}
	c, err := g.Counters()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("peak %d bytes of a %d-byte limit; %d OOM kills; limit reached %d times", c.Peak, limit, c.OOMKills, c.MemoryMax)
	// Where the kernel counts OOM kills, one is counted; where not, the
	// times the limit was reached. (Some kernels leave v1 failcnt at 0.)
	if c.OOMKills < 1 && (c.OOMKills != -1 || c.MemoryMax < 1) {
		t.Errorf("%d OOM kills and %d times at the limit counted, want a kill counted", c.OOMKills, c.MemoryMax)
	}
	if c.Peak != -1 && (c.Peak > limit+limit/10 || c.Peak < limit/2) {
		t.Errorf("peak %d bytes, want between half the limit and the limit %d + 10%%", c.Peak, limit)
	}
}

// A group left by a process that is gone is removed by the next New.
func TestSweep(t *testing.T) {
	p := place(t)
	dead := exec.Command(Shell, "-c", "exit 0")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	var stale []string
	for _, parent := range p.Parents {
		d := filepath.Join(parent, fmt.Sprintf("%s-%d-1", Prefix, dead.Process.Pid))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Remove(d) })
		stale = append(stale, d)
	}
	g, err := p.New(Limits{Memory: 64 << 20, Processes: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	for _, d := range stale {
		if _, err := os.Stat(d); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("stale group %s of dead process %d was not removed: %v", d, dead.Process.Pid, err)
		}
	}
}

func TestNewRefusesBadLimits(t *testing.T) {
	for _, l := range []Limits{{Memory: 0, Processes: 4}, {Memory: 1 << 20, Processes: 0}} {
		if _, err := (Place{Version: V1, Parents: []string{"/nonexistent", "/nonexistent"}}).New(l); err == nil {
			t.Errorf("New(%+v) succeeded", l)
		}
	}
	if _, err := (Place{Why: "test"}).New(Limits{Memory: 1 << 20, Processes: 4}); err == nil || !strings.Contains(err.Error(), "test") {
		t.Errorf("New on no place: %v, want the reason", err)
	}
}
