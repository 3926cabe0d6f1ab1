package extract

import (
	"regexp/syntax"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Go's regexp runs a pattern that does not start with a case-sensitive
// literal through its NFA at every byte, 15–70 ns a byte for these
// patterns; with ~45 of them over the whole reply that was a microsecond
// a byte, 4 s for a 4 MiB reply that never commits to an answer. Most
// patterns need a word ("answer", "答案", "réponse") that a given stretch of
// text does not contain, and none can match across characters outside its
// alphabet ("answer is" cannot span a "." or a digit). So each pattern is
// run only on the pieces of text between two such characters that contain
// one of its words, which gives exactly the matches FindAllStringIndex
// gives on the whole text (prefilter_test.go checks this on every pattern).
//
// The proof, for a pattern whose every match contains one of the words
// (so no match is empty): cut the text before each character outside the
// pattern's inner alphabet. No match contains a cut character, except as
// its first character when the pattern opens with a one-character lead
// such as (?:^|[^A-Za-z0-9]); so every match lies within one piece,
// [cut, next cut). The leftmost-first search therefore finds the same
// matches piece by piece. Running the pattern on the piece with one rune of
// context on each side makes \b, ^ and $ see what they see in the whole
// text; a match found starting on the left context rune ends at the cut at
// the latest and is dropped, and none can reach the right context rune.

// prefilter is what a pattern needs to be run piecewise.
type prefilter struct {
	words []string  // folded (foldString); every match contains one of them
	inner []rune    // sorted ranges [lo, hi] of the runes a match may hold after its lead
	ascii [128]bool // inner, for ASCII
	lead  bool      // the pattern opens with a one-character lead, which may lie outside inner
	ok    bool      // false: run the pattern on the whole text
	note  string    // why ok is false, for tests
}

// newPrefilter analyses a pattern. Patterns it cannot reason about (no
// required word, "." or \C) get ok = false and run on the whole text.
func newPrefilter(expr string) prefilter {
	var p prefilter
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		p.note = err.Error()
		return p
	}
	re = re.Simplify()
	body := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat && len(re.Sub) > 1 && isLead(re.Sub[0]) {
		body, p.lead = re.Sub[1:], true
	}
	var rs []rune
	for _, sub := range body {
		var ok bool
		if rs, ok = alphabet(sub, rs); !ok {
			p.note = "matches any character"
			return p
		}
	}
	p.inner = normRanges(rs)
	for c := rune(0); c < 128; c++ {
		p.ascii[c] = inRanges(p.inner, c)
	}
	var words []string
	if len(body) == 1 {
		words = required(body[0])
	} else {
		words = required(&syntax.Regexp{Op: syntax.OpConcat, Sub: body})
	}
	if len(words) == 0 {
		p.note = "no word every match contains"
		return p
	}
	p.words, p.ok = words, true
	return p
}

// isLead reports whether re matches at most one character and may match
// one: a character class such as [^\pL\pN], or an alternation of one with
// ^ such as (?:^|[^A-Za-z0-9]). A single literal is left in the body, where
// it can be a word to look for.
func isLead(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpCharClass:
		return true
	case syntax.OpAlternate:
		chars := false
		for _, s := range re.Sub {
			switch s.Op {
			case syntax.OpBeginText, syntax.OpBeginLine, syntax.OpEmptyMatch:
			case syntax.OpCharClass:
				chars = true
			default:
				return false
			}
		}
		return chars
	}
	return false
}

// alphabet adds the runes re can match to rs, as [lo, hi] pairs; false
// when re matches any character.
func alphabet(re *syntax.Regexp, rs []rune) ([]rune, bool) {
	switch re.Op {
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return rs, false
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			rs = append(rs, r, r)
			if re.Flags&syntax.FoldCase != 0 {
				for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
					rs = append(rs, f, f)
				}
			}
		}
		return rs, true
	case syntax.OpCharClass:
		return append(rs, re.Rune...), true
	}
	for _, s := range re.Sub {
		var ok bool
		if rs, ok = alphabet(s, rs); !ok {
			return rs, false
		}
	}
	return rs, true
}

// normRanges sorts and merges [lo, hi] pairs.
func normRanges(rs []rune) []rune {
	type rg struct{ lo, hi rune }
	var v []rg
	for i := 0; i+1 < len(rs); i += 2 {
		v = append(v, rg{rs[i], rs[i+1]})
	}
	sort.Slice(v, func(i, j int) bool { return v[i].lo < v[j].lo })
	var out []rune
	for _, r := range v {
		if n := len(out); n > 0 && r.lo <= out[n-1]+1 {
			out[n-1] = max(out[n-1], r.hi)
			continue
		}
		out = append(out, r.lo, r.hi)
	}
	return out
}

func inRanges(rs []rune, c rune) bool {
	i := sort.Search(len(rs)/2, func(i int) bool { return rs[2*i+1] >= c })
	return i < len(rs)/2 && rs[2*i] <= c
}

func (p *prefilter) inInner(r rune) bool {
	if r < 128 {
		return p.ascii[r]
	}
	return inRanges(p.inner, r)
}

// required returns words of which every match of re contains one, folded
// (foldString), or nil when it finds none. One-byte words are
// not worth looking for and count as none.
func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		if w := foldString(string(re.Rune)); len(w) >= 2 {
			return []string{w}
		}
		return nil
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
		return nil
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			w := required(s)
			if w == nil {
				return nil
			}
			out = append(out, w...)
		}
		return out
	case syntax.OpConcat:
		// Adjacent literals and small classes join into longer words:
		// "ans" "wer", or [iì] "d" [aá] "h" [uù] "n" as the folded words
		// "IDAHUN", "ÌDAHUN", … The words are only ever looked for folded,
		// so they are folded here, which also merges a class's cases.
		var best []string
		run := []string{""}
		consider := func(w []string) {
			if w != nil && (best == nil || score(w) > score(best)) {
				best = w
			}
		}
		flush := func() {
			if score(run) >= 2*64-maxWords {
				consider(run)
			}
			run = []string{""}
		}
		for _, s := range re.Sub {
			if next, ok := extend(run, s); ok {
				run = next
				continue
			}
			flush()
			consider(required(s))
		}
		flush()
		return best
	}
	return nil
}

// maxWords bounds how many words a run of small classes may expand to.
const maxWords = 16

// extend appends a literal or a small class to every word of run; false
// when s is neither or the words would be too many.
func extend(run []string, s *syntax.Regexp) ([]string, bool) {
	var alts []string
	switch s.Op {
	case syntax.OpLiteral:
		alts = []string{foldString(string(s.Rune))}
	case syntax.OpCharClass:
		seen := map[rune]bool{}
		for i := 0; i+1 < len(s.Rune); i += 2 {
			if s.Rune[i+1]-s.Rune[i] > maxWords {
				return nil, false
			}
			for r := s.Rune[i]; r <= s.Rune[i+1]; r++ {
				f, _ := foldRune(r)
				if !seen[f] {
					seen[f] = true
					alts = append(alts, string(f))
				}
			}
		}
	default:
		return nil, false
	}
	if len(alts) == 0 || len(run)*len(alts) > maxWords {
		return nil, false
	}
	var out []string
	for _, w := range run {
		for _, a := range alts {
			out = append(out, w+a)
		}
	}
	return out, true
}

// score ranks word sets: the shortest word counts most (a short word
// matches often), then fewer words.
func score(ws []string) int {
	short := 1 << 30
	for _, w := range ws {
		short = min(short, len(w))
	}
	return short*64 - len(ws)
}

// foldRune maps r to the smallest of the shortest runes its case folds to
// (Go's (?i) orbit), so "k", "K" and the Kelvin sign all become "K". odd
// reports that r is longer in UTF-8 than that rune: a text holding such a
// rune cannot be folded in place.
func foldRune(r rune) (f rune, odd bool) {
	if r < 128 {
		if 'a' <= r && r <= 'z' {
			r -= 'a' - 'A'
		}
		return r, false
	}
	best := r
	for g := unicode.SimpleFold(r); g != r; g = unicode.SimpleFold(g) {
		if lg, lb := utf8.RuneLen(g), utf8.RuneLen(best); lg < lb || (lg == lb && g < best) {
			best = g
		}
	}
	return best, utf8.RuneLen(best) < utf8.RuneLen(r)
}

// foldString folds a word for searching a folded text.
func foldString(s string) string {
	var b strings.Builder
	for _, r := range s {
		f, _ := foldRune(r)
		b.WriteRune(f)
	}
	return b.String()
}

// view is a text with its case-folded copy, byte for byte the same length,
// so that a word found in fold is at the same offset in s.
type view struct {
	s, fold string
	odd     bool // some rune could not be folded in place: prefilters are off
}

func newView(s string) view {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			b.WriteByte(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		f, odd := foldRune(r)
		if odd || r == utf8.RuneError {
			// An invalid byte decodes as U+FFFD: keep the bytes as they
			// are, which keeps the offsets.
			if odd {
				return view{s: s, odd: true}
			}
			b.WriteString(s[i : i+n])
		} else {
			b.WriteRune(f)
		}
		i += n
	}
	return view{s: s, fold: b.String()}
}

// sub is the view of s[lo:hi].
func (v view) sub(lo, hi int) view {
	if v.odd {
		return view{s: v.s[lo:hi], odd: true}
	}
	return view{s: v.s[lo:hi], fold: v.fold[lo:hi]}
}

// findAll is FindAllStringIndex(v.s, -1), run only on the pieces of text
// that hold one of the pattern's words.
func (l *lazyRegexp) findAll(v view) [][]int { return l.find(v, false) }

// findAllSubmatch is FindAllStringSubmatchIndex(v.s, -1), likewise.
func (l *lazyRegexp) findAllSubmatch(v view) [][]int { return l.find(v, true) }

func (l *lazyRegexp) find(v view, groups bool) [][]int {
	re := l.get()
	all := re.FindAllStringIndex
	if groups {
		all = re.FindAllStringSubmatchIndex
	}
	p := &l.pre
	if !p.ok || v.odd {
		return all(v.s, -1)
	}
	s := v.s
	var out [][]int
	// next[k] is where word k next occurs at or after pos (-1: nowhere).
	next := make([]int, len(p.words))
	pos := 0
	for k, w := range p.words {
		next[k] = indexFrom(v.fold, w, 0)
	}
	for {
		o := -1
		for k, w := range p.words {
			if next[k] >= 0 && next[k] < pos {
				next[k] = indexFrom(v.fold, w, pos)
			}
			if next[k] >= 0 && (o < 0 || next[k] < o) {
				o = next[k]
			}
		}
		if o < 0 {
			return out
		}
		// The piece around o: back to the cut at or before o, on to the
		// next cut after it.
		start := o
		for start > pos {
			r, n := utf8.DecodeLastRuneInString(s[:start])
			if !p.inInner(r) {
				if p.lead {
					start -= n // the cut character may be a match's lead
				}
				break
			}
			start -= n
		}
		end := o
		for end < len(s) {
			r, n := utf8.DecodeRuneInString(s[end:])
			if !p.inInner(r) && end > o {
				break
			}
			end += n
		}
		// One rune of context each side for \b, ^ and $.
		lo, hi := start, end
		if lo > 0 {
			_, n := utf8.DecodeLastRuneInString(s[:lo])
			lo -= n
		}
		if hi < len(s) {
			_, n := utf8.DecodeRuneInString(s[hi:])
			hi += n
		}
		for _, m := range all(s[lo:hi], -1) {
			if a := m[0] + lo; a < start || a >= end {
				continue
			}
			for k := range m {
				if m[k] >= 0 { // -1: a group that did not take part
					m[k] += lo
				}
			}
			out = append(out, m)
		}
		pos = end
	}
}

func indexFrom(s, w string, from int) int {
	if i := strings.Index(s[from:], w); i >= 0 {
		return from + i
	}
	return -1
}
