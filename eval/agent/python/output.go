package python

import (
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// output is one of a session's output pipes, the cells' stdout or stderr.
// It is read for as long as the session lives, so that nothing a cell
// prints can block the cell or fill memory or a folder: of each cell at
// most max bytes are kept, the first ones and a few of the last (where a
// result printed after a flood is), and the rest only counted. What
// arrives between cells (from a process a cell left running) is discarded.
//
// Every read from the pipe happens with mu held, by the reading goroutine
// or by begin and end, so that end knows that whatever the pipe held when
// it was called has been counted.
type output struct {
	f       *os.File
	rc      syscall.RawConn
	headMax int // bytes kept of the start
	tailMax int // bytes kept of the end
	closing atomic.Bool

	mu    sync.Mutex
	on    bool   // a cell runs: what is read is its output
	head  []byte // the first headMax bytes
	tail  []byte // the last tailMax bytes after head (capacity 2*tailMax)
	total int64
	buf   []byte
}

// drainLimit bounds how much begin and end read at once: more than a pipe
// holds, so that all a finished cell wrote is read, but a bound, so that a
// background process writing without end cannot keep them reading.
const drainLimit = 4 << 20

// headTail splits the max bytes kept of an output between its start and
// its end: a sixteenth of it (1 KiB of 16) holds the end.
func headTail(max int) (head, tail int) {
	return max - max/16, max / 16
}

func newOutput(f *os.File, max int) (*output, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	// Go's pipes are non-blocking already; the reads below rely on it.
	var nbErr error
	if err := rc.Control(func(fd uintptr) { nbErr = syscall.SetNonblock(int(fd), true) }); err != nil {
		return nil, err
	}
	if nbErr != nil {
		return nil, nbErr
	}
	headMax, tailMax := headTail(max)
	o := &output{f: f, rc: rc, headMax: headMax, tailMax: tailMax,
		head: make([]byte, 0, headMax), tail: make([]byte, 0, 2*tailMax), buf: make([]byte, 64<<10)}
	go o.loop()
	return o, nil
}

// loop reads until every writer is gone or the pipe is closed.
func (o *output) loop() {
	_ = o.rc.Read(func(fd uintptr) bool {
		for !o.closing.Load() {
			o.mu.Lock()
			_, more, err := o.readOnce(int(fd))
			o.mu.Unlock()
			if err != nil {
				return true
			}
			if !more {
				return false // empty: wait until it is readable again
			}
		}
		return true
	})
}

// readOnce reads what one read gets: more is false when the pipe was empty,
// err io.EOF once every writer is gone. Called with mu held.
func (o *output) readOnce(fd int) (n int, more bool, err error) {
	for {
		n, err = syscall.Read(fd, o.buf)
		if err != syscall.EINTR {
			break
		}
	}
	switch {
	case err == syscall.EAGAIN:
		return 0, false, nil
	case err != nil:
		return 0, false, err
	case n == 0:
		return 0, false, io.EOF
	}
	if o.on {
		o.keep(o.buf[:n])
	}
	return n, true, nil
}

// keep counts p and keeps what belongs to the head or the tail.
func (o *output) keep(p []byte) {
	o.total += int64(len(p))
	room := o.headMax - len(o.head)
	if room > 0 {
		n := min(room, len(p))
		o.head = append(o.head, p[:n]...)
		p = p[n:]
	}
	switch {
	case len(p) >= o.tailMax:
		o.tail = append(o.tail[:0], p[len(p)-o.tailMax:]...)
	default:
		o.tail = append(o.tail, p...) // within its capacity of 2*tailMax
		if extra := len(o.tail) - o.tailMax; extra > 0 {
			o.tail = o.tail[:copy(o.tail, o.tail[extra:])]
		}
	}
}

// drain reads what the pipe holds now. Called with mu held.
func (o *output) drain() {
	_ = o.rc.Control(func(fd uintptr) {
		for read := 0; read < drainLimit; {
			n, more, err := o.readOnce(int(fd))
			if err != nil || !more {
				return
			}
			read += n
		}
	})
}

// begin starts a cell: what the pipe holds from before is discarded.
func (o *output) begin() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.on = false
	o.drain()
	o.head, o.tail, o.total, o.on = o.head[:0], o.tail[:0], 0, true
}

// cellOutput is what a cell wrote to one pipe: all of it when Total is
// len(Head), else its start, its end and its size.
type cellOutput struct {
	Head, Tail string
	Total      int64
}

// end ends a cell, once the driver has replied: all the cell wrote is in
// the pipe or read already.
func (o *output) end() cellOutput {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.drain()
	o.on = false
	text := func(b []byte) string { return strings.ToValidUTF8(string(b), "\uFFFD") }
	if o.total <= int64(len(o.head)+len(o.tail)) {
		// Nothing was cut: one text, so that a character split between
		// head and tail stays whole.
		whole := append(append([]byte(nil), o.head...), o.tail...)
		return cellOutput{Head: text(whole), Total: o.total}
	}
	return cellOutput{Head: text(o.head), Tail: text(o.tail), Total: o.total}
}

// close stops the reading; Close waits for a read under way.
func (o *output) close() {
	o.closing.Store(true)
	o.f.Close()
}
