package textquality

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// Issue 14's aims on the repository's ground-truth set, measured in one run
// against the reference extractors: our mean Levenshtein ratio at least
// PyMuPDF's (the extractor ElaipBench used), paragraph order at least 0.98
// of pairs, and at least 98% of Greek and operator symbols recovered. Under
// CI a missing PyMuPDF is a setup error (.ci/run installs python3-fitz);
// elsewhere the ratio comparison is skipped without it, since the fallback
// aim (0.97 absolute) is stricter than the comparison and would make the
// test depend on what the machine has installed.
func TestGroundTruthAims(t *testing.T) {
	if testing.Short() {
		t.Skip("extracts every ground-truth PDF with three tools")
	}
	rep, err := Run(context.Background(), Options{Dir: filepath.Join("..", "..", "..", "testdata", "groundtruth")})
	if err != nil {
		t.Fatal(err)
	}
	means := map[string]*Mean{}
	for i := range rep.Means {
		means[rep.Means[i].Tool] = &rep.Means[i]
	}
	ours := means["paperlens"]
	if ours == nil {
		t.Fatalf("no paperlens row in %+v", rep.Means)
	}
	for _, r := range rep.Rows {
		if r.Tool == "paperlens" && r.Err != "" {
			t.Errorf("%s: %s", r.Document, r.Err)
		}
	}
	if ours.Order < 0.98 {
		t.Errorf("paragraph order %.3f of pairs, aim ≥ 0.98", ours.Order)
	}
	if s := ours.AllSymbols; s.Truth == 0 || float64(s.Found)/float64(s.Truth) < 0.98 {
		t.Errorf("symbols recovered %d of %d, aim ≥ 98%%", s.Found, s.Truth)
	}
	py := means["pymupdf"]
	if py == nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("PyMuPDF did not run under CI (%s); .ci/run installs python3-fitz", rep.Unavailable["pymupdf"])
		}
		t.Skipf("PyMuPDF is not installed (%s): the ratio comparison needs it (apt install python3-fitz)", rep.Unavailable["pymupdf"])
	}
	if ours.Ratio < py.Ratio {
		t.Errorf("mean Levenshtein ratio %.4f, PyMuPDF's %.4f in the same run: aim ≥ PyMuPDF's", ours.Ratio, py.Ratio)
	}
	t.Logf("ratio %.4f (PyMuPDF %.4f), order %.3f, symbols %d/%d", ours.Ratio, py.Ratio, ours.Order, ours.AllSymbols.Found, ours.AllSymbols.Truth)
}
