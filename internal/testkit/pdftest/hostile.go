package pdftest

import (
	"bytes"
	"compress/flate"
	"fmt"
	"strings"
	"sync"
)

// Case is one hostile PDF.
type Case struct {
	Name string // short, stable, usable as a file or subtest name
	Data []byte
	What string // the one thing wrong with it, and what it does to an unguarded parser
}

// Hostile returns every hostile case, in a fixed order. The data is built
// once and shared: callers must not modify it.
func Hostile() []Case {
	hostileOnce.Do(func() {
		for _, g := range generators {
			hostile = append(hostile, Case{g.name, g.gen(), g.what})
		}
	})
	return append([]Case(nil), hostile...)
}

// ByName builds only the named case, for a child process that parses one.
func ByName(name string) (Case, bool) {
	for _, g := range generators {
		if g.name == name {
			return Case{g.name, g.gen(), g.what}, true
		}
	}
	return Case{}, false
}

var generators = []struct {
	name string
	gen  func() []byte
	what string
}{
	{"predictor-columns-content", PredictorColumnsContent, "page content stream with Flate /Predictor 12 /Columns 100000000000: a 100 GB row buffer"},
	{"predictor-columns-xref", PredictorColumnsXref, "cross-reference stream with Flate /Predictor 12 /Columns 100000000000: a 100 GB row buffer before any object is read"},
	{"xref-index-huge", XrefIndexHuge, "cross-reference stream /Index [3000000000 1]: a table of 3 billion entries"},
	{"xref-subsection-huge", XrefSubsectionHuge, "classic cross-reference subsection starting at object 999999999: a table of a billion entries"},
	{"size-signed", SizeSigned, "cross-reference stream /Size +90000000000: the sign gets past a digits-only check, then a table of 90 billion entries"},
	{"objstm-self", ObjStmSelf, "the catalog lives in an object stream that is itself: resolving it recurses without end"},
	{"contents-repeat", ContentsRepeat, "page /Contents array repeating one Flate stream 400,000 times: a decompressor per element, opened up front"},
	{"tounicode-bomb", ToUnicodeBomb, "2 MB ToUnicode CMap of 65,536-code bfranges: billions of mappings"},
	{"flate-string-bomb", FlateBomb, "1 MB content stream inflating to a 1 GiB string literal"},
	{"prev-loop", PrevLoop, "classic cross-reference section whose /Prev is itself: the chain never ends"},
	{"extends-loop", ExtendsLoop, "object streams 10 and 11 /Extends each other and neither holds the page: the search never ends"},
	{"deep-nesting", DeepNesting, "page dictionary holding arrays and dictionaries nested 100,000 deep"},
}

var (
	hostileOnce sync.Once
	hostile     []Case
)

// Good returns a small valid one-page PDF drawing text in Helvetica, one
// PDF line per "\n". Text should be printable ASCII: other bytes are drawn
// as WinAnsi codes.
func Good(text string) []byte {
	b := newBuilder()
	b.page("4 0 R", "")
	b.stream(4, "/Filter /FlateDecode", zlibBytes(showText(text)))
	b.obj(6, "<< /Title (pdftest) >>")
	b.classic("", "/Info 6 0 R")
	return b.buf.Bytes()
}

const hugeColumns = "100000000000"

// PredictorColumnsContent: the row buffer is allocated when the content
// stream is opened, before a single byte is inflated.
func PredictorColumnsContent() []byte {
	b := newBuilder()
	b.page("4 0 R", "")
	b.stream(4, "/Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns "+hugeColumns+" >>", zlibBytes(showText("predictor")))
	b.classic("", "")
	return b.buf.Bytes()
}

// PredictorColumnsXref: the same, on the cross-reference stream, so it goes
// off while the file is being opened.
func PredictorColumnsXref() []byte {
	b := newBuilder()
	b.page("4 0 R", "")
	b.stream(4, "", showText("predictor"))
	b.xrefStream(6, nil, "/Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns "+hugeColumns+" >>", true)
	return b.buf.Bytes()
}

// XrefIndexHuge: one entry, numbered 3,000,000,000.
func XrefIndexHuge() []byte {
	b := newBuilder()
	b.page("4 0 R", "")
	b.stream(4, "", showText("index"))
	// /Index covers one row; the stream holds seven, so the first is read.
	b.xrefStream(6, nil, "/Index [3000000000 1]", false)
	return b.buf.Bytes()
}

// XrefSubsectionHuge: a valid table plus one subsection far beyond /Size.
func XrefSubsectionHuge() []byte {
	b := newBuilder()
	b.page("4 0 R", "")
	b.stream(4, "", showText("subsection"))
	b.classic("999999999 1\n0000000009 00000 n \n", "")
	return b.buf.Bytes()
}

// SizeSigned: PDF integers may carry a sign, so "+90000000000" is a
// valid /Size to the lexer.
func SizeSigned() []byte {
	b := newBuilder()
	b.page("4 0 R", "")
	b.stream(4, "", showText("size"))
	b.xrefStream(6, nil, "/Size +90000000000", false)
	return b.buf.Bytes()
}

// ObjStmSelf: the cross-reference stream says object 1 (the catalog) is
// entry 0 of object stream 1.
func ObjStmSelf() []byte {
	b := newBuilder()
	b.obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	b.obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>")
	b.stream(4, "", showText("self"))
	b.xrefStream(6, map[int][2]int{1: {1, 0}}, "", false)
	return b.buf.Bytes()
}

// ContentsRepeat: 400,000 references to one small deflated stream, about
// 2.4 MB of "4 0 R ".
func ContentsRepeat() []byte {
	b := newBuilder()
	contents := "[" + strings.Repeat("4 0 R ", 400000) + "]"
	b.page(contents, "")
	b.stream(4, "/Filter /FlateDecode", zlibBytes(showText("x")))
	b.classic("", "")
	return b.buf.Bytes()
}

// ToUnicodeBomb: a font whose ToUnicode CMap (2 MB inflated) is made of
// bfranges, each mapping a different block of 65,536 four-byte codes, in
// blocks of 100 as the CMap format allows.
func ToUnicodeBomb() []byte {
	var cm bytes.Buffer
	cm.WriteString("/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n" +
		"1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange\n")
	for hi := 0; cm.Len() < 2<<20; {
		cm.WriteString("100 beginbfrange\n")
		for i := 0; i < 100; i, hi = i+1, hi+1 {
			fmt.Fprintf(&cm, "<%04X0000> <%04XFFFF> <0041>\n", hi&0xffff, hi&0xffff)
		}
		cm.WriteString("endbfrange\n")
	}
	cm.WriteString("endcmap CMapName currentdict /CMap defineresource pop end end\n")

	b := newBuilder()
	b.page("4 0 R", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode 6 0 R >>")
	b.stream(4, "/Filter /FlateDecode", zlibBytes(showText("bomb")))
	b.stream(6, "/Filter /FlateDecode", zlibBytes(cm.Bytes()))
	b.classic("", "")
	return b.buf.Bytes()
}

// FlateBombSize is about how many bytes FlateBomb's string literal
// inflates to (32 KiB more, exactly).
const FlateBombSize = 1 << 30

// FlateBomb: "BT /F1 12 Tf 72 720 Td (AAAA…) Tj ET" with a 1 GiB literal,
// deflated to about 1 MB. Compressing a gigabyte would take seconds, so
// one flushed block encoding 4 MiB of A's after a window of A's is emitted
// 256 times: each copy decodes to the same 4 MiB whatever precedes it, as
// long as that is A's too. The Adler-32 trailer is computed arithmetically,
// so the stream is valid to the end.
func FlateBomb() []byte {
	const chunk = 4 << 20
	head := []byte("BT /F1 12 Tf 72 720 Td (")
	tail := []byte(") Tj ET\n")
	as := bytes.Repeat([]byte("A"), chunk)

	var z bytes.Buffer
	z.Write([]byte{0x78, 0xda})
	fw, _ := flate.NewWriter(&z, flate.BestCompression)
	fw.Write(head)
	fw.Write(as[:32<<10])
	fw.Flush()
	start := z.Len()
	fw.Write(as)
	fw.Flush()
	block := append([]byte(nil), z.Bytes()[start:]...)
	// The flushed block is in z once already; n-1 more copies.
	n := FlateBombSize / chunk
	for i := 1; i < n; i++ {
		z.Write(block)
	}
	fw.Write(tail)
	fw.Close()
	total := 32<<10 + n*chunk
	sum := adler32Combine(adler32Combine(adler(head), adlerRun('A', int64(total)), int64(total)), adler(tail), int64(len(tail)))
	z.Write([]byte{byte(sum >> 24), byte(sum >> 16), byte(sum >> 8), byte(sum)})

	b := newBuilder()
	b.page("4 0 R", "")
	b.stream(4, "/Filter /FlateDecode", z.Bytes())
	b.classic("", "")
	return b.buf.Bytes()
}

const adlerMod = 65521

func adler(p []byte) uint32 {
	a, b := uint32(1), uint32(0)
	for _, c := range p {
		a = (a + uint32(c)) % adlerMod
		b = (b + a) % adlerMod
	}
	return b<<16 | a
}

// adlerRun is the Adler-32 of n copies of c: after k bytes a = 1 + k·c and
// b sums those a's, n + c·n(n+1)/2.
func adlerRun(c byte, n int64) uint32 {
	m := n % adlerMod
	a := (1 + m*int64(c)) % adlerMod
	t := (n % (2 * adlerMod)) * ((n + 1) % (2 * adlerMod)) / 2 % adlerMod
	b := (m + int64(c)*t) % adlerMod
	return uint32(b)<<16 | uint32(a)
}

// adler32Combine is zlib's adler32_combine: the checksum of A followed by
// B (of length lenB) from the two checksums.
func adler32Combine(a1, a2 uint32, lenB int64) uint32 {
	rem := uint32(lenB % adlerMod)
	s1 := a1 & 0xffff
	s2 := (rem * s1) % adlerMod
	sum1 := s1 + (a2 & 0xffff) + adlerMod - 1
	sum2 := (a1 >> 16) + (a2 >> 16) + s2 + adlerMod - rem
	return (sum2%adlerMod)<<16 | sum1%adlerMod
}

// PrevLoop: the trailer's /Prev points at its own xref keyword.
func PrevLoop() []byte {
	b := newBuilder()
	b.page("4 0 R", "")
	b.stream(4, "", showText("prev"))
	// The offset of "xref" is where the table is about to start.
	b.classic("", fmt.Sprintf("/Prev %d", b.buf.Len()))
	return b.buf.Bytes()
}

// ExtendsLoop: object 3 (the page) is said to be entry 0 of object stream
// 10, which holds only object 7 and extends 11, which holds only object 8
// and extends 10.
func ExtendsLoop() []byte {
	b := newBuilder()
	b.obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
	b.obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	b.stream(4, "", showText("extends"))
	objstm := func(n, holds, ext int) {
		body := "<< /Seven 7 >>"
		head := fmt.Sprintf("%d 0 ", holds)
		b.stream(n, fmt.Sprintf("/Type /ObjStm /N 1 /First %d /Extends %d 0 R", len(head), ext), []byte(head+body))
	}
	objstm(10, 7, 11)
	objstm(11, 8, 10)
	b.xrefStream(12, map[int][2]int{3: {10, 0}, 7: {10, 0}, 8: {11, 0}}, "", false)
	return b.buf.Bytes()
}

// DeepNesting: alternating arrays and dictionaries, 100,000 levels, in a
// key of the page dictionary.
func DeepNesting() []byte {
	const depth = 100000
	var nest bytes.Buffer
	for i := 0; i < depth; i++ {
		if i%2 == 0 {
			nest.WriteString("[")
		} else {
			nest.WriteString("<</K ")
		}
	}
	for i := depth - 1; i >= 0; i-- {
		if i%2 == 0 {
			nest.WriteString("]")
		} else {
			nest.WriteString(">>")
		}
	}
	b := newBuilder()
	b.obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
	b.obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	b.obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R /Nest "+nest.String()+" >>")
	b.stream(4, "", showText("deep"))
	b.obj(5, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	b.classic("", "")
	return b.buf.Bytes()
}
