package judgecheck

import "github.com/paperlens/paperlens/eval/stats"

// The static baselines: verdicts computed from the texts alone, with no
// model, as LFQA-E's static metrics.
const (
	// BaselineLength: the answer with more tokens wins; equal counts tie.
	BaselineLength = "length"
	// BaselineRougeL: the answer with the higher ROUGE-L F1 against the
	// reference wins; equal scores tie.
	BaselineRougeL = "rouge_l"
)

// Static are the static baselines' figures.
type Static struct {
	Length Group `json:"length"`
	RougeL Group `json:"rouge_l"`
}

// StaticVerdicts are one comparison's static verdicts and the numbers
// behind them.
type StaticVerdicts struct {
	LengthA, LengthB int     // tokens of each answer
	RougeA, RougeB   float64 // ROUGE-L F1 of each answer against the reference
	Length, RougeL   Verdict
}

// StaticOf computes the static verdicts of one comparison. Both use the
// tokens of eval/stats (stats.Tokens, which ROUGE-L uses): each Han,
// Hiragana or Katakana character is a token of its own, so Chinese is
// compared character by character, and each run of other letters or
// digits is one token (lower-cased, NFKC); punctuation and blank space
// are not tokens. Length counts those tokens; ROUGE-L is stats.RougeL.
// Equal lengths, or equal scores, are a tie.
func StaticOf(it Item) StaticVerdicts {
	v := StaticVerdicts{LengthA: len(stats.Tokens(it.ResponseA)), LengthB: len(stats.Tokens(it.ResponseB)),
		RougeA: stats.RougeL(it.ResponseA, it.Reference), RougeB: stats.RougeL(it.ResponseB, it.Reference)}
	v.Length = higher(float64(v.LengthA), float64(v.LengthB))
	v.RougeL = higher(v.RougeA, v.RougeB)
	return v
}

// higher is A when a > b, B when b > a, TIE when equal.
func higher(a, b float64) Verdict {
	switch {
	case a > b:
		return A
	case b > a:
		return B
	}
	return Tie
}

// StaticFigures are the static baselines' figures over items.
func StaticFigures(items []Item) Static {
	length, rouge := newGrouper(), newGrouper()
	for _, it := range items {
		v := StaticOf(it)
		length.add(it, v.Length)
		rouge.add(it, v.RougeL)
	}
	return Static{Length: length.group(), RougeL: rouge.group()}
}
