package report

import (
	"fmt"
	"math"

	"github.com/paperlens/paperlens/eval/run"
)

// chart is an SVG drawing from a few primitives; the HTML template renders
// it, so every text it carries is escaped there.
type chart struct {
	W, H    float64
	Label   string
	Lines   []sLine
	Top     []sLine // drawn over bars and points
	Rects   []sRect
	Circles []sCircle
	Texts   []sText
}

type sLine struct {
	X1, Y1, X2, Y2 float64
	Stroke         string
	Width          float64
	Dash           bool
}

type sRect struct {
	X, Y, W, H float64
	Fill       string
	Title      string
}

type sCircle struct {
	X, Y, R float64
	Fill    string
	Stroke  string // outline; white when empty
	Title   string
}

type sText struct {
	X, Y   float64
	Text   string
	Anchor string // start, middle, end
	Size   float64
	Fill   string
}

func (c *chart) line(x1, y1, x2, y2 float64, stroke string, w float64, dash bool) {
	c.Lines = append(c.Lines, sLine{x1, y1, x2, y2, stroke, w, dash})
}

func (c *chart) text(x, y float64, s, anchor string, size float64) {
	c.Texts = append(c.Texts, sText{X: x, Y: y, Text: s, Anchor: anchor, Size: size, Fill: "#222"})
}

// niceStep picks a tick step (1, 2 or 5 × 10^k) giving about n ticks.
func niceStep(span float64, n int) float64 {
	if span <= 0 {
		return 1
	}
	raw := span / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// tickLabel prints a signed tick with as many decimals as the step needs,
// and zero as "0" (not "-0" or "+0").
func tickLabel(v, step float64) string {
	dec := 0
	if step < 1 {
		dec = int(math.Ceil(-math.Log10(step) - 1e-9))
	}
	if math.Abs(v) < step/1e6 {
		return "0"
	}
	return fmt.Sprintf("%+.*f", dec, v)
}

// effectChart draws horizontal bars of Diff per mode (in points) from a zero
// line, with 95% interval whiskers, like ElaipBench Figure 6.
func effectChart(model string, effects []run.Effect, col string) *chart {
	const left, right, top, rowH = 130.0, 30.0, 30.0, 28.0
	w := 640.0
	h := top + rowH*float64(len(effects)) + 40
	c := &chart{W: w, H: h, Label: "RAG effect for " + model}
	lo, hi := 0.0, 0.0
	for _, e := range effects {
		lo = math.Min(lo, math.Min(100*e.Lo, 100*e.Diff))
		hi = math.Max(hi, math.Max(100*e.Hi, 100*e.Diff))
	}
	if hi-lo < 1 {
		lo, hi = lo-1, hi+1
	}
	step := niceStep(hi-lo, 6)
	lo = math.Floor(lo/step) * step
	hi = math.Ceil(hi/step) * step
	x := func(v float64) float64 { return left + (v-lo)/(hi-lo)*(w-left-right) }
	bottom := top + rowH*float64(len(effects))
	for i := 0; lo+float64(i)*step <= hi+step/2; i++ {
		v := lo + float64(i)*step
		c.line(x(v), top-5, x(v), bottom, "#e5e5e5", 1, false)
		c.text(x(v), bottom+16, tickLabel(v, step), "middle", 11)
	}
	c.text((left+w-right)/2, bottom+34, "Δ accuracy vs baseline (points), 95% CI", "middle", 12)
	for i, e := range effects {
		yc := top + rowH*float64(i) + rowH/2
		d := 100 * e.Diff
		x0, x1 := x(0), x(d)
		if x1 < x0 {
			x0, x1 = x1, x0
		}
		c.Rects = append(c.Rects, sRect{X: x0, Y: yc - 8, W: math.Max(x1-x0, 0.5), H: 16, Fill: col,
			Title: fmt.Sprintf("%s: %+.1f [%+.1f, %+.1f], p=%.3g", e.Mode, d, 100*e.Lo, 100*e.Hi, e.PValue)})
		c.Top = append(c.Top, sLine{x(100 * e.Lo), yc, x(100 * e.Hi), yc, "#000", 1.5, false},
			sLine{x(100 * e.Lo), yc - 5, x(100 * e.Lo), yc + 5, "#000", 1.5, false},
			sLine{x(100 * e.Hi), yc - 5, x(100 * e.Hi), yc + 5, "#000", 1.5, false})
		c.text(left-8, yc+4, e.Mode, "end", 12)
	}
	c.Top = append(c.Top, sLine{x(0), top - 8, x(0), bottom + 2, "#000", 1.5, true})
	return c
}

// scatterChart plots evidence recall (x) against accuracy (y), one colour
// per model, each point labelled with its mode.
func scatterChart(pts []recallPoint, models []string, cols []string) *chart {
	const left, right, top, bottom = 60.0, 150.0, 20.0, 50.0
	w, h := 640.0, 400.0
	c := &chart{W: w, H: h, Label: "Evidence recall against accuracy"}
	pw, ph := w-left-right, h-top-bottom
	x := func(v float64) float64 { return left + v*pw }
	y := func(v float64) float64 { return top + (1-v)*ph }
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		c.line(x(v), top, x(v), top+ph, "#e5e5e5", 1, false)
		c.line(left, y(v), left+pw, y(v), "#e5e5e5", 1, false)
		c.text(x(v), top+ph+16, fmt.Sprintf("%.0f", 100*v), "middle", 11)
		c.text(left-6, y(v)+4, fmt.Sprintf("%.0f", 100*v), "end", 11)
	}
	c.line(left, top+ph, left+pw, top+ph, "#000", 1, false)
	c.line(left, top, left, top+ph, "#000", 1, false)
	c.text(left+pw/2, h-12, "evidence recall %", "middle", 12)
	c.text(left-40, top-8, "acc %", "start", 11)
	for _, p := range pts {
		c.Circles = append(c.Circles, sCircle{X: x(p.Recall), Y: y(p.Acc), R: 5, Fill: p.Colour,
			Title: fmt.Sprintf("%s · %s: evidence recall %s%%, accuracy %s%%", p.Model, p.Mode, p.RecallS, p.AccS)})
		c.text(x(p.Recall)+7, y(p.Acc)-6, p.Mode, "start", 10)
	}
	for i, m := range models {
		yy := top + 10 + 18*float64(i)
		c.Rects = append(c.Rects, sRect{X: left + pw + 15, Y: yy - 9, W: 10, H: 10, Fill: cols[i], Title: m})
		c.text(left+pw+30, yy, m, "start", 11)
	}
	return c
}

// groupedBars draws vertical bars of values in [0,1]: one group per
// category, one bar per series (model), like ElaipBench Figure 4.
func groupedBars(label, ylabel string, cats []string, series []string, cols []string, val func(s, c int) (float64, bool), tip func(s, c int) string) *chart {
	const left, right, top, bottom = 60.0, 150.0, 20.0, 60.0
	w, h := 680.0, 340.0
	c := &chart{W: w, H: h, Label: label}
	pw, ph := w-left-right, h-top-bottom
	y := func(v float64) float64 { return top + (1-v)*ph }
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		c.line(left, y(v), left+pw, y(v), "#e5e5e5", 1, false)
		c.text(left-6, y(v)+4, fmt.Sprintf("%.0f", 100*v), "end", 11)
	}
	c.line(left, top+ph, left+pw, top+ph, "#000", 1, false)
	c.text(left-40, top-8, ylabel, "start", 11)
	gw := pw / float64(max(len(cats), 1))
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
		c.text(left+gw*(float64(ci)+0.5), top+ph+16, cat, "middle", 11)
	}
	for i, m := range series {
		yy := top + 10 + 18*float64(i)
		c.Rects = append(c.Rects, sRect{X: left + pw + 15, Y: yy - 9, W: 10, H: 10, Fill: cols[i], Title: m})
		c.text(left+pw+30, yy, m, "start", 11)
	}
	return c
}
