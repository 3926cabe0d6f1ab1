//go:build !unix

package vector

import (
	"io"
	"os"
	"time"
)

// mapFile reads the file where there is no mmap: correct, but the segment
// is then on the heap.
func mapFile(f *os.File, size int64) ([]byte, error) {
	b := make([]byte, size)
	_, err := io.ReadFull(io.NewSectionReader(f, 0, size), b)
	return b, err
}

func unmapFile([]byte) error { return nil }

// Without flock, writers are not serialised across processes; paperlens's
// index lock (Bleve's) still allows only one index build at a time.
func lockFile(*os.File, time.Duration) error { return nil }

func unlockFile(*os.File) error { return nil }
