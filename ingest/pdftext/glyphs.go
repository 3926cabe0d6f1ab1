package pdftext

import (
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/ledongthuc/pdf"
)

// glyphNames maps PostScript glyph names to text. The library has such a
// table but only applies it to /Differences; TeX math fonts (CMMI, CMSY,
// ...) carry their encoding inside the embedded font program instead, and
// without it "|y|" comes out as "jyj" and Greek letters vanish. Only names
// that occur in scientific papers are listed; single letters map to
// themselves and uniXXXX names are decoded directly.
var glyphNames = func() map[string]string {
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
lessslant 2a7d greaterslant 2a7e epsilonmath 3b5 period 2e slash 2f`
	f := strings.Fields(table)
	for i := 0; i+1 < len(f); i += 2 {
		if v, err := strconv.ParseUint(f[i+1], 16, 32); err == nil {
			m[f[i]] = string(rune(v))
		}
	}
	for c := 'A'; c <= 'Z'; c++ {
		m[string(c)] = string(c)
		m[string(c+32)] = string(c + 32)
	}
	return m
}()

// glyphText returns the text for a glyph name, and whether it is known.
func glyphText(name string) (string, bool) {
	if t, ok := glyphNames[name]; ok {
		return t, true
	}
	if i := strings.IndexByte(name, '.'); i > 0 { // "a.sc", "one.oldstyle"
		if t, ok := glyphNames[name[:i]]; ok {
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

var dupPutRE = regexp.MustCompile(`dup\s+(\d{1,3})\s*/([^\s/\[\]{}()<>]+)\s+put`)

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
