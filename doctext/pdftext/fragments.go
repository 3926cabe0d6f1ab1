package pdftext

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/paperlens/paperlens/internal/lazyregexp"
)

// Mathematics breaks the line and block model: a summation sign, its
// limits and a fraction's numerator sit on baselines of their own, so they
// come out of buildBlocks as tiny blocks of their own. Inside a paragraph
// such a block ("Σ_a" in front of a line) ties the topological order into
// a cycle with the paragraph; between paragraphs, a display equation is
// a scatter of blocks that Breuel's rules read partly beside the next
// column. absorbFragments puts the first kind back into their line, and
// groupDisplays gathers the second kind into one block that is read as a
// whole where it stands.

// isFragment reports a block too small to be a paragraph or heading of its
// own: at most two lines, none longer than a few characters.
func isFragment(b *block) bool {
	if len(b.lines) > 2 {
		return false
	}
	for _, l := range b.lines {
		if l.chars() > 6 {
			return false
		}
	}
	return true
}

// absorbFragments moves fragments, and inline formulas in script size,
// lying inside a paragraph's box into the paragraph's line they fit into: the nearest line, within about an em,
// whose words leave room for them. A fragment in a smaller size (a limit
// or a second-level subscript) may overlap its line's words, as scripts
// do. It returns the blocks left.
func absorbFragments(blocks []*block) []*block {
	out := blocks[:0]
	var hosts []*block
	for _, b := range blocks {
		if len(b.lines) >= 2 && !isFragment(b) {
			hosts = append(hosts, b)
		}
	}
	for _, f := range blocks {
		if len(f.lines) > 2 || !absorb(f, hosts) {
			out = append(out, f)
		}
	}
	return out
}

// absorb moves f into the host whose box holds f's centre, if f is a
// fragment or set in script size (an inline fraction), and reports
// whether it did.
func absorb(f *block, hosts []*block) bool {
	cx, cy := (f.x0+f.x1)/2, f.cy()
	var host *block
	for _, h := range hosts {
		if h != f && cx > h.x0 && cx < h.x1 && cy > h.bottom && cy < h.top {
			host = h
			break
		}
	}
	if host == nil || !isFragment(f) && f.size > 0.8*host.size {
		return false
	}
	targets := make([]*line, len(f.lines))
	for i, fl := range f.lines {
		var best *line
		bestD := math.Inf(1)
		for _, l := range host.lines {
			d := math.Abs(l.y - fl.y)
			if d >= 1.2*l.size || d >= bestD {
				continue
			}
			if fl.size >= 0.8*l.size && wordsOverlap(l, fl) {
				continue
			}
			best, bestD = l, d
		}
		if best == nil {
			return false
		}
		targets[i] = best
	}
	for i, fl := range f.lines {
		t := targets[i]
		// The fragment's line goes in as one piece set apart by spaces:
		// its words interleaved with the line's by position would glue a
		// numerator to its denominator. measure takes the baseline from
		// the dominant size, so the piece does not move the line.
		// All pieces start at the fragment's left edge, so that a
		// numerator stays before its denominator.
		t.words = append(t.words, word{x0: f.x0, x1: fl.x1, y: fl.y, size: fl.size,
			text: fl.text, nchars: fl.chars(), frag: true})
		t.measure()
		t.finish()
	}
	return true
}

// wordsOverlap reports whether a word of f lies over a word of l.
func wordsOverlap(l, f *line) bool {
	for _, a := range f.words {
		for _, b := range l.words {
			if math.Min(a.x1, b.x1)-math.Max(a.x0, b.x0) > 0.5 {
				return true
			}
		}
	}
	return false
}

// groupDisplays merges blocks on the same side of the gutter into one
// block, repeatedly, while a pair is joinable: the pieces of a display
// equation, read top to bottom and left to right where the equation
// stands. Two paragraphs are never merged, nor is a caption.
func groupDisplays(blocks []*block, cols columns, body float64) []*block {
	// Merging repeats the pairwise test after each merge: on a page of
	// hundreds of scattered plot labels that is cubic, and, as in
	// topoOrder, their order matters little.
	if len(blocks) < 2 || len(blocks) > maxDisplayBlocks {
		return blocks
	}
	side := func(b *block) int {
		if !cols.ok {
			return 0
		}
		return cols.side(b, body)
	}
	bs := append([]*block(nil), blocks...)
	for merged := true; merged; {
		merged = false
		for i := 0; i < len(bs); i++ {
			for j := i + 1; j < len(bs); j++ {
				if bs[i].side == bs[j].side && side(bs[i]) == side(bs[j]) && (joinable(bs[i], bs[j]) || tableColumns(bs[i], bs[j], body)) {
					bs[i] = mergeBlocks(bs[i], bs[j])
					bs = append(bs[:j], bs[j+1:]...)
					j = i
					merged = true
				}
			}
		}
	}
	return bs
}

const maxDisplayBlocks = 400

// joinable reports two pieces of one display: a fragment overlapping the
// other block vertically within half an em (not at all for a paragraph,
// whose neighbours below are the display under it) and coming within 2 em
// horizontally, or two short blocks (at most two lines, or displays
// already gathered) overlapping vertically within 0.2 em and coming within
// an em, as a formula broken at wide spaces is.
func joinable(a, b *block) bool {
	if isCaption(a) || isCaption(b) {
		return false
	}
	para := func(x *block) bool { return !x.display && len(x.lines) > 2 }
	if para(a) && para(b) {
		return false
	}
	sz := math.Max(a.size, b.size)
	gap := math.Max(a.x0, b.x0) - math.Min(a.x1, b.x1)
	vert := func(tol float64) bool { return a.bottom <= b.top+tol && b.bottom <= a.top+tol }
	switch {
	case isEqNumber(a) || isEqNumber(b):
		// An equation number stands at the column's edge, far from its
		// equation.
		return vert(0) && !para(a) && !para(b)
	case isFragment(a) || isFragment(b):
		tol := 0.5 * sz
		if para(a) || para(b) {
			tol = 0
		}
		return gap <= 2*sz && vert(tol)
	case !para(a) && !para(b):
		return gap <= sz && vert(0.2*sz)
	}
	return false
}

var (
	eqNumberRE    = lazyregexp.MustCompile(`^\(\d{1,3}[a-z]?\)$`)
	eqNumberEndRE = lazyregexp.MustCompile(`\(\d{1,3}[a-z]?\)$`)
)

// isEquation reports a display equation: a block without a line of
// words, of at most three lines or gathered from pieces, ending a line with an
// equation number or holding an equals sign or a large operator, and not
// mostly digits (a table of numbers with a "=" in a header).
func isEquation(b *block, body float64) bool {
	if !b.display && len(b.lines) > 3 {
		return false
	}
	for _, l := range b.lines {
		if wordy(l) {
			return false
		}
	}
	maths, digits, all := false, 0, 0
	for _, l := range b.lines {
		t := strings.TrimSpace(l.text)
		if eqNumberEndRE.MatchString(t) {
			maths = true
		}
		for _, r := range t {
			switch {
			case r == '=' || r == '∑' || r == '∫' || r == '∏':
				maths = true
			case r >= '0' && r <= '9':
				digits++
			}
			if r != ' ' {
				all++
			}
		}
	}
	return maths && digits*2 < all
}

func isEqNumber(b *block) bool {
	return len(b.lines) == 1 && eqNumberRE.MatchString(strings.TrimSpace(b.lines[0].text))
}

// tableColumns reports two columns of one table: side by side within 3 em,
// each of two lines or more, most baselines of the shorter one shared with
// the other, and not both running text, so that the two columns of a page
// whose gutter was not found, or two authors' addresses, are never read
// across.
func tableColumns(a, b *block, body float64) bool {
	if len(a.lines) < 2 || len(b.lines) < 2 || isCaption(a) || isCaption(b) {
		return false
	}
	if a.x1 > b.x0 && b.x1 > a.x0 {
		return false // one above the other
	}
	sz := math.Max(a.size, b.size)
	if math.Max(a.x0, b.x0)-math.Min(a.x1, b.x1) > 3*sz {
		return false
	}
	// Two blocks of running text side by side are authors' addresses or
	// columns, read one after the other; a table has a column of numbers.
	if !a.display && !b.display && running(a, body) && running(b, body) {
		return false
	}
	short, long := a, b
	if len(short.lines) > len(long.lines) {
		short, long = long, short
	}
	shared := 0
	for _, l := range short.lines {
		for _, m := range long.lines {
			if math.Abs(l.y-m.y) < 0.2*sz {
				shared++
				break
			}
		}
	}
	return shared*5 >= len(short.lines)*3
}

func isCaption(b *block) bool {
	return captionRE.MatchString(strings.TrimSpace(b.lines[0].text))
}

// mergeBlocks makes one display block of a and b, its lines in rows.
func mergeBlocks(a, b *block) *block {
	ls := append(append([]*line(nil), a.lines...), b.lines...)
	m := &block{side: a.side, display: true}
	for _, l := range rows(ls) {
		m.add(l)
	}
	m.size = dominantSize(m.lines)
	return m
}

// rows orders lines top to bottom, and lines on one baseline (within a
// quarter of their size) left to right.
func rows(ls []*line) []*line {
	sort.SliceStable(ls, func(i, j int) bool { return ls[i].y > ls[j].y })
	for i := 0; i < len(ls); {
		j := i + 1
		for j < len(ls) && ls[i].y-ls[j].y <= 0.25*math.Min(ls[i].size, ls[j].size) {
			j++
		}
		row := ls[i:j]
		sort.SliceStable(row, func(a, b int) bool { return row[a].x0 < row[b].x0 })
		i = j
	}
	return ls
}

// wordy reports a line of running words: four or more words of three
// letters or more.
func wordy(l *line) bool {
	n := 0
	for _, w := range strings.Fields(l.text) {
		letters := 0
		for _, r := range w {
			if unicode.IsLetter(r) {
				letters++
			}
		}
		if letters >= 3 {
			n++
		}
	}
	return n >= 4
}

// markFloats marks the blocks of each table or figure that has a caption:
// starting from the caption, blocks overlapping the region horizontally
// and within 3 em of it vertically join it, except paragraphs (running
// text at least 70% of a column wide, or mostly lines of four words or
// more), headings, equations and other captions. A table's column of
// model names is running text, but narrow and in short lines.
func markFloats(blocks []*block, cols columns, body float64) {
	colW := 0.0
	if cols.ok {
		colW = cols.leftR - cols.leftX
	} else {
		x0, x1 := math.Inf(1), math.Inf(-1)
		for _, b := range blocks {
			x0, x1 = math.Min(x0, b.x0), math.Max(x1, b.x1)
		}
		colW = x1 - x0
	}
	stop := func(b *block) bool {
		if isCaption(b) || b.equation || b.side {
			return true
		}
		if b.display {
			// Gathered from pieces on shared baselines: a table's
			// columns, even with a row name as wide as a paragraph.
			return false
		}
		if !running(b, body) {
			return false
		}
		words := 0
		for _, l := range b.lines {
			if wordy(l) {
				words++
			}
		}
		return words*2 >= len(b.lines) || b.x1-b.x0 >= 0.7*colW || isHeading(b.lines[0], len(b.lines), body)
	}
	in := make([]bool, len(blocks))
	for _, c := range blocks {
		if !isCaption(c) || c.side {
			continue
		}
		for i := range in {
			in[i] = false
		}
		x0, x1, lo, hi := c.x0, c.x1, c.bottom, c.top
		for grown := true; grown; {
			grown = false
			for i, b := range blocks {
				if in[i] || b == c || stop(b) {
					continue
				}
				if math.Min(b.x1, x1)-math.Max(b.x0, x0) <= 0 {
					continue
				}
				if b.top < lo-3*body || b.bottom > hi+3*body {
					continue
				}
				in[i], grown = true, true
				b.float = true
				b.caption = c
				x0, x1 = math.Min(x0, b.x0), math.Max(x1, b.x1)
				lo, hi = math.Min(lo, b.bottom), math.Max(hi, b.top)
			}
		}
	}
}
