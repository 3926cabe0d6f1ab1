package evidence

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Span is a byte range of a passage that holds gold evidence.
type Span struct {
	Start, End int
	// Sentences lists the gold sentences (indexes into Gold.Sentences) whose
	// words this span carries.
	Sentences []int
}

// word is one comparison-form word and the byte range it came from.
type word struct {
	w          string
	start, end int
}

// textWords splits text the way Words does, but keeps each word's byte range
// in text so a match can be drawn on the original.
func textWords(text string) []word {
	var out []word
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		for _, w := range Words(text[start:end]) {
			out = append(out, word{w, start, end})
		}
		start = -1
	}
	for i, r := range text {
		inWord := unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) ||
			r == '-' || r == '\u00AD' || r == '\u2010' || r == '\u2011'
		if inWord {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(text))
	return out
}

// Spans finds the gold evidence in one passage: for every gold sentence the
// passage holds (the same n-gram coverage threshold Score uses), the runs of
// the passage's words that match it. The spans are sorted and do not overlap.
// Highlighting what actually matched, rather than the literal sentence, shows
// why a passage counted as evidence even when extraction changed its spacing.
func (g *Gold) Spans(text string) []Span {
	if g == nil || len(g.Sentences) == 0 || !utf8.ValidString(text) {
		return nil
	}
	n := g.opt.N
	tw := textWords(text)
	ws := make([]string, len(tw))
	for i, w := range tw {
		ws[i] = w.w
	}
	set := ngramSet(ws, n)
	owner := make([][]int, len(tw)) // gold sentences each passage word belongs to
	for si, s := range g.Sentences {
		mark := make([]bool, len(s.Words))
		covered(s.Words, n, mark, set)
		if share(mark) < g.opt.Threshold {
			continue
		}
		sent := ngramSet(s.Words, n)
		if len(tw) < n {
			continue
		}
		for i := 0; i+n <= len(tw); i++ {
			if _, ok := sent[strings.Join(ws[i:i+n], " ")]; !ok {
				continue
			}
			for j := i; j < i+n; j++ {
				if k := len(owner[j]); k == 0 || owner[j][k-1] != si {
					owner[j] = append(owner[j], si)
				}
			}
		}
	}
	// A span runs over consecutive words that share a gold sentence, so two
	// adjacent gold sentences stay two spans.
	var out []Span
	for i := 0; i < len(tw); i++ {
		if len(owner[i]) == 0 {
			continue
		}
		sp := Span{Start: tw[i].start, End: tw[i].end, Sentences: append([]int(nil), owner[i]...)}
		j := i + 1
		for ; j < len(tw) && shares(owner[j], owner[j-1]); j++ {
			sp.End = tw[j].end
			for _, s := range owner[j] {
				if !slices.Contains(sp.Sentences, s) {
					sp.Sentences = append(sp.Sentences, s)
				}
			}
		}
		// Two words from one raw token (NFKC can split one) share a range.
		if k := len(out); k > 0 && out[k-1].End > sp.Start {
			out[k-1].End = max(out[k-1].End, sp.End)
			out[k-1].Sentences = append(out[k-1].Sentences, sp.Sentences...)
		} else {
			out = append(out, sp)
		}
		i = j - 1
	}
	return out
}

// Merge joins the sentences of several golds into one, so a passage can be
// matched against them all at once; sentence i of the result is sentence
// i-offset of the gold it came from, in argument order. Nil golds count as
// empty.
func Merge(golds ...*Gold) *Gold {
	out := &Gold{}
	out.opt.defaults()
	first := true
	for _, g := range golds {
		if g == nil {
			continue
		}
		if first {
			out.opt, first = g.opt, false
		}
		out.Sentences = append(out.Sentences, g.Sentences...)
		out.words += g.words
	}
	return out
}

func shares(a, b []int) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}
