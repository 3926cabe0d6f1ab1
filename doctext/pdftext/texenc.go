package pdftext

import (
	"sort"
	"strings"
)

//go:generate go run ../../internal/gen/texenc -o texenc_gen.go

// TeX's fonts: text for glyph names, and encodings by font name.
//
// pdfTeX writes no ToUnicode map unless told to (\pdfgentounicode=1), and
// neither did dvipdfm(x) nor ghostscript for years; many papers therefore
// carry Computer Modern fonts whose only key to the text is the glyph names
// of their encoding. The names are mapped through pdfTeX's own list
// (glyphtounicode.tex: the Adobe Glyph List plus TeX's names), so the text
// is what pdfTeX would have written into a ToUnicode map, with the gaps of
// that list filled here: the big operators and delimiters of cmex, which
// it leaves out, and the letter styles of calligraphic, blackboard and
// fraktur fonts, whose glyphs are named plain "A".
//
// When a font's encoding cannot be read from the PDF or from the embedded
// program, the encoding of a known TeX font is chosen by its name (CMMI10,
// MSBM7, SFRM1000, ...); the tables in texenc_gen.go are generated from
// TeX Live's own font files by internal/gen/texenc.

// glyphListText returns pdfTeX's text for a glyph name.
func glyphListLookup(name string) (string, bool) {
	i := sort.SearchStrings(glyphListNames[:], name)
	if i < len(glyphListNames) && glyphListNames[i] == name {
		return glyphListText[i], true
	}
	return "", false
}

// texFont is what a TeX font's name tells about it.
type texFont struct {
	family  string       // TFM name without its design size: "cmmi", "msbm"
	enc     *[256]string // its built-in encoding, nil when not a known font
	letters letterStyle  // the style its plain letter glyphs are drawn in
}

// lookupTeXFont recognises a TeX font by its PostScript name (without the
// subset tag): the TFM name in upper case for Computer Modern and the AMS
// fonts, cm-super's SF* and the EC fonts (T1), and Latin Modern's maths
// fonts.
func lookupTeXFont(base string) texFont {
	name := strings.ToLower(base)
	if i := strings.IndexAny(name, ",-"); i > 0 { // "CMR10,Bold", "LMMathItalic10-Regular"
		name = name[:i]
	}
	family := strings.TrimRight(name, "0123456789")
	if len(family) == len(name)-4 && len(family) == 4 && (strings.HasPrefix(family, "ec") || strings.HasPrefix(family, "sf")) {
		family = family[:2] // ecrm1000, sfbx1200: the T1 encoding
	}
	if a, ok := texFamilyAlias[family]; ok {
		family = a
	}
	tf := texFont{family: family, letters: familyLetters[family]}
	if i, ok := texFontIndex(name); ok {
		tf.enc = &texEncodingVectors[texFontEncoding[i]]
		return tf
	}
	// Another design size of a known family (cmr11, msbm12): the 10 pt
	// font's encoding, else the first size listed.
	if family == "" {
		return tf
	}
	if i, ok := texFontIndex(family); ok {
		tf.enc = &texEncodingVectors[texFontEncoding[i]]
		return tf
	}
	if i, ok := texFontIndex(family + "10"); ok {
		tf.enc = &texEncodingVectors[texFontEncoding[i]]
		return tf
	}
	i := sort.SearchStrings(texFontNames[:], family)
	if i < len(texFontNames) && strings.HasPrefix(texFontNames[i], family) {
		if rest := texFontNames[i][len(family):]; rest != "" && strings.Trim(rest, "0123456789") == "" {
			tf.enc = &texEncodingVectors[texFontEncoding[i]]
		}
	}
	return tf
}

func texFontIndex(name string) (int, bool) {
	i := sort.SearchStrings(texFontNames[:], name)
	return i, i < len(texFontNames) && texFontNames[i] == name
}

// texFamilyAlias maps Latin Modern's PostScript family names to the TFM
// names glyphtounicode.tex's font-specific entries use.
var texFamilyAlias = map[string]string{
	"lmmathitalic":    "lmmi",
	"lmmathsymbols":   "lmsy",
	"lmmathextension": "lmex",
}

// fontGlyphText maps a glyph name of a font of the given TeX family to
// text: the font's own exceptions first (cmmi's /phi is ϕ, msbm's /k is 𝕜),
// then the general list.
func fontGlyphText(family, name string) (string, bool) {
	if family != "" {
		key := family + "/" + name
		if t, ok := familyGlyphs[key]; ok {
			return t, true
		}
		i := sort.SearchStrings(glyphFontKeys[:], key)
		if i < len(glyphFontKeys) && glyphFontKeys[i] == key {
			return glyphFontText[i], true
		}
		if family == "eufm" || family == "eufb" {
			// Euler Fraktur's alternative forms: "dalt", "fnos", "onealt".
			if b, ok := strings.CutSuffix(name, "alt"); ok {
				name = b
			} else if b, ok := strings.CutSuffix(name, "nos"); ok {
				name = b
			}
		}
	}
	return glyphText(name)
}

// familyGlyphs are glyphs whose name says something other than what the
// font draws, or that the glyph list lacks; from the fonts' documentation
// (amssymb.sty, latexsym.sty, fontmath.ltx).
var familyGlyphs = map[string]string{
	// cmsy's /openbullet is \circ, the ring operator of composition.
	"cmsy/openbullet": "\u2218", "cmbsy/openbullet": "\u2218", "lmsy/openbullet": "\u2218",
	// msbm: \varkappa, \Bbbk, \digamma; \nshortmid and friends.
	"msbm/kappa": "\u03f0", "msbm/k": "\U0001d55c", "msbm/Digamma": "\u03dd",
	"msbm/lessornotsimilar": "\u22e6", "msbm/greaterornotsimilar": "\u22e7",
	"msbm/subsetornoteql": "\u228a", "msbm/supersetornoteql": "\u228b",
	"msbm/notshortbar": "\u2224", "msbm/notshortparallel": "\u2226",
	"msbm/barshort": "\u2223", "msbm/parallelshort": "\u2225",
	// msam: \lozenge is ◊ (glyphtounicode.tex says ♢, the white suit);
	// \blacksquare's small sibling; the pieces of \multimap-like
	// arrows draw no character of their own.
	"msam/diamond": "\u25ca", "msam/squaresmallsolid": "\u25aa", "msam/axisshort": "",
	"msam/arrowaxisright": "", "msam/arrowaxisleft": "",
	// lasy (latexsym): glyphs named by number.
	"lasy/a1": "\u22b2", "lasy/a2": "\u22b4", "lasy/a3": "\u22b3", "lasy/a4": "\u22b5",
	"lasy/a48": "\u2127", "lasy/a49": "\u22c8", "lasy/a50": "\u25a1", "lasy/a51": "\u25c7",
	"lasy/a59": "\u21dd", "lasy/a60": "\u228f", "lasy/a61": "\u2290",
	"lasy/a40": "", "lasy/a41": "", "lasy/a42": "", "lasy/a43": "", "lasy/a58": "",
}

// letterStyle is a mathematical alphabet: fonts whose letter glyphs are
// named A-Z (and a-z) but draw calligraphic, blackboard or fraktur forms.
type letterStyle uint8

const (
	plainLetters letterStyle = iota
	scriptLetters
	boldScriptLetters
	doubleStruckLetters
	frakturLetters
	boldFrakturLetters
)

var familyLetters = map[string]letterStyle{
	"cmsy": scriptLetters, "lmsy": scriptLetters, "eusm": scriptLetters, "rsfs": scriptLetters,
	"cmbsy": boldScriptLetters, "lmbsy": boldScriptLetters, "eusb": boldScriptLetters,
	"msbm": doubleStruckLetters, "dsrom": doubleStruckLetters, "bbm": doubleStruckLetters,
	"eufm": frakturLetters, "eufb": boldFrakturLetters,
}

// Letters of the Mathematical Alphanumeric Symbols block that Unicode had
// already encoded in Letterlike Symbols: the block has holes there.
var (
	scriptHoles       = map[rune]rune{'B': 0x212c, 'E': 0x2130, 'F': 0x2131, 'H': 0x210b, 'I': 0x2110, 'L': 0x2112, 'M': 0x2133, 'R': 0x211b}
	doubleStruckHoles = map[rune]rune{'C': 0x2102, 'H': 0x210d, 'N': 0x2115, 'P': 0x2119, 'Q': 0x211a, 'R': 0x211d, 'Z': 0x2124}
	frakturHoles      = map[rune]rune{'C': 0x212d, 'H': 0x210c, 'I': 0x2111, 'R': 0x211c, 'Z': 0x2128}
)

// apply rewrites the plain letters of s in the style; other characters
// are kept.
func (ls letterStyle) apply(s string) string {
	if ls == plainLetters {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(ls.letter(r))
	}
	return b.String()
}

func (ls letterStyle) letter(r rune) rune {
	upper := r >= 'A' && r <= 'Z'
	lower := r >= 'a' && r <= 'z'
	switch ls {
	case scriptLetters:
		if upper {
			if h, ok := scriptHoles[r]; ok {
				return h
			}
			return 0x1d49c + r - 'A'
		}
	case boldScriptLetters:
		if upper {
			return 0x1d4d0 + r - 'A'
		}
	case doubleStruckLetters:
		if upper {
			if h, ok := doubleStruckHoles[r]; ok {
				return h
			}
			return 0x1d538 + r - 'A'
		}
	case frakturLetters:
		if upper {
			if h, ok := frakturHoles[r]; ok {
				return h
			}
			return 0x1d504 + r - 'A'
		}
		if lower {
			return 0x1d51e + r - 'a'
		}
	case boldFrakturLetters:
		if upper {
			return 0x1d56c + r - 'A'
		}
		if lower {
			return 0x1d586 + r - 'a'
		}
	}
	return r
}

// naryOperators are cmex's big operators (in their text and display sizes)
// as Unicode's n-ary forms; the glyph list has only the binary ones.
var naryOperators = map[string]string{
	"summation": "\u2211", "product": "\u220f", "coproduct": "\u2210",
	"integral": "\u222b", "contintegral": "\u222e",
	"union": "\u22c3", "intersection": "\u22c2", "unionmulti": "\u2a04", "unionsq": "\u2a06",
	"logicaland": "\u22c0", "logicalor": "\u22c1",
	"circledot": "\u2a00", "circleplus": "\u2a01", "circlemultiply": "\u2a02",
}

// extensibleText: the pieces TeX builds tall delimiters, radicals and
// long arrows from draw no text. Like the sized delimiters below, they
// hang from a baseline raised above the formula's, so a character for them
// would form a line of its own and break the sentence around the formula
// (measured on the shared corpus: "If r < min(1, p/q), we accept" came
// out split over three paragraphs).
var extensibleText = map[string]string{
	"parenlefttp": "", "parenleftex": "", "parenleftbt": "",
	"parenrighttp": "", "parenrightex": "", "parenrightbt": "",
	"bracketlefttp": "", "bracketleftex": "", "bracketleftbt": "",
	"bracketrighttp": "", "bracketrightex": "", "bracketrightbt": "",
	"bracelefttp": "", "braceleftmid": "", "braceleftbt": "", "braceex": "",
	"bracerighttp": "", "bracerightmid": "", "bracerightbt": "",
	"bracehtipdownleft": "", "bracehtipdownright": "", "bracehtipupleft": "", "bracehtipupright": "",
	"radicalbt": "\u221a", "radicalvertex": "", "radicaltp": "",
	"arrowvertex": "", "arrowtp": "", "arrowbt": "", "arrowhorizex": "",
	"arrowvertexdbl": "", "arrowdbltp": "", "arrowdblbt": "",
	"integraltp": "\u222b", "integralex": "", "integralbt": "",
	"vextendsingle": "", "vextenddouble": "",
}

// cmexText maps cmex's size variants ("summationdisplay", "hatwider") to
// the character they are a size of, and its sized delimiters
// ("parenleftBig") to no text.
func cmexText(name string) (string, bool) {
	if t, ok := extensibleText[name]; ok {
		return t, true
	}
	for _, suf := range [...]string{"display", "text"} {
		if b, ok := strings.CutSuffix(name, suf); ok {
			t, ok := naryOperators[b]
			return t, ok
		}
	}
	for _, suf := range [...]string{"Bigg", "bigg", "Big", "big", "widest", "wider", "wide"} {
		b, ok := strings.CutSuffix(name, suf)
		if !ok || b == "" {
			continue
		}
		switch b {
		case "hat":
			return "\u02c6", true
		case "tilde":
			return "\u02dc", true
		case "radical":
			return "\u221a", true
		}
		if _, ok := glyphListLookup(b); ok {
			return "", true // a sized delimiter: see extensibleText
		}
	}
	return "", false
}
