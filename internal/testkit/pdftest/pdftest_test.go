package pdftest_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/doctext/pdftext"
	"github.com/paperlens/paperlens/internal/testkit/pdftest"
	"github.com/paperlens/paperlens/internal/testkit/scaling"
)

// maxBuildAlloc is the most a generator may allocate: the largest,
// contents-repeat, allocates 18 MB; a bomb built by expanding what it
// compresses would need hundreds of MB or GB.
const maxBuildAlloc = 64 << 20

// Callers rely on the cases being reproducible (a failing batch can be
// rerun) and cheap enough to build in every test. Cheap is counted in
// bytes allocated, which the machine's load does not change (a time bound
// did); BenchmarkBuild gives the time.
func TestDeterministicAndCheap(t *testing.T) {
	first := pdftest.Hostile()
	gens := map[string]func() []byte{
		"predictor-columns-content": pdftest.PredictorColumnsContent,
		"predictor-columns-xref":    pdftest.PredictorColumnsXref,
		"xref-index-huge":           pdftest.XrefIndexHuge,
		"xref-subsection-huge":      pdftest.XrefSubsectionHuge,
		"size-signed":               pdftest.SizeSigned,
		"objstm-self":               pdftest.ObjStmSelf,
		"contents-repeat":           pdftest.ContentsRepeat,
		"tounicode-bomb":            pdftest.ToUnicodeBomb,
		"flate-string-bomb":         pdftest.FlateBomb,
		"prev-loop":                 pdftest.PrevLoop,
		"extends-loop":              pdftest.ExtendsLoop,
		"deep-nesting":              pdftest.DeepNesting,
	}
	if len(first) != len(gens) {
		t.Fatalf("Hostile has %d cases, the test knows %d", len(first), len(gens))
	}
	for _, c := range first {
		gen := gens[c.Name]
		if gen == nil {
			t.Errorf("unknown case %q", c.Name)
			continue
		}
		var again []byte
		if a := scaling.Allocated(func() { again = gen() }); a > maxBuildAlloc {
			t.Errorf("%s allocated %d bytes to build, over %d", c.Name, a, maxBuildAlloc)
		}
		if one, ok := pdftest.ByName(c.Name); !ok || !bytes.Equal(one.Data, c.Data) || one.What != c.What {
			t.Errorf("ByName(%s) differs from Hostile", c.Name)
		}
		if !bytes.Equal(c.Data, again) {
			t.Errorf("%s is not deterministic", c.Name)
		}
		if !bytes.HasPrefix(c.Data, []byte("%PDF-1.7\n")) || !bytes.HasSuffix(c.Data, []byte("%%EOF\n")) || c.What == "" {
			t.Errorf("%s: bad envelope or no description", c.Name)
		}
	}
}

func TestGood(t *testing.T) {
	data := pdftest.Good("Hello (hostile) world\nsecond line")
	doc, err := pdftext.Extract(context.Background(), bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Text, "Hello (hostile) world") || !strings.Contains(doc.Text, "second line") {
		t.Errorf("text = %q", doc.Text)
	}
}

// BenchmarkBuild times building every hostile case once (the doc's "well
// under 100 ms" each).
func BenchmarkBuild(b *testing.B) {
	for b.Loop() {
		for _, c := range pdftest.Hostile() {
			if _, ok := pdftest.ByName(c.Name); !ok {
				b.Fatal(c.Name)
			}
		}
	}
}
