package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// export writes a real run: one CSV row per record, a TREC run file per
// retrieval mode and qrels over the same questions; a format it does not
// know, or a trec export of two modes to one stream, is a usage error
// saying what to give.
func TestExportRun(t *testing.T) {
	t.Parallel()
	home, dir := t.TempDir(), filepath.Join(t.TempDir(), "run")
	wireEval(t, home, dir, "--mode", "closed-book,bm25,full+hybrid")
	checkExportCSV(t, dir)
	tdir := t.TempDir()
	qids := checkExportTREC(t, dir, filepath.Join(tdir, "run.trec"), "bm25", "full+hybrid")
	checkExportQrels(t, dir, filepath.Join(tdir, "gold.qrels"), qids)

	if _, errOut, code := paperlens(t, "export", dir, "--format", "trec"); code != 2 || !strings.Contains(errOut, "--mode") || !strings.Contains(errOut, "--out") {
		t.Errorf("trec of two modes to stdout: exit %d, %q; want 2 saying to keep one with --mode or give --out", code, errOut)
	}
	if _, errOut, code := paperlens(t, "export", dir, "--format", "xml"); code != 2 || !strings.Contains(errOut, "csv, parquet, jsonl, trec or qrels") {
		t.Errorf("bad format: exit %d, %q; want 2 naming the formats", code, errOut)
	}
}

// checkExportCSV checks that export's CSV of dir has one row per record.
func checkExportCSV(t *testing.T, dir string) {
	t.Helper()
	recs := wireRecords(t, dir)
	out, errOut, code := paperlens(t, "export", dir, "--format", "csv")
	if code != 0 {
		t.Fatalf("export csv: exit %d\n%s", code, errOut)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("export csv is not CSV: %v", err)
	}
	if len(rows) != len(recs)+1 || rows[0][0] != "run_folder" || rows[0][1] != "question_id" {
		t.Fatalf("export csv: %d rows with header %v, want %d records and a header", len(rows)-1, rows[0], len(recs))
	}
	want := map[string]int{}
	for _, r := range recs {
		want[r.QuestionID+" "+r.Mode]++
	}
	for _, row := range rows[1:] {
		want[row[1]+" "+row[4]]--
	}
	for k, n := range want {
		if n != 0 {
			t.Errorf("export csv: record %s counted %+d times off", k, -n)
		}
	}
}

// checkExportTREC exports dir as trec to out, which must give one run
// file per mode, and returns the questions they rank passages for.
func checkExportTREC(t *testing.T, dir, out string, modes ...string) map[string]bool {
	t.Helper()
	_, errOut, code := paperlens(t, "export", dir, "--format", "trec", "--out", out)
	if code != 0 {
		t.Fatalf("export trec: exit %d\n%s", code, errOut)
	}
	qids := map[string]bool{}
	for _, m := range modes {
		p := strings.TrimSuffix(out, ".trec") + "." + m + ".trec"
		if !strings.Contains(errOut, "wrote "+p) {
			t.Errorf("export trec does not say it wrote %s:\n%s", p, errOut)
		}
		for _, line := range wireLines(t, p) {
			f := strings.Fields(line)
			if len(f) != 6 || f[1] != "Q0" || f[5] != m {
				t.Fatalf("%s: line %q is not \"qid Q0 passage_id rank score %s\"", p, line, m)
			}
			qids[f[0]] = true
		}
	}
	if len(qids) == 0 {
		t.Fatal("export trec: no question retrieved anything")
	}
	return qids
}

// checkExportQrels exports dir as qrels to out, which must judge every
// question of qids and find some gold passage.
func checkExportQrels(t *testing.T, dir, out string, qids map[string]bool) {
	t.Helper()
	if _, errOut, code := paperlens(t, "export", dir, "--format", "qrels", "--out", out); code != 0 {
		t.Fatalf("export qrels: exit %d\n%s", code, errOut)
	}
	relevant := 0
	judged := map[string]bool{}
	for _, line := range wireLines(t, out) {
		f := strings.Fields(line)
		if len(f) != 4 || f[1] != "0" || (f[3] != "0" && f[3] != "1") {
			t.Fatalf("%s: line %q is not \"qid 0 passage_id rel\"", out, line)
		}
		judged[f[0]] = true
		if f[3] == "1" {
			relevant++
		}
	}
	for id := range qids {
		if !judged[id] {
			t.Errorf("question %s is in the trec run but not in the qrels", id)
		}
	}
	if relevant == 0 {
		t.Error("export qrels: no passage holds gold evidence")
	}
}

// Parquet is binary: export refuses to print it on a terminal and says
// to give --out, and writes it to a file.
func TestExportParquetNotToTerminal(t *testing.T) {
	t.Parallel()
	home, dir := t.TempDir(), filepath.Join(t.TempDir(), "run")
	wireEval(t, home, dir, "--mode", "closed-book")
	var out, errb bytes.Buffer
	g := newGlobals([]string{"export", dir, "--format", "parquet"}, strings.NewReader(""), &out, &errb, nil)
	g.stdoutTTY = true
	if code := runCLI(context.Background(), g); code != 2 || out.Len() != 0 || !strings.Contains(errb.String(), "--out") {
		t.Errorf("parquet to a terminal: exit %d, %d bytes out, %q; want 2, nothing, and a word on --out", code, out.Len(), errb.String())
	}
	p := filepath.Join(t.TempDir(), "runs.parquet")
	if _, errOut, code := paperlens(t, "export", dir, "--format", "parquet", "--out", p); code != 0 {
		t.Fatalf("export parquet --out: exit %d\n%s", code, errOut)
	}
	if b, _ := os.ReadFile(p); !bytes.HasPrefix(b, []byte("PAR1")) || !bytes.HasSuffix(b, []byte("PAR1")) {
		t.Errorf("%s is not a Parquet file (%d bytes)", p, len(b))
	}
}

// wireLines are the lines of the file at p, which must have some.
func wireLines(t *testing.T, p string) []string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) == 0 || lines[0] == "" {
		t.Fatalf("%s is empty", p)
	}
	return lines
}
