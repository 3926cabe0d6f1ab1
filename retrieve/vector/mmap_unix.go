//go:build unix

package vector

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// mapFile maps f read-only and shared: the pages are the kernel's page
// cache, so every process searching one store shares one copy, and a
// process's heap does not grow with the corpus. An empty file maps to nil.
func mapFile(f *os.File, size int64) ([]byte, error) {
	if size == 0 {
		return nil, nil
	}
	if int64(int(size)) != size {
		return nil, fmt.Errorf("%d bytes do not fit this platform's address space", size)
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("mmap: %w", err)
	}
	return b, nil
}

func unmapFile(b []byte) error {
	if b == nil {
		return nil
	}
	return syscall.Munmap(b)
}

// lockFile takes an exclusive advisory lock on f, polling so that a writer
// stuck in another process is reported after timeout instead of hanging.
func lockFile(f *os.File, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			return err
		}
		if time.Now().After(deadline) {
			return errBusy
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// unlockFile is implied by closing f; it is explicit so the lock is
// released before the file's close error is looked at.
func unlockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
