package pdftext

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/ledongthuc/pdf"

	"github.com/paperlens/paperlens/internal/lazyregexp"
)

// glyphNames holds the glyph names whose text differs from pdfTeX's list
// (texenc_gen.go) or that the list lacks. The list follows the Adobe Glyph
// List, which maps /Delta and /Omega to the increment and ohm signs and
// the extensible-delimiter pieces to private-use code points; in TeX's
// fonts those glyphs are Greek letters and parts of one delimiter.
// Ligatures keep their presentation forms, which NFKC expands later.
// It is built on first use (sync.OnceValue): every paperlens process, not
// only those that read a PDF, used to pay for it at start.
var glyphNames = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	const table = `Delta 394 Omega 3a9 bardbl 2016 circlecopyrt 25ef
fi fb01 fl fb02 ff fb00 ffi fb03 ffl fb04
arrowhookleft 21a9 arrowhookright 21aa harpoonleftup 21bc harpoonrightup 21c0
lessslant 2a7d greaterslant 2a7e epsilonmath 3b5 mapsto 21a6
vartheta 3d1 varphi 3c6 varpi 3d6 varrho 3f1 varsigma 3c2 varepsilon 3b5`
	f := strings.Fields(table)
	for i := 0; i+1 < len(f); i += 2 {
		if v, err := strconv.ParseUint(f[i+1], 16, 32); err == nil {
			m[f[i]] = string(rune(v))
		}
	}
	// Glyphs that draw no character of their own: Symbol's bar extending
	// a radical sign, OT1's slash for Polish ł (suppress), cmmi's tie
	// accent, Euler's zero-width ghost, the EC font's second zero of ‰,
	// TeX's explicitly empty slot.
	for _, n := range []string{"radicalex", "suppress", "tie", "ghost", "perthousandzero", "emptyslot"} {
		m[n] = ""
	}
	return m
})

// glyphText returns the text for a glyph name, and whether it is known.
func glyphText(name string) (string, bool) {
	if t, ok := glyphNames()[name]; ok {
		return t, true
	}
	if t, ok := cmexText(name); ok {
		return t, true
	}
	if t, ok := glyphListLookup(name); ok {
		return dropPrivateUse(t), true
	}
	if i := strings.IndexByte(name, '.'); i > 0 { // "a.sc", "one.oldstyle"
		return glyphText(name[:i])
	}
	if strings.Contains(name, "_") { // "f_f_i": a ligature of its parts
		var sb strings.Builder
		for _, part := range strings.Split(name, "_") {
			t, ok := glyphText(part)
			if !ok {
				return "", false
			}
			sb.WriteString(t)
		}
		return sb.String(), true
	}
	var hex string
	switch {
	case strings.HasPrefix(name, "uni") && len(name) >= 7 && (len(name)-3)%4 == 0:
		hex = name[3:] // "uni03B3", "uni00660069"
		var sb strings.Builder
		for i := 0; i < len(hex); i += 4 {
			v, err := strconv.ParseUint(hex[i:i+4], 16, 32)
			if err != nil || v >= 0xd800 && v < 0xe000 {
				return "", false
			}
			sb.WriteRune(rune(v))
		}
		return sb.String(), true
	case strings.HasPrefix(name, "u") && len(name) >= 5 && len(name) <= 7:
		hex = name[1:]
	}
	if hex != "" {
		if v, err := strconv.ParseUint(hex, 16, 32); err == nil && v < 0x110000 && (v < 0xd800 || v >= 0xe000) {
			return string(rune(v)), true
		}
	}
	return "", false
}

// dropPrivateUse removes private-use characters (Adobe's corporate-use
// code points for logos and delimiter pieces): they mean nothing outside
// one font.
func dropPrivateUse(s string) string {
	for _, r := range s {
		if r >= 0xe000 && r <= 0xf8ff {
			var b strings.Builder
			for _, r := range s {
				if r < 0xe000 || r > 0xf8ff {
					b.WriteRune(r)
				}
			}
			return b.String()
		}
	}
	return s
}

var dupPutRE = lazyregexp.MustCompile(`dup\s+(\d{1,3})\s*/([^\s/\[\]{}()<>]+)\s+put`)

// builtinEncoding reads the encoding of an embedded Type 1 font program
// (the /Encoding array of its clear-text part) or of a Type1C (CFF) one.
// It returns nil for Type 1 fonts using StandardEncoding or when there is
// nothing readable.
func builtinEncoding(fontDict pdf.Value) map[int]string {
	fd := fontDict.Key("FontDescriptor")
	ff := fd.Key("FontFile")
	if ff.Kind() != pdf.Stream {
		if ff3 := fd.Key("FontFile3"); ff3.Kind() == pdf.Stream && ff3.Key("Subtype").Name() == "Type1C" {
			return embeddedCFFEncoding(ff3)
		}
		return nil
	}
	n := ff.Key("Length1").Int64()
	if n <= 0 || n > 1<<20 {
		n = 64 << 10
	}
	rc := ff.Reader()
	defer rc.Close()
	clear, _ := io.ReadAll(io.LimitReader(rc, n))
	i := bytes.Index(clear, []byte("/Encoding"))
	if i < 0 || bytes.HasPrefix(clear[i:], []byte("/Encoding StandardEncoding")) {
		return nil
	}
	clear = clear[i:]
	if j := bytes.Index(clear, []byte("readonly def")); j > 0 {
		clear = clear[:j]
	} else if j := bytes.Index(clear, []byte("eexec")); j > 0 {
		clear = clear[:j]
	}
	m := map[int]string{}
	for _, mm := range dupPutRE.FindAllSubmatch(clear, -1) {
		code, _ := strconv.Atoi(string(mm[1]))
		if code < 256 {
			m[code] = string(mm[2])
		}
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// maxFontProgram bounds the font program read for its encoding; TeX's
// subset fonts are a few kilobytes.
const maxFontProgram = 4 << 20

// embeddedCFFEncoding reads the built-in encoding of a Type1C font program.
func embeddedCFFEncoding(ff pdf.Value) map[int]string {
	rc := ff.Reader()
	defer rc.Close()
	data, _ := io.ReadAll(io.LimitReader(rc, maxFontProgram))
	m, err := cffEncoding(data)
	if err != nil || len(m) == 0 {
		return nil
	}
	return m
}

// symbolEncoding is the built-in encoding of the standard 14 font Symbol
// (PDF 32000-1, D.5): the glyph names of codes 0x20 to 0xFE, "-" for unused
// codes. The card suits are Symbol's black ones (cmsy's heart and diamond,
// which the glyph names table follows, are white).
var symbolEncoding = strings.Fields(`
space exclam universal numbersign existential percent ampersand suchthat
parenleft parenright asteriskmath plus comma minus period slash
zero one two three four five six seven eight nine colon semicolon less equal greater question
congruent Alpha Beta Chi Delta Epsilon Phi Gamma Eta Iota theta1 Kappa Lambda Mu Nu Omicron
Pi Theta Rho Sigma Tau Upsilon sigma1 Omega Xi Psi Zeta bracketleft therefore bracketright perpendicular underscore
radicalex alpha beta chi delta epsilon phi gamma eta iota phi1 kappa lambda mu nu omicron
pi theta rho sigma tau upsilon omega1 omega xi psi zeta braceleft bar braceright similar -
- - - - - - - - - - - - - - - -
- - - - - - - - - - - - - - - -
Euro Upsilon1 minute lessequal fraction infinity florin club uni2666 uni2665 spade arrowboth arrowleft arrowup arrowright arrowdown
degree plusminus second greaterequal multiply proportional partialdiff bullet divide notequal equivalence approxequal ellipsis arrowvertex arrowhorizex carriagereturn
aleph Ifraktur Rfraktur weierstrass circlemultiply circleplus emptyset intersection union propersuperset reflexsuperset notsubset propersubset reflexsubset element notelement
angle gradient registerserif copyrightserif trademarkserif product radical dotmath logicalnot logicaland logicalor arrowdblboth arrowdblleft arrowdblup arrowdblright arrowdbldown
lozenge angleleft registersans copyrightsans trademarksans summation parenlefttp parenleftex parenleftbt bracketlefttp bracketleftex bracketleftbt bracelefttp braceleftmid braceleftbt braceex
- angleright integral integraltp integralex integralbt parenrighttp parenrightex parenrightbt bracketrighttp bracketrightex bracketrightbt bracerighttp bracerightmid bracerightbt`)

// standardEncoding returns the built-in encoding, code -> glyph name, of
// the standard 14 symbolic fonts Symbol and ZapfDingbats (and the names
// their common clones go by), or nil for other fonts. Such fonts are often
// not embedded and carry neither /Encoding nor /ToUnicode: groff's \(*e is
// code 0x65 of Symbol, which must read ε, not e.
func standardEncoding(base string) map[int]string {
	name := strings.ToLower(base)
	if i := strings.IndexByte(name, ','); i > 0 { // "Symbol,Bold"
		name = name[:i]
	}
	switch name {
	case "symbol", "symbolmt", "symbol-slanted", "symbolslanted", "standardsymbolsps", "standardsyml", "standardsymbolsl":
		m := make(map[int]string, len(symbolEncoding))
		for i, n := range symbolEncoding {
			if n != "-" {
				m[0x20+i] = n
			}
		}
		return m
	case "zapfdingbats", "zapfdingbatsitc", "itczapfdingbats", "dingbats", "d050000l":
		m := map[int]string{}
		for c := 0x20; c <= 0xfe; c++ {
			if r := dingbat(c); r != 0 {
				m[c] = fmt.Sprintf("uni%04X", r)
			}
		}
		return m
	}
	return nil
}

// dingbat maps a ZapfDingbats code to Unicode. The Unicode Dingbats block
// was laid out after this font, so most codes are a fixed offset from
// U+2700; the glyphs Unicode already had elsewhere are the exceptions.
func dingbat(c int) rune {
	switch {
	case c == 0x20:
		return ' '
	case c >= 0x21 && c <= 0x7e:
		switch c {
		case 0x25:
			return 0x260e
		case 0x2a:
			return 0x261b
		case 0x2b:
			return 0x261e
		case 0x48:
			return 0x2605
		case 0x6c:
			return 0x25cf
		case 0x6e:
			return 0x25a0
		case 0x73:
			return 0x25b2
		case 0x74:
			return 0x25bc
		case 0x75:
			return 0x25c6
		case 0x77:
			return 0x25d7
		}
		return rune(0x2700 + c - 0x20)
	case c >= 0x80 && c <= 0x8d:
		return rune(0x2768 + c - 0x80)
	case c >= 0xa1 && c <= 0xa7:
		return rune(0x2761 + c - 0xa1)
	case c >= 0xa8 && c <= 0xab:
		return []rune{0x2663, 0x2666, 0x2665, 0x2660}[c-0xa8]
	case c >= 0xac && c <= 0xb5:
		return rune(0x2460 + c - 0xac)
	case c >= 0xb6 && c <= 0xd3:
		return rune(0x2776 + c - 0xb6)
	case c >= 0xd4 && c <= 0xd7:
		return []rune{0x2794, 0x2192, 0x2194, 0x2195}[c-0xd4]
	case c >= 0xd8 && c <= 0xef:
		return rune(0x2798 + c - 0xd8)
	case c >= 0xf1 && c <= 0xfe:
		return rune(0x27b1 + c - 0xf1)
	}
	return 0
}

// differences reads an /Encoding dictionary's /Differences array.
func differences(enc pdf.Value) map[int]string {
	d := enc.Key("Differences")
	if d.Kind() != pdf.Array {
		return nil
	}
	m := map[int]string{}
	code := 0
	for i := 0; i < d.Len() && i < 4096; i++ {
		x := d.Index(i)
		switch x.Kind() {
		case pdf.Integer:
			code = int(x.Int64())
		case pdf.Name:
			m[code] = x.Name()
			code++
		}
	}
	return m
}
