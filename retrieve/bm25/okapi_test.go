package bm25

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/retrieve"
)

func passages(paper string, texts ...string) []corpus.Passage {
	out := make([]corpus.Passage, len(texts))
	for i, t := range texts {
		out[i] = corpus.Passage{PaperID: paper, PassageID: corpus.PassageID(paper, i), Ordinal: i, Text: t}
	}
	return out
}

// okapiByHand is BM25Okapi's per-term weight written out from the formula,
// independently of the package: idf × tf(k1+1) / (tf + k1(1 - b + b·dl/avgdl)).
func okapiByHand(idf, tf, dl, avgdl float64) float64 {
	const k1, b = 1.5, 0.75
	return idf * tf * (k1 + 1) / (tf + k1*(1-b+b*dl/avgdl))
}

func newOkapi(t *testing.T, opt OkapiOptions, ps ...[]corpus.Passage) *Okapi {
	t.Helper()
	o, err := NewOkapi(opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if err := o.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	return o
}

func scoresByID(hits []retrieve.Hit) map[string]float64 {
	m := map[string]float64{}
	for _, h := range hits {
		m[h.PassageID] = h.Score
	}
	return m
}

// The tiny corpus: paper "pets" has three passages, paper "far" two.
//
//	pets#0 "the cat sat on the mat"        6 tokens
//	pets#1 "the dog sat"                   3 tokens
//	pets#2 "a cat and a dog and a bird"    8 tokens
//	far#0  "a bird in the hand"            5 tokens
//	far#1  "zebra"                         1 token
var (
	petsText = []string{"the cat sat on the mat", "the dog sat", "a cat and a dog and a bird"}
	farText  = []string{"a bird in the hand", "zebra"}
)

func TestOkapiScoresByHand(t *testing.T) {
	// Within "pets" (whitespace tokens): N=3, avgdl=17/3. Vocabulary and df:
	// the, cat, sat, dog: 2 (idf ln(1.5/2.5) < 0, floored); on, mat, a, and,
	// bird: 1 (idf ln(2.5/1.5)). The floor is 0.25 × the mean raw idf over
	// those 9 terms.
	pIDF1 := math.Log(2.5 / 1.5)
	pFloor := 0.25 * (5*math.Log(2.5/1.5) + 4*math.Log(1.5/2.5)) / 9
	pAvg := 17.0 / 3

	// Corpus-wide: N=5, avgdl=23/5. df: the 3 (idf ln(2.5/3.5) < 0); a,
	// bird, cat, sat, dog 2 (idf ln(3.5/2.5)); on, mat, and, in, hand,
	// zebra 1 (idf ln(4.5/1.5)). 12 terms in all.
	cIDF1, cIDF2 := math.Log(4.5/1.5), math.Log(3.5/2.5)
	cFloor := 0.25 * (6*cIDF1 + 5*cIDF2 + math.Log(2.5/3.5)) / 12
	cAvg := 23.0 / 5

	cases := []struct {
		name  string
		query string
		paper string
		want  map[string]float64
		// wantApprox pins the same values to 3 decimals, computed once by
		// hand, so a shared error in okapiByHand cannot hide.
		wantApprox map[string]float64
	}{
		{
			name: "floored idf", query: "cat", paper: "pets",
			want: map[string]float64{
				"pets#0": okapiByHand(pFloor, 1, 6, pAvg),
				"pets#2": okapiByHand(pFloor, 1, 8, pAvg),
			},
			wantApprox: map[string]float64{"pets#0": 0.0138, "pets#2": 0.0120},
		},
		{
			name: "rare term and term frequency", query: "a bird", paper: "pets",
			want: map[string]float64{
				"pets#2": okapiByHand(pIDF1, 3, 8, pAvg) + okapiByHand(pIDF1, 1, 8, pAvg),
			},
			wantApprox: map[string]float64{"pets#2": 1.2029},
		},
		{
			name: "repeated query term counts twice", query: "mat mat dog", paper: "pets",
			want: map[string]float64{
				"pets#0": 2 * okapiByHand(pIDF1, 1, 6, pAvg),
				"pets#1": okapiByHand(pFloor, 1, 3, pAvg),
				"pets#2": okapiByHand(pFloor, 1, 8, pAvg),
			},
			wantApprox: map[string]float64{"pets#0": 0.9953, "pets#1": 0.0180, "pets#2": 0.0120},
		},
		{
			name: "unknown term scores nothing", query: "unicorn cat", paper: "pets",
			want: map[string]float64{
				"pets#0": okapiByHand(pFloor, 1, 6, pAvg),
				"pets#2": okapiByHand(pFloor, 1, 8, pAvg),
			},
		},
		{
			name: "other paper's statistics", query: "bird", paper: "far",
			// N=2, df=1: idf ln(1.5/1.5) = 0 exactly, which is not floored.
			want: map[string]float64{"far#0": 0},
		},
		{
			name: "corpus-wide statistics", query: "the bird", paper: "",
			want: map[string]float64{
				"pets#0": okapiByHand(cFloor, 2, 6, cAvg),
				"pets#1": okapiByHand(cFloor, 1, 3, cAvg),
				"pets#2": okapiByHand(cIDF2, 1, 8, cAvg),
				"far#0":  okapiByHand(cFloor, 1, 5, cAvg) + okapiByHand(cIDF2, 1, 5, cAvg),
			},
			wantApprox: map[string]float64{"pets#0": 0.2152, "pets#1": 0.1961, "pets#2": 0.2525, "far#0": 0.4829},
		},
	}
	o := newOkapi(t, OkapiOptions{Tokenizer: TokenizerWhitespace}, passages("pets", petsText...), passages("far", farText...))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hits, err := o.Search(context.Background(), retrieve.Query{Text: c.query, PaperID: c.paper, K: 10})
			if err != nil {
				t.Fatal(err)
			}
			got := scoresByID(hits)
			if len(got) != len(c.want) {
				t.Fatalf("hits %v, want %v", got, c.want)
			}
			for id, w := range c.want {
				if g, ok := got[id]; !ok || math.Abs(g-w) > 1e-12 {
					t.Errorf("%s: score %v, want %v", id, g, w)
				}
			}
			for id, w := range c.wantApprox {
				if math.Abs(got[id]-w) > 5e-4 {
					t.Errorf("%s: score %.4f, want %.4f by hand", id, got[id], w)
				}
			}
			for i := 1; i < len(hits); i++ {
				if hits[i].Score > hits[i-1].Score || hits[i].Rank != i+1 {
					t.Errorf("hits out of order: %+v", hits)
				}
			}
		})
	}
}

func TestOkapiAnalyzerTokenizer(t *testing.T) {
	// The analyzer drops "the", "on", "a", "and", stems nothing here, and
	// lower-cases, so "The CAT's" is the query "cat".
	o := newOkapi(t, OkapiOptions{}, passages("pets", petsText...))
	hits, err := o.Search(context.Background(), retrieve.Query{Text: "The CAT's", PaperID: "pets", K: 5})
	if err != nil {
		t.Fatal(err)
	}
	// Analysed: pets#0 = cat sat mat (3), pets#1 = dog sat (2), pets#2 =
	// cat dog bird (3); avgdl 8/3. Vocabulary cat, sat, mat, dog, bird
	// with df 2, 2, 1, 2, 1.
	floor := 0.25 * (2*math.Log(2.5/1.5) + 3*math.Log(1.5/2.5)) / 5
	want := map[string]float64{
		"pets#0": okapiByHand(floor, 1, 3, 8.0/3),
		"pets#2": okapiByHand(floor, 1, 3, 8.0/3),
	}
	got := scoresByID(hits)
	if !reflect.DeepEqual(keys(got), keys(want)) {
		t.Fatalf("hits %v, want %v", got, want)
	}
	for id, w := range want {
		if math.Abs(got[id]-w) > 1e-12 {
			t.Errorf("%s: %v, want %v", id, got[id], w)
		}
	}
	// Equal scores: ordinal order.
	if hits[0].PassageID != "pets#0" {
		t.Errorf("tie broken as %v", hits)
	}
}

func keys(m map[string]float64) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

func TestOkapiErrors(t *testing.T) {
	o := newOkapi(t, OkapiOptions{}, passages("pets", petsText...))
	ws := newOkapi(t, OkapiOptions{Tokenizer: TokenizerWhitespace}, passages("pets", petsText...))
	ctx := context.Background()
	cases := []struct {
		name string
		o    *Okapi
		q    retrieve.Query
		want error
	}{
		{"stop words only", o, retrieve.Query{Text: "the of and? (a)", K: 5}, ErrEmptyQuery},
		{"blank", ws, retrieve.Query{Text: " \t\n", K: 5}, ErrEmptyQuery},
		{"k zero", o, retrieve.Query{Text: "cat", K: 0}, ErrInvalidK},
		{"k negative", o, retrieve.Query{Text: "cat", PaperID: "pets", K: -3}, ErrInvalidK},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := c.o.Search(ctx, c.q); !errors.Is(err, c.want) {
				t.Fatalf("err %v, want %v", err, c.want)
			}
		})
	}
	hits, err := o.Search(ctx, retrieve.Query{Text: "cat", PaperID: "nope", K: 5})
	if err != nil || len(hits) != 0 {
		t.Errorf("unknown paper: %v, %v", hits, err)
	}
	if _, err := NewOkapi(OkapiOptions{Tokenizer: "bpe"}); err == nil {
		t.Error("unknown tokenizer accepted")
	}
	if err := o.Add([]corpus.Passage{{Text: "orphan"}}); err == nil {
		t.Error("passage without paper accepted")
	}
}

func TestOkapiReplaceAndDelete(t *testing.T) {
	ctx := context.Background()
	o := newOkapi(t, OkapiOptions{Tokenizer: TokenizerWhitespace}, passages("pets", petsText...), passages("far", farText...))
	// Upsert by passage id: pets#1 changes text, count unchanged.
	if err := o.Add([]corpus.Passage{{PaperID: "pets", PassageID: "pets#1", Ordinal: 1, Text: "the zebra sat"}}); err != nil {
		t.Fatal(err)
	}
	if o.Count() != 5 {
		t.Fatalf("count %d after upsert, want 5", o.Count())
	}
	hits, _ := o.Search(ctx, retrieve.Query{Text: "zebra", K: 10})
	if ids := hitIDs(hits); !reflect.DeepEqual(ids, []string{"far#1", "pets#1"}) && !reflect.DeepEqual(ids, []string{"pets#1", "far#1"}) {
		t.Fatalf("zebra hits %v", ids)
	}
	// Re-index: delete then add fewer passages; the old ones are gone.
	if err := o.DeletePaper("pets"); err != nil {
		t.Fatal(err)
	}
	if err := o.Add(passages("pets", "a mouse")); err != nil {
		t.Fatal(err)
	}
	if o.Count() != 3 {
		t.Fatalf("count %d after re-index, want 3", o.Count())
	}
	for _, q := range []string{"cat", "dog", "mat"} {
		if hits, _ := o.Search(ctx, retrieve.Query{Text: q, K: 10}); len(hits) != 0 {
			t.Errorf("%q still finds %v", q, hitIDs(hits))
		}
	}
	// The corpus statistics followed: "a" is now in far#0 and pets#0 of 3.
	fresh := newOkapi(t, OkapiOptions{Tokenizer: TokenizerWhitespace}, passages("far", farText...), passages("pets", "a mouse"))
	for _, q := range []string{"a bird", "mouse zebra hand"} {
		a, _ := o.Search(ctx, retrieve.Query{Text: q, K: 10})
		b, _ := fresh.Search(ctx, retrieve.Query{Text: q, K: 10})
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%q after delete+add %v, fresh build %v", q, a, b)
		}
	}
	if err := o.DeletePaper("never-there"); err != nil {
		t.Error(err)
	}
}

func hitIDs(hits []retrieve.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.PassageID
	}
	return out
}

func TestOkapiSaveLoad(t *testing.T) {
	ctx := context.Background()
	o := newOkapi(t, OkapiOptions{Tokenizer: TokenizerWhitespace, K1: 1.2}, passages("pets", petsText...), passages("far", farText...))
	// A deleted paper's terms must not survive into the file's vocabulary.
	if err := o.Add(passages("gone", "ephemeral words")); err != nil {
		t.Fatal(err)
	}
	if err := o.DeletePaper("gone"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "okapi.gob")
	if err := o.Save(path); err != nil {
		t.Fatal(err)
	}
	l, err := LoadOkapi(path)
	if err != nil {
		t.Fatal(err)
	}
	if l.Options() != o.Options() || l.Count() != o.Count() {
		t.Fatalf("loaded %+v/%d, saved %+v/%d", l.Options(), l.Count(), o.Options(), o.Count())
	}
	if _, ok := l.ids["ephemeral"]; ok {
		t.Error("unused term saved")
	}
	for _, q := range []retrieve.Query{{Text: "the bird", K: 10}, {Text: "cat dog", PaperID: "pets", K: 2}, {Text: "zebra hand", PaperID: "far", K: 5}} {
		a, _ := o.Search(ctx, q)
		b, _ := l.Search(ctx, q)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%+v: loaded %v, saved %v", q, b, a)
		}
	}
	// The loaded scorer stays writable.
	if err := l.Add(passages("new", "a cat")); err != nil {
		t.Fatal(err)
	}
	if hits, _ := l.Search(ctx, retrieve.Query{Text: "cat", PaperID: "new", K: 1}); len(hits) != 1 {
		t.Errorf("added after load: %v", hits)
	}
	if _, err := LoadOkapi(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("missing file loaded")
	}
}

func TestOkapiReplacePapers(t *testing.T) {
	o := newOkapi(t, OkapiOptions{Tokenizer: TokenizerWhitespace}, passages("pets", petsText...), passages("far", farText...))
	if err := o.ReplacePapers(passages("pets", "a mouse")); err != nil {
		t.Fatal(err)
	}
	fresh := newOkapi(t, OkapiOptions{Tokenizer: TokenizerWhitespace}, passages("far", farText...), passages("pets", "a mouse"))
	if o.Count() != fresh.Count() {
		t.Fatalf("count %d, want %d", o.Count(), fresh.Count())
	}
	for _, q := range []retrieve.Query{{Text: "a cat bird", K: 10}, {Text: "a mouse", PaperID: "pets", K: 10}} {
		a, _ := o.Search(context.Background(), q)
		b, _ := fresh.Search(context.Background(), q)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%+v: replaced %v, fresh %v", q, a, b)
		}
	}
}

// Save replaces the file whole and leaves no temporary file beside it; a
// save that cannot write keeps the old file and names the path.
func TestOkapiSaveReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "okapi.gob")
	small := newOkapi(t, OkapiOptions{}, passages("pets", petsText...))
	big := newOkapi(t, OkapiOptions{}, passages("pets", petsText...), passages("far", farText...))
	for _, o := range []*Okapi{big, small} {
		if err := o.Save(path); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "okapi.gob" {
		t.Errorf("directory holds %v, want only okapi.gob", entries)
	}
	if info, err := os.Stat(path); err != nil {
		t.Fatal(err)
	} else if info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", info.Mode())
	}
	l, err := LoadOkapi(path)
	if err != nil {
		t.Fatal(err)
	}
	if l.Count() != small.Count() {
		t.Errorf("loaded %d passages, want the last save's %d", l.Count(), small.Count())
	}
	missing := filepath.Join(dir, "no-such-dir", "okapi.gob")
	if err := big.Save(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("save into a missing directory: %v", err)
	}
}
