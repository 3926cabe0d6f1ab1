package pdftext

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/ledongthuc/pdf"

	"github.com/paperlens/paperlens/third_party/lazyregexp"
)

// glyphNames maps PostScript glyph names to text. The library has such a
// table but only applies it to /Differences; TeX math fonts (CMMI, CMSY,
// ...) carry their encoding inside the embedded font program instead, and
// without it "|y|" comes out as "jyj" and Greek letters vanish. Only names
// that occur in scientific papers are listed; single letters map to
// themselves and uniXXXX names are decoded directly.
// It is built on first use (sync.OnceValue): every paperlens process, not
// only those that read a PDF, used to pay for it at start.
var glyphNames = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	const table = `space 20 exclam 21 quotedbl 22 numbersign 23 dollar 24 percent 25
ampersand 26 quoteright 2019 quotesingle 27 parenleft 28 parenright 29 asterisk 2a
plus 2b comma 2c hyphen 2d period 2e slash 2f zero 30 one 31 two 32 three 33
four 34 five 35 six 36 seven 37 eight 38 nine 39 colon 3a semicolon 3b less 3c
equal 3d greater 3e question 3f at 40 bracketleft 5b backslash 5c bracketright 5d
asciicircum 5e underscore 5f quoteleft 2018 grave 60 braceleft 7b bar 7c
braceright 7d asciitilde 7e exclamdown a1 cent a2 sterling a3 section a7
dieresis a8 copyright a9 ordfeminine aa guillemotleft ab logicalnot ac
registered ae macron af degree b0 plusminus b1 acute b4 mu b5 paragraph b6
periodcentered b7 cedilla b8 guillemotright bb questiondown bf multiply d7
divide f7 dotlessi 131 dotlessj 237 circumflex 2c6 caron 2c7 breve 2d8
dotaccent 2d9 ring 2da ogonek 2db tilde 2dc hungarumlaut 2dd endash 2013
emdash 2014 quotedblleft 201c quotedblright 201d quotesinglbase 201a
quotedblbase 201e dagger 2020 daggerdbl 2021 bullet 2022 ellipsis 2026
perthousand 2030 guilsinglleft 2039 guilsinglright 203a fraction 2044
fi fb01 fl fb02 ff fb00 ffi fb03 ffl fb04 germandbls df ae e6 AE c6 oe 153
OE 152 oslash f8 Oslash d8 lslash 142 Lslash 141 trademark 2122 minus 2212
Alpha 391 Beta 392 Gamma 393 Delta 394 Epsilon 395 Zeta 396 Eta 397 Theta 398
Iota 399 Kappa 39a Lambda 39b Mu 39c Nu 39d Xi 39e Omicron 39f Pi 3a0 Rho 3a1
Sigma 3a3 Tau 3a4 Upsilon 3a5 Phi 3a6 Chi 3a7 Psi 3a8 Omega 3a9 alpha 3b1
beta 3b2 gamma 3b3 delta 3b4 epsilon 3b5 epsilon1 3f5 zeta 3b6 eta 3b7
theta 3b8 theta1 3d1 iota 3b9 kappa 3ba lambda 3bb nu 3bd xi 3be omicron 3bf
pi 3c0 pi1 3d6 rho 3c1 rho1 3f1 sigma 3c3 sigma1 3c2 tau 3c4 upsilon 3c5
phi 3c6 phi1 3d5 chi 3c7 psi 3c8 omega 3c9 omega1 3d6 vartheta 3d1
varphi 3c6 varpi 3d6 varrho 3f1 varsigma 3c2 varepsilon 3b5
arrowleft 2190 arrowup 2191 arrowright 2192 arrowdown 2193 arrowboth 2194
arrowupdn 2195 arrownortheast 2197 arrowsoutheast 2198 arrownorthwest 2196
arrowsouthwest 2199 arrowdblleft 21d0 arrowdblup 21d1 arrowdblright 21d2
arrowdbldown 21d3 arrowdblboth 21d4 mapsto 21a6 universal 2200 partialdiff 2202
existential 2203 emptyset 2205 nabla 2207 element 2208 notelement 2209
owner 220b suchthat 220b product 220f coproduct 2210 summation 2211
minusplus 2213 asteriskmath 2217 radical 221a proportional 221d infinity 221e
angle 2220 divides 2223 parallel 2225 logicaland 2227 logicalor 2228
intersection 2229 union 222a integral 222b contourintegral 222e therefore 2234
similar 223c approxequal 2248 notequal 2260 equivalence 2261 lessequal 2264
greaterequal 2265 lessmuch 226a greatermuch 226b propersubset 2282
propersuperset 2283 reflexsubset 2286 reflexsuperset 2287 circleplus 2295
circleminus 2296 circlemultiply 2297 circledivide 2298 circledot 2299
perpendicular 22a5 latticetop 22a4 turnstileleft 22a2 turnstileright 22a3
dotmath 22c5 diamondmath 22c4 star 22c6 ceilingleft 2308 ceilingright 2309
floorleft 230a floorright 230b angbracketleft 27e8 angbracketright 27e9
bardbl 2016 prime 2032 backslash 5c wreathproduct 2240 similarequal 2243
precedes 227a follows 227b precedesequal 2aaf followsequal 2ab0 club 2663
diamond 2662 heart 2661 spade 2660 openbullet 25e6 circlecopyrt a9
negationslash 338 triangle 25b3 triangleinv 25bd square 25a1 checkmark 2713
aleph 2135 Rfractur 211c Ifractur 2111 weierstrass 2118 lscript 2113
dotlessi 131 visiblespace 2423 Ydieresis 178 ydieresis ff Euro 20ac
arrowhookleft 21a9 arrowhookright 21aa harpoonleftup 21bc harpoonrightup 21c0
lessslant 2a7d greaterslant 2a7e epsilonmath 3b5 period 2e slash 2f
congruent 2245 Upsilon1 3d2 minute 2032 second 2033 florin 192 lozenge 25ca
carriagereturn 21b5 Ifraktur 2111 Rfraktur 211c notsubset 2284 gradient 2207
angleleft 2329 angleright 232a registerserif ae copyrightserif a9
trademarkserif 2122 registersans ae copyrightsans a9 trademarksans 2122
arrowvertex 23d0 arrowhorizex 23af parenlefttp 239b parenleftex 239c
parenleftbt 239d parenrighttp 239e parenrightex 239f parenrightbt 23a0
bracketlefttp 23a1 bracketleftex 23a2 bracketleftbt 23a3 bracketrighttp 23a4
bracketrightex 23a5 bracketrightbt 23a6 bracelefttp 23a7 braceleftmid 23a8
braceleftbt 23a9 braceex 23aa bracerighttp 23ab bracerightmid 23ac
bracerightbt 23ad integraltp 2320 integralex 23ae integralbt 2321`
	f := strings.Fields(table)
	for i := 0; i+1 < len(f); i += 2 {
		if v, err := strconv.ParseUint(f[i+1], 16, 32); err == nil {
			m[f[i]] = string(rune(v))
		}
	}
	m["radicalex"] = "" // Symbol's bar extending a radical sign: no text
	for c := 'A'; c <= 'Z'; c++ {
		m[string(c)] = string(c)
		m[string(c+32)] = string(c + 32)
	}
	return m
})

// glyphText returns the text for a glyph name, and whether it is known.
func glyphText(name string) (string, bool) {
	if t, ok := glyphNames()[name]; ok {
		return t, true
	}
	if i := strings.IndexByte(name, '.'); i > 0 { // "a.sc", "one.oldstyle"
		if t, ok := glyphNames()[name[:i]]; ok {
			return t, true
		}
	}
	hex := ""
	switch {
	case strings.HasPrefix(name, "uni") && len(name) == 7:
		hex = name[3:]
	case strings.HasPrefix(name, "u") && len(name) >= 5 && len(name) <= 7:
		hex = name[1:]
	}
	if hex != "" {
		if v, err := strconv.ParseUint(hex, 16, 32); err == nil && v < 0x110000 {
			return string(rune(v)), true
		}
	}
	return "", false
}

var dupPutRE = lazyregexp.MustCompile(`dup\s+(\d{1,3})\s*/([^\s/\[\]{}()<>]+)\s+put`)

// builtinEncoding reads the /Encoding array of an embedded Type 1 font
// program (its clear-text part). It returns nil for fonts using
// StandardEncoding or when there is nothing readable.
func builtinEncoding(fontDict pdf.Value) map[int]string {
	ff := fontDict.Key("FontDescriptor").Key("FontFile")
	if ff.Kind() != pdf.Stream {
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
