package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/paperlens/paperlens/eval/run"
)

// wireSample is the ElaipBench sample the offline tests of export,
// rescore, --retrieved and --config evaluate.
var wireSample = filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")

// wireEval evaluates the sample offline (model ir, one run unless args
// say otherwise) into out, over the corpus home home, or fails the test.
func wireEval(t *testing.T, home, out string, args ...string) {
	t.Helper()
	all := append([]string{"eval", "--home", home, "--data", wireSample, "--model", "ir", "--runs", "1", "--out", out}, args...)
	if _, errOut, code := paperlens(t, all...); code != 0 {
		t.Fatalf("%v: exit %d\n%s", all, code, errOut)
	}
}

// wireRecords are the records of the run folder dir.
func wireRecords(t *testing.T, dir string) []run.Record {
	t.Helper()
	recs, err := run.Dir(dir).Records()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// wireSummary is dir's summary.json, decoded.
func wireSummary(t *testing.T, dir string) run.Summary {
	t.Helper()
	b, err := run.Dir(dir).SummaryJSON()
	if err != nil {
		t.Fatal(err)
	}
	var s run.Summary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("%s/summary.json: %v", dir, err)
	}
	return s
}
