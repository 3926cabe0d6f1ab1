package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/internal/measure/textquality"
)

// groundTruth is the repository's set, seen from this package's directory.
var groundTruth = filepath.Join("..", "..", "testdata", "groundtruth")

func TestMeasureTextScoresEveryDocumentWithEveryTool(t *testing.T) {
	t.Parallel()
	out, errOut, code := paperlens(t, "measure", "text", "--json", groundTruth)
	if code != 0 {
		t.Fatalf("measure text exited %d: %s", code, errOut)
	}
	var r textquality.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("measure text --json printed %q: %v", out, err)
	}

	// The documents are exactly the PDFs that have a ground-truth text.
	want := checkMeasureTextDocuments(t, r)

	// Every tool this machine has ran; the others are said to be missing.
	tools := checkMeasureTextTools(t, r)
	checkMeasureTextRows(t, r, want, tools)

	// Each mean is the mean of that tool's rows.
	checkMeasureTextMeans(t, r, tools)

	// pdftotext's score is the metric on pdftotext's own output, run here.
	if len(tools) > 1 && tools[1] == textquality.Pdftotext {
		checkMeasureTextPdftotext(t, r, want[0])
	}
}

// checkMeasureTextDocuments checks that the report's documents are the
// PDFs with a ground-truth text, and returns them.
func checkMeasureTextDocuments(t *testing.T, r textquality.Report) []string {
	t.Helper()
	pdfs, _ := filepath.Glob(filepath.Join(groundTruth, "*.pdf"))
	var want []string
	for _, p := range pdfs {
		if _, err := os.Stat(strings.TrimSuffix(p, ".pdf") + ".txt"); err == nil {
			want = append(want, strings.TrimSuffix(filepath.Base(p), ".pdf"))
		}
	}
	if len(want) < 4 || strings.Join(r.Documents, ",") != strings.Join(want, ",") {
		t.Fatalf("documents %q, want the %d PDFs with a .txt: %q", r.Documents, len(want), want)
	}
	return want
}

// checkMeasureTextTools checks that the report's tools are those this
// machine has, the others said to be missing, and returns them.
func checkMeasureTextTools(t *testing.T, r textquality.Report) []string {
	t.Helper()
	tools := []string{textquality.Ours}
	if _, err := exec.LookPath("pdftotext"); err == nil {
		tools = append(tools, textquality.Pdftotext)
	}
	if exec.Command(textquality.Python, "-c", "import fitz").Run() == nil {
		tools = append(tools, textquality.PyMuPDF)
	} else if r.Unavailable[textquality.PyMuPDF] == "" {
		t.Errorf("PyMuPDF cannot run here but the report does not say so: %+v", r.Unavailable)
	}
	if strings.Join(r.Tools, ",") != strings.Join(tools, ",") {
		t.Fatalf("tools %q, want %q", r.Tools, tools)
	}
	return tools
}

// checkMeasureTextRows checks that there is one sound row per tool and
// document.
func checkMeasureTextRows(t *testing.T, r textquality.Report, want, tools []string) {
	t.Helper()
	if len(r.Rows) != len(want)*len(tools) {
		t.Fatalf("%d rows, want %d documents × %d tools", len(r.Rows), len(want), len(tools))
	}
	seen := map[string]bool{}
	for _, row := range r.Rows {
		seen[row.Tool+"/"+row.Document] = true
		checkMeasureTextRow(t, row)
	}
	for _, tool := range tools {
		for _, d := range want {
			if !seen[tool+"/"+d] {
				t.Errorf("no row for %s on %s", tool, d)
			}
		}
	}
}

// checkMeasureTextRow checks one row's scores and counts.
func checkMeasureTextRow(t *testing.T, row textquality.Row) {
	t.Helper()
	for name, v := range map[string]float64{"ratio": row.Ratio, "ratio_ws": row.RatioWS, "order": row.Order, "symbols": row.Symbols} {
		if math.IsNaN(v) || v < 0 || v > 1 {
			t.Errorf("%s on %s: %s = %v, outside [0, 1]", row.Tool, row.Document, name, v)
		}
	}
	if row.Chars == 0 || row.Err != "" {
		t.Errorf("%s on %s: %d characters, error %q", row.Tool, row.Document, row.Chars, row.Err)
	}
	if row.Paragraphs.Located+row.Paragraphs.Ambiguous > row.Paragraphs.Paragraphs || row.SymbolSet.Found > row.SymbolSet.Truth {
		t.Errorf("%s on %s: counts do not add up: %+v %+v", row.Tool, row.Document, row.Paragraphs, row.SymbolSet)
	}
}

// checkMeasureTextMeans checks that each tool's mean is the mean of its
// rows, and the ratios against PyMuPDF's.
func checkMeasureTextMeans(t *testing.T, r textquality.Report, tools []string) {
	t.Helper()
	if len(r.Means) != len(tools) {
		t.Fatalf("%d means, want one per tool (%d)", len(r.Means), len(tools))
	}
	var pymupdf float64
	for _, m := range r.Means {
		checkMeasureTextMean(t, m, r.Rows)
		if m.Tool == textquality.PyMuPDF {
			pymupdf = m.Ratio
		}
	}
	for _, m := range r.Means {
		if pymupdf > 0 && math.Abs(m.RatioVsPyMuPDF-m.Ratio/pymupdf) > 1e-9 {
			t.Errorf("%s ratio against PyMuPDF = %v, means give %v", m.Tool, m.RatioVsPyMuPDF, m.Ratio/pymupdf)
		}
	}
}

// checkMeasureTextMean checks one tool's mean against its rows.
func checkMeasureTextMean(t *testing.T, m textquality.Mean, rows []textquality.Row) {
	t.Helper()
	var sum textquality.Scores
	var found, truth int
	n := 0
	for _, row := range rows {
		if row.Tool == m.Tool {
			found += row.SymbolSet.Found
			truth += row.SymbolSet.Truth
			sum.Ratio += row.Ratio
			sum.RatioWS += row.RatioWS
			sum.Order += row.Order
			sum.Symbols += row.Symbols
			n++
		}
	}
	for name, pair := range map[string][2]float64{
		"ratio": {m.Ratio, sum.Ratio}, "ratio_ws": {m.RatioWS, sum.RatioWS},
		"order": {m.Order, sum.Order}, "symbols": {m.Symbols, sum.Symbols},
	} {
		if math.Abs(pair[0]-pair[1]/float64(n)) > 1e-9 {
			t.Errorf("%s mean %s = %v, rows give %v", m.Tool, name, pair[0], pair[1]/float64(n))
		}
	}
	if m.AllSymbols.Found != found || m.AllSymbols.Truth != truth || truth == 0 || m.AllSymbols.Score != float64(found)/float64(truth) {
		t.Errorf("%s symbols over all documents %+v, rows give %d/%d", m.Tool, m.AllSymbols, found, truth)
	}
}

// checkMeasureTextPdftotext checks that pdftotext's scores on document d
// are the metrics on pdftotext's own output, run here.
func checkMeasureTextPdftotext(t *testing.T, r textquality.Report, d string) {
	t.Helper()
	txt, err := exec.Command("pdftotext", "-enc", "UTF-8", filepath.Join(groundTruth, d+".pdf"), "-").Output()
	if err != nil {
		t.Fatalf("pdftotext %s: %v", d, err)
	}
	truth, err := os.ReadFile(filepath.Join(groundTruth, d+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range r.Rows {
		if row.Tool == textquality.Pdftotext && row.Document == d {
			if w := textquality.Ratio(string(truth), string(txt)); row.Ratio != w {
				t.Errorf("pdftotext on %s: reported ratio %v, the metric on its output gives %v", d, row.Ratio, w)
			}
			if w := textquality.SymbolRecall(string(truth), string(txt)).Score; row.Symbols != w {
				t.Errorf("pdftotext on %s: reported symbols %v, the metric on its output gives %v", d, row.Symbols, w)
			}
		}
	}
}

func TestMeasureTextTable(t *testing.T) {
	t.Parallel()
	out, errOut, code := paperlens(t, "measure", "text", groundTruth)
	if code != 0 {
		t.Fatalf("measure text exited %d: %s", code, errOut)
	}
	pdfs, _ := filepath.Glob(filepath.Join(groundTruth, "*.pdf"))
	for _, p := range pdfs {
		if name := strings.TrimSuffix(filepath.Base(p), ".pdf"); !strings.Contains(out, name) {
			t.Errorf("the table does not name %s:\n%s", name, out)
		}
	}
	for _, s := range []string{"ratio-ws", "mean", "mean ratio against PyMuPDF's:", "symbols over all documents:"} {
		if !strings.Contains(out, s) {
			t.Errorf("the table lacks %q:\n%s", s, out)
		}
	}
}

func TestMeasureTextWithoutGroundTruth(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	missing := filepath.Join(empty, "no-such-dir")
	tests := []struct {
		name string
		dir  string   // working directory
		args []string // after "measure text"
		want []string // in the error
	}{
		{"missing DIR", "", []string{missing}, []string{missing, "no such file"}},
		{"DIR without pairs", "", []string{empty}, []string{empty, "no ground truth", "NAME.pdf"}},
		{"no DIR, not at the repository root", empty, nil, []string{"testdata/groundtruth", "paperlens measure text DIR"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := paperlensProcess(append([]string{"measure", "text"}, tt.args...)...)
			c.Dir = tt.dir
			var out, errb bytes.Buffer
			c.Stdout, c.Stderr = &out, &errb
			err := c.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() == 0 {
				t.Fatalf("measure text %v in %q: %v, want a failure; stdout %q", tt.args, tt.dir, err, out.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(errb.String(), w) {
					t.Errorf("error %q does not say %q", errb.String(), w)
				}
			}
		})
	}
}

// measure was called bench, a name scripts still use: it works, under
// every subcommand and for --help, and says on stderr that it is
// deprecated (bench names the benchmark datasets); the root's help lists
// only measure.
func TestBenchIsADeprecatedNameOfMeasure(t *testing.T) {
	t.Parallel()
	const warning = `Command "bench" has been deprecated, use 'paperlens measure'`
	tests := []struct {
		args    []string
		stdout  string // in stdout
		warns   bool
		notSaid string // not in stdout
	}{
		{[]string{"bench", "text", "--help"}, "paperlens bench text [DIR]", true, ""},
		{[]string{"bench", "startup", "--help"}, "--against", true, ""},
		{[]string{"bench", "--help"}, "measure compares paperlens", true, ""},
		{[]string{"measure", "text", "--help"}, "paperlens measure text [DIR]", false, ""},
		{[]string{"--help"}, "\n  measure ", false, "\n  bench "},
	}
	for _, tt := range tests {
		out, errOut, code := paperlens(t, tt.args...)
		if code != 0 || !strings.Contains(out, tt.stdout) || (tt.notSaid != "" && strings.Contains(out, tt.notSaid)) {
			t.Errorf("%v: exit %d, stdout lacks %q or says %q:\n%s", tt.args, code, tt.stdout, tt.notSaid, out)
		}
		want := 0
		if tt.warns {
			want = 1
		}
		if got := strings.Count(errOut, warning); got != want {
			t.Errorf("%v: stderr has the deprecation warning %d times, want %d:\n%s", tt.args, got, want, errOut)
		}
	}
	// Run, not only asked for help: the old name still measures.
	out, errOut, code := paperlens(t, "bench", "text", "--json", groundTruth)
	var r textquality.Report
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || len(r.Rows) == 0 || !strings.Contains(errOut, warning) {
		t.Errorf("bench text --json: exit %d, %d rows, stderr %q", code, len(r.Rows), errOut)
	}
}
