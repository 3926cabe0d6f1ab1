package dataset

import (
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
