// Package batch searches many queries with the indexes loaded once: the
// lines of a JSONL file, {"id","query","paper"?}, each answered with one
// JSON line in input order (paperlens search --queries).
package batch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/paperlens/paperlens/retrieve"
)

// query is one line of a queries file.
type query struct {
	ID    json.RawMessage `json:"id"`
	Query string          `json:"query"`
	Paper string          `json:"paper,omitempty"`
}

// result is one line of output: the hits of a query, or its error.
type result struct {
	ID    json.RawMessage `json:"id"`
	Line  int             `json:"line,omitempty"` // with an error only: where the query is in the file
	Query string          `json:"query,omitempty"`
	Paper string          `json:"paper,omitempty"`
	Hits  []retrieve.Hit  `json:"hits,omitempty"`
	Error string          `json:"error,omitempty"`
}

// MarshalJSON writes "hits" even when empty (a query that matched nothing
// has hits [], not none) and never beside "error".
func (r result) MarshalJSON() ([]byte, error) {
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

// chunk is how many queries are searched at once before their results
// are written, in input order: enough to keep every core busy, few enough
// that output streams and memory stays flat on any file length.
const chunk = 256

// Counts say how many queries a batch read and how many of them failed.
type Counts struct{ Total, Failed int }

// Search runs every query of a JSONL stream (name names it in messages)
// through r, writing one JSON line per query to out in input order, and a
// line on progress every few seconds. A line that cannot be searched is
// reported on its own line and counted, and the batch goes on; the error
// says why the stream could not be read or written, or that it held no
// query.
func Search(ctx context.Context, r retrieve.Retriever, in io.Reader, name string, k int, out io.Writer, progress io.Writer) (Counts, error) {
	br := bufio.NewReaderSize(in, 1<<16)
	bw := bufio.NewWriterSize(out, 1<<16)
	enc := json.NewEncoder(bw)

	type job struct {
		line int
		raw  []byte
		res  result
	}
	start, lastReport := time.Now(), time.Now()
	lineNo := 0
	var n Counts
	eof := false
	for !eof {
		var jobs []job
		for len(jobs) < chunk {
			b, err := br.ReadBytes('\n')
			if errors.Is(err, io.EOF) {
				eof = true
			} else if err != nil {
				return n, fmt.Errorf("read %s after line %d: %w", name, lineNo, err)
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
			return n, fmt.Errorf("search of %s stopped at line %d: %w", name, jobs[0].line, err)
		}
		for _, j := range jobs {
			n.Total++
			if j.res.Error != "" {
				n.Failed++
			}
			if err := enc.Encode(j.res); err != nil {
				return n, fmt.Errorf("write results: %w", err)
			}
		}
		if err := bw.Flush(); err != nil {
			return n, fmt.Errorf("write results: %w", err)
		}
		if progress != nil && time.Since(lastReport) > 2*time.Second {
			lastReport = time.Now()
			fmt.Fprintf(progress, "search: %d queries, %d failed, %.0f/s\n", n.Total, n.Failed, float64(n.Total)/time.Since(start).Seconds())
		}
	}
	if n.Total == 0 {
		return n, fmt.Errorf("%s holds no queries: write one JSON object a line, {\"id\": ..., \"query\": \"...\", \"paper\": \"...\"} (paper optional)", name)
	}
	return n, nil
}

// searchLine parses and searches one line; every failure is the line's own.
func searchLine(ctx context.Context, r retrieve.Retriever, name string, line int, raw []byte, k int) result {
	fail := func(id json.RawMessage, format string, a ...any) result {
		if len(id) == 0 {
			id = json.RawMessage("null")
		}
		return result{ID: id, Line: line, Error: fmt.Sprintf("%s line %d: ", name, line) + fmt.Sprintf(format, a...)}
	}
	var q query
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
	return result{ID: q.ID, Query: q.Query, Paper: q.Paper, Hits: hits}
}
