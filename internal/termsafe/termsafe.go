// Package termsafe makes untrusted text safe to print on a terminal.
//
// A model's reply, a dataset's paper id or a file's name can hold bytes a
// terminal obeys rather than shows: ESC sequences that clear the screen,
// set the window title or rewrite what was printed before; a carriage
// return that overwrites the line; bidi overrides (U+202E) that make text
// read differently from what it is. Escape turns each such character into
// a visible escape (\x1b, \r, \u202e), so that the reader sees what was
// sent. It imports nothing of paperlens, and --json output never goes
// through it: JSON stays exact.
package termsafe

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Escape returns s with every terminal control, bidi control and invalid
// UTF-8 byte escaped. Newlines and tabs are kept, so that multi-line text
// (a model's answer) still reads as lines. s is returned as is when it
// needs nothing, which is the common case.
func Escape(s string) string { return escape(s, false) }

// Line is Escape that also escapes newlines and tabs: for a value that
// must stay on one line, such as a file name or an id in a table.
func Line(s string) string { return escape(s, true) }

func escape(s string, oneLine bool) string {
	if clean(s, oneLine) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case (r == '\n' || r == '\t') && !oneLine:
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// clean reports whether s needs no escape, without allocating.
func clean(s string, oneLine bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				if oneLine || (c != '\n' && c != '\t') {
					return false
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || unsafeRune(r) {
			return false
		}
		i += size
	}
	return true
}

// unsafeRune reports the non-ASCII characters a terminal acts on: the C1
// controls (U+0080–U+009F, which some terminals read as ESC sequences)
// and the bidi controls that reorder what is shown.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e:
		return true
	case r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// Writer escapes everything written through it (as Escape does): for a
// log stream that quotes untrusted text. A character split across two
// writes is escaped as invalid bytes, which line-at-a-time logs never do.
type Writer struct{ w io.Writer }

// NewWriter returns a Writer printing to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes p escaped and reports len(p) on success.
func (w *Writer) Write(p []byte) (int, error) {
	s := string(p)
	if e := Escape(s); e != s {
		if _, err := io.WriteString(w.w, e); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return w.w.Write(p)
}
