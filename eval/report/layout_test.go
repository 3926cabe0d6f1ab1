package report

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// oldLabelBox is where the report used to put every point label: 7 px
// right of and 6 px above its point, whatever else was there.
func oldLabelBox(a labelAt) box { return textBox(a.x+7, a.y-6, a.text, "start", 10) }

// overlapping lists the pairs of boxes that intersect.
func overlapping(bs []box) [][2]int {
	var out [][2]int
	for i := range bs {
		for j := i + 1; j < len(bs); j++ {
			if bs[i].overlaps(bs[j]) {
				out = append(out, [2]int{i, j})
			}
		}
	}
	return out
}

// The labeler puts every label where it intersects no other label and no
// marker, inside its area, or reports it unplaced; on the same points the
// old rule (a fixed offset) puts labels over each other, so the check
// here is one the old layout fails.
func TestLabelerKeepsLabelsApart(t *testing.T) {
	area := box{60, 20, 530, 370}
	var cluster []labelAt
	for i, m := range []string{"bm25", "dense", "hybrid", "self-route", "web", "full+bm25", "full+dense", "full+hybrid"} {
		cluster = append(cluster, labelAt{400 + float64(i%3), 200 + float64(i%2), 5, m})
	}
	cases := []struct {
		name     string
		area     box
		labels   []labelAt
		unplaced int
		oldFails bool // the fixed offset overlaps on these points
	}{
		{"coinciding points", area, []labelAt{{300, 200, 5, "bm25"}, {300, 200, 5, "hybrid"}, {300, 200, 5, "agent"}}, 0, true},
		{"a cluster within 3 px", area, cluster, 0, true},
		{"at the right edge", area, []labelAt{{528, 100, 5, "oracle"}, {528, 110, 5, "full+hybrid"}}, 0, true},
		{"apart", area, []labelAt{{100, 100, 5, "closed-book"}, {300, 300, 5, "full"}}, 0, false},
		{"no room at all", box{0, 0, 40, 20}, []labelAt{{20, 10, 5, "a label far wider than the area"}}, 1, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := &labeler{area: tc.area, size: 10}
			var markers []box
			for _, a := range tc.labels {
				markers = append(markers, box{a.x - a.r, a.y - a.r, a.x + a.r, a.y + a.r})
			}
			l.avoid(markers...)
			spots, ok := l.placeAll(tc.labels)
			var placed []box
			for i, s := range spots {
				if !ok[i] {
					continue
				}
				// The box drawn: the text at its baseline and anchor.
				b := textBox(s.x, s.y, tc.labels[i].text, s.anchor, 10)
				if !b.within(tc.area) {
					t.Errorf("%q at %+v leaves the area %+v", tc.labels[i].text, b, tc.area)
				}
				for _, m := range markers {
					if b.overlaps(m) {
						t.Errorf("%q at %+v covers a marker %+v", tc.labels[i].text, b, m)
					}
				}
				placed = append(placed, b)
			}
			if n := len(tc.labels) - len(placed); n != tc.unplaced {
				t.Errorf("%d labels unplaced, want %d", n, tc.unplaced)
			}
			if o := overlapping(placed); len(o) > 0 {
				t.Errorf("labels intersect: %v in %+v", o, placed)
			}
			var old []box
			for _, a := range tc.labels {
				old = append(old, oldLabelBox(a))
			}
			if fails := len(overlapping(old)) > 0; fails != tc.oldFails {
				t.Errorf("old layout overlaps: %v, want %v", fails, tc.oldFails)
			}
		})
	}
}

// The same input places the same way every time, and a label is beside
// its point (no leader line) whenever there is room there.
func TestLabelerDeterministic(t *testing.T) {
	ls := []labelAt{{300, 200, 5, "bm25"}, {300, 200, 5, "hybrid"}, {302, 201, 5, "agent"}, {100, 100, 5, "full"}}
	place := func() []labelSpot {
		l := &labeler{area: box{60, 20, 530, 370}, size: 10}
		s, _ := l.placeAll(ls)
		return s
	}
	first := place()
	for range 3 {
		if again := place(); fmt.Sprint(again) != fmt.Sprint(first) {
			t.Fatalf("placed %v, then %v", first, again)
		}
	}
	if first[3].leader != nil || first[3].anchor != "start" {
		t.Errorf("a lone point's label is not right beside it: %+v", first[3])
	}
	if first[0].leader != nil || first[1].leader != nil {
		t.Errorf("the first labels at a crowded spot go beside it: %+v, %+v", first[0], first[1])
	}
}

// Points drawn at one spot share one label naming each mode once, and
// runs with equal values show both markers, side by side, in their own
// shapes.
func TestScatterCoinciding(t *testing.T) {
	pts := []scatterPoint{
		{X: 300, Y: 200, Series: "a", Colour: "#1", Shape: "circle", Label: "bm25"},
		{X: 301, Y: 201, Series: "a", Colour: "#1", Shape: "circle", Label: "hybrid"},
		{X: 300, Y: 200, Series: "b", Colour: "#2", Shape: "square", Label: "bm25"},
		{X: 300.5, Y: 200, Series: "a", Colour: "#1", Shape: "circle", Label: "agent"},
		{X: 400, Y: 100, Series: "a", Colour: "#1", Shape: "circle", Label: "full"},
	}
	gs := groupCoinciding(pts)
	if len(gs) != 2 {
		t.Fatalf("%d groups, want the spot of four and full", len(gs))
	}
	if got := groupLabel(pts, gs[0]); got != "bm25 = hybrid = agent" {
		t.Errorf("label %q, want %q", got, "bm25 = hybrid = agent")
	}
	c := &chart{W: 680, H: 420}
	if un := drawScatter(c, box{60, 20, 530, 370}, nil, pts); len(un) != 0 {
		t.Fatalf("unplaced %v", un)
	}
	var a, b []sCircle
	for _, m := range c.Circles {
		if m.Fill == "#1" && m.Y == 200 && m.X < 310 {
			a = append(a, m)
		}
		if m.Fill == "#2" {
			b = append(b, m)
		}
	}
	if len(b) != 1 || b[0].Shape != "square" || !b[0].Polygon() || len(a) == 0 || a[0].Shape != "circle" {
		t.Fatalf("markers: run a %+v, run b %+v", a, b)
	}
	if d := math.Abs(a[0].X - b[0].X); d < spread-0.01 {
		t.Errorf("equal points of two runs drawn %.1f px apart, want %v: one would hide the other", d, spread)
	}
	labels := 0
	for _, tx := range c.Texts {
		if strings.Contains(tx.Text, "bm25") {
			labels++
		}
	}
	if labels != 1 {
		t.Errorf("%d labels name bm25, want one for the spot", labels)
	}
}

// A polygon marker is centred on its point: its vertices average there.
func TestMarkerPoints(t *testing.T) {
	for _, shape := range seriesShapes[1:] {
		m := sCircle{X: 100, Y: 50, R: 5, Shape: shape}
		var x, y float64
		ps := strings.Fields(m.Points())
		for _, p := range ps {
			var px, py float64
			fmt.Sscanf(p, "%g,%g", &px, &py)
			x, y = x+px/float64(len(ps)), y+py/float64(len(ps))
		}
		if math.Abs(x-100) > 0.1 || math.Abs(y-50) > 0.1 || m.extent() < 5 {
			t.Errorf("%s: centred at %.2f,%.2f, extent %.1f", shape, x, y, m.extent())
		}
	}
}

func TestWrapText(t *testing.T) {
	cases := []struct {
		s    string
		maxW float64
		want []string
	}{
		{"random", 200, []string{"random"}},
		{"oracle (study-oracle-baseline-long-name)", 120, []string{"oracle (study-oracle-", "baseline-long-name)"}},
		{"prompt tokens per question, assembled by paperlens", 150, []string{"prompt tokens per", "question, assembled by", "paperlens"}},
		// A word with no place to break is cut where it must be.
		{"abcdefghijklmnopqrstuvwxyz", 60, []string{"abcdefghi", "jklmnopqr", "stuvwxyz"}},
	}
	for _, tc := range cases {
		got := wrapText(tc.s, 11, tc.maxW)
		if !slices.Equal(got, tc.want) {
			t.Errorf("wrapText(%q, %v) = %q, want %q", tc.s, tc.maxW, got, tc.want)
		}
		for _, l := range got {
			if w := textWidth(l, 11); w > tc.maxW {
				t.Errorf("line %q is %.1f wide, over %v", l, w, tc.maxW)
			}
		}
	}
}

// Text is measured wide rather than narrow: at least as wide as DejaVu
// Sans draws it (the widest common default, measured in Chromium), a full
// em for a character the table does not know.
func TestTextWidth(t *testing.T) {
	for _, tc := range []struct {
		s      string
		dejaVu float64 // ems
	}{
		{"full+hybrid", 0.352 + 0.634 + 2*0.278 + 0.838 + 0.634 + 0.592 + 0.635 + 0.411 + 0.278 + 0.635},
		{"2048", 4 * 0.636},
		{"WM", 0.989 + 0.863},
		{"検索", 2},
		{"", 0},
	} {
		if w := textWidth(tc.s, 10); w < 10*tc.dejaVu || w > 10*tc.dejaVu*1.1+1 {
			t.Errorf("textWidth(%q, 10) = %.1f, want %.1f to %.1f", tc.s, w, 10*tc.dejaVu, 10*tc.dejaVu*1.1+1)
		}
	}
}

// crowdedModes are twelve modes, the most a study without tools runs.
var crowdedModes = []string{"closed-book", "full", "bm25", "dense", "hybrid", "full+bm25", "full+dense", "full+hybrid", "self-route", "oracle", "web", "full+web"}

// Category labels stand upright when some label is wider than its group:
// the twelve modes of a study, not the five reasoning buckets.
func TestCatLabelsUpright(t *testing.T) {
	for _, tc := range []struct {
		name string
		cats []string
		want bool
	}{
		{"twelve modes", crowdedModes, true},
		{"reasoning buckets", bucketNames, false},
		{"three modes", []string{"closed-book", "full", "full+hybrid"}, false},
	} {
		if got, _ := catLabelsUpright(tc.cats, barsPlotW/float64(len(tc.cats))); got != tc.want {
			t.Errorf("%s: upright %v, want %v", tc.name, got, tc.want)
		}
	}
	c := groupedBars("m", "miss %", crowdedModes, []string{"a"}, []string{"#1"},
		func(int, int) (float64, bool) { return 0.1, true }, func(int, int) string { return "" })
	upright := 0
	for _, tx := range c.Texts {
		if tx.Rotate == -90 {
			upright++
			// Turned, its length runs down from the axis: the chart holds it.
			if tx.Y+textWidth(tx.Text, tx.Size) > c.H {
				t.Errorf("%q runs past the chart's bottom", tx.Text)
			}
		}
	}
	if upright != len(crowdedModes) {
		t.Errorf("%d upright labels, want %d", upright, len(crowdedModes))
	}
}

// A legend is as wide as its longest name, up to legendMaxText, past
// which names wrap; either way the chart holds it.
func TestLegendFits(t *testing.T) {
	for _, name := range []string{"ir", "oracle (study-oracle-baseline-long-name)", strings.Repeat("a-very-long-model-name/", 6)} {
		items := []legendItem{{Text: "random", Colour: "#1", Shape: "circle"}, {Text: name, Colour: "#2", Shape: "square"}}
		const left, pw = 60.0, 470.0
		c := &chart{W: frameWidth(left, pw, items, 680), H: 400}
		drawLegend(c, left+pw+15, 24, items, legendTextWidth(items))
		for _, tx := range c.Texts {
			if b := textBox(tx.X, tx.Y, tx.Text, tx.Anchor, tx.Size); b.x1 > c.W {
				t.Errorf("legend %q ends at %.1f, past the chart's width %.1f", tx.Text, b.x1, c.W)
			}
		}
	}
}

func TestSegments(t *testing.T) {
	b := box{10, 10, 20, 20}
	for _, tc := range []struct {
		name           string
		x1, y1, x2, y2 float64
		want           bool
	}{
		{"through", 0, 15, 30, 15, true},
		{"ends inside", 0, 15, 15, 15, true},
		{"misses", 0, 0, 30, 5, false},
		{"touches the edge", 0, 10, 30, 10, false},
		{"diagonal through", 0, 0, 30, 30, true},
	} {
		if got := segmentCrosses(tc.x1, tc.y1, tc.x2, tc.y2, b); got != tc.want {
			t.Errorf("segmentCrosses %s: %v, want %v", tc.name, got, tc.want)
		}
	}
	x := sLine{X1: 0, Y1: 0, X2: 10, Y2: 10}
	for _, tc := range []struct {
		name string
		o    sLine
		want bool
	}{
		{"crossing", sLine{X1: 0, Y1: 10, X2: 10, Y2: 0}, true},
		{"parallel", sLine{X1: 1, Y1: 0, X2: 11, Y2: 10}, false},
		{"meeting at an end", sLine{X1: 0, Y1: 0, X2: -10, Y2: 5}, false},
	} {
		if got := segmentsCross(x, tc.o); got != tc.want {
			t.Errorf("segmentsCross %s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
