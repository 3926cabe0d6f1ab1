package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/paperlens/paperlens/retrieve"
)

// batchQuery is one line of a --queries file.
type batchQuery struct {
	ID    json.RawMessage `json:"id"`
	Query string          `json:"query"`
	Paper string          `json:"paper,omitempty"`
}

// batchResult is one line of output: the hits of a query, or its error.
type batchResult struct {
	ID    json.RawMessage `json:"id"`
	Line  int             `json:"line,omitempty"` // with an error only: where the query is in the file
	Query string          `json:"query,omitempty"`
	Paper string          `json:"paper,omitempty"`
	Hits  []retrieve.Hit  `json:"hits,omitempty"`
	Error string          `json:"error,omitempty"`
}

// MarshalJSON writes "hits" even when empty (a query that matched nothing
// has hits [], not none) and never beside "error".
func (r batchResult) MarshalJSON() ([]byte, error) {
	if r.Error != "" {
		return json.Marshal(struct {
			ID    json.RawMessage `json:"id"`
			Line  int             `json:"line"`
			Error string          `json:"error"`
		}{r.ID, r.Line, r.Error})
	}
	hits := r.Hits
	if hits == nil {
		hits = []retrieve.Hit{}
	}
	return json.Marshal(struct {
		ID    json.RawMessage `json:"id"`
		Query string          `json:"query"`
		Paper string          `json:"paper,omitempty"`
		Hits  []retrieve.Hit  `json:"hits"`
	}{r.ID, r.Query, r.Paper, hits})
}

// batchChunk is how many queries are searched at once before their results
// are written, in input order: enough to keep every core busy, few enough
// that output streams and memory stays flat on any file length.
const batchChunk = 256

// searchBatch runs every query of a JSONL file (or stdin for "-") through r
// with the indexes already open, writing one JSON line per query to out in
// input order. A line that cannot be searched is reported on its own line
// and counted, and the batch goes on; the error returned says how many
// failed, or why the file could not be read.
func searchBatch(ctx context.Context, r retrieve.Retriever, path string, k int, stdin io.Reader, out io.Writer, progress io.Writer) error {
	in := stdin
	name := "standard input"
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("--queries: %w", err)
		}
		defer f.Close()
		in, name = f, path
	}
	br := bufio.NewReaderSize(in, 1<<16)
	bw := bufio.NewWriterSize(out, 1<<16)
	enc := json.NewEncoder(bw)

	type job struct {
		line int
		raw  []byte
		res  batchResult
	}
	start, lastReport := time.Now(), time.Now()
	lineNo, total, failed := 0, 0, 0
	eof := false
	for !eof {
		var jobs []job
		for len(jobs) < batchChunk {
			b, err := br.ReadBytes('\n')
			if errors.Is(err, io.EOF) {
				eof = true
			} else if err != nil {
				return fmt.Errorf("read %s after line %d: %w", name, lineNo, err)
			}
			if len(b) > 0 {
				lineNo++
				if len(bytes.TrimSpace(b)) > 0 {
					jobs = append(jobs, job{line: lineNo, raw: b})
				}
			}
			if eof {
				break
			}
		}
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(runtime.GOMAXPROCS(0))
		for i := range jobs {
			j := &jobs[i]
			g.Go(func() error {
				j.res = searchLine(gctx, r, name, j.line, j.raw, k)
				return gctx.Err()
			})
		}
		if err := g.Wait(); err != nil {
			bw.Flush()
			return fmt.Errorf("search of %s stopped at line %d: %w", name, jobs[0].line, err)
		}
		for _, j := range jobs {
			total++
			if j.res.Error != "" {
				failed++
			}
			if err := enc.Encode(j.res); err != nil {
				return fmt.Errorf("write results: %w", err)
			}
		}
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("write results: %w", err)
		}
		if progress != nil && time.Since(lastReport) > 2*time.Second {
			lastReport = time.Now()
			fmt.Fprintf(progress, "search: %d queries, %d failed, %.0f/s\n", total, failed, float64(total)/time.Since(start).Seconds())
		}
	}
	if total == 0 {
		return fmt.Errorf("%s holds no queries: write one JSON object a line, {\"id\": ..., \"query\": \"...\", \"paper\": \"...\"} (paper optional)", name)
	}
	if failed > 0 {
		return &exitError{code: 1, msg: fmt.Sprintf("%d of %d queries in %s failed; each has an {\"id\",\"line\",\"error\"} line in the output, the others their hits", failed, total, name)}
	}
	return nil
}

// searchLine parses and searches one line; every failure is the line's own.
func searchLine(ctx context.Context, r retrieve.Retriever, name string, line int, raw []byte, k int) batchResult {
	fail := func(id json.RawMessage, format string, a ...any) batchResult {
		if len(id) == 0 {
			id = json.RawMessage("null")
		}
		return batchResult{ID: id, Line: line, Error: fmt.Sprintf("%s line %d: ", name, line) + fmt.Sprintf(format, a...)}
	}
	var q batchQuery
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		// An unknown field is reported after the rest is decoded: the id,
		// if any, still names the query.
		return fail(q.ID, "%v; write each query as {\"id\": ..., \"query\": \"...\", \"paper\": \"...\"} (paper optional)", err)
	}
	if dec.More() {
		return fail(q.ID, "more than one JSON value on the line; put one query a line")
	}
	if len(q.ID) == 0 || string(q.ID) == "null" {
		return fail(nil, "no \"id\": give each query an id (a string or number) to match its result")
	}
	if strings.TrimSpace(q.Query) == "" {
		return fail(q.ID, "no \"query\" text: give the question to search for")
	}
	hits, err := r.Search(ctx, retrieve.Query{Text: q.Query, PaperID: q.Paper, K: k})
	if err != nil {
		return fail(q.ID, "%v", err)
	}
	return batchResult{ID: q.ID, Query: q.Query, Paper: q.Paper, Hits: hits}
}
