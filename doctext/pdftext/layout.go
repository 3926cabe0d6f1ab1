package pdftext

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// Tuning constants, in units of the font size (em). They were tuned on the
// test corpus against pdftotext; see pdftext_test.go.
const (
	// wordGap: a horizontal gap wider than this between two glyphs is a
	// space. pdfTeX inter-word spaces are 0.2-0.35 em, kerns below 0.1 em.
	wordGap = 0.12
	// lineGap: words on one baseline further apart than this belong to
	// different lines (column gutters are 1.5-2 em, table cells similar).
	lineGap = 1.1
	// leading: the largest baseline-to-baseline distance inside a block.
	leading = 1.55
)

type word struct {
	x0, x1 float64
	y      float64
	size   float64
	text   string
	bold   bool
	nchars int
	frag   bool // a formula fragment moved into the line (absorbFragments)
}

type line struct {
	x0, x1 float64
	y      float64 // baseline
	size   float64 // dominant font size
	bold   bool    // mostly bold characters
	words  []word
	text   string
	drop   bool // page furniture, removed by assemble
}

func (l *line) top() float64    { return l.y + 0.75*l.size }
func (l *line) bottom() float64 { return l.y - 0.25*l.size }

type block struct {
	lines               []*line
	x0, x1, top, bottom float64
	size                float64
	side                bool // text running across the page's main direction
	// display marks a block gathered from pieces set on several baselines
	// that are not a paragraph's lines: a display equation (summation
	// signs, limits, fractions), or a small table or figure labels in a
	// column. Its lines are rows, top to bottom, left to right.
	display bool
	// equation marks a display equation (isEquation): it belongs where it
	// stands in the paragraph around it, even when set in script sizes
	// or near the foot of the page, so it is never held back as a float
	// or a footnote.
	equation bool
	// float marks a table or figure: a display that is not an equation
	// (a table read as rows, a figure's labels), or a block next to a
	// caption (markFloats). Met in the middle of a sentence, it is held
	// back until the paragraph it interrupts ends, like the caption.
	float bool
	// caption is the caption whose float region holds the block
	// (markFloats): pieces of one table on both sides of the page's middle
	// belong together when they share it.
	caption *block
}

func (b *block) add(l *line) {
	if len(b.lines) == 0 {
		b.x0, b.x1, b.top, b.bottom, b.size = l.x0, l.x1, l.top(), l.bottom(), l.size
	} else {
		b.x0 = math.Min(b.x0, l.x0)
		b.x1 = math.Max(b.x1, l.x1)
		b.top = math.Max(b.top, l.top())
		b.bottom = math.Min(b.bottom, l.bottom())
	}
	b.lines = append(b.lines, l)
}

func (b *block) last() *line { return b.lines[len(b.lines)-1] }

// pageLayout is one page: blocks in reading order.
type pageLayout struct {
	num           int
	width, height float64
	blocks        []*block
}

// extractPage turns one page into ordered blocks. Pages are independent of
// each other apart from the shared font cache, so a caller wanting
// parallelism could run pages concurrently with one cache per goroutine.
func extractPage(p pdf.Value, fonts *docFonts) (pl *pageLayout, err error) {
	defer func() {
		if r := recover(); r != nil {
			pl, err = nil, fmt.Errorf("unreadable content: %s", clean(fmt.Sprint(r)))
		}
	}()
	box := [4]float64{0, 0, 612, 792}
	if mb := inheritedKey(p, "MediaBox"); mb.Len() == 4 {
		for i := 0; i < 4; i++ {
			box[i] = mb.Index(i).Float64()
		}
		if box[0] > box[2] {
			box[0], box[2] = box[2], box[0]
		}
		if box[1] > box[3] {
			box[1], box[3] = box[3], box[1]
		}
	}
	pl = &pageLayout{width: box[2] - box[0], height: box[3] - box[1]}
	contents := p.Key("Contents")
	if contents.IsNull() {
		return pl, nil
	}
	// Parts are read one after another, but each costs a lookup and a
	// decompressor: a page made of hundreds of thousands of them is a
	// denial of service, not a layout.
	if n := contents.Len(); n > maxContentParts {
		return nil, fmt.Errorf("content split into %d parts (at most %d are read)", n, maxContentParts)
	}
	w := &walker{doc: fonts, box: box}
	res := newResources(inheritedKey(p, "Resources"), fonts)
	w.run(contents, res, identity, 0)

	// The direction carrying most glyphs is the page's flow (a landscape
	// page may be entirely rotated); text in other directions (axis labels,
	// rotated tables) is laid out in its own frame and read after it.
	var byRot [4][]glyph
	for _, g := range w.glyphs {
		// Shift to a page-relative origin so margin tests work on any media box.
		g.x -= box[0]
		g.y -= box[1]
		byRot[g.rot] = append(byRot[g.rot], g)
	}
	main := 0
	for r := 1; r < 4; r++ {
		if len(byRot[r]) > len(byRot[main]) {
			main = r
		}
	}
	pl.blocks = layoutFrame(byRot[main], main, pl.width, pl.height, false)
	if main == 0 {
		// Rotated text outside the body's horizontal extent is a margin
		// stamp ("arXiv:2501.12948v1 [cs.CL] ..."), not content.
		x0, x1 := math.Inf(1), math.Inf(-1)
		for _, b := range pl.blocks {
			x0, x1 = math.Min(x0, b.x0), math.Max(x1, b.x1)
		}
		for r := 1; r < 4; r++ {
			kept := byRot[r][:0]
			for _, g := range byRot[r] {
				if g.x >= x0-2 && g.x <= x1+2 {
					kept = append(kept, g)
				}
			}
			byRot[r] = kept
		}
	}
	for r := 0; r < 4; r++ {
		if r != main && len(byRot[r]) > 0 {
			pl.blocks = append(pl.blocks, layoutFrame(byRot[r], r, pl.width, pl.height, true)...)
		}
	}
	return pl, nil
}

// layoutFrame turns glyphs of one direction into ordered blocks. Glyphs are
// first rotated so that their text runs left to right; the blocks keep
// those frame coordinates.
func layoutFrame(gs []glyph, rot int, width, height float64, side bool) []*block {
	if len(gs) == 0 {
		return nil
	}
	fw := width
	for i := range gs {
		g := &gs[i]
		switch rot {
		case 1:
			g.x, g.y = g.y, width-g.x
		case 2:
			g.x, g.y = width-g.x, height-g.y
		case 3:
			g.x, g.y = height-g.y, g.x
		}
	}
	if rot == 1 || rot == 3 {
		fw = height
	}
	lines := buildLines(buildWords(gs), fw)
	blocks := buildBlocks(lines)
	for _, b := range blocks {
		b.size = dominantSize(b.lines)
		b.side = side
	}
	if len(blocks) < 2 {
		return blocks
	}
	blocks = absorbFragments(blocks)
	cols := findGutter(lines, fw)
	body := bodySize(blocks)
	blocks = groupDisplays(blocks, cols, body)
	for _, b := range blocks {
		b.equation = isEquation(b, body)
		b.float = b.display && !b.equation
	}
	markFloats(blocks, cols, body)
	return orderBlocks(blocks, cols, body)
}

// buildWords groups glyphs, in content-stream order, into words. Producers
// emit text in (mostly) reading order within a line, so the stream order
// keeps accents and kerned pairs together; the gap test splits words.
func buildWords(gs []glyph) []word {
	var words []word
	var cur word
	var pieces []piece
	var boldChars int
	flush := func() {
		if len(pieces) > 0 {
			cur.text = moveNegations(composeAccents(overstrikes(pieces)))
			cur.bold = boldChars*2 > cur.nchars
			if cur.text != "" {
				words = append(words, cur)
			}
		}
		pieces = pieces[:0]
		boldChars = 0
	}
	open := func() bool { return len(pieces) > 0 }
	for i := range gs {
		g := &gs[i]
		if g.space {
			flush()
			continue
		}
		if open() {
			gap := g.x - cur.x1
			sz := math.Max(g.size, cur.size)
			sameLine := math.Abs(g.y-cur.y) < 0.2*sz
			similar := g.size < cur.size*1.3 && cur.size < g.size*1.3
			tight := gap < wordGap*sz && gap > -0.6*sz
			// Fonts without width tables place every glyph of a string at a
			// guessed advance: trust the producer's grouping instead.
			if g.f.noWidths && g.seq == gs[i-1].seq {
				tight = true
			}
			if !(sameLine && similar && tight) {
				flush()
			}
		}
		if g.text == "" {
			if open() {
				cur.x1 = math.Max(cur.x1, g.x+g.w)
			}
			continue
		}
		if !open() {
			cur = word{x0: g.x, x1: g.x + g.w, y: g.y, size: g.size}
		}
		// Overprinted duplicates (fake bold, shadows) would double letters.
		if k := len(pieces); k > 0 && pieces[k-1].text == g.text && math.Abs(pieces[k-1].x0-g.x) < 0.1*g.size {
			continue
		}
		pieces = append(pieces, piece{g.text, g.x, g.x + g.w})
		n := utf8.RuneCountInString(g.text)
		cur.nchars += n
		if g.f.bold {
			boldChars += n
		}
		cur.x1 = math.Max(cur.x1, g.x+g.w)
		cur.x0 = math.Min(cur.x0, g.x)
	}
	flush()
	return words
}

type piece struct {
	text   string
	x0, x1 float64
}

// spacingAccents maps the stand-alone accents TeX draws over a letter to
// the combining marks NFKC can compose with it ("Sch¨olkopf" -> "Schölkopf").
var spacingAccents = map[string]rune{
	"\u00a8": 0x308, "\u00b4": 0x301, "`": 0x300, "\u02c6": 0x302, "^": 0x302,
	"\u02dc": 0x303, "~": 0x303, "\u00af": 0x304, "\u02d8": 0x306, "\u02d9": 0x307,
	"\u02da": 0x30a, "\u00b8": 0x327, "\u02c7": 0x30c, "\u02dd": 0x30b, "\u02db": 0x328,
}

func composeAccents(ps []piece) string {
	var sb strings.Builder
	used := make([]bool, len(ps))
	hasAccent := false
	for _, p := range ps {
		if _, ok := spacingAccents[p.text]; ok {
			hasAccent = true
			break
		}
	}
	if !hasAccent {
		for _, p := range ps {
			sb.WriteString(p.text)
		}
		return sb.String()
	}
	// marks[i] holds combining marks to write after piece i.
	marks := make([][]rune, len(ps))
	over := func(a, b piece) bool {
		c := (a.x0 + a.x1) / 2
		return c >= b.x0-0.5 && c <= b.x1+0.5
	}
	for i, p := range ps {
		m, ok := spacingAccents[p.text]
		if !ok {
			continue
		}
		switch {
		case i+1 < len(ps) && isLetterPiece(ps[i+1]) && over(p, ps[i+1]):
			marks[i+1] = append(marks[i+1], m)
			used[i] = true
		case i > 0 && isLetterPiece(ps[i-1]) && over(p, ps[i-1]):
			marks[i-1] = append(marks[i-1], m)
			used[i] = true
		}
	}
	for i, p := range ps {
		if used[i] {
			continue
		}
		// Dotless i under an accent is just an i.
		if len(marks[i]) > 0 && p.text == "\u0131" {
			p.text = "i"
		}
		sb.WriteString(p.text)
		for _, m := range marks[i] {
			sb.WriteRune(m)
		}
	}
	return sb.String()
}

func isLetterPiece(p piece) bool {
	r, _ := utf8.DecodeRuneInString(p.text)
	return unicode.IsLetter(r)
}

// buildLines clusters words into lines: first by baseline, then split at
// wide horizontal gaps (column gutters), then sub- and superscripts are
// folded into the line they decorate.
func buildLines(words []word, pageWidth float64) []*line {
	if len(words) == 0 {
		return nil
	}
	sort.SliceStable(words, func(i, j int) bool { return words[i].y > words[j].y })
	var bands [][]word
	for i := 0; i < len(words); {
		j := i + 1
		for j < len(words) && words[i].y-words[j].y <= 0.25*math.Min(words[i].size, words[j].size) {
			j++
		}
		band := words[i:j]
		sort.SliceStable(band, func(a, b int) bool { return band[a].x0 < band[b].x0 })
		bands = append(bands, band)
		i = j
	}
	lines := splitBands(bands, strip{})
	// A gutter narrower than lineGap (LaTeX's default \columnsep is 10 pt,
	// one em) joins the lines of both columns that share a baseline: find
	// it from the words and split there.
	// Lines already split at a wide gutter split the same way again, so
	// the search needs no test of whether one was found.
	if g := narrowGutter(bands, pageWidth); g.ok {
		lines = splitBands(bands, g)
	}
	lines = mergeFragments(lines, pageWidth)
	lines = attachScripts(lines)
	for _, l := range lines {
		l.finish()
	}
	return lines
}

// strip is a vertical band of white space between two columns, at x from
// bottom to top.
type strip struct {
	ok             bool
	x, top, bottom float64
}

// splitBands cuts each baseline's words into lines at gaps wider than
// lineGap, and at any real space across the strip g.
func splitBands(bands [][]word, g strip) []*line {
	var lines []*line
	for _, band := range bands {
		inStrip := g.ok && band[0].y <= g.top && band[0].y >= g.bottom
		start, right := 0, band[0].x1
		for k := 1; k <= len(band); k++ {
			if k == len(band) {
				lines = append(lines, newLine(band[start:k]))
				break
			}
			sz := math.Max(band[k].size, band[k-1].size)
			gap := band[k].x0 - right
			if gap > lineGap*sz || inStrip && gap > 0.25*sz && right <= g.x && band[k].x0 >= g.x {
				lines = append(lines, newLine(band[start:k]))
				start = k
			}
			if k == start {
				right = band[k].x1
			} else {
				right = math.Max(right, band[k].x1)
			}
		}
	}
	return lines
}

// narrowGutter finds a gutter from the words themselves: the x near the
// middle of the page with the longest run of consecutive baselines that
// have words on both sides of it, at least 0.75 em apart, and none across
// it: at least six of them and a quarter of the page's baselines.
// Justified columns leave such a strip down their whole height. TeX's
// spaces are a third of an em and stretch to about two thirds, and a
// fixed-width font's are 0.6 em, so the spaces of a single column do not
// count even where they line up; a title or figure above or below the
// columns only ends the run.
func narrowGutter(bands [][]word, pageWidth float64) strip {
	// Each baseline's spaces of 0.75 em or more, found once: an x inside
	// one has words on both sides and none across.
	type row struct {
		x0, x1, y, size float64
		gaps            [][2]float64
	}
	rows := make([]row, len(bands))
	for i, band := range bands {
		r := row{x0: band[0].x0, y: band[0].y, size: band[0].size}
		right := band[0].x1
		for _, w := range band[1:] {
			if w.x0-right >= 0.75*r.size {
				r.gaps = append(r.gaps, [2]float64{right, w.x0})
			}
			right = math.Max(right, w.x1)
		}
		r.x1 = right
		rows[i] = r
	}
	best := strip{}
	bestRun, bestX0, bestX1 := 0, 0, 0
	for xi := int(0.3 * pageWidth); xi <= int(0.7*pageWidth); xi++ {
		x := float64(xi)
		run, top := 0, 0.0
		for _, r := range rows {
			if x <= r.x0+0.5 || x >= r.x1-0.5 {
				continue // text on one side only: neither part of a run nor its end
			}
			in := false
			for _, g := range r.gaps {
				if x >= g[0]-0.5 && x <= g[1]+0.5 {
					in = true
					break
				}
			}
			if !in {
				run = 0
				continue
			}
			if run == 0 {
				top = r.y + r.size
			}
			run++
			switch {
			case run > bestRun:
				bestRun, bestX0, bestX1 = run, xi, xi
				best = strip{top: top, bottom: r.y - r.size}
			case run == bestRun && xi == bestX1+1:
				bestX1 = xi
			}
		}
	}
	if bestRun < 6 || bestRun*4 < len(bands) {
		return strip{}
	}
	best.ok = true
	best.x = float64(bestX0+bestX1) / 2
	return best
}

// mergeFragments rejoins pieces of one line that the gap split separated
// although no column gutter lies between them: wide justified spaces and
// run-in headings ("Reduce the photometric distortions.   Because ...").
// Pieces on the same side of the page's gutter are rejoined across gaps of
// up to 2.5 em; without a known gutter, only on single-column pages.
//
// Whatever the gutter, a run of three or more prose pieces on one baseline
// separated by equal gaps is one justified line whose spaces were stretched
// past lineGap, as in a narrow column set without hyphenation: "many
// conversational   chunks   where   the". A gutter does not repeat at the
// same width within one line, so such runs are rejoined even where the
// gutter is unknown (a page with too few lines to find it).
func mergeFragments(lines []*line, pageWidth float64) []*line {
	cols := findGutter(lines, pageWidth)
	merge := cols.ok
	if !cols.ok {
		wide, long := 0, 0
		for _, l := range lines {
			if l.chars() >= 15 {
				long++
				if l.x1-l.x0 > 0.5*pageWidth {
					wide++
				}
			}
		}
		merge = long > 0 && wide*2 >= long
	}
	// A line above or below the column region (an author block's e-mail
	// addresses) is split at a gap that only looks like the gutter.
	side := func(l *line) int {
		x0, x1 := l.x0, l.x1
		switch {
		case !cols.ok || l.y > cols.top+l.size || l.y < cols.bottom-l.size:
			return 0
		case x1 <= cols.gl+1:
			return -1
		case x0 >= cols.gr-1:
			return 1
		}
		return 2
	}
	just := justifiedRuns(lines, pageWidth, side)
	if !merge && !anyTrue(just) {
		return lines
	}
	out := lines[:0]
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if k := len(out); k > 0 {
			p := out[k-1]
			gap := l.x0 - p.x1
			sz := math.Max(p.size, l.size)
			if math.Abs(p.y-l.y) < 0.25*sz && gap > 0 && (merge && gap < 2.5*sz || just[i]) &&
				side(p) == side(l) && side(p) != 2 {
				p.words = append(p.words, l.words...)
				p.measure()
				continue
			}
		}
		out = append(out, l)
	}
	return out
}

// justifiedRuns marks the pieces that continue the piece before them as
// part of a justified line: three or more pieces in a row on one baseline,
// on one side of the gutter and within half the page width, separated by
// gaps equal to within 0.1 em and narrower than 2.5 em, each piece in the
// body size and mostly letters. Table rows (numbers, small type) and
// equations (gaps of 3 em and more) do not qualify. lines holds each
// baseline's pieces in x order, as buildLines makes them.
func justifiedRuns(lines []*line, pageWidth float64, side func(*line) int) []bool {
	just := make([]bool, len(lines))
	body := dominantLineSize(lines)
	for i := 1; i+1 < len(lines); i++ {
		a, b, c := lines[i-1], lines[i], lines[i+1]
		sz := math.Max(a.size, math.Max(b.size, c.size))
		if math.Abs(a.y-b.y) >= 0.25*sz || math.Abs(b.y-c.y) >= 0.25*sz {
			continue
		}
		g1, g2 := b.x0-a.x1, c.x0-b.x1
		if g1 <= 0 || g2 <= 0 || g1 > 2.5*sz || g2 > 2.5*sz || math.Abs(g1-g2) > 0.1*sz {
			continue
		}
		if !prosePiece(a, body) || !prosePiece(b, body) || !prosePiece(c, body) {
			continue
		}
		s := side(a)
		if s == 2 || side(b) != s || side(c) != s || c.x1-a.x0 > 0.5*pageWidth {
			continue
		}
		just[i], just[i+1] = true, true
	}
	return just
}

func anyTrue(bs []bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
}

func (l *line) chars() int {
	n := 0
	for _, w := range l.words {
		n += w.nchars
	}
	return n
}

func newLine(ws []word) *line {
	l := &line{words: append([]word(nil), ws...)}
	l.measure()
	return l
}

// measure recomputes geometry; the baseline and size come from the words
// carrying most characters, so a superscript does not move the line.
func (l *line) measure() {
	l.x0, l.x1 = math.Inf(1), math.Inf(-1)
	bestN := -1
	sizes := map[float64]int{}
	for _, w := range l.words {
		l.x0 = math.Min(l.x0, w.x0)
		l.x1 = math.Max(l.x1, w.x1)
		sizes[math.Round(w.size*2)/2] += w.nchars
	}
	for s, n := range sizes {
		if n > bestN || n == bestN && s > l.size {
			bestN, l.size = n, s
		}
	}
	var ysum, yn float64
	for _, w := range l.words {
		if math.Abs(math.Round(w.size*2)/2-l.size) < 0.01 {
			ysum += w.y * float64(w.nchars)
			yn += float64(w.nchars)
		}
	}
	if yn > 0 {
		l.y = ysum / yn
	} else {
		l.y = l.words[0].y
	}
}

// attachScripts merges lines that sit inside another line's vertical
// extent and touch it horizontally: superscripts, subscripts, footnote
// marks. Without this "x_i" or "University*" would become separate lines
// and land in odd places in the reading order.
func attachScripts(lines []*line) []*line {
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].y > lines[j].y })
	merged := make([]bool, len(lines))
	for i, l := range lines {
		if merged[i] {
			continue
		}
		var best *line
		bestD := math.Inf(1)
		for j := i - 1; j >= 0 && lines[j].y-l.y < 1.2*math.Max(lines[j].size, l.size); j-- {
			if h := lines[j]; !merged[j] && isScriptOf(l, h) && math.Abs(h.y-l.y) < bestD {
				best, bestD = h, math.Abs(h.y-l.y)
			}
		}
		for j := i + 1; j < len(lines) && l.y-lines[j].y < 1.2*math.Max(lines[j].size, l.size); j++ {
			if h := lines[j]; !merged[j] && isScriptOf(l, h) && math.Abs(h.y-l.y) < bestD {
				best, bestD = h, math.Abs(h.y-l.y)
			}
		}
		if best != nil {
			best.words = append(best.words, l.words...)
			merged[i] = true
			best.measure()
		}
	}
	out := lines[:0]
	for i, l := range lines {
		if !merged[i] {
			out = append(out, l)
		}
	}
	return out
}

func isScriptOf(s, h *line) bool {
	if s.size > h.size*0.92 || len(s.words) > 6 {
		return false
	}
	dy := s.y - h.y
	if dy > 0.6*h.size || dy < -0.35*h.size {
		return false
	}
	return s.x0 > h.x0-0.6*h.size && s.x1 < h.x1+0.6*h.size+(s.x1-s.x0)
}

// finish orders the words and builds the line text, spacing by gaps.
func (l *line) finish() {
	sort.SliceStable(l.words, func(i, j int) bool { return l.words[i].x0 < l.words[j].x0 })
	l.words = mergeOverstrikes(l.words)
	var sb strings.Builder
	bold, total := 0, 0
	for i, w := range l.words {
		if i > 0 {
			prev := l.words[i-1]
			// Like pdftotext, a change of baseline (sub- and superscripts)
			// separates words even without a gap.
			if w.x0-prev.x1 > wordGap*math.Max(w.size, prev.size) || scriptEndsWord(prev, w, l.y, l.size) || w.frag || prev.frag {
				sb.WriteByte(' ')
			}
		}
		sb.WriteString(w.text)
		total += w.nchars
		if w.bold {
			bold += w.nchars
		}
	}
	l.text = sb.String()
	l.bold = total > 0 && bold*10 >= total*8
}

// buildBlocks groups lines, top to bottom, into blocks of evenly spaced,
// horizontally overlapping lines of similar size: paragraphs or runs of
// paragraphs within one column.
func buildBlocks(lines []*line) []*block {
	sort.SliceStable(lines, func(i, j int) bool {
		if lines[i].y != lines[j].y {
			return lines[i].y > lines[j].y
		}
		return lines[i].x0 < lines[j].x0
	})
	var blocks []*block
	var active []*block
	for _, l := range lines {
		var best *block
		bestScore := math.Inf(1)
		keep := active[:0]
		for _, b := range active {
			last := b.last()
			if last.y-l.y > 3*math.Max(last.size, l.size) {
				continue // too far above to ever continue
			}
			keep = append(keep, b)
			dy := last.y - l.y
			sz := math.Max(last.size, l.size)
			if dy < 0.6*sz || dy > leading*sz {
				continue
			}
			if l.size > last.size*1.25 || last.size > l.size*1.25 {
				continue
			}
			ov := math.Min(l.x1, last.x1) - math.Max(l.x0, last.x0)
			if ov <= 0 {
				continue
			}
			// A line much wider than the block (or the reverse) usually
			// means a column line under a full-width caption or title.
			wl, wb := l.x1-l.x0, b.x1-b.x0
			if ov < 0.5*math.Min(wl, wb) {
				continue
			}
			score := dy - 0.001*ov
			if score < bestScore {
				best, bestScore = b, score
			}
		}
		active = keep
		if best == nil {
			best = &block{}
			blocks = append(blocks, best)
			active = append(active, best)
		}
		best.add(l)
	}
	return blocks
}

// dominantSize is the font size of most characters in ls.
func dominantSize(ls []*line) float64 {
	count := map[float64]int{}
	best, bestN := 0.0, -1
	for _, l := range ls {
		count[l.size] += len(l.text)
		if n := count[l.size]; n > bestN {
			best, bestN = l.size, n
		}
	}
	return best
}

// dominantLineSize is the size of most characters in ls.
func dominantLineSize(ls []*line) float64 {
	count := map[float64]int{}
	best, bestN := 0.0, -1
	for _, l := range ls {
		count[l.size] += l.chars()
		if n := count[l.size]; n > bestN || n == bestN && l.size > best {
			best, bestN = l.size, n
		}
	}
	return best
}

// prosePiece reports a piece of running text: body size, two thirds of its
// characters letters.
func prosePiece(l *line, body float64) bool {
	if l.size < 0.92*body {
		return false
	}
	letters, runes := 0, 0
	for _, w := range l.words {
		for _, r := range w.text {
			runes++
			if unicode.IsLetter(r) {
				letters++
			}
		}
	}
	return letters > 0 && 3*letters >= 2*runes
}
