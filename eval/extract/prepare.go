package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// prepare drops reasoning blocks, keeps the windows of a long reply, and
// normalises the text.
func prepare(reply string, w windows) string {
	s := stripThink(reply)
	s = w.window(s)
	s = norm.NFKC.String(s)
	return quotes.Replace(s)
}

// ---------------------------------------------------------------- think tags

// stripThink removes reasoning in one pass over the reply, as the regular
// expressions
//
//	(?is)<(think|thinking)>.*?</(?:think|thinking)>   every closed block
//	(?is)^.*</(?:think|thinking)>                      then: up to the last orphan closing tag
//	(?is)<(?:think|thinking)>.*$                       then: from an unclosed opening tag on
//
// replaced by "" in turn would; prepare_test.go checks it against them.
// Those three passes were 60 % of the time on a long reply that had been
// windowed: the second runs the NFA over the whole text, whatever it holds.
func stripThink(s string) string {
	if strings.IndexByte(s, '<') < 0 {
		return s
	}
	// Closed blocks, leftmost first: from an opening tag to the first
	// closing tag after it. Once an opening tag has no closing tag after
	// it, no later one has either.
	var b strings.Builder
	pos := 0
	for {
		i, n := nextTag(s, pos, false)
		if i < 0 {
			break
		}
		j, m := nextTag(s, i+n, true)
		if j < 0 {
			break
		}
		if pos == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[pos:i])
		pos = j + m
	}
	if pos > 0 {
		b.WriteString(s[pos:])
		s = b.String()
	}
	// An orphan closing tag drops everything up to the last one.
	if j, m := lastTag(s, true); j >= 0 {
		s = s[j+m:]
	}
	// An opening tag left open drops everything from the first one.
	if i, _ := nextTag(s, 0, false); i >= 0 {
		s = s[:i]
	}
	return s
}

// nextTag finds the first "<think>" or "<thinking>" (closing: "</think>",
// "</thinking>") at or after from, in any case as (?i) matches it, and
// returns its offset and length, or -1.
func nextTag(s string, from int, closing bool) (int, int) {
	for from < len(s) {
		k := strings.IndexByte(s[from:], '<')
		if k < 0 {
			return -1, 0
		}
		i := from + k
		if n := tagAt(s, i, closing); n > 0 {
			return i, n
		}
		from = i + 1
	}
	return -1, 0
}

// lastTag is nextTag from the end.
func lastTag(s string, closing bool) (int, int) {
	end := len(s)
	for end > 0 {
		i := strings.LastIndexByte(s[:end], '<')
		if i < 0 {
			return -1, 0
		}
		if n := tagAt(s, i, closing); n > 0 {
			return i, n
		}
		end = i
	}
	return -1, 0
}

// tagAt returns the length of the tag at s[i] ('<'), or 0. "think" is
// tried before "thinking", as the alternation is; at most one can match.
func tagAt(s string, i int, closing bool) int {
	k := i + 1
	if closing {
		if k >= len(s) || s[k] != '/' {
			return 0
		}
		k++
	}
	for _, name := range []string{"think", "thinking"} {
		if n := foldPrefix(s[k:], name); n > 0 && k+n < len(s) && s[k+n] == '>' {
			return k + n + 1 - i
		}
	}
	return 0
}

// foldPrefix returns the length in s of a prefix equal to the ASCII word
// w under Go's case folding (which also takes the Kelvin sign K for k and
// the long s ſ for s), or 0.
func foldPrefix(s, w string) int {
	n := 0
	for j := 0; j < len(w); j++ {
		if n >= len(s) {
			return 0
		}
		c := s[n]
		if c < utf8.RuneSelf {
			if c|0x20 != w[j] {
				return 0
			}
			n++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[n:])
		if f, _ := foldRune(r); f != rune(w[j]-0x20) {
			return 0
		}
		n += size
	}
	return n
}

// ---------------------------------------------------------------- windows

// A reply longer than wholeLimit bytes (after its reasoning is dropped) is
// read in two windows: its first headWindow bytes and its last
// wholeLimit-headWindow bytes, as if the middle were not there. Read whole,
// the 4 MiB a reply may hold (--max-reply-bytes) took every rule over
// every byte: 4 s for a long chain of thought that never commits.
//
// Why 64 KiB is safe: the rules take the last match, so a reply's answer
// is in its tail unless the reply opens with it ("Answer: B" and then the
// explanation), which the head keeps. A reply to a multiple-choice question
// runs to a few KiB; a reasoning model's thoughts, the long part, come in
// the reasoning field or in <think> tags, dropped before the length is
// taken, and when --extract-from-reasoning reads them instead their
// conclusion is at their end. Every reply up to 64 KiB, which covers all the
// extractor's tests and the generated golden replies (up to 60 KiB), is read
// whole, with the answers it had before the windows (golden_test.go).
const (
	wholeLimit = 64 << 10
	headWindow = 16 << 10
)

// windows are the sizes window uses; the fuzz target shrinks them to reach
// the windowed path with small inputs.
type windows struct {
	whole, head int // the tail is whole-head
	slack       int // how far back from a window's edge a space is looked for when no line ends nearby
}

var replyWindows = windows{whole: wholeLimit, head: headWindow, slack: 4 << 10}

// windowSep joins the windows: a line of its own that no rule reads (NUL
// is no letter, space or mark), so that no cue and no list of letter
// lines runs from one window into the other.
const windowSep = "\n\x00\n"

// window returns s, or its head and tail windows joined by windowSep. The
// windows are taken after blank space at either end is dropped, and cut at
// a line end when one is in the window's far half, else at a space or a
// Chinese clause mark in its last slack bytes, else between two characters
// (a cue cut in two there is lost, or read in part).
func (w windows) window(s string) string {
	if len(s) <= w.whole {
		return s
	}
	t := strings.TrimFunc(s, isBlank)
	if len(t) <= w.whole {
		return t
	}
	head := t[:w.cutHead(t, w.head)]
	tail := t[w.cutTail(t, len(t)-(w.whole-w.head)):]
	return head + windowSep + tail
}

// isBlank is what prepare leaves as nothing or space: white space and the
// zero-width characters it drops.
func isBlank(r rune) bool {
	return unicode.IsSpace(r) || r == '\u200b' || r == '\u2060' || r == '\ufeff'
}

// cutMarks end a clause in text without spaces.
const cutMarks = "。！？；，、"

// cutHead returns where the head window of t, at most n bytes, ends.
func (w windows) cutHead(t string, n int) int {
	if i := strings.LastIndexByte(t[n/2:n], '\n'); i >= 0 {
		return n/2 + i + 1
	}
	lo := max(0, n-w.slack)
	if i := strings.LastIndexAny(t[lo:n], " \t"); i >= 0 {
		return lo + i + 1
	}
	if i := strings.LastIndexAny(t[lo:n], cutMarks); i >= 0 {
		_, size := utf8.DecodeRuneInString(t[lo+i:])
		return lo + i + size
	}
	for n > 0 && !utf8.RuneStart(t[n]) {
		n--
	}
	return n
}

// cutTail returns where the tail window of t, starting at p or after it,
// begins.
func (w windows) cutTail(t string, p int) int {
	half := p + (len(t)-p)/2
	if i := strings.IndexByte(t[p:half], '\n'); i >= 0 {
		return p + i + 1
	}
	hi := min(len(t), p+w.slack)
	if i := strings.IndexAny(t[p:hi], " \t"); i >= 0 {
		return p + i + 1
	}
	if i := strings.IndexAny(t[p:hi], cutMarks); i >= 0 {
		_, size := utf8.DecodeRuneInString(t[p+i:])
		return p + i + size
	}
	for p < len(t) && !utf8.RuneStart(t[p]) {
		p++
	}
	return p
}
