package pdftext

import (
	"context"
	"os/exec"
	"testing"
)

// BenchmarkExtract extracts every corpus PDF once per iteration and reports
// pages per second. Compare with BenchmarkPdftotext:
//
//	go test -run '^$' -bench . ./doctext/pdftext/
func BenchmarkExtract(b *testing.B) {
	files := corpusPDFs(b)
	pages := 0
	for b.Loop() {
		pages = 0
		for _, f := range files {
			d, err := ExtractFile(context.Background(), f)
			if err != nil {
				b.Fatalf("%s: %v", f, err)
			}
			pages += d.Pages
		}
	}
	b.ReportMetric(float64(pages)*float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}

// BenchmarkPdftotext runs poppler's pdftotext on the same files, as the
// yardstick for BenchmarkExtract (process start-up included, as a caller
// shelling out would pay it too).
func BenchmarkPdftotext(b *testing.B) {
	needPdftotext(b)
	files := corpusPDFs(b)
	pages := 0
	for _, f := range files {
		pages += extracted(b, f).Pages
	}
	for b.Loop() {
		for _, f := range files {
			if err := exec.Command("pdftotext", f, "-").Run(); err != nil {
				b.Fatalf("pdftotext %s: %v", f, err)
			}
		}
	}
	b.ReportMetric(float64(pages)*float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}
