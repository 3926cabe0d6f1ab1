package dataset

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/parquet-go/parquet-go"
)

// parquetBatch is how many rows are decoded at a time. ElaipBench rows carry
// a whole paper each, so keep batches small.
const parquetBatch = 64

func (r *reader) readParquet() (err error) {
	f, err := os.Open(r.path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.Size() == 0 {
		return fmt.Errorf("%s: %w", r.path, ErrEmpty)
	}
	if err := checkParquetEnvelope(f, st.Size()); err != nil {
		return fmt.Errorf("%s: %w: %v (is it a parquet file? JSON data should be named .json or .jsonl)", r.path, ErrParquet, err)
	}
	// parquet-go panics on some corrupt inputs instead of returning an error.
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: %w: %v", r.path, ErrParquet, p)
		}
	}()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return fmt.Errorf("%s: %w: %v (is it a parquet file? JSON data should be named .json or .jsonl)", r.path, ErrParquet, err)
	}
	// Reading into maps with the file's own schema gives every column,
	// whatever the schema is.
	pr := parquet.NewGenericReader[map[string]any](pf, pf.Schema())
	defer pr.Close()

	line := 0
	buf := make([]map[string]any, parquetBatch)
	for {
		// Fresh maps each batch: rows are handed to fn, which may keep them.
		for i := range buf {
			buf[i] = map[string]any{}
		}
		n, rerr := pr.Read(buf)
		for _, m := range buf[:n] {
			line++
			if e := r.emit(Row{Line: line, Fields: m}, unitRow); e != nil {
				return e
			}
		}
		if errors.Is(rerr, io.EOF) {
			return nil
		}
		if rerr != nil {
			// A damaged page cannot be skipped row by row: stop here.
			return &RowError{File: r.path, Line: line + 1, unit: unitRow,
				Err: fmt.Errorf("%w: %v; reading stopped", ErrParquet, rerr)}
		}
		if n == 0 {
			return nil
		}
	}
}

// parquetMagic opens and closes a parquet file.
var parquetMagic = []byte("PAR1")

// checkParquetEnvelope checks what parquet-go trusts before it reads a
// byte of the footer: the magic at both ends, and the footer's length, the
// four bytes before the closing magic. parquet-go allocates that length
// as it stands, so the 8-byte file "PAR1PAR1" (a length of 827 MB read
// from the magic itself) took 827 MB, and a length near 4 GB could end
// the process. A footer must fit between the two magics.
func checkParquetEnvelope(f io.ReaderAt, size int64) error {
	const minSize = 4 + 4 + 4 // magic, footer length, magic
	if size < minSize {
		return fmt.Errorf("%d bytes is too short for a parquet file", size)
	}
	head := make([]byte, 4)
	tail := make([]byte, 8)
	if _, err := f.ReadAt(head, 0); err != nil {
		return err
	}
	if _, err := f.ReadAt(tail, size-8); err != nil {
		return err
	}
	if !bytes.Equal(head, parquetMagic) || !bytes.Equal(tail[4:], parquetMagic) {
		return fmt.Errorf("no %q magic at both ends", parquetMagic)
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); n > size-minSize {
		return fmt.Errorf("the footer claims %d bytes in a file of %d", n, size)
	}
	return nil
}
