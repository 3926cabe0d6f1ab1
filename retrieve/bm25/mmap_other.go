//go:build !unix

package bm25

import (
	"io"
	"os"
)

// mapFile reads f whole where mmap is not available: the same bytes, at
// the cost of reading them at open.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}
