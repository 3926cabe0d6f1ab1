package pdftext

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/paperlens/paperlens/internal/testkit/pdftest"
)

// FuzzExtract feeds damaged PDFs to Extract: it must return normally, with
// either a document or an error. The seed corpus in
// testdata/fuzz/FuzzExtract holds damaged variants of a small synthetic
// PDF and runs as an ordinary test; explore further with
//
//	go test -run '^$' -fuzz FuzzExtract -fuzztime 60s ./doctext/pdftext/
func FuzzExtract(f *testing.F) {
	f.Add(fuzzBase())
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Extract(context.Background(), bytes.NewReader(data), int64(len(data)))
		if (doc == nil) == (err == nil) {
			t.Fatalf("Extract returned doc=%v err=%v; want exactly one", doc != nil, err)
		}
	})
}

// fuzzBase is the synthetic PDF the seeds are derived from.
func fuzzBase() []byte {
	return synthPDF("Fuzz Seed Document", [][]synthText{
		append(column(60, 650, "A short left column", "with a hyphen-", "ated word."),
			column(320, 650, "and a right column", "with \x01ve lines")...),
	})
}

// fuzzSeeds derives the damaged variants kept in testdata.
func fuzzSeeds() map[string][]byte {
	base := fuzzBase()
	mutate := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), base...)) }
	xref := bytes.LastIndex(base, []byte("xref"))
	stream := bytes.Index(base, []byte("stream\n"))
	seeds := map[string][]byte{
		"valid":          base,
		"truncated-half": base[:len(base)/2],
		"no-eof":         base[:len(base)-7],
		"header-only":    []byte("%PDF-1.4\n%%EOF\n"),
		"xref-garbage": mutate(func(b []byte) []byte {
			copy(b[xref+10:], "zz garbage zz")
			return b
		}),
		"startxref-wrong": mutate(func(b []byte) []byte {
			i := bytes.LastIndex(b, []byte("startxref\n")) + len("startxref\n")
			b[i] = '9'
			return b
		}),
		"stream-garbage": mutate(func(b []byte) []byte {
			copy(b[stream+7:], "((((<<<[[[ /// ")
			return b
		}),
		"huge-size": bytes.Replace(base, []byte("/Size "), []byte("/Size 99999999"), 1),
		"page-loop": bytes.Replace(base, []byte("/Type /Pages /Kids ["), []byte("/Type /Pages /Kids [2 0 R "), 1),
	}
	return seeds
}

// TestWriteFuzzSeeds regenerates testdata/fuzz/FuzzExtract when
// PDFTEXT_WRITE_SEEDS is set; otherwise it checks the files are present.
func TestWriteFuzzSeeds(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzExtract")
	seeds := fuzzSeeds()
	if os.Getenv("PDFTEXT_WRITE_SEEDS") != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, data := range seeds {
			body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data)
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name := range seeds {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("seed %s missing (run with PDFTEXT_WRITE_SEEDS=1): %v", name, err)
			continue
		}
		if st.Size() > 50<<10 {
			t.Errorf("seed %s is %d bytes; keep seeds under 50 KB", name, st.Size())
		}
	}
}

// FuzzOpen fuzzes the guard in front of the PDF library: open checks the
// magic, the end-of-file marker and the whole cross-reference chain
// (checkXref) before pdf.NewReader reads a byte, and refuses numbers no
// real file could hold, because the library sizes allocations by them and
// a failed allocation ends the process. Whatever the bytes, open must
// return a reader or an error, not both; the error must wrap one of the
// package's sentinels and be printable ASCII (the library's messages quote
// raw file bytes); and guard and library together must allocate in
// proportion to the file. It is the fast part of FuzzExtract (no page is
// read), so it reaches much further into the cross-reference forms:
//
//	go test -run '^$' -fuzz '^FuzzOpen$' -fuzztime 60s ./doctext/pdftext/
func FuzzOpen(f *testing.F) {
	for _, data := range fuzzSeeds() {
		f.Add(data)
	}
	for _, c := range pdftest.Hostile() {
		if len(c.Data) <= 64<<10 { // the bombs are for TestHostile
			f.Add(c.Data)
		}
	}
	f.Add([]byte("%PDF-1.7\n1 0 obj<</Type/XRef/Size 2/W[1 1 1]/Index[0 2]/Length 6>>stream\n\x01\x00\x00\x01\x09\x00\nendstream\nendobj\nstartxref\n9\n%%EOF\n"))
	f.Add([]byte("junk before %PDF-1.4\nxref\n0 1\n0000000000 65535 f \ntrailer<</Size 1/Prev 0>>\nstartxref\n12\n%%EOF"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		rd, err := open(bytes.NewReader(data), int64(len(data)))
		runtime.ReadMemStats(&after)
		if (rd == nil) == (err == nil) {
			t.Fatalf("open returned reader=%v err=%v; want exactly one", rd != nil, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(64*len(data)+64<<20) {
			t.Fatalf("opening %d bytes allocated %d", len(data), alloc)
		}
		if err == nil {
			return
		}
		known := false
		for _, s := range []error{ErrEmpty, ErrNotPDF, ErrTruncated, ErrEncrypted, ErrMalformed} {
			known = known || errors.Is(err, s)
		}
		if !known {
			t.Fatalf("error %q wraps none of the package's errors", err)
		}
		for _, c := range []byte(err.Error()) {
			if c < 0x20 || c > 0x7e {
				t.Fatalf("error %q holds byte %#x", err, c)
			}
		}
	})
}
