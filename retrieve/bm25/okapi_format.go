package bm25

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
)

// OkapiFileFormat names the on-disk Okapi layout searched in place
// ([OpenOkapiFile]); [okapiFormat] is the older gob one, loaded whole.
//
// Every integer is little-endian; offsets are from the start of the file.
//
//	header    160 bytes: the format name, k1, b, epsilon, the tokenizer,
//	          the counts of papers, passages, terms and postings, the total
//	          of passage lengths, the corpus-wide mean raw idf, the offset
//	          of each section, the file size, and a CRC-32 of the header
//	papers    48 bytes each, sorted by paper id: id offset, id length, the
//	          paper's first passage number and passage count (its passages
//	          are numbered contiguously), its total tokens, its own mean
//	          raw idf (the floor of searches within it), its postings count
//	passages  40 bytes each, by passage number (paper by paper in paper id
//	          order, then by ordinal and passage id, the order ties are
//	          broken in): ordinal, passage id and text offsets, their
//	          lengths, the length in tokens, the paper's number
//	norms     8 bytes each, by passage number: the length normalisation
//	          k1·(1 − b + b·|d|/avgdl) with the corpus's avgdl (a float64),
//	          which corpus-wide searches read for every passage they score:
//	          a dense array, not a field of the 40-byte records
//	strings   paper ids, passage ids and texts, which the records point to
//	postings  8 bytes each, (passage number, term frequency), each term's
//	          sorted by passage number
//	terms     strings of the terms, then 24 bytes a term sorted by term
//	          (byte order): string offset and length, document frequency
//	          (its postings count), first posting
//
// A search binary-searches the term records and the papers in the mapped
// bytes, and reads only its terms' postings: nothing is decoded at open.
// Within one paper, whose passages are a contiguous range of numbers, a
// term's postings are the range found by two binary searches in the
// corpus-wide list, whose length is the paper's own document frequency.
//
// Both mean idfs are exact sums rounded once (exactSum) divided by the
// vocabulary size, so they equal the in-memory Okapi's to the bit.
const OkapiFileFormat = "paperlens-okapi/2"

const (
	okHeaderSize = 160
	okPaperSize  = 48
	okDocSize    = 40
	okTermSize   = 24
	okPostSize   = 8
	okNormSize   = 8
	okMagicLen   = 24
	okCRCAt      = 152
)

// ErrCorruptOkapi is wrapped by every error about an Okapi file whose
// bytes do not hold together: truncated, overwritten, or not one at all.
var ErrCorruptOkapi = errors.New("corrupt Okapi file")

type okHeader struct {
	opt                                   OkapiOptions
	papers, docs, terms, postings, tokens uint64
	meanIDF                               float64
	papersOff, docsOff, postOff, termsOff uint64
	size                                  uint64
	normsOff                              uint64
}

var tokenizerCodes = []string{TokenizerAnalyzer, TokenizerWhitespace}

func (h *okHeader) encode() ([]byte, error) {
	b := make([]byte, okHeaderSize)
	copy(b, OkapiFileFormat)
	le := binary.LittleEndian
	le.PutUint64(b[24:], math.Float64bits(h.opt.K1))
	le.PutUint64(b[32:], math.Float64bits(h.opt.B))
	le.PutUint64(b[40:], math.Float64bits(h.opt.Epsilon))
	code := -1
	for i, t := range tokenizerCodes {
		if t == h.opt.Tokenizer {
			code = i
		}
	}
	if code < 0 {
		return nil, fmt.Errorf("tokenizer %q has no code in %s", h.opt.Tokenizer, OkapiFileFormat)
	}
	le.PutUint32(b[48:], uint32(code))
	for i, v := range []uint64{h.papers, h.docs, h.terms, h.postings, h.tokens, math.Float64bits(h.meanIDF),
		h.papersOff, h.docsOff, h.postOff, h.termsOff, h.size, h.normsOff} {
		le.PutUint64(b[56+8*i:], v)
	}
	le.PutUint32(b[okCRCAt:], crc32.ChecksumIEEE(b[:okCRCAt]))
	return b, nil
}

// decodeHeader checks everything that can be checked in constant time:
// the format, the header's checksum, the options, and that every table
// lies inside the file. Records are checked as they are read.
func decodeHeader(b []byte) (okHeader, error) {
	var h okHeader
	if len(b) < okHeaderSize {
		return h, fmt.Errorf("%w: %d bytes, shorter than the header", ErrCorruptOkapi, len(b))
	}
	if name := string(bytes.TrimRight(b[:okMagicLen], "\x00")); name != OkapiFileFormat {
		if bytes.HasPrefix(b, []byte("paperlens-okapi/")) {
			return h, fmt.Errorf("format %q, this build reads %q", name, OkapiFileFormat)
		}
		return h, fmt.Errorf("%w: not a %s file", ErrCorruptOkapi, OkapiFileFormat)
	}
	le := binary.LittleEndian
	if crc32.ChecksumIEEE(b[:okCRCAt]) != le.Uint32(b[okCRCAt:]) {
		return h, fmt.Errorf("%w: header checksum mismatch", ErrCorruptOkapi)
	}
	f64 := func(at int) float64 { return math.Float64frombits(le.Uint64(b[at:])) }
	h.opt = OkapiOptions{K1: f64(24), B: f64(32), Epsilon: f64(40)}
	if code := le.Uint32(b[48:]); int(code) < len(tokenizerCodes) {
		h.opt.Tokenizer = tokenizerCodes[code]
	} else {
		return h, fmt.Errorf("%w: unknown tokenizer code %d", ErrCorruptOkapi, code)
	}
	u := func(i int) uint64 { return le.Uint64(b[56+8*i:]) }
	h.papers, h.docs, h.terms, h.postings, h.tokens = u(0), u(1), u(2), u(3), u(4)
	h.meanIDF = math.Float64frombits(u(5))
	h.papersOff, h.docsOff, h.postOff, h.termsOff, h.size, h.normsOff = u(6), u(7), u(8), u(9), u(10), u(11)
	for _, v := range []float64{h.opt.K1, h.opt.B, h.opt.Epsilon, h.meanIDF} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return h, fmt.Errorf("%w: non-finite parameter in the header", ErrCorruptOkapi)
		}
	}
	if h.size != uint64(len(b)) {
		return h, fmt.Errorf("%w: %d bytes, the header says %d (truncated?)", ErrCorruptOkapi, len(b), h.size)
	}
	if h.docs > math.MaxUint32 || h.papers > h.docs || (h.docs > 0 && h.papers == 0) {
		return h, fmt.Errorf("%w: %d papers, %d passages", ErrCorruptOkapi, h.papers, h.docs)
	}
	for _, t := range []struct{ off, n, size uint64 }{
		{h.papersOff, h.papers, okPaperSize}, {h.docsOff, h.docs, okDocSize},
		{h.postOff, h.postings, okPostSize}, {h.termsOff, h.terms, okTermSize}, {h.normsOff, h.docs, okNormSize},
	} {
		if t.off < okHeaderSize || t.off > h.size || t.n > (h.size-t.off)/t.size {
			return h, fmt.Errorf("%w: a table runs past the end of the file", ErrCorruptOkapi)
		}
	}
	return h, nil
}

// okView reads records out of a file's bytes, bound-checking each read so
// that a corrupt file is an error, never an index out of range.
type okView struct {
	data []byte
	h    okHeader
}

type okPaperRec struct {
	idOff    uint64
	idLen    uint32
	first, n uint32
	tokens   uint64
	meanIDF  float64
	postings uint64
}

type okDocRec struct {
	ordinal        int64
	idOff, textOff uint64
	idLen, textLen uint32
	length, paper  uint32
}

type okTermRec struct {
	strOff uint64
	strLen uint32
	df     uint32
	start  uint64
}

func (v *okView) paper(i uint64) (okPaperRec, error) {
	if i >= v.h.papers {
		return okPaperRec{}, fmt.Errorf("%w: paper %d of %d", ErrCorruptOkapi, i, v.h.papers)
	}
	b := v.data[v.h.papersOff+i*okPaperSize:][:okPaperSize]
	le := binary.LittleEndian
	r := okPaperRec{idOff: le.Uint64(b), idLen: le.Uint32(b[8:]), first: le.Uint32(b[12:]), n: le.Uint32(b[16:]),
		tokens: le.Uint64(b[24:]), meanIDF: math.Float64frombits(le.Uint64(b[32:])), postings: le.Uint64(b[40:])}
	if r.n == 0 || uint64(r.first)+uint64(r.n) > v.h.docs || r.postings > v.h.postings || math.IsNaN(r.meanIDF) || math.IsInf(r.meanIDF, 0) {
		return r, fmt.Errorf("%w: paper %d: passages %d+%d of %d", ErrCorruptOkapi, i, r.first, r.n, v.h.docs)
	}
	return r, nil
}

func (v *okView) doc(i uint64) (okDocRec, error) {
	if i >= v.h.docs {
		return okDocRec{}, fmt.Errorf("%w: passage %d of %d", ErrCorruptOkapi, i, v.h.docs)
	}
	b := v.data[v.h.docsOff+i*okDocSize:][:okDocSize]
	le := binary.LittleEndian
	r := okDocRec{ordinal: int64(le.Uint64(b)), idOff: le.Uint64(b[8:]), textOff: le.Uint64(b[16:]),
		idLen: le.Uint32(b[24:]), textLen: le.Uint32(b[28:]), length: le.Uint32(b[32:]), paper: le.Uint32(b[36:])}
	if uint64(r.paper) >= v.h.papers {
		return r, fmt.Errorf("%w: passage %d belongs to paper %d of %d", ErrCorruptOkapi, i, r.paper, v.h.papers)
	}
	return r, nil
}

func (v *okView) term(i uint64) (okTermRec, error) {
	if i >= v.h.terms {
		return okTermRec{}, fmt.Errorf("%w: term %d of %d", ErrCorruptOkapi, i, v.h.terms)
	}
	b := v.data[v.h.termsOff+i*okTermSize:][:okTermSize]
	le := binary.LittleEndian
	r := okTermRec{strOff: le.Uint64(b), strLen: le.Uint32(b[8:]), df: le.Uint32(b[12:]), start: le.Uint64(b[16:])}
	if r.start > v.h.postings || uint64(r.df) > v.h.postings-r.start || uint64(r.df) > v.h.docs {
		return r, fmt.Errorf("%w: term %d: postings %d+%d of %d", ErrCorruptOkapi, i, r.start, r.df, v.h.postings)
	}
	return r, nil
}

// bytesAt is the string at off of n bytes, checked to lie in the file.
func (v *okView) bytesAt(off uint64, n uint32) ([]byte, error) {
	if off < okHeaderSize || off > uint64(len(v.data)) || uint64(n) > uint64(len(v.data))-off {
		return nil, fmt.Errorf("%w: a string runs past the end of the file", ErrCorruptOkapi)
	}
	return v.data[off : off+uint64(n)], nil
}

// norm is passage d's corpus-wide length normalisation; d < docs, checked
// by the caller.
func (v *okView) norm(d uint32) float64 {
	return math.Float64frombits(binary.LittleEndian.Uint64(v.data[v.h.normsOff+uint64(d)*okNormSize:]))
}

// posting k of the file: term records are checked to keep k in range.
func (v *okView) posting(k uint64) (doc, tf uint32) {
	b := v.data[v.h.postOff+k*okPostSize:][:okPostSize]
	return binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:])
}

// findTerm binary-searches the term records for t.
func (v *okView) findTerm(t []byte) (okTermRec, bool, error) {
	lo, hi := uint64(0), v.h.terms
	for lo < hi {
		mid := lo + (hi-lo)/2
		r, err := v.term(mid)
		if err != nil {
			return r, false, err
		}
		s, err := v.bytesAt(r.strOff, r.strLen)
		if err != nil {
			return r, false, err
		}
		switch c := bytes.Compare(s, t); {
		case c == 0:
			return r, true, nil
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return okTermRec{}, false, nil
}

// findPaper binary-searches the paper records for id.
func (v *okView) findPaper(id []byte) (uint64, okPaperRec, bool, error) {
	lo, hi := uint64(0), v.h.papers
	for lo < hi {
		mid := lo + (hi-lo)/2
		r, err := v.paper(mid)
		if err != nil {
			return 0, r, false, err
		}
		s, err := v.bytesAt(r.idOff, r.idLen)
		if err != nil {
			return 0, r, false, err
		}
		switch c := bytes.Compare(s, id); {
		case c == 0:
			return mid, r, true, nil
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, okPaperRec{}, false, nil
}

// lowerBound is the first posting of t at or after passage doc.
func (v *okView) lowerBound(t okTermRec, doc uint32) uint64 {
	lo, hi := t.start, t.start+uint64(t.df)
	for lo < hi {
		mid := lo + (hi-lo)/2
		if d, _ := v.posting(mid); d < doc {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}
