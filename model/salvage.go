package model

import (
	"encoding/json"
	"unicode/utf8"
)

// salvageJSON turns b, a JSON text cut off at an arbitrary byte (a reply
// over MaxReplyBytes), into a valid JSON text holding everything b held up
// to the cut, so that the message content can be decoded from it:
//
//   - a string open at the cut is closed, after dropping what cannot be
//     decoded: a partial escape (`\`, `\u00`), a high surrogate whose low
//     half was cut off, a partial UTF-8 sequence; an object key cut off
//     gets the value null;
//   - a number or literal open at the cut is dropped (123 may have been
//     12345, tru cannot be read), and so is a dangling comma; a key waiting
//     for its value gets null;
//   - open arrays and objects are closed.
//
// A valid text is returned as it is. The result is nil when b is not the
// start of a JSON text (it holds a byte no JSON text has there) or holds
// nothing that survives the cut (an empty text, a top-level number). It
// reads b once and builds no values.
//
// It is written here because no JSON-repair module fits: the module list
// this project checked has none, and general "repair" libraries guess at
// broken text (unquoted keys, single quotes) where this needs one exact
// rule for one kind of damage, a cut.
func salvageJSON(b []byte) []byte {
	if json.Valid(b) {
		return b
	}
	s := salvager{b: b, state: wantValue, tok: -1}
	for i := 0; i < len(b); {
		inToken, ok := s.endToken(i)
		if !ok {
			return nil
		}
		if inToken {
			i++
			continue
		}
		next, out, done := s.step(i)
		if done {
			return out
		}
		i = next
	}
	return s.finish()
}

// The salvager's states: what the grammar accepts next.
const (
	wantValue = iota // at the start, after ':', after '[' or ',' in an array
	wantKey          // after '{' or ',' in an object
	wantColon        // after a key
	wantNext         // after a value: ',' or a closer
)

// salvager reads a cut JSON text once, keeping only what the grammar
// needs to close it: the open containers and what comes next.
type salvager struct {
	b     []byte
	stack []byte // the open '{' and '['
	state int
	tok   int // start of the number or literal being read; -1 when none
}

// endToken goes on with a number or literal open before b[i]: inToken
// while b[i] may be part of it; when it ends it must be valid JSON (ok).
// A complete top-level value with more than spaces after it (else b would
// be valid) is not JSON either.
func (s *salvager) endToken(i int) (inToken, ok bool) {
	if s.tok >= 0 {
		if isTokenByte(s.b[i]) {
			return true, true
		}
		if !json.Valid(s.b[s.tok:i]) {
			return false, false
		}
		s.tok, s.state = -1, wantNext
	}
	return false, len(s.stack) > 0 || s.state != wantNext
}

// step reads the token at b[i] and returns where the next one starts. It
// is done, with the salvaged text or nil, when b is not JSON or ends
// inside the string starting at i.
func (s *salvager) step(i int) (next int, out []byte, done bool) {
	c := s.b[i]
	ok := true
	switch {
	case c == ' ' || c == '\t' || c == '\n' || c == '\r':
	case c == '"':
		return s.str(i)
	case c == ':' || c == ',':
		ok = s.separator(c)
	case c == '{' || c == '[':
		ok = s.open(c)
	case c == '}' || c == ']':
		ok = s.close(i, c)
	case isTokenByte(c):
		ok = s.state == wantValue
		s.tok = i
	default:
		ok = false
	}
	if !ok {
		return 0, nil, true
	}
	return i + 1, nil, false
}

// str reads the string (a key or a value) whose quote is at b[i]. When b
// ends inside it, the text is closed after what can be decoded, a key
// getting the value null.
func (s *salvager) str(i int) (next int, out []byte, done bool) {
	if s.state != wantValue && s.state != wantKey {
		return 0, nil, true
	}
	end, cut, ok := scanString(s.b, i)
	if !ok {
		return 0, nil, true
	}
	if end < 0 { // the cut is inside this string
		out := append(append([]byte(nil), s.b[:cut]...), '"')
		if s.state == wantKey {
			out = append(out, ":null"...)
		}
		return 0, closeAll(out, s.stack), true
	}
	if s.state == wantKey {
		s.state = wantColon
	} else {
		s.state = wantNext
	}
	return end, nil, false
}

// separator takes ':' after a key, or ',' after a value; a comma in an
// object wants a key next.
func (s *salvager) separator(c byte) bool {
	if c == ':' {
		if s.state != wantColon {
			return false
		}
		s.state = wantValue
		return true
	}
	if s.state != wantNext {
		return false
	}
	s.state = wantValue
	if s.stack[len(s.stack)-1] == '{' {
		s.state = wantKey
	}
	return true
}

// open takes '{' or '[' where a value may stand.
func (s *salvager) open(c byte) bool {
	if s.state != wantValue {
		return false
	}
	s.stack = append(s.stack, c)
	s.state = wantValue
	if c == '{' {
		s.state = wantKey
	}
	return true
}

// close takes the closer c at b[i] of the innermost open container.
// '{'+2 is '}' and '['+2 is ']'. A closer comes after a value or right
// after its opener, never after ',' or ':'.
func (s *salvager) close(i int, c byte) bool {
	if len(s.stack) == 0 || s.stack[len(s.stack)-1]+2 != c {
		return false
	}
	if s.state != wantNext && lastNonSpace(s.b[:i]) != s.stack[len(s.stack)-1] {
		return false
	}
	s.stack = s.stack[:len(s.stack)-1]
	s.state = wantNext
	return true
}

// finish closes a text that ends inside a container (a complete text
// would have been valid): a number or literal open at the cut is dropped
// (it may have gone on), and so is a dangling comma; a key or colon
// waiting for its value gets null; the open containers are closed.
func (s *salvager) finish() []byte {
	if len(s.stack) == 0 {
		return nil // nothing, or a top-level number or literal cut off
	}
	end := len(s.b)
	if s.tok >= 0 {
		end = s.tok
	}
	out := append([]byte(nil), trimSpace(s.b[:end])...)
	switch s.state {
	case wantValue, wantKey:
		switch out[len(out)-1] {
		case ',':
			out = out[:len(out)-1]
		case ':':
			out = append(out, "null"...)
		}
	case wantColon:
		out = append(out, ":null"...)
	}
	return closeAll(out, s.stack)
}

// isTokenByte reports whether c may be part of a number or a literal.
func isTokenByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'E' || c >= 'a' && c <= 'z'
}

// scanString reads the string whose opening quote is at b[i]. It returns
// the index after its closing quote, or -1 when b ends inside it; cut is
// then where what can be decoded ends: before a partial escape (`\`,
// `\u00`), before a high surrogate escape whose low half is missing, and
// before a multi-byte character cut in the middle. ok is false for a byte
// no JSON string holds (a control character, a bad escape).
func scanString(b []byte, i int) (end, cut int, ok bool) {
	lastU := -1 // where the last complete \uXXXX escape starts
	// decodable is where the text up to the cut at c can be decoded to.
	decodable := func(c int) int {
		if lastU >= 0 && lastU == c-6 && isHighSurrogate(b[lastU+2:c]) {
			return lastU
		}
		if k := lastRuneStart(b[i+1 : c]); k >= 0 && !utf8.FullRune(b[i+1+k:c]) {
			return i + 1 + k
		}
		return c
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return j + 1, 0, true
		case c < 0x20:
			return 0, 0, false
		case c == '\\':
			if j+1 >= len(b) {
				return -1, decodable(j), true
			}
			switch b[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j++
			case 'u':
				for k := j + 2; k < j+6; k++ {
					if k >= len(b) {
						return -1, decodable(j), true
					}
					if !isHex(b[k]) {
						return 0, 0, false
					}
				}
				lastU = j
				j += 5
			default:
				return 0, 0, false
			}
		}
	}
	return -1, decodable(len(b)), true
}

// isHighSurrogate reports whether the four hex digits h are in D800-DBFF,
// the first half of a surrogate pair.
func isHighSurrogate(h []byte) bool {
	return (h[0] == 'd' || h[0] == 'D') &&
		(h[1] >= '8' && h[1] <= '9' || h[1] >= 'a' && h[1] <= 'b' || h[1] >= 'A' && h[1] <= 'B')
}

// lastRuneStart is the index of the first byte of the last character of
// s when that is not ASCII, looking back at most utf8.UTFMax bytes; -1
// otherwise.
func lastRuneStart(s []byte) int {
	for k := len(s) - 1; k >= 0 && k >= len(s)-utf8.UTFMax; k-- {
		if s[k] < utf8.RuneSelf {
			return -1
		}
		if utf8.RuneStart(s[k]) {
			return k
		}
	}
	return -1
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func lastNonSpace(b []byte) byte {
	if b = trimSpace(b); len(b) > 0 {
		return b[len(b)-1]
	}
	return 0
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 {
		switch b[len(b)-1] {
		case ' ', '\t', '\n', '\r':
			b = b[:len(b)-1]
		default:
			return b
		}
	}
	return b
}

// closeAll appends the closers of the open containers, innermost first.
func closeAll(out, stack []byte) []byte {
	for k := len(stack) - 1; k >= 0; k-- {
		out = append(out, stack[k]+2)
	}
	return out
}
