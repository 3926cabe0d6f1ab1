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
func orderBlocks(blocks []*block, pageWidth float64) []*block {
	if len(blocks) < 2 {
		return blocks
	}
	sort.SliceStable(blocks, func(i, j int) bool { return blocks[i].top > blocks[j].top })
	body := bodySize(blocks)
	var all []*line
	for _, b := range blocks {
		all = append(all, b.lines...)
	}
	cols := findGutter(all, pageWidth)

	var out []*block
	start := 0
	bottom := blocks[0].bottom
	for k := 1; k <= len(blocks); k++ {
		if k < len(blocks) {
			if blocks[k].top > bottom-0.5*body {
				bottom = math.Min(bottom, blocks[k].bottom)
				continue
			}
			if cols.ok && cols.sameFlow(blocks[start:k], blocks[k:], bottom, blocks[k].top, body) {
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

// columns describes a two-column page: the gutter [gl, gr] and the usual
// left edge of text in each column.
type columns struct {
	ok            bool
	gl, gr        float64
	leftX, rightX float64
}

// findGutter looks for a vertical strip near the middle of the page that
// separates two columns of text: many lines end left of it and many start
// right of it, and almost none cross it.
//
// "Almost none" is judged in two ways. Normally at most a fifth of all long
// lines may cross the strip. But a short page 1 may carry a full-width
// title, author block and abstract above the columns (or a wide figure
// caption below them) that outnumber that allowance although not one of
// them lies beside the columns. So lines crossing the strip entirely above
// or below the stretch where both columns have text are also excused, as
// long as the columns still carry at least as many lines as they do and
// almost nothing crosses the strip within that stretch. Without this, such
// a page had no gutter, and the pieces of a justified line split at its
// wide spaces were never rejoined (mergeFragments).
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
	bestX, bestCross := 0.0, len(spans)+1
	for x := 0.35 * pageWidth; x <= 0.65*pageWidth; x += 2 {
		cross, left, right := 0, 0, 0
		// The vertical stretch where both sides have text.
		lTop, lBot := math.Inf(-1), math.Inf(1)
		rTop, rBot := math.Inf(-1), math.Inf(1)
		for _, s := range spans {
			switch {
			case s.x0 < x && s.x1 > x:
				cross++
			case s.x1 <= x:
				left++
				lTop, lBot = math.Max(lTop, s.y), math.Min(lBot, s.y)
			default:
				right++
				rTop, rBot = math.Max(rTop, s.y), math.Min(rBot, s.y)
			}
		}
		if left < 3 || right < 3 || cross >= bestCross {
			continue
		}
		ok := cross <= len(spans)/5
		if !ok {
			top, bot := math.Min(lTop, rTop)+1, math.Max(lBot, rBot)-1
			crossIn, in := 0, 0
			var lw, rw []float64
			for _, s := range spans {
				if s.y <= top && s.y >= bot {
					in++
					if s.x0 < x && s.x1 > x {
						crossIn++
					}
				}
				switch {
				case s.x1 <= x:
					lw = append(lw, s.x1-s.x0)
				case s.x0 >= x:
					rw = append(rw, s.x1-s.x0)
				}
			}
			// The lines beside the strip must be lines of text columns,
			// not table cells or plot labels: the median one is at least a
			// quarter of the page wide.
			ok = crossIn <= in/5 && left+right >= cross-crossIn &&
				median(lw) >= 0.25*pageWidth && median(rw) >= 0.25*pageWidth
		}
		if ok {
			bestX, bestCross = x, cross
		}
	}
	if bestCross > len(spans) {
		return columns{}
	}
	// Widen the strip to the nearest text on each side, and find the left
	// edge most lines of each column start at.
	c := columns{ok: true, gl: 0, gr: pageWidth}
	leftEdges, rightEdges := map[int]int{}, map[int]int{}
	for _, s := range spans {
		if s.x1 <= bestX {
			c.gl = math.Max(c.gl, s.x1)
			leftEdges[int(math.Round(s.x0))]++
		}
		if s.x0 >= bestX {
			c.gr = math.Min(c.gr, s.x0)
			rightEdges[int(math.Round(s.x0))]++
		}
	}
	c.leftX, c.rightX = float64(leftEdge(leftEdges)), float64(leftEdge(rightEdges))
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

// sameFlow reports whether the blocks just above and just below a
// horizontal cut both belong to the column flow, in which case the cut
// must not be made. A side belongs to the flow when nothing near the cut
// crosses the gutter and some block starts at a column's usual left edge:
// paragraphs qualify, centred author blocks do not. A side with only the
// left column (the right one ended higher up) still continues the flow.
func (c columns) sameFlow(above, below []*block, cutTop, cutBottom, body float64) bool {
	flow := func(bs []*block, near func(*block) bool) bool {
		aligned := false
		for _, b := range bs {
			if !near(b) {
				continue
			}
			switch {
			case b.x1 <= c.gl+0.5*body:
				aligned = aligned || math.Abs(b.x0-c.leftX) < body
			case b.x0 >= c.gr-0.5*body:
				aligned = aligned || math.Abs(b.x0-c.rightX) < body
			default:
				return false // spans the gutter: a full-width element
			}
		}
		return aligned
	}
	reach := 4 * body
	return flow(above, func(b *block) bool { return b.bottom < cutTop+reach }) &&
		flow(below, func(b *block) bool { return b.top > cutBottom-reach })
}

// topoOrder applies Breuel's ordering rules to one band.
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
	const tol = 1.0
	xov := func(a, b *block) bool { return math.Min(a.x1, b.x1)-math.Max(a.x0, b.x0) > tol }
	before := make([][]bool, n)
	for i := range before {
		before[i] = make([]bool, n)
	}
	indeg := make([]int, n)
	for i, a := range bs {
		for j, b := range bs {
			if i == j {
				continue
			}
			ok := false
			if xov(a, b) {
				ok = a.top > b.top || a.top == b.top && i < j
			} else if a.x1 <= b.x0+tol {
				ok = true
				ya, yb := a.cy(), b.cy()
				for k, c := range bs {
					if k == i || k == j {
						continue
					}
					if yc := c.cy(); yc < math.Max(ya, yb) && yc > math.Min(ya, yb) && xov(c, a) && xov(c, b) {
						ok = false
						break
					}
				}
			}
			if ok {
				before[i][j] = true
				indeg[j]++
			}
		}
	}
	done := make([]bool, n)
	out := make([]*block, 0, n)
	for len(out) < n {
		pick := -1
		for i := 0; i < n; i++ {
			if done[i] || indeg[i] > 0 {
				continue
			}
			if pick < 0 || better(bs[i], bs[pick]) {
				pick = i
			}
		}
		if pick < 0 { // a cycle: take the best remaining block anyway
			for i := 0; i < n; i++ {
				if !done[i] && (pick < 0 || better(bs[i], bs[pick])) {
					pick = i
				}
			}
		}
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

func better(a, b *block) bool {
	if math.Abs(a.top-b.top) > 1 {
		return a.top > b.top
	}
	return a.x0 < b.x0
}

func (b *block) cy() float64 { return (b.top + b.bottom) / 2 }
