package pdftext

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The guards against hostile files sit in front of every parse, so a guard
// too eager would quietly cost real papers their text. testdata/golden.sha256
// holds the SHA-256 of the text and title extracted from each shared PDF
// before the guards existed (hashes only: the papers themselves may not be
// committed). Regenerate with PDFTEXT_WRITE_GOLDEN=1 only for a deliberate
// change of extraction.
func TestGoldenText(t *testing.T) {
	got := map[string]string{}
	for _, path := range corpusPDFs(t) {
		doc := extracted(t, path)
		sum := sha256.Sum256([]byte(doc.Title + "\x00" + doc.Text))
		got[filepath.Base(path)] = hex.EncodeToString(sum[:])
	}
	const golden = "testdata/golden.sha256"
	if os.Getenv("PDFTEXT_WRITE_GOLDEN") != "" {
		var names []string
		for n := range got {
			names = append(names, n)
		}
		sort.Strings(names)
		var b strings.Builder
		for _, n := range names {
			fmt.Fprintf(&b, "%s  %s\n", got[n], n)
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(golden)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if sum, name, ok := strings.Cut(sc.Text(), "  "); ok {
			want[name] = sum
		}
	}
	if len(want) != 14 || len(got) != 14 {
		t.Fatalf("golden has %d files, corpus %d; want 14 each", len(want), len(got))
	}
	for name, sum := range want {
		if got[name] != sum {
			t.Errorf("%s: extracted text changed (sha256 %s, golden %s)", name, got[name], sum)
		}
	}
}
