package stats

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// RougeL is the ROUGE-L F1 (β = 1) between a candidate and a reference:
// the longest common subsequence of their tokens, over the candidate's
// length (precision) and the reference's (recall). Tokens are lower-cased
// runs of Unicode letters and digits, except that each Han, Hiragana or
// Katakana character is a token of its own. An empty side scores 0.
func RougeL(candidate, reference string) float64 {
	c, r := Tokens(candidate), Tokens(reference)
	if len(c) == 0 || len(r) == 0 {
		return 0
	}
	l := lcs(c, r)
	if l == 0 {
		return 0
	}
	p := float64(l) / float64(len(c))
	rec := float64(l) / float64(len(r))
	return 2 * p * rec / (p + rec)
}

// Tokens splits s as RougeL does.
func Tokens(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for _, r := range strings.ToLower(norm.NFKC.String(s)) {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
			flush()
			out = append(out, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || (unicode.Is(unicode.Mn, r) && cur.Len() > 0):
			cur.WriteRune(r)
		default:
			flush()
		}
	}
	flush()
	return out
}

// lcs is the length of the longest common subsequence, in O(len(a)·len(b))
// time and O(len(b)) memory.
func lcs(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
