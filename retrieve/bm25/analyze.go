package bm25

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"unicode"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/registry"
	"golang.org/x/sync/errgroup"
)

// AnalyzerName is the Bleve analyzer of the text field, and the "analyzer"
// tokenizer of Okapi: Bleve's English analyzer (Unicode word segmentation,
// possessive 's stripped, lower case, Bleve's English stop list, Porter
// stemmer). Stemming is chosen over the standard analyzer because ElaipBench
// options paraphrase the paper ("retrieved" for "retrieval", "integrates"
// for "integration"): without conflating inflections those words cannot
// match, and inside one paper of ~30 passages recall of the evidence passage
// matters more than the precision stemming costs.
const AnalyzerName = en.AnalyzerName

// Tokenizer names for [OkapiOptions.Tokenizer].
const (
	// TokenizerAnalyzer tokenizes with [AnalyzerName], exactly as the Bleve
	// index does, so Okapi and Bleve differ only in the scoring formula.
	TokenizerAnalyzer = "analyzer"
	// TokenizerWhitespace is Python's str.split(): runs of whitespace
	// separate tokens; case and punctuation are kept ("Paper," != "paper").
	// This is rank_bm25 fed with doc.split(), which ElaipBench most
	// likely did.
	TokenizerWhitespace = "whitespace"
)

var (
	// ErrEmptyQuery is returned for a query that has no searchable term
	// after tokenization (only stop words or punctuation, or blank).
	ErrEmptyQuery = errors.New("query has no searchable terms")
	// ErrInvalidK is returned for Query.K <= 0.
	ErrInvalidK = errors.New("k must be positive")
)

var (
	analyzerOnce sync.Once
	analyzerVal  analysis.Analyzer
	analyzerErr  error
)

// textAnalyzer returns the shared analyzer instance. Bleve's analyzers are
// stateless and used concurrently by Bleve itself, so one instance serves
// every index and every goroutine.
func textAnalyzer() (analysis.Analyzer, error) {
	analyzerOnce.Do(func() {
		analyzerVal, analyzerErr = registry.NewCache().AnalyzerNamed(AnalyzerName)
		if analyzerErr != nil {
			analyzerErr = fmt.Errorf("bm25: analyzer %s: %w", AnalyzerName, analyzerErr)
		}
	})
	return analyzerVal, analyzerErr
}

// analyze returns the terms the index would store for text, in order, with
// repetitions.
func analyze(a analysis.Analyzer, text string) []string {
	return analyzedTerms(a.Analyze([]byte(text)))
}

// Terms is the analysis every BM25 index of paperlens applies to text
// (AnalyzerName, TokenizerAnalyzer): its non-empty terms in order,
// repeats kept. Indexes outside this package (the sparse store's term
// ids) call it, so that one analyzer serves them all.
func Terms(text string) ([]string, error) {
	a, err := textAnalyzer()
	if err != nil {
		return nil, err
	}
	return analyze(a, text), nil
}

// analyzedTerms are the non-empty terms of ts, in order.
func analyzedTerms(ts analysis.TokenStream) []string {
	out := make([]string, 0, len(ts))
	for _, t := range ts {
		if len(t.Term) > 0 {
			out = append(out, string(t.Term))
		}
	}
	return out
}

// tokenizerFunc resolves a tokenizer name.
func tokenizerFunc(name string) (func(string) []string, error) {
	switch name {
	case "", TokenizerAnalyzer:
		a, err := textAnalyzer()
		if err != nil {
			return nil, err
		}
		return func(s string) []string { return analyze(a, s) }, nil
	case TokenizerWhitespace:
		return whitespaceSplit, nil
	}
	return nil, fmt.Errorf("bm25: unknown tokenizer %q (want %q or %q)", name, TokenizerAnalyzer, TokenizerWhitespace)
}

// whitespaceSplit is Python 3's str.split() with no argument. Go's
// unicode.IsSpace misses U+001C..U+001F, which Python counts as whitespace
// (they are bidi class B/S), so a PDF-extracted text with a stray
// separator control character tokenizes as rank_bm25 would.
func whitespaceSplit(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
	})
}

// queryTerms counts the distinct terms of a tokenized query, in first
// occurrence order, so scoring is deterministic and repeats weigh as in
// rank_bm25 (which loops over the query list, repeats included).
func queryTerms(tokens []string) (terms []string, counts []int) {
	seen := make(map[string]int, len(tokens))
	for _, t := range tokens {
		if i, ok := seen[t]; ok {
			counts[i]++
			continue
		}
		seen[t] = len(terms)
		terms = append(terms, t)
		counts = append(counts, 1)
	}
	return terms, counts
}

// eachChunk calls f(i) for every i in [0, n), in chunks of size on up to
// GOMAXPROCS goroutines. Below two chunks it runs inline: a paper of a few
// passages is not worth a goroutine.
func eachChunk(n, size int, f func(i int)) {
	if n < 2*size {
		for i := range n {
			f(i)
		}
		return
	}
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for lo := 0; lo < n; lo += size {
		g.Go(func() error {
			for i := lo; i < min(lo+size, n); i++ {
				f(i)
			}
			return nil
		})
	}
	g.Wait() // f returns no error
}
