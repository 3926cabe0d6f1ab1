package python

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/paperlens/paperlens/eval/agent"
	"github.com/paperlens/paperlens/internal/cgroup"
)

// newTool makes a sandboxed tool, skipping where bubblewrap or Debian's
// python3 is missing locally; under CI (env CI set) their absence fails,
// since the sandbox is what these tests are about.
func newTool(t *testing.T, opts Options) *Tool {
	t.Helper()
	need := []string{DefaultBwrap, DefaultPython}
	if opts.Unsafe {
		need = need[1:]
	}
	for _, p := range need {
		if _, err := os.Stat(p); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is missing (install Debian's bubblewrap and python3): %v", p, err)
			}
			t.Skipf("%s is missing (Debian packages bubblewrap, python3): the sandbox cannot be tested here", p)
		}
	}
	tool, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tool.Close() })
	return tool
}

func call(t *testing.T, tool agent.Tool, code string) agent.Result {
	t.Helper()
	args, err := json.Marshal(map[string]string{"code": code})
	if err != nil {
		t.Fatal(err)
	}
	r, err := tool.Call(context.Background(), args)
	if err != nil {
		t.Fatalf("Call(%q) returned an error, but a cell's failure must be a Result: %v", code, err)
	}
	return r
}

type cellCase struct {
	name  string
	cells []string // run in order in one session; the last one's result is checked
	// status and the texts the last result must hold and must not hold.
	status  string
	want    []string
	notWant []string
	maxLen  int // of the text, when not 0
}

func checkCase(t *testing.T, tool agent.Tool, c cellCase) {
	t.Helper()
	var r agent.Result
	for _, code := range c.cells {
		r = call(t, tool, code)
	}
	if r.Status != c.status {
		t.Errorf("status %q, want %q; text:\n%s", r.Status, c.status, r.Text)
	}
	for _, w := range c.want {
		if !strings.Contains(r.Text, w) {
			t.Errorf("text lacks %q:\n%s", w, r.Text)
		}
	}
	if c.maxLen > 0 && len(r.Text) > c.maxLen {
		t.Errorf("text of %d bytes, more than %d", len(r.Text), c.maxLen)
	}
	for _, w := range c.notWant {
		if strings.Contains(r.Text, w) {
			t.Errorf("text holds %q:\n%s", w, r.Text)
		}
	}
}

// Cases that hold with or without the sandbox: the notebook behaviour and
// the limits the driver applies itself.
var commonCases = []cellCase{
	{name: "print", cells: []string{"print(sum(range(10)))"}, status: "ok", want: []string{"stdout:\n45"}, notWant: []string{"value:"}},
	{name: "state persists", cells: []string{"x = 5", "x * 2"}, status: "ok", want: []string{"value:\n10"}},
	{name: "statements then an expression", cells: []string{"def f(n):\n    return n + 1\nprint('p')\nf(41)"}, status: "ok", want: []string{"stdout:\np\n", "value:\n42"}},
	{name: "None is not shown", cells: []string{"None"}, status: "ok", want: []string{"(no output)"}},
	{name: "an exception keeps the session", cells: []string{"y = 3", "1/0", "y + 1"}, status: "ok", want: []string{"value:\n4"}, notWant: []string{"new Python session"}},
	{name: "exception", cells: []string{"1/0"}, status: "error", want: []string{"ZeroDivisionError", `File "<cell>", line 1`}, notWant: []string{"driver", "exec("}},
	{name: "syntax error", cells: []string{"def ("}, status: "error", want: []string{"SyntaxError"}},
	{name: "stderr", cells: []string{"import sys; print('warn', file=sys.stderr)"}, status: "ok", want: []string{"stderr:\nwarn"}},
	// What C code or a child process writes to fd 1 is the cell's too.
	{name: "raw fd write", cells: []string{"import os; os.write(1, b'raw\\n')"}, status: "ok", want: []string{"stdout:\nraw", "value:\n4"}},
	// Frame-like bytes and the section names in the output do not confuse
	// the protocol.
	{name: "delimiters in output", cells: []string{"print('\\x00\\x00\\x00\\x05value:\\n{\"ready\": true}')", "7"}, status: "ok", want: []string{"value:\n7"}},
	{name: "memory", cells: []string{"bytearray(4 * 2**30)"}, status: "error", want: []string{"MemoryError", "memory limit is 1 GiB"}},
	{name: "memory, then the session goes on", cells: []string{"z = 2", "bytearray(4 * 2**30)", "z"}, status: "ok", want: []string{"value:\n2"}},
	{name: "output flood is cut", cells: []string{"print('x' * 10**7)"}, status: "ok", want: []string{"[stdout cut: 9.5 MiB (10000001 bytes) in all; shown are the first 15 KiB and the last 1 KiB]"}, maxLen: 17 << 10},
	// What is printed after a flood is in the kept end.
	{name: "output after a flood", cells: []string{"print('x' * 10**7)\nprint('after')"}, status: "ok", want: []string{"in all; shown are the first 15 KiB and the last 1 KiB]\nx", "x\nafter"}, maxLen: 17 << 10},
	{name: "long value is cut", cells: []string{"'y' * 10**6"}, status: "ok", want: []string{"[value cut: first 16 KiB of"}, maxLen: 17 << 10},
	{name: "exit", cells: []string{"import sys; sys.exit(3)"}, status: "error", want: []string{"SystemExit"}},
	{name: "hard exit restarts", cells: []string{"w = 1", "import os; os._exit(3)", "'w' in globals()"}, status: "ok", want: []string{"new Python session", "value:\nFalse"}},
	{name: "own folder is writable", cells: []string{"open('f.txt', 'w').write('hi')", "open('f.txt').read()"}, status: "ok", want: []string{"value:\n'hi'"}},
}

// Cases that only the sandbox makes fail.
var sandboxCases = []cellCase{
	{name: "read /etc/passwd", cells: []string{"open('/etc/passwd').read()"}, status: "error", want: []string{"FileNotFoundError", "/etc/passwd"}},
	{name: "write /usr", cells: []string{"open('/usr/x', 'w')"}, status: "error", want: []string{"Read-only file system"}},
	{name: "write /etc", cells: []string{"open('/etc/x', 'w')"}, status: "error", want: []string{"Read-only file system"}},
	{name: "write /home", cells: []string{"open('/home/x', 'w')"}, status: "error", want: []string{"No such file or directory"}},
	{name: "write ../x", cells: []string{"open('../x', 'w')"}, status: "error", want: []string{"Read-only file system"}},
	{name: "write /x", cells: []string{"open('/x', 'w')"}, status: "error", want: []string{"Read-only file system"}},
	{name: "host folders are absent", cells: []string{"import os; sorted(os.listdir('/'))"}, status: "ok", want: []string{"value:\n['bin', 'dev', 'etc', 'lib', "}, notWant: []string{"'home'", "'root'", "'work'", "'var'"}},
	{name: "internet", cells: []string{"import socket; socket.create_connection(('1.1.1.1', 53), timeout=2)"}, status: "error", want: []string{"OSError", "Network is unreachable"}},
	{name: "unprivileged", cells: []string{"import os; os.getuid(), os.geteuid()"}, status: "ok", want: []string{"value:\n(65534, 65534)"}},
	{name: "tmp is writable", cells: []string{"open('/tmp/t', 'w').write('ok')"}, status: "ok", want: []string{"value:\n2"}},
	{name: "session folder is the working folder", cells: []string{"import os; os.getcwd()"}, status: "ok", want: []string{"value:\n'/session'"}},
}

func TestSandboxCells(t *testing.T) {
	t.Parallel() // each has its own sandbox; most of the time is waiting on it
	for _, c := range append(append([]cellCase{}, commonCases...), sandboxCases...) {
		t.Run(c.name, func(t *testing.T) {
			checkCase(t, newTool(t, Options{}), c)
		})
	}
}

func TestUnsafeCells(t *testing.T) {
	t.Parallel() // each has its own sandbox; most of the time is waiting on it
	if _, err := os.Stat(DefaultPython); err != nil {
		if _, err := exec.LookPath("python3"); err != nil {
			t.Skip("no python3 here")
		}
	}
	for _, c := range commonCases {
		t.Run(c.name, func(t *testing.T) {
			tool, err := New(Options{Unsafe: true, Bwrap: "/nonexistent/bwrap"})
			if err != nil {
				t.Fatal(err)
			}
			defer tool.Close()
			if tool.Sandboxed() {
				t.Fatal("Sandboxed with no bwrap")
			}
			checkCase(t, tool, c)
		})
	}
}

func TestRefusedWithoutBubblewrap(t *testing.T) {
	_, err := New(Options{Bwrap: "/nonexistent/bwrap"})
	if err == nil {
		t.Fatal("New without bubblewrap and without Unsafe succeeded")
	}
	for _, w := range []string{"bubblewrap", "--unsafe-python"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not name %q", err, w)
		}
	}
	tool, err := New(Options{Bwrap: "/nonexistent/bwrap", Unsafe: true})
	if err != nil {
		if _, lerr := exec.LookPath("python3"); lerr != nil {
			t.Skip("no python3 here")
		}
		t.Fatal(err)
	}
	defer tool.Close()
	if d := tool.Description(); !strings.Contains(d, "NOT sandboxed") {
		t.Errorf("an unsafe tool's description does not say so: %s", d)
	}
}

// A listener on the host's loopback is out of reach: the sandbox has a
// loopback of its own.
func TestLoopbackUnreachable(t *testing.T) {
	tool := newTool(t, Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int32
	remotes := make(chan string, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			remotes <- c.RemoteAddr().String()
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	checkCase(t, tool, cellCase{
		cells:  []string{"import socket; socket.create_connection(('127.0.0.1', " + strconv.Itoa(port) + "), timeout=2)"},
		status: "error", want: []string{"ConnectionRefusedError"},
	})
	// The listener works from here, so a refusal above is the sandbox's.
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	own := c.LocalAddr().String()
	c.Close()
	// A connection from the sandbox would have been queued before the
	// test's own, so once that one is accepted the count is final.
	for remote := range remotes {
		if remote == own {
			break
		}
	}
	if n := accepted.Load(); n != 1 {
		t.Errorf("listener accepted %d connections, want only the test's own 1", n)
	}
}

// Cells that exceed the time limits end the session, and the next call
// works in a new one that says the state is gone.
func TestLimitsKill(t *testing.T) {
	cases := []struct {
		name   string
		opts   Options
		code   string
		status string
		want   string
	}{
		// The wall time is far above the CPU limit, so the CPU limit acts
		// first even when busy processes leave the cell a small share of a
		// core (a 20 s wall limit lost that race beside four busy loops).
		{name: "cpu", opts: Options{CPU: time.Second, Wall: 2 * time.Minute}, code: "while True: pass", status: "killed", want: "1s CPU-time limit"},
		{name: "wall", opts: Options{Wall: time.Second}, code: "import time; time.sleep(60)", status: "timeout", want: "1s wall-time limit"},
		{name: "unsafe cpu", opts: Options{CPU: time.Second, Wall: 2 * time.Minute, Unsafe: true, Bwrap: "/nonexistent/bwrap"}, code: "while True: pass", status: "killed", want: "1s CPU-time limit"},
		{name: "unsafe wall", opts: Options{Wall: time.Second, Unsafe: true, Bwrap: "/nonexistent/bwrap"}, code: "import time; time.sleep(60)", status: "timeout", want: "1s wall-time limit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Each waits for a limit; waiting together keeps the package fast.
			t.Parallel()
			tool := newTool(t, c.opts)
			call(t, tool, "kept = 1")
			checkCase(t, tool, cellCase{cells: []string{c.code}, status: c.status, want: []string{c.want, "new Python session"}})
			checkCase(t, tool, cellCase{
				cells:  []string{"print('kept' in globals())"},
				status: "ok", want: []string{"[a new Python session was started", "stdout:\nFalse"},
			})
			checkCase(t, tool, cellCase{cells: []string{"1 + 1"}, status: "ok", want: []string{"value:\n2"}, notWant: []string{"new Python session"}})
		})
	}
}

// Two questions' tools share nothing.
func TestToolsIsolated(t *testing.T) {
	a := newTool(t, Options{})
	b := newTool(t, Options{})
	call(t, a, "secret = 42\nopen('/session/f', 'w').write('a')")
	checkCase(t, b, cellCase{cells: []string{"'secret' in globals()"}, status: "ok", want: []string{"value:\nFalse"}})
	checkCase(t, b, cellCase{cells: []string{"import os; os.path.exists('/session/f')"}, status: "ok", want: []string{"value:\nFalse"}})
	checkCase(t, a, cellCase{cells: []string{"secret"}, status: "ok", want: []string{"value:\n42"}})
}

func TestBadArguments(t *testing.T) {
	tool := newTool(t, Options{})
	for _, args := range []string{`{}`, `{"code": 3}`, `not json`, `{"source": "1"}`} {
		r, err := tool.Call(context.Background(), json.RawMessage(args))
		if err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		if r.Status != "bad arguments" || !strings.Contains(r.Text, `"code"`) {
			t.Errorf("%s: %+v", args, r)
		}
	}
}

// A cell that writes into the reply channel costs its session, not the run.
func TestCorruptedReply(t *testing.T) {
	tool := newTool(t, Options{})
	checkCase(t, tool, cellCase{cells: []string{"import os; os.write(4, b'\\x00\\x00\\x00\\x03abc')"}, status: "error", want: []string{"could not be read"}})
	checkCase(t, tool, cellCase{cells: []string{"3"}, status: "ok", want: []string{"new Python session", "value:\n3"}})
	// A length no reply could have.
	checkCase(t, tool, cellCase{cells: []string{"import os; os.write(4, b'\\x7f\\xff\\xff\\xff')"}, status: "error", want: []string{"could not be read"}})
	checkCase(t, tool, cellCase{cells: []string{"4"}, status: "ok", want: []string{"new Python session", "value:\n4"}})
}

// A cancelled context stops the cell and is the one case Call returns an
// error; Close leaves no process behind.
func TestCancelAndClose(t *testing.T) {
	t.Parallel() // each has its own sandbox; most of the time is waiting on it
	tool := newTool(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := tool.Call(ctx, json.RawMessage(`{"code": "import time; time.sleep(60)"}`))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want the context's deadline", err)
	}
	call(t, tool, "1")
	pid := tool.sess.cmd.Process.Pid
	if err := tool.Close(); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("session process %d still there after Close: %v", pid, err)
	}
	if _, err := tool.Call(context.Background(), json.RawMessage(`{"code": "1"}`)); err == nil {
		t.Error("Call after Close succeeded")
	}
}

func TestNumpy(t *testing.T) {
	t.Parallel() // each has its own sandbox; most of the time is waiting on it
	tool := newTool(t, Options{})
	r := call(t, tool, "import numpy, scipy.linalg\nfloat(scipy.linalg.det(numpy.array([[2.0, 1.0], [1.0, 3.0]])))")
	if r.Status != "ok" && strings.Contains(r.Text, "ModuleNotFoundError") {
		if os.Getenv("CI") != "" {
			t.Fatalf("numpy or scipy missing under CI (Debian python3-numpy, python3-scipy):\n%s", r.Text)
		}
		t.Skipf("numpy or scipy not installed:\n%s", r.Text)
	}
	checkCase(t, tool, cellCase{cells: []string{"round(_, 6)"}, status: "ok", want: []string{"value:\n5.0"}})
}

// A sandbox that cannot start (here a bwrap that only fails) stops the
// question with an error, rather than passing for a cell's failure.
func TestSandboxStartFailure(t *testing.T) {
	tool, err := New(Options{Bwrap: "/bin/false"})
	if err != nil {
		t.Skipf("no /bin/false: %v", err)
	}
	defer tool.Close()
	_, err = tool.Call(context.Background(), json.RawMessage(`{"code": "1"}`))
	if err == nil || !strings.Contains(err.Error(), "bubblewrap sandbox did not start") {
		t.Errorf("err %v, want one that says the sandbox did not start", err)
	}
}

// A process the cell started in a session of its own dies with the
// sandbox when the cell is killed: by the session's control group where
// there is one, else with bubblewrap's PID namespace. Both with and
// without a control group.
func TestKillReachesChildren(t *testing.T) {
	for _, c := range []struct {
		name     string
		noCgroup bool
		marker   string
	}{
		{name: "as detected", marker: "1234.5"},
		{name: "rlimits only", noCgroup: true, marker: "1234.25"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each has its own sandbox; most of the time is waiting on it
			tool := newTool(t, Options{noCgroup: c.noCgroup})
			checkCase(t, tool, cellCase{cells: []string{"import subprocess\nsubprocess.Popen(['sleep', '" + c.marker + "'], start_new_session=True).pid > 0"}, status: "ok", want: []string{"value:\nTrue"}})
			// Seen from here first, so that its absence below means
			// something. Popen returns once sleep is exec'd, but its
			// command line may show an instant later.
			eventually(t, "the cell's sleep is visible in /proc", func() bool { return len(sleepers(t, c.marker)) > 0 })
			if pids := sleepers(t, c.marker); len(pids) != 1 {
				t.Fatalf("the cell's sleep %s is not visible in /proc as one process: %v", c.marker, pids)
			}
			// A cancelled call kills the session, as a timeout does.
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if _, err := tool.Call(ctx, json.RawMessage(`{"code": "import time; time.sleep(60)"}`)); !errors.Is(err, context.Canceled) {
				t.Fatalf("err %v, want the context's cancellation", err)
			}
			if tool.lim.place.Version != cgroup.None {
				// The group was emptied before the call returned.
				if pids := sleepers(t, c.marker); len(pids) != 0 {
					t.Fatalf("processes %v of the killed session are still running", pids)
				}
				return
			}
			// Without a group, the kernel takes the PID namespace down
			// after bwrap dies, in its own time.
			eventually(t, "the killed sandbox's processes are gone", func() bool { return len(sleepers(t, c.marker)) == 0 })
		})
	}
}

// eventually polls cond until it holds or the test's context ends (at
// its deadline): no time limit of its own, so that a loaded machine is
// slow rather than failing.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for pause := time.Millisecond; !cond(); pause = min(2*pause, 100*time.Millisecond) {
		select {
		case <-t.Context().Done():
			t.Fatalf("the test ended before %s", what)
		case <-time.After(pause):
		}
	}
}

func sleepers(t *testing.T, marker string) []string {
	t.Helper()
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	var pids []string
	for _, d := range dirs {
		b, err := os.ReadFile("/proc/" + d.Name() + "/cmdline")
		if err == nil && string(b) == "sleep\x00"+marker+"\x00" && running(d.Name()) {
			pids = append(pids, d.Name())
		}
	}
	return pids
}

// running tells whether process pid is alive: a zombie has ended and
// only waits to be reaped.
func running(pid string) bool {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return false
	}
	_, state, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(state, "Z")
}

// The model is told the limits and the sandbox it works in.
func TestDescription(t *testing.T) {
	tool := newTool(t, Options{})
	d := tool.Description()
	for _, w := range []string{"10s CPU", "30s wall", "16 KiB", "no network", "/session", "persist"} {
		if !strings.Contains(d, w) {
			t.Errorf("description lacks %q: %s", w, d)
		}
	}
	var schema struct {
		Type       string
		Properties map[string]struct{ Type string }
		Required   []string
	}
	if err := json.Unmarshal(tool.Parameters(), &schema); err != nil {
		t.Fatal(err)
	}
	if schema.Type != "object" || schema.Properties["code"].Type != "string" || len(schema.Required) != 1 || schema.Required[0] != "code" {
		t.Errorf("parameters %s", tool.Parameters())
	}
	if tool.Name() != agent.ToolPython {
		t.Errorf("name %q", tool.Name())
	}
}
