package pdftext

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf16"

	"github.com/ledongthuc/pdf"
	"golang.org/x/text/unicode/norm"
)

// font is everything the content-stream walker needs to know about one PDF
// font, computed once per document. ledongthuc/pdf re-parses the font
// dictionary (and, for object streams, re-inflates the whole stream) on every
// Value.Key call, so asking it for a glyph width per glyph costs tens of
// milliseconds per page; here widths and decodings live in plain slices and
// maps.
type font struct {
	bold     bool // judged from the name or weight; marks headings
	twoByte  bool // Type0 font: codes are two bytes (Identity-H and friends)
	scale    float64
	widths   []float64 // simple fonts: indexed by code-first
	first    int
	cidW     map[int]float64 // Type0: CID -> width
	defWidth float64
	noWidths bool // no width table at all: positions inside a string are guesses

	toUni  map[int]string // parsed /ToUnicode, nil when absent or unreadable
	diffs  map[int]string // /Differences glyph names
	inFont map[int]string // glyph names from the embedded font program, or of Symbol's and ZapfDingbats' built-in encodings
	tex    texFont        // what the name tells of a TeX font: its family, built-in encoding, letter style
	texEnc *[256]string   // that encoding, when the PDF and the font program give none
	enc    *pdf.Font      // library fallback decoder (Differences, WinAnsi, ...)
	byteTx [256]*string   // decoded single-byte codes, filled lazily
	cidTx  map[int]string // decoded two-byte codes, filled lazily

	// err makes every page using the font unreadable: the font is hostile
	// rather than merely broken (a broken one is a nil font, whose glyphs
	// are skipped).
	err error
}

// newFont builds a font from its dictionary. It may panic on a broken one
// (the library reports errors that way); loadFont recovers.
//
// The stages: the name (subset tag dropped) tells weight and TeX font;
// the widths come from the descendant CIDFont of a Type0 font or the
// simple font's /Widths; then the ways to decode a code (ToUnicode,
// /Differences, the font's own encoding) are gathered.
func newFont(v pdf.Value) *font {
	f := &font{scale: 0.001}
	base := fontBaseName(v.Key("BaseFont").Name())
	f.bold = boldName(base)
	f.tex = lookupTeXFont(base)

	subtype := v.Key("Subtype").Name()
	if subtype == "Type3" {
		if m := v.Key("FontMatrix"); m.Len() >= 1 && m.Index(0).Float64() > 0 {
			f.scale = m.Index(0).Float64()
		}
	}
	if subtype == "Type0" {
		f.readCIDMetrics(v.Key("DescendantFonts").Index(0))
	} else {
		f.readSimpleMetrics(v)
	}

	if tu := v.Key("ToUnicode"); tu.Kind() == pdf.Stream {
		f.toUni, f.err = parseToUnicode(tu)
	}
	if !f.twoByte {
		f.readSimpleEncoding(v, base)
	}
	f.enc = &pdf.Font{V: v}
	return f
}

// fontBaseName drops the subset tag ("ABCDEF+") from a /BaseFont name.
func fontBaseName(base string) string {
	if i := strings.IndexByte(base, '+'); i >= 0 && i < len(base)-1 {
		return base[i+1:]
	}
	return base
}

// boldName reports a font whose name says it is bold (or medium, black,
// heavy; TeX's cmbx).
func boldName(base string) bool {
	lb := strings.ToLower(base)
	return strings.Contains(lb, "bold") || strings.Contains(lb, "medi") ||
		strings.Contains(lb, "black") || strings.Contains(lb, "heavy") ||
		strings.Contains(lb, "semibold") || strings.HasPrefix(lb, "cmbx") ||
		strings.HasSuffix(lb, "-b") || strings.HasSuffix(lb, ",bold")
}

// readCIDMetrics reads a Type0 font's widths from its descendant CIDFont
// d: two-byte codes, a default width (/DW, 1000 when absent) and the /W
// array; a heavy /FontWeight makes it bold.
func (f *font) readCIDMetrics(d pdf.Value) {
	f.twoByte = true
	f.defWidth = 1000
	f.cidW = map[int]float64{}
	if dw := d.Key("DW"); dw.Kind() == pdf.Integer || dw.Kind() == pdf.Real {
		f.defWidth = dw.Float64()
	}
	readCIDWidths(d.Key("W"), f.cidW)
	if fd := d.Key("FontDescriptor"); !fd.IsNull() {
		if fw := fd.Key("FontWeight").Float64(); fw >= 600 {
			f.bold = true
		}
	}
}

// readSimpleMetrics reads a simple font's /FirstChar and /Widths (capped:
// a simple font has at most 256 codes, more is corruption), its
// /MissingWidth and /FontWeight. A font without widths (the standard 14)
// gets half an em for every glyph.
func (f *font) readSimpleMetrics(v pdf.Value) {
	f.first = int(v.Key("FirstChar").Int64())
	w := v.Key("Widths")
	n := min(w.Len(), 4096)
	f.widths = make([]float64, n)
	for i := 0; i < n; i++ {
		f.widths[i] = w.Index(i).Float64()
	}
	fd := v.Key("FontDescriptor")
	f.defWidth = fd.Key("MissingWidth").Float64()
	if fw := fd.Key("FontWeight").Float64(); fw >= 600 {
		f.bold = true
	}
	if n == 0 {
		f.noWidths = true
		f.defWidth = 500
	}
}

// readSimpleEncoding gathers a one-byte font's encodings: /Differences; a
// ToUnicode map dropped when it contradicts a TeX font's glyph names
// (contradicts); and, when /Encoding names no base, the font's own
// encoding.
func (f *font) readSimpleEncoding(v pdf.Value, base string) {
	enc := v.Key("Encoding")
	f.diffs = differences(enc)
	if f.toUni != nil && f.tex.enc != nil && contradicts(f.toUni, f.diffs, f.tex) {
		f.toUni = nil
	}
	// The font's own encoding applies only when /Encoding names no base,
	// and is needed only when ToUnicode does not cover every code.
	if !(enc.Kind() == pdf.Null || enc.Kind() == pdf.Dict && enc.Key("BaseEncoding").IsNull()) {
		return
	}
	if len(f.toUni) >= 256 {
		return
	}
	f.inFont = builtinEncoding(v)
	if f.inFont == nil {
		// Symbol and ZapfDingbats, usually not embedded: their
		// encoding is known without the font program.
		f.inFont = standardEncoding(base)
	}
	if f.inFont == nil {
		// A TeX font whose program is missing or unreadable:
		// its encoding is known from its name.
		f.texEnc = f.tex.enc
	}
}

// contradicts reports whether a TeX font's ToUnicode map is one of Mac OS
// X Quartz's (Preview, Skim). Quartz re-encodes TeX's fonts under
// /Differences and writes ToUnicode maps that send each code to the glyph's
// old position in the TeX encoding read as a character: CMSY's /arrowright
// (position 0x21) becomes "!", /bardbl (0x6B) "k", and the Greek letters
// of CMMI, below 0x20, Apple's keyboard symbols (/theta "✓", /pi "⇡") or
// U+0000. Where the map disagrees with the glyph names only in that way,
// and more often than it agrees, the names are the truth. pdfTeX's own
// maps come from the same glyph list as ours and agree.
func contradicts(toUni map[int]string, names map[int]string, tf texFont) bool {
	pos := make(map[string]int, 128)
	for i, n := range tf.enc {
		if n != "" {
			if _, dup := pos[n]; !dup {
				pos[n] = i
			}
		}
	}
	agree, quartz := 0, 0
	for code, name := range names {
		u, ok := toUni[code]
		if !ok {
			continue
		}
		t, known := fontGlyphText(tf.family, name)
		if !known {
			continue
		}
		if t != "" && norm.NFKC.String(t) == norm.NFKC.String(u) {
			agree++
			continue
		}
		p, in := pos[name]
		switch {
		case in && (p < 0x20 || u == string(rune(p)) || u == "" || u == "\x00"):
			quartz++
		case t == "":
			// A glyph drawing no text (a cmex delimiter) that the map
			// gives some other text: neither sign.
		default:
			return false // a disagreement of another kind: keep the map
		}
	}
	return quartz > agree
}

func readCIDWidths(w pdf.Value, out map[int]float64) {
	n := w.Len()
	for i := 0; i < n && len(out) < 1<<16; {
		c := w.Index(i)
		if c.Kind() != pdf.Integer {
			return
		}
		start := int(c.Int64())
		next := w.Index(i + 1)
		if next.Kind() == pdf.Array {
			for j := 0; j < next.Len() && j < 1<<16; j++ {
				out[start+j] = next.Index(j).Float64()
			}
			i += 2
			continue
		}
		end := int(next.Int64())
		width := w.Index(i + 2).Float64()
		if end-start > 1<<16 || end < start {
			return
		}
		for k := start; k <= end; k++ {
			out[k] = width
		}
		i += 3
	}
}

// width returns the glyph advance for code in text-space units per unit of
// font size (already multiplied by the font matrix scale).
func (f *font) width(code int) float64 {
	if f.twoByte {
		if w, ok := f.cidW[code]; ok {
			return w * f.scale
		}
		return f.defWidth * f.scale
	}
	if i := code - f.first; i >= 0 && i < len(f.widths) {
		return f.widths[i] * f.scale
	}
	return f.defWidth * f.scale
}

// decode returns the Unicode text of one character code. ToUnicode wins over
// the /Encoding because producers (pdfTeX, PDFium) put the authoritative
// mapping there. Without it, a code's glyph name comes from, in order: the
// /Differences of the PDF's /Encoding; the encoding built into the embedded
// font program (Type 1 or CFF), which applies when /Encoding names no base
// encoding; and, for a TeX font whose program gives none, the encoding
// known from its name. The library's decoder (WinAnsi, MacRoman, ...)
// covers the rest. A TeX font's letter style (calligraphic cmsy,
// blackboard msbm) is applied to whatever that gives.
func (f *font) decode(code int, raw string) string {
	if f.twoByte {
		if s, ok := f.cidTx[code]; ok {
			return s
		}
		s, ok := f.toUni[code]
		if !ok && f.toUni == nil {
			s = f.enc.Encoder().Decode(raw)
		}
		s = sanitize(s)
		if f.cidTx == nil {
			f.cidTx = map[int]string{}
		}
		f.cidTx[code] = s
		return s
	}
	if p := f.byteTx[code&0xff]; p != nil {
		return *p
	}
	s, ok := f.toUni[code]
	if !ok {
		if name, in := f.diffs[code]; in {
			s, ok = fontGlyphText(f.tex.family, name)
		} else if name, in := f.inFont[code]; in {
			s, ok = fontGlyphText(f.tex.family, name)
		} else if f.texEnc != nil && code >= 0 && code < 256 && f.texEnc[code] != "" {
			s, ok = fontGlyphText(f.tex.family, f.texEnc[code])
		}
		if !ok {
			s = f.enc.Encoder().Decode(raw)
		}
		s = f.tex.letters.apply(s)
	}
	s = sanitize(s)
	f.byteTx[code&0xff] = &s
	return s
}

// sanitize drops control characters and the replacement character: they are
// what unmapped codes decode to and only add noise to the text.
func sanitize(s string) string {
	clean := true
	for _, r := range s {
		if r < 0x20 || r == 0xfffd || r == 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			b.WriteByte(' ')
		case r < 0x20 || r == 0xfffd || r == 0x7f:
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// parseToUnicode reads a ToUnicode CMap into a code -> text map. It has its
// own small tokenizer instead of the library's cmap reader because that one
// scans every bfchar/bfrange entry for every code, mishandles ranges whose
// destination crosses a byte boundary, and panics on CMaps it dislikes.
func parseToUnicode(v pdf.Value) (m map[int]string, err error) {
	defer func() {
		if recover() != nil {
			m, err = nil, nil
		}
	}()
	rc := v.Reader()
	defer rc.Close()
	data, rerr := io.ReadAll(io.LimitReader(rc, 4<<20))
	if rerr != nil && len(data) == 0 {
		return nil, nil
	}
	return parseCMap(data)
}

// maxCMapCodes bounds the codes one ToUnicode CMap may map. A font has at
// most 65,536 glyphs; the rest of a bigger CMap is ignored, so a CMap of
// huge ranges cannot fill memory with billions of mappings.
const maxCMapCodes = 1 << 18

// parseCMap reads bfchar and bfrange mappings from CMap source.
func parseCMap(data []byte) (map[int]string, error) {
	m := map[int]string{}
	var stack []cmapTok
	for toks := newCmapLexer(data); ; {
		t, ok := toks.next()
		if !ok {
			break
		}
		if t.kind != tokKeyword {
			stack = append(stack, t)
			if len(stack) > 1<<17 {
				return nil, nil
			}
			continue
		}
		switch t.s {
		case "beginbfchar", "beginbfrange":
			stack = stack[:0]
		case "endbfchar":
			if len(m)+len(stack)/2 >= maxCMapCodes {
				return nil, errCMapTooBig
			}
			for i := 0; i+1 < len(stack); i += 2 {
				if stack[i].kind == tokString && stack[i+1].kind == tokString {
					m[codeOf(stack[i].s)] = utf16String(stack[i+1].s)
				}
			}
		case "endbfrange":
			for i := 0; i+2 < len(stack); {
				lo, hi, dst := stack[i], stack[i+1], stack[i+2]
				i += 3
				if dst.kind == tokArrayStart {
					var elems []string
					for i < len(stack) && stack[i].kind != tokArrayEnd {
						elems = append(elems, stack[i].s)
						i++
					}
					i++ // skip ]
					c0 := codeOf(lo.s)
					if len(m)+len(elems) >= maxCMapCodes {
						return nil, errCMapTooBig
					}
					for j, e := range elems {
						m[c0+j] = utf16String(e)
					}
					continue
				}
				c0, c1 := codeOf(lo.s), codeOf(hi.s)
				if dst.kind != tokString || c1 < c0 || c1-c0 > 1<<16 {
					continue
				}
				if len(m)+c1-c0 >= maxCMapCodes {
					return nil, errCMapTooBig
				}
				u := utf16Units(dst.s)
				if len(u) == 0 {
					continue
				}
				for c := c0; c <= c1; c++ {
					uu := append([]uint16(nil), u...)
					uu[len(uu)-1] += uint16(c - c0)
					m[c] = string(utf16.Decode(uu))
				}
			}
		}
		stack = stack[:0]
	}
	if len(m) == 0 {
		return nil, nil
	}
	return m, nil
}

var errCMapTooBig = fmt.Errorf("ToUnicode CMap maps more than %d codes", maxCMapCodes)

type cmapTokKind int

const (
	tokString cmapTokKind = iota
	tokNumber
	tokName
	tokKeyword
	tokArrayStart
	tokArrayEnd
)

type cmapTok struct {
	kind cmapTokKind
	s    string
}

// cmapLexer tokenizes the PostScript subset used by CMaps. Dictionary
// delimiters and procedures are skipped: only strings, arrays and the
// bf* keywords matter for a ToUnicode map.
type cmapLexer struct {
	b []byte
	i int
}

func newCmapLexer(b []byte) *cmapLexer { return &cmapLexer{b: b} }

// next returns the next token, or false at the end of the input. Blanks,
// comments, dictionary delimiters and procedure braces are skipped.
func (l *cmapLexer) next() (cmapTok, bool) {
	b := l.b
	for l.i < len(b) {
		c := b[l.i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == 0:
			l.i++
		case c == '%':
			for l.i < len(b) && b[l.i] != '\n' && b[l.i] != '\r' {
				l.i++
			}
		case c == '<' && l.i+1 < len(b) && b[l.i+1] == '<', c == '>' && l.i+1 < len(b) && b[l.i+1] == '>':
			l.i += 2
		case c == '<':
			return cmapTok{tokString, l.hexString()}, true
		case c == '(':
			return cmapTok{tokString, l.literalString()}, true
		case c == '[':
			l.i++
			return cmapTok{kind: tokArrayStart}, true
		case c == ']':
			l.i++
			return cmapTok{kind: tokArrayEnd}, true
		case c == '{' || c == '}' || c == '>' || c == ')':
			l.i++
		default:
			if t, ok := l.word(); ok {
				return t, true
			}
		}
	}
	return cmapTok{}, false
}

// hexString reads a <...> string at l.i: hex digits in pairs, anything
// else ignored, an odd last digit padded with 0 as the PDF spec says.
func (l *cmapLexer) hexString() string {
	b := l.b
	l.i++
	var out []byte
	hi, half := byte(0), false
	for l.i < len(b) && b[l.i] != '>' {
		if h, ok := unhex(b[l.i]); ok {
			if half {
				out = append(out, hi<<4|h)
			} else {
				hi = h
			}
			half = !half
		}
		l.i++
	}
	if half {
		out = append(out, hi<<4)
	}
	l.i++
	return string(out)
}

// literalString reads a (...) string at l.i: balanced parentheses nest,
// and backslash escapes are decoded (literalEscape). An unclosed string
// runs to the end of the input.
func (l *cmapLexer) literalString() string {
	b := l.b
	l.i++
	var out []byte
	depth := 1
	for l.i < len(b) {
		c := b[l.i]
		l.i++
		if c == '\\' && l.i < len(b) {
			out = append(out, l.literalEscape())
			continue
		}
		if c == '(' {
			depth++
		} else if c == ')' {
			depth--
			if depth == 0 {
				break
			}
		}
		out = append(out, c)
	}
	return string(out)
}

// literalEscape decodes the escape after a backslash at l.i: \n \r \t \b
// \f, up to three octal digits, or the character itself (\( \) \\).
func (l *cmapLexer) literalEscape() byte {
	b := l.b
	e := b[l.i]
	l.i++
	switch e {
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	}
	if e < '0' || e > '7' {
		return e
	}
	v := int(e - '0')
	for k := 0; k < 2 && l.i < len(b) && b[l.i] >= '0' && b[l.i] <= '7'; k++ {
		v = v*8 + int(b[l.i]-'0')
		l.i++
	}
	return byte(v)
}

// word reads a name (/Name), a number or a keyword at l.i, up to the next
// delimiter. A lone delimiter that no other case took is skipped, and
// word then reports false.
func (l *cmapLexer) word() (cmapTok, bool) {
	b := l.b
	start := l.i
	if b[l.i] == '/' {
		l.i++
	}
	for l.i < len(b) && !isCmapDelim(b[l.i]) {
		l.i++
	}
	if l.i == start {
		l.i++
		return cmapTok{}, false
	}
	s := string(b[start:l.i])
	switch {
	case s[0] == '/':
		return cmapTok{tokName, s[1:]}, true
	case s[0] >= '0' && s[0] <= '9' || s[0] == '-' || s[0] == '.':
		return cmapTok{tokNumber, s}, true
	}
	return cmapTok{tokKeyword, s}, true
}

func isCmapDelim(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '\f', 0, '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func codeOf(s string) int {
	c := 0
	for i := 0; i < len(s) && i < 4; i++ {
		c = c<<8 | int(s[i])
	}
	return c
}

func utf16Units(s string) []uint16 {
	u := make([]uint16, 0, len(s)/2)
	for i := 0; i+1 < len(s); i += 2 {
		u = append(u, uint16(s[i])<<8|uint16(s[i+1]))
	}
	return u
}

func utf16String(s string) string {
	if len(s) == 1 {
		return string(rune(s[0]))
	}
	return string(utf16.Decode(utf16Units(s)))
}
