package report

import (
	"fmt"
	"math"
)

// Category labels of grouped bars: their size, and the least room a group
// needs (a label turned upright is one line of text wide).
const (
	catSize     = 11.0
	minGroupW   = 18.0
	barsPlotW   = 470.0
	barsPlotH   = 260.0
	barsTop     = 24.0
	barsLeft    = 60.0
	barsTickGap = 16.0 // from the axis to a level label's baseline
)

// groupedBars draws vertical bars of values in [0,1], in percent: one
// group per category, one bar per series (run) in its colour, like
// ElaipBench Figure 4. Category labels that would not fit side by side
// are turned to read upwards, and the chart grows to hold them; the
// legend is as wide as its longest name (wrapped past legendMaxText).
func groupedBars(label, ylabel string, cats []string, series []string, cols []string, val func(s, c int) (float64, bool), tip func(s, c int) string) *chart {
	const left, top, ph = barsLeft, barsTop, barsPlotH
	pw := math.Max(barsPlotW, minGroupW*float64(len(cats)))
	items := make([]legendItem, len(series))
	for i, m := range series {
		items[i] = legendItem{Text: m, Colour: cols[i]}
	}
	gw := pw / float64(max(len(cats), 1))
	upright, catW := catLabelsUpright(cats, gw)
	bottom := barsTickGap + 44.0 // tick labels, then the rest of the usual margin
	if upright {
		bottom = 8 + catW + 12
	}
	c := &chart{W: frameWidth(left, pw, items, 680), H: top + ph + bottom, Label: label}
	y := func(v float64) float64 { return top + (1-v)*ph }
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		c.line(left, y(v), left+pw, y(v), "#e5e5e5", 1, false)
		c.text(left-6, y(v)+4, fmt.Sprintf("%.0f", 100*v), "end", 11)
	}
	c.line(left, top+ph, left+pw, top+ph, "#000", 1, false)
	yAxisLabel(c, left, top, ylabel)
	bw := gw * 0.8 / float64(max(len(series), 1))
	for ci, cat := range cats {
		gx := left + gw*float64(ci) + gw*0.1
		for si := range series {
			v, ok := val(si, ci)
			if !ok {
				continue
			}
			c.Rects = append(c.Rects, sRect{X: gx + bw*float64(si), Y: y(v), W: bw * 0.9, H: math.Max(ph*v, 0.5), Fill: cols[si], Title: tip(si, ci)})
		}
		cx := left + gw*(float64(ci)+0.5)
		if upright {
			// Turned about its end, the label reads upwards from below
			// the axis; its glyphs centre on the group.
			c.Texts = append(c.Texts, sText{X: cx + 0.35*catSize, Y: top + ph + 8, Text: cat, Anchor: "end", Size: catSize, Fill: "#222", Rotate: -90})
			continue
		}
		c.text(cx, top+ph+barsTickGap, cat, "middle", catSize)
	}
	c.H = math.Max(c.H, drawLegend(c, left+pw+15, top, items, legendTextWidth(items))+10)
	return c
}

// catLabelsUpright reports whether the category labels must stand
// upright, because some label is wider than its group leaves room for,
// and the widest label's width.
func catLabelsUpright(cats []string, gw float64) (bool, float64) {
	widest := 0.0
	for _, c := range cats {
		widest = math.Max(widest, textWidth(c, catSize))
	}
	return widest+4 > gw, widest
}
