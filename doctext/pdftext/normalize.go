package pdftext

import (
	"strings"

	"golang.org/x/text/unicode/norm"
)

// foldCompat is NFKC without the foldings that lose mathematics. NFKC
// expands ligatures (ﬁ → fi) and other presentation forms, which the text
// needs, but it also turns ℝ into R, ℓ into l, ϕ into φ, ϵ into ε, 𝒜 into
// A and ℵ into the Hebrew letter: symbols the font decoding went to some
// length to recover. Those characters (Greek symbol variants, Letterlike
// Symbols, Mathematical Alphanumeric Symbols) are kept; everything else is
// NFKC-normalised. clean.go's paragraphs can use it in place of
// norm.NFKC.String.
func foldCompat(s string) string {
	if !strings.ContainsFunc(s, keepCompat) {
		return norm.NFKC.String(s)
	}
	var b strings.Builder
	for len(s) > 0 {
		i := strings.IndexFunc(s, keepCompat)
		if i < 0 {
			b.WriteString(norm.NFKC.String(s))
			break
		}
		b.WriteString(norm.NFKC.String(s[:i]))
		r := []rune(s[i:])[0]
		b.WriteRune(r)
		s = s[i+len(string(r)):]
	}
	return b.String()
}

// keepCompat reports the characters foldCompat leaves alone.
func keepCompat(r rune) bool {
	switch {
	case r >= 0x03d0 && r <= 0x03f6: // ϐ ϑ ϒ ϕ ϖ ϰ ϱ ϲ ϴ ϵ
		return true
	case r >= 0x2100 && r <= 0x214f: // ℂ ℓ ℕ ℘ ℝ ℤ ℵ ...
		return r != 0x2122 && r != 0x2121 && r != 0x2116 // ™ ℡ № stay text
	case r >= 0x1d400 && r <= 0x1d7ff: // 𝒜 𝔤 𝕜 𝟙
		return true
	}
	return false
}
