package report

import (
	"fmt"
	"math"
	"strings"
)

// seriesShapes give each series (run) its marker: two runs with equal
// values still show both, side by side and told apart by shape, and a
// reader without colour vision can tell every series apart.
var seriesShapes = []string{"circle", "square", "triangle", "diamond", "down", "hexagon"}

func seriesShape(i int) string { return seriesShapes[i%len(seriesShapes)] }

// markerShapes are the polygons: sides, the angle of the first vertex in
// degrees, and the vertex radius against the circle's radius (about the
// circle's area, a triangle a little more so it does not look smaller).
var markerShapes = map[string]struct{ sides, start, scale float64 }{
	"square":   {4, 45, 1.2},
	"triangle": {3, -90, 1.45},
	"diamond":  {4, 0, 1.35},
	"down":     {3, 90, 1.45},
	"hexagon":  {6, 0, 1.1},
}

// Polygon reports whether the marker is drawn as a polygon.
func (m sCircle) Polygon() bool { _, ok := markerShapes[m.Shape]; return ok }

// Points are the polygon's vertices for the points attribute, centred on
// (X, Y): their mean is the marker's centre, which a test reads back.
func (m sCircle) Points() string {
	s := markerShapes[m.Shape]
	var b strings.Builder
	for k := range int(s.sides) {
		a := (s.start + 360*float64(k)/s.sides) * math.Pi / 180
		if k > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%.1f,%.1f", m.X+m.R*s.scale*math.Cos(a), m.Y+m.R*s.scale*math.Sin(a))
	}
	return b.String()
}

// extent is the radius of the circle around the marker.
func (m sCircle) extent() float64 {
	if s, ok := markerShapes[m.Shape]; ok {
		return m.R * s.scale
	}
	return m.R
}

// legendItem is one series in a legend: its name, colour and shape.
type legendItem struct {
	Text, Colour, Shape string
}

// Legend sizes: the text's size, line and row spacing, and the widest its
// text may run before it wraps.
const (
	legendSize    = 11.0
	legendLine    = 13.0
	legendRow     = 18.0
	legendMaxText = 240.0
	// legendIndent is from the legend's left edge to its text.
	legendIndent = 16.0
)

// legendTextWidth is the width a legend's text takes: its widest label,
// up to legendMaxText (longer ones wrap).
func legendTextWidth(items []legendItem) float64 {
	w := 0.0
	for _, it := range items {
		w = math.Max(w, textWidth(it.Text, legendSize))
	}
	return math.Min(w, legendMaxText)
}

// drawLegend draws the items from (x, y) down, a marker then the name
// wrapped to textW, and returns the y below the last.
func drawLegend(c *chart, x, y float64, items []legendItem, textW float64) float64 {
	y += 10
	for _, it := range items {
		if it.Shape == "" {
			// A bar chart's series: a swatch of its colour.
			c.Rects = append(c.Rects, sRect{X: x, Y: y - 9, W: 10, H: 10, Fill: it.Colour, Title: it.Text})
		} else {
			c.Circles = append(c.Circles, sCircle{X: x + 5, Y: y - 4, R: 5, Fill: it.Colour, Shape: it.Shape, Title: it.Text})
		}
		lines := wrapText(it.Text, legendSize, textW)
		for i, l := range lines {
			c.Texts = append(c.Texts, sText{X: x + legendIndent, Y: y + legendLine*float64(i), Text: l, Anchor: "start", Size: legendSize, Fill: "#222", Class: "legend"})
		}
		y += legendRow + legendLine*float64(len(lines)-1)
	}
	return y
}

// pointLegend is the legend of a scatter's series, in the order their
// first points come.
func pointLegend(pts []scatterPoint) []legendItem {
	var items []legendItem
	seen := map[string]bool{}
	for _, p := range pts {
		if !seen[p.Series] {
			seen[p.Series] = true
			items = append(items, legendItem{Text: p.Series, Colour: p.Colour, Shape: p.Shape})
		}
	}
	return items
}

// frameWidth is a chart's width: the plot, then the legend in the right
// margin, at least minW so that short legends keep the usual size.
func frameWidth(left, pw float64, items []legendItem, minW float64) float64 {
	return math.Max(minW, left+pw+15+legendIndent+legendTextWidth(items)+10)
}

// axisTitle writes a centred axis title under the plot at baseline y,
// wrapped to the chart's width and kept inside it, and grows the chart
// by the lines past the first.
func axisTitle(c *chart, cx, y float64, s string) {
	const size, line = 12.0, 15.0
	lines := wrapText(s, size, c.W-20)
	for i, l := range lines {
		x := math.Min(math.Max(cx, 10+textWidth(l, size)/2), c.W-10-textWidth(l, size)/2)
		c.text(x, y+line*float64(i), l, "middle", size)
	}
	c.H += line * float64(len(lines)-1)
}

// xTickGap is from the x axis to its tick labels' baseline: far enough
// that the first tick label clears the y axis's "0" beside the corner.
const xTickGap = 18.0

// yAxisLabel names the y axis above its top tick, clear of the tick
// label ("100") below it.
func yAxisLabel(c *chart, left, top float64, s string) {
	c.text(left-6, top-11, s, "end", 11)
}

// scatterPoint is one point of a scatter chart, in the chart's pixels.
type scatterPoint struct {
	X, Y   float64
	Series string // the run, as the legend names it
	Colour string // the run's colour and shape
	Shape  string
	Label  string // the mode
	Title  string // the tooltip
	Hollow bool   // drawn as an outline (e.g. an assembled token count)
}

// spread is how far apart the markers of different series that share a
// spot are drawn: enough that both shapes show, little enough that both
// still read as the one value.
const spread = 7.0

// scatterGroup is the points drawn at one spot: one label for all.
type scatterGroup struct {
	x, y   float64
	points []int
}

// coincide is how close two points' centres are when they read as one
// point: markers 5 px in radius that far apart cover each other almost
// wholly.
const coincide = 3.0

// groupCoinciding gathers the points within coincide of a group's first
// point, in the order the points come.
func groupCoinciding(pts []scatterPoint) []scatterGroup {
	var gs []scatterGroup
	for i, p := range pts {
		found := false
		for g := range gs {
			if math.Hypot(gs[g].x-p.X, gs[g].y-p.Y) <= coincide {
				gs[g].points = append(gs[g].points, i)
				found = true
				break
			}
		}
		if !found {
			gs = append(gs, scatterGroup{x: p.X, y: p.Y, points: []int{i}})
		}
	}
	return gs
}

// groupLabel names a group's modes once each: "bm25 = hybrid = agent".
func groupLabel(pts []scatterPoint, g scatterGroup) string {
	var names []string
	for _, i := range g.points {
		if l := pts[i].Label; !containsString(names, l) {
			names = append(names, l)
		}
	}
	return strings.Join(names, " = ")
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// drawScatter draws the points, one shape and colour per series, and
// labels each spot once where its label is clear of every other marker
// and label (labeler), inside area and out of keepOut (the legend).
// Points of different series at one spot are spread sideways. It returns
// the labels that found no room, for the chart to list under the plot.
func drawScatter(c *chart, area box, keepOut []box, pts []scatterPoint) []string {
	gs := groupCoinciding(pts)
	l := &labeler{area: area, size: 10}
	l.avoid(keepOut...)
	radius := make([]float64, len(gs))
	for gi, g := range gs {
		var series []string
		for _, i := range g.points {
			if !containsString(series, pts[i].Series) {
				series = append(series, pts[i].Series)
			}
		}
		for _, i := range g.points {
			p := pts[i]
			k := indexString(series, p.Series)
			m := sCircle{X: p.X + (float64(k)-float64(len(series)-1)/2)*spread, Y: p.Y, R: 5, Fill: p.Colour, Title: p.Title, Shape: p.Shape}
			if p.Hollow {
				m.Fill, m.Stroke = "#fff", p.Colour
			}
			c.Circles = append(c.Circles, m)
			radius[gi] = math.Max(radius[gi], math.Hypot(m.X-g.x, m.Y-g.y)+m.extent())
		}
		l.avoid(box{g.x - radius[gi], g.y - radius[gi], g.x + radius[gi], g.y + radius[gi]})
	}
	ls := make([]labelAt, len(gs))
	for gi, g := range gs {
		ls[gi] = labelAt{g.x, g.y, radius[gi], groupLabel(pts, g)}
	}
	return drawLabels(c, l, ls)
}

// drawLabels places the labels (labeler) and draws them with their leader
// lines, returning those with no room.
func drawLabels(c *chart, l *labeler, ls []labelAt) []string {
	spots, ok := l.placeAll(ls)
	var unplaced []string
	for i, s := range spots {
		if !ok[i] {
			unplaced = append(unplaced, ls[i].text)
			continue
		}
		if s.leader != nil {
			c.Lines = append(c.Lines, *s.leader)
		}
		c.text(s.x, s.y, ls[i].text, s.anchor, l.size)
	}
	return unplaced
}

// labelScatter draws a scatter's legend in the right margin, then its
// points and their labels: inside the plot, or beside it (above it, and
// in the right margin below the legend) where a point at the plot's edge
// has no room within; labels with no room at all are listed under it.
func labelScatter(c *chart, left, top, pw, ph float64, sp []scatterPoint, items []legendItem) {
	lx := left + pw + 15
	lb := drawLegend(c, lx, top, items, legendTextWidth(items))
	c.H = math.Max(c.H, lb+10)
	footnote(c, drawScatter(c, box{left, 2, c.W - 4, top + ph}, []box{{lx - 4, 0, c.W, lb}}, sp))
}

// footnote lists under the chart the labels no place in the plot could
// hold (a plot too crowded for them), growing the chart to fit: their
// points keep their tooltips.
func footnote(c *chart, unplaced []string) {
	if len(unplaced) == 0 {
		return
	}
	lines := wrapText("Not labelled in the plot for lack of room: "+strings.Join(unplaced, "; ")+".", 11, c.W-20)
	for _, l := range lines {
		c.H += 15
		c.text(10, c.H-4, l, "start", 11)
	}
	c.H += 4
}

// scatterChart plots evidence recall (x) against accuracy (y), both in
// percent, one colour and shape per model, each spot labelled with its
// modes.
func scatterChart(pts []recallPoint) *chart {
	const left, top, bottom, pw, ph = 60.0, 24.0, 50.0, 430.0, 326.0
	x := func(v float64) float64 { return left + v*pw }
	y := func(v float64) float64 { return top + (1-v)*ph }
	sp := make([]scatterPoint, len(pts))
	for i, p := range pts {
		sp[i] = scatterPoint{X: x(p.Recall), Y: y(p.Acc), Series: p.Model, Colour: p.Colour, Shape: p.Shape, Label: p.Mode,
			Title: fmt.Sprintf("%s · %s: evidence recall %s%%, accuracy %s%%", p.Model, p.Mode, p.RecallS, p.AccS)}
	}
	items := pointLegend(sp)
	w := frameWidth(left, pw, items, 640)
	c := &chart{W: w, H: top + ph + bottom, Label: "Evidence recall against accuracy"}
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		c.line(x(v), top, x(v), top+ph, "#e5e5e5", 1, false)
		c.line(left, y(v), left+pw, y(v), "#e5e5e5", 1, false)
		c.text(x(v), top+ph+xTickGap, fmt.Sprintf("%.0f", 100*v), "middle", 11)
		c.text(left-6, y(v)+4, fmt.Sprintf("%.0f", 100*v), "end", 11)
	}
	c.line(left, top+ph, left+pw, top+ph, "#000", 1, false)
	c.line(left, top, left, top+ph, "#000", 1, false)
	axisTitle(c, left+pw/2, c.H-12, "evidence recall %")
	yAxisLabel(c, left, top, "acc %")
	labelScatter(c, left, top, pw, ph, sp, items)
	return c
}

func indexString(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}
