package report

import (
	"slices"
	"strings"
	"testing"
)

func TestPlotPoints(t *testing.T) {
	b := &frontierBlock{Points: []fpoint{
		{Tokens: 100, Frontier: true, Cost: 0.1, HasCost: true, CostFrontier: false},
		{Tokens: 900, Full: true},
		{Tokens: 50, Cost: 0.2, HasCost: true, CostFrontier: true},
	}}
	for _, tc := range []struct {
		byCost bool
		want   []plotPoint
	}{
		{false, []plotPoint{{0, 100, true, false}, {1, 900, false, true}, {2, 50, false, false}}},
		{true, []plotPoint{{0, 0.1, false, false}, {2, 0.2, true, false}}},
	} {
		if got := plotPoints(b, tc.byCost); !slices.Equal(got, tc.want) {
			t.Errorf("byCost %v: %v, want %v", tc.byCost, got, tc.want)
		}
	}
	if p := fullPoint(b); p != &b.Points[1] {
		t.Errorf("fullPoint = %v, want the second point", p)
	}
	if p := fullPoint(&frontierBlock{Points: []fpoint{{}}}); p != nil {
		t.Errorf("no full: fullPoint = %v", p)
	}
}

func TestFrontierAxisTitle(t *testing.T) {
	for _, tc := range []struct {
		src         tokenSources
		byCost, log bool
		want        string
	}{
		{tokenSources{server: true}, false, true, "prompt tokens per question, server-reported (log scale)"},
		{tokenSources{assembled: true}, false, true, "prompt tokens per question, assembled by paperlens, cl100k (log scale)"},
		{tokenSources{server: true, assembled: true}, false, true, "prompt tokens per question (log): server-reported, else assembled, cl100k"},
		{tokenSources{server: true, assembled: true}, true, true, "mean cost per question, US$ (log scale)"},
		{tokenSources{server: true}, true, false, "mean cost per question, US$ (linear: some cost is 0)"},
	} {
		if got := frontierAxisTitle(&frontierBlock{Src: tc.src}, tc.byCost, tc.log); got != tc.want {
			t.Errorf("%+v byCost %v log %v: %q, want %q", tc.src, tc.byCost, tc.log, got, tc.want)
		}
	}
}

func TestPointMarker(t *testing.T) {
	b := &frontierBlock{Colour: "#123"}
	q := fpoint{Label: "bm25", Dir: "a", AccS: "80.0", TokensS: "900", CostS: "0.20"}
	oracle := q
	oracle.Ceiling = true
	for _, tc := range []struct {
		name         string
		q            fpoint
		on, byCost   bool
		fill, stroke string
		titleHas     string
	}{
		{"on the frontier", q, true, false, "#123", "", "900 prompt tokens per question, on the frontier"},
		{"dominated", q, false, false, "#fff", "#123", "dominated"},
		{"by cost", q, true, true, "#123", "", "US$ 0.20 per question"},
		{"oracle", oracle, true, false, "#fff", "#999", "reads the gold evidence"},
	} {
		c := pointMarker(b, tc.q, tc.on, 1, 2, tc.byCost)
		if c.Fill != tc.fill || c.Stroke != tc.stroke || !strings.Contains(c.Title, tc.titleHas) || c.X != 1 || c.Y != 2 || c.R != 5 {
			t.Errorf("%s: %+v", tc.name, c)
		}
	}
}

func TestDrawSteps(t *testing.T) {
	b := &frontierBlock{Colour: "#123", Points: []fpoint{{Acc: 0.5}, {Acc: 0.9}, {Acc: 0.2}, {Acc: 0.7}}}
	f := frontierFrame{ax: frontierAxis{lo: 0, hi: 100}, pw: 100, ph: 100}
	c := &chart{}
	// Frontier points 2 (x 10), 0 (x 40), 1 (x 90), given out of order;
	// point 3 is dominated.
	f.drawSteps(c, b, []plotPoint{{1, 90, true, false}, {2, 10, true, false}, {3, 50, false, false}, {0, 40, true, false}})
	if len(c.Lines) != 4 {
		t.Fatalf("%d lines, want a flat and a rising segment per step", len(c.Lines))
	}
	// The first step holds point 2's accuracy from x 10 to x 40, then
	// rises to point 0's.
	if l := c.Lines[0]; l.X1 != f.X(10) || l.X2 != f.X(40) || l.Y1 != f.Y(0.2) || l.Y2 != f.Y(0.2) {
		t.Errorf("first flat segment %+v", l)
	}
	if l := c.Lines[1]; l.X1 != f.X(40) || l.Y1 != f.Y(0.2) || l.Y2 != f.Y(0.5) {
		t.Errorf("first rise %+v", l)
	}
}
