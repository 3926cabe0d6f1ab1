package report

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// The charts are laid out here, before any browser sees them: text is
// measured from a table of glyph widths, and labels, legends and axis
// labels are placed so that no two texts share a pixel and none leaves
// its drawing.

// box is a rectangle in a chart's coordinates: x grows right, y down.
type box struct{ x0, y0, x1, y1 float64 }

func (a box) overlaps(b box) bool {
	return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

func (a box) within(b box) bool {
	return a.x0 >= b.x0 && a.x1 <= b.x1 && a.y0 >= b.y0 && a.y1 <= b.y1
}

// grow is a with d more on every side.
func (a box) grow(d float64) box { return box{a.x0 - d, a.y0 - d, a.x1 + d, a.y1 + d} }

// glyphWidths are the advance widths of printable ASCII (space to ~), in
// thousandths of an em: per character the wider of DejaVu Sans, the
// widest of the common default sans-serif fonts (and Linux's system-ui),
// and Liberation Sans (Arial's metrics), measured in Chromium. The report
// names no font, so the figures must hold in whichever the reader's
// browser picks; Segoe UI, San Francisco and Helvetica are narrower.
var glyphWidths = [95]uint16{
	318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, // space to /
	636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 556, // 0 to ?
	1015, 684, 686, 722, 770, 667, 611, 778, 752, 295, 500, 667, 557, 863, 748, 787, // @ to O
	667, 787, 722, 667, 611, 732, 684, 989, 685, 667, 685, 390, 337, 390, 838, 556, // P to _
	500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, // ` to o
	635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838, // p to ~
}

// Text metrics, in ems, rounded up from DejaVu Sans (ascent 0.928,
// descent 0.236): the box a browser gives an SVG text runs from the
// font's ascent above the baseline to its descent below it.
const (
	textAscent  = 0.95
	textDescent = 0.25
	// textSlack covers kerning and rounding the table does not see.
	textSlack = 1.03
)

// textWidth estimates the width of s at size px, erring wide: a
// character outside the table (CJK, symbols) counts a full em, which is
// as wide as any of those glyphs in common fonts.
func textWidth(s string, size float64) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case r >= ' ' && r <= '~':
			w += float64(glyphWidths[r-' ']) / 1000
		case r == '·' || r == '–':
			w += 0.6
		default:
			w++
		}
	}
	return w*size*textSlack + 1
}

// textBox is the box of s drawn at baseline (x, y) with the given anchor.
func textBox(x, y float64, s, anchor string, size float64) box {
	w := textWidth(s, size)
	switch anchor {
	case "end":
		x -= w
	case "middle":
		x -= w / 2
	}
	return box{x, y - textAscent*size, x + w, y + textDescent*size}
}

// textHeight is the height of one line of text at size.
func textHeight(size float64) float64 { return (textAscent + textDescent) * size }

// wrapText breaks s into lines no wider than maxW at size, at spaces, or
// after a hyphen, slash, comma or opening bracket when a word alone is too
// wide; a word with no such place is cut where it must be.
func wrapText(s string, size, maxW float64) []string {
	if textWidth(s, size) <= maxW {
		return []string{s}
	}
	var lines []string
	line := ""
	for _, tok := range breakTokens(s) {
		cand := line + tok
		if line != "" && textWidth(strings.TrimRight(cand, " "), size) > maxW {
			lines = append(lines, strings.TrimRight(line, " "))
			cand = strings.TrimLeft(tok, " ")
		}
		// A piece wider than a line on its own is cut by characters.
		for textWidth(strings.TrimRight(cand, " "), size) > maxW {
			head := cutToWidth(cand, size, maxW)
			lines = append(lines, head)
			cand = cand[len(head):]
		}
		line = cand
	}
	if l := strings.TrimRight(line, " "); l != "" {
		lines = append(lines, l)
	}
	return lines
}

// breakTokens splits s after each space, hyphen, slash, comma or opening
// bracket: the places a line may end.
func breakTokens(s string) []string {
	var toks []string
	start := 0
	for i, r := range s {
		if strings.ContainsRune(" -/,(", r) {
			toks = append(toks, s[start:i+len(string(r))])
			start = i + len(string(r))
		}
	}
	if start < len(s) {
		toks = append(toks, s[start:])
	}
	return toks
}

// cutToWidth is the longest prefix of s (at least one character) no wider
// than maxW.
func cutToWidth(s string, size, maxW float64) string {
	end := 0
	for i, r := range s {
		next := i + len(string(r))
		if end > 0 && textWidth(s[:next], size) > maxW {
			break
		}
		end = next
	}
	return s[:end]
}

// labelGap is the space between a marker's edge and its label.
const labelGap = 3.0

// labelRing is how much further out each ring of leader-line places lies.
const labelRing = 14.0

// labelSpot is where a label goes: its baseline point and anchor, its box,
// and the leader line from the marker when it sits away from it.
type labelSpot struct {
	x, y   float64
	anchor string
	box    box
	leader *sLine
}

// labeler places point labels greedily, in a fixed order of labels and
// of places, so that the same chart always comes out the same: each label
// goes to the first place around its point that stays inside area and
// clear of every marker, label and fixed text placed before it. Near the
// point first (right, left, above, below, the diagonals); then, for the
// labels with no room there, on rings further out joined to the point by
// a leader line.
type labeler struct {
	area  box
	taken []box
	// labels are the placed labels' boxes and leaders their leader
	// lines: a leader line may cross a marker, but not a label or another
	// leader line.
	labels  []box
	leaders []sLine
	size    float64
}

// avoid adds obstacles labels must keep clear of: markers, fixed texts.
func (l *labeler) avoid(b ...box) { l.taken = append(l.taken, b...) }

// labelAt is a label to place at a marker of radius r centred on (x, y).
type labelAt struct {
	x, y, r float64
	text    string
}

// The passes of placeAll, each for the labels the ones before left
// unplaced: beside the point; then on a leader line that passes no marker,
// label or other leader; then one that passes markers but no label; last
// one that passes labels too (a thin grey line across a word, better than
// no label in the plot) but still no other leader.
const (
	passBeside = iota
	passClear
	passMarkers
	passLabels
	passes
)

// placeAll places the labels and returns where each went; ok[i] is false
// for a label with no room anywhere in the area. Every label that fits
// beside its point is placed before any is sent away on a leader line,
// which would otherwise take a later point's only place beside it.
func (l *labeler) placeAll(ls []labelAt) (spots []labelSpot, ok []bool) {
	spots, ok = make([]labelSpot, len(ls)), make([]bool, len(ls))
	th := textHeight(l.size)
	for pass := range passes {
		for i, a := range ls {
			if ok[i] {
				continue
			}
			for _, c := range labelCandidates(a.x, a.y, a.r, textWidth(a.text, l.size), th, l.area, pass > passBeside) {
				if !l.free(c) || !l.leaderOK(c, a.x, a.y, pass) {
					continue
				}
				l.take(c)
				c.y += textAscent*l.size - th/2 // from the box's middle to the baseline
				spots[i], ok[i] = c, true
				break
			}
		}
	}
	return spots, ok
}

// take marks a placed label's box and leader line as taken.
func (l *labeler) take(c labelSpot) {
	l.taken = append(l.taken, c.box)
	l.labels = append(l.labels, c.box)
	if c.leader != nil {
		l.leaders = append(l.leaders, *c.leader)
	}
}

// free reports whether a candidate's box stays in the area, clear of
// what was placed and of the leader lines drawn.
func (l *labeler) free(c labelSpot) bool {
	if !c.box.within(l.area) {
		return false
	}
	// A label away from its point keeps a little further from other
	// markers, lest it read as theirs.
	clear := 1.0
	if c.leader != nil {
		clear = 4
	}
	for _, o := range l.taken {
		if o.overlaps(c.box.grow(clear)) {
			return false
		}
	}
	for _, ld := range l.leaders {
		if segmentCrosses(ld.X1, ld.Y1, ld.X2, ld.Y2, c.box.grow(1)) {
			return false
		}
	}
	return true
}

// leaderOK reports whether a candidate's leader line, if any, passes
// what the pass allows it to: never another leader; a label only in the
// last pass; a marker (or any obstacle but its own point's) from
// passMarkers on.
func (l *labeler) leaderOK(c labelSpot, px, py float64, pass int) bool {
	if c.leader == nil {
		return true
	}
	ld := *c.leader
	for _, o := range l.leaders {
		// Leaders of points a few pixels apart may cross where they
		// leave their markers, which no one sees.
		if segmentsCross(trimStart(ld, leaderTrim), trimStart(o, leaderTrim)) {
			return false
		}
	}
	crosses := func(bs []box) bool {
		for _, o := range bs {
			own := px >= o.x0 && px <= o.x1 && py >= o.y0 && py <= o.y1
			if !own && segmentCrosses(ld.X1, ld.Y1, ld.X2, ld.Y2, o) {
				return true
			}
		}
		return false
	}
	switch pass {
	case passClear:
		return !crosses(l.taken)
	case passMarkers:
		return !crosses(l.labels)
	}
	return true
}

// leaderTrim is how much of a leader line, from its marker, may cross
// another: about a marker's width.
const leaderTrim = 8.0

// trimStart is ln without its first d pixels (a point, if it is shorter).
func trimStart(ln sLine, d float64) sLine {
	n := math.Hypot(ln.X2-ln.X1, ln.Y2-ln.Y1)
	f := math.Min(1, d/math.Max(n, 1e-9))
	ln.X1, ln.Y1 = ln.X1+f*(ln.X2-ln.X1), ln.Y1+f*(ln.Y2-ln.Y1)
	return ln
}

// labelCandidates lists the places for a label tw × th at a marker of
// radius r at (px, py), nearest first: beside it, or with far the places
// further out (with leader lines): a column at either side, then rings. A candidate's y is the middle
// of its box (placeAll turns it into the baseline).
func labelCandidates(px, py, r, tw, th float64, area box, far bool) []labelSpot {
	d := r + labelGap
	if !far {
		near := []struct {
			dx, dy float64
			anchor string
		}{
			{d, 0, "start"}, {-d, 0, "end"},
			{0, -(d + th/2), "middle"}, {0, d + th/2, "middle"},
			{r, -(d + th/2), "start"}, {r, d + th/2, "start"},
			{-r, -(d + th/2), "end"}, {-r, d + th/2, "end"},
		}
		out := make([]labelSpot, len(near))
		for i, n := range near {
			out[i] = spotAt(px+n.dx, py+n.dy, n.anchor, tw, th)
		}
		return out
	}
	// First a column beside the point, a line further up or down each
	// time, as a cluster's labels stack beside it; then rings.
	var out []labelSpot
	for k := 1.0; k <= 4; k++ {
		for _, dy := range []float64{-k * (th + 1), k * (th + 1)} {
			for _, dx := range []float64{d + labelGap, -d - labelGap} {
				anchor := "start"
				if dx < 0 {
					anchor = "end"
				}
				s := spotAt(px+dx, py+dy, anchor, tw, th)
				x, y := nearestOn(s.box, px, py)
				a := math.Atan2(y-py, x-px)
				s.leader = &sLine{X1: px + r*math.Cos(a), Y1: py + r*math.Sin(a), X2: x, Y2: y, Stroke: "#999", Width: 0.8}
				out = append(out, s)
			}
		}
	}
	// Rings far enough out to reach every corner of the area.
	reach := math.Hypot(math.Max(px-area.x0, area.x1-px), math.Max(py-area.y0, area.y1-py))
	for dist := d + labelRing; dist <= reach+labelRing; dist += labelRing {
		for _, a := range ringAngles(dist) {
			out = append(out, ringSpot(px, py, r, dist, a, tw, th))
		}
	}
	return out
}

// ringSpot is the place dist from (px, py) in direction a (radians) for a
// label tw × th, with its leader line from the marker's edge to the
// label's nearest point.
func ringSpot(px, py, r, dist, a, tw, th float64) labelSpot {
	ax, ay := px+dist*math.Cos(a), py+dist*math.Sin(a)
	anchor := "middle"
	switch c := math.Cos(a); {
	case c > 0.38:
		anchor = "start"
	case c < -0.38:
		anchor = "end"
	default:
		// Straight above or below: the box's near edge at the ring.
		ay += math.Copysign(th/2, math.Sin(a))
	}
	s := spotAt(ax, ay, anchor, tw, th)
	x, y := nearestOn(s.box, px, py)
	s.leader = &sLine{X1: px + r*math.Cos(a), Y1: py + r*math.Sin(a), X2: x, Y2: y, Stroke: "#999", Width: 0.8}
	return s
}

// ringAngles are the directions tried on a ring dist from the point, in
// radians: about one per labelRing of its circumference (at least 16),
// the most nearly horizontal first, where a label's long side lies along
// the ring; right before left and above before below among equals.
func ringAngles(dist float64) []float64 {
	n := max(16, int(2*math.Pi*dist/labelRing))
	as := make([]float64, n)
	for j := range as {
		as[j] = 2 * math.Pi * float64(j) / float64(n)
	}
	slices.SortStableFunc(as, func(a, b float64) int {
		if c := cmp.Compare(math.Round(1000*math.Abs(math.Sin(a))), math.Round(1000*math.Abs(math.Sin(b)))); c != 0 {
			return c
		}
		if c := cmp.Compare(math.Round(1000*math.Cos(b)), math.Round(1000*math.Cos(a))); c != 0 {
			return c
		}
		return cmp.Compare(math.Sin(a), math.Sin(b))
	})
	return as
}

// spotAt is a label whose anchor point is (x, y), y its middle.
func spotAt(x, y float64, anchor string, tw, th float64) labelSpot {
	x0 := x
	switch anchor {
	case "end":
		x0 = x - tw
	case "middle":
		x0 = x - tw/2
	}
	return labelSpot{x: x, y: y, anchor: anchor, box: box{x0, y - th/2, x0 + tw, y + th/2}}
}

// nearestOn is the point of b nearest to (x, y): where a leader line ends.
func nearestOn(b box, x, y float64) (float64, float64) {
	return math.Max(b.x0, math.Min(x, b.x1)), math.Max(b.y0, math.Min(y, b.y1))
}

// segmentsCross reports whether two leader lines cross; lines that only
// meet at an end (two labels of one point) do not.
func segmentsCross(a, b sLine) bool {
	side := func(x1, y1, x2, y2, x, y float64) float64 { return (x2-x1)*(y-y1) - (y2-y1)*(x-x1) }
	d1 := side(a.X1, a.Y1, a.X2, a.Y2, b.X1, b.Y1)
	d2 := side(a.X1, a.Y1, a.X2, a.Y2, b.X2, b.Y2)
	d3 := side(b.X1, b.Y1, b.X2, b.Y2, a.X1, a.Y1)
	d4 := side(b.X1, b.Y1, b.X2, b.Y2, a.X2, a.Y2)
	return d1*d2 < 0 && d3*d4 < 0
}

// segmentCrosses reports whether the segment from (x1, y1) to (x2, y2)
// passes through the inside of b (touching its edge does not count), by
// clipping the segment to b (Liang–Barsky).
func segmentCrosses(x1, y1, x2, y2 float64, b box) bool {
	b = b.grow(-0.5)
	t0, t1 := 0.0, 1.0
	dx, dy := x2-x1, y2-y1
	for _, e := range [4][2]float64{{-dx, x1 - b.x0}, {dx, b.x1 - x1}, {-dy, y1 - b.y0}, {dy, b.y1 - y1}} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = math.Max(t0, t)
		} else {
			t1 = math.Min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}
