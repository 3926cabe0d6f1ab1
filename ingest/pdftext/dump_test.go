package pdftext

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Debugging aids for tuning the layout rules; both are skipped unless their
// environment variable is set.

// TestDump writes our text for every corpus PDF into the directory
// $PDFTEXT_DUMP, for side-by-side reading with pdftotext's output.
func TestDump(t *testing.T) {
	dir := os.Getenv("PDFTEXT_DUMP")
	if dir == "" {
		t.Skip("set PDFTEXT_DUMP=dir to write extracted text")
	}
	for _, f := range corpusPDFs(t) {
		d := extracted(t, f)
		out := filepath.Join(dir, filepath.Base(f)+".txt")
		if err := os.WriteFile(out, []byte("TITLE: "+d.Title+"\n\n"+d.Text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDumpBlocks prints one page's blocks in reading order with their
// geometry: PDFTEXT_BLOCKS=batchnorm.pdf:3 go test -run DumpBlocks -v
func TestDumpBlocks(t *testing.T) {
	spec := os.Getenv("PDFTEXT_BLOCKS")
	if spec == "" {
		t.Skip("set PDFTEXT_BLOCKS=file.pdf:page")
	}
	name, num, _ := strings.Cut(spec, ":")
	page, err := strconv.Atoi(num)
	if err != nil {
		t.Fatalf("PDFTEXT_BLOCKS=%q: want file.pdf:page", spec)
	}
	f, err := os.Open(filepathJoin(t, "corpus", "pdf", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	rd, err := open(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	pages, err := pageList(rd)
	if err != nil {
		t.Fatal(err)
	}
	if page < 1 || page > len(pages) {
		t.Fatalf("page %d out of 1..%d", page, len(pages))
	}
	pl, err := extractPage(pages[page-1], &docFonts{byRef: map[string]*font{}})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("page %.0fx%.0f\n", pl.width, pl.height)
	for i, b := range pl.blocks {
		fmt.Printf("== block %d x[%.1f %.1f] y[%.1f %.1f] size %.1f side=%v\n", i, b.x0, b.x1, b.bottom, b.top, b.size, b.side)
		for _, l := range b.lines {
			fmt.Printf("   x[%.1f %.1f] y %.1f s %.1f b=%v | %s\n", l.x0, l.x1, l.y, l.size, l.bold, l.text)
		}
	}
}
