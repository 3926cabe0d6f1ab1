package retrieve

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

func hits(ids ...string) []Hit {
	out := make([]Hit, len(ids))
	for i, id := range ids {
		out[i] = Hit{Rank: i + 1, PassageID: id, PaperID: "p"}
	}
	return out
}

func TestFuse(t *testing.T) {
	got := Fuse([][]Hit{hits("a", "b", "c"), hits("c", "a", "d")}, 60, "hybrid")
	wantOrder := []string{"a", "c", "b", "d"}
	for i, id := range wantOrder {
		if got[i].PassageID != id || got[i].Rank != i+1 || got[i].Retriever != "hybrid" {
			t.Fatalf("fused[%d] = %+v, want %s", i, got[i], id)
		}
	}
	if want := 1/61.0 + 1/62.0; math.Abs(got[0].Score-want) > 1e-12 {
		t.Errorf("score of a = %v, want %v", got[0].Score, want)
	}
	// b (rank 2 in one list) and d (rank 3 in the other) do not tie; equal scores keep first appearance.
	tie := Fuse([][]Hit{hits("x"), hits("y")}, 60, "h")
	if tie[0].PassageID != "x" {
		t.Errorf("tie order = %v", tie)
	}
}

// fixed is a test retriever returning a canned list per query text.
type fixed struct {
	name  string
	lists map[string][]string
	err   error
}

func (f fixed) Name() string { return f.name }
func (f fixed) Search(_ context.Context, q Query) ([]Hit, error) {
	if f.err != nil {
		return nil, f.err
	}
	ids := f.lists[q.Text]
	if len(ids) > q.K {
		ids = ids[:q.K]
	}
	return hits(ids...), nil
}

func TestMultiSearchOptions(t *testing.T) {
	texts, err := QueryTexts(FormOptions, "Why?", []string{"A. first", "B. second"})
	if err != nil || len(texts) != 3 || texts[2] != "Why?\nB. second" {
		t.Fatalf("texts = %q, %v", texts, err)
	}
	r := fixed{name: "bm25", lists: map[string][]string{
		"Why?":            {"s1", "s2"},
		"Why?\nA. first":  {"a1", "s1"},
		"Why?\nB. second": {"b1", "s1"},
	}}
	got, err := MultiSearch(context.Background(), []Retriever{r}, texts, Query{K: 3}, 60, 0, "bm25+options")
	if err != nil {
		t.Fatal(err)
	}
	if got[0].PassageID != "s1" || len(got) != 3 {
		t.Fatalf("fused = %+v", got)
	}
	if _, err := MultiSearch(context.Background(), []Retriever{r}, texts, Query{K: 0}, 60, 0, "x"); err == nil {
		t.Error("k=0 accepted")
	}
	bad := fixed{name: "dense", err: errors.New("boom")}
	if _, err := (&Hybrid{Parts: []Retriever{r, bad}}).Search(context.Background(), Query{Text: "Why?", K: 2}); err == nil || !strings.Contains(err.Error(), "dense: boom") {
		t.Errorf("error from a part = %v", err)
	}
	if _, err := QueryTexts("weird", "", nil); err == nil {
		t.Error("unknown form accepted")
	}
}
