package pdftext

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ledongthuc/pdf"
)

// TestCFFEncodingGolden pins what cffEncoding returns, codes and names or
// the error, for every CFF font program in the repository's PDFs and for
// damaged copies of each (cut short at many lengths, one byte flipped at
// every 7th offset): the damaged copies drive the reader through its
// charset and encoding formats' error paths, which real fonts never take.
// Regenerate with PDFTEXT_WRITE_GOLDEN=1 only for a deliberate change.
func TestCFFEncodingGolden(t *testing.T) {
	h := sha256.New()
	programs := 0
	pdfs, _ := filepath.Glob("testdata/texfonts/*.pdf")
	gt, _ := filepath.Glob("../../testdata/groundtruth/*.pdf")
	for _, path := range append(pdfs, gt...) {
		for _, f := range fixtureFonts(t, path) {
			ff := f.Key("FontDescriptor").Key("FontFile3")
			if ff.Kind() == pdf.Null {
				continue
			}
			rc := ff.Reader()
			data, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				t.Fatal(err)
			}
			programs++
			fmt.Fprintf(h, "%s %s\n", filepath.Base(path), f.Key("BaseFont").Name())
			for n := 0; n < len(data); n += 1 + n/16 {
				fmt.Fprintf(h, "cut %d %s\n", n, cffResult(data[:n]))
			}
			for i := 0; i < len(data); i += 7 {
				bad := append([]byte(nil), data...)
				bad[i] ^= 0xff
				fmt.Fprintf(h, "flip %d %s\n", i, cffResult(bad))
			}
			fmt.Fprintf(h, "whole %s\n", cffResult(data))
		}
	}
	if programs == 0 {
		t.Fatal("no CFF font programs found")
	}
	got := fmt.Sprintf("%d programs %s\n", programs, hex.EncodeToString(h.Sum(nil)))
	const golden = "testdata/cff-encoding.golden"
	if os.Getenv("PDFTEXT_WRITE_GOLDEN") != "" {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("cffEncoding results changed: %q, golden %q", got, want)
	}
}

// cffResult renders cffEncoding's answer: sorted code=name pairs, or the
// error, or nil.
func cffResult(data []byte) string {
	m, err := cffEncoding(data)
	if err != nil {
		return "error " + err.Error()
	}
	if m == nil {
		return "nil"
	}
	var kv []string
	for c, n := range m {
		kv = append(kv, fmt.Sprintf("%d=%s", c, n))
	}
	sort.Strings(kv)
	return strings.Join(kv, ",")
}
