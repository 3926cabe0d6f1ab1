package bm25

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/paperlens/paperlens/corpus"
)

// AnalyzedPassage is a passage analysed once, for every index that needs
// its terms: an index build hands the same value to the Okapi writer
// ([OkapiWriter.AddPaper]) and to Bleve ([Bleve.IndexAnalyzed]), where
// each used to run the analyzer over the text itself (Bleve twice: once for
// the stored length, once inside scorch). Analysis is the bulk of the
// CPU time of a BM25 build.
type AnalyzedPassage struct {
	// Passage is the passage, PassageID filled in when it was empty.
	corpus.Passage
	// Terms are the passage's distinct non-empty terms, sorted, with their
	// counts.
	Terms []TermFreq
	// Len is the number of tokens with a non-empty term: Okapi's |d|.
	Len int
	// FieldLen is every token the analyzer produced, empty terms
	// included: the field length Bleve records (and stores as
	// FieldLength). It equals Len unless a filter emptied a token.
	FieldLen int
	// Tokenizer is what produced Terms (TokenizerAnalyzer or
	// TokenizerWhitespace): Bleve takes only the analyzer's, an Okapi
	// writer only its own tokenizer's.
	Tokenizer string
}

// TermFreq is a term and how many times it occurs in a passage.
type TermFreq struct {
	Term string
	Freq uint32
}

// AnalyzePassages analyses passages with tokenizer (TokenizerAnalyzer, as
// "" means, or TokenizerWhitespace), on all cores.
func AnalyzePassages(ps []corpus.Passage, tokenizer string) ([]AnalyzedPassage, error) {
	if tokenizer == "" {
		tokenizer = TokenizerAnalyzer
	}
	var split func(string) (terms []string, fieldLen int)
	switch tokenizer {
	case TokenizerAnalyzer:
		a, err := textAnalyzer()
		if err != nil {
			return nil, err
		}
		split = func(s string) ([]string, int) {
			ts := a.Analyze([]byte(s))
			return analyzedTerms(ts), len(ts)
		}
	case TokenizerWhitespace:
		split = func(s string) ([]string, int) { t := whitespaceSplit(s); return t, len(t) }
	default:
		return nil, fmt.Errorf("bm25: unknown tokenizer %q (want %q or %q)", tokenizer, TokenizerAnalyzer, TokenizerWhitespace)
	}
	for _, p := range ps {
		if p.PaperID == "" {
			return nil, fmt.Errorf("bm25: passage %q has no paper id", p.PassageID)
		}
	}
	out := make([]AnalyzedPassage, len(ps))
	eachChunk(len(ps), 16, func(i int) {
		p := ps[i]
		p.PassageID = passageID(p)
		terms, fieldLen := split(p.Text)
		out[i] = AnalyzedPassage{Passage: p, Terms: countTerms(terms), Len: len(terms), FieldLen: fieldLen, Tokenizer: tokenizer}
	})
	return out, nil
}

// countTerms counts the distinct terms of tokens, sorted by term.
func countTerms(tokens []string) []TermFreq {
	counts := make(map[string]uint32, len(tokens))
	for _, t := range tokens {
		counts[t]++
	}
	out := make([]TermFreq, 0, len(counts))
	for t, n := range counts {
		out = append(out, TermFreq{t, n})
	}
	slices.SortFunc(out, func(a, b TermFreq) int { return cmp.Compare(a.Term, b.Term) })
	return out
}
