package bm25

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/retrieve"
)

// Two papers about different things, sharing some vocabulary, plus a third
// whose single passage repeats a query of the tests verbatim.
var (
	rlText = []string{
		"Policy gradient methods optimise the expected return of a policy directly.",
		"Trust region policy optimisation constrains each update with a KL divergence bound, so the new policy stays close to the old one.",
		"We evaluate on Atari games and simulated robotic locomotion.",
	}
	ragText = []string{
		"Retrieval-augmented generation feeds retrieved passages to a language model.",
		"BM25 ranks passages by term frequency, inverse document frequency and passage length.",
		"Dense retrievers embed questions and passages in one vector space.",
	}
	decoyText = []string{"KL divergence bound trust region update"}
)

func openTestBleve(t *testing.T, dir string, opt BleveOptions) *Bleve {
	t.Helper()
	b, err := OpenBleveWith(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func indexAll(t *testing.T, b *Bleve, ps ...[]corpus.Passage) {
	t.Helper()
	for _, p := range ps {
		if err := b.Index(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
}

func mustSearch(t *testing.T, r retrieve.Retriever, q retrieve.Query) []retrieve.Hit {
	t.Helper()
	hits, err := r.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("%+v: %v", q, err)
	}
	return hits
}

func TestBleveRanking(t *testing.T) {
	b := openTestBleve(t, t.TempDir(), BleveOptions{})
	indexAll(t, b, passages("trpo", rlText...), passages("rag", ragText...), passages("decoy", decoyText...))
	cases := []struct {
		name  string
		q     retrieve.Query
		first string
		none  []string // passages that must not appear
	}{
		{"corpus-wide", retrieve.Query{Text: "How are dense retrievers embedding questions?", K: 3}, "rag#2", nil},
		{"stemming joins inflections", retrieve.Query{Text: "ranking by inverse frequencies", K: 3}, "rag#1", nil},
		{"filter keeps the paper", retrieve.Query{Text: "KL divergence bound trust region update", PaperID: "trpo", K: 10}, "trpo#1", []string{"decoy#0", "rag#0", "rag#1", "rag#2"}},
		{"filter to the other paper", retrieve.Query{Text: "KL divergence bound trust region update", PaperID: "decoy", K: 10}, "decoy#0", []string{"trpo#0", "trpo#1", "trpo#2"}},
		{"unfiltered finds the decoy", retrieve.Query{Text: "KL divergence bound trust region update", K: 10}, "decoy#0", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hits := mustSearch(t, b, c.q)
			if len(hits) == 0 || hits[0].PassageID != c.first {
				t.Fatalf("first %v, want %s", hitIDs(hits), c.first)
			}
			for i, h := range hits {
				if slices.Contains(c.none, h.PassageID) {
					t.Errorf("%s leaked through the filter", h.PassageID)
				}
				if c.q.PaperID != "" && h.PaperID != c.q.PaperID {
					t.Errorf("hit of paper %s", h.PaperID)
				}
				if h.Rank != i+1 || h.Retriever != "bm25" || h.Text == "" {
					t.Errorf("hit %+v", h)
				}
			}
		})
	}
	if hits := mustSearch(t, b, retrieve.Query{Text: "policy", PaperID: "no-such-paper", K: 5}); len(hits) != 0 {
		t.Errorf("unknown paper: %v", hits)
	}
	if hits := mustSearch(t, b, retrieve.Query{Text: "policy", K: 1}); len(hits) != 1 {
		t.Errorf("k=1 gave %d hits", len(hits))
	}
}

func TestBleveQueryErrors(t *testing.T) {
	b := openTestBleve(t, t.TempDir(), BleveOptions{})
	indexAll(t, b, passages("rag", ragText...))
	cases := []struct {
		name string
		q    retrieve.Query
		want error
	}{
		{"stop words only", retrieve.Query{Text: "What is the (it) of these, and which?", K: 5}, ErrEmptyQuery},
		{"punctuation only", retrieve.Query{Text: `?! -- "" : ()`, K: 5}, ErrEmptyQuery},
		{"empty", retrieve.Query{K: 5}, ErrEmptyQuery},
		{"k zero", retrieve.Query{Text: "passages", K: 0}, ErrInvalidK},
		{"k negative", retrieve.Query{Text: "passages", PaperID: "rag", K: -1}, ErrInvalidK},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := b.Search(context.Background(), c.q); !errors.Is(err, c.want) {
				t.Fatalf("err %v, want %v", err, c.want)
			}
		})
	}
}

func TestBleveFreeText(t *testing.T) {
	b := openTestBleve(t, t.TempDir(), BleveOptions{})
	indexAll(t, b, passages("rag", ragText...))
	cases := []struct {
		q    string
		hits bool
	}{
		{`Which is true? A. "BM25 ranks passages" B. -dense +sparse C. field:value (D) none`, true},
		{`passages*  retriev?  frequency~2  length^10  "unbalanced`, true},
		{`+paper_id:rag AND OR NOT ( ) [ ] { } \ / && || ! -BM25`, true},
		// Word segmentation (UAX #29) keeps "a:b" as one word, so this
		// query has terms, none of them in the index.
		{`title:"x" 2>1 a<b :: ::: ~~~ ^^^ *** text:BM25`, false},
	}
	for _, c := range cases {
		hits, err := b.Search(context.Background(), retrieve.Query{Text: c.q, PaperID: "rag", K: 3})
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if (len(hits) > 0) != c.hits {
			t.Errorf("%q: hits %v, want some: %v", c.q, hitIDs(hits), c.hits)
		}
	}
}

func TestBleveReindexPaper(t *testing.T) {
	ctx := context.Background()
	b := openTestBleve(t, t.TempDir(), BleveOptions{BatchSize: 2}) // several batches per paper
	indexAll(t, b, passages("trpo", rlText...), passages("rag", ragText...))
	if err := b.DeletePaper("trpo"); err != nil {
		t.Fatal(err)
	}
	indexAll(t, b, passages("trpo", "A shorter second version about natural gradients."))
	if n, _ := b.Count(); n != 4 {
		t.Fatalf("count %d, want 4", n)
	}
	if hits := mustSearch(t, b, retrieve.Query{Text: "Atari locomotion policy", PaperID: "trpo", K: 5}); len(hits) != 0 {
		t.Errorf("old passages survive: %v", hitIDs(hits))
	}
	if hits := mustSearch(t, b, retrieve.Query{Text: "natural gradients", PaperID: "trpo", K: 5}); len(hits) != 1 || hits[0].PassageID != "trpo#0" {
		t.Errorf("new passage: %v", hitIDs(hits))
	}
	// Upsert by id keeps the totals exact: same as a fresh index.
	indexAll(t, b, []corpus.Passage{{PaperID: "rag", PassageID: "rag#1", Ordinal: 1, Text: "Sparse retrieval."}})
	fresh := openTestBleve(t, t.TempDir(), BleveOptions{})
	indexAll(t, fresh, passages("rag", ragText[0], "Sparse retrieval.", ragText[2]), passages("trpo", "A shorter second version about natural gradients."))
	if b.stats != fresh.stats {
		t.Errorf("totals %+v after delete and upsert, fresh %+v", b.stats, fresh.stats)
	}
	if err := b.DeletePaper("never-indexed"); err != nil {
		t.Error(err)
	}
	if err := b.Index(ctx, []corpus.Passage{{Text: "no paper"}}); err == nil {
		t.Error("passage without paper accepted")
	}
}

func TestBleveReopen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "idx")
	b, err := OpenBleve(dir)
	if err != nil {
		t.Fatal(err)
	}
	indexAll(t, b, passages("trpo", rlText...), passages("rag", ragText...))
	q := retrieve.Query{Text: "trust region KL bound", K: 3}
	before := mustSearch(t, b, q)
	stats := b.stats
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	b = openTestBleve(t, dir, BleveOptions{})
	if n, _ := b.Count(); n != 6 {
		t.Fatalf("reopened count %d, want 6", n)
	}
	if b.stats != stats {
		t.Errorf("reopened totals %+v, want %+v", b.stats, stats)
	}
	after := mustSearch(t, b, q)
	// Without the stored totals (an index written by other code), opening
	// recounts them from the stored lengths.
	if err := b.idx.DeleteInternal([]byte(statsKey)); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	b = openTestBleve(t, dir, BleveOptions{})
	if b.stats != stats {
		t.Errorf("recounted totals %+v, want %+v", b.stats, stats)
	}
	if !slices.Equal(hitIDs(after), hitIDs(before)) || after[0].Score != before[0].Score || after[0].Text != rlText[1] {
		t.Errorf("reopened %v, before %v", after, before)
	}
}

func TestBleveRefusesTFIDFIndex(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tfidf")
	m := NewMapping()
	m.ScoringModel = ""
	idx, err := bleve.New(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	idx.Close()
	if b, err := OpenBleve(dir); err == nil {
		b.Close()
		t.Fatal("tf-idf index opened")
	}
}

// bleveScore is Bleve 2.6.1's BM25 for a disjunction of term queries,
// written out from its source (search/scorer/scorer_term.go,
// scorer_disjunction.go, searcher/search_term.go): per matched term
// c·idf² · √tf·k1 / (√tf + k1·(1 - b + b·dl/avgdl)) · queryNorm, summed,
// times coord = matched/terms, where c is the term's count in the query
// (its boost), idf = ln(1 + (N - n + 0.5)/(n + 0.5)),
// queryNorm = 1/√(Σ (c·idf)² over all query terms), k1 = 1.2, b = 0.75.
func bleveScore(n float64, df, tf, c []float64, dl, avgdl float64) float64 {
	const k1, b = 1.2, 0.75
	var sumSq, sum float64
	matched := 0
	for i := range df {
		idf := math.Log(1 + (n-df[i]+0.5)/(df[i]+0.5))
		sumSq += c[i] * idf * c[i] * idf
		if tf[i] > 0 {
			matched++
			sum += c[i] * idf * idf * math.Sqrt(tf[i]) * k1 / (math.Sqrt(tf[i]) + k1*(1-b+b*dl/avgdl))
		}
	}
	return sum / math.Sqrt(sumSq) * float64(matched) / float64(len(df))
}

func TestBleveScoringModel(t *testing.T) {
	b := openTestBleve(t, t.TempDir(), BleveOptions{})
	im, ok := b.Mapping().(*mapping.IndexMappingImpl)
	if !ok || im.ScoringModel != index.BM25Scoring {
		t.Fatalf("scoring model %q", im.ScoringModel)
	}
	// One batch, so one segment: Bleve's native avgdl is then exactly
	// ceil(vocabulary / N).
	docs := passages("p",
		"apple banana apple apple cherry",            // apple×3 banana cherry: 5 tokens
		"banana date elderberry fig grape",           // 5
		"apple kiwi",                                 // 2
		"lemon mango nectarine orange papaya quince", // 6
	)
	indexAll(t, b, docs)
	// Vocabulary: apple banana cherry date elderberry fig grape kiwi lemon
	// mango nectarine orange papaya quince = 14 terms; tokens 18; N 4.
	const n, tokens, vocab = 4.0, 18.0, 14.0
	if b.stats.Tokens != tokens || b.stats.Docs != n {
		t.Fatalf("totals %+v", b.stats)
	}
	native := openTestBleve(t, t.TempDir(), BleveOptions{NativeAvgLen: true})
	indexAll(t, native, docs)

	// Query "apple banana": df 2 and 2. Doc p#0: tf 3 and 1, dl 5.
	// p#1: tf 0 and 1, dl 5. p#2: tf 1 and 0, dl 2.
	cases := []struct {
		name  string
		b     *Bleve
		query string
		c     []float64 // query counts of apple, banana
		avgdl float64
	}{
		{"true mean length", b, "apple banana", []float64{1, 1}, math.Ceil(tokens / n)},
		{"native vocabulary/N", native, "apple banana", []float64{1, 1}, math.Ceil(vocab / n)},
		{"repeated query term", b, "Apples, apple; banana!", []float64{2, 1}, math.Ceil(tokens / n)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := scoresByID(mustSearch(t, c.b, retrieve.Query{Text: c.query, K: 10}))
			df := []float64{2, 2}
			want := map[string]float64{
				"p#0": bleveScore(n, df, []float64{3, 1}, c.c, 5, c.avgdl),
				"p#1": bleveScore(n, df, []float64{0, 1}, c.c, 5, c.avgdl),
				"p#2": bleveScore(n, df, []float64{1, 0}, c.c, 2, c.avgdl),
			}
			if len(got) != len(want) {
				t.Fatalf("hits %v", got)
			}
			for id, w := range want {
				// Bleve stores 1/√dl as float32: relative error ~1e-7.
				if math.Abs(got[id]-w) > 1e-6*w {
					t.Errorf("%s: %v, want %v", id, got[id], w)
				}
			}
		})
	}
	// The paper filter adds nothing to the score (boost 0).
	filtered := scoresByID(mustSearch(t, b, retrieve.Query{Text: "apple banana", PaperID: "p", K: 10}))
	unfiltered := scoresByID(mustSearch(t, b, retrieve.Query{Text: "apple banana", K: 10}))
	for id, s := range unfiltered {
		if math.Abs(filtered[id]-s) > 1e-12 {
			t.Errorf("%s: filtered %v, unfiltered %v", id, filtered[id], s)
		}
	}
}

func TestBleveReplacePapers(t *testing.T) {
	ctx := context.Background()
	b := openTestBleve(t, t.TempDir(), BleveOptions{BatchSize: 2})
	indexAll(t, b, passages("trpo", rlText...), passages("rag", ragText...), passages("decoy", decoyText...))
	// trpo shrinks to one passage, rag changes its middle passage, decoy is
	// not mentioned and stays.
	next := append(passages("trpo", "Natural gradients, revisited."), passages("rag", ragText[0], "Sparse retrieval.", ragText[2])...)
	if err := b.ReplacePapers(ctx, next); err != nil {
		t.Fatal(err)
	}
	if n, _ := b.Count(); n != 5 {
		t.Fatalf("count %d, want 5", n)
	}
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"Atari locomotion policy", nil},
		{"natural gradients", []string{"trpo#0"}},
		{"term frequency BM25", nil},
		{"sparse", []string{"rag#1"}},
		{"KL divergence", []string{"decoy#0"}},
	} {
		if got := hitIDs(mustSearch(t, b, retrieve.Query{Text: c.q, K: 10})); !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, want %v", c.q, got, c.want)
		}
	}
	fresh := openTestBleve(t, t.TempDir(), BleveOptions{})
	indexAll(t, fresh, next, passages("decoy", decoyText...))
	if b.stats != fresh.stats {
		t.Errorf("totals %+v, fresh %+v", b.stats, fresh.stats)
	}
}
