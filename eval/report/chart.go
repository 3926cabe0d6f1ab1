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

// sCircle is a point's marker: a circle, or with Shape a polygon of
// about the same size (series told apart by shape as well as colour).
type sCircle struct {
	X, Y, R float64
	Fill    string
	Stroke  string // outline; white when empty
	Title   string
	Shape   string // "" or "circle", else one of markerShapes
}

type sText struct {
	X, Y   float64
	Text   string
	Anchor string // start, middle, end
	Size   float64
	Fill   string
	// Rotate turns the text about (X, Y), in degrees (-90: reading
	// upwards), for category labels too wide to sit side by side.
	Rotate float64
	// Class marks legend labels ("legend"), which a test finds by it.
	Class string
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
	const right, top, rowH, pw = 30.0, 30.0, 28.0, 480.0
	// The mode names sit in the left margin, which widens to the longest.
	left := 130.0
	for _, e := range effects {
		left = math.Max(left, textWidth(e.Mode, 12)+16)
	}
	w := left + pw + right
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
