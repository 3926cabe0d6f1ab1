// Package python is the agent's python tool: python(code) runs a cell in a
// Python session that lives for one question, like a notebook, and returns
// its stdout, stderr and the value of its last expression.
//
// The session is one python3 process inside a bubblewrap sandbox: no
// network (a network namespace of its own), no file system but read-only
// /usr and the few /etc files python3 and numpy need, a size-capped tmpfs
// working folder (/session) and /tmp, no capabilities, its own user, PID,
// IPC and UTS namespaces. A small trusted driver (driver.py) applies the
// CPU, address-space, file-size and core limits to itself before it runs
// any cell. A cell that runs past the wall-time limit, or a driver killed
// by a limit, costs the session: it is killed, and the next call starts a
// new one and says that earlier state was lost.
//
// The session as a whole, every process it starts, is held to one memory
// budget (Options.Memory) and one process count (Options.Processes) by a
// control group of its own (package internal/cgroup) where this machine
// lets paperlens make one; otherwise by rlimits only, which bound less:
// Mechanism says which, and what it guarantees. A limit reached during a
// cell is said in that cell's result. The group is removed, with every
// process left in it, when the session ends.
//
// A cell's stdout and stderr are pipes that paperlens reads for as long
// as the session lives: of each it keeps Options.Output bytes, most from
// the start and a few from the end, and only counts the rest, so a cell
// may print any amount without filling memory or a folder, and what it
// prints after a flood is still returned.
//
// Without bubblewrap the tool refuses to start unless Options.Unsafe is
// set (the command line's --unsafe-python); then python3 runs directly,
// with the same limits and a temporary working folder but no isolation.
package python

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/paperlens/paperlens/eval/agent"
	"github.com/paperlens/paperlens/internal/cgroup"
)

//go:embed driver.py
var driverSource string

// Defaults of the limits, used where an Options field is zero.
const (
	DefaultCPU       = 10 * time.Second // CPU time per cell
	DefaultMemory    = 1 << 30          // memory of the whole session
	DefaultProcesses = 64               // processes and threads of the whole session
	DefaultWall      = 30 * time.Second // wall time per cell
	DefaultOutput    = 16 << 10         // bytes kept of each of stdout, stderr and the value
	// DefaultFolder caps each of the sandbox's tmpfs folders (/session, /tmp).
	DefaultFolder = 256 << 20
)

// DefaultBwrap and DefaultPython are where Debian installs bubblewrap and
// its python3 (whose dist-packages hold python3-numpy and python3-scipy).
const (
	DefaultBwrap  = "/usr/bin/bwrap"
	DefaultPython = "/usr/bin/python3"
)

// Options are the tool's limits and where its programs are.
type Options struct {
	CPU time.Duration // CPU time per cell; the session as a whole gets ten times as much
	// Memory is the memory of the whole session in bytes: all its
	// processes together, and the files they keep in /session and /tmp,
	// under a control group. It is also each process's RLIMIT_AS, so that
	// a single process going past it gets a MemoryError rather than being
	// killed. Mechanism says how it is held on this machine.
	Memory int64
	// Processes is how many processes, threads included, the whole
	// session may have at once (the sandbox itself takes 3 of them).
	Processes int
	Wall      time.Duration // wall time per cell, after which the session is killed
	Output    int           // bytes kept of stdout, of stderr and of the value; the rest is cut and said so
	Folder    int64         // size of the tmpfs /session and /tmp in the sandbox
	// Unsafe runs python3 without a sandbox when bubblewrap is missing:
	// only the limits and a temporary working folder.
	Unsafe bool
	Bwrap  string // path of bwrap; DefaultBwrap when empty
	Python string // path of python3; DefaultPython when empty (or python3 on PATH when unsafe)

	// noCgroup makes the tool use rlimits only, as on a machine without
	// control groups; for tests.
	noCgroup bool
}

func (o Options) withDefaults() Options {
	if o.CPU <= 0 {
		o.CPU = DefaultCPU
	}
	if o.Memory <= 0 {
		o.Memory = DefaultMemory
	}
	if o.Processes <= 0 {
		o.Processes = DefaultProcesses
	}
	if o.Wall <= 0 {
		o.Wall = DefaultWall
	}
	if o.Output <= 0 {
		o.Output = DefaultOutput
	}
	if o.Folder <= 0 {
		o.Folder = DefaultFolder
	}
	if o.Bwrap == "" {
		o.Bwrap = DefaultBwrap
	}
	if o.Python == "" {
		o.Python = DefaultPython
	}
	return o
}

// Tool is the python tool of one question. It is safe for use by one
// goroutine at a time; Call and Close are serialised.
type Tool struct {
	opts    Options
	sandbox bool // false: unsafe, python3 runs directly
	lim     limiter

	mu   sync.Mutex
	sess *session
	// lost is set when a session was killed, so that the next call's
	// result says that its variables are gone.
	lost   bool
	closed bool
}

var _ agent.Tool = (*Tool)(nil)

// New makes the tool of one question. It starts nothing: the session
// starts on the first call. Without bubblewrap it returns an error naming
// bubblewrap and --unsafe-python, unless opts.Unsafe is set.
func New(opts Options) (*Tool, error) {
	opts = opts.withDefaults()
	t := &Tool{opts: opts, sandbox: true}
	if _, err := os.Stat(opts.Bwrap); err != nil {
		if !opts.Unsafe {
			return nil, fmt.Errorf("python tool: bubblewrap not found at %s (%w): the python tool runs code only inside a bubblewrap sandbox; install it (Debian package bubblewrap) or pass --unsafe-python to run python3 unsandboxed", opts.Bwrap, err)
		}
		t.sandbox = false
	}
	if _, err := os.Stat(t.opts.Python); err != nil {
		if t.sandbox {
			return nil, fmt.Errorf("python tool: python3 not found at %s: %w", t.opts.Python, err)
		}
		p, lerr := exec.LookPath("python3")
		if lerr != nil {
			return nil, fmt.Errorf("python tool: python3 not found at %s nor on PATH: %w", t.opts.Python, lerr)
		}
		t.opts.Python = p
	}
	t.lim = newLimiter(t.opts, t.sandbox)
	return t, nil
}

// Sandboxed reports whether cells run inside bubblewrap.
func (t *Tool) Sandboxed() bool { return t.sandbox }

// Name is agent.ToolPython.
func (t *Tool) Name() string { return agent.ToolPython }

// Description tells the model what the session is and what it cannot do.
func (t *Tool) Description() string {
	o := t.opts
	var b strings.Builder
	b.WriteString("Run Python 3 code, like a notebook cell. Variables, functions and imports persist between calls for this question. ")
	b.WriteString("Returns stdout, stderr and the value of the last expression (if the cell ends with an expression). ")
	b.WriteString("numpy and scipy can be imported when installed. ")
	fmt.Fprintf(&b, "Limits per call: %s CPU time, %s wall time, %s kept of each output. ",
		o.CPU, o.Wall, bytesText(int64(o.Output)))
	b.WriteString(t.lim.modelText(o))
	b.WriteString(" A call that exceeds the time limits is killed and the session restarts empty. ")
	if t.sandbox {
		b.WriteString("Sandboxed: no network, and the only writable folders are the working folder /session and /tmp.")
	} else {
		b.WriteString("NOT sandboxed (--unsafe-python): the code runs as the calling user with only the limits above and a temporary working folder.")
	}
	return b.String()
}

// Parameters is the JSON Schema of {"code": string}.
func (t *Tool) Parameters() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"code":{"type":"string","description":"Python 3 source to run; the value of a final expression is returned"}},"required":["code"],"additionalProperties":false}`)
}

// Close kills the session and removes its folders.
func (t *Tool) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	if t.sess != nil {
		err := t.sess.kill()
		t.sess = nil
		return err
	}
	return nil
}

// Call runs one cell. Failures of the code or of a limit are Results; an
// error means the context was cancelled or the session could not start
// (a broken sandbox), which should stop the question.
func (t *Tool) Call(ctx context.Context, args json.RawMessage) (agent.Result, error) {
	var a struct {
		Code *string `json:"code"`
	}
	if err := json.Unmarshal(args, &a); err != nil || a.Code == nil {
		msg := `expected {"code": "<python source>"}`
		if err != nil {
			msg += ": " + err.Error()
		}
		return agent.Result{Status: "bad arguments", Text: msg}, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return agent.Result{}, errors.New("python tool: call after Close")
	}
	var notes []string
	if t.sess == nil {
		s, err := t.start(ctx)
		if err != nil {
			return agent.Result{}, err
		}
		t.sess = s
		if t.lost {
			notes = append(notes, "[a new Python session was started: variables and imports from earlier calls are lost]")
			t.lost = false
		}
	}
	r, err := t.run(ctx, *a.Code)
	if len(notes) > 0 {
		r.Text = strings.Join(notes, "\n") + "\n" + r.Text
	}
	return r, err
}

// startTimeout bounds the start of a session, up to the driver's first frame.
const startTimeout = time.Minute

// afterKill ends the text of a result whose session was lost.
const afterKill = "; the next call starts a new Python session without the variables and imports of earlier calls"

// reply is the driver's answer to a cell; its stdout and stderr come
// from the session's output pipes.
type reply struct {
	Stdout     cellOutput `json:"-"`
	Stderr     cellOutput `json:"-"`
	Value      *string    `json:"value"`
	ValueBytes int64      `json:"value_bytes"`
	Exception  *string    `json:"exception"`
}

func (t *Tool) run(ctx context.Context, code string) (agent.Result, error) {
	s := t.sess
	req, err := json.Marshal(map[string]string{"code": code})
	if err != nil {
		return agent.Result{}, fmt.Errorf("python tool: encoding the cell: %w", err)
	}
	before := s.counters()
	s.stdout.begin()
	s.stderr.begin()
	// The request goes out from a goroutine: a driver that died, or is
	// stuck, must not block the wall-time limit.
	go func() {
		if err := writeFrame(s.toDriver, req); err != nil {
			s.toDriver.Close()
		}
	}()
	timer := time.NewTimer(t.opts.Wall)
	defer timer.Stop()
	var res agent.Result
	select {
	case fr, ok := <-s.frames:
		if !ok {
			return t.died(s, before), nil
		}
		var rep reply
		if err := json.Unmarshal(fr, &rep); fr == nil || err != nil {
			res = agent.Result{Status: "error", Text: "the Python session sent a reply that could not be read (did the code write to the tool's own file descriptors 3 or 4?); it was stopped" + afterKill}
			t.drop(s)
			break
		}
		// The driver replies once the cell is over, so all that the cell
		// wrote is in the pipes by now.
		rep.Stdout, rep.Stderr = s.stdout.end(), s.stderr.end()
		res = t.format(rep)
	case <-timer.C:
		res = agent.Result{Status: "timeout", Text: fmt.Sprintf("the cell ran longer than the %s wall-time limit and was stopped; the Python session was killed"+afterKill, t.opts.Wall)}
	case <-ctx.Done():
		t.drop(s)
		return agent.Result{}, fmt.Errorf("python tool: %w", ctx.Err())
	}
	if notes := t.limitNotes(before, s.counters()); notes != "" {
		res.Text += "\n" + notes
		if res.Status == "ok" {
			res.Status = "error"
		}
	}
	if res.Status == "timeout" {
		t.drop(s)
	}
	return res, nil
}

// limitNotes says which of the session's limits were reached between two
// readings of its control group's counters, in words for the model.
func (t *Tool) limitNotes(before, after *cgroup.Counters) string {
	if before == nil || after == nil {
		return ""
	}
	var notes []string
	switch n := after.OOMKills - before.OOMKills; {
	case n == 1:
		notes = append(notes, fmt.Sprintf("[the session's memory limit of %s was reached: a process of this cell was killed]", bytesText(t.opts.Memory)))
	case n > 1:
		notes = append(notes, fmt.Sprintf("[the session's memory limit of %s was reached: %d processes of this cell were killed]", bytesText(t.opts.Memory), n))
	case after.OOMKills < 0 && after.MemoryMax > before.MemoryMax:
		// A kernel that does not count OOM kills: only that the limit was
		// reached is known.
		notes = append(notes, fmt.Sprintf("[the session's memory limit of %s was reached]", bytesText(t.opts.Memory)))
	}
	switch n := after.ForksRefused - before.ForksRefused; {
	case n == 1:
		notes = append(notes, fmt.Sprintf("[the session's process limit of %d was reached: a fork was refused]", t.opts.Processes))
	case n > 1:
		notes = append(notes, fmt.Sprintf("[the session's process limit of %d was reached: %d forks were refused]", t.opts.Processes, n))
	}
	return strings.Join(notes, "\n")
}

// drop kills the session and remembers that its state is gone.
func (t *Tool) drop(s *session) {
	s.kill()
	t.sess = nil
	t.lost = true
}

// died explains a session whose process ended in the middle of a cell;
// before are its control group's counters from before the cell.
func (t *Tool) died(s *session, before *cgroup.Counters) agent.Result {
	now := s.counters()
	status := s.wait()
	t.sess = nil
	t.lost = true
	const after = afterKill
	sig, code := exitOf(status)
	oom := before != nil && now != nil && now.OOMKills > before.OOMKills
	switch {
	case oom:
		return agent.Result{Status: "killed", Text: fmt.Sprintf("the Python process was killed by the kernel: the session reached its memory limit of %s (all its processes together)%s", bytesText(t.opts.Memory), after)}
	case sig == syscall.SIGXCPU:
		return agent.Result{Status: "killed", Text: fmt.Sprintf("the cell used more than the %s CPU-time limit and the Python process was killed%s", t.opts.CPU, after)}
	case sig == syscall.SIGKILL:
		return agent.Result{Status: "killed", Text: fmt.Sprintf("the Python process was killed (SIGKILL: the session's CPU time of %s in all, or the machine's memory, ran out)%s", 10*t.opts.CPU, after)}
	case sig != 0:
		return agent.Result{Status: "killed", Text: fmt.Sprintf("the Python process died of signal %d (%s)%s%s", int(sig), sig, s.lastWords(), after)}
	default:
		return agent.Result{Status: "error", Text: fmt.Sprintf("the Python process exited with status %d during the cell%s%s", code, s.lastWords(), after)}
	}
}

// format turns a reply into the text the model reads.
func (t *Tool) format(rep reply) agent.Result {
	res := agent.Result{Status: "ok"}
	var b strings.Builder
	line := func(text string) {
		b.WriteString(text)
		if !strings.HasSuffix(text, "\n") {
			b.WriteString("\n")
		}
	}
	// A stream past the limit shows its start and its end, where a result
	// printed after a flood is.
	stream := func(name string, o cellOutput) {
		if o.Total == 0 && o.Head == "" {
			return
		}
		fmt.Fprintf(&b, "%s:\n", name)
		line(o.Head)
		if o.Tail != "" {
			head, tail := headTail(t.opts.Output)
			fmt.Fprintf(&b, "[%s cut: %s in all; shown are the first %s and the last %s]\n",
				name, bytesText(o.Total), bytesText(int64(head)), bytesText(int64(tail)))
			line(o.Tail)
		}
	}
	stream("stdout", rep.Stdout)
	stream("stderr", rep.Stderr)
	if v := rep.Value; v != nil {
		fmt.Fprintf(&b, "value:\n")
		line(*v)
		if rep.ValueBytes > int64(len(*v)) && rep.ValueBytes > int64(t.opts.Output) {
			fmt.Fprintf(&b, "[value cut: first %s of %s shown]\n", bytesText(int64(t.opts.Output)), bytesText(rep.ValueBytes))
		}
	}
	if rep.Exception != nil {
		res.Status = "error"
		fmt.Fprintf(&b, "[the cell raised %s; the session and its earlier state are kept]\n", *rep.Exception)
		if *rep.Exception == "MemoryError" {
			fmt.Fprintf(&b, "[the session's memory limit is %s; each process may have %s of address space]\n", bytesText(t.opts.Memory), bytesText(t.lim.perProcess))
		}
	}
	if b.Len() == 0 {
		b.WriteString("(no output)\n")
	}
	res.Text = strings.TrimSuffix(b.String(), "\n")
	return res
}

// session is one running driver process.
type session struct {
	cmd      *exec.Cmd
	cg       *cgroup.Group // the session's control group; nil with rlimits only
	toDriver *os.File      // fd 3 of the driver
	frames   chan []byte   // replies from fd 4, closed at EOF or a bad frame
	// stdout and stderr are the cells' fds 1 and 2 (the driver's 5 and 6).
	stdout, stderr *output
	lastOut        *capBuffer    // what the driver wrote outside cells
	dir            string        // host temporary folder (unsafe mode), removed at kill
	done           chan struct{} // closed when Wait returned
	status         error
}

func (t *Tool) start(ctx context.Context) (*session, error) {
	cfg, err := json.Marshal(map[string]any{
		"cpu":         int64(t.opts.CPU.Seconds() + 0.999),
		"session_cpu": int64(10 * (t.opts.CPU.Seconds() + 0.999)),
		"memory":      t.lim.perProcess,
		"nproc":       t.lim.nproc,
		"fsize":       t.opts.Folder,
		"output":      t.opts.Output,
	})
	if err != nil {
		return nil, fmt.Errorf("python tool: %w", err)
	}
	s := &session{frames: make(chan []byte, 1), lastOut: &capBuffer{max: 8 << 10}, done: make(chan struct{})}
	if t.lim.place.Version != cgroup.None {
		s.cg, err = t.lim.place.New(cgroup.Limits{Memory: t.opts.Memory, Processes: t.opts.Processes})
		if err != nil {
			return nil, fmt.Errorf("python tool: the session's control group: %w", err)
		}
	}
	var cmd *exec.Cmd
	env := []string{"PATH=/usr/bin:/bin", "LANG=C.UTF-8", "OPENBLAS_NUM_THREADS=1", "OMP_NUM_THREADS=1", "MPLBACKEND=Agg"}
	if t.sandbox {
		cmd = exec.Command(t.opts.Bwrap, t.bwrapArgs(string(cfg))...)
		env = append(env, "HOME=/session", "TMPDIR=/tmp")
	} else {
		dir, err := os.MkdirTemp("", "paperlens-python-*")
		if err != nil {
			s.cleanup()
			return nil, fmt.Errorf("python tool: temporary folder: %w", err)
		}
		s.dir = dir
		for _, sub := range []string{"work", "tmp"} {
			if err := os.Mkdir(filepath.Join(dir, sub), 0o700); err != nil {
				s.cleanup()
				return nil, fmt.Errorf("python tool: temporary folder: %w", err)
			}
		}
		cmd = exec.Command(t.opts.Python, "-I", "-B", "-c", driverSource, string(cfg))
		cmd.Dir = filepath.Join(dir, "work")
		env = append(env, "HOME="+cmd.Dir, "TMPDIR="+filepath.Join(dir, "tmp"))
	}
	cmd.Env = env
	// A process the cell left behind may hold stdout open; Wait must not
	// wait for it.
	cmd.WaitDelay = time.Second
	cmd.Stdin = nil
	cmd.Stdout = s.lastOut
	cmd.Stderr = s.lastOut
	cmd.SysProcAttr = sysProcAttr()
	// Pipes, each as read and write end: requests, replies, and the
	// cells' stdout and stderr. The driver reads requests and writes the
	// rest, on its fds 3, 4, 5 and 6.
	var ends [8]*os.File
	closeAll := func(fs ...*os.File) {
		for _, f := range fs {
			if f != nil {
				f.Close()
			}
		}
	}
	for i := 0; i < len(ends); i += 2 {
		if ends[i], ends[i+1], err = os.Pipe(); err != nil {
			closeAll(ends[:]...)
			s.cleanup()
			return nil, fmt.Errorf("python tool: pipe: %w", err)
		}
	}
	reqW, repR := ends[1], ends[2]
	cmd.ExtraFiles = []*os.File{ends[0], ends[3], ends[5], ends[7]}
	s.toDriver = reqW
	if s.stdout, err = newOutput(ends[4], t.opts.Output); err == nil {
		s.stderr, err = newOutput(ends[6], t.opts.Output)
	}
	if err == nil {
		if s.cg != nil {
			err = s.cg.Start(cmd)
		} else {
			err = cmd.Start()
		}
	}
	closeAll(cmd.ExtraFiles...) // the child has its own copies
	if err != nil {
		closeAll(ends[:]...) // those not owned by s.stdout or s.stderr
		s.cleanup()
		return nil, fmt.Errorf("python tool: starting %s: %w", cmd.Path, err)
	}
	s.cmd = cmd
	go func() {
		s.status = cmd.Wait()
		close(s.done)
	}()
	maxFrame := 3*t.opts.Output*4 + 64<<10
	go func() {
		defer close(s.frames)
		defer repR.Close()
		for {
			fr, err := readFrame(repR, maxFrame)
			if errors.Is(err, errBadFrame) {
				s.frames <- nil // read as a reply that makes no sense
				return
			}
			if err != nil {
				return
			}
			s.frames <- fr
		}
	}()
	// The driver says it is ready before the first cell, so that a sandbox
	// that cannot start is an error of its own rather than a cell's. Its
	// start is not the cell's time: a loaded machine may take seconds.
	timer := time.NewTimer(startTimeout)
	defer timer.Stop()
	select {
	case fr, ok := <-s.frames:
		var hello struct{ Ready bool }
		if ok && json.Unmarshal(fr, &hello) == nil && hello.Ready {
			return s, nil
		}
		s.wait()
		return nil, fmt.Errorf("python tool: the %s did not start: %v%s", t.what(), s.status, s.lastWords())
	case <-timer.C:
		s.kill()
		return nil, fmt.Errorf("python tool: the %s did not start within %s%s", t.what(), startTimeout, s.lastWords())
	case <-ctx.Done():
		s.kill()
		return nil, fmt.Errorf("python tool: %w", ctx.Err())
	}
}

func (t *Tool) what() string {
	if t.sandbox {
		return "bubblewrap sandbox"
	}
	return "python3 process"
}

// bwrapArgs is the sandbox's command line after the bwrap program name,
// with the driver's config cfg.
func (t *Tool) bwrapArgs(cfg string) []string {
	folder := fmt.Sprint(t.opts.Folder)
	args := []string{
		"--unshare-all", "--unshare-user", "--disable-userns",
		"--uid", "65534", "--gid", "65534",
		"--cap-drop", "ALL",
		"--die-with-parent", "--new-session",
		"--hostname", "sandbox",
		"--ro-bind", "/usr", "/usr",
	}
	// Debian's merged /usr makes these symlinks; a system without it has
	// real folders, bound read-only.
	for _, d := range []string{"/bin", "/lib", "/lib64", "/lib32", "/libx32", "/sbin"} {
		fi, err := os.Lstat(d)
		switch {
		case err != nil:
		case fi.Mode()&os.ModeSymlink != 0:
			if target, err := os.Readlink(d); err == nil {
				args = append(args, "--symlink", target, d)
			}
		case fi.IsDir():
			args = append(args, "--ro-bind", d, d)
		}
	}
	// Only what python3 and numpy read from /etc: the dynamic linker's
	// cache, the alternatives symlinks libblas.so.3 and liblapack.so.3
	// resolve through, and Debian's python config. No passwd, no hosts,
	// no resolv.conf.
	etc := []string{"/etc/ld.so.cache", "/etc/alternatives", "/etc/localtime"}
	if m, err := filepath.Glob("/etc/python3*"); err == nil {
		etc = append(etc, m...)
	}
	for _, p := range etc {
		if _, err := os.Stat(p); err == nil {
			args = append(args, "--ro-bind", p, p)
		}
	}
	args = append(args,
		"--proc", "/proc", "--dev", "/dev",
		"--size", folder, "--tmpfs", "/tmp",
		"--size", folder, "--tmpfs", "/session",
		"--chdir", "/session",
		"--remount-ro", "/",
		"--", t.opts.Python, "-I", "-B", "-c", driverSource, cfg,
	)
	return args
}

// CommandLine is the program and arguments a session runs, with the
// driver's source elided; for notes and debugging. Under cgroup v1 the
// session starts through a /bin/sh that first joins its control groups,
// shown with placeholders for their per-session folders.
func (t *Tool) CommandLine() []string {
	var argv []string
	if !t.sandbox {
		argv = []string{t.opts.Python, "-I", "-B", "-c", "<driver.py>", "<config>"}
	} else {
		args := t.bwrapArgs("<config>")
		for i, a := range args {
			if a == driverSource {
				args[i] = "<driver.py>"
			}
		}
		argv = append([]string{t.opts.Bwrap}, args...)
	}
	if t.lim.place.Version == cgroup.V1 {
		argv = cgroup.WrapV1("<memory cgroup of the session>/cgroup.procs", "<pids cgroup of the session>/cgroup.procs", argv)
	}
	return argv
}

// kill ends every process of the session, waits for the driver and
// removes the session's control group and folder. The control group holds
// every process the session started, whatever session or process group
// it moved to; without one, killing bwrap takes the sandbox's PID
// namespace with it (--die-with-parent). Its error is the control group's,
// which could not be removed.
func (s *session) kill() error {
	if s.cg != nil {
		_ = s.cg.Close() // its error, if any, is cleanup's too
	}
	if s.cmd != nil && s.cmd.Process != nil {
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		_ = s.cmd.Process.Kill()
		<-s.done
	}
	return s.cleanup()
}

// wait waits for an ended driver, then kills what is left of the session
// (a child that still holds fd 4 open), and returns the driver's status.
// bwrap is left the time to report how the driver ended.
func (s *session) wait() error {
	select {
	case <-s.done:
	case <-time.After(2 * time.Second):
		if s.cg != nil {
			_ = s.cg.Close()
		}
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
	}
	s.cleanup()
	return s.status
}

// cleanup closes the session's pipes and removes its control group and
// folder, once its processes are gone (or never started).
func (s *session) cleanup() error {
	var err error
	if s.cg != nil {
		err = s.cg.Close()
	}
	if s.toDriver != nil {
		s.toDriver.Close()
	}
	for _, o := range []*output{s.stdout, s.stderr} {
		if o != nil {
			o.close()
		}
	}
	if s.dir != "" {
		os.RemoveAll(s.dir)
		s.dir = ""
	}
	return err
}

// counters reads the session's control group counters; nil with rlimits
// only, or when they cannot be read (then no limit is reported).
func (s *session) counters() *cgroup.Counters {
	if s.cg == nil {
		return nil
	}
	c, err := s.cg.Counters()
	if err != nil {
		return nil
	}
	return &c
}

// lastWords is what the driver printed outside a cell (a crash, a fatal
// error), for the result's text.
func (s *session) lastWords() string {
	w := strings.TrimSpace(s.lastOut.String())
	if w == "" {
		return ""
	}
	return ": " + w
}

// exitOf reads the signal that ended the process, or its exit code. bwrap
// reports a sandboxed child killed by signal n as exit code 128+n.
func exitOf(err error) (syscall.Signal, int) {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return 0, 0
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	if !ok {
		return 0, ee.ExitCode()
	}
	if ws.Signaled() {
		return ws.Signal(), -1
	}
	if c := ws.ExitStatus(); c > 128 && c < 128+65 {
		return syscall.Signal(c - 128), c
	}
	return 0, ws.ExitStatus()
}

func writeFrame(w io.Writer, body []byte) error {
	var head [4]byte
	binary.BigEndian.PutUint32(head[:], uint32(len(body)))
	if _, err := w.Write(append(head[:], body...)); err != nil {
		return fmt.Errorf("python tool: sending a cell: %w", err)
	}
	return nil
}

// errBadFrame is a reply frame too long to be the driver's.
var errBadFrame = errors.New("python tool: reply frame too long")

func readFrame(r io.Reader, max int) ([]byte, error) {
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(head[:])
	if int64(n) > int64(max) {
		return nil, fmt.Errorf("%w: %d bytes, more than %d", errBadFrame, n, max)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	return body, nil
}

// capBuffer keeps the first max bytes written to it.
type capBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (c *capBuffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (c *capBuffer) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

func bytesText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB (%d bytes)", float64(n)/(1<<20), n)
	}
	return fmt.Sprintf("%d bytes", n)
}
