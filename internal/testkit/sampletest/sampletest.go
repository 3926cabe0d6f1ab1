// Package sampletest builds, for tests, what most tests of retrieval and
// evaluation start from: the ElaipBench sample (testdata/elaipbench) with
// its papers ingested into a fresh home and indexed, and a relevance
// function that knows the gold evidence (the gold-first double).
package sampletest

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/evidence"
	"github.com/paperlens/paperlens/retrieve/index"
)

// Data is the sample benchmark's path, wherever the test runs from.
func Data() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "elaipbench", "sample.jsonl")
}

// Questions loads the sample's questions.
func Questions(tb testing.TB) []bench.Question {
	tb.Helper()
	qs, _, err := bench.LoadElaipBench(Data())
	if err != nil {
		tb.Fatal(err)
	}
	return qs
}

// Home ingests the papers the questions carry (paper_content) into a
// fresh home in passages of at most passageTokens (0: the commands'
// default, 512) and indexes them. Both close when the test ends.
func Home(tb testing.TB, qs []bench.Question, passageTokens int) (*corpus.Store, *index.Index) {
	tb.Helper()
	home := tb.TempDir()
	st, err := corpus.Open(home, false)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	var texts []ingest.Text
	seen := map[string]bool{}
	for _, q := range qs {
		if !seen[q.PaperID] {
			seen[q.PaperID] = true
			texts = append(texts, ingest.Text{ID: q.PaperID, Source: "sample", Content: q.PaperContent})
		}
	}
	failed, err := ingest.RunTexts(context.Background(), st, texts, ingest.Options{MaxTokens: passageTokens}, func(ingest.Result) {})
	if err != nil || failed > 0 {
		tb.Fatalf("ingest the sample's papers: %d failed: %v", failed, err)
	}
	ix, err := index.Open(context.Background(), index.Config{Home: home}, st)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ix.Close() })
	if _, err := ix.Update(context.Background(), nil); err != nil {
		tb.Fatal(err)
	}
	return st, ix
}

// GoldFirst scores a passage by the share of its question's gold evidence
// it holds, the question known by its retrieval query (the stem and
// options, the default query form). It stands in for a cross-encoder that
// knows the evidence: what a strong reranker approaches.
func GoldFirst(qs []bench.Question) func(query, text string) float64 {
	golds := map[string]*evidence.Gold{}
	for _, q := range qs {
		texts, _ := retrieve.QueryTexts(retrieve.FormFull, q.MCQ.Stem, q.MCQ.OptionLines())
		golds[texts[0]] = evidence.ParseGold(q.Evidence, evidence.Options{})
	}
	return func(query, text string) float64 {
		if g := golds[query]; g != nil && !g.Empty() {
			return g.Score([]string{text}).RecallAt(1)
		}
		return 0
	}
}
