//go:build unix

package bm25

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps f read-only. The pages are the page cache's: opening costs
// no read and no heap whatever the file's size, and searches fault in only
// what they touch. Writers never change a file in place (they rename a new
// one over it), so a mapping never sees a file shrink under it.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	if size == 0 {
		return nil, func() error { return nil }, nil
	}
	if int64(int(size)) != size {
		return nil, nil, fmt.Errorf("file of %d bytes is too large to map", size)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("mmap: %w", err)
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}
