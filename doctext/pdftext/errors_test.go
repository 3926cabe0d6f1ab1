package pdftext

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/internal/testkit/pdftest"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// printable reports whether a message is safe to print on a terminal: only
// printable ASCII, so no control codes and no raw bytes of the file.
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// Every hostile case is refused with a message naming its damage. Only the
// cases whose guard sits before the library are run in process: the others
// are bounded too (TestHostile proves it in a child), but a test process
// should not lean on that.
func TestHostileMessages(t *testing.T) {
	want := map[string]string{
		"predictor-columns-xref": "predictor /Columns 100000000000 is impossible",
		"xref-index-huge":        "/Index [3000000000 1] is impossible",
		"xref-subsection-huge":   "subsection 999999999 1 is impossible",
		"size-signed":            "/Size +90000000000 is signed",
		"prev-loop":              "/Prev chain of cross-reference sections loops",
	}
	for _, c := range pdftest.Hostile() {
		sub, ok := want[c.Name]
		if !ok {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			_, err := Extract(context.Background(), bytes.NewReader(c.Data), int64(len(c.Data)))
			if !errors.Is(err, ErrDamagedXref) || !errors.Is(err, ErrMalformed) || errors.Is(err, ErrTruncated) {
				t.Fatalf("err = %v, want a damaged cross-reference table", err)
			}
			if !strings.Contains(err.Error(), sub) || !printable(err.Error()) {
				t.Errorf("err = %q, want printable and containing %q", err, sub)
			}
		})
	}
}

func TestHonestErrors(t *testing.T) {
	good := pdftest.Good("Honest errors")
	sx := bytes.LastIndex(good, []byte("startxref\n")) + len("startxref\n")
	xref := bytes.LastIndex(good, []byte("xref\n0 "))
	with := func(at int, s string) []byte {
		b := append([]byte(nil), good...)
		copy(b[at:], s)
		return b
	}
	startxref := func(off string) []byte {
		return append(append(append([]byte(nil), good[:sx]...), off...), "\n%%EOF\n"...)
	}
	tests := []struct {
		name string
		data []byte
		want error
		says string
	}{
		{"no %%EOF", good[:len(good)-7], ErrTruncated, "no end-of-file marker"},
		{"startxref off the end", startxref("99999"), ErrDamagedXref, "startxref 99999 points outside"},
		{"startxref into text", startxref("10"), ErrDamagedXref, "damaged cross-reference table"},
		// A crafted file used to send these codes to the terminal through
		// the library's error, which quotes what it found.
		{"control codes in the table", with(xref, "xref\n\x1b[2J\x1bc\x1b]0;pwned\x07 \x9b31m"), ErrDamagedXref, "damaged cross-reference table"},
		{"junk after %%EOF", append(append([]byte(nil), good...), bytes.Repeat([]byte("junk "), 40)...), ErrMalformed, "other data follows the end-of-file marker"},
		{"unknown version", with(0, "%PDF-2.0"), ErrMalformed, "header"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Extract(context.Background(), bytes.NewReader(tc.data), int64(len(tc.data)))
			if err == nil {
				t.Fatalf("got a document (%q), want %v", doc.Text, tc.want)
			}
			if !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			if tc.want != ErrTruncated && errors.Is(err, ErrTruncated) {
				t.Errorf("err = %v: the file ends with %%%%EOF, it is not truncated", err)
			}
			t.Logf("%v", err)
			if !printable(err.Error()) || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("err = %q, want printable and containing %q", err, tc.says)
			}
		})
	}
}

// TestBadCorpusMessages: the shared broken files get printable messages
// naming the problem.
func TestBadCorpusMessages(t *testing.T) {
	for _, path := range testcorpus.Glob(t, "corpus", "bad", "*") {
		_, err := ExtractFile(context.Background(), path)
		if err == nil {
			t.Errorf("%s: no error", filepath.Base(path))
			continue
		}
		if !printable(err.Error()) || !errors.Is(err, ErrEmpty) && !errors.Is(err, ErrNotPDF) && !errors.Is(err, ErrTruncated) {
			t.Errorf("%s: %q", filepath.Base(path), err)
		}
	}
}

// TestDamagedNotTruncated damages real papers everywhere but their last
// bytes: whatever the outcome, it is never "truncated" (193 such files were
// in the red-team run), and every message and warning is printable.
func TestDamagedNotTruncated(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	for _, name := range []string{"semqa.pdf"} {
		orig, err := os.ReadFile(filepathJoin(t, "corpus", "pdf", name))
		if err != nil {
			t.Fatal(err)
		}
		xref := bytes.LastIndex(orig, []byte("startxref"))
		errs := 0
		for i := 0; i < 16; i++ {
			b := append([]byte(nil), orig...)
			// Half the variants hit the cross-reference area, where the
			// library fails; the rest anywhere before the trailer.
			at := rng.Intn(xref)
			if i%2 == 0 {
				at = max(0, xref-rng.Intn(600))
			}
			junk := make([]byte, 48)
			for j := range junk {
				junk[j] = byte(rng.Intn(256))
			}
			copy(b[at:xref], junk)
			doc, err := Extract(context.Background(), bytes.NewReader(b), int64(len(b)))
			if err != nil {
				errs++
				if errors.Is(err, ErrTruncated) {
					t.Errorf("%s variant %d: %v", name, i, err)
				}
				if !printable(err.Error()) {
					t.Errorf("%s variant %d: unprintable %q", name, i, err)
				}
				continue
			}
			for _, w := range doc.Warnings {
				if !printable(w) {
					t.Errorf("%s variant %d: unprintable warning %q", name, i, w)
				}
			}
		}
		t.Logf("%s: 16 variants, %d errors", name, errs)
		if errs == 0 {
			t.Errorf("%s: no variant failed; the test no longer reaches the library's errors", name)
		}
	}
}

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"malformed PDF: malformed PDF: x":    "x",
		"a\x1b[2Jb\x1bc\x07":                 "a[2Jbc",
		"bytes \xff\xfe\u00e9\u2028 here\n":  "bytes here",
		"  lots   of\t\tspace  ":             "lots of space",
		strings.Repeat("y", 500):             strings.Repeat("y", maxMessage) + "...",
		"unexpected keyword \"\\x1b[2J\" ok": "unexpected keyword \"\\x1b[2J\" ok",
	} {
		if got := clean(in); got != want {
			t.Errorf("clean(%q) = %q, want %q", in, got, want)
		}
	}
}

// An indirect reference's object number is not the value it stands for.
func TestDirectNumbers(t *testing.T) {
	dict := []byte("<< /Type /XRef /Length 5000 0 R /Size 7 /Prev 12 >>")
	if v := direct(lengthRE, dict); v != nil {
		t.Errorf("/Length 5000 0 R read as %s", v)
	}
	if v := direct(sizeRE, dict); string(v) != "7" {
		t.Errorf("/Size read as %q", v)
	}
	if err := checkXrefStream(dict, 100, 90); err != nil {
		t.Errorf("indirect /Length refused: %v", err)
	}
}

func TestTitleControlCodes(t *testing.T) {
	good := pdftest.Good("Some text on the page")
	// PDFDocEncoding maps control bytes to letters; UTF-16 does not.
	evil := []byte("/Title <FEFF 0045 0076 0069 006C 001B 005B 0032 004A 0020 0054 0069 0074 006C 0065 009B>")
	data := bytes.Replace(good, []byte("/Title (pdftest)"), evil, 1)
	// The info dictionary is the last object, so only the table moves.
	sx := bytes.LastIndex(data, []byte("startxref\n"))
	xref := bytes.LastIndex(data, []byte("xref\n0 "))
	data = append(data[:sx], fmt.Sprintf("startxref\n%d\n%%%%EOF\n", xref)...)
	doc, err := Extract(context.Background(), bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range doc.Title {
		if r < 0x20 || r >= 0x7f && r < 0xa0 {
			t.Fatalf("title %q carries control codes", doc.Title)
		}
	}
	if doc.Title != "Evil[2J Title" {
		t.Errorf("title = %q", doc.Title)
	}
}
