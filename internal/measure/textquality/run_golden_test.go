package textquality

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestRunGolden pins what Run reports for our extractor on the
// repository's ground truth (two rounds, texts saved): each row's scores,
// paragraph and symbol counts, characters and error, and our mean, less
// the times, which vary, and the ratio against PyMuPDF, which depends on
// what the machine has. The saved texts must be the rows' texts.
// Regenerate with TEXTQUALITY_WRITE_GOLDEN=1 only for a deliberate change.
func TestRunGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("extracts every ground-truth PDF")
	}
	save := t.TempDir()
	rep, err := Run(context.Background(), Options{Dir: filepath.Join("..", "..", "..", "testdata", "groundtruth"), Rounds: 2, Save: save})
	if err != nil {
		t.Fatal(err)
	}
	type pinned struct {
		Documents []string `json:"documents"`
		Rounds    int      `json:"rounds"`
		Rows      []Row    `json:"rows"`
		Mean      Mean     `json:"mean"`
	}
	p := pinned{Documents: rep.Documents, Rounds: rep.Rounds}
	for _, r := range rep.Rows {
		if r.Tool != Ours {
			continue
		}
		b, err := os.ReadFile(filepath.Join(save, Ours, r.Document+".txt"))
		if err != nil || len([]rune(string(b))) != r.Chars {
			t.Errorf("%s: saved text of %d chars (%v), row says %d", r.Document, len([]rune(string(b))), err, r.Chars)
		}
		r.Seconds = 0
		p.Rows = append(p.Rows, r)
	}
	for _, m := range rep.Means {
		if m.Tool == Ours {
			m.Seconds, m.RatioVsPyMuPDF = 0, 0
			p.Mean = m
		}
	}
	got, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	const golden = "testdata/run-golden.json"
	if os.Getenv("TEXTQUALITY_WRITE_GOLDEN") != "" {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("Run's report for our extractor changed from %s", golden)
	}
}
