// Package textquality scores extracted text against ground truth written by a
// reader, and runs paperlens's extractor, pdftotext and PyMuPDF side by side
// on a ground-truth set (paperlens measure text).
//
// The headline metric is the one py-pdf/benchmarks reports (pdf_benchmark/
// score.py): python-Levenshtein's ratio over the whole text, which is the
// normalised InDel similarity 1 − indel/(len1+len2) = 2·LCS/(len1+len2),
// over Unicode code points. Whole papers are tens of thousands of code
// points, so the LCS is computed bit-parallel (Allison–Dix/Hyyrö), 64 cells
// per machine word.
package textquality

import (
	"math/bits"
	"strings"
	"unicode"
)

// Ratio is py-pdf/benchmarks' text-extraction score: Levenshtein.ratio of
// the ground truth and the extracted text. Both are first read the way the
// benchmark reads them back from disk (Python's open() in text mode:
// "\r\n" and "\r" become "\n"); then the score is 2·LCS/(len(a)+len(b))
// over code points, 1 when both are empty.
func Ratio(truth, got string) float64 {
	return indelRatio([]rune(universalNewlines(truth)), []rune(universalNewlines(got)))
}

// RatioWS is Ratio after every run of whitespace becomes one space and the
// ends are trimmed, so that line breaks, page breaks and table-cell
// separators cost nothing and only the words and their order count.
func RatioWS(truth, got string) float64 {
	return indelRatio([]rune(CollapseSpace(truth)), []rune(CollapseSpace(got)))
}

// CollapseSpace turns every run of Unicode white space into one space and
// trims both ends.
func CollapseSpace(s string) string {
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

func universalNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

func indelRatio(a, b []rune) float64 {
	if len(a)+len(b) == 0 {
		return 1
	}
	return 2 * float64(LCS(a, b)) / float64(len(a)+len(b))
}

// LCS is the length of the longest common subsequence of a and b, in
// O(⌈min/64⌉·max) word operations: bit i of the vector V is 0 where row i
// of the LCS table steps up, and one column advances as V' = (V + U) | (V −
// U) with U = V & match(c). Since U ⊆ V, V − U is V &^ U and needs no
// borrow; only the addition carries from word to word.
func LCS(a, b []rune) int {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a) == 0 {
		return 0
	}
	words := (len(a) + 63) / 64
	peq := make(map[rune][]uint64)
	for i, r := range a {
		m := peq[r]
		if m == nil {
			m = make([]uint64, words)
			peq[r] = m
		}
		m[i/64] |= 1 << (i % 64)
	}
	v := make([]uint64, words)
	for i := range v {
		v[i] = ^uint64(0)
	}
	for _, r := range b {
		m := peq[r]
		if m == nil {
			continue // U = 0: V' = V + 0 | V = V
		}
		var carry uint64
		for w := range v {
			u := v[w] & m[w]
			var sum uint64
			sum, carry = bits.Add64(v[w], u, carry)
			v[w] = sum | (v[w] &^ u)
		}
	}
	zeros := 0
	for w, x := range v {
		if w == words-1 && len(a)%64 != 0 {
			x |= ^uint64(0) << (len(a) % 64) // bits past a are not rows
		}
		zeros += 64 - bits.OnesCount64(x)
	}
	return zeros
}

// IsSymbol reports whether r is one of the mathematical symbols whose
// recovery SymbolRecall measures: the Greek and Coptic block (U+0370–03FF),
// the arrows (U+2190–21FF, 27F0–27FF, 2900–297F), the mathematical
// operators (U+2200–22FF, 2A00–2AFF) and miscellaneous mathematical symbols
// (U+27C0–27EF, 2980–29FF), plus ± × ÷ ¬, the double bar ‖ and the vertical
// bar | (which unmapped TeX fonts turn into "j"). Letter-like symbols (ℝ, ℓ)
// and mathematical alphanumerics (𝒮, 𝔼) are left out: they are letters in
// another style, not the symbols this score is about.
func IsSymbol(r rune) bool {
	switch {
	case r >= 0x0370 && r <= 0x03FF,
		r >= 0x2190 && r <= 0x21FF,
		r >= 0x27F0 && r <= 0x27FF,
		r >= 0x2900 && r <= 0x297F,
		r >= 0x2200 && r <= 0x22FF,
		r >= 0x2A00 && r <= 0x2AFF,
		r >= 0x27C0 && r <= 0x27EF,
		r >= 0x2980 && r <= 0x29FF:
		return true
	}
	switch r {
	case '±', '×', '÷', '¬', '‖', '|':
		return true
	}
	return false
}

// Symbols is how many of the ground truth's symbols (IsSymbol) the output
// has: the size of the multiset intersection over the ground truth's count.
type Symbols struct {
	Truth int     `json:"truth"`  // symbol occurrences in the ground truth
	Found int     `json:"found"`  // of those, matched by occurrences in the output
	Score float64 `json:"recall"` // Found/Truth; 1 when the ground truth has none
}

// SymbolRecall counts, for each symbol, min(occurrences in truth,
// occurrences in got), summed, over the truth's total. Position is not
// considered: a γ anywhere in the output matches a γ in the truth.
func SymbolRecall(truth, got string) Symbols {
	want := map[rune]int{}
	n := 0
	for _, r := range truth {
		if IsSymbol(r) {
			want[r]++
			n++
		}
	}
	have := map[rune]int{}
	for _, r := range got {
		if want[r] > 0 {
			have[r]++
		}
	}
	found := 0
	for r, w := range want {
		found += min(w, have[r])
	}
	s := Symbols{Truth: n, Found: found, Score: 1}
	if n > 0 {
		s.Score = float64(found) / float64(n)
	}
	return s
}
