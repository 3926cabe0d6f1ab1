package run

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// schemaDir is a committed run folder (results.jsonl and summary.json) of
// one schema version: v2 as this paperlens writes it, v1 the same without
// the schema field, as every paperlens before the field wrote it. v1 also
// holds a config.json in the first shape eval wrote (rerun_test.go).
func schemaDir(v string) Dir { return Dir(filepath.Join("testdata", "schema", v)) }

// Each committed version reads, through the one reader, as the same
// records and summary, with Schema saying which version the file was.
func TestReadsEverySchemaVersion(t *testing.T) {
	want, err := schemaDir("v2").Records()
	if err != nil || len(want) != 4 {
		t.Fatalf("v2 records: %d, %v", len(want), err)
	}
	wantSum, err := schemaDir("v2").ReadSummary()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		dir    string
		schema int
	}{
		{"v1", 1},
		{"v2", 2},
	}
	for _, tc := range tests {
		t.Run(tc.dir, func(t *testing.T) {
			d := schemaDir(tc.dir)
			recs, err := d.Records()
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != len(want) {
				t.Fatalf("%d records, want %d", len(recs), len(want))
			}
			for i, r := range recs {
				if r.Schema != tc.schema {
					t.Errorf("record %d: schema %d, want %d", i, r.Schema, tc.schema)
				}
				r.Schema = SchemaVersion
				if !reflect.DeepEqual(r, want[i]) {
					t.Errorf("record %d reads as\n%+v\nwant\n%+v", i, r, want[i])
				}
			}
			s, err := d.ReadSummary()
			if err != nil {
				t.Fatal(err)
			}
			if s.Schema != tc.schema {
				t.Errorf("summary: schema %d, want %d", s.Schema, tc.schema)
			}
			s.Schema = SchemaVersion
			if !reflect.DeepEqual(s, wantSum) {
				t.Errorf("summary reads as\n%+v\nwant\n%+v", s, wantSum)
			}
		})
	}
}

// The v2 fixture is byte for byte what this paperlens writes: the writer
// stamps SchemaVersion on every record and summary. A failure means the
// format changed: an added field whose absence old files read right needs
// only the fixture updated; one readers must trust, or a changed meaning,
// needs SchemaVersion bumped, the version documented on Record, and a new
// fixture beside these.
func TestSchemaFixtureIsWhatIsWritten(t *testing.T) {
	if SchemaVersion != 2 {
		t.Fatalf("SchemaVersion %d has no fixture: add testdata/schema/v%d", SchemaVersion, SchemaVersion)
	}
	recs, err := schemaDir("v2").Records()
	if err != nil {
		t.Fatal(err)
	}
	sum, err := schemaDir("v2").ReadSummary()
	if err != nil {
		t.Fatal(err)
	}
	out := Dir(t.TempDir())
	w, err := out.appendRecords()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		r.Schema = 0 // as a record is made: the writer sets the version
		if err := w.write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	sum.Schema = 0
	if err := out.WriteSummary(sum); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{ResultsFile, summaryFile} {
		got, err := os.ReadFile(out.path(name))
		if err != nil {
			t.Fatal(err)
		}
		fixture, err := os.ReadFile(schemaDir("v2").path(name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, fixture) {
			t.Errorf("%s as written differs from testdata/schema/v2:\n%s\nwant\n%s", name, got, fixture)
		}
	}
}

// A record or summary of a version later than SchemaVersion is refused
// with an error that says to upgrade, also when the later version changed
// a field's type; lines that hold no record are skipped as before.
func TestNewerSchemaIsRefused(t *testing.T) {
	const v2 = `{"schema":2,"question_id":"q1","mode":"full","run":1}`
	tests := []struct {
		name    string
		lines   []string
		newer   bool
		schemas []int // of the records read, when not refused
	}{
		{"newer record", []string{v2, `{"schema":3,"question_id":"q2","mode":"full","run":1}`}, true, nil},
		{"newer record with a field of another type", []string{v2, `{"schema":3,"question_id":"q2","mode":"full","run":1,"correct":"yes"}`}, true, nil},
		{"newer record first", []string{`{"schema":9,"question_id":"q2","mode":"full","run":1}`, v2}, true, nil},
		{"no schema is version 1", []string{`{"question_id":"q2","mode":"full","run":1}`, v2}, false, []int{1, 2}},
		{"a schema that is no version is skipped", []string{`{"schema":-1,"question_id":"q2","mode":"full","run":1}`, v2}, false, []int{2}},
		{"a damaged line is skipped", []string{`{"schema":3,"question_id":"q`, v2}, false, []int{2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ResultsFile)
			if err := os.WriteFile(path, []byte(strings.Join(tc.lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			recs, err := ReadResults(path)
			if !tc.newer {
				if err != nil {
					t.Fatal(err)
				}
				var got []int
				for _, r := range recs {
					got = append(got, r.Schema)
				}
				if !reflect.DeepEqual(got, tc.schemas) {
					t.Errorf("schemas %v, want %v", got, tc.schemas)
				}
				return
			}
			if !errors.Is(err, ErrNewerSchema) || !strings.Contains(err.Error(), "upgrade paperlens") || !strings.Contains(err.Error(), path+" line ") {
				t.Fatalf("got %d records, error %v; want ErrNewerSchema naming the file and line", len(recs), err)
			}
			// Compaction reads through the same reader: it leaves the
			// file alone rather than drop the records it cannot read.
			before, _ := os.ReadFile(path)
			if _, err := compactResults(path); !errors.Is(err, ErrNewerSchema) {
				t.Errorf("compact: %v", err)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Errorf("compact rewrote a file it cannot read:\n%s", after)
			}
		})
	}
}

func TestNewerSummaryIsRefused(t *testing.T) {
	tests := []struct {
		name, json string
		newer      bool
		want       string // in the error
	}{
		{"newer", `{"schema":3,"model":"m"}`, true, "upgrade paperlens"},
		{"newer with a field of another type", `{"schema":3,"runs":"two"}`, true, "upgrade paperlens"},
		{"not a version", `{"schema":-2,"model":"m"}`, false, "delete it to summarise the run from results.jsonl"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := Dir(t.TempDir())
			if err := os.WriteFile(d.path(summaryFile), []byte(tc.json), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := d.ReadSummary()
			if err == nil || errors.Is(err, ErrNewerSchema) != tc.newer || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q (newer: %v)", err, tc.want, tc.newer)
			}
		})
	}
}

// Compaction keeps each record's version: a version-1 record is rewritten
// as "schema":1, never relabelled as the current version, and the redone
// record the writer appended is the current one.
func TestCompactKeepsEachRecordsSchema(t *testing.T) {
	d := Dir(t.TempDir())
	v1, err := os.ReadFile(schemaDir("v1").path(ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(d.path(ResultsFile), v1, 0o644); err != nil {
		t.Fatal(err)
	}
	recs, err := d.Records()
	if err != nil {
		t.Fatal(err)
	}
	// The second record ended in an error; a rerun redoes it.
	redo := recs[1]
	redo.Schema, redo.Error, redo.Output, redo.Extracted, redo.Correct = 0, "", "Answer: AC", "AC", true
	w, err := d.appendRecords()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.write(redo); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if ok, err := compactResults(d.path(ResultsFile)); !ok || err != nil {
		t.Fatalf("compact: %v, %v", ok, err)
	}
	b, err := os.ReadFile(d.path(ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	want := []string{`{"schema":1,"question_id":"q1"`, `{"schema":2,"question_id":"q2"`, `{"schema":1,"question_id":"q1"`, `{"schema":1,"question_id":"q2"`}
	if len(lines) != len(want) {
		t.Fatalf("%d lines after compaction, want %d:\n%s", len(lines), len(want), b)
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, want[i]) {
			t.Errorf("line %d: %.60s…, want it to start %s", i+1, l, want[i])
		}
	}
	got, err := d.Records()
	if err != nil || len(got) != 4 || !got[1].Correct || got[1].Schema != SchemaVersion || got[0].Schema != 1 {
		t.Errorf("read back after compaction: %+v, %v", got, err)
	}
}

// A version-1 record from before score_kind was set on error records is
// still counted as the summary counted it then: scored, and wrong.
func TestV1ErrorRecordWithoutScoreKind(t *testing.T) {
	path := filepath.Join(t.TempDir(), ResultsFile)
	line := `{"question_id":"q1","mode":"full","run":1,"error":"model call failed","correct":false}` + "\n"
	if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadResults(path)
	if err != nil || len(recs) != 1 {
		t.Fatalf("%v, %v", recs, err)
	}
	if r := recs[0]; r.Schema != 1 || !Scored(r) || Answered(r) {
		t.Errorf("schema %d, scored %v, answered %v; want 1, true, false", r.Schema, Scored(r), Answered(r))
	}
}
