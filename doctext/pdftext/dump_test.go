package pdftext

import (
	"cmp"
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
// geometry and layout marks. The file is a shared corpus PDF or, when the
// name holds a slash, any path (the ground-truth documents of the text
// benchmark, say):
//
//	PDFTEXT_BLOCKS=batchnorm.pdf:3 go test -run DumpBlocks -v
//	PDFTEXT_BLOCKS=../../testdata/groundtruth/onecol-rl.pdf:1 go test -run DumpBlocks -v
func TestDumpBlocks(t *testing.T) {
	spec := cmp.Or(os.Getenv("PDFTEXT_BLOCKS"), os.Getenv("PDFTEXT_BLOCKS_FILE"))
	if spec == "" {
		t.Skip("set PDFTEXT_BLOCKS=file.pdf:page (a corpus name, or a path with a slash)")
	}
	i := strings.LastIndex(spec, ":")
	page, err := strconv.Atoi(spec[i+1:])
	if i < 0 || err != nil {
		t.Fatalf("PDFTEXT_BLOCKS=%q: want file.pdf:page", spec)
	}
	path := spec[:i]
	if !strings.Contains(path, "/") {
		path = filepathJoin(t, "corpus", "pdf", path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := open(bytesReaderAt(b), int64(len(b)))
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
		fmt.Printf("== block %d x[%.1f %.1f] y[%.1f %.1f] size %.1f side=%v display=%v equation=%v float=%v\n", i, b.x0, b.x1, b.bottom, b.top, b.size, b.side, b.display, b.equation, b.float)
		for _, l := range b.lines {
			fmt.Printf("   x[%.1f %.1f] y %.1f s %.1f b=%v | %s\n", l.x0, l.x1, l.y, l.size, l.bold, l.text)
		}
	}
}
