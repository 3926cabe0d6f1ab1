package report

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/run"
)

func TestPareto(t *testing.T) {
	cases := []struct {
		name   string
		xs, ys []float64
		want   []bool
	}{
		{"none", nil, nil, []bool{}},
		{"one point", []float64{100}, []float64{0.5}, []bool{true}},
		{"cheaper and better dominates", []float64{100, 200}, []float64{0.8, 0.6}, []bool{true, false}},
		{"a staircase", []float64{10, 100, 1000}, []float64{0.2, 0.5, 0.9}, []bool{true, true, true}},
		{"equal tokens, lower accuracy is dominated", []float64{100, 100}, []float64{0.7, 0.6}, []bool{true, false}},
		{"equal accuracy, more tokens is dominated", []float64{100, 300}, []float64{0.7, 0.7}, []bool{true, false}},
		{"duplicates of a frontier point are all on it", []float64{100, 100, 500}, []float64{0.7, 0.7, 0.9}, []bool{true, true, true}},
		{"duplicates of a dominated point are all off", []float64{50, 100, 100}, []float64{0.8, 0.7, 0.7}, []bool{true, false, false}},
		{"mixed", []float64{20, 800, 500, 5000, 900}, []float64{0, 0.6, 0.7, 1, 0.7}, []bool{true, false, true, true, false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := pareto(c.xs, c.ys)
			if !slices.Equal(got, c.want) {
				t.Errorf("pareto(%v, %v) = %v, want %v", c.xs, c.ys, got, c.want)
			}
		})
	}
}

// mstat is one mode of a constructed run.
type mstat struct {
	mode   string
	acc    float64
	n      int
	tokens float64  // assembled prompt tokens per question
	server int      // server-reported prompt tokens per record (0: none)
	cost   *float64 // US$ over every record; nil without --price
	// right lists, per question q0…q(n−1), whether the one run was right;
	// nil: no records.
	right []bool
}

// fakeRun is a run folder's content made in memory: its summary, its
// config and (when the modes say) its records.
func fakeRun(dir string, cfg run.Config, effects []run.Effect, ms ...mstat) Run {
	s := run.Summary{Model: cfg.Model, Bench: cfg.Bench, Runs: 1, Baseline: "full", ByMode: map[string]run.ModeStats{}, Effects: effects}
	var recs []run.Record
	for _, m := range ms {
		s.Modes = append(s.Modes, m.mode)
		s.ByMode[m.mode] = run.ModeStats{Acc: run.Acc{Accuracy: m.acc, N: m.n}, PromptTokens: m.tokens, Records: m.n, CostUSD: m.cost,
			Tokens: run.Tokens{Prompt: m.server * m.n}}
		for q, ok := range m.right {
			recs = append(recs, run.Record{QuestionID: fmt.Sprintf("q%d", q), Mode: m.mode, Run: 1, Correct: ok})
		}
	}
	s.Questions = ms[0].n
	return Run{Dir: "/runs/" + dir, Summary: s, Config: cfg, Records: recs}
}

func cfgOf(model string, k, passage int) run.Config {
	c := run.Config{Model: model, Bench: "elaipbench", Data: "/data/sample.jsonl", Seed: 7, K: k, MaxPassageTokens: passage}
	c.Defaults(nil)
	return c
}

// rights is n answers of which the listed (0-based) questions are wrong.
func rights(n int, wrong ...int) []bool {
	out := make([]bool, n)
	for i := range out {
		out[i] = !slices.Contains(wrong, i)
	}
	return out
}

func seq(from, to int) []int {
	var out []int
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

// The cheapest configuration within full's interval, on constructed
// summaries: by the summary's own paired effect within a run, by pairing
// records across runs of the same data, and by full's Wilson interval
// when the runs cannot be paired.
func TestCheapestWithinFull(t *testing.T) {
	fx := fp(0.02)
	cases := []struct {
		name string
		runs []Run
		// best is the label of the cheapest point within full's interval
		// ("" for none, or full itself); want are phrases of the sentence.
		best   string
		within map[string]bool
		want   []string
	}{
		{"paired by the summary's effects",
			[]Run{fakeRun("a", cfgOf("m", 5, 512), []run.Effect{
				{Mode: "closed-book", Baseline: "full", N: 40, Diff: -0.5, Lo: -0.65, Hi: -0.35},
				{Mode: "bm25", Baseline: "full", N: 40, Diff: -0.05, Lo: -0.15, Hi: 0.05},
				{Mode: "hybrid", Baseline: "full", N: 40, Diff: -0.02, Lo: -0.1, Hi: 0.05}},
				mstat{mode: "closed-book", acc: 0.4, n: 40, tokens: 120},
				mstat{mode: "full", acc: 0.9, n: 40, tokens: 5000},
				mstat{mode: "bm25", acc: 0.85, n: 40, tokens: 800},
				mstat{mode: "hybrid", acc: 0.88, n: 40, tokens: 1200})},
			"bm25", map[string]bool{"closed-book": false, "bm25": true, "hybrid": true, "full": true},
			[]string{"within the 95% interval of full: bm25, at 16.0% of full's mean prompt tokens (accuracy 85.0% vs full's 90.0%)",
				"Paired over 40 questions, its accuracy minus full's is -5.0 points with a 95% bootstrap interval of [-15.0, +5.0], which reaches 0."}},
		{"paired is stricter than full's Wilson interval",
			// bm25's 85% is inside full's Wilson interval [82.6, 94.5]
			// over 100 questions, but right only where full is right: 5
			// questions lost and none gained is a real loss.
			[]Run{fakeRun("a", cfgOf("m", 5, 512), nil,
				mstat{mode: "full", acc: 0.9, n: 100, tokens: 5000, right: rights(100, seq(0, 10)...)},
				mstat{mode: "bm25", acc: 0.85, n: 100, tokens: 800, right: rights(100, seq(0, 15)...)},
				mstat{mode: "hybrid", acc: 0.89, n: 100, tokens: 1500, right: rights(100, seq(0, 11)...)})},
			"hybrid", map[string]bool{"bm25": false, "hybrid": true},
			[]string{"within the 95% interval of full: hybrid, at 30.0% of full's mean prompt tokens (accuracy 89.0% vs full's 90.0%)", "Paired over 100 questions"}},
		{"paired across runs of the same data, labelled by what differs",
			[]Run{
				fakeRun("k5", cfgOf("m", 5, 512), nil,
					mstat{mode: "full", acc: 1, n: 20, tokens: 4000, right: rights(20)},
					mstat{mode: "bm25", acc: 0.6, n: 20, tokens: 900, right: rights(20, seq(0, 8)...)}),
				fakeRun("k3", cfgOf("m", 3, 128), nil,
					mstat{mode: "bm25", acc: 0.95, n: 20, tokens: 300, right: rights(20, 3)}),
			},
			"bm25 k=3 passage=128", map[string]bool{"bm25 k=5 passage=512": false, "bm25 k=3 passage=128": true},
			[]string{"bm25 k=3 passage=128, at 7.5% of full's mean prompt tokens (accuracy 95.0% vs full's 100.0%)", "Paired over 20 questions, its accuracy minus full's is -5.0 points"}},
		{"no records to pair: full's Wilson interval",
			[]Run{
				fakeRun("full", cfgOf("m", 5, 512), nil,
					mstat{mode: "full", acc: 0.9, n: 100, tokens: 5000}),
				fakeRun("other", cfgOf("m", 3, 512), nil,
					mstat{mode: "bm25", acc: 0.80, n: 100, tokens: 300},
					mstat{mode: "hybrid", acc: 0.83, n: 100, tokens: 700}),
			},
			// k differs between the runs, but not between the points it
			// matters to: full ignores it.
			"hybrid", map[string]bool{"bm25": false, "hybrid": true},
			[]string{"hybrid, at 14.0%", "at or above the lower end of full's 95% Wilson interval [82.6, 94.5]"}},
		{"nothing cheaper is within",
			[]Run{fakeRun("a", cfgOf("m", 5, 512), []run.Effect{{Mode: "bm25", Baseline: "full", N: 40, Diff: -0.3, Lo: -0.45, Hi: -0.15}},
				mstat{mode: "full", acc: 0.9, n: 40, tokens: 5000},
				mstat{mode: "bm25", acc: 0.6, n: 40, tokens: 800})},
			"", map[string]bool{"bm25": false},
			[]string{"No configuration cheaper than full (by mean prompt tokens) is within the 95% interval of full; full has accuracy 90.0% [76.9, 96.0] over 40 questions."}},
		{"oracle is not a configuration",
			// It reads the gold evidence: plotted, never the answer.
			[]Run{fakeRun("a", cfgOf("m", 5, 512), []run.Effect{
				{Mode: "oracle", Baseline: "full", N: 40, Diff: 0.05, Lo: 0, Hi: 0.1},
				{Mode: "bm25", Baseline: "full", N: 40, Diff: -0.02, Lo: -0.1, Hi: 0.05}},
				mstat{mode: "full", acc: 0.9, n: 40, tokens: 5000},
				mstat{mode: "oracle", acc: 0.95, n: 40, tokens: 300},
				mstat{mode: "bm25", acc: 0.88, n: 40, tokens: 2000})},
			"bm25", map[string]bool{"bm25": true},
			[]string{"within the 95% interval of full: bm25, at 40.0%"}},
		{"full in two runs: the one over more questions",
			[]Run{
				fakeRun("small", cfgOf("m", 5, 512), nil,
					mstat{mode: "full", acc: 0.5, n: 10, tokens: 5000}),
				fakeRun("big", cfgOf("m", 3, 512), []run.Effect{{Mode: "bm25", Baseline: "full", N: 40, Diff: 0, Lo: -0.1, Hi: 0.1}},
					mstat{mode: "full", acc: 0.9, n: 40, tokens: 5000},
					mstat{mode: "bm25", acc: 0.9, n: 40, tokens: 1000}),
			},
			"bm25", map[string]bool{"bm25": true},
			[]string{"at 20.0% of full's mean prompt tokens (accuracy 90.0% vs full's 90.0%).", "Full is the run in big: of the 2 runs with full, the one over the most questions."}},
		{"no full",
			[]Run{fakeRun("a", cfgOf("m", 5, 512), nil,
				mstat{mode: "closed-book", acc: 0.4, n: 40, tokens: 120},
				mstat{mode: "bm25", acc: 0.6, n: 40, tokens: 800})},
			"", nil,
			[]string{"No run of m has the full mode"}},
		{"by cost too",
			[]Run{fakeRun("a", cfgOf("m", 5, 512), []run.Effect{{Mode: "bm25", Baseline: "full", N: 40, Diff: 0, Lo: -0.1, Hi: 0.1}},
				mstat{mode: "full", acc: 0.9, n: 40, tokens: 5000, cost: fp(0.4)},
				mstat{mode: "bm25", acc: 0.9, n: 40, tokens: 800, cost: fx})},
			"bm25", map[string]bool{"bm25": true},
			[]string{"at 16.0% of full's mean prompt tokens", "bm25, at 5.0% of full's cost per question"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bs := buildFrontier(c.runs)
			if len(bs) != 1 {
				t.Fatalf("%d blocks, want 1 (one model)", len(bs))
			}
			b := bs[0]
			got := ""
			if b.Best >= 0 && !b.Points[b.Best].Full {
				got = b.Points[b.Best].Label
			}
			if got != c.best {
				t.Errorf("cheapest within full's interval: %q, want %q", got, c.best)
			}
			for _, p := range b.Points {
				if p.Ceiling && (p.Frontier || p.CostFrontier) {
					t.Errorf("%s is on the frontier", p.Label)
				}
				if w, ok := c.within[p.Label]; ok && p.Within != w {
					t.Errorf("%s: within = %v, want %v (%s)", p.Label, p.Within, w, p.VsFull)
				}
			}
			text := b.Sentence + "\n" + b.CostSentence
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("sentences lack %q:\n%s", w, text)
				}
			}
		})
	}
}

// Labels name the mode and only the settings that differ between the
// plotted runs and matter to the mode: k means nothing to full.
func TestFrontierLabels(t *testing.T) {
	doc := cfgOf("m", 5, 512)
	doc.Order = "document"
	runs := []Run{
		fakeRun("a", cfgOf("m", 5, 512), nil, mstat{mode: "closed-book", acc: 0.3, n: 10, tokens: 100}, mstat{mode: "full", acc: 0.9, n: 10, tokens: 4000},
			mstat{mode: "bm25", acc: 0.5, n: 10, tokens: 900}),
		fakeRun("b", cfgOf("m", 3, 512), nil, mstat{mode: "full", acc: 0.9, n: 10, tokens: 4000}, mstat{mode: "bm25", acc: 0.6, n: 10, tokens: 600}),
		fakeRun("c", doc, nil, mstat{mode: "bm25", acc: 0.7, n: 10, tokens: 900}),
		fakeRun("d", cfgOf("other", 5, 512), nil, mstat{mode: "bm25", acc: 0.7, n: 10, tokens: 900}),
	}
	bs := buildFrontier(runs)
	if len(bs) != 2 || bs[0].Model != "m" || bs[1].Model != "other" {
		t.Fatalf("blocks %v, want m then other", bs)
	}
	var got []string
	for _, p := range bs[0].Points {
		got = append(got, p.Label)
	}
	// Cheapest first, in the order given on a tie.
	want := []string{"closed-book", "bm25 k=3 order=score", "bm25 k=5 order=score", "bm25 k=5 order=document", "full (a)", "full (b)"}
	if !slices.Equal(got, want) {
		t.Errorf("labels %q, want %q", got, want)
	}
	if l := bs[1].Points[0].Label; l != "bm25" {
		t.Errorf("the one run of another model: label %q, want bm25", l)
	}
}

// One count of prompt tokens serves all of a model's points where it can:
// the server's when every point has it, else the assembled count when
// every point has that; only otherwise are the two mixed, and marked.
func TestFrontierTokenCount(t *testing.T) {
	cases := []struct {
		name string
		ms   []mstat
		want []string // TokensS, cheapest first
		note string
	}{
		{"server everywhere", []mstat{{mode: "full", acc: 0.9, n: 10, tokens: 4000, server: 4300}, {mode: "bm25", acc: 0.5, n: 10, tokens: 900, server: 1000}},
			[]string{"1000", "4300"}, "as the server reported them"},
		{"assembled where a server count is missing", []mstat{{mode: "full", acc: 0.9, n: 10, tokens: 4000, server: 4300}, {mode: "bm25", acc: 0.5, n: 10, tokens: 900}},
			[]string{"900", "4000"}, "as paperlens assembled them"},
		{"mixed when neither is everywhere", []mstat{{mode: "full", acc: 0.9, n: 10, server: 4300}, {mode: "bm25", acc: 0.5, n: 10, tokens: 900}},
			[]string{"900 (cl100k)", "4300"}, "except the points marked (cl100k)"},
		{"no count at all is left out", []mstat{{mode: "full", acc: 0.9, n: 10, tokens: 4000}, {mode: "bm25", acc: 0.5, n: 10}},
			[]string{"4000"}, "as paperlens assembled them"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := buildFrontier([]Run{fakeRun("a", cfgOf("m", 5, 512), nil, c.ms...)})[0]
			var got []string
			for _, p := range b.Points {
				got = append(got, p.TokensS)
			}
			if !slices.Equal(got, c.want) || !strings.Contains(b.TokensNote(), c.note) {
				t.Errorf("tokens %q, note %q; want %q, a note saying %q", got, b.TokensNote(), c.want, c.note)
			}
			if b.Skipped != len(c.ms)-len(c.want) {
				t.Errorf("skipped %d, want %d", b.Skipped, len(c.ms)-len(c.want))
			}
		})
	}
}

// Runs of one model on other data get a figure of their own: their
// accuracies are over other questions.
func TestFrontierPerDataset(t *testing.T) {
	other := cfgOf("m", 5, 512)
	other.Data = "/data/other.jsonl"
	runs := []Run{
		fakeRun("a", cfgOf("m", 5, 512), nil, mstat{mode: "full", acc: 0.9, n: 10, tokens: 4000}),
		fakeRun("b", other, nil, mstat{mode: "full", acc: 0.5, n: 10, tokens: 4000}),
		fakeRun("c", cfgOf("m", 3, 512), nil, mstat{mode: "bm25", acc: 0.6, n: 10, tokens: 600}),
	}
	var got []string
	for _, b := range buildFrontier(runs) {
		got = append(got, fmt.Sprintf("%s: %d points", b.Model, len(b.Points)))
	}
	want := []string{"m · sample.jsonl: 2 points", "m · other.jsonl: 1 points"}
	if !slices.Equal(got, want) {
		t.Errorf("blocks %q, want %q", got, want)
	}
}

// A field the run package does not know yet (another branch adds it)
// labels from config.json's key; absent, it reads as its default.
func TestLabelFieldAbsent(t *testing.T) {
	vals := configValues(cfgOf("m", 5, 512))
	f := labelField{"rerank", "rerank", "none", retrieves}
	if v := f.value(vals); v != "none" {
		t.Errorf("absent rerank reads %q, want none", v)
	}
	vals["rerank"] = "api"
	if v := f.value(vals); v != "api" {
		t.Errorf("rerank reads %q, want api", v)
	}
	if v := f.value(nil); v != "?" {
		t.Errorf("no config.json reads %q, want ?", v)
	}
}

// Labels come from config values and model names: both formats escape
// them, and the standalone SVG is a document of its own.
func TestFrontierEscapes(t *testing.T) {
	c := cfgOf(evil, 5, 512)
	c2 := cfgOf(evil, 3, 512)
	c2.QueryForm = `"><script>x</script>`
	runs := []Run{
		fakeRun("a", c, nil, mstat{mode: "full", acc: 0.9, n: 10, tokens: 4000}, mstat{mode: "bm25", acc: 0.5, n: 10, tokens: 900}),
		fakeRun("b", c2, nil, mstat{mode: "bm25", acc: 0.6, n: 10, tokens: 600}),
	}
	var h, m, s bytes.Buffer
	if err := HTML(&h, runs); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&m, runs); err != nil {
		t.Fatal(err)
	}
	if err := FrontierSVG(&s, runs); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"HTML": h.String(), "Markdown": m.String(), "SVG": s.String()} {
		if strings.Contains(out, "<script") {
			t.Errorf("%s carries a raw <script> from a label", name)
		}
		if !strings.Contains(out, hFrontier) && name != "SVG" {
			t.Errorf("%s lacks the frontier section", name)
		}
	}
	if !strings.HasPrefix(s.String(), `<svg xmlns="http://www.w3.org/2000/svg"`) || strings.Count(s.String(), "<svg") != 2 {
		t.Errorf("standalone SVG: want a root <svg xmlns> holding one chart:\n%.300s", s.String())
	}
}
