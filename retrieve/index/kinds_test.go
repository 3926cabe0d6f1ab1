package index

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/retrieve"
)

// putPaper stores a paper whose passages are the given texts and kinds.
func putPaper(t *testing.T, st *corpus.Store, id string, texts []string, kinds []kind.Kind) {
	t.Helper()
	var b strings.Builder
	var ps []corpus.Passage
	for i, s := range texts {
		start := b.Len()
		b.WriteString(s + "\n\n")
		ps = append(ps, corpus.Passage{Start: start, End: b.Len(), Text: b.String()[start:], Kind: string(kinds[i]), Tokens: len(strings.Fields(s))})
	}
	if err := st.Put(corpus.Document{PaperID: id, Title: id, SourceHash: id, Extractor: "test", MaxTokens: 512, Drop: "contents,figure-text"}, b.String(), ps); err != nil {
		t.Fatal(err)
	}
}

// A paper whose bibliography repeats the query's words: its reference
// passages win every retriever, and excluding references still returns k
// passages, all of the other kinds, though the first round of hits holds
// too few of them.
func TestExcludeKinds(t *testing.T) {
	home := t.TempDir()
	st, err := corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var texts []string
	var kinds []kind.Kind
	for i := range 16 {
		texts = append(texts, fmt.Sprintf("[%d] A. Author%d. Reservoir saliency of parked tokens: parked tokens and reservoir saliency. Venue, 20%02d.", i+1, i, i))
		kinds = append(kinds, kind.References)
	}
	body := []string{
		"Pruned tokens are restored from the reservoir when needed again.",
		"The reservoir holds what each layer pruned, ordered by importance.",
		"Saliency is measured from the attention each word receives.",
		"We prune the tokens under a threshold and keep them apart.",
		"Training uses the usual cross-entropy loss with no extra terms.",
	}
	for i, s := range body {
		texts = append(texts, s)
		kinds = append(kinds, []kind.Kind{kind.Body, kind.Body, kind.Caption, kind.Body, kind.Body}[i])
	}
	putPaper(t, st, "pruning", texts, kinds)
	// A second paper, so that corpus-wide queries have others to rank.
	putPaper(t, st, "other", []string{"Gradient descent converges on convex losses.", "References: none."}, []kind.Kind{kind.Body, kind.References})
	ix, err := Open(context.Background(), Config{Home: home}, st)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Update(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	kindOf := map[string]kind.Kind{}
	for _, id := range []string{"pruning", "other"} {
		ps, _ := st.Passages(id)
		for _, p := range ps {
			kindOf[p.PassageID] = p.KindOf()
		}
	}
	const query = "reservoir saliency parked tokens"
	cases := []struct {
		retriever, paper string
		exclude          []kind.Kind
		k                int
	}{
		{BM25, "pruning", []kind.Kind{kind.References}, 3},
		{Bleve, "pruning", []kind.Kind{kind.References}, 3},
		{Okapi, "pruning", []kind.Kind{kind.References}, 4},
		{Dense, "pruning", []kind.Kind{kind.References}, 3},
		{Hybrid, "pruning", []kind.Kind{kind.References}, 5},
		{BM25, "", []kind.Kind{kind.References}, 3},
		{Hybrid, "", []kind.Kind{kind.References, kind.Caption}, 3},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s paper=%q exclude=%s k=%d", c.retriever, c.paper, kind.Names(c.exclude), c.k), func(t *testing.T) {
			r, err := ix.Retriever(c.retriever)
			if err != nil {
				t.Fatal(err)
			}
			q := retrieve.Query{Text: query, PaperID: c.paper, K: c.k}
			all, err := r.Search(context.Background(), q)
			if err != nil || len(all) == 0 {
				t.Fatalf("search: %v %v", all, err)
			}
			if kindOf[all[0].PassageID] != kind.References {
				t.Fatalf("without exclusion the top hit is %s (%s), not a reference: the test shows nothing", all[0].PassageID, kindOf[all[0].PassageID])
			}
			q.Exclude = c.exclude
			hits, err := r.Search(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) != c.k {
				t.Errorf("%d hits, want %d", len(hits), c.k)
			}
			ex := kind.NewSet(c.exclude)
			for i, h := range hits {
				if ex.Has(kindOf[h.PassageID]) {
					t.Errorf("hit %d is %s, of an excluded kind (%s)", i, h.PassageID, kindOf[h.PassageID])
				}
				if h.Rank != i+1 {
					t.Errorf("hit %d has rank %d", i, h.Rank)
				}
			}
		})
	}
}
