package chunk

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/neurosnap/sentences"
	"github.com/neurosnap/sentences/english"

	"github.com/paperlens/paperlens/chunk/tokens"
)

// Span is a half-open byte range [Start, End) of a text.
type Span struct{ Start, End int }

// alwaysJoin are abbreviations (lower case, final period removed) that
// scientific prose uses only in mid-sentence: a period after them never ends
// the sentence, whatever follows ("cf. Smith", "Fig. 3", "i.e. The model").
var alwaysJoin = setOf(
	"fig", "figs", "sec", "secs", "sect", "eq", "eqs", "eqn", "eqns",
	"cf", "e.g", "i.e", "vs", "viz", "w.r.t", "tab", "tbl", "ref", "refs",
	"appx", "approx", "no", "nos", "vol", "pp", "ch", "thm", "lem", "def",
	"prop", "cor", "alg", "dr", "prof", "mr", "mrs", "ms",
)

// softJoin are abbreviations that also end sentences ("... by Smith et al.
// They ..."): the period is kept inside the sentence unless the next word
// starts with a capital letter, in which case the punkt model decides.
var softJoin = setOf("al", "etc", "resp")

// inlineLabel are words after which a lone capital letter and a period is a
// label ("Appendix A. We ...") rather than a name initial ("J. Smith").
var inlineLabel = setOf(
	"appendix", "section", "table", "figure", "part", "type", "class",
	"group", "option", "case", "step", "setting", "model",
)

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

var (
	punktOnce sync.Once
	punkt     *sentences.DefaultSentenceTokenizer
	punktErr  error
)

// Load builds the sentence model (about 25 ms) and the tokenizer's tables
// (about 20 ms) if that has not happened yet, so that a program can pay for
// them at a time of its choosing: an extraction worker does it while its
// first document is being parsed. Calling it is optional.
func Load() error {
	sentenceTokenizer()
	if punktErr != nil {
		return punktErr
	}
	return tokens.Load()
}

// sentenceTokenizer returns the shared punkt model. The tokenizer only reads
// its tables after construction, so one instance serves concurrent callers.
func sentenceTokenizer() *sentences.DefaultSentenceTokenizer {
	punktOnce.Do(func() {
		t, err := english.NewSentenceTokenizer(nil)
		if err != nil {
			punktErr = fmt.Errorf("chunk: load punkt english model: %w", err)
			return
		}
		for w := range alwaysJoin {
			t.AbbrevTypes.Add(w)
		}
		for w := range softJoin {
			t.AbbrevTypes.Add(w)
		}
		punkt = t
	})
	if punktErr != nil {
		// The model is compiled into the binary; failing to decode it is a
		// build defect, not something a caller could recover from.
		panic(punktErr)
	}
	return punkt
}

// Sentences splits text into sentence spans that tile it: the first starts at
// 0, each starts where the previous ends, the last ends at len(text).
// Whitespace between two sentences belongs to the first one, and leading
// whitespace to the first sentence.
//
// Boundaries come from three sources:
//   - line structure: cleaned paper text puts headings, list items and table
//     rows on lines of their own, so a line break ends a sentence unless the
//     next line starts in lower case after a line ending in a letter, digit,
//     comma, dash or parenthesis (a wrapped line, or a paragraph cut by a
//     page break). Heading lines (see [Headings]) and table rows (starting
//     with '|' or holding tabs) are never split further;
//   - the punkt model of github.com/neurosnap/sentences (English), run on
//     each line, with the abbreviations of scientific writing added;
//   - corrections of punkt for such text: break only after sentence
//     punctuation (., ?, !, …, CJK full stops, possibly followed by closing
//     quotes or brackets); never after an always-mid-sentence abbreviation
//     (Fig., Figs., Sec., Eq., Eqs., Eqn., cf., e.g., i.e., vs.,
//     viz., w.r.t., Tab., Tbl., Ref., Refs., Appx., approx., No., Vol., pp.,
//     Ch., Thm., Lem., Def., Prop., Cor., Alg., Dr., Prof., Mr., Mrs., Ms.);
//     keep "et al.", "etc." and "resp." inside the sentence unless a
//     capitalised word follows; never after a list enumerator ("2." or "IV."
//     opening a line or following a colon or sentence end) or an inline
//     answer option ("A. OPT-1.3B B. OPT-2.7B"); and break after a number
//     ("in 2021. As") or a label letter ("Appendix A. We") followed by a
//     capitalised word, which punkt takes for an ordinal or an initial.
func Sentences(text string) []Span {
	return sentenceSpans(text, Headings(text))
}

func sentenceSpans(text string, heads []Heading) []Span {
	if text == "" {
		return nil
	}
	var cuts []int // sentence starts after 0, increasing
	// Leading whitespace has no sentence before it and joins the first.
	first := skipSpace(text, 0)
	addCut := func(p int) {
		p = skipSpace(text, p)
		if p > first && p < len(text) && (len(cuts) == 0 || p > cuts[len(cuts)-1]) {
			cuts = append(cuts, p)
		}
	}
	forced := make(map[int]bool, 2*len(heads))
	headAt := make(map[int]bool, len(heads))
	for _, h := range heads {
		forced[h.Start] = true
		forced[skipSpace(text, h.End)] = true
		headAt[h.Start] = true
	}
	tok := sentenceTokenizer()
	for segStart := first; segStart < len(text); {
		segEnd := nextHardBreak(text, segStart, forced)
		// Heading lines and table rows ("| a | b |", tab-separated cells)
		// are kept whole: their periods end abbreviations, not sentences.
		if seg := text[segStart:segEnd]; !headAt[segStart] && seg[0] != '|' && !strings.Contains(seg, "\t") {
			for _, b := range lineBreaks(tok, seg) {
				addCut(segStart + b)
			}
		}
		addCut(segEnd)
		segStart = skipSpace(text, segEnd)
	}
	spans := make([]Span, 0, len(cuts)+1)
	prev := 0
	for _, c := range cuts {
		spans = append(spans, Span{prev, c})
		prev = c
	}
	return append(spans, Span{prev, len(text)})
}

// nextHardBreak returns the end of the line run starting at from: the
// position after the first line break that ends a sentence.
func nextHardBreak(text string, from int, forced map[int]bool) int {
	for i := from; i < len(text); {
		nl := strings.IndexByte(text[i:], '\n')
		if nl < 0 {
			return len(text)
		}
		i += nl + 1
		next := skipSpace(text, i)
		if next >= len(text) || forced[next] || forced[from] {
			return i
		}
		// A blank line is a paragraph break; a line that starts in lower
		// case continues the sentence of the line before (soft wrap).
		if !continues(text[from:i], text[next:]) {
			return i
		}
		// Every further line break before next sees the same text before
		// it (up to trailing blanks) and the same next line, so it would
		// continue too. Stepping through them one by one rescanned the
		// blanks each time, quadratic in a run of blank lines.
		i = next
	}
	return len(text)
}

// continues reports whether the line after a line break (after) carries on
// the sentence of the text before it, as in a wrapped line or a paragraph cut
// by a page break: after starts in lower case and before does not end in
// sentence punctuation or markup.
func continues(before, after string) bool {
	r, _ := utf8.DecodeRuneInString(after)
	if !unicode.IsLower(r) {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(strings.TrimRightFunc(before, unicode.IsSpace))
	return unicode.IsLetter(last) || unicode.IsDigit(last) || strings.ContainsRune(",-–()", last)
}

func skipSpace(text string, p int) int {
	for p < len(text) {
		r, w := utf8.DecodeRuneInString(text[p:])
		if !unicode.IsSpace(r) {
			break
		}
		p += w
	}
	return p
}

type word struct{ start, end int }

// lineBreaks returns the sentence ends (offsets just past the final
// punctuation) inside seg, combining punkt's decisions with the corrections
// described on [Sentences].
func lineBreaks(tok *sentences.DefaultSentenceTokenizer, seg string) []int {
	if !strings.ContainsAny(seg, ".?!。？！…") {
		// Neither punkt nor the corrections break without such a mark, and
		// skipping punkt here saves most of the time on tables and lists.
		return nil
	}
	punktEnds := punktBreaks(tok, seg)
	words := splitWords(seg)
	atWordEnd := make(map[int]bool, len(words))
	var out []int
	var option byte // last answer-option label seen: 'A' for "A.", ...
	for i, w := range words {
		atWordEnd[w.end] = true
		if i+1 == len(words) {
			break
		}
		prev := ""
		if i > 0 {
			prev = seg[words[i-1].start:words[i-1].end]
		}
		cur, next := seg[w.start:w.end], seg[words[i+1].start:words[i+1].end]
		// Multiple-choice options run inline: "A. OPT-1.3B B. OPT-2.7B".
		// A label is "A." opening a clause or the letter after the last
		// label; the option text belongs with it.
		if len(cur) == 2 && cur[1] == '.' && cur[0] >= 'A' && cur[0] <= 'J' &&
			(cur[0] == 'A' && opensClause(prev) || option != 0 && cur[0] == option+1) {
			option = cur[0]
			continue
		}
		brk := punktEnds[w.end]
		if brk {
			brk = endsSentence(cur) && !keepTogether(prev, cur, next)
		} else {
			brk = missedBreak(prev, cur, next)
		}
		if brk {
			out = append(out, w.end)
		}
	}
	// Punkt may also break inside a whitespace-free run (after CJK full
	// stops); those are kept as they are.
	for p := range punktEnds {
		if !atWordEnd[p] {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// punktBreaks returns the offsets inside seg at which punkt ends a sentence.
func punktBreaks(tok *sentences.DefaultSentenceTokenizer, seg string) map[int]bool {
	ends := map[int]bool{}
	squeezed, orig := squeezeSpace(seg)
	for _, s := range tok.Tokenize(squeezed) {
		if end := orig(s.End); end < len(seg) {
			ends[end] = true
		}
	}
	return ends
}

// longSpace is the longest whitespace run handed to punkt as it is.
const longSpace = 64

// squeezeSpace shortens every whitespace run of seg longer than longSpace
// bytes to its first character, up to two of its later line breaks and a
// space, and returns the result with a function mapping an offset in it
// back to seg. Punkt's word tokenizer re-trims the whole run at each of its
// characters, so a run of n blanks costs it n²/2 steps; what it makes of a
// run is only where the words around it end and how many line breaks it held
// (none, one, more), which the short form keeps. Sentence ends fall on the first
// character of a run, or outside runs, and map back exactly.
func squeezeSpace(seg string) (string, func(int) int) {
	type shift struct{ at, add int } // offsets from at on are add bytes short
	var (
		b         strings.Builder
		shifts    []shift
		last, cut int
	)
	for i := 0; i < len(seg); {
		r, w := utf8.DecodeRuneInString(seg[i:])
		if !unicode.IsSpace(r) {
			i += w
			continue
		}
		j := skipSpace(seg, i)
		if j-i > longSpace {
			nl := min(strings.Count(seg[i+w:j], "\n"), 2)
			b.WriteString(seg[last : i+w])
			b.WriteString("\n\n"[:nl])
			b.WriteByte(' ')
			cut += j - i - (w + nl + 1)
			shifts = append(shifts, shift{b.Len(), cut})
			last = j
		}
		i = j
	}
	if shifts == nil {
		return seg, func(p int) int { return p }
	}
	b.WriteString(seg[last:])
	return b.String(), func(p int) int {
		k := sort.Search(len(shifts), func(k int) bool { return shifts[k].at > p })
		if k == 0 {
			return p
		}
		return p + shifts[k-1].add
	}
}

func splitWords(s string) []word {
	var out []word
	start := -1
	for i, r := range s {
		if unicode.IsSpace(r) {
			if start >= 0 {
				out = append(out, word{start, i})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, word{start, len(s)})
	}
	return out
}

// abbrevCore lower-cases w and strips opening brackets and the final period:
// "(Fig." -> "fig". ok is false when w does not end in a period.
func abbrevCore(w string) (core string, ok bool) {
	if !strings.HasSuffix(w, ".") {
		return "", false
	}
	w = strings.TrimLeft(w[:len(w)-1], "([{\"'“‘")
	return strings.ToLower(w), true
}

// endsSentence reports whether w ends in sentence-final punctuation,
// possibly followed by closing quotes or brackets. Punkt's multi-period rule
// also breaks after words such as "3.2.2" in "3.2.2 Evidence Verification".
func endsSentence(w string) bool {
	w = strings.TrimRight(w, ")]}\"'”’*_")
	r, _ := utf8.DecodeLastRuneInString(w)
	switch r {
	case '.', '?', '!', '。', '？', '！', '…':
		return true
	}
	return false
}

// keepTogether reports whether punkt's break after cur must be undone.
func keepTogether(prev, cur, next string) bool {
	core, ok := abbrevCore(cur)
	if !ok {
		return false
	}
	if alwaysJoin[core] {
		return true
	}
	if softJoin[core] {
		return !startsUpper(next)
	}
	return isEnumerator(prev, cur)
}

// isEnumerator reports whether w is a list number such as "2.", "**1." or
// "IV." opening a list item: first on its line, after a bullet, or after the
// end of a sentence or a colon.
func isEnumerator(prev, w string) bool {
	core := strings.TrimLeft(strings.TrimSuffix(w, "."), "([*_")
	if !(len(core) <= 2 && isDigits(core)) && !romanRe.MatchString(strings.ToUpper(core)) {
		return false
	}
	return opensClause(prev) || strings.HasSuffix(prev, ";")
}

// missedBreak reports whether cur ends a sentence that punkt did not end.
func missedBreak(prev, cur, next string) bool {
	if !startsUpper(next) {
		return false
	}
	body := strings.TrimRight(cur, ")]\"'”’")
	if !strings.HasSuffix(body, ".") || strings.HasSuffix(body, "..") {
		return false
	}
	body = strings.TrimLeft(body[:len(body)-1], "([\"'“‘")
	if body == "" {
		return false
	}
	if isNumeric(body) {
		return !isEnumerator(prev, cur)
	}
	if len(body) == 1 && body[0] >= 'A' && body[0] <= 'Z' {
		return inlineLabel[strings.ToLower(strings.TrimRight(prev, ":,"))]
	}
	return false
}

// opensClause reports whether a word following prev starts a clause: prev is
// absent, a bullet, or ends in sentence punctuation or a colon.
func opensClause(prev string) bool {
	switch prev {
	case "", "-", "*", "+", "•", "–":
		return true
	}
	return strings.ContainsAny(prev[len(prev)-1:], ".?!:")
}

func startsUpper(w string) bool {
	w = strings.TrimLeft(w, "([\"'“‘")
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// isNumeric accepts numbers as written in papers: 2021, 3.5, 1,000, 95%,
// 10-20.
func isNumeric(s string) bool {
	digits := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' || c == ',' || c == '%' || c == '-':
		default:
			return false
		}
	}
	return digits > 0
}
