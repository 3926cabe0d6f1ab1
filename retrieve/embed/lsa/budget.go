package lsa

// Fit holds every text it is given, and the randomized SVD holds dense
// panels with a row per passage and per term, so its peak heap grows with
// the corpus: at a million passages, GBs. A caller with a memory budget
// asks FitPassages how many passages to fit on, and fits on a
// deterministic sample of that many (the index takes one spread evenly
// over the corpus). A corpus whose estimate is within the budget is fitted
// whole, exactly as before.
//
// The estimate, measured with the heap's peak on resampled seed passages
// of 1,000 and 2,000 characters (2,500 to 5,000 of them, 4.5k terms) and
// on synthetic ones with a 30k-term vocabulary:
//
//	per character of text    fitBytesPerChar: the text itself, its tokens,
//	                         the tf-idf rows in CSR, transposed and tiled
//	                         (measured 3.6 B/char beside the text's 1)
//	per passage              3 dense panels of Dim+Oversample float64s
//	                         (Ω or Z, Y and its orthonormal copy)
//	per vocabulary term      2 such panels on the term side, counted for
//	                         MaxVocab terms since the vocabulary is not
//	                         known before the fit
//
// For the defaults that is 6.4 KB a passage plus 5 B a character, and
// 213 MB for the vocabulary: with a 512 MiB budget, about 27k passages of
// 1,000 characters.
const (
	fitBytesPerChar  = 5
	fitPassagePanels = 3
	fitTermPanels    = 2
	// MinFitPassages is the smallest sample FitPassages returns, however
	// small the budget: fewer passages than this give a space of few
	// meaningful dimensions.
	MinFitPassages = 1000
)

// FitBytes estimates Fit's peak heap, with opts' dimension and vocabulary
// cap, on passages texts of chars characters in all.
func FitBytes(passages int, chars int64, opts Options) int64 {
	o := opts.resolve(passages)
	panel := int64(o.Dim+o.Oversample) * 8
	return chars*fitBytesPerChar + int64(passages)*fitPassagePanels*panel + int64(o.MaxVocab)*fitTermPanels*panel
}

// FitPassages is how many of passages (chars characters in all) to fit
// on within budget bytes: all of them when FitBytes allows, else as many
// as the budget leaves room for beside the vocabulary, at their average
// length, and at least MinFitPassages.
func FitPassages(passages int, chars int64, opts Options, budget int64) int {
	if passages <= 0 || FitBytes(passages, chars, opts) <= budget {
		return passages
	}
	fixed := FitBytes(0, 0, opts)
	per := (FitBytes(passages, chars, opts) - fixed) / int64(passages)
	n := int64(0)
	if budget > fixed && per > 0 {
		n = (budget - fixed) / per
	}
	return int(min(int64(passages), max(n, MinFitPassages)))
}
