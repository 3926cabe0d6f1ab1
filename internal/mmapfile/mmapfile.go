// Package mmapfile maps index files read-only, for the stores that search
// files in place (the Okapi file, the dense segments): the pages are the
// kernel's page cache, so opening costs no read and no heap whatever the
// file's size, every process searching one home shares one copy, and a
// search faults in only what it touches.
//
// The mapping itself is github.com/edsrzf/mmap-go's (Unix and Windows);
// this package adds what both callers need: an empty file maps to nil, and
// a file larger than the address space is an error, not a truncation.
package mmapfile

import (
	"fmt"
	"os"

	mmap "github.com/edsrzf/mmap-go"
)

// Map maps the first size bytes of f read-only. The returned function
// unmaps them; the bytes must not be used after it is called. Callers
// never change a mapped file in place (writers rename a new file over
// it), so a mapping never sees its file shrink.
func Map(f *os.File, size int64) ([]byte, func() error, error) {
	if size == 0 {
		return nil, func() error { return nil }, nil
	}
	if size < 0 || int64(int(size)) != size {
		return nil, nil, fmt.Errorf("mmap %s: %d bytes do not fit this platform's address space", f.Name(), size)
	}
	m, err := mmap.MapRegion(f, int(size), mmap.RDONLY, 0, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("mmap %s: %w", f.Name(), err)
	}
	return m, m.Unmap, nil
}
