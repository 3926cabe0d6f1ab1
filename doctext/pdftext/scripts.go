package pdftext

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Fixes at the junction of a glyph's text and the words around it, called
// from layout.go's word and line builders.

// scriptEndsWord reports whether a space belongs between a superscript or
// subscript number and the word after it although the two touch: "E⁵
// achieves". TeX swallows the space after a macro ("\method{} achieves"
// written "\method achieves", with \method defined as E$^5$), so the PDF
// has none; but a run of digits raised or lowered off the baseline and
// followed, back on the baseline, by a lower-case word of two or more
// letters ends a word in all but formula-like text. Chemical formulas (H₂O,
// the next letter a capital), ordinals (1st: no digits in the script),
// "x²y" (a single letter) and "F1"/"L2"/"GPT-4o" (no change of baseline)
// are left as they are.
func scriptEndsWord(prev, w word, lineY, lineSize float64) bool {
	if prev.size > 0.85*w.size || math.Abs(w.y-lineY) > 0.1*lineSize || w.size < 0.9*lineSize {
		return false
	}
	if math.Abs(prev.y-lineY) < 0.15*lineSize || prev.text == "" {
		return false
	}
	if w.x0-prev.x1 < -0.05*w.size {
		return false
	}
	for _, r := range prev.text {
		if r < '0' || r > '9' {
			return false
		}
	}
	letters := 0
	for _, r := range w.text {
		if !unicode.IsLower(r) {
			break
		}
		letters++
	}
	return letters >= 2
}

// negationSlash is U+0338, the text of cmsy's /negationslash. TeX draws it
// before the relation it strikes through (\not=), so the text reads "̸="
// with the combining mark on the wrong side.
const negationSlash = "\u0338"

// moveNegations puts each negation slash after the character it precedes,
// where NFKC composes the pair ("=" + U+0338 → "≠", "∈" + U+0338 → "∉").
func moveNegations(s string) string {
	if !strings.Contains(s, negationSlash) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], negationSlash) && i+len(negationSlash) < len(s) {
			j := i + len(negationSlash)
			_, n := utf8.DecodeRuneInString(s[j:])
			if s[j:j+n] != negationSlash {
				b.WriteString(s[j : j+n])
				b.WriteString(negationSlash)
				i = j + n
				continue
			}
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		b.WriteString(s[i : i+n])
		i += n
	}
	return b.String()
}

// overstrikes turns a slash drawn over a symbol into the combining long
// solidus: LaTeX's \notin strikes "∈" with a "/" (drawn first) rather than
// with cmsy's negation slash, so the text would read "/∈" or "∈/" where
// NFKC can make "∉" of "∈" + U+0338. Only a slash whose middle lies inside
// a neighbouring glyph that is a symbol (a relation, not the letters of
// "a/b") counts; moveNegations then puts the mark after the symbol.
func overstrikes(ps []piece) []piece {
	for i, p := range ps {
		if p.text != "/" {
			continue
		}
		for _, j := range [2]int{i - 1, i + 1} {
			if j >= 0 && j < len(ps) && strikes(p.x0, p.x1, ps[j].x0, ps[j].x1, ps[j].text) {
				ps[i].text = negationSlash
				break
			}
		}
	}
	return ps
}

// mergeOverstrikes does the same for a slash that became a word of its
// own, its negative advance over the symbol having ended the word; words
// are in left-to-right order.
func mergeOverstrikes(ws []word) []word {
	out := ws[:0]
	for _, w := range ws {
		if k := len(out); k > 0 && w.text == "/" && strikes(w.x0, w.x1, out[k-1].x0, out[k-1].x1, lastRune(out[k-1].text)) {
			out[k-1].text += negationSlash
			continue
		}
		out = append(out, w)
	}
	return out
}

func strikes(x0, x1, sx0, sx1 float64, sym string) bool {
	r, _ := utf8.DecodeRuneInString(sym)
	mid := (x0 + x1) / 2
	return mid > sx0 && mid < sx1 && unicode.IsSymbol(r)
}

func lastRune(s string) string {
	_, n := utf8.DecodeLastRuneInString(s)
	return s[len(s)-n:]
}
