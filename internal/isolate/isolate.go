// Package isolate runs untrusted work in worker processes with a memory cap
// and a time limit, so that a document that makes its parser allocate
// without bound, recurse until the stack overflows or trip a Go fatal error
// (none of which recover() can catch) costs only that document.
//
// A worker is a program that calls Serve: usually the running binary
// re-executed in a hidden mode. A Pool keeps a few of them warm and reuses
// them across calls, since starting one costs about 0.1 s of CPU (exec,
// package initialisation of the whole binary, the caller's own tables); a
// worker that dies or is
// killed is replaced by the next call.
//
// Requests and replies are opaque bytes; the caller chooses their encoding.
package isolate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// DefaultMemory is the data-segment cap of a worker when Config.Memory is 0.
const DefaultMemory = 1 << 30

// envMemory carries the cap to the worker, which applies it to itself
// before it reads its first request.
const envMemory = "PAPERLENS_WORKER_MEMORY"

// hello is the first frame a worker sends: a program that does not serve
// the protocol (a wrong --worker command) is told apart from a slow one.
const hello = "paperlens-worker/1"

// Config says how to start workers.
type Config struct {
	Command []string // program and arguments of a process that calls Serve
	Env     []string // added to this process's environment for the worker
	Size    int      // workers kept alive at most; default GOMAXPROCS
	Memory  int64    // data-segment cap of each worker in bytes; default DefaultMemory
}

// Pool runs calls in worker processes. It is safe for concurrent use.
type Pool struct {
	cfg   Config
	idle  chan *worker
	slots chan struct{} // one token per live worker

	mu     sync.Mutex
	live   map[*worker]bool
	closed bool
}

// New checks that the worker program exists and returns a pool that starts
// workers as calls need them.
func New(cfg Config) (*Pool, error) {
	if len(cfg.Command) == 0 {
		return nil, errors.New("no extraction worker command configured; pass --isolate=false to extract in this process (unsafe for untrusted files)")
	}
	if _, err := exec.LookPath(cfg.Command[0]); err != nil {
		return nil, fmt.Errorf("extraction worker %s cannot be run (%w); reinstall paperlens, or pass --isolate=false to extract in this process (unsafe for untrusted files)", cfg.Command[0], err)
	}
	if cfg.Size <= 0 {
		cfg.Size = runtime.GOMAXPROCS(0)
	}
	if cfg.Memory <= 0 {
		cfg.Memory = DefaultMemory
	}
	return &Pool{cfg: cfg, idle: make(chan *worker, cfg.Size), slots: make(chan struct{}, cfg.Size), live: map[*worker]bool{}}, nil
}

// Size is the most workers the pool keeps.
func (p *Pool) Size() int { return p.cfg.Size }

// Close kills every worker. Calls in flight fail.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closed = true
	ws := make([]*worker, 0, len(p.live))
	for w := range p.live {
		ws = append(ws, w)
	}
	p.mu.Unlock()
	for _, w := range ws {
		w.kill()
	}
	// Reaped, so that a long run closing pools leaves no zombies.
	for _, w := range ws {
		w.wait()
	}
	return nil
}

// StartLimit bounds a worker's start-up, which does not count against a
// call's time limit: a document is not to blame for a slow machine.
const StartLimit = time.Minute

// Call sends req to a worker and returns its reply. The request is the
// concatenation of its parts, which are written one after the other rather
// than joined: a caller can send a header and a document's bytes without
// copying the document. The worker has timeout from the moment it is
// handed the request; a worker that does not answer in time is killed. A
// worker that dies comes back as a *Failure.
func (p *Pool) Call(ctx context.Context, timeout time.Duration, req ...[]byte) ([]byte, error) {
	if timeout <= 0 {
		return nil, &Failure{Reason: Timeout, Timeout: timeout}
	}
	for attempt := 0; ; attempt++ {
		w, err := p.get(ctx)
		if err != nil {
			return nil, err
		}
		if !w.greeted {
			if err := p.greet(ctx, w); err != nil {
				return nil, err
			}
		}
		reply, unsent, err := p.exchange(ctx, w, timeout, req)
		// A worker that could not even take the request most likely died
		// while idle (the kernel's OOM killer, say): not this request's
		// fault, so it gets one more worker.
		if unsent && attempt == 0 {
			continue
		}
		return reply, err
	}
}

// sendError is a request that could not be written to a worker.
type sendError struct{ err error }

func (e *sendError) Error() string { return "send to the extraction worker: " + e.err.Error() }
func (e *sendError) Unwrap() error { return e.err }

// exchange sends req to w and waits for the reply, within timeout; unsent
// says the worker was gone before it had the whole request.
func (p *Pool) exchange(ctx context.Context, w *worker, timeout time.Duration, req [][]byte) (reply []byte, unsent bool, err error) {
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type result struct {
		reply []byte
		err   error
	}
	done := make(chan result, 1)
	go func() {
		reply, err := w.roundTrip(req)
		done <- result{reply, err}
	}()
	select {
	case r := <-done:
		if r.err == nil {
			p.put(w)
			return r.reply, false, nil
		}
		var se *sendError
		unsent = errors.As(r.err, &se)
		return nil, unsent, p.bury(w, r.err, timeout, false)
	case <-tctx.Done():
		w.kill()
		<-done
		if ctx.Err() != nil {
			p.bury(w, nil, timeout, true)
			return nil, false, ctx.Err()
		}
		return nil, false, p.bury(w, nil, timeout, true)
	}
}

// greet waits for a new worker's hello.
func (p *Pool) greet(ctx context.Context, w *worker) error {
	done := make(chan error, 1)
	go func() {
		b, err := readFrame(w.out)
		if err == nil && string(b) != hello {
			err = errNotWorker
		}
		done <- err
	}()
	t := time.NewTimer(StartLimit)
	defer t.Stop()
	select {
	case err := <-done:
		if err != nil {
			return p.bury(w, err, 0, false)
		}
		w.greeted = true
		return nil
	case <-t.C:
		w.kill()
		<-done
		p.bury(w, nil, 0, true)
		return &Failure{Reason: NotWorker, Detail: fmt.Sprintf("no greeting within %s", StartLimit)}
	case <-ctx.Done():
		w.kill()
		<-done
		p.bury(w, nil, 0, true)
		return ctx.Err()
	}
}

// get hands out an idle worker, or starts one when fewer than Size live.
func (p *Pool) get(ctx context.Context) (*worker, error) {
	select {
	case w := <-p.idle:
		return w, nil
	default:
	}
	select {
	case w := <-p.idle:
		return w, nil
	case p.slots <- struct{}{}:
		w, err := p.start()
		if err != nil {
			<-p.slots
			return nil, err
		}
		return w, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *Pool) put(w *worker) {
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if closed {
		p.bury(w, nil, 0, true)
		return
	}
	p.idle <- w
}

// bury waits for a dead or killed worker, frees its slot and says why it
// died.
func (p *Pool) bury(w *worker, ioErr error, timeout time.Duration, killed bool) error {
	if !killed {
		// The pipe broke or the worker sent garbage: it is dead or dying;
		// make sure, so Wait returns.
		w.kill()
	}
	state := w.wait()
	p.mu.Lock()
	delete(p.live, w)
	p.mu.Unlock()
	<-p.slots
	if killed {
		return &Failure{Reason: Timeout, Timeout: timeout}
	}
	return w.failure(state, ioErr, p.cfg.Memory)
}

func (p *Pool) start() (*worker, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errors.New("extraction worker pool is closed")
	}
	p.mu.Unlock()
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start extraction worker: %w", err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, fmt.Errorf("start extraction worker: %w", err)
	}
	c := exec.Command(p.cfg.Command[0], p.cfg.Command[1:]...)
	c.Env = append(append(os.Environ(), p.cfg.Env...), envMemory+"="+strconv.FormatInt(p.cfg.Memory, 10))
	c.ExtraFiles = []*os.File{reqR, respW} // fds 3 and 4 in the worker
	log := &crashLog{}
	// Whatever a worker prints is kept only to tell why it died: a Go
	// fatal error's goroutine dump is not for the user's terminal.
	c.Stdout, c.Stderr = log, log
	c.SysProcAttr = sysProcAttr()
	if err := c.Start(); err != nil {
		reqR.Close()
		reqW.Close()
		respR.Close()
		respW.Close()
		return nil, fmt.Errorf("start extraction worker %s: %w; pass --isolate=false to extract in this process (unsafe for untrusted files)", p.cfg.Command[0], err)
	}
	reqR.Close()
	respW.Close()
	w := &worker{cmd: c, in: reqW, out: bufio.NewReaderSize(respR, 64<<10), outFile: respR, log: log, waited: make(chan struct{})}
	p.mu.Lock()
	p.live[w] = true
	p.mu.Unlock()
	return w, nil
}

// worker is one child process and its pipes.
type worker struct {
	cmd     *exec.Cmd
	in      *os.File
	out     *bufio.Reader
	outFile *os.File
	log     *crashLog
	greeted bool

	killOnce sync.Once
	waitOnce sync.Once
	waited   chan struct{}
	state    *os.ProcessState
}

func (w *worker) roundTrip(req [][]byte) ([]byte, error) {
	if err := writeFrame(w.in, req...); err != nil {
		return nil, &sendError{err}
	}
	return readFrame(w.out)
}

var errNotWorker = errors.New("not an extraction worker")

func (w *worker) kill() {
	w.killOnce.Do(func() {
		_ = w.cmd.Process.Kill()
		w.in.Close()
	})
}

func (w *worker) wait() *os.ProcessState {
	w.waitOnce.Do(func() {
		_ = w.cmd.Wait()
		w.state = w.cmd.ProcessState
		w.outFile.Close()
		close(w.waited)
	})
	<-w.waited
	return w.state
}

// failure reads why a worker died from its exit status and its last words.
func (w *worker) failure(st *os.ProcessState, ioErr error, memory int64) *Failure {
	f := &Failure{Memory: memory, Detail: w.log.summary()}
	if st != nil {
		f.Detail = strings.TrimSpace(st.String() + "; " + f.Detail)
	}
	fatal := w.log.fatal()
	switch {
	case errors.Is(ioErr, errNotWorker) || (!w.greeted && fatal == ""):
		f.Reason = NotWorker
	case strings.Contains(fatal, "out of memory") || strings.Contains(fatal, "cannot allocate memory") ||
		strings.Contains(fatal, "ThreadSanitizer failed to allocate"):
		f.Reason = OutOfMemory
	case strings.Contains(fatal, "stack overflow") || strings.Contains(fatal, "stack exceeds"):
		f.Reason = StackOverflow
	case fatal == "" && signalled(st) == "killed":
		// SIGKILL from outside this pool: on Linux, most often the
		// kernel's OOM killer when the machine itself runs short.
		f.Reason = Killed
	case nearCap(st, memory):
		// The runtime does not always say it ran out: when an mmap
		// fails at the cap it may die of SIGSEGV instead (seen in about
		// a quarter of runs of a worker allocating without bound). A
		// worker whose peak resident set reached most of its cap ran
		// out, whatever its last words.
		f.Reason = OutOfMemory
	default:
		f.Reason = Crash
	}
	return f
}

// nearCap reports whether a dead worker's peak resident set reached half
// of its memory cap: the cap counts mapped memory, of which the runtime's
// reservations and the failing request are not resident yet.
func nearCap(st *os.ProcessState, memory int64) bool {
	if st == nil || memory <= 0 {
		return false
	}
	ru, ok := st.SysUsage().(*syscall.Rusage)
	return ok && ru.Maxrss*1024 >= memory/2 // Maxrss is in KiB on Linux
}

// Reason is why a worker failed a call.
type Reason int

const (
	Crash         Reason = iota // fatal error, unrecovered panic or signal
	OutOfMemory                 // needed more than the cap
	StackOverflow               // recursion too deep
	Timeout                     // killed at the time limit
	NotWorker                   // the command does not serve the protocol
	Killed                      // SIGKILL from outside the pool
)

// Failure is a call whose worker died. Its message is for people; Detail
// (exit status, the fatal error's first line) is for bug reports and logs.
type Failure struct {
	Reason  Reason
	Memory  int64
	Timeout time.Duration
	Detail  string
}

func (f *Failure) Error() string {
	switch f.Reason {
	case OutOfMemory:
		return fmt.Sprintf("needs more than %s of memory", FormatBytes(f.Memory))
	case StackOverflow:
		return "nested too deeply"
	case Timeout:
		return fmt.Sprintf("timed out after %s", f.Timeout)
	case NotWorker:
		return "the extraction worker did not start (" + f.Detail + ")"
	case Killed:
		return "was killed by the system while being parsed (most often for lack of memory)"
	}
	return "crashed the parser"
}

// Unwrap lets errors.Is(err, context.DeadlineExceeded) find a time-out.
func (f *Failure) Unwrap() error {
	if f.Reason == Timeout {
		return context.DeadlineExceeded
	}
	return nil
}

// FormatBytes prints a size the way the flags take it: 1 GiB, 200 MB,
// 1.5 MiB.
func FormatBytes(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 40, "TiB"}, {1e12, "TB"}, {1 << 30, "GiB"}, {1e9, "GB"}, {1 << 20, "MiB"}, {1e6, "MB"}, {1 << 10, "KiB"}, {1e3, "kB"}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		}
	}
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n >= u.size {
			return strconv.FormatFloat(float64(n)/float64(u.size), 'f', 1, 64) + " " + u.name
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// ParseBytes reads a size: a number of bytes, or one with a unit (kB, MB,
// GB, TB in powers of 1000; KiB, MiB, GiB, TiB in powers of 1024).
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := t, ""
	if i >= 0 {
		num, unit = t[:i], strings.TrimSpace(t[i:])
	}
	mult := map[string]float64{"": 1, "b": 1, "k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9, "t": 1e12, "tb": 1e12,
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40}[strings.ToLower(unit)]
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || mult == 0 || v <= 0 || v*mult > 1<<62 {
		return 0, fmt.Errorf("size %q: want a positive number of bytes with an optional unit, e.g. 512MiB, 1GiB or 200MB", s)
	}
	return int64(v * mult), nil
}

func signalled(st *os.ProcessState) string {
	if st == nil {
		return ""
	}
	s := st.String()
	if strings.HasPrefix(s, "signal: ") {
		return strings.TrimPrefix(s, "signal: ")
	}
	return ""
}

// crashLog keeps the lines of a worker's output that tell why it died, and
// the first few others, and drops the rest (a fatal error dumps every
// goroutine's stack).
type crashLog struct {
	mu      sync.Mutex
	partial []byte
	fatals  []string
	others  []string
}

func (l *crashLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(b)
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			if len(l.partial) < 4096 {
				l.partial = append(l.partial, b[:min(len(b), 4096-len(l.partial))]...)
			}
			break
		}
		line := string(append(l.partial, b[:i]...))
		l.partial = l.partial[:0]
		b = b[i+1:]
		l.line(line)
	}
	return n, nil
}

func (l *crashLog) line(s string) {
	if len(s) > 300 {
		s = s[:300]
	}
	switch {
	case strings.HasPrefix(s, "fatal error:"), strings.HasPrefix(s, "panic:"),
		strings.HasPrefix(s, "runtime: out of memory"), strings.Contains(s, "stack exceeds"),
		// A -race build maps ThreadSanitizer's shadow of every mapping,
		// so at the cap it can be that allocation which fails first.
		strings.Contains(s, "ThreadSanitizer") && strings.Contains(s, "allocat"):
		if len(l.fatals) < 8 {
			l.fatals = append(l.fatals, s)
		}
	case len(l.others) < 4 && strings.TrimSpace(s) != "":
		l.others = append(l.others, s)
	}
}

func (l *crashLog) fatal() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.fatals, "\n")
}

func (l *crashLog) summary() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.fatals) > 0 {
		return l.fatals[0]
	}
	if len(l.others) > 0 {
		return l.others[0]
	}
	return ""
}

// maxFrame bounds a frame so that a corrupt length cannot make the reader
// allocate without bound.
const maxFrame = 1 << 32

// writeFrame writes one frame holding the concatenation of parts.
func writeFrame(w io.Writer, parts ...[]byte) error {
	var n int
	for _, b := range parts {
		n += len(b)
	}
	var h [8]byte
	binary.BigEndian.PutUint64(h[:], uint64(n))
	if _, err := w.Write(h[:]); err != nil {
		return err
	}
	for _, b := range parts {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

func readFrame(r io.Reader) ([]byte, error) {
	var h [8]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint64(h[:])
	if n > maxFrame {
		return nil, fmt.Errorf("frame of %d bytes", n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	return b, nil
}
