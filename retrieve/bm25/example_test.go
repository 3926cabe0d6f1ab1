package bm25_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/bm25"
)

var examplePassages = []corpus.Passage{
	{PaperID: "trpo", PassageID: "trpo#0", Ordinal: 0, Text: "Policy gradient methods optimise the expected return directly."},
	{PaperID: "trpo", PassageID: "trpo#1", Ordinal: 1, Text: "Each policy update is constrained by a KL divergence bound."},
	{PaperID: "trpo", PassageID: "trpo#2", Ordinal: 2, Text: "We evaluate on Atari games and robotic locomotion."},
	{PaperID: "rag", PassageID: "rag#0", Ordinal: 0, Text: "A KL divergence bound between the retriever and the reader."},
}

// Index passages in Bleve and retrieve within one paper, as ElaipBench's
// intra-paper retrieval does: the "rag" passage sharing the words never
// shows up.
func ExampleBleve() {
	dir, err := os.MkdirTemp("", "bm25-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	idx, err := bm25.OpenBleve(filepath.Join(dir, "bm25"))
	if err != nil {
		log.Fatal(err)
	}
	defer idx.Close()
	ctx := context.Background()
	if err := idx.Index(ctx, examplePassages); err != nil {
		log.Fatal(err)
	}
	// Free text, never parsed as query syntax.
	hits, err := idx.Search(ctx, retrieve.Query{Text: `Which constraint bounds the "policy update" (KL)?`, PaperID: "trpo", K: 5})
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range hits {
		fmt.Println(h.Rank, h.PassageID)
	}
	// Output:
	// 1 trpo#1
	// 2 trpo#0
}

// Score a paper exactly as rank_bm25's BM25Okapi built on that paper alone
// would, with the whitespace tokenization of doc.split().
func ExampleOkapi() {
	o, err := bm25.NewOkapi(bm25.OkapiOptions{Tokenizer: bm25.TokenizerWhitespace})
	if err != nil {
		log.Fatal(err)
	}
	if err := o.Add(examplePassages); err != nil {
		log.Fatal(err)
	}
	hits, err := o.Search(context.Background(), retrieve.Query{Text: "KL divergence bound", PaperID: "trpo", K: 5})
	if err != nil {
		log.Fatal(err)
	}
	// str.split() keeps the period, so "bound." in trpo#1 is not "bound":
	// KL and divergence match, each in 1 of the 3 passages (idf ln(2.5/1.5)),
	// in a passage of 10 tokens against a mean of 26/3:
	// 2 × 0.5108 × 2.5 / (1 + 1.5 × (0.25 + 0.75 × 10/(26/3))) = 0.9555.
	for _, h := range hits {
		fmt.Printf("%d %s %.4f\n", h.Rank, h.PassageID, h.Score)
	}
	// Output:
	// 1 trpo#1 0.9555
}
