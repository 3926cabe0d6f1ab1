package isolate

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"syscall"
)

// IsWorker reports whether this process was started by a Pool.
func IsWorker() bool { return os.Getenv(envMemory) != "" }

// Serve is the worker's main loop: it caps its own memory, greets the pool,
// then answers requests with handle until the pool closes the pipe. It
// returns nil on a clean end. handle runs on one goroutine, one request at a
// time; a panic that escapes it kills the worker, which the pool reports as
// a crash.
func Serve(handle func(req []byte) []byte) error {
	if !IsWorker() {
		return errors.New("this is the extraction worker mode, which paperlens starts by itself; it is not for use from the command line")
	}
	limit, err := strconv.ParseInt(os.Getenv(envMemory), 10, 64)
	if err != nil || limit <= 0 {
		return fmt.Errorf("%s=%q: want a size in bytes", envMemory, os.Getenv(envMemory))
	}
	if err := capMemory(limit); err != nil {
		return err
	}
	in := os.NewFile(3, "requests")
	out := os.NewFile(4, "replies")
	if in == nil || out == nil {
		return errors.New("extraction worker started without its pipes")
	}
	r := bufio.NewReaderSize(in, 64<<10)
	if err := writeFrame(out, []byte(hello)); err != nil {
		return err
	}
	for {
		req, err := readFrame(r)
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := writeFrame(out, handle(req)); err != nil {
			return err
		}
	}
}

// capMemory bounds the worker's data segment. RLIMIT_DATA, not RLIMIT_AS:
// measured on linux/amd64 with Go 1.26, a cgo-linked Go binary has a
// virtual size of about 1.4 GiB before main runs (the runtime's address
// space reservations, glibc's arenas), so a 1 GiB RLIMIT_AS kills it at its
// first allocation, while RLIMIT_DATA counts only the memory actually
// mapped writable and let a test heap grow to 950 MiB under a 1 GiB cap
// before the runtime died with "out of memory". The soft Go limit makes the
// collector work harder before that point, so garbage alone never reaches
// the cap; the stack limit turns runaway recursion into a stack overflow
// rather than an out-of-memory.
func capMemory(limit int64) error {
	data := uint64(limit) * raceDataFactor
	lim := &syscall.Rlimit{Cur: data, Max: data}
	if err := syscall.Setrlimit(syscall.RLIMIT_DATA, lim); err != nil {
		return fmt.Errorf("extraction worker: set its %s memory cap: %w", FormatBytes(limit), err)
	}
	debug.SetMemoryLimit(limit * 7 / 10)
	debug.SetMaxStack(int(min(limit/8, 256<<20)))
	return nil
}
