package pdftext

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// TestGoldenDocuments pins the whole Document (title, page count, text,
// spans, warnings) or the error extracted from every PDF the project can
// read: the repository's own test PDFs, the fuzz seeds, and the shared
// corpus (papers, broken files, the py-pdf benchmark PDFs). TestGoldenText
// pins only title and text of the 14 papers; refactoring the extractor's
// stages (tables, CMaps, CFF encodings, figure text, furniture) must leave
// the spans and warnings byte-identical too. Hashes only, since the shared
// papers may not be committed. Regenerate with PDFTEXT_WRITE_GOLDEN=1 only
// for a deliberate change of extraction.
func TestGoldenDocuments(t *testing.T) {
	if testing.Short() {
		t.Skip("extracts every PDF; skipped with -short")
	}
	got := map[string]string{}
	for label, data := range goldenInputs(t) {
		got[label] = documentDigest(data)
	}
	const golden = "testdata/golden-docs.sha256"
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
	raw, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(raw)), "\n") {
		if sum, name, ok := strings.Cut(line, "  "); ok {
			want[name] = sum
		}
	}
	for name, sum := range want {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s: in the golden file but not found", name)
		case g != sum:
			t.Errorf("%s: extracted document changed (sha256 %s, golden %s)", name, g, sum)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: not in %s (regenerate deliberately with PDFTEXT_WRITE_GOLDEN=1)", name, golden)
		}
	}
}

// documentDigest extracts data and hashes the JSON of the Document, or the
// error text when extraction fails (the broken files must keep failing the
// same way).
func documentDigest(data []byte) string {
	var out []byte
	doc, err := Extract(context.Background(), bytes.NewReader(data), int64(len(data)))
	if err != nil {
		out = []byte("error: " + err.Error())
	} else if out, err = json.Marshal(doc); err != nil {
		out = []byte("marshal: " + err.Error())
	}
	sum := sha256.Sum256(out)
	return hex.EncodeToString(sum[:])
}

// goldenInputs returns every PDF's bytes by a stable label: "repo/<path from
// the module root>", "fuzz/<seed>" and "shared/<path under shared>".
func goldenInputs(t *testing.T) map[string][]byte {
	t.Helper()
	in := map[string][]byte{}
	add := func(label, path string) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		in[label] = data
	}
	for _, pattern := range []string{"../../testdata/*/*.pdf", "testdata/texfonts/*.pdf"} {
		m, _ := filepath.Glob(pattern)
		for _, p := range m {
			add("repo/"+strings.TrimPrefix(filepath.ToSlash(filepath.Join("doctext/pdftext", p)), "doctext/pdftext/../../"), p)
		}
	}
	seeds, _ := filepath.Glob("testdata/fuzz/FuzzExtract/*")
	for _, p := range seeds {
		data, err := readFuzzSeed(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		in["fuzz/"+filepath.Base(p)] = data
	}
	root := testcorpus.Root(t)
	for _, pattern := range [][]string{
		{"corpus", "pdf", "*.pdf"},
		{"corpus", "bad", "*"},
		{"external", "pdfbench", "pdfs", "*.pdf"},
	} {
		for _, p := range testcorpus.Glob(t, pattern...) {
			rel, _ := filepath.Rel(root, p)
			add("shared/"+filepath.ToSlash(rel), p)
		}
	}
	if len(in) < 30 {
		t.Fatalf("only %d golden inputs found; the corpus moved?", len(in))
	}
	return in
}

// readFuzzSeed decodes a one-value "go test fuzz v1" corpus file.
func readFuzzSeed(path string) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	_, body, ok := strings.Cut(string(raw), "\n")
	body = strings.TrimSpace(body)
	if !ok || !strings.HasPrefix(body, "[]byte(") || !strings.HasSuffix(body, ")") {
		return nil, fmt.Errorf("not a []byte fuzz seed")
	}
	s, err := strconv.Unquote(body[len("[]byte(") : len(body)-1])
	return []byte(s), err
}
