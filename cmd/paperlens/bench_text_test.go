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

	"github.com/paperlens/paperlens/internal/textbench"
)

// groundTruth is the repository's set, seen from this package's directory.
var groundTruth = filepath.Join("..", "..", "testdata", "groundtruth")

func TestBenchTextScoresEveryDocumentWithEveryTool(t *testing.T) {
	t.Parallel()
	out, errOut, code := paperlens(t, "bench", "text", "--json", groundTruth)
	if code != 0 {
		t.Fatalf("bench text exited %d: %s", code, errOut)
	}
	var r textbench.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("bench text --json printed %q: %v", out, err)
	}

	// The documents are exactly the PDFs that have a ground-truth text.
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

	// Every tool this machine has ran; the others are said to be missing.
	tools := []string{textbench.Ours}
	if _, err := exec.LookPath("pdftotext"); err == nil {
		tools = append(tools, textbench.Pdftotext)
	}
	if exec.Command(textbench.Python, "-c", "import fitz").Run() == nil {
		tools = append(tools, textbench.PyMuPDF)
	} else if r.Unavailable[textbench.PyMuPDF] == "" {
		t.Errorf("PyMuPDF cannot run here but the report does not say so: %+v", r.Unavailable)
	}
	if strings.Join(r.Tools, ",") != strings.Join(tools, ",") {
		t.Fatalf("tools %q, want %q", r.Tools, tools)
	}
	if len(r.Rows) != len(want)*len(tools) {
		t.Fatalf("%d rows, want %d documents × %d tools", len(r.Rows), len(want), len(tools))
	}
	seen := map[string]bool{}
	for _, row := range r.Rows {
		seen[row.Tool+"/"+row.Document] = true
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
	for _, tool := range tools {
		for _, d := range want {
			if !seen[tool+"/"+d] {
				t.Errorf("no row for %s on %s", tool, d)
			}
		}
	}

	// Each mean is the mean of that tool's rows.
	if len(r.Means) != len(tools) {
		t.Fatalf("%d means, want one per tool (%d)", len(r.Means), len(tools))
	}
	var pymupdf float64
	for _, m := range r.Means {
		var sum textbench.Scores
		var found, truth int
		n := 0
		for _, row := range r.Rows {
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
		if m.Tool == textbench.PyMuPDF {
			pymupdf = m.Ratio
		}
	}
	for _, m := range r.Means {
		if pymupdf > 0 && math.Abs(m.RatioVsPyMuPDF-m.Ratio/pymupdf) > 1e-9 {
			t.Errorf("%s ratio against PyMuPDF = %v, means give %v", m.Tool, m.RatioVsPyMuPDF, m.Ratio/pymupdf)
		}
	}

	// pdftotext's score is the metric on pdftotext's own output, run here.
	if len(tools) > 1 && tools[1] == textbench.Pdftotext {
		d := want[0]
		txt, err := exec.Command("pdftotext", "-enc", "UTF-8", filepath.Join(groundTruth, d+".pdf"), "-").Output()
		if err != nil {
			t.Fatalf("pdftotext %s: %v", d, err)
		}
		truth, err := os.ReadFile(filepath.Join(groundTruth, d+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range r.Rows {
			if row.Tool == textbench.Pdftotext && row.Document == d {
				if w := textbench.Ratio(string(truth), string(txt)); row.Ratio != w {
					t.Errorf("pdftotext on %s: reported ratio %v, the metric on its output gives %v", d, row.Ratio, w)
				}
				if w := textbench.SymbolRecall(string(truth), string(txt)).Score; row.Symbols != w {
					t.Errorf("pdftotext on %s: reported symbols %v, the metric on its output gives %v", d, row.Symbols, w)
				}
			}
		}
	}
}

func TestBenchTextTable(t *testing.T) {
	t.Parallel()
	out, errOut, code := paperlens(t, "bench", "text", groundTruth)
	if code != 0 {
		t.Fatalf("bench text exited %d: %s", code, errOut)
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

func TestBenchTextWithoutGroundTruth(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	missing := filepath.Join(empty, "no-such-dir")
	tests := []struct {
		name string
		dir  string   // working directory
		args []string // after "bench text"
		want []string // in the error
	}{
		{"missing DIR", "", []string{missing}, []string{missing, "no such file"}},
		{"DIR without pairs", "", []string{empty}, []string{empty, "no ground truth", "NAME.pdf"}},
		{"no DIR, not at the repository root", empty, nil, []string{"testdata/groundtruth", "paperlens bench text DIR"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := paperlensProcess(append([]string{"bench", "text"}, tt.args...)...)
			c.Dir = tt.dir
			var out, errb bytes.Buffer
			c.Stdout, c.Stderr = &out, &errb
			err := c.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() == 0 {
				t.Fatalf("bench text %v in %q: %v, want a failure; stdout %q", tt.args, tt.dir, err, out.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(errb.String(), w) {
					t.Errorf("error %q does not say %q", errb.String(), w)
				}
			}
		})
	}
}
