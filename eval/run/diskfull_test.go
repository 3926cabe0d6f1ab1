package run

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/paperlens/paperlens/model"
)

// fillingFile is results.jsonl on a disk that fills up: once budget bytes
// were written, a write lands only in part and fails with ENOSPC, as on a
// full file system. After refuse failed writes the disk has room again (a
// cache freed a page), so that a writer which went on writing would append
// whole records after a partial one.
type fillingFile struct {
	*os.File
	budget  int64
	refuse  int
	written int64
}

func (f *fillingFile) Write(p []byte) (int, error) {
	room := f.budget - f.written
	if room >= int64(len(p)) || f.refuse <= 0 {
		n, err := f.File.Write(p)
		f.written += int64(n)
		return n, err
	}
	f.refuse--
	part := max(room, 0)
	if part > int64(len(p)) {
		part = int64(len(p))
	}
	n, _ := f.File.Write(p[:part])
	f.written += int64(n)
	f.budget = f.written // full
	return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
}

// A run whose disk fills up mid-batch, resumed once space is back, ends
// with every record exactly once: no line doubled, none lost, none glued
// to a partial one. Twenty trials fill the disk at different points, with
// error records that the resume redoes (and so supersedes).
func TestDiskFullResumeNeitherDoublesNorLoses(t *testing.T) {
	qs, st, ix := fixture(t)
	open := openRecordFile
	t.Cleanup(func() { openRecordFile = open })

	// An error record for every seventh call of the first attempt, so that
	// the resume redoes some records and appends their replacements.
	var calls atomic.Int64
	flaky := model.ChatFunc(func(ctx context.Context, req model.Request) (model.Response, error) {
		if calls.Add(1)%7 == 0 {
			return model.Response{Content: " "}, nil
		}
		return reader(qs).Complete(ctx, req)
	})
	modes := []string{ClosedBook, Full}
	want := len(qs) * len(modes) * 2
	stopped := 0
	for trial := range 20 {
		cfg := sampleConfig(t, "reader", modes...)
		budget := int64(1500 + trial*2300)
		openRecordFile = func(path string) (recordFile, int64, error) {
			f, size, err := open(path)
			if err != nil {
				return nil, 0, err
			}
			return &fillingFile{File: f.(*os.File), budget: budget, refuse: 2}, size, nil
		}
		_, err := Run(context.Background(), Options{Config: cfg, Chat: flaky, Corpus: st, Index: ix, Questions: qs})
		if err != nil {
			if !strings.Contains(err.Error(), "no space left on device") || !strings.Contains(err.Error(), "rerun the same command") {
				t.Fatalf("trial %d: the error does not say the disk is full and what to do: %v", trial, err)
			}
			stopped++
		}
		openRecordFile = open
		if _, err := Run(context.Background(), Options{Config: cfg, Chat: reader(qs), Corpus: st, Index: ix, Questions: qs}); err != nil {
			t.Fatalf("trial %d: resume: %v", trial, err)
		}
		b, err := os.ReadFile(filepath.Join(cfg.Out, ResultsFile))
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
		seen := map[string]bool{}
		for i, l := range lines {
			var r Record
			if err := json.Unmarshal(l, &r); err != nil {
				t.Fatalf("trial %d: line %d is not a record: %.80q", trial, i+1, l)
			}
			k := fmt.Sprintf("%s/%s/%d", r.QuestionID, r.Mode, r.Run)
			if seen[k] {
				t.Errorf("trial %d: %s recorded twice", trial, k)
			}
			seen[k] = true
			if r.Error != "" {
				t.Errorf("trial %d: %s kept its error record %q after the resume redid it", trial, k, r.Error)
			}
		}
		if len(seen) != want {
			t.Errorf("trial %d: %d distinct records in %d lines, want %d", trial, len(seen), len(lines), want)
		}
	}
	// The budgets must have cut most trials short, or the test tested nothing.
	if stopped < 15 {
		t.Errorf("only %d of 20 trials ran out of disk", stopped)
	}
}

// After a write that failed part-way, the file ends with a whole record
// and the writer writes nothing more, even once the disk has room again:
// a record appended after the partial line would be glued to it.
func TestWriterStopsAtTheFirstFailedWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), ResultsFile)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	first := Record{QuestionID: "q1", Mode: ClosedBook, Run: 1, Output: "Answer: A"}
	stamped := first
	stamped.Schema = SchemaVersion // the writer writes every record as this version
	line, _ := json.Marshal(stamped)
	// Room for the first record and half of the second; then room again.
	w := &writer{f: &fillingFile{File: f, budget: int64(len(line)+1) + 20, refuse: 1}}
	defer w.Close()
	if err := w.write(first); err != nil {
		t.Fatal(err)
	}
	second := Record{QuestionID: "q2", Mode: ClosedBook, Run: 1, Output: "Answer: B"}
	if err := w.write(second); err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("the failed write: %v", err)
	}
	third := Record{QuestionID: "q3", Mode: ClosedBook, Run: 1, Output: "Answer: C"}
	if err := w.write(third); err == nil {
		t.Fatal("a write after a failed one was accepted")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != string(line)+"\n" {
		t.Errorf("the file holds %q, want only the first record", b)
	}
}
