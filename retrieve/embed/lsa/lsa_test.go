package lsa_test

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/retrieve/embed"
	"github.com/paperlens/paperlens/retrieve/embed/lsa"
)

var tiny = []string{
	"Dense retrieval embeds questions and passages with a neural encoder.",
	"BM25 ranks passages by term frequency and inverse document frequency.",
	"Annotators wrote multiple-choice questions about research papers.",
}

func TestTinyCorpus(t *testing.T) {
	m, err := lsa.Fit(tiny, lsa.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Dim() < 1 || m.Dim() > len(tiny) {
		t.Fatalf("Dim %d for %d texts: should be capped by the corpus", m.Dim(), len(tiny))
	}
	if want := "lsa-" + itoa(m.Dim()) + "@"; !strings.HasPrefix(m.Name(), want) {
		t.Errorf("Name %q, want prefix %q", m.Name(), want)
	}
	vecs, err := m.Embed(context.Background(), append(tiny, "passages ranked by frequency"), embed.Query)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vecs {
		if n := math.Sqrt(embed.Dot(v, v)); math.Abs(n-1) > 1e-5 {
			t.Errorf("vector %d norm %g", i, n)
		}
	}
	// The query shares "passages", "frequency" and "ranks" (stemmed) with
	// the BM25 text only.
	q := vecs[len(tiny)]
	best, at := -2.0, -1
	for i := range tiny {
		if s := embed.Dot(q, vecs[i]); s > best {
			best, at = s, i
		}
	}
	if at != 1 {
		t.Errorf("query closest to text %d, want 1 (BM25)", at)
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + itoa(n%10)
}

// TestContentless documents the behaviour for texts with nothing to embed:
// the zero vector of length Dim, which has cosine 0 with everything.
func TestContentless(t *testing.T) {
	m, err := lsa.Fit(tiny, lsa.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"", "   \n\t", "the of and a", "zzzunknownword qqqnothing", "!!! ??? ..."} {
		vecs, err := m.Embed(context.Background(), []string{text}, embed.Passage)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if len(vecs[0]) != m.Dim() {
			t.Fatalf("%q: length %d, Dim %d", text, len(vecs[0]), m.Dim())
		}
		for _, x := range vecs[0] {
			if x != 0 {
				t.Fatalf("%q: want the zero vector, got %v", text, vecs[0])
			}
		}
	}
	got, err := m.Embed(context.Background(), nil, embed.Passage)
	if err != nil || len(got) != 0 {
		t.Fatalf("Embed(nil) = %v, %v", got, err)
	}
}

func TestFitErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		texts []string
		want  string
	}{
		{"no texts", nil, "no texts"},
		{"only stop words", []string{"the and of", "", "a an"}, "no term"},
		{"nothing twice", []string{"alpha", "beta"}, ""}, // MinDF 1 below MinDFCorpus: fits
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := lsa.Fit(tc.texts, lsa.Options{})
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestCancelled(t *testing.T) {
	m, err := lsa.Fit(tiny, lsa.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Embed(ctx, tiny, embed.Query); !errors.Is(err, context.Canceled) {
		t.Fatalf("Embed with a cancelled context: %v", err)
	}
}

func TestLoadRejectsDamage(t *testing.T) {
	m, err := lsa.Fit(tiny, lsa.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "good.model")
	if err := m.Save(good); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	// A vocabulary term changed in place ("bm25" → "bm26"): the file still
	// decodes, so only the recomputed fingerprint can catch it.
	flipped := append([]byte(nil), data...)
	at := strings.Index(string(flipped), "bm25")
	if at < 0 {
		t.Fatal("term bm25 not found in the saved model")
	}
	flipped[at+3] = '6'
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"not a model", []byte("hello world, this is not a model file")},
		{"truncated", data[:len(data)/2]},
		{"altered term", flipped},
		{"empty", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_"))
			if err := os.WriteFile(p, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			if l, err := lsa.Load(p); err == nil {
				t.Fatalf("loaded a damaged model as %s", l.Name())
			} else if !strings.Contains(err.Error(), p) {
				t.Errorf("error does not name the file: %v", err)
			}
		})
	}
	if _, err := lsa.Load(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
