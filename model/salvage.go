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
	const (
		wantValue = iota // at the start, after ':', after '[' or ',' in an array
		wantKey          // after '{' or ',' in an object
		wantColon        // after a key
		wantNext         // after a value: ',' or a closer
	)
	var (
		stack []byte // the open '{' and '['
		state = wantValue
		tok   = -1 // start of the number or literal being read; -1 when none
	)
	for i := 0; i < len(b); {
		c := b[i]
		if tok >= 0 {
			if isTokenByte(c) {
				i++
				continue
			}
			if !json.Valid(b[tok:i]) {
				return nil
			}
			tok, state = -1, wantNext
		}
		if len(stack) == 0 && state == wantNext {
			// A complete top-level value with more than spaces after it
			// (else b would be valid): not JSON.
			return nil
		}
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '"':
			if state != wantValue && state != wantKey {
				return nil
			}
			end, cut, ok := scanString(b, i)
			if !ok {
				return nil
			}
			if end < 0 { // the cut is inside this string
				out := append(append([]byte(nil), b[:cut]...), '"')
				if state == wantKey {
					out = append(out, ":null"...)
				}
				return closeAll(out, stack)
			}
			i = end
			if state == wantKey {
				state = wantColon
			} else {
				state = wantNext
			}
		case c == ':':
			if state != wantColon {
				return nil
			}
			state = wantValue
			i++
		case c == ',':
			if state != wantNext {
				return nil
			}
			state = wantValue
			if stack[len(stack)-1] == '{' {
				state = wantKey
			}
			i++
		case c == '{' || c == '[':
			if state != wantValue {
				return nil
			}
			stack = append(stack, c)
			state = wantValue
			if c == '{' {
				state = wantKey
			}
			i++
		case c == '}' || c == ']':
			// '{'+2 is '}' and '['+2 is ']'. A closer comes after a value
			// or right after its opener, never after ',' or ':'.
			if len(stack) == 0 || stack[len(stack)-1]+2 != c {
				return nil
			}
			if state != wantNext && lastNonSpace(b[:i]) != stack[len(stack)-1] {
				return nil
			}
			stack = stack[:len(stack)-1]
			state = wantNext
			i++
		case isTokenByte(c):
			if state != wantValue {
				return nil
			}
			tok = i
			i++
		default:
			return nil
		}
	}
	// b ends inside a container (a complete text would have been valid).
	if len(stack) == 0 {
		return nil // nothing, or a top-level number or literal cut off
	}
	end := len(b)
	if tok >= 0 {
		end = tok // the number or literal may have gone on: drop it
	}
	out := append([]byte(nil), trimSpace(b[:end])...)
	switch state {
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
	return closeAll(out, stack)
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
