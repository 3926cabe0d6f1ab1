package pdftext

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDumpSpans writes every corpus PDF's text with its spans marked, one
// "[kind]" tag before each marked stretch, into $PDFTEXT_SPANS, to review
// the classification by eye.
func TestDumpSpans(t *testing.T) {
	dir := os.Getenv("PDFTEXT_SPANS")
	if dir == "" {
		t.Skip("set PDFTEXT_SPANS=dir to write text with spans marked")
	}
	for _, f := range corpusPDFs(t) {
		d := extracted(t, f)
		var sb strings.Builder
		pos := 0
		for _, sp := range d.Spans {
			sb.WriteString(d.Text[pos:sp.Start])
			fmt.Fprintf(&sb, "[%s>>", sp.Kind)
			sb.WriteString(d.Text[sp.Start:sp.End])
			fmt.Fprintf(&sb, "<<%s]", sp.Kind)
			pos = sp.End
		}
		sb.WriteString(d.Text[pos:])
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)+".txt"), []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
