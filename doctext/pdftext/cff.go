package pdftext

import (
	"errors"
)

// A small reader of the Compact Font Format (Adobe Technical Note #5176),
// enough to recover the built-in encoding of a Type1C font program
// (/FontFile3 /Subtype /Type1C): code → glyph index from the Encoding, glyph
// index → glyph name from the charset. dvipdfmx and Acrobat Distiller embed
// TeX's Type 1 fonts this way, often without /Encoding or /ToUnicode in the
// PDF, so the encoding inside the program is the only key to their text.

var errCFF = errors.New("malformed CFF font")

type cffReader struct {
	b []byte
}

func (r cffReader) u8(off int) (int, error) {
	if off < 0 || off >= len(r.b) {
		return 0, errCFF
	}
	return int(r.b[off]), nil
}

func (r cffReader) u16(off int) (int, error) {
	if off < 0 || off+2 > len(r.b) {
		return 0, errCFF
	}
	return int(r.b[off])<<8 | int(r.b[off+1]), nil
}

func (r cffReader) offset(off, size int) (int, error) {
	if size < 1 || size > 4 || off < 0 || off+size > len(r.b) {
		return 0, errCFF
	}
	v := 0
	for i := 0; i < size; i++ {
		v = v<<8 | int(r.b[off+i])
	}
	return v, nil
}

// index reads the INDEX at off: its items and the offset just past it.
func (r cffReader) index(off int) (items [][]byte, end int, err error) {
	count, err := r.u16(off)
	if err != nil {
		return nil, 0, err
	}
	if count == 0 {
		return nil, off + 2, nil
	}
	offSize, err := r.u8(off + 2)
	if err != nil {
		return nil, 0, err
	}
	base := off + 3 + (count+1)*offSize - 1 // item offsets count from 1
	if base >= len(r.b) || count > len(r.b) {
		return nil, 0, errCFF
	}
	prev, err := r.offset(off+3, offSize)
	if err != nil {
		return nil, 0, err
	}
	items = make([][]byte, 0, count)
	for i := 1; i <= count; i++ {
		o, err := r.offset(off+3+i*offSize, offSize)
		if err != nil {
			return nil, 0, err
		}
		if o < prev || base+o > len(r.b) {
			return nil, 0, errCFF
		}
		items = append(items, r.b[base+prev:base+o])
		prev = o
	}
	return items, base + prev, nil
}

// cffTopDict reads the operators the encoding needs from a Top DICT:
// charset (15), Encoding (16), CharStrings (17), and whether the font is
// CID-keyed (ROS, 12 30), which has no encoding of glyph names.
func cffTopDict(d []byte) (charset, encoding, charStrings int, cid bool, err error) {
	var operands []int
	for i := 0; i < len(d); {
		b0 := int(d[i])
		switch {
		case b0 <= 21: // operator
			op := b0
			i++
			if b0 == 12 {
				if i >= len(d) {
					return 0, 0, 0, false, errCFF
				}
				op = 1200 + int(d[i])
				i++
			}
			last := 0
			if len(operands) > 0 {
				last = operands[len(operands)-1]
			}
			switch op {
			case 15:
				charset = last
			case 16:
				encoding = last
			case 17:
				charStrings = last
			case 1230:
				cid = true
			}
			operands = operands[:0]
		case b0 == 28:
			if i+3 > len(d) {
				return 0, 0, 0, false, errCFF
			}
			operands = append(operands, int(int16(uint16(d[i+1])<<8|uint16(d[i+2]))))
			i += 3
		case b0 == 29:
			if i+5 > len(d) {
				return 0, 0, 0, false, errCFF
			}
			operands = append(operands, int(int32(uint32(d[i+1])<<24|uint32(d[i+2])<<16|uint32(d[i+3])<<8|uint32(d[i+4]))))
			i += 5
		case b0 == 30: // real number: nibbles up to 0xf
			i++
			for i < len(d) && d[i]&0x0f != 0x0f && d[i]&0xf0 != 0xf0 {
				i++
			}
			i++
			operands = append(operands, 0)
		case b0 >= 32 && b0 <= 246:
			operands = append(operands, b0-139)
			i++
		case b0 >= 247 && b0 <= 250:
			if i+2 > len(d) {
				return 0, 0, 0, false, errCFF
			}
			operands = append(operands, (b0-247)*256+int(d[i+1])+108)
			i += 2
		case b0 >= 251 && b0 <= 254:
			if i+2 > len(d) {
				return 0, 0, 0, false, errCFF
			}
			operands = append(operands, -(b0-251)*256-int(d[i+1])-108)
			i += 2
		default:
			return 0, 0, 0, false, errCFF
		}
		if len(operands) > 48 {
			return 0, 0, 0, false, errCFF
		}
	}
	return charset, encoding, charStrings, cid, nil
}

// cffEncoding returns the built-in encoding of a bare CFF font program,
// code → glyph name. It returns nil for CID-keyed fonts and for the
// predefined Expert encodings, which no TeX font uses.
//
// The stages follow the program's layout: the header and INDEXes give the
// Top DICT and the strings; the charset names each glyph (cffCharset);
// the encoding maps codes to glyphs (standard by name, or the font's own
// table and its supplements).
func cffEncoding(data []byte) (map[int]string, error) {
	r := cffReader{data}
	hdrSize, err := r.u8(2)
	if err != nil {
		return nil, err
	}
	_, off, err := r.index(hdrSize) // Name INDEX
	if err != nil {
		return nil, err
	}
	tops, off, err := r.index(off)
	if err != nil || len(tops) == 0 {
		return nil, errCFF
	}
	strs, _, err := r.index(off)
	if err != nil {
		return nil, err
	}
	charsetOff, encOff, csOff, cid, err := cffTopDict(tops[0])
	if err != nil || cid || encOff == 1 {
		return nil, err
	}
	glyphs, _, err := r.index(csOff)
	if err != nil {
		return nil, err
	}
	sids, err := cffCharset(r, charsetOff, len(glyphs))
	if sids == nil || err != nil {
		return nil, err
	}
	names := cffStrings(strs)
	if encOff == 0 { // StandardEncoding, by glyph name
		return cffStandardCodes(sids, names), nil
	}
	m, err := cffCustomCodes(r, encOff, sids, names)
	if err != nil {
		return nil, err
	}
	for c, name := range m {
		if name == "" || name == ".notdef" {
			delete(m, c)
		}
	}
	return m, nil
}

// cffStrings is a font's String INDEX: the names past the standard ones.
type cffStrings [][]byte

// name returns the glyph name of a string id: a standard string, one of
// the font's own, or "" past both.
func (strs cffStrings) name(sid int) string {
	if sid < len(cffStandardStrings) {
		return cffStandardStrings[sid]
	}
	if i := sid - len(cffStandardStrings); i < len(strs) {
		return string(strs[i])
	}
	return ""
}

// cffCharset reads the charset at off for n glyphs: glyph index → string
// id; glyph 0 is always .notdef. It returns nil without an error for the
// predefined Expert charsets, which no TeX font uses.
func cffCharset(r cffReader, off, n int) ([]int, error) {
	sids := make([]int, n)
	switch off {
	case 0: // ISOAdobe: SIDs 1-228 in order
		for g := 1; g < n && g <= 228; g++ {
			sids[g] = g
		}
		return sids, nil
	case 1, 2: // Expert charsets: no TeX font uses them
		return nil, nil
	}
	format, err := r.u8(off)
	if err != nil {
		return nil, err
	}
	p := off + 1
	for g := 1; g < n; {
		switch format {
		case 0: // one SID per glyph
			if sids[g], err = r.u16(p); err != nil {
				return nil, err
			}
			p += 2
			g++
		case 1, 2: // ranges: first SID and how many follow it, in one or two bytes
			first, err := r.u16(p)
			if err != nil {
				return nil, err
			}
			var left int
			if format == 1 {
				left, err = r.u8(p + 2)
				p += 3
			} else {
				left, err = r.u16(p + 2)
				p += 4
			}
			if err != nil {
				return nil, err
			}
			for k := 0; k <= left && g < n; k++ {
				sids[g] = first + k
				g++
			}
		default:
			return nil, errCFF
		}
	}
	return sids, nil
}

// cffStandardCodes maps the codes of Adobe's StandardEncoding whose glyph
// names the font has: a font that says it uses StandardEncoding encodes
// its glyphs by name.
func cffStandardCodes(sids []int, names cffStrings) map[int]string {
	m := map[int]string{}
	byName := make(map[string]bool, len(sids))
	for g := 1; g < len(sids); g++ {
		byName[names.name(sids[g])] = true
	}
	for code, name := range standardEncodingNames {
		if name != "" && byName[name] {
			m[code] = name
		}
	}
	return m
}

// cffCustomCodes reads the font's own encoding at off: codes for glyphs
// 1, 2, ... in order (format 0: a list of codes; format 1: ranges of
// codes), then, when the format's high bit is set, supplements giving more
// codes for glyphs already encoded.
func cffCustomCodes(r cffReader, off int, sids []int, names cffStrings) (map[int]string, error) {
	format, err := r.u8(off)
	if err != nil {
		return nil, err
	}
	m := map[int]string{}
	var p int
	switch format & 0x7f {
	case 0:
		p, err = cffCodeList(r, off+1, sids, names, m)
	case 1:
		p, err = cffCodeRanges(r, off+1, sids, names, m)
	default:
		return nil, errCFF
	}
	if err != nil {
		return nil, err
	}
	if format&0x80 != 0 {
		if err := cffSupplements(r, p, names, m); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// cffCodeList reads encoding format 0 at p into m: a count, then one code
// per glyph from glyph 1. It returns the offset past the list.
func cffCodeList(r cffReader, p int, sids []int, names cffStrings, m map[int]string) (int, error) {
	nCodes, err := r.u8(p)
	if err != nil {
		return 0, err
	}
	p++
	for g := 1; g <= nCodes; g++ {
		code, err := r.u8(p)
		if err != nil {
			return 0, err
		}
		p++
		if g < len(sids) {
			m[code] = names.name(sids[g])
		}
	}
	return p, nil
}

// cffCodeRanges reads encoding format 1 at p into m: a count of ranges,
// each a first code and how many codes follow it, for consecutive glyphs
// from glyph 1. It returns the offset past the ranges.
func cffCodeRanges(r cffReader, p int, sids []int, names cffStrings, m map[int]string) (int, error) {
	nRanges, err := r.u8(p)
	if err != nil {
		return 0, err
	}
	p++
	g := 1
	for k := 0; k < nRanges; k++ {
		first, err := r.u8(p)
		if err != nil {
			return 0, err
		}
		left, err := r.u8(p + 1)
		if err != nil {
			return 0, err
		}
		p += 2
		for c := first; c <= first+left && c < 256; c++ {
			if g < len(sids) {
				m[c] = names.name(sids[g])
			}
			g++
		}
	}
	return p, nil
}

// cffSupplements reads the supplements at p into m: a count, then code
// and string id pairs.
func cffSupplements(r cffReader, p int, names cffStrings, m map[int]string) error {
	nSups, err := r.u8(p)
	if err != nil {
		return err
	}
	p++
	for k := 0; k < nSups; k++ {
		code, err := r.u8(p)
		if err != nil {
			return err
		}
		sid, err := r.u16(p + 1)
		if err != nil {
			return err
		}
		p += 3
		m[code] = names.name(sid)
	}
	return nil
}
