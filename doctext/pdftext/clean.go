package pdftext

import (
	"bytes"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/paperlens/paperlens/internal/lazyregexp"
)

// para is one output paragraph under construction.
type para struct {
	lines   []string
	heading bool
	size    float64
	note    bool // footnote, page footer or float: emitted at the next paragraph end
	// indented is set when the paragraph's first line is indented, which
	// marks a new paragraph even right after a column break.
	indented   bool
	table      bool   // rows of a table: lines are rows, cells separated by tabs
	page       int    // page the paragraph starts on, from 1
	side       bool   // set across the page's main direction (rotated text)
	text       string // the paragraph's final text
	start, end int    // its byte offsets in Document.Text, set by writeText
}

// assemble turns the laid-out pages into paragraphs, in reading order,
// with their final text; writeText joins them. It also returns page 1's
// lines (for the title).
//
// The stages: mark page furniture, find tables, then flow every block into
// paragraphs (paraFlow), holding back what interrupts a sentence, and
// finally write each paragraph's text (writeParas).
func assemble(pages []*pageLayout) ([]*para, []*line) {
	first := firstPageLines(pages)
	markFurniture(pages)
	body := docBodySize(pages)
	vocab := vocabulary(pages)
	// Blocks made of table rows, replacing the cells' own blocks.
	tableBlocks := map[*block]bool{}
	for _, pg := range pages {
		findTables(pg, body, tableBlocks)
	}
	f := &paraFlow{body: body}
	for _, pg := range pages {
		for _, b := range pg.blocks {
			ls := liveLines(b)
			if len(ls) == 0 {
				continue
			}
			switch {
			case tableBlocks[b]:
				f.addTable(pg, ls)
			case f.holdsBack(pg, b, ls):
				f.holdBack(pg, b, ls)
			default:
				f.add(blockParagraphs(pg, b, ls, body))
			}
		}
	}
	f.closeCur()
	return writeParas(f.paras, vocab), first
}

// firstPageLines returns page 1's lines in the main direction, taken
// before furniture is marked: the title may sit where furniture would.
func firstPageLines(pages []*pageLayout) []*line {
	var first []*line
	if len(pages) > 0 {
		for _, b := range pages[0].blocks {
			if !b.side {
				first = append(first, b.lines...)
			}
		}
	}
	return first
}

// liveLines returns a block's lines that are neither furniture nor blank.
func liveLines(b *block) []*line {
	var ls []*line
	for _, l := range b.lines {
		if !l.drop && strings.TrimSpace(l.text) != "" {
			ls = append(ls, l)
		}
	}
	return ls
}

// paraFlow collects paragraphs in reading order. Footnotes, and figures or
// tables met in the middle of a sentence, are held back (deferred) and
// emitted after the paragraph they interrupt, so that a sentence running
// around them stays whole.
type paraFlow struct {
	body     float64
	paras    []*para
	cur      *para // the paragraph still open for continuation
	deferred []*para
}

// closeCur ends the open paragraph and emits what was held back for it.
func (f *paraFlow) closeCur() {
	if f.cur != nil {
		f.paras = append(f.paras, f.cur)
	}
	f.cur = nil
	f.paras = append(f.paras, f.deferred...)
	f.deferred = nil
}

// midSentence reports an open paragraph, not a heading, whose last line
// does not end its sentence.
func (f *paraFlow) midSentence() bool {
	return f.cur != nil && !f.cur.heading && !endsSentence(lastLine(f.cur))
}

// addTable adds a table's rows as one paragraph. A table never joins the
// sentence around it: held back while a paragraph is open, like any float.
func (f *paraFlow) addTable(pg *pageLayout, ls []*line) {
	p := &para{lines: rowTexts(ls), table: true, size: dominantSize(ls), page: pg.num}
	if f.midSentence() {
		p.note = true
		f.deferred = append(f.deferred, p)
		return
	}
	f.closeCur()
	f.paras = append(f.paras, p)
}

// holdsBack reports a block to hold back: a footnote, or, while a body
// paragraph runs on, rotated text, a float or what looks like one (an
// equation excepted: it stands where it is).
func (f *paraFlow) holdsBack(pg *pageLayout, b *block, ls []*line) bool {
	open := f.midSentence() && math.Abs(f.cur.size-f.body) < 0.08*f.body
	return !b.side && !b.equation && isNote(b, ls, pg, f.body) || open && (b.side || b.float || isFloat(ls, f.body) && !b.equation)
}

// holdBack defers the block's paragraphs as notes. With no paragraph open
// there is nothing to wait for, so they are emitted at once.
func (f *paraFlow) holdBack(pg *pageLayout, b *block, ls []*line) {
	for _, p := range blockParas(ls, f.body) {
		p.note = true
		p.page, p.side = pg.num, b.side
		f.deferred = append(f.deferred, p)
	}
	if f.cur == nil {
		f.closeCur()
	}
}

// blockParagraphs cuts a block into paragraphs. A display is one paragraph
// of its own, however many baselines its pieces sit on: neither the
// sentence before it nor the one after runs into it.
func blockParagraphs(pg *pageLayout, b *block, ls []*line, body float64) []*para {
	bp := blockParas(ls, body)
	if b.equation {
		bp = []*para{{size: body, indented: true, note: true}}
		for _, l := range ls {
			bp[0].lines = append(bp[0].lines, l.text)
		}
	}
	for _, p := range bp {
		p.page, p.side = pg.num, b.side
	}
	return bp
}

// add appends a block's paragraphs. At a block boundary the open
// paragraph continues only when the text clearly runs on (column or page
// break mid-sentence); the block's last paragraph stays open.
func (f *paraFlow) add(bp []*para) {
	if f.cur != nil && !bp[0].heading && !bp[0].indented && continues(f.cur, bp[0], f.body) {
		f.cur.lines = append(f.cur.lines, bp[0].lines...)
		bp = bp[1:]
	}
	for _, p := range bp {
		f.closeCur()
		f.cur = p
	}
}

// writeParas sets each paragraph's final text (a table's rows, or joined
// and folded lines) and drops those left empty.
func writeParas(paras []*para, vocab map[string]bool) []*para {
	written := paras[:0]
	for _, p := range paras {
		if p.table {
			p.text = tableText(p.lines)
		} else {
			p.text = strings.Join(strings.Fields(foldCompat(joinLines(p.lines, vocab))), " ")
		}
		if p.text != "" {
			written = append(written, p)
		}
	}
	return written
}

func lastLine(p *para) string { return p.lines[len(p.lines)-1] }

// blockParas splits one block into paragraphs: headings stand alone; a new
// paragraph starts at an indented line, after a short line ending a
// sentence, or, in reference lists with hanging indents, at an unindented
// line.
func blockParas(ls []*line, body float64) []*para {
	left, right := math.Inf(1), math.Inf(-1)
	for _, l := range ls {
		left = math.Min(left, l.x0)
		right = math.Max(right, l.x1)
	}
	indented := 0
	for _, l := range ls {
		if l.x0-left > 0.7*l.size && l.x0-left < 4*l.size {
			indented++
		}
	}
	hanging := indented >= 2 && indented >= len(ls)-indented
	var out []*para
	var cur *para
	for i := 0; i < len(ls); i++ {
		l := ls[i]
		if isHeading(l, len(ls), body) && !runsOn(ls, i) {
			h := &para{lines: []string{l.text}, heading: true, size: l.size}
			// A long heading wraps: take following lines in the same style.
			for i+1 < len(ls) && ls[i+1].bold == l.bold && math.Abs(ls[i+1].size-l.size) < 0.5 &&
				(l.bold || l.size > body*1.1) && len(strings.Fields(ls[i+1].text)) <= 6 &&
				!numHeadingRE.MatchString(ls[i+1].text) && !runsOn(ls, i+1) {
				i++
				h.lines = append(h.lines, ls[i].text)
			}
			out = append(out, h)
			cur = nil
			continue
		}
		indent := l.x0 - left
		startNew := cur == nil
		if !startNew {
			prev := ls[i-1]
			switch {
			case strings.HasSuffix(prev.text, "-"):
				// A hyphenated word never ends a paragraph.
			case hanging:
				startNew = indent < 0.5*l.size
			case indent > 0.7*l.size && indent < 4*l.size && prev.x1 > right-3*l.size:
				startNew = true
			case prev.x1 < right-4*l.size && endsSentence(prev.text) && indent < 0.5*l.size:
				startNew = true
			case math.Abs(l.size-cur.size) > 0.2*cur.size:
				startNew = true
			}
		}
		if startNew {
			cur = &para{size: l.size,
				indented: !hanging && indent > 0.7*l.size && indent < 4*l.size}
			out = append(out, cur)
		}
		cur.lines = append(cur.lines, l.text)
	}
	return out
}

// runsOn reports whether line i continues into the next line as running
// text (hyphenated, or the next line starts in lower case), which rules out
// a heading: numbered list items look like headings otherwise.
func runsOn(ls []*line, i int) bool {
	t := strings.TrimSpace(ls[i].text)
	if strings.HasSuffix(t, "-") {
		return true
	}
	if i+1 >= len(ls) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(strings.TrimSpace(ls[i+1].text))
	return unicode.IsLower(r)
}

// continues decides whether next, the first paragraph of a new block,
// carries on cur across a column or page break.
func continues(cur, next *para, body float64) bool {
	if cur.heading || cur.note {
		return false
	}
	// Only running text flows across breaks; titles, author blocks and
	// captions are set in other sizes.
	if math.Abs(next.size-body) > 0.08*body || math.Abs(cur.size-body) > 0.08*body {
		return false
	}
	prev := strings.TrimSpace(lastLine(cur))
	if prev == "" || endsSentence(prev) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(strings.TrimSpace(next.lines[0]))
	last, _ := utf8.DecodeLastRuneInString(prev)
	return unicode.IsLower(r) || last == '-' || last == ',' || unicode.IsLower(last) && unicode.IsLetter(r)
}

func endsSentence(s string) bool {
	s = strings.TrimRight(strings.TrimSpace(s), `"'”’)]*∗†‡0123456789`)
	if s == "" {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	return strings.ContainsRune(".?!:;", r)
}

var (
	numHeadingRE = lazyregexp.MustCompile(`^(?:\d{1,2}(?:\.\d{1,2})*\.?|[A-H](?:\.\d{1,2})*\.?|[IVX]{1,4}\.)\s+\p{Lu}`)
	knownHeads   = map[string]bool{
		"abstract": true, "introduction": true, "references": true, "acknowledgments": true,
		"acknowledgements": true, "acknowledgment": true, "acknowledgement": true,
		"conclusion": true, "conclusions": true, "related work": true, "appendix": true,
		"limitations": true, "ethics statement": true, "ethical considerations": true,
		"discussion": true, "bibliography": true, "contents": true,
	}
)

// isHeading recognises section headings by shape: short, no final period,
// and numbered or set in bold or a larger size.
func isHeading(l *line, blockLines int, body float64) bool {
	t := strings.TrimSpace(l.text)
	if t == "" || len(t) > 90 {
		return false
	}
	words := strings.Fields(t)
	if len(words) > 12 {
		return false
	}
	if notHeadingText(t) {
		return false
	}
	emphasised := l.bold || l.size > body*1.1
	key := strings.ToLower(strings.Trim(t, " .:"))
	key = strings.TrimLeft(key, "0123456789. ")
	if knownHeads[key] && (emphasised || blockLines == 1) {
		return true
	}
	if strings.HasSuffix(t, ".") || strings.HasSuffix(t, ",") {
		return false
	}
	if numHeadingRE.MatchString(t) && (emphasised || blockLines == 1) && len(words) <= 10 && hasLetters(t, 4) {
		return true
	}
	return false
}

var leadingZeroRE = lazyregexp.MustCompile(`^0\d`)

// notHeadingText rules out lines that are equations or table rows whatever
// their font: a heading is words. Refused are lines with '=' or other
// mathematical symbols or arrows (mis-mapped maths fonts give ⇡, ⇠), with
// no word of three letters, under half letters, two or more numbers after
// the section number, a word repeated three times (a table header: "RWMD
// RWMD WCD RWMD"), or a section number with a leading zero ("00").
func notHeadingText(t string) bool {
	letters, other := 0, 0
	for _, r := range t {
		switch {
		case unicode.IsSpace(r):
		case unicode.IsLetter(r):
			letters++
		default:
			other++
			if r == '=' || r == '\t' || r >= 0x2190 && r <= 0x22ff || unicode.Is(unicode.Sm, r) && r != '+' && r != '-' && r != '|' {
				return true
			}
		}
	}
	if letters*2 < letters+other || leadingZeroRE.MatchString(t) {
		return true
	}
	ws := strings.Fields(t)
	if numHeadingRE.MatchString(t) {
		ws = ws[1:]
	}
	nums, long := 0, false
	seen := map[string]int{}
	for _, w := range ws {
		if numericCellRE.MatchString(strings.Trim(w, "()[],;:")) {
			nums++
		}
		if hasLetters(w, 3) {
			long = true
		}
		seen[strings.ToLower(w)]++
		if seen[strings.ToLower(w)] >= 3 && len(w) > 1 {
			return true
		}
	}
	return !long || nums >= 2
}

var captionRE = lazyregexp.MustCompile(`^(?:Figure|Fig\.|Table|Algorithm|Listing)\s*\d`)

// isFloat reports blocks that belong to a figure or table: captions, and
// text set in a size other than the body size (labels, table cells).
func isFloat(ls []*line, body float64) bool {
	if captionRE.MatchString(strings.TrimSpace(ls[0].text)) {
		return true
	}
	s := dominantSize(ls)
	return s < body*0.92 || s > body*1.08
}

// isNote reports footnote blocks and page-1 conference footers: small type
// at the bottom of the page.
func isNote(b *block, ls []*line, pg *pageLayout, body float64) bool {
	return dominantSize(ls) <= body*0.92 && b.top <= 0.3*pg.height
}

var (
	pageNumRE = lazyregexp.MustCompile(`^(?:[-–—]?\s*\d{1,4}\s*[-–—]?|[ivxlc]{1,6}|(?i:page)\s+\d+(?:\s+of\s+\d+)?)$`)
	digitsRE  = lazyregexp.MustCompile(`\d+`)
)

// markFurniture drops running headers, footers and page numbers: lines in
// the top or bottom margin whose text (digits ignored) recurs at about the
// same height on several pages, and bare numbers at the page edges.
//
// The margin is 12% of the media box, and also the page's own first and
// last text lines (within an em and a half): on an A4 page set with
// LaTeX's article margins the running header sits lower than 88% of the
// height. There a line must hold letters, or be a bare page number, so a
// table's cells or a plot's ticks that happen to recur at one height
// inside the margin stay.
func markFurniture(pages []*pageLayout) {
	edges := textExtent(pages)
	seen := repeatedAtEdges(pages, edges)
	need := 3
	if len(pages) < 6 {
		need = 2
	}
	for i, pg := range pages {
		for _, b := range pg.blocks {
			if b.side {
				continue
			}
			for _, l := range b.lines {
				if isFurniture(pg, l, edges.top[i], edges.bot[i], seen, need) {
					l.drop = true
				}
			}
		}
	}
}

// pageEdges holds each page's highest and lowest baseline of text in the
// main direction (-Inf and +Inf for a page without text).
type pageEdges struct{ top, bot []float64 }

// textExtent finds each page's first and last text lines: furniture sits
// there even when the page's margins are narrower than the media box's.
func textExtent(pages []*pageLayout) pageEdges {
	e := pageEdges{make([]float64, len(pages)), make([]float64, len(pages))}
	for i, pg := range pages {
		e.top[i], e.bot[i] = math.Inf(-1), math.Inf(1)
		for _, b := range pg.blocks {
			if b.side {
				continue
			}
			for _, l := range b.lines {
				if strings.TrimSpace(l.text) == "" {
					continue
				}
				e.top[i] = math.Max(e.top[i], l.y)
				e.bot[i] = math.Min(e.bot[i], l.y)
			}
		}
	}
	return e
}

// inPageMargin reports a line in the top or bottom 12% of the page.
func inPageMargin(pg *pageLayout, l *line) bool {
	return l.y > 0.88*pg.height || l.y < 0.12*pg.height
}

// atTextEdge reports a line within an em and a half of the page's first or
// last text line.
func atTextEdge(top, bot float64, l *line) bool {
	return l.y >= top-1.5*l.size || l.y <= bot+1.5*l.size
}

// furnitureKey is a line's text with digits ignored, so "Page 3" and
// "Page 4" recur as one running footer.
func furnitureKey(l *line) string {
	return digitsRE.ReplaceAllString(strings.ToLower(strings.Join(strings.Fields(l.text), " ")), "#")
}

// furnitureOcc is where a candidate line stands: its page and baseline.
type furnitureOcc struct {
	page int
	y    float64
}

// repeatedAtEdges records, by furnitureKey, every place a line in a margin
// or at a text edge occurs.
func repeatedAtEdges(pages []*pageLayout, e pageEdges) map[string][]furnitureOcc {
	seen := map[string][]furnitureOcc{}
	for i, pg := range pages {
		for _, b := range pg.blocks {
			if b.side {
				continue
			}
			for _, l := range b.lines {
				if inPageMargin(pg, l) || atTextEdge(e.top[i], e.bot[i], l) {
					k := furnitureKey(l)
					seen[k] = append(seen[k], furnitureOcc{pg.num, l.y})
				}
			}
		}
	}
	return seen
}

// isFurniture decides one line of page pg, whose text runs from bot to
// top: a page number at the page's margin edge, or a line in the margin
// or at a text edge whose text recurs at about its height on need pages.
func isFurniture(pg *pageLayout, l *line, top, bot float64, seen map[string][]furnitureOcc, need int) bool {
	margin := inPageMargin(pg, l)
	if !margin && !atTextEdge(top, bot, l) {
		return false
	}
	t := strings.TrimSpace(l.text)
	pageNum := pageNumRE.MatchString(t)
	if margin && (l.y == top || l.y == bot || l.y < 0.08*pg.height) && pageNum {
		return true
	}
	if !margin && !pageNum && !hasLetter(t) {
		return false
	}
	pagesWith := map[int]bool{}
	for _, o := range seen[furnitureKey(l)] {
		if math.Abs(o.y-l.y) < 4 {
			pagesWith[o.page] = true
		}
	}
	// A bare number off the margin is a page number only as the page's
	// first or last line, at one height throughout.
	if !margin && pageNum && l.y != top && l.y != bot {
		return false
	}
	return len(pagesWith) >= need
}

func hasLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

func docBodySize(pages []*pageLayout) float64 {
	var bs []*block
	for _, p := range pages {
		bs = append(bs, p.blocks...)
	}
	return bodySize(bs)
}

// vocabulary collects the words that occur inside lines, to decide whether
// a word broken at a line end carried a real hyphen.
func vocabulary(pages []*pageLayout) map[string]bool {
	v := map[string]bool{}
	for _, pg := range pages {
		for _, b := range pg.blocks {
			for _, l := range b.lines {
				fs := strings.Fields(l.text)
				for i, w := range fs {
					if i == len(fs)-1 && strings.HasSuffix(w, "-") {
						continue
					}
					v[vocabKey(w)] = true
				}
			}
		}
	}
	return v
}

func vocabKey(w string) string {
	return strings.ToLower(strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' }))
}

// joinLines joins a paragraph's lines with spaces, rejoining words broken
// at line ends. The hyphen is dropped, as pdftotext does, unless the second
// part starts with a capital or digit ("Retrieval-Augmented", "GPT-4") or
// the hyphenated form appears elsewhere in the document and the joined one
// does not ("user-facing").
func joinLines(lines []string, vocab map[string]bool) string {
	var b []byte
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if i == 0 || len(b) < 2 || b[len(b)-1] != '-' {
			if i > 0 {
				b = append(b, ' ')
			}
			b = append(b, l...)
			continue
		}
		before, _ := utf8.DecodeLastRune(b[:len(b)-1])
		next, _ := utf8.DecodeRuneInString(l)
		switch {
		case !unicode.IsLetter(before) && !unicode.IsDigit(before):
			b = append(b, ' ') // a dash standing alone, not a broken word
		case unicode.IsLower(next):
			left := string(b[bytes.LastIndexAny(b, " \t")+1 : len(b)-1])
			right := l
			if k := strings.IndexAny(l, " \t"); k >= 0 {
				right = l[:k]
			}
			if !vocab[vocabKey(left+"-"+right)] || vocab[vocabKey(left+right)] {
				b = b[:len(b)-1]
			}
		case unicode.IsUpper(next) || unicode.IsDigit(next):
			// keep the hyphen, no space
		default:
			b = append(b, ' ')
		}
		b = append(b, l...)
	}
	return string(b)
}
