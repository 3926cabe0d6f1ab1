package pdftext

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/paperlens/paperlens/internal/lazyregexp"
)

// The library trusts the numbers in the cross-reference sections and sizes
// allocations by them, and a Go allocation that fails is a fatal error that
// ends the process, not a panic. So the whole /Prev chain of sections is
// read here first, with nothing allocated from its numbers, and a file
// whose numbers no real file could have is refused with a name for what is
// wrong. The vendored library carries the same bounds (PATCHES.md in
// third_party/ledongthuc-pdf) for what cannot be seen from here, such as
// dictionaries inside object streams.

// maxObjects mirrors the library's bound: no object, even compressed in an
// object stream, takes less than an eighth of a byte, and the table stays
// under 8M entries (256 MB).
func maxObjects(size int64) int64 { return min(8*size+1<<16, 1<<23) }

const (
	maxXrefSections     = 4096    // a /Prev chain: one per incremental update
	maxPredictorColumns = 1 << 20 // the library's row buffer is this long
	maxXrefTableBytes   = 256 << 20
)

var (
	startxrefRE = lazyregexp.MustCompile(`startxref\s+([+-]?\d+)`)
	objHeadRE   = lazyregexp.MustCompile(`^\s*\d+\s+\d+\s+obj\b`)
	subsecRE    = lazyregexp.MustCompile(`(?m)^[ \t]*([+-]?\d+)[ \t]+([+-]?\d+)[ \t]*\r?$`)
	intKeyRE    = func(key string) *lazyregexp.Regexp {
		return lazyregexp.MustCompile(`/` + key + `\s*([+-]?\d+(?:\.\d*)?)`)
	}
	sizeRE    = intKeyRE("Size")
	prevRE    = intKeyRE("Prev")
	lengthRE  = intKeyRE("Length")
	columnsRE = intKeyRE("Columns")
	indexRE   = lazyregexp.MustCompile(`/Index\s*\[([^\]]*)\]`)
	refTailRE = lazyregexp.MustCompile(`^\s+\d+\s+R\b`)
	wRE       = lazyregexp.MustCompile(`/W\s*\[([^\]]*)\]`)
)

// checkXref walks the cross-reference chain from the last startxref.
// Offsets it cannot follow are left to the library, which reports them as
// damage, or repairs nothing and fails: only impossible numbers are refused
// here.
func checkXref(r io.ReaderAt, size int64, tail []byte) error {
	m := startxrefRE.FindAllSubmatch(tail, -1)
	if m == nil {
		return damagedXref("no startxref")
	}
	off, err := strconv.ParseInt(string(m[len(m)-1][1]), 10, 64)
	if err != nil || off < 0 || off >= size {
		return damagedXref("startxref %s points outside the file of %d bytes", clip(m[len(m)-1][1]), size)
	}
	seen := map[int64]bool{}
	for {
		if seen[off] {
			return damagedXref("the /Prev chain of cross-reference sections loops back to offset %d", off)
		}
		if len(seen) >= maxXrefSections {
			return damagedXref("more than %d cross-reference sections", maxXrefSections)
		}
		seen[off] = true
		head := make([]byte, min(4096, size-off))
		n, _ := r.ReadAt(head, off)
		head = head[:n]
		var dict []byte
		switch {
		case bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n\f\x00"), []byte("xref")):
			d, err := checkXrefTable(r, size, off)
			if err != nil {
				return err
			}
			dict = d
		case objHeadRE.Match(head):
			dict = head
			if i := bytes.Index(dict, []byte("stream")); i >= 0 {
				dict = dict[:i]
			}
			if err := checkXrefStream(dict, size, off); err != nil {
				return err
			}
		default:
			return nil // not where it should be: the library says so
		}
		if err := checkSize(dict, size); err != nil {
			return err
		}
		pv := direct(prevRE, dict)
		if pv == nil {
			return nil
		}
		prev, err := strconv.ParseInt(string(pv), 10, 64)
		if err != nil || prev < 0 || prev >= size || pv[0] == '+' {
			return damagedXref("/Prev %s points outside the file of %d bytes", clip(pv), size)
		}
		off = prev
	}
}

// checkXrefTable reads a classic table's subsection headers and returns its
// trailer dictionary.
func checkXrefTable(r io.ReaderAt, size, off int64) ([]byte, error) {
	// The table runs to "trailer"; read it in pieces so a table of a
	// million entries costs one pass and no more than a piece of memory.
	const piece = 1 << 20
	var carry []byte
	limit := bound(size, off, maxXrefTableBytes)
	for pos := off; pos < limit; {
		buf := make([]byte, min(piece, limit-pos))
		n, _ := r.ReadAt(buf, pos)
		if n == 0 {
			break
		}
		pos += int64(n)
		text := append(carry, buf[:n]...)
		carry = nil
		t := bytes.Index(text, []byte("trailer"))
		body := text
		if t >= 0 {
			body = text[:t]
		} else if k := bytes.LastIndexByte(text, '\n'); k >= 0 {
			// A header cut in two is checked with the next piece.
			body, carry = text[:k+1], append([]byte(nil), text[k+1:]...)
		}
		for _, h := range subsecRE.FindAllSubmatch(body, -1) {
			start, err1 := strconv.ParseInt(string(h[1]), 10, 64)
			count, err2 := strconv.ParseInt(string(h[2]), 10, 64)
			if err1 != nil || err2 != nil || start < 0 || count < 0 || h[1][0] == '+' || h[2][0] == '+' || start+count > maxObjects(size) {
				return nil, damagedXref("subsection %s %s is impossible in a file of %d bytes", clip(h[1]), clip(h[2]), size)
			}
		}
		if t >= 0 {
			tr := text[t:]
			if e := bytes.Index(tr, []byte("startxref")); e >= 0 {
				tr = tr[:e]
			}
			return tr[:min(len(tr), 4096)], nil
		}
	}
	return nil, damagedXref("no trailer after the cross-reference table")
}

func bound(size, off, n int64) int64 { return min(size, off+n) }

// checkXrefStream checks a cross-reference stream's dictionary (dict runs
// from "N 0 obj" to "stream").
func checkXrefStream(dict []byte, size, off int64) error {
	if v := direct(lengthRE, dict); v != nil {
		if n, err := strconv.ParseInt(string(v), 10, 64); err == nil && (n < 0 || n > size-off) {
			return damagedXref("cross-reference stream /Length %d runs past the end of the file", n)
		}
	}
	if v := direct(columnsRE, dict); v != nil {
		if n, err := strconv.ParseInt(string(v), 10, 64); err != nil || n < 0 || n > maxPredictorColumns {
			return damagedXref("cross-reference stream predictor /Columns %s is impossible", clip(v))
		}
	}
	if m := wRE.FindSubmatch(dict); m != nil {
		f := strings.Fields(string(m[1]))
		if len(f) < 3 {
			return damagedXref("cross-reference stream /W [%s] has fewer than 3 fields", clip(m[1]))
		}
		for _, x := range f {
			if n, err := strconv.Atoi(x); err != nil || n < 0 || n > 8 {
				return damagedXref("cross-reference stream /W [%s] is impossible", clip(m[1]))
			}
		}
	}
	if m := indexRE.FindSubmatch(dict); m != nil {
		f := strings.Fields(string(m[1]))
		if len(f)%2 != 0 {
			return damagedXref("cross-reference stream /Index [%s] is not pairs", clip(m[1]))
		}
		for i := 0; i+1 < len(f); i += 2 {
			start, err1 := strconv.ParseInt(f[i], 10, 64)
			count, err2 := strconv.ParseInt(f[i+1], 10, 64)
			if err1 != nil || err2 != nil || start < 0 || count < 0 || start+count > maxObjects(size) {
				return damagedXref("cross-reference stream /Index [%s %s] is impossible in a file of %d bytes", clip([]byte(f[i])), clip([]byte(f[i+1])), size)
			}
		}
	}
	return nil
}

// checkSize refuses a signed or impossible /Size: PDF integers may carry a
// sign, and "+90000000000" is a valid number to the library.
func checkSize(dict []byte, size int64) error {
	v := direct(sizeRE, dict)
	if v == nil {
		return nil
	}
	if v[0] == '+' || v[0] == '-' {
		return damagedXref("/Size %s is signed", clip(v))
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil || n > maxObjects(size) {
		return damagedXref("/Size %s is impossible in a file of %d bytes", clip(v), size)
	}
	return nil
}

// direct finds key's number in dict, unless it is the object number of an
// indirect reference ("/Length 12 0 R"), which says nothing about the value.
func direct(re *lazyregexp.Regexp, dict []byte) []byte {
	loc := re.FindSubmatchIndex(dict)
	if loc == nil || refTailRE.Match(dict[loc[1]:]) {
		return nil
	}
	return dict[loc[2]:loc[3]]
}

// clip shortens a number taken from the file for a message.
func clip(b []byte) string {
	if len(b) > 24 {
		return string(b[:24]) + "..."
	}
	return string(b)
}

// maxMessage is how much of a detail taken from a file a message keeps.
const maxMessage = 200

// clean makes text that may come from a file fit to print next to its name
// on a terminal: the library quotes raw bytes of the file in its errors,
// and a crafted file sent terminal control codes through them. Only
// printable ASCII is kept (escape sequences, other bytes and their
// printable stand-ins such as U+FFFD are dropped), runs of space are
// folded, and the text is cut to maxMessage bytes.
func clean(s string) string {
	var b strings.Builder
	space := false
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		i += w
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			space = b.Len() > 0
			continue
		case r < 0x20 || r > 0x7e:
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if b.Len() >= maxMessage {
			b.WriteString("...")
			break
		}
		b.WriteRune(r)
	}
	out := b.String()
	// The library prefixes its own "malformed PDF: ", which our sentinel
	// already says.
	for strings.HasPrefix(out, "malformed PDF: ") {
		out = strings.TrimPrefix(out, "malformed PDF: ")
	}
	for strings.HasPrefix(out, "malformed PDF file: ") {
		out = strings.TrimPrefix(out, "malformed PDF file: ")
	}
	// What the library quoted may have been all control codes.
	return strings.TrimRight(out, " :")
}
