package report

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/paperlens/paperlens/eval/run"
)

// frontierGoldenRuns are scenarios that take every path of frontierChart:
// token and cost axes (log, and linear when a cost is 0), full's band and
// ring, the cheapest point within it, dominated points, an oracle, mixed
// token counts, points sharing a spot and labels crowding each other.
func frontierGoldenRuns() map[string][]Run {
	zero := 0.0
	return map[string][]Run{
		"priced": {fakeRun("a", cfgOf("m", 5, 512), []run.Effect{
			{Mode: "closed-book", Baseline: "full", N: 40, Diff: -0.5, Lo: -0.65, Hi: -0.35},
			{Mode: "bm25", Baseline: "full", N: 40, Diff: -0.05, Lo: -0.15, Hi: 0.05},
			{Mode: "hybrid", Baseline: "full", N: 40, Diff: -0.02, Lo: -0.1, Hi: 0.05}},
			mstat{mode: "closed-book", acc: 0.4, n: 40, tokens: 120, server: 130, cost: fp(0.01)},
			mstat{mode: "full", acc: 0.9, n: 40, tokens: 5000, server: 5100, cost: fp(2)},
			mstat{mode: "bm25", acc: 0.85, n: 40, tokens: 800, server: 820, cost: fp(0.3)},
			mstat{mode: "hybrid", acc: 0.88, n: 40, tokens: 1200, server: 1230, cost: fp(0.45)},
			mstat{mode: "dense", acc: 0.5, n: 40, tokens: 1300, server: 1330, cost: fp(0.5)},
			mstat{mode: "oracle", acc: 1, n: 40, tokens: 300, server: 310, cost: fp(0.1)})},
		"free and crowded": {
			fakeRun("k5", cfgOf("m", 5, 512), nil,
				mstat{mode: "closed-book", acc: 0.3, n: 20, tokens: 100, cost: &zero},
				mstat{mode: "full", acc: 0.9, n: 20, tokens: 4000, cost: fp(1)},
				mstat{mode: "bm25", acc: 0.6, n: 20, tokens: 900, cost: fp(0.2)}),
			fakeRun("k3", cfgOf("m", 3, 512), nil,
				mstat{mode: "bm25", acc: 0.6, n: 20, tokens: 900, cost: fp(0.2)},
				mstat{mode: "full", acc: 0.9, n: 20, tokens: 4000, cost: fp(1)}),
			fakeRun("k8", cfgOf("m", 8, 128), nil,
				mstat{mode: "bm25", acc: 0.62, n: 20, tokens: 950, cost: fp(0.21)},
				mstat{mode: "hybrid", acc: 0.61, n: 20, tokens: 960, cost: fp(0.22)},
				mstat{mode: "dense", acc: 0.63, n: 20, tokens: 940, cost: fp(0.2)}),
		},
		"mixed counts, no full": {fakeRun("a", cfgOf("m", 5, 512), nil,
			mstat{mode: "closed-book", acc: 0.3, n: 10, server: 90},
			mstat{mode: "bm25", acc: 0.5, n: 10, tokens: 900},
			mstat{mode: "hybrid", acc: 0.7, n: 10, tokens: 2000, server: 2100})},
		"full is the cheapest within": {fakeRun("a", cfgOf("m", 5, 512), nil,
			mstat{mode: "full", acc: 0.9, n: 10, tokens: 400},
			mstat{mode: "bm25", acc: 0.2, n: 10, tokens: 900})},
	}
}

// TestFrontierSVGGolden pins the frontier figures' SVG bytes for each
// scenario. Regenerate with REPORT_WRITE_GOLDEN=1 only for a deliberate
// change of the figure.
func TestFrontierSVGGolden(t *testing.T) {
	runs := frontierGoldenRuns()
	for _, name := range []string{"priced", "free and crowded", "mixed counts, no full", "full is the cheapest within"} {
		var buf bytes.Buffer
		if err := FrontierSVG(&buf, runs[name]); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		golden := fmt.Sprintf("testdata/frontier-%s.svg", slug(name))
		if os.Getenv("REPORT_WRITE_GOLDEN") != "" {
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s: SVG differs from %s", name, golden)
		}
	}
}

// slug turns a scenario name into a file name.
func slug(s string) string {
	out := []rune{}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			out = append(out, r)
		case len(out) > 0 && out[len(out)-1] != '-':
			out = append(out, '-')
		}
	}
	return string(out)
}
