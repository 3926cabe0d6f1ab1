package python

import (
	"fmt"
	"os"
	"sync"

	"github.com/paperlens/paperlens/internal/cgroup"
)

// limiter is how a tool's sessions are held to Options.Memory and
// Options.Processes on this machine.
type limiter struct {
	place      cgroup.Place // Version None: rlimits only
	perProcess int64        // RLIMIT_AS of each process of the session
	nproc      int          // RLIMIT_NPROC the driver sets; 0: none
	sandbox    bool
	root       bool // paperlens runs as root, to whom RLIMIT_NPROC does not apply
}

// detectPlace probes for control groups once per process: the probe makes
// and removes a group.
var detectPlace = sync.OnceValue(cgroup.Detect)

// fallbackPerProcess is the least address space each process gets when
// rlimits alone bound the session: numpy and scipy take about 100 MiB of
// it once imported.
const fallbackPerProcess = 256 << 20

func newLimiter(o Options, sandbox bool) limiter {
	l := limiter{perProcess: o.Memory, sandbox: sandbox, root: os.Getuid() == 0}
	if o.noCgroup {
		l.place = cgroup.Place{Why: "control groups turned off"}
	} else {
		l.place = detectPlace()
	}
	// With a control group the group bounds the session; each process's
	// address space is capped at the whole so that a single process going
	// past it gets a MemoryError instead of the OOM killer.
	//
	// Without one, only a count of processes times a cap on each bounds
	// the session. RLIMIT_NPROC counts the processes of a real uid (within
	// the sandbox's user namespace, from Linux 5.15): it bounds nothing for
	// root, whose processes it exempts, nor without the sandbox, where
	// every process of the user would count.
	if l.place.Version != cgroup.None || !sandbox || l.root {
		return l
	}
	n := max(2, int(min(int64(o.Processes), o.Memory/fallbackPerProcess)))
	l.nproc = n
	l.perProcess = o.Memory / int64(n)
	return l
}

// name is the mechanism's short name.
func (l limiter) name() string {
	if l.place.Version == cgroup.None {
		return "rlimits"
	}
	return l.place.Version.String()
}

// guarantee says, for people, what the mechanism bounds and what not.
func (l limiter) guarantee(o Options) string {
	mem := bytesText(o.Memory)
	switch {
	case l.place.Version != cgroup.None:
		return fmt.Sprintf("%s memory+pids: the whole session, every process it starts, is held to %s of memory (its files in /session and /tmp included) and %d processes (threads included); the kernel kills a process that would go past the memory and refuses a fork past the count; each process also gets a MemoryError past %s of address space",
			l.place.Version, mem, o.Processes, bytesText(l.perProcess))
	case l.nproc > 0:
		return fmt.Sprintf("rlimits only (no control group: %s): each process is held to %s of address space and the session to %d processes (RLIMIT_NPROC, threads and the sandbox's own process included), so the session stays within %d × %s = %s of address space; its files in /session and /tmp are not counted, and on Linux before 5.15 RLIMIT_NPROC counts every process of the user running paperlens",
			l.place.Why, bytesText(l.perProcess), l.nproc, l.nproc, bytesText(l.perProcess), bytesText(int64(l.nproc)*l.perProcess))
	case l.root:
		return fmt.Sprintf("rlimits only (no control group: %s): each process is held to %s of address space, but the number of processes is NOT bounded, since paperlens runs as root, whom RLIMIT_NPROC exempts; so the session's memory as a whole is not bounded either",
			l.place.Why, bytesText(l.perProcess))
	default:
		return fmt.Sprintf("rlimits only (no control group: %s): each process is held to %s of address space, but the number of processes is NOT bounded, since without the sandbox RLIMIT_NPROC would count every process of the user; so the session's memory as a whole is not bounded either",
			l.place.Why, bytesText(l.perProcess))
	}
}

// modelText says the memory and process limits in the tool's description.
func (l limiter) modelText(o Options) string {
	switch {
	case l.place.Version != cgroup.None:
		return fmt.Sprintf("Limits of the whole session: %s of memory for all its processes together (files in /session and /tmp count), and %d processes (threads count); a process that goes past the memory is killed, and a fork past the count fails.",
			bytesText(o.Memory), o.Processes)
	case l.nproc > 0:
		return fmt.Sprintf("Limits of the whole session: %d processes (threads count), each with %s of memory (address space).",
			l.nproc, bytesText(l.perProcess))
	default:
		return fmt.Sprintf("Limits of each process: %s of memory (address space).", bytesText(l.perProcess))
	}
}

// Mechanism says how a tool made with opts holds a session's memory and
// processes on this machine: name is "cgroup v2", "cgroup v1" or
// "rlimits", and guarantee says in a sentence what is bounded and what is
// not. Control groups are probed once per process.
func Mechanism(opts Options) (name, guarantee string) {
	opts = opts.withDefaults()
	_, err := os.Stat(opts.Bwrap)
	l := newLimiter(opts, err == nil)
	return l.name(), l.guarantee(opts)
}

// Mechanism is the package's Mechanism for this tool.
func (t *Tool) Mechanism() (name, guarantee string) {
	return t.lim.name(), t.lim.guarantee(t.opts)
}
