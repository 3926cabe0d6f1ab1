package python

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/internal/cgroup"
)

// cgroupTool is a sandboxed tool whose sessions have a control group,
// or a skip that says why this machine gives none.
func cgroupTool(t *testing.T, opts Options) *Tool {
	t.Helper()
	tool := newTool(t, opts)
	if tool.lim.place.Version == cgroup.None {
		t.Skipf("no control group can be made here (%s): sessions are held by rlimits only, which TestRlimitsFallback tests", tool.lim.place.Why)
	}
	return tool
}

func counters(t *testing.T, tool *Tool) cgroup.Counters {
	t.Helper()
	if tool.sess == nil || tool.sess.cg == nil {
		t.Fatal("no session with a control group")
	}
	c, err := tool.sess.cg.Counters()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// hogCell forks n children that each write size bytes of memory and hold
// them until every child has either done so or died, then prints each
// child's exit status (-9: killed by SIGKILL).
func hogCell(n, size int) string {
	return fmt.Sprintf(`import os
ready_r, ready_w = os.pipe()
go_r, go_w = os.pipe()
pids = []
for _ in range(%d):
    pid = os.fork()
    if pid == 0:
        try:
            os.close(ready_r); os.close(go_w)
            b = bytearray(b'\x01') * %d
            os.write(ready_w, b'r'); os.close(ready_w)
            os.read(go_r, 1)
        finally:
            os._exit(0)
    pids.append(pid)
os.close(ready_w); os.close(go_r)
held = 0
while True:
    got = os.read(ready_r, 64)
    if not got:
        break
    held += len(got)
os.close(go_w)
codes = [os.waitstatus_to_exitcode(os.waitpid(p, 0)[1]) for p in pids]
print('held', held, 'codes', codes)`, n, size)
}

// Children that each allocate most of the session's memory cannot hold
// more than the session's limit together: some are killed, the cell says
// so, and the session goes on.
func TestSessionMemory(t *testing.T) {
	t.Parallel() // each has its own sandbox; most of the time is waiting on it
	const limit = 256 << 20
	tool := cgroupTool(t, Options{Memory: limit})
	call(t, tool, "kept = 1")
	const n, size = 5, 192 << 20
	r := call(t, tool, hogCell(n, size))
	m := regexp.MustCompile(`held (\d+) codes \[([^\]]*)\]`).FindStringSubmatch(r.Text)
	if m == nil {
		t.Fatalf("the cell did not report its children:\n%s", r.Text)
	}
	killed := strings.Count(m[2], "-9")
	c := counters(t, tool)
	t.Logf("%d children × %d MiB in a %d MiB session: %s held, %d killed; peak %.1f MiB (%.0f%% of the limit), %d OOM kills",
		n, size>>20, limit>>20, m[1], killed, float64(c.Peak)/(1<<20), 100*float64(c.Peak)/limit, c.OOMKills)
	if killed == 0 {
		t.Errorf("no child was killed though %d × %d MiB is more than the %d MiB limit: %s", n, size>>20, limit>>20, m[0])
	}
	if c.Peak > limit+limit/10 {
		t.Errorf("the session's peak memory was %d bytes, more than the limit %d + 10%%", c.Peak, limit)
	}
	if c.Peak != -1 && c.Peak < size {
		t.Errorf("the session's peak memory was %d bytes, less than one child's %d: the children did not allocate", c.Peak, size)
	}
	if r.Status != "error" || !strings.Contains(r.Text, "[the session's memory limit of 256 MiB was reached:") || !strings.Contains(r.Text, "of this cell were killed]") && !strings.Contains(r.Text, "of this cell was killed]") {
		t.Errorf("status %q; the result does not say the memory limit was reached:\n%s", r.Status, r.Text)
	}
	checkCase(t, tool, cellCase{cells: []string{"kept + 1"}, status: "ok", want: []string{"value:\n2"}, notWant: []string{"new Python session", "limit"}})
}

// The driver itself going past the session's memory (not its own address
// space) loses the session, and the result names the memory limit.
func TestSessionMemoryKillsDriver(t *testing.T) {
	t.Parallel() // each has its own sandbox; most of the time is waiting on it
	const limit = 256 << 20
	tool := cgroupTool(t, Options{Memory: limit})
	// Files in /tmp count against the session's memory: 200 MiB of them
	// leave the driver too little for 100 MiB more.
	checkCase(t, tool, cellCase{cells: []string{"with open('/tmp/f', 'wb') as f:\n    for _ in range(200):\n        f.write(b'x' * (1 << 20))\nimport os; os.path.getsize('/tmp/f')"}, status: "ok", want: []string{"value:\n209715200"}})
	checkCase(t, tool, cellCase{
		cells:  []string{"b = bytearray(b'\\x01') * (100 << 20)"},
		status: "killed", want: []string{"memory limit of 256 MiB", "next call starts a new Python session"},
	})
	checkCase(t, tool, cellCase{cells: []string{"1 + 1"}, status: "ok", want: []string{"new Python session", "value:\n2"}})
}

// A fork bomb of 2,000 processes gets the session's process limit: forks
// past it are refused, the cell says so, and the session goes on.
func TestSessionForkBomb(t *testing.T) {
	t.Parallel() // each has its own sandbox; most of the time is waiting on it
	const limit = 32
	tool := cgroupTool(t, Options{Processes: limit})
	call(t, tool, "kept = 1")
	r := call(t, tool, `import os
r, w = os.pipe()
forked, refused = [], 0
for _ in range(2000):
    try:
        pid = os.fork()
    except OSError:
        refused += 1
        continue
    if pid == 0:
        try:
            os.close(w)
            os.read(r, 1)
        finally:
            os._exit(0)
    forked.append(pid)
os.close(w)
for pid in forked:
    os.waitpid(pid, 0)
print('forked', len(forked), 'refused', refused)`)
	var forked, refused int
	m := regexp.MustCompile(`forked (\d+) refused (\d+)`).FindStringSubmatch(r.Text)
	if m == nil {
		t.Fatalf("the cell did not report its forks:\n%s", r.Text)
	}
	forked, _ = strconv.Atoi(m[1])
	refused, _ = strconv.Atoi(m[2])
	c := counters(t, tool)
	t.Logf("2000 forks in a session of %d processes: %d forked, %d refused; the group counted %d refusals", limit, forked, refused, c.ForksRefused)
	if forked == 0 || forked >= limit || forked+refused != 2000 {
		t.Errorf("%d forked and %d refused, want between 1 and %d forked and the rest refused", forked, refused, limit-1)
	}
	if c.ForksRefused < int64(refused) {
		t.Errorf("the group counted %d refused forks, fewer than the cell's %d", c.ForksRefused, refused)
	}
	if r.Status != "error" || !strings.Contains(r.Text, fmt.Sprintf("[the session's process limit of %d was reached: %d forks were refused]", limit, c.ForksRefused)) {
		t.Errorf("status %q; the result does not say the process limit was reached:\n%s", r.Status, r.Text)
	}
	checkCase(t, tool, cellCase{cells: []string{"kept + 1"}, status: "ok", want: []string{"value:\n2"}, notWant: []string{"new Python session", "limit"}})
}

// Close leaves no process of the session: not one that left the sandbox's
// process group and session, nor a daemon's grandchild; and no group.
func TestCloseLeavesNothing(t *testing.T) {
	t.Parallel() // each has its own sandbox; most of the time is waiting on it
	tool := cgroupTool(t, Options{})
	checkCase(t, tool, cellCase{cells: []string{`import os, subprocess
subprocess.Popen(['sleep', '4321.5'], start_new_session=True)
if os.fork() == 0:
    try:
        os.setsid()
        if os.fork() == 0:
            os.execv('/usr/bin/sleep', ['sleep', '4321.5'])
    finally:
        os._exit(0)
os.wait()[1]`}, status: "ok", want: []string{"value:\n0"}})
	eventually(t, "both sleeps are visible", func() bool { return len(sleepers(t, "4321.5")) == 2 })
	dirs := tool.sess.cg.Dirs()
	name := filepath.Base(dirs[0])
	procs, err := tool.sess.cg.Procs()
	if err != nil {
		t.Fatal(err)
	}
	// A pid may be reused once its process is gone: the start time tells.
	starts := map[int]string{}
	for _, pid := range procs {
		starts[pid] = startTime(pid)
	}
	if err := tool.Close(); err != nil {
		t.Fatal(err)
	}
	// Close returns once the group is empty and removed.
	for _, d := range dirs {
		if _, err := os.Stat(d); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the session's group %s is still there after Close: %v", d, err)
		}
	}
	for _, pid := range procs {
		if running(strconv.Itoa(pid)) && startTime(pid) == starts[pid] {
			t.Errorf("process %d of the session still runs after Close", pid)
		}
	}
	if pids := sleepers(t, "4321.5"); len(pids) != 0 {
		t.Errorf("the cell's sleeps %v still run after Close", pids)
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if b, err := os.ReadFile("/proc/" + e.Name() + "/cgroup"); err == nil && strings.Contains(string(b), name) && running(e.Name()) {
			t.Errorf("process %s is still in the session's group %s after Close", e.Name(), name)
		}
	}
	t.Logf("%d processes were in the group %s before Close", len(procs), name)
}

// startTime is field 22 of /proc/pid/stat, "" when the process is gone.
func startTime(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	if f := strings.Fields(rest); len(f) >= 20 {
		return f[19]
	}
	return ""
}

// Without a control group, rlimits hold what they can: each process's
// address space, and, except for root, the number of processes; the
// mechanism's text says which.
func TestRlimitsFallback(t *testing.T) {
	t.Parallel() // each has its own sandbox; most of the time is waiting on it
	const memory = 512 << 20
	tool := newTool(t, Options{Memory: memory, noCgroup: true})
	name, guarantee := tool.Mechanism()
	if name != "rlimits" {
		t.Fatalf("mechanism %q with control groups off, want rlimits", name)
	}
	if tool.lim.root {
		// RLIMIT_NPROC exempts root: only the address space is held.
		if tool.lim.nproc != 0 || tool.lim.perProcess != memory || !strings.Contains(guarantee, "NOT bounded") || !strings.Contains(guarantee, "root") {
			t.Errorf("as root: nproc %d, %d bytes a process; guarantee %q: want no process limit, the whole memory a process, and a guarantee that says the count is not bounded", tool.lim.nproc, tool.lim.perProcess, guarantee)
		}
	} else if tool.lim.nproc != 2 || tool.lim.perProcess != memory/2 || !strings.Contains(guarantee, "2 × 256 MiB = 512 MiB") {
		t.Errorf("nproc %d, %d bytes a process; guarantee %q: want 2 processes of 256 MiB", tool.lim.nproc, tool.lim.perProcess, guarantee)
	}
	per := tool.lim.perProcess
	// A child that goes past its own share gets a MemoryError.
	checkCase(t, tool, cellCase{
		cells:  []string{fmt.Sprintf("import subprocess, sys\nsubprocess.run([sys.executable, '-c', 'bytearray(%d)'], capture_output=True).stderr.decode().strip().splitlines()[-1]", per+(16<<20))},
		status: "ok", want: []string{"MemoryError"},
	})
	if tool.lim.nproc > 0 {
		// bwrap's init and the driver are 2: no fork is left.
		checkCase(t, tool, cellCase{cells: []string{"import os; os.fork()"}, status: "error", want: []string{"BlockingIOError"}})
	}
	checkCase(t, tool, cellCase{cells: []string{"1 + 1"}, status: "ok", want: []string{"value:\n2"}, notWant: []string{"new Python session"}})
}

// Mechanism and the description say the same limits, in the words of the
// mechanism in use.
func TestMechanism(t *testing.T) {
	cases := []struct {
		name     string
		opts     Options
		cgroup   bool // the case needs a control group
		wantName string
		// In the guarantee and in the description.
		wantGuarantee, wantDescription []string
	}{
		{name: "cgroup", opts: Options{Memory: 1 << 30, Processes: 64}, cgroup: true,
			wantGuarantee:   []string{"memory+pids: the whole session, every process it starts, is held to 1 GiB of memory", "and 64 processes"},
			wantDescription: []string{"Limits of the whole session: 1 GiB of memory for all its processes together", "64 processes"}},
		{name: "rlimits", opts: Options{Memory: 1 << 30, Processes: 64, noCgroup: true}, wantName: "rlimits",
			wantGuarantee:   []string{"rlimits only (no control group: control groups turned off)"},
			wantDescription: []string{"of memory (address space)"}},
		{name: "rlimits, unsafe", opts: Options{Memory: 1 << 30, noCgroup: true, Unsafe: true, Bwrap: "/nonexistent/bwrap"}, wantName: "rlimits",
			wantGuarantee:   []string{"the number of processes is NOT bounded"},
			wantDescription: []string{"Limits of each process: 1 GiB of memory (address space)."}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var tool *Tool
			if c.cgroup {
				tool = cgroupTool(t, c.opts)
				c.wantName = tool.lim.place.Version.String()
			} else {
				tool = newTool(t, c.opts)
			}
			name, guarantee := Mechanism(c.opts)
			if tn, tg := tool.Mechanism(); tn != name || tg != guarantee {
				t.Errorf("the tool's mechanism %q %q differs from the package's %q %q", tn, tg, name, guarantee)
			}
			if name != c.wantName {
				t.Errorf("mechanism %q, want %q", name, c.wantName)
			}
			for _, w := range c.wantGuarantee {
				if !strings.Contains(guarantee, w) {
					t.Errorf("guarantee lacks %q: %s", w, guarantee)
				}
			}
			d := tool.Description()
			for _, w := range c.wantDescription {
				if !strings.Contains(d, w) {
					t.Errorf("description lacks %q: %s", w, d)
				}
			}
		})
	}
}
