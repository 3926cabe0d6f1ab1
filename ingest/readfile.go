package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/paperlens/paperlens/internal/isolate"
)

// readWithin reads a regular file of at most max bytes, giving up when ctx
// ends. The read of a regular file always ends, so the goroutine left
// behind on a time-out finishes by itself.
func readWithin(ctx context.Context, path string, max int64) ([]byte, error) {
	return within(ctx, func() ([]byte, error) { return readRegular(path, max) })
}

// hashWithin is hashRegular, giving up when ctx ends.
func hashWithin(ctx context.Context, path string, max int64) (string, error) {
	b, err := within(ctx, func() ([]byte, error) {
		h, err := hashRegular(path, max)
		return []byte(h), err
	})
	return string(b), err
}

func within(ctx context.Context, read func() ([]byte, error)) ([]byte, error) {
	type res struct {
		b   []byte
		err error
	}
	done := make(chan res, 1)
	go func() {
		b, err := read()
		done <- res{b, err}
	}()
	select {
	case r := <-done:
		return r.b, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// readRegular reads path if it is a regular file of at most max bytes.
func readRegular(path string, max int64) ([]byte, error) {
	f, size, err := openRegular(path, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Read in one go into a buffer of the size the file had when opened
	// (io.ReadAll grows from 512 bytes, copying a 3 MB PDF a dozen times);
	// one byte more tells a file that grew.
	b := make([]byte, size+1)
	n, err := io.ReadFull(f, b)
	switch {
	case err == nil:
		rest, err := io.ReadAll(io.LimitReader(f, max+1-int64(n)))
		if err != nil {
			return nil, fmt.Errorf("read: %w", err)
		}
		b = append(b[:n], rest...)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		b = b[:n]
	default:
		return nil, fmt.Errorf("read: %w", err)
	}
	if int64(len(b)) > max {
		return nil, errGrew(max)
	}
	return b, nil
}

// hashRegular is SourceHash of what readRegular would return, read through
// a small buffer: when a worker process will read the file itself, the
// whole file need not be held here.
func hashRegular(path string, max int64) (string, error) {
	f, _, err := openRegular(path, max)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.CopyBuffer(h, io.LimitReader(f, max+1), make([]byte, 256<<10))
	if err != nil {
		return "", fmt.Errorf("read: %w", err)
	}
	if n > max {
		return "", errGrew(max)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func errGrew(max int64) error {
	return fmt.Errorf("larger than --max-file-size %s (it grew while being read); raise the limit or leave this file out", isolate.FormatBytes(max))
}

// openRegular opens path if it is a regular file of at most max bytes, and
// returns its size. It opens without blocking, since opening a FIFO for
// reading otherwise waits for a writer forever, and checks the file it
// opened rather than the name, so a symbolic link to /dev/zero is refused as
// the device it is.
func openRegular(path string, max int64) (*os.File, int64, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, fmt.Errorf("read: %s", plainStatError(err))
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("read: %s", plainStatError(err))
	}
	if err := regularWithin(info, max); err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, info.Size(), nil
}

// checkRegular is readRegular's test for a file another package opens by
// name.
func checkRegular(path string, max int64) error {
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("read: %s", plainStatError(err))
	}
	return regularWithin(info, max)
}

func regularWithin(info fs.FileInfo, max int64) error {
	m := info.Mode()
	if !m.IsRegular() {
		return fmt.Errorf("not a regular file (%s); paperlens reads only regular files, so that no read can block or run forever", modeName(m))
	}
	if info.Size() > max {
		return fmt.Errorf("file of %s is larger than --max-file-size %s; raise the limit or leave this file out", isolate.FormatBytes(info.Size()), isolate.FormatBytes(max))
	}
	return nil
}

func modeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a folder"
	}
	return "mode " + m.String()
}
