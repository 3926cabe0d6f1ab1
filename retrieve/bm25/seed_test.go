package bm25

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/chunk"
	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
	"github.com/paperlens/paperlens/retrieve"
)

// TestSeedPaper indexes the ElaipBench paper, chunked as paperlens ingests
// it, and asks for sentences of it: each sentence's passage must come first
// with every scorer. The sentences are chosen to be distinctive but not
// rare-word lookups: they share most of their words with the rest of the
// paper ("reasoning", "retrieval", "models").
func TestSeedPaper(t *testing.T) {
	raw, err := os.ReadFile(testcorpus.Path(t, "seeds", "004_99b4ff95984d8335.txt"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	var ps []corpus.Passage
	for _, p := range chunk.Split(text, chunk.Options{}) {
		ps = append(ps, corpus.Passage{PaperID: "elaip", PassageID: corpus.PassageID("elaip", p.Ordinal), Ordinal: p.Ordinal, Text: p.Text, Start: p.Start, End: p.End})
	}
	if len(ps) < 10 {
		t.Fatalf("only %d passages", len(ps))
	}
	// A second paper with the same vocabulary keeps the filter honest.
	other, err := os.ReadFile(testcorpus.Path(t, "seeds", "000_a3bff110adc3f7e8.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range chunk.Split(string(other), chunk.Options{}) {
		ps = append(ps, corpus.Passage{PaperID: "lpfqa", PassageID: corpus.PassageID("lpfqa", p.Ordinal), Ordinal: p.Ordinal, Text: p.Text})
	}

	b := openTestBleve(t, t.TempDir(), BleveOptions{})
	indexAll(t, b, ps)
	okA := newOkapi(t, OkapiOptions{}, ps)
	okW := newOkapi(t, OkapiOptions{Tokenizer: TokenizerWhitespace}, ps)
	scorers := []retrieve.Retriever{b, okA, okW}

	sentences := []string{
		"For the BM25-based retrieval, we utilize the rank_bm25 implementation with the default hyper-parameters",
		"Token Budgeting: Maintain a combined context length (paper + knowledge snippets) within 32,768 tokens to fit the LLM’s input limits",
		"This phenomenon, which we term reasoning paralysis, indicates that current reasoning paradigms are insufficient for ElaipBench’s academic challenges.",
		"Our analysis of the retrieved results reveals that nearly all returned documents are other relevant academic papers",
	}
	for _, s := range sentences {
		want := ""
		for _, p := range ps {
			if p.PaperID == "elaip" && strings.Contains(p.Text, s) {
				want = p.PassageID
				break
			}
		}
		if want == "" {
			t.Fatalf("no passage holds %q", s)
		}
		for _, r := range scorers {
			for _, paper := range []string{"elaip", ""} {
				hits, err := r.Search(context.Background(), retrieve.Query{Text: s, PaperID: paper, K: 5})
				if err != nil {
					t.Fatalf("%s: %v", r.Name(), err)
				}
				if len(hits) == 0 || hits[0].PassageID != want {
					t.Errorf("%s (paper %q): %q ranks %v, want %s first", name(r), paper, s[:40], hitIDs(hits), want)
				}
			}
		}
	}
}

func name(r retrieve.Retriever) string {
	if o, ok := r.(*Okapi); ok {
		return r.Name() + "/" + o.Options().Tokenizer
	}
	return r.Name()
}
