package pdftext

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Two fixes at the junction of a glyph's text and the words around it,
// called from layout.go's word and line builders.

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
