// Package cgroup holds a group of processes, and every process they start,
// to one memory budget and one process count, with Linux control groups.
//
// Detect finds what this process may use, in order of preference:
//
//   - cgroup v2, where the process's own control group or its parent is
//     writable and already enables the memory and pids controllers for its
//     children (cgroup.subtree_control). A child is started straight into
//     its group (clone3 with CLONE_INTO_CGROUP).
//   - the cgroup v1 memory and pids hierarchies, where writable. v1 cannot
//     start a child inside a group, so the child is a /bin/sh that joins
//     the group and then execs the real program: nothing of the program
//     ever runs outside the group.
//   - nothing (None), with the reason; the caller falls back on rlimits.
//
// Each Group is a fresh folder named after this process (Prefix-pid-n),
// made under this process's own control group so that limits set above
// it still apply, and removed by Close after killing whatever is left in
// it. The package imports nothing of its caller.
package cgroup

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Prefix starts the name of every group this package makes.
const Prefix = "paperlens"

// Version is the kind of control group a Place makes.
type Version int

const (
	None Version = iota // no usable control group
	V1                  // the cgroup v1 memory and pids hierarchies
	V2                  // the unified cgroup v2 hierarchy
)

func (v Version) String() string {
	switch v {
	case V1:
		return "cgroup v1"
	case V2:
		return "cgroup v2"
	}
	return "none"
}

// Limits are what a group's processes may use together.
type Limits struct {
	// Memory is the bytes of memory of all processes together, files they
	// keep in a tmpfs included. Swap is held to zero where the kernel has
	// a control for it (v2 memory.swap.max, v1 memory.memsw.limit_in_bytes).
	Memory int64
	// Processes is the number of tasks, threads included, alive at once.
	Processes int
}

// Place is where this process can make groups: the parent folder(s).
type Place struct {
	Version Version
	// Parents is one folder for V2; the memory then the pids folder for V1.
	Parents []string
	// Why says, when Version is None, why no control group can be used.
	Why string
}

// Detect finds where this process can make groups, by making (and
// removing) a small probe group with both limits set: a folder that only
// looks writable is not enough.
func Detect() Place {
	mi, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return Place{Why: fmt.Sprintf("cannot read /proc/self/mountinfo (%v): control groups need Linux with /proc mounted", err)}
	}
	pc, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return Place{Why: fmt.Sprintf("cannot read /proc/self/cgroup: %v", err)}
	}
	cands := candidates(parseMountinfo(string(mi)), parseProcCgroup(string(pc)))
	var why []string
	for _, c := range cands {
		if c.why != "" {
			why = append(why, c.why)
			continue
		}
		g, err := c.place.New(Limits{Memory: 64 << 20, Processes: 8})
		if err != nil {
			why = append(why, fmt.Sprintf("%s at %s: %v", c.place.Version, strings.Join(c.place.Parents, " and "), err))
			continue
		}
		if err := g.Close(); err != nil {
			why = append(why, fmt.Sprintf("%s at %s: removing the probe group: %v", c.place.Version, strings.Join(c.place.Parents, " and "), err))
			continue
		}
		return c.place
	}
	if len(why) == 0 {
		why = append(why, "no cgroup2 nor cgroup v1 memory and pids hierarchy is mounted")
	}
	return Place{Why: strings.Join(why, "; ")}
}

// mount is one line of /proc/self/mountinfo that matters here.
type mount struct {
	root, point, fstype string
	opts                []string // super options: the v1 controllers
}

func parseMountinfo(text string) []mount {
	var ms []mount
	for line := range strings.Lines(text) {
		pre, post, ok := strings.Cut(strings.TrimSpace(line), " - ")
		if !ok {
			continue
		}
		f, g := strings.Fields(pre), strings.Fields(post)
		if len(f) < 5 || len(g) < 3 {
			continue
		}
		ms = append(ms, mount{root: unescape(f[3]), point: unescape(f[4]), fstype: g[0], opts: strings.Split(g[2], ",")})
	}
	return ms
}

// unescape undoes mountinfo's octal escapes of space, tab, newline and \.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// procCgroup is /proc/self/cgroup: the v2 path and each v1 controller's.
type procCgroup struct {
	v2    string
	hasV2 bool
	v1    map[string]string
}

func parseProcCgroup(text string) procCgroup {
	pc := procCgroup{v1: map[string]string{}}
	for line := range strings.Lines(text) {
		f := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(f) != 3 {
			continue
		}
		if f[0] == "0" && f[1] == "" {
			pc.v2, pc.hasV2 = f[2], true
			continue
		}
		for _, c := range strings.Split(f[1], ",") {
			pc.v1[c] = f[2]
		}
	}
	return pc
}

// dirOf is the folder of control group path p in a hierarchy mounted as m.
func dirOf(m mount, p string) string {
	rel, ok := strings.CutPrefix(p, m.root)
	if m.root == "/" {
		rel, ok = p, true
	}
	if !ok {
		// The group is outside what is mounted (another cgroup namespace):
		// the mount's own root is the nearest folder we can see.
		return m.point
	}
	d := filepath.Join(m.point, rel)
	if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
		return m.point
	}
	return d
}

// candidate is a Place to probe, or why a hierarchy cannot serve.
type candidate struct {
	place Place
	why   string
}

// candidates lists the places to probe, best first: v2 at this process's
// group and at its parent where the memory and pids controllers are
// enabled for children; then v1 at this process's memory and pids groups.
func candidates(ms []mount, pc procCgroup) []candidate {
	var out []candidate
	for _, m := range ms {
		if m.fstype != "cgroup2" || !pc.hasV2 {
			continue
		}
		own := dirOf(m, pc.v2)
		dirs := []string{own}
		if own != m.point {
			dirs = append(dirs, filepath.Dir(own))
		}
		for _, d := range dirs {
			sc, err := os.ReadFile(filepath.Join(d, "cgroup.subtree_control"))
			ctl := strings.Fields(string(sc))
			switch {
			case err != nil:
				out = append(out, candidate{why: fmt.Sprintf("cgroup v2 at %s: %v", d, err)})
			case !slices.Contains(ctl, "memory") || !slices.Contains(ctl, "pids"):
				out = append(out, candidate{why: fmt.Sprintf("cgroup v2 at %s does not enable memory and pids for its children (cgroup.subtree_control: %q)", d, strings.TrimSpace(string(sc)))})
			default:
				out = append(out, candidate{place: Place{Version: V2, Parents: []string{d}}})
			}
		}
		break
	}
	var mem, pids string
	for _, m := range ms {
		if m.fstype != "cgroup" {
			continue
		}
		if mem == "" && slices.Contains(m.opts, "memory") {
			mem = dirOf(m, pc.v1["memory"])
		}
		if pids == "" && slices.Contains(m.opts, "pids") {
			pids = dirOf(m, pc.v1["pids"])
		}
	}
	switch {
	case mem != "" && pids != "":
		out = append(out, candidate{place: Place{Version: V1, Parents: []string{mem, pids}}})
	case mem != "" || pids != "":
		out = append(out, candidate{why: "cgroup v1: the memory and pids hierarchies are not both mounted"})
	}
	return out
}

// Group is one control group (V2) or a memory group and a pids group (V1).
type Group struct {
	version Version
	dirs    []string // V2: one; V1: memory, pids
	limits  Limits

	closeOnce sync.Once
	closeErr  error
}

var seq atomic.Int64

// New makes a group with limits l under the place's parents. Groups of
// this package left by processes that are gone (a crash) are removed
// first, where empty.
func (p Place) New(l Limits) (*Group, error) {
	if p.Version == None {
		return nil, fmt.Errorf("cgroup: no control group can be made here: %s", p.Why)
	}
	if l.Memory <= 0 || l.Processes <= 0 {
		return nil, fmt.Errorf("cgroup: limits must be positive, not %d bytes and %d processes", l.Memory, l.Processes)
	}
	name := fmt.Sprintf("%s-%d-%d", Prefix, os.Getpid(), seq.Add(1))
	g := &Group{version: p.Version, limits: l}
	for _, parent := range p.Parents {
		sweep(parent)
		d := filepath.Join(parent, name)
		if err := os.Mkdir(d, 0o755); err != nil {
			g.remove()
			return nil, fmt.Errorf("cgroup: making a control group (is %s writable, by root or by delegation?): %w", parent, err)
		}
		g.dirs = append(g.dirs, d)
	}
	if err := g.setLimits(); err != nil {
		g.remove()
		return nil, err
	}
	return g, nil
}

func (g *Group) setLimits() error {
	mem, procs := strconv.FormatInt(g.limits.Memory, 10), strconv.Itoa(g.limits.Processes)
	type setting struct {
		dir, file, value string
		optional         bool // absent where the kernel lacks it
	}
	var ss []setting
	switch g.version {
	case V2:
		d := g.dirs[0]
		ss = []setting{
			{d, "memory.max", mem, false},
			{d, "memory.swap.max", "0", true},
			{d, "pids.max", procs, false},
		}
	case V1:
		// memsw (memory plus swap) may not be below the memory limit, so
		// it is set after it.
		ss = []setting{
			{g.dirs[0], "memory.limit_in_bytes", mem, false},
			{g.dirs[0], "memory.memsw.limit_in_bytes", mem, true},
			{g.dirs[1], "pids.max", procs, false},
		}
	}
	for _, s := range ss {
		err := write(filepath.Join(s.dir, s.file), s.value)
		if s.optional && errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("cgroup: setting %s to %s: %w", s.file, s.value, err)
		}
	}
	return nil
}

// write writes to a control file that must exist: a control group's
// files are made by the kernel, never by us.
func write(path, value string) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(value)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// sweep removes the empty groups of this package under parent whose
// process is gone: a paperlens that crashed cannot have removed its own.
func sweep(parent string) {
	es, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range es {
		rest, ok := strings.CutPrefix(e.Name(), Prefix+"-")
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() || syscall.Kill(pid, 0) != syscall.ESRCH {
			continue
		}
		_ = os.Remove(filepath.Join(parent, e.Name())) // fails, as it should, if not empty
	}
}

// Version is the group's kind.
func (g *Group) Version() Version { return g.version }

// Dirs are the group's folders: one for V2, the memory then the pids
// folder for V1.
func (g *Group) Dirs() []string { return slices.Clone(g.dirs) }

// Limits are the group's limits.
func (g *Group) Limits() Limits { return g.limits }

// joinScript is the V1 wrapper's program: sh moves itself into the groups
// named by its first two arguments, then becomes the rest. A failed move
// ends it before the program runs.
const joinScript = `for f in "$1" "$2"; do echo $$ > "$f" || { echo "paperlens: could not join the control group $f; the program was not started" >&2; exit 125; }; done; shift 2; exec "$@"`

// Shell is the V1 wrapper's shell.
const Shell = "/bin/sh"

// Wrap returns the program and arguments that run argv inside the group:
// argv itself for V2 (whose child starts in the group through Start), the
// joining /bin/sh for V1. For showing a command line; Start does it.
func (g *Group) Wrap(argv []string) []string {
	if g.version != V1 {
		return argv
	}
	return WrapV1(filepath.Join(g.dirs[0], "cgroup.procs"), filepath.Join(g.dirs[1], "cgroup.procs"), argv)
}

// WrapV1 is the V1 wrapper around argv, with the two cgroup.procs files.
func WrapV1(memProcs, pidsProcs string, argv []string) []string {
	return append([]string{Shell, "-c", joinScript, "sh", memProcs, pidsProcs}, argv...)
}

// Start starts cmd inside the group: for V2 through CgroupFD, for V1
// through the joining /bin/sh, whose exec keeps cmd's process id, files,
// environment and SysProcAttr.
func (g *Group) Start(cmd *exec.Cmd) error {
	if cmd.Process != nil {
		return errors.New("cgroup: Start of a command already started")
	}
	switch g.version {
	case V2:
		dir, err := os.Open(g.dirs[0])
		if err != nil {
			return fmt.Errorf("cgroup: opening the group to start a process in it: %w", err)
		}
		defer dir.Close()
		if cmd.SysProcAttr == nil {
			cmd.SysProcAttr = &syscall.SysProcAttr{}
		}
		if err := intoCgroup(cmd.SysProcAttr, int(dir.Fd())); err != nil {
			return err
		}
	case V1:
		if cmd.Err != nil {
			return cmd.Err
		}
		argv := append([]string{cmd.Path}, cmd.Args[1:]...)
		cmd.Path = Shell
		cmd.Args = g.Wrap(argv)
		cmd.Args[0] = "sh"
	default:
		return errors.New("cgroup: Start on a group of no kind")
	}
	return cmd.Start()
}

// Counters are a group's event counts and memory use. A count the kernel
// does not keep is -1.
type Counters struct {
	// OOMKills counts processes the kernel killed at the memory limit.
	OOMKills int64
	// MemoryMax counts the times use reached the memory limit, whether or
	// not reclaiming memory then sufficed (v1 memory.failcnt plus
	// memory.memsw.failcnt, v2 memory.events max).
	MemoryMax int64
	// ForksRefused counts forks refused at the process limit.
	ForksRefused int64
	// Peak is the highest memory use seen, in bytes; Memory the current.
	Peak, Memory int64
	// Processes is the number of tasks now in the group.
	Processes int64
}

// Counters reads the group's counters.
func (g *Group) Counters() (Counters, error) {
	c := Counters{OOMKills: -1, MemoryMax: -1, ForksRefused: -1, Peak: -1, Memory: -1, Processes: -1}
	var memDir, pidsDir string
	var errs []error
	switch g.version {
	case V2:
		memDir, pidsDir = g.dirs[0], g.dirs[0]
		ev, err := keyed(filepath.Join(memDir, "memory.events"))
		errs = append(errs, err)
		c.OOMKills, c.MemoryMax = field(ev, "oom_kill"), field(ev, "max")
		c.Peak = number(filepath.Join(memDir, "memory.peak"))
		c.Memory = number(filepath.Join(memDir, "memory.current"))
	case V1:
		memDir, pidsDir = g.dirs[0], g.dirs[1]
		oc, err := keyed(filepath.Join(memDir, "memory.oom_control"))
		errs = append(errs, err)
		c.OOMKills = field(oc, "oom_kill")
		// With swap accounted, memory plus swap is charged first, and the
		// failure counted there when both limits are equal.
		c.MemoryMax = number(filepath.Join(memDir, "memory.failcnt"))
		if sw := number(filepath.Join(memDir, "memory.memsw.failcnt")); sw > 0 && c.MemoryMax >= 0 {
			c.MemoryMax += sw
		}
		c.Peak = number(filepath.Join(memDir, "memory.max_usage_in_bytes"))
		c.Memory = number(filepath.Join(memDir, "memory.usage_in_bytes"))
	default:
		return c, errors.New("cgroup: Counters of a group of no kind")
	}
	pe, err := keyed(filepath.Join(pidsDir, "pids.events"))
	errs = append(errs, err)
	c.ForksRefused = field(pe, "max")
	c.Processes = number(filepath.Join(pidsDir, "pids.current"))
	if err := errors.Join(errs...); err != nil {
		return c, fmt.Errorf("cgroup: reading the counters of %s: %w", g.dirs[0], err)
	}
	return c, nil
}

// keyed reads a file of "key value" lines.
func keyed(path string) (map[string]int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := map[string]int64{}
	for line := range strings.Lines(string(b)) {
		k, v, ok := strings.Cut(strings.TrimSpace(line), " ")
		if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); ok && err == nil {
			m[k] = n
		}
	}
	return m, nil
}

func field(m map[string]int64, k string) int64 {
	if v, ok := m[k]; ok {
		return v
	}
	return -1
}

// number reads a file holding one number, -1 when absent or not a number.
func number(path string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return -1
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
	if err != nil {
		return -1
	}
	return n
}

// Procs lists the processes in the group.
func (g *Group) Procs() ([]int, error) {
	var pids []int
	for _, d := range g.dirs {
		f, err := os.Open(filepath.Join(d, "cgroup.procs"))
		if err != nil {
			return nil, fmt.Errorf("cgroup: listing the processes of %s: %w", d, err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if pid, err := strconv.Atoi(strings.TrimSpace(sc.Text())); err == nil && !slices.Contains(pids, pid) {
				pids = append(pids, pid)
			}
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("cgroup: listing the processes of %s: %w", d, err)
		}
	}
	return pids, nil
}

// KillTimeout bounds how long Close waits for killed processes to leave
// the group (a process in uninterruptible sleep leaves only when its
// system call ends).
var KillTimeout = 30 * time.Second

// Close kills every process in the group, waits until the group is empty
// and every process it killed has ended, and removes the group. Forks are
// stopped first (pids.max 0), so that the kill cannot be outrun. It may be
// called more than once.
func (g *Group) Close() error {
	g.closeOnce.Do(func() { g.closeErr = g.close() })
	return g.closeErr
}

func (g *Group) close() error {
	pidsDir := g.dirs[len(g.dirs)-1]
	_ = write(filepath.Join(pidsDir, "pids.max"), "0")
	deadline := time.Now().Add(KillTimeout)
	// The killed processes, by pid and start time: a dying process leaves
	// cgroup.procs before it has ended, and its pid may be reused after.
	killed := map[int]uint64{}
	for pause := time.Millisecond; ; pause = min(2*pause, 50*time.Millisecond) {
		if g.version == V2 {
			// Kernels from 5.14 kill the whole group at once.
			_ = write(filepath.Join(g.dirs[0], "cgroup.kill"), "1")
		}
		pids, err := g.Procs()
		if err != nil {
			return err
		}
		for _, pid := range pids {
			if _, ok := killed[pid]; !ok {
				if start, alive := procStart(pid); alive {
					killed[pid] = start
				}
			}
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		for pid, start := range killed {
			if s, alive := procStart(pid); !alive || s != start {
				delete(killed, pid)
			}
		}
		if len(pids) == 0 && len(killed) == 0 {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cgroup: processes %v of %s still run %s after SIGKILL (uninterruptible sleep?); remove the folder by hand once they end", slices.Concat(pids, slices.Collect(maps.Keys(killed))), g.dirs[0], KillTimeout)
		}
		time.Sleep(pause)
	}
	return g.remove()
}

// procStart reads the start time of process pid, and whether it still
// runs: not gone, not a zombie (ended, waiting to be reaped).
func procStart(pid int) (start uint64, alive bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// Fields follow the command, in parentheses that it may itself hold:
	// the state is the 3rd field, the start time the 22nd.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return 0, false
	}
	start, _ = strconv.ParseUint(f[19], 10, 64)
	return start, f[0] != "Z" && f[0] != "X"
}

// remove removes the group's folders, empty of processes. A group whose
// last process has only just exited may still be busy for an instant.
func (g *Group) remove() error {
	var errs []error
	for _, d := range g.dirs {
		var err error
		for i := 0; i < 100; i++ {
			err = os.Remove(d)
			if err == nil || errors.Is(err, fs.ErrNotExist) {
				err = nil
				break
			}
			if !errors.Is(err, syscall.EBUSY) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("cgroup: removing %s: %w", d, err))
		}
	}
	return errors.Join(errs...)
}
