package pdftext

import (
	"math"
	"sort"
)

// orderBlocks puts a page's blocks into reading order.
//
// The page is first cut into horizontal bands at full-width white space
// (title and author area, full-width figures), but never where both sides of
// the cut are the same two-column flow: LaTeX aligns baselines across
// columns, so both columns often have a gap at the same height, and cutting
// there would interleave the columns. Inside a band, blocks are sorted
// topologically with Breuel's rules (2003): a comes before b if they overlap
// horizontally and a is above b, or if a is left of b and no block between
// them vertically overlaps both.
func orderBlocks(blocks []*block, cols columns, body float64) []*block {
	if len(blocks) < 2 {
		return blocks
	}
	sort.SliceStable(blocks, func(i, j int) bool { return blocks[i].top > blocks[j].top })

	var out []*block
	start := 0
	bottom := blocks[0].bottom
	for k := 1; k <= len(blocks); k++ {
		if k < len(blocks) {
			if blocks[k].top > bottom-0.5*body {
				bottom = math.Min(bottom, blocks[k].bottom)
				continue
			}
			if cols.ok && cols.sameFlow(blocks[start:k], blocks[k:], body) {
				bottom = math.Min(bottom, blocks[k].bottom)
				continue
			}
		}
		out = append(out, topoOrder(blocks[start:k])...)
		if k < len(blocks) {
			start = k
			bottom = blocks[k].bottom
		}
	}
	return out
}

// bodySize is the font size carrying the most characters.
func bodySize(blocks []*block) float64 {
	count := map[float64]int{}
	for _, b := range blocks {
		for _, l := range b.lines {
			count[l.size] += len(l.text)
		}
	}
	best, bestN := 10.0, -1
	for s, n := range count {
		if n > bestN || n == bestN && s < best {
			best, bestN = s, n
		}
	}
	return best
}

// columns describes a two-column page: the gutter [gl, gr], the usual
// left edge of text in each column, and the edge most lines of the left
// column end at (leftR), which a stray wider line (an author block set
// across the page) does not move.
type columns struct {
	ok            bool
	gl, gr        float64
	leftX, rightX float64
	leftR         float64
	// top and bottom are the baselines of the first and last long line
	// of the column region; a title block above it is not in columns.
	top, bottom float64
}

// findGutter looks for a vertical strip near the middle of the page that
// separates two columns of text: for each candidate x, the long lines are
// taken top to bottom and the stretch between two lines crossing x that
// holds most lines beside it on both sides is the column region; the x
// with the fullest region wins.
//
// Looking for the best stretch rather than counting every crossing line
// lets the columns stand under a full-width title, author block and
// abstract, and above or below a full-width table or figure with its
// caption, which together may well outnumber the column lines on the
// page. The region must hold a quarter of the page's long lines, and the
// median line beside the strip on each side must be at least a quarter of
// the page wide, so that the narrow cells of a table under single-column
// text do not pass for columns.
func findGutter(lines []*line, pageWidth float64) columns {
	type span struct{ x0, x1, y float64 }
	var spans []span
	for _, l := range lines {
		if l.chars() >= 15 {
			spans = append(spans, span{l.x0, l.x1, l.y})
		}
	}
	if len(spans) < 8 {
		return columns{}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].y > spans[j].y })
	bestX, bestN := 0.0, 0
	var bestTop, bestBottom float64
	var lw, rw []float64
	for x := 0.35 * pageWidth; x <= 0.65*pageWidth; x += 2 {
		left, right, n := 0, 0, 0
		var top, bottom float64
		from := 0
		flush := func(to int) {
			if left >= 3 && right >= 3 && left+right > n {
				// Widths are only gathered for a candidate region.
				lw, rw = lw[:0], rw[:0]
				for _, s := range spans[from:to] {
					if s.x1 <= x {
						lw = append(lw, s.x1-s.x0)
					} else {
						rw = append(rw, s.x1-s.x0)
					}
				}
				if median(lw) >= 0.25*pageWidth && median(rw) >= 0.25*pageWidth {
					n = left + right
					top, bottom = spans[from].y, spans[to-1].y
				}
			}
			left, right = 0, 0
		}
		for i, s := range spans {
			switch {
			case s.x0 < x && s.x1 > x:
				flush(i)
				from = i + 1
			case s.x1 <= x:
				left++
			default:
				right++
			}
		}
		flush(len(spans))
		if n > bestN {
			bestX, bestN = x, n
			bestTop, bestBottom = top, bottom
		}
	}
	if bestN < 8 || bestN*4 < len(spans) {
		return columns{}
	}
	// Widen the strip to the nearest text on each side, and find the left
	// edge most lines of each column start at.
	c := columns{ok: true, gl: 0, gr: pageWidth, top: bestTop, bottom: bestBottom}
	leftEdges, rightEdges, leftEnds := map[int]int{}, map[int]int{}, map[int]int{}
	for _, s := range spans {
		if s.x1 <= bestX {
			c.gl = math.Max(c.gl, s.x1)
			leftEdges[int(math.Round(s.x0))]++
			leftEnds[-int(math.Round(s.x1))]++
		}
		if s.x0 >= bestX {
			c.gr = math.Min(c.gr, s.x0)
			rightEdges[int(math.Round(s.x0))]++
		}
	}
	c.leftX, c.rightX = float64(leftEdge(leftEdges)), float64(leftEdge(rightEdges))
	c.leftR = math.Min(c.gl, float64(-leftEdge(leftEnds)))
	return c
}

// median returns the median of xs, which it sorts.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sort.Float64s(xs)
	return xs[len(xs)/2]
}

// leftEdge is the smallest x at which several lines start: the column's
// margin, even where indented lines (hanging indents, first lines) are the
// majority.
func leftEdge(m map[int]int) int {
	total := 0
	for _, n := range m {
		total += n
	}
	best := math.MaxInt
	for k, n := range m {
		if (n >= 3 || n*5 >= total) && k < best {
			best = k
		}
	}
	if best == math.MaxInt {
		for k := range m {
			best = min(best, k)
		}
	}
	return best
}

// side tells where a block lies against the gutter: -1 in the left
// column, 1 in the right one, 0 across both (a full-width element).
func (c columns) side(b *block, body float64) int {
	switch {
	case b.x1 <= c.leftR+0.5*body:
		return -1
	case b.x0 >= c.gr-0.5*body:
		return 1
	}
	return 0
}

// sameFlow reports whether the column flow runs across a horizontal cut,
// in which case the cut must not be made: running text of the right
// column lies above it and running text of the left column below it, so reading everything
// above first would put the right column before the end of the left one.
// Only blocks between the cut and the nearest full-width element on
// either side count: an e-mail column beside a full-width author block,
// or a right column under a full-width figure below the cut, belong to
// other bands.
func (c columns) sameFlow(above, below []*block, body float64) bool {
	floor := math.Inf(1)
	for _, b := range above {
		if c.side(b, body) == 0 {
			floor = math.Min(floor, b.bottom)
		}
	}
	right := false
	for _, b := range above {
		if c.side(b, body) == 1 && b.top <= floor+0.5*body && running(b, body) {
			right = true
			break
		}
	}
	if !right {
		return false
	}
	ceil := math.Inf(-1)
	for _, b := range below {
		if c.side(b, body) == 0 {
			ceil = math.Max(ceil, b.top)
		}
	}
	for _, b := range below {
		if c.side(b, body) == -1 && b.bottom >= ceil-0.5*body && running(b, body) {
			return true
		}
	}
	return false
}

// running reports a block of running text: most of its characters are in
// lines of prose at the body size. The cells of a full-width table, split
// by the gutter into a left and a right half, are not, and must not hold
// the cut under the table.
func running(b *block, body float64) bool {
	prose, all := 0, 0
	for _, l := range b.lines {
		n := l.chars()
		all += n
		if prosePiece(l, body) {
			prose += n
		}
	}
	return prose*2 > all
}

// topoOrder applies Breuel's ordering rules to one band: it finds which
// block must be read before which (readBefore), then reads the blocks in
// an order that keeps every such rule, topmost-leftmost first among the
// free ones (readInOrder).
func topoOrder(bs []*block) []*block {
	n := len(bs)
	if n < 2 {
		return bs
	}
	if n > 250 {
		// Scattered figure labels: the cubic rule check would cost too much
		// and order matters little; read top to bottom, left to right.
		sort.SliceStable(bs, func(i, j int) bool {
			if math.Abs(bs[i].top-bs[j].top) > 2 {
				return bs[i].top > bs[j].top
			}
			return bs[i].x0 < bs[j].x0
		})
		return bs
	}
	before, indeg := readBefore(bs)
	return readInOrder(bs, before, indeg)
}

// orderTol is how far (in points) blocks may overlap and still count as
// side by side.
const orderTol = 1.0

// xOverlap reports blocks that overlap horizontally.
func xOverlap(a, b *block) bool { return math.Min(a.x1, b.x1)-math.Max(a.x0, b.x0) > orderTol }

// readBefore returns Breuel's precedence relation over bs: before[i][j]
// when block i must be read before block j, and each block's count of
// blocks that must come before it.
func readBefore(bs []*block) (before [][]bool, indeg []int) {
	n := len(bs)
	before = make([][]bool, n)
	for i := range before {
		before[i] = make([]bool, n)
	}
	indeg = make([]int, n)
	for i := range bs {
		for j := range bs {
			if i != j && precedes(bs, i, j) {
				before[i][j] = true
				indeg[j]++
			}
		}
	}
	return before, indeg
}

// precedes is Breuel's rule for two blocks: of blocks overlapping
// horizontally, the higher comes first (ties by position in bs); of blocks
// side by side, the left one comes first unless a block overlapping both
// lies between them vertically (a full-width heading or figure that
// separates two rows of columns).
func precedes(bs []*block, i, j int) bool {
	a, b := bs[i], bs[j]
	if xOverlap(a, b) {
		return a.top > b.top || a.top == b.top && i < j
	}
	if a.x1 > b.x0+orderTol {
		return false
	}
	ya, yb := a.cy(), b.cy()
	for k, c := range bs {
		if k == i || k == j {
			continue
		}
		if yc := c.cy(); yc < math.Max(ya, yb) && yc > math.Min(ya, yb) && xOverlap(c, a) && xOverlap(c, b) {
			return false
		}
	}
	return true
}

// readInOrder reads the blocks in an order that keeps before: each time
// the best (topmost, then leftmost) block that waits for none.
func readInOrder(bs []*block, before [][]bool, indeg []int) []*block {
	n := len(bs)
	done := make([]bool, n)
	out := make([]*block, 0, n)
	for len(out) < n {
		pick := nextFree(bs, done, indeg)
		done[pick] = true
		out = append(out, bs[pick])
		for j := 0; j < n; j++ {
			if before[pick][j] {
				indeg[j]--
			}
		}
	}
	return out
}

// nextFree returns the best block not yet read that waits for no other.
// In a cycle, made by fragments that interleave with a paragraph (a
// summation sign set on its own baseline beside a line), there is none:
// the cycle is broken where the fewest blocks still wait. Taking the
// topmost remaining block instead jumps to the top of the next column and
// leaves the rest of this one behind.
func nextFree(bs []*block, done []bool, indeg []int) int {
	pick := -1
	for i := range bs {
		if done[i] || indeg[i] > 0 {
			continue
		}
		if pick < 0 || better(bs[i], bs[pick]) {
			pick = i
		}
	}
	if pick >= 0 {
		return pick
	}
	for i := range bs {
		if !done[i] && (pick < 0 || indeg[i] < indeg[pick] || indeg[i] == indeg[pick] && better(bs[i], bs[pick])) {
			pick = i
		}
	}
	return pick
}

func better(a, b *block) bool {
	if math.Abs(a.top-b.top) > 1 {
		return a.top > b.top
	}
	return a.x0 < b.x0
}

func (b *block) cy() float64 { return (b.top + b.bottom) / 2 }
