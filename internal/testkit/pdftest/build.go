package pdftest

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"strings"
)

// builder writes a PDF object by object and remembers where each one
// starts, so the cross-reference section (classic or stream) can be exact:
// a hostile case should be hostile in one way only, not also damaged.
type builder struct {
	buf  bytes.Buffer
	offs map[int]int
}

func newBuilder() *builder {
	b := &builder{offs: map[int]int{}}
	// The second line marks the file as binary, as real producers do.
	b.buf.Grow(4096)
	b.buf.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	return b
}

func (b *builder) obj(n int, body string) {
	b.offs[n] = b.buf.Len()
	fmt.Fprintf(&b.buf, "%d 0 obj\n%s\nendobj\n", n, body)
}

// stream writes a stream object; dict is the header without /Length.
func (b *builder) stream(n int, dict string, data []byte) {
	b.offs[n] = b.buf.Len()
	fmt.Fprintf(&b.buf, "%d 0 obj\n<< %s /Length %d >>\nstream\n", n, dict, len(data))
	b.buf.Write(data)
	b.buf.WriteString("\nendstream\nendobj\n")
}

func (b *builder) maxObj() int {
	m := 0
	for n := range b.offs {
		m = max(m, n)
	}
	return m
}

// classic ends the file with an xref table covering objects 0..maxObj, in
// one subsection, then extra (raw subsection lines, may be empty), then the
// trailer. trailer is the inside of the dictionary; /Size and /Root are
// added unless it already names them. It returns the offset of "xref".
func (b *builder) classic(extra, trailer string) int {
	n := b.maxObj() + 1
	at := b.buf.Len()
	fmt.Fprintf(&b.buf, "xref\n0 %d\n0000000000 65535 f \n", n)
	for i := 1; i < n; i++ {
		if off, ok := b.offs[i]; ok {
			fmt.Fprintf(&b.buf, "%010d 00000 n \n", off)
		} else {
			b.buf.WriteString("0000000000 65535 f \n")
		}
	}
	b.buf.WriteString(extra)
	fmt.Fprintf(&b.buf, "trailer\n<< %s >>\nstartxref\n%d\n%%%%EOF\n", withDefaults(trailer, n), at)
	return at
}

func withDefaults(trailer string, size int) string {
	if !strings.Contains(trailer, "/Size") {
		trailer = fmt.Sprintf("/Size %d ", size) + trailer
	}
	if !strings.Contains(trailer, "/Root") {
		trailer += " /Root 1 0 R"
	}
	return trailer
}

// xrefEntry is one row of a cross-reference stream.
type xrefEntry struct {
	typ   byte // 0 free, 1 at an offset, 2 inside an object stream
	f2    uint32
	f3    uint16
	valid bool
}

// xrefStream ends the file with a cross-reference stream (object number n)
// covering objects 0..n. inStm maps objects that live in object streams to
// their stream and index. dict is extra header (it may override /Size and
// /Index); filter, when set, is "/Filter ... /DecodeParms ..." and the rows
// are then deflated.
func (b *builder) xrefStream(n int, inStm map[int][2]int, dict string, deflate bool) {
	rows := make([]xrefEntry, n+1)
	rows[0] = xrefEntry{typ: 0, f3: 65535, valid: true}
	for i, off := range b.offs {
		if i <= n {
			rows[i] = xrefEntry{typ: 1, f2: uint32(off), valid: true}
		}
	}
	for i, s := range inStm {
		rows[i] = xrefEntry{typ: 2, f2: uint32(s[0]), f3: uint16(s[1]), valid: true}
	}
	at := b.buf.Len()
	rows[n] = xrefEntry{typ: 1, f2: uint32(at), valid: true}
	var data []byte
	for _, r := range rows {
		if !r.valid {
			r = xrefEntry{typ: 0, f3: 65535}
		}
		data = append(data, r.typ, byte(r.f2>>24), byte(r.f2>>16), byte(r.f2>>8), byte(r.f2), byte(r.f3>>8), byte(r.f3))
	}
	if deflate {
		data = zlibBytes(data)
	}
	hdr := "/Type /XRef /W [1 4 2] /Root 1 0 R " + dict
	if !strings.Contains(dict, "/Size") {
		hdr = fmt.Sprintf("/Size %d ", n+1) + hdr
	}
	b.stream(n, hdr, data)
	fmt.Fprintf(&b.buf, "startxref\n%d\n%%%%EOF\n", at)
}

func zlibBytes(p []byte) []byte {
	var out bytes.Buffer
	w, _ := zlib.NewWriterLevel(&out, zlib.BestSpeed)
	w.Write(p)
	w.Close()
	return out.Bytes()
}

// page writes the usual skeleton: 1 catalog, 2 page tree, 3 page (with
// contents, as written, e.g. "4 0 R"), 5 font F1 (Helvetica unless font is
// given as a dictionary body).
func (b *builder) page(contents, font string) {
	b.obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
	b.obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	b.obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents "+contents+" >>")
	if font == "" {
		font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
	}
	b.obj(5, font)
}

// showText is a content stream drawing each line of text in 12 pt
// Helvetica.
func showText(text string) []byte {
	var c bytes.Buffer
	c.WriteString("BT /F1 12 Tf 14 TL 72 720 Td\n")
	for _, line := range strings.Split(text, "\n") {
		c.WriteString("(")
		for i := 0; i < len(line); i++ {
			switch ch := line[i]; ch {
			case '(', ')', '\\':
				c.WriteByte('\\')
				c.WriteByte(ch)
			default:
				if ch < 0x20 || ch >= 0x7f {
					fmt.Fprintf(&c, "\\%03o", ch)
				} else {
					c.WriteByte(ch)
				}
			}
		}
		c.WriteString(") Tj T*\n")
	}
	c.WriteString("ET\n")
	return c.Bytes()
}
