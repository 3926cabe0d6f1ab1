package chunk

import (
	"sort"
	"unicode"
	"unicode/utf8"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/chunk/tokens"
)

// DefaultMaxTokens is ElaipBench's passage size (section 4.6, appendix A.7).
const DefaultMaxTokens = 512

// DefaultMinTokens is the size under which a passage is merged into a
// neighbour (Options.MinTokens). 32 cl100k tokens is longer than a paper's
// title (5 to 28 tokens on the shared corpus), a caption line or a
// contents line, and shorter than any passage of running text the packer
// closes on purpose: such fragments won corpus-wide BM25 searches on
// length normalisation alone, over the passages that answer.
const DefaultMinTokens = 32

// minMaxTokens keeps every single character within budget: one UTF-8
// character is at most 4 bytes and so at most 4 tokens.
const minMaxTokens = 8

// Passage is one retrieval unit of a document.
type Passage struct {
	Ordinal int       // 0-based order in the document
	Start   int       // byte offset of Text in the input
	End     int       // Start + len(Text); passages tile the input
	Tokens  int       // cl100k_base tokens of Text, counted on Text itself
	Section string    // title of the heading in force where the passage's text begins; "" before the first heading
	Kind    kind.Kind // what the passage is (body, references, table...); never heading, never empty
	Text    string    // input[Start:End]
}

// Options tune Split.
type Options struct {
	// MaxTokens caps every passage, counted on the passage's own text.
	// 0 means DefaultMaxTokens; values below 8 are raised to 8.
	MaxTokens int
	// SectionFill is the fill, as a fraction of MaxTokens, from which a
	// passage is closed early so that the next one starts at a section
	// heading. 0 means 0.5: a passage at least half full does not straddle
	// a heading, and one less full continues into the next section instead
	// of leaving a stub. Set it above 1 to pack purely by size, as
	// ElaipBench does, or below 0 to close a passage at every heading.
	SectionFill float64
	// Spans mark kinds of the text (see package kind), as the extractor
	// found them. A passage never holds text of two kinds, except that a
	// heading joins the passage that follows it and a passage under
	// MinTokens is merged into a neighbour; text outside every span is
	// body. Nil makes every passage body.
	Spans []kind.Span
	// MinTokens is the size under which a packed passage (a title alone,
	// a caption, a contents line, the last sentence of a paper) is merged
	// into the next passage, or into the previous one when it is the last
	// or the next has no room, as long as the merged passage stays within
	// MaxTokens; merged, it has the kind of the longer part and the
	// section of the first. 0 means DefaultMinTokens, at most MaxTokens/4
	// so that small passages still pack; below 0, passages stay as packed.
	MinTokens int
}

func (o Options) withDefaults() Options {
	if o.MaxTokens == 0 {
		o.MaxTokens = DefaultMaxTokens
	}
	o.MaxTokens = max(o.MaxTokens, minMaxTokens)
	if o.SectionFill == 0 {
		o.SectionFill = 0.5
	}
	if o.MinTokens == 0 {
		o.MinTokens = min(DefaultMinTokens, o.MaxTokens/4)
	}
	return o
}

// unit is a packing unit: a sentence, or what is left of a sentence longer
// than MaxTokens after passages took pieces of it.
type unit struct {
	start, end int
	tokens     int       // exact for ordinary units; only a lower bound when long
	heading    bool      // the sentence is a heading line
	long       bool      // more than MaxTokens: must be cut
	kind       kind.Kind // the passage kind the unit belongs to: a heading has that of what follows
	stream     *tokStream
}

// tokStream hands out the tokens of one long sentence, as encoded whole, a
// window at a time. Encoding the whole sentence up front and keeping all its
// token ends cost 8 bytes per token (160 MB for a 20 MB line without a
// sentence end); a window never holds more than MaxTokens plus one
// piece's tokens, and the cuts only move forward.
type tokStream struct {
	s    *tokens.Stream
	base int   // offset of the sentence in the text
	ends []int // ends, as text offsets, of the tokens read and not yet passed
	done bool
}

// window returns the ends of the sentence's tokens that end after pos: at
// least n of them, or all that are left.
func (t *tokStream) window(pos, n int) []int {
	for {
		t.ends = t.ends[sort.SearchInts(t.ends, pos+1):]
		if len(t.ends) >= n || t.done {
			return t.ends
		}
		from := len(t.ends)
		var ok bool
		if t.ends, ok = t.s.Next(t.ends); !ok {
			t.done = true
		}
		for i := from; i < len(t.ends); i++ {
			t.ends[i] += t.base
		}
	}
}

// Split cuts text into consecutive, non-overlapping passages of at most
// opt.MaxTokens cl100k_base tokens that together reproduce text exactly.
//
// Passages are packed greedily with whole sentences (see [Sentences]). Token
// counts are not additive (BPE may merge across the seam of two sentences),
// so each sentence is counted once, the running sum serves as an estimate,
// and the joined text is re-counted whenever the estimate reaches the limit
// and before a passage is emitted; a passage that turns out too long gives
// back its last sentences.
//
// A sentence longer than MaxTokens is the only thing ever cut. If the
// current passage has at least a quarter of its budget left, the sentence's
// first piece fills it; otherwise the sentence starts a new passage. Each
// cut falls just after the last whitespace in the second half of the piece,
// or, when there is none (CJK, URLs, tables without spaces), on the token
// boundary moved back to a character boundary. The last piece is packed
// with the sentences that follow like any other.
//
// A passage is also closed before a section heading once it holds
// opt.SectionFill*MaxTokens tokens, and a heading is never left as the last
// line of a passage whose next passage starts its section.
//
// With opt.Spans, sentences are also cut where a span begins or ends, and a
// passage is closed wherever the kind changes, so that each passage has one
// Kind. Heading lines (found in the text, or marked kind.Heading) take the
// kind of the text after them.
//
// Last, a passage under opt.MinTokens is merged into a neighbour (see
// Options.MinTokens), so that a title or caption alone is no passage.
func Split(text string, opt Options) []Passage {
	if text == "" {
		return nil
	}
	opt = opt.withDefaults()
	heads := Headings(text)
	sents := sentenceSpans(text, heads)
	spans := kind.Normalize(opt.Spans, len(text))
	if len(spans) > 0 {
		sents = cutAtKinds(text, sents, spans)
	}
	p := &packer{
		text:         text,
		heads:        heads,
		limit:        opt.MaxTokens,
		sectionBreak: int(opt.SectionFill * float64(opt.MaxTokens)),
		units:        makeUnits(text, sents, heads, opt.MaxTokens),
		blank:        Span{-1, -1},
	}
	assignKinds(text, p.units, spans)
	p.run()
	p.mergeShort(opt.MinTokens)
	return p.out
}

type packer struct {
	text         string
	heads        []Heading
	limit        int
	sectionBreak int
	units        []unit
	out          []Passage
	blank        Span // a run of whitespace, to skipSpace from inside it in O(1)
}

// skipSpace is skipSpace(p.text, pos) for passage starts, which only move
// forward. Without the memo every passage cut from a megabytes-long run of
// blanks scanned to its end again: quadratic in the run.
func (p *packer) skipSpace(pos int) int {
	if pos < p.blank.Start || pos > p.blank.End {
		p.blank = Span{pos, skipSpace(p.text, pos)}
	}
	return p.blank.End
}

func (p *packer) emit(start, end, n int, k kind.Kind) {
	p.out = append(p.out, Passage{
		Ordinal: len(p.out),
		Start:   start,
		End:     end,
		Tokens:  n,
		Section: sectionAt(p.heads, p.skipSpace(start)),
		Kind:    k,
		Text:    p.text[start:end],
	})
}

func (p *packer) run() {
	// The passage being built is units[lo:hi]. est estimates its count;
	// known is its exact count, or -1 when est is only an estimate.
	lo, hi, est, known := 0, 0, 0, -1
	for hi < len(p.units) {
		u := p.units[hi]
		add := u.tokens
		if hi > lo {
			add -= p.seam(p.units[hi-1], u)
		}
		switch {
		case hi > lo && u.kind != p.units[hi-1].kind:
			// A passage has one kind; the headings before u already
			// carry u's kind, so none is left behind.
			hi = p.flush(lo, hi, known)
		case hi > lo && u.heading && est >= p.sectionBreak:
			hi = p.flush(lo, hi, known)
		case u.long:
			if hi > lo && p.limit-est < p.limit/4 {
				hi = p.flush(lo, p.withoutTrailingHeadings(lo, hi), -1)
				break
			}
			start := u.start
			if hi > lo {
				start = p.units[lo].start
			}
			cut, n := p.fit(start, u)
			if cut <= u.start {
				// Nothing of u fits after the passage's text.
				hi = p.flush(lo, p.withoutTrailingHeadings(lo, hi), -1)
				break
			}
			p.emit(start, cut, n, u.kind)
			p.units[hi] = p.rest(u, cut)
		case hi == lo || est+add <= p.limit:
			hi, est, known = hi+1, est+add, -1
			continue
		default:
			if n := tokens.Count(p.text[p.units[lo].start:u.end]); n <= p.limit {
				hi, est, known = hi+1, n, n
				continue
			}
			cut := p.withoutTrailingHeadings(lo, hi)
			if cut != hi {
				known = -1
			}
			hi = p.flush(lo, cut, known)
		}
		lo, est, known = hi, 0, -1
	}
	for lo < len(p.units) {
		lo = p.flush(lo, len(p.units), known)
		known = -1
	}
}

// mergeShort merges every passage under minTokens into the next passage,
// or into the previous one when it is the last or the next has no room,
// while the merged passage holds at most limit tokens; one still short
// after a merge goes on merging forward. Passages stay consecutive and end
// where packed passages ended, on sentence boundaries. Each merge counts
// one passage of at most limit tokens, so the pass is linear in the text.
func (p *packer) mergeShort(minTokens int) {
	if minTokens <= 0 || len(p.out) < 2 {
		return
	}
	in := p.out
	out := make([]Passage, 0, len(in))
	for i := 0; i < len(in); i++ {
		c := in[i]
		for c.Tokens < minTokens && i+1 < len(in) {
			m, ok := p.join(c, in[i+1])
			if !ok {
				break
			}
			c, i = m, i+1
		}
		if last := len(out) - 1; c.Tokens < minTokens && last >= 0 {
			if m, ok := p.join(out[last], c); ok {
				out[last] = m
				continue
			}
		}
		out = append(out, c)
	}
	for i := range out {
		out[i].Ordinal = i
	}
	p.out = out
}

// join is passages a and b, consecutive, as one, when that holds at most
// limit tokens: the section of a, the kind of the one with more tokens.
func (p *packer) join(a, b Passage) (Passage, bool) {
	n := tokens.Count(p.text[a.Start:b.End])
	if n > p.limit {
		return Passage{}, false
	}
	k := a.Kind
	if b.Tokens > a.Tokens {
		k = b.Kind
	}
	return Passage{Start: a.Start, End: b.End, Tokens: n, Section: a.Section, Kind: k, Text: p.text[a.Start:b.End]}, true
}

// seam estimates how many tokens joining unit b to unit a saves: a sentence
// that ends in a single space leaves that space as a token of its own, while
// in the joined text it merges into b's first word (" The") or punctuation
// (" ("). The estimate only steers packing; passages are always re-counted.
func (p *packer) seam(a, b unit) int {
	t := p.text
	if a.end-a.start < 2 || t[a.end-1] != ' ' || t[a.end-2] == ' ' || b.start >= len(t) {
		return 0
	}
	r, _ := utf8.DecodeRuneInString(t[b.start:])
	if unicode.IsDigit(r) || unicode.IsSpace(r) {
		return 0
	}
	return 1
}

// withoutTrailingHeadings moves the end of units[lo:hi] back before any
// heading lines at its end, which belong with the section that follows.
func (p *packer) withoutTrailingHeadings(lo, hi int) int {
	for hi-1 > lo && p.units[hi-1].heading {
		hi--
	}
	return hi
}

// flush emits units[lo:hi] as one passage, or a shorter prefix of them if
// their joined text is over budget, and returns the index of the first unit
// not emitted. known is the exact count of units[lo:hi] if the caller has
// it, else -1.
func (p *packer) flush(lo, hi, known int) int {
	for {
		start, end := p.units[lo].start, p.units[hi-1].end
		n := known
		if n < 0 {
			n = tokens.Count(p.text[start:end])
		}
		// A single ordinary unit was counted on its own text when it was
		// made, so the loop ends at the latest when one unit is left.
		if n <= p.limit || hi-lo == 1 {
			p.emit(start, end, n, p.units[lo].kind)
			return hi
		}
		hi, known = p.withoutTrailingHeadings(lo, hi-1), -1
	}
}

// fit returns the longest cut in the long unit u such that
// text[start:cut] holds at most limit tokens, with that count; cut <= u.start
// when not even one character fits.
func (p *packer) fit(start int, u unit) (cut, n int) {
	// The tokens ending after u.start; more than limit of them, or all.
	ends := u.stream.window(u.start, p.limit+1)
	budget := p.limit
	if start < u.start {
		budget -= tokens.Count(p.text[start:u.start])
	}
	k := min(budget, len(ends))
	for k > 0 {
		c := pieceEnd(p.text, u.start, ends[k-1])
		if c > u.start {
			if n := tokens.Count(p.text[start:c]); n <= p.limit {
				return c, n
			}
		}
		// Tokenised on its own the piece came out longer than its share of
		// the sentence's tokens; retry with the tokens that end before c.
		k = min(k-1, sort.SearchInts(ends, c))
	}
	if start == u.start {
		// Unreachable while limit >= 8 (a character is at most 4 tokens),
		// but every passage must make progress.
		_, w := utf8.DecodeRuneInString(p.text[u.start:])
		return u.start + w, tokens.Count(p.text[u.start : u.start+w])
	}
	return u.start, 0
}

// rest is what remains of the long unit u after a passage took text up to
// cut.
func (p *packer) rest(u unit, cut int) unit {
	r := unit{start: cut, end: u.end, stream: u.stream, kind: u.kind}
	r.tokens = len(u.stream.window(cut, p.limit+1))
	if r.tokens <= p.limit {
		// Counting the rest exactly is cheap only once it is short.
		r.tokens = tokens.Count(p.text[cut:u.end])
	}
	r.long = r.tokens > p.limit
	return r
}

// makeUnits counts each sentence once; a sentence over the limit keeps a
// stream of its tokens so that it can be cut without encoding it again, and
// is encoded only as far as needed to tell that it is over the limit.
func makeUnits(text string, spans []Span, heads []Heading, limit int) []unit {
	units := make([]unit, 0, len(spans))
	hi := 0
	for _, s := range spans {
		isHead := false
		for hi < len(heads) && heads[hi].Start < s.End {
			if heads[hi].Start >= s.Start {
				isHead = true
			}
			hi++
		}
		u := unit{start: s.Start, end: s.End, heading: isHead}
		if s.End-s.Start > limit {
			// Only a sentence with more bytes than the limit can have more
			// tokens than it; encoding is the costly part, so skip it.
			u.stream = &tokStream{s: tokens.NewStream(text[s.Start:s.End]), base: s.Start}
			u.tokens = len(u.stream.window(s.Start, limit+1))
		} else {
			u.tokens = tokens.Count(text[s.Start:s.End])
		}
		u.long = u.tokens > limit
		if !u.long {
			u.stream = nil
		}
		units = append(units, u)
	}
	return units
}

// pieceEnd picks where to end a piece that starts at a and whose last
// allowed token ends at tokEnd: after the last whitespace in the second half
// of the piece, else at the character boundary at or before tokEnd.
func pieceEnd(s string, a, tokEnd int) int {
	half := a + (tokEnd-a)/2
	for i := tokEnd; i > half; {
		r, w := utf8.DecodeLastRuneInString(s[:i])
		if unicode.IsSpace(r) {
			return i
		}
		i -= w
	}
	for tokEnd > a && tokEnd < len(s) && !utf8.RuneStart(s[tokEnd]) {
		tokEnd--
	}
	return tokEnd
}

// sectionAt returns the title of the last heading starting at or before pos.
func sectionAt(heads []Heading, pos int) string {
	i := sort.Search(len(heads), func(i int) bool { return heads[i].Start > pos })
	if i == 0 {
		return ""
	}
	return heads[i-1].Title
}

// cutAtKinds cuts sentences where a kind span begins or ends, so that no
// unit holds text of two kinds. A boundary is moved forward past blanks,
// which stay with the text before them; a cut that would leave only blanks
// on either side is not made. Sentences and spans are both sorted, so one
// pass over each suffices.
func cutAtKinds(text string, sents []Span, spans []kind.Span) []Span {
	bounds := make([]int, 0, 2*len(spans))
	for _, sp := range spans {
		for _, b := range []int{sp.Start, sp.End} {
			// Bounds increase, so one inside the blanks the last one
			// skipped skips to the same place: no run is scanned twice.
			if last := len(bounds) - 1; last >= 0 && b <= bounds[last] {
				continue
			}
			b = skipSpace(text, b)
			if len(bounds) == 0 || b > bounds[len(bounds)-1] {
				bounds = append(bounds, b)
			}
		}
	}
	out := make([]Span, 0, len(sents)+len(bounds))
	j := 0
	for _, s := range sents {
		for j < len(bounds) && bounds[j] <= s.Start {
			j++
		}
		start := s.Start
		for ; j < len(bounds) && bounds[j] < s.End; j++ {
			b := bounds[j]
			if skipSpace(text, start) < b {
				out = append(out, Span{start, b})
				start = b
			}
		}
		out = append(out, Span{start, s.End})
	}
	return out
}

// assignKinds gives each unit its passage kind: the kind of the span at its
// first non-blank byte, except that a heading (a heading line of the text,
// or text marked kind.Heading) of body or heading kind takes the kind of
// the next unit that is not such a heading, so that it opens the passage
// after it. Trailing headings take the kind before them. No unit is left
// with kind.Heading or "".
func assignKinds(text string, units []unit, spans []kind.Span) {
	j := 0
	for i := range units {
		u := &units[i]
		pos := skipSpace(text, u.start)
		for j < len(spans) && spans[j].End <= pos {
			j++
		}
		u.kind = kind.Body
		if j < len(spans) && spans[j].Start <= pos && pos < u.end {
			u.kind = spans[j].Kind
		}
		if u.kind == kind.Heading {
			u.heading = true
		}
	}
	// Walk back so each heading sees the kind after it.
	next := kind.Kind("")
	for i := len(units) - 1; i >= 0; i-- {
		u := &units[i]
		if u.heading && (u.kind == kind.Body || u.kind == kind.Heading) {
			u.kind = next
			continue
		}
		next = u.kind
	}
	prev := kind.Body
	for i := range units {
		if units[i].kind == "" {
			units[i].kind = prev
		}
		prev = units[i].kind
	}
}
