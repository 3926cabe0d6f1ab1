package index

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/retrieve"
)

// build ingests the sample papers into a fresh home and opens its indexes.
func build(t *testing.T, home string, files ...string) (*corpus.Store, *Index, Report) {
	t.Helper()
	st, err := corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) > 0 {
		if failed, err := ingest.Run(context.Background(), st, files, ingest.Options{MaxTokens: 128}, func(ingest.Result) {}); err != nil || failed > 0 {
			t.Fatalf("ingest: %d failed, %v", failed, err)
		}
	}
	ix, err := Open(context.Background(), Config{Home: home}, st)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ix.Update(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return st, ix, rep
}

func samplePapers(t *testing.T) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join("..", "..", "testdata", "papers", "*.md"))
	if err != nil || len(m) < 2 {
		t.Fatalf("sample papers: %v %v", m, err)
	}
	return m
}

func TestUpdateIsIncrementalAndSearches(t *testing.T) {
	home := t.TempDir()
	files := samplePapers(t)
	st, ix, rep := build(t, home, files...)
	if rep.Indexed != len(files) || rep.Passages == 0 || !strings.HasPrefix(rep.Embedder, "lsa-") || rep.Dim == 0 {
		t.Fatalf("first update: %+v", rep)
	}
	for _, name := range Names() {
		r, err := ix.Retriever(name)
		if err != nil {
			t.Fatal(err)
		}
		hits, err := r.Search(context.Background(), retrieve.Query{Text: "parked tokens restored reservoir saliency", PaperID: "tidal-token-pruning", K: 3})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(hits) != 3 || hits[0].Rank != 1 || hits[0].PaperID != "tidal-token-pruning" || hits[0].Text == "" {
			t.Fatalf("%s hits: %+v", name, hits)
		}
		if !strings.Contains(strings.ToLower(hits[0].Text+hits[1].Text+hits[2].Text), "reservoir") {
			t.Errorf("%s: no top-3 passage mentions the reservoir: %+v", name, hits)
		}
	}
	// Bad queries are refused with words that say what to do.
	r, _ := ix.Retriever(Hybrid)
	for _, q := range []retrieve.Query{
		{Text: "x", PaperID: "no-such-paper", K: 3},
		{Text: "  ", K: 3},
		{Text: "reservoir", K: 0},
	} {
		if _, err := r.Search(context.Background(), q); err == nil {
			t.Errorf("query %+v accepted", q)
		}
	}
	if _, err := ix.Retriever("tfidf"); err == nil {
		t.Error("unknown retriever accepted")
	}
	ix.Close()

	// Nothing changed: nothing is redone.
	ix2, err := Open(context.Background(), Config{Home: home}, st)
	if err != nil {
		t.Fatal(err)
	}
	rep, err = ix2.Update(context.Background(), nil)
	if err != nil || rep.Indexed != 0 || rep.Embedded != 0 {
		t.Fatalf("second update: %+v %v", rep, err)
	}
	// A removed paper leaves every index.
	if err := st.Delete("tidal-token-pruning"); err != nil {
		t.Fatal(err)
	}
	rep, err = ix2.Update(context.Background(), nil)
	if err != nil || rep.Removed != 1 {
		t.Fatalf("update after delete: %+v %v", rep, err)
	}
	for _, name := range []string{Bleve, Okapi, Dense} {
		r, _ := ix2.Retriever(name)
		hits, err := r.Search(context.Background(), retrieve.Query{Text: "reservoir parked tokens", K: 20})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			if h.PaperID == "tidal-token-pruning" {
				t.Errorf("%s still returns the removed paper: %+v", name, h)
			}
		}
	}
	ix2.Close()
	st.Close()
}

func TestInterruptedPaperIsRedone(t *testing.T) {
	home := t.TempDir()
	st, ix, _ := build(t, home, samplePapers(t)...)
	ix.Close()
	// Simulate a build killed after Bleve took the paper but before it was marked.
	b, _ := os.ReadFile(filepath.Join(Dir(home), "state.json"))
	b = []byte(strings.Replace(string(b), `"bleve": true`, `"bleve": false`, 1))
	if err := os.WriteFile(filepath.Join(Dir(home), "state.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(context.Background(), Config{Home: home}, st)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	defer st.Close()
	rep, err := ix.Update(context.Background(), nil)
	if err != nil || rep.Indexed != 1 {
		t.Fatalf("update after interruption: %+v %v", rep, err)
	}
	n, _ := ix.bleve.Count()
	total := 0
	docs, _ := st.Docs()
	for _, d := range docs {
		total += d.Passages
	}
	if int(n) != total {
		t.Fatalf("Bleve holds %d passages, corpus %d: the redone paper was indexed twice or lost", n, total)
	}
}

func TestEmbedderChangeRefused(t *testing.T) {
	home := t.TempDir()
	st, ix, _ := build(t, home, samplePapers(t)...)
	ix.Close()
	defer st.Close()
	_, err := Open(context.Background(), Config{Home: home, Embedder: "openai", EmbedModel: "bge-m3"}, st)
	if err == nil || !strings.Contains(err.Error(), "--rebuild") {
		t.Fatalf("switching embedder without --rebuild: %v", err)
	}
	_, err = Open(context.Background(), Config{Home: home, Store: "qdrant"}, st)
	if err == nil || !strings.Contains(err.Error(), "--rebuild") {
		t.Fatalf("switching store without --rebuild: %v", err)
	}
	ix, err = Open(context.Background(), Config{Home: home, Rebuild: true}, st)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if rep, err := ix.Update(context.Background(), nil); err != nil || rep.Indexed == 0 {
		t.Fatalf("rebuild: %+v %v", rep, err)
	}
}
