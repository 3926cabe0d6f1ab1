package run

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/paperlens/paperlens/eval/mode"
)

// The summary made as results.jsonl is read, one record at a time, is the
// summary of the records ReadResults would return, byte for byte: from a
// file whose errors a rerun redid (the redone records at its end), with a
// damaged line and a line cut by a kill, and from the same file compacted.
func TestSummarizeResultsAsRead(t *testing.T) {
	cached := 0.5
	cfg := Config{Bench: "elaipbench", Model: "m", Runs: 2, Seed: 3,
		Modes: []string{ClosedBook, Full, ModeHybrid, mode.SelfRoute}, Price: &Price{In: 2, Out: 8, Cached: &cached}}
	cfg.Defaults(nil)
	qs := goldenQuestions()
	recs := goldenRecords(cfg, qs, false)
	var errs errorTally
	for _, r := range recs {
		errs.add(r)
	}
	want, wantErrs := Summarize(cfg, qs, recs), errs.counts()

	// Every third record first failed with another error, and was redone
	// after all the others; the order a reader sees is the first one's.
	var file bytes.Buffer
	enc := json.NewEncoder(&file)
	var redone []Record
	for i, r := range recs {
		if i%3 == 0 {
			failed := r
			failed.Error, failed.Correct, failed.Reasoning = "model call failed: 502 after 3 attempts", false, ""
			redone = append(redone, r)
			r = failed
		}
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
		if i == len(recs)/2 {
			file.WriteString("{\"question_id\": \"damaged\n")
		}
	}
	for _, r := range redone {
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	file.WriteString(`{"question_id": "q1", "mode": "full", "ru`) // cut by a kill
	path := filepath.Join(t.TempDir(), ResultsFile)
	if err := os.WriteFile(path, file.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	check := func(stage string, compact bool) {
		t.Helper()
		got, gotErrs, err := summarizeResults(path, compact, cfg, qs)
		if err != nil {
			t.Fatalf("%s: %v", stage, err)
		}
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		if !bytes.Equal(gj, wj) {
			t.Errorf("%s: summary as read differs from the summary of the records:\n%s\nwant\n%s", stage, gj, wj)
		}
		if !reflect.DeepEqual(gotErrs, wantErrs) {
			t.Errorf("%s: errors %v, want %v", stage, gotErrs, wantErrs)
		}
	}
	check("superseded lines", false)
	if ok, err := compactResults(path); !ok || err != nil {
		t.Fatalf("compact: %v, %v", ok, err)
	}
	check("compacted", true)
	i := 0
	err := eachLine(path, func(r Record) error {
		if r.key() != recs[i].key() || r.Error != recs[i].Error {
			t.Fatalf("compacted line %d is %v (error %q), want %v", i+1, r.key(), r.Error, recs[i].key())
		}
		i++
		return nil
	})
	if err != nil || i != len(recs) {
		t.Fatalf("compacted file: %d records, %v; want %d", i, err, len(recs))
	}
}
