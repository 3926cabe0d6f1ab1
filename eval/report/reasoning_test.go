package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/model"
)

// fxRun is a run folder written the way paperlens eval writes it: the
// records by hand, the summary by run.Summarize, so the report reads what
// a real run would give it.
type fxRun struct {
	name, model, paradigm, data string
	modes                       []string
	runs                        int
	price                       *run.Price
	recs                        []run.Record
}

func (f fxRun) write(t *testing.T, root string) string {
	t.Helper()
	dir := filepath.Join(root, f.name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := run.Config{Bench: "jsonl", Data: f.data, Model: f.model, Paradigm: f.paradigm, Modes: f.modes, Runs: f.runs, Price: f.price}
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	var lines bytes.Buffer
	seen := map[string]bool{}
	var qs []bench.Question
	for _, r := range f.recs {
		if r.QuestionType == "" {
			r.QuestionType = "SA-MCQ"
		}
		b, _ := json.Marshal(r)
		lines.Write(append(b, '\n'))
		if !seen[r.QuestionID] {
			seen[r.QuestionID] = true
			qs = append(qs, bench.Question{ID: r.QuestionID, Type: "SA-MCQ"})
		}
	}
	if err := os.WriteFile(filepath.Join(dir, run.ResultsFile), lines.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, err := run.ReadResults(filepath.Join(dir, run.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := run.WriteSummary(dir, run.Summarize(cfg, qs, recs)); err != nil {
		t.Fatal(err)
	}
	return dir
}

func loadFx(t *testing.T, fxs ...fxRun) []Run {
	t.Helper()
	root := t.TempDir()
	var dirs []string
	for _, f := range fxs {
		dirs = append(dirs, f.write(t, root))
	}
	runs, err := Load(dirs...)
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

func render(t *testing.T, runs []Run) (htmlOut, mdOut string) {
	t.Helper()
	var h, m bytes.Buffer
	if err := HTML(&h, runs); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&m, runs); err != nil {
		t.Fatal(err)
	}
	return h.String(), m.String()
}

func rec(q, mode string, runN int, correct bool, u model.Usage) run.Record {
	return run.Record{QuestionID: q, Mode: mode, Run: runN, Correct: correct, Usage: u, ScoreKind: "exact", FinishReason: "stop"}
}

// tokenRun: full is read by a server that reports usage (prompt 1000 and
// 1200 per question, completion 300, reasoning 200, one reply cut by the
// limit); bm25 has no usage at all (an offline baseline).
func tokenRun(price *run.Price) fxRun {
	f := fxRun{name: "tok", model: "thinker", paradigm: "reasoning", data: "/d/q.jsonl", modes: []string{"full", "bm25"}, runs: 2, price: price}
	for n := 1; n <= 2; n++ {
		f.recs = append(f.recs,
			rec("q1", "full", n, true, model.Usage{PromptTokens: 1000, CompletionTokens: 300, ReasoningTokens: 200, CachedTokens: 500}),
			rec("q2", "full", n, n == 1, model.Usage{PromptTokens: 1200, CompletionTokens: 300, ReasoningTokens: 200}))
		b1, b2 := rec("q1", "bm25", n, true, model.Usage{}), rec("q2", "bm25", n, false, model.Usage{})
		b1.PromptTokens, b2.PromptTokens = 90, 110
		f.recs = append(f.recs, b1, b2)
	}
	f.recs[3].Truncated, f.recs[3].FinishReason, f.recs[3].Correct = true, "length", false // q2 bm25 run 1
	f.recs[1].Truncated, f.recs[1].FinishReason, f.recs[1].Correct = true, "length", false // q2 full run 1
	return f
}

func TestTokensCostTruncated(t *testing.T) {
	price := &run.Price{In: 2, Out: 8}
	cases := []struct {
		name    string
		price   *run.Price
		want    []string // in the Markdown
		wantNot []string
		html    []string
	}{
		{"priced", price, []string{
			"| model | mode | SA-MCQ | overall | n | miss rate % | evidence recall % | truncated | tokens/q in · out (reasoning) | cost US$ |",
			// full: 4400 prompt, 1200 completion over 4 records; 4400×2 + 1200×8 = 18,400 per million → 0.02
			"| thinker | full | 50.0 ± 0.0 | **50.0 ± 0.0** | 2 | 0.0 | – | 1 | 1100 · 300 (200) | 0.02 |",
			"| thinker | bm25 | 50.0 ± 0.0 | **50.0 ± 0.0** | 2 | 0.0 | – | 1 | – | 0 |",
			"Cost is those tokens",
		}, nil, []string{"<th>cost US$</th>", "<td>1100 · 300 (200)</td><td>0.02</td>", "<td>1</td><td>–</td><td>0</td>"}},
		{"unpriced", nil, []string{
			"| model | mode | SA-MCQ | overall | n | miss rate % | evidence recall % | truncated | tokens/q in · out (reasoning) |\n",
			"| thinker | full | 50.0 ± 0.0 | **50.0 ± 0.0** | 2 | 0.0 | – | 1 | 1100 · 300 (200) |\n",
		}, []string{"cost US$", "Cost is"}, []string{"<td>1100 · 300 (200)</td></tr>"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, m := render(t, loadFx(t, tokenRun(c.price)))
			for _, w := range c.want {
				if !strings.Contains(m, w) {
					t.Errorf("Markdown lacks %q", w)
				}
			}
			for _, w := range c.wantNot {
				if strings.Contains(m, w) || strings.Contains(h, w) {
					t.Errorf("report has %q", w)
				}
			}
			for _, w := range c.html {
				if !strings.Contains(h, w) {
					t.Errorf("HTML lacks %q", w)
				}
			}
			if t.Failed() {
				t.Log(m)
			}
		})
	}
}

// An old summary.json (before token totals) still renders, with dashes.
func TestOldSummaryTokens(t *testing.T) {
	runs, err := Load(writeRun(t, "old", 0.5))
	if err != nil {
		t.Fatal(err)
	}
	_, m := render(t, runs)
	if !strings.Contains(m, "| old | full | 60.0 ± 3.0 | 50.0 ± 1.0 | **55.0 ± 2.0** | 10 | 10.0 | – | 0 | – |\n") {
		t.Errorf("old summary row wrong:\n%s", m)
	}
	if !strings.Contains(m, "No mode has a prompt token count.") || !strings.Contains(m, "No run reports reasoning length by a breakdown field.") {
		t.Errorf("empty token and reasoning sections not said:\n%s", m)
	}
}

type svgText struct {
	x, y         float64
	anchor, text string
	size         string
}

type svgCircle struct {
	x, y         float64
	fill, stroke string
	title        string
}

// parseChart finds the <svg> with the given aria-label and returns its
// circles and texts.
func parseChart(t *testing.T, page, label string) ([]svgCircle, []svgText) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	attr := func(n *html.Node, k string) string {
		for _, a := range n.Attr {
			if a.Key == k {
				return a.Val
			}
		}
		return ""
	}
	num := func(n *html.Node, k string) float64 {
		v, err := strconv.ParseFloat(attr(n, k), 64)
		if err != nil {
			t.Fatalf("<%s %s=%q>: %v", n.Data, k, attr(n, k), err)
		}
		return v
	}
	text := func(n *html.Node) string {
		var b strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				b.WriteString(c.Data)
			}
		}
		return b.String()
	}
	var svg *html.Node
	var find func(*html.Node)
	find = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "svg" && attr(n, "aria-label") == label {
			svg = n
		}
		for c := n.FirstChild; c != nil && svg == nil; c = c.NextSibling {
			find(c)
		}
	}
	find(doc)
	if svg == nil {
		t.Fatalf("no <svg aria-label=%q>", label)
	}
	var cs []svgCircle
	var ts []svgText
	for n := svg.FirstChild; n != nil; n = n.NextSibling {
		switch n.Data {
		case "circle", "polygon":
			c := svgCircle{fill: attr(n, "fill"), stroke: attr(n, "stroke")}
			if n.Data == "circle" {
				c.x, c.y = num(n, "cx"), num(n, "cy")
			} else {
				c.x, c.y = polygonCentre(t, attr(n, "points"))
			}
			for k := n.FirstChild; k != nil; k = k.NextSibling {
				if k.Data == "title" {
					c.title = text(k)
				}
			}
			cs = append(cs, c)
		case "text":
			ts = append(ts, svgText{x: num(n, "x"), y: num(n, "y"), anchor: attr(n, "text-anchor"), text: text(n), size: attr(n, "font-size")})
		}
	}
	return cs, ts
}

// polygonCentre is the mean of a polygon's vertices: a marker's centre.
func polygonCentre(t *testing.T, points string) (x, y float64) {
	t.Helper()
	ps := strings.Fields(points)
	for _, p := range ps {
		var px, py float64
		if _, err := fmt.Sscanf(p, "%g,%g", &px, &py); err != nil {
			t.Fatalf("polygon points %q: %v", points, err)
		}
		x, y = x+px/float64(len(ps)), y+py/float64(len(ps))
	}
	return x, y
}

func parseTick(s string) (float64, bool) {
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "k"):
		mult, s = 1e3, strings.TrimSuffix(s, "k")
	case strings.HasSuffix(s, "M"):
		mult, s = 1e6, strings.TrimSuffix(s, "M")
	}
	v, err := strconv.ParseFloat(s, 64)
	return v * mult, err == nil
}

// serverRun has usage on every record, and no assembled sizes.
func serverRun() fxRun {
	f := fxRun{name: "srv", model: "thinker", paradigm: "reasoning", data: "/d/q.jsonl", modes: []string{"closed-book", "full", "bm25"}, runs: 1}
	size := map[string]int{"closed-book": 80, "full": 20000, "bm25": 1500}
	right := map[string]int{"closed-book": 1, "full": 4, "bm25": 2}
	for _, m := range f.modes {
		for i, q := range []string{"q1", "q2", "q3", "q4"} {
			f.recs = append(f.recs, rec(q, m, 1, i < right[m], model.Usage{PromptTokens: size[m], CompletionTokens: 5}))
		}
	}
	return f
}

// offlineRun has no usage (no server): the chart falls back to the prompt
// size paperlens assembled.
func offlineRun(name string) fxRun {
	f := fxRun{name: name, model: "bm25-oracle-" + name, paradigm: "base", data: "/d/q.jsonl", modes: []string{"closed-book", "full", "bm25"}, runs: 1}
	size := map[string]int{"closed-book": 60, "full": 25000, "bm25": 1500}
	for _, m := range f.modes {
		for i, q := range []string{"q1", "q2", "q3", "q4"} {
			r := rec(q, m, 1, i < map[string]int{"closed-book": 1, "full": 3, "bm25": 2}[m], model.Usage{})
			r.PromptTokens = size[m]
			f.recs = append(f.recs, r)
		}
	}
	return f
}

func TestTokensChart(t *testing.T) {
	type pt struct {
		tokens, acc float64
		hollow      bool
	}
	cases := []struct {
		name string
		runs []fxRun
		axis string // in the axis label
		want map[string]pt
	}{
		{"server", []fxRun{serverRun()}, "server-reported (log scale)", map[string]pt{
			"thinker · closed-book": {80, 0.25, false},
			"thinker · full":        {20000, 1, false},
			"thinker · bm25":        {1500, 0.5, false},
		}},
		{"assembled", []fxRun{offlineRun("a")}, "assembled by paperlens, cl100k", map[string]pt{
			"bm25-oracle-a · closed-book": {60, 0.25, false},
			"bm25-oracle-a · full":        {25000, 0.75, false},
			"bm25-oracle-a · bm25":        {1500, 0.5, false},
		}},
		// tokenRun's bm25 has no usage: its point is the assembled size,
		// drawn hollow beside server-counted ones.
		{"mixed", []fxRun{tokenRun(nil), offlineRun("b")}, "filled server-reported, hollow assembled", map[string]pt{
			"thinker · full":              {1100, 0.5, false},
			"thinker · bm25":              {100, 0.5, true},
			"bm25-oracle-b · closed-book": {60, 0.25, true},
			"bm25-oracle-b · full":        {25000, 0.75, true},
			"bm25-oracle-b · bm25":        {1500, 0.5, true},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			page, _ := render(t, loadFx(t, c.runs...))
			circles, texts := parseChart(t, page, "Accuracy against prompt tokens per question")
			// Axes from the tick labels: x ticks sit centred under the
			// plot, y labels right-aligned 4 px below their gridline.
			var xt [][2]float64 // x position, value
			var y0, y100 float64 = math.NaN(), math.NaN()
			axisOK := false
			for _, tx := range texts {
				switch {
				case tx.anchor == "middle" && tx.size == "11.0":
					if v, ok := parseTick(tx.text); ok {
						xt = append(xt, [2]float64{tx.x, v})
					}
				case tx.anchor == "end" && tx.text == "0":
					y0 = tx.y - 4
				case tx.anchor == "end" && tx.text == "100":
					y100 = tx.y - 4
				}
				axisOK = axisOK || strings.Contains(tx.text, c.axis)
			}
			if !axisOK {
				t.Errorf("no axis label saying %q", c.axis)
			}
			if len(xt) < 2 || math.IsNaN(y0) || math.IsNaN(y100) {
				t.Fatalf("axes not found: x ticks %v, y0 %v, y100 %v", xt, y0, y100)
			}
			a, b := xt[0], xt[len(xt)-1]
			xOf := func(v float64) float64 {
				return a[0] + (math.Log10(v)-math.Log10(a[1]))/(math.Log10(b[1])-math.Log10(a[1]))*(b[0]-a[0])
			}
			yOf := func(v float64) float64 { return y0 + v*(y100-y0) }
			// The legend's markers are titled by the run alone.
			circles = slices.DeleteFunc(circles, func(c svgCircle) bool { return !strings.Contains(c.title, " · ") })
			if len(circles) != len(c.want) {
				t.Errorf("%d points, want %d (one per run and mode)", len(circles), len(c.want))
			}
			got := map[string]bool{}
			for _, ci := range circles {
				key, _, _ := strings.Cut(ci.title, ":")
				w, ok := c.want[key]
				if !ok {
					t.Errorf("unexpected point %q", ci.title)
					continue
				}
				got[key] = true
				if math.Abs(ci.x-xOf(w.tokens)) > 0.15 || math.Abs(ci.y-yOf(w.acc)) > 0.15 {
					t.Errorf("%s at (%.1f, %.1f), want (%.1f, %.1f) for %v tokens, accuracy %v", key, ci.x, ci.y, xOf(w.tokens), yOf(w.acc), w.tokens, w.acc)
				}
				if hollow := ci.fill == "#fff"; hollow != w.hollow {
					t.Errorf("%s hollow = %v, want %v", key, hollow, w.hollow)
				}
				// Its label (alone, or one of the modes drawn at its
				// spot) is beside it, with room to spare in these charts.
				mode := key[strings.Index(key, " · ")+len(" · "):]
				labelled := false
				for _, tx := range texts {
					size, _ := strconv.ParseFloat(tx.size, 64)
					b := textBox(tx.x, tx.y, tx.text, tx.anchor, size)
					nx, ny := nearestOn(b, ci.x, ci.y)
					labelled = labelled || (slices.Contains(strings.Split(tx.text, " = "), mode) && math.Hypot(nx-ci.x, ny-ci.y) <= 12)
				}
				if !labelled {
					t.Errorf("%s has no label beside it", key)
				}
			}
			for k := range c.want {
				if !got[k] {
					t.Errorf("no point for %s", k)
				}
			}
		})
	}
}

// flipRuns: a base and a reasoning run of one model on one dataset, and
// runs that must not pair with them (another model; other data).
func flipRuns() []fxRun {
	base := fxRun{name: "m-base", model: "m", paradigm: "base", data: "/d/q.jsonl", modes: []string{"full", "bm25"}, runs: 2}
	reason := fxRun{name: "m-reasoning", model: "m", paradigm: "reasoning", data: "/d/./q.jsonl", modes: []string{"full", "bm25"}, runs: 2}
	// Correct runs per question (of 2): base full right on q1 q2 q3 (1 of
	// 2: a tie is right, as in McNemar's counts) q10; wrong on q4 q5; q6
	// only in base (not paired).
	bFull := map[string]int{"q1": 2, "q2": 2, "q3": 1, "q10": 2, "q4": 0, "q5": 0, "q6": 2}
	rFull := map[string]int{"q1": 2, "q2": 0, "q3": 1, "q10": 0, "q4": 2, "q5": 0}
	add := func(f *fxRun, mode string, c map[string]int) {
		for _, q := range []string{"q1", "q2", "q3", "q4", "q5", "q6", "q10"} {
			k, ok := c[q]
			if !ok {
				continue
			}
			for n := 1; n <= 2; n++ {
				f.recs = append(f.recs, rec(q, mode, n, n <= k, model.Usage{}))
			}
		}
	}
	add(&base, "full", bFull)
	add(&reason, "full", rFull)
	add(&base, "bm25", map[string]int{"q1": 2, "q2": 0})
	add(&reason, "bm25", map[string]int{"q1": 0, "q2": 0})
	// An error is not scored: q2 bm25 in the reasoning run is then right
	// on its one scored run, a gain.
	reason.recs[len(reason.recs)-2].Correct = true
	reason.recs[len(reason.recs)-1].Error = "timeout"
	other := reason
	other.name, other.model = "other-reasoning", "other"
	elsewhere := reason
	elsewhere.name, elsewhere.data = "m-reasoning-lpfqa", "/d/lpfqa.jsonl"
	cot := base
	cot.name, cot.paradigm = "m-cot", "cot"
	return []fxRun{base, reason, other, elsewhere, cot}
}

func TestReasoningFlips(t *testing.T) {
	all := flipRuns()
	cases := []struct {
		name string
		runs []fxRun
		want []string // Markdown lines, in order
		not  []string
	}{
		{"pair", all[:2], []string{
			"### m: base (m-base) → reasoning (m-reasoning)",
			"| mode | paired questions | right→wrong | wrong→right | right→wrong questions |",
			"| full | 6 | 2 | 1 | q2, q10 |",
			"| bm25 | 2 | 1 | 1 | q1 |",
		}, []string{"No reasoning run has"}},
		{"no pair: other model, other data", []fxRun{all[0], all[2], all[3]}, []string{
			"No reasoning run has a base or cot run of the same model on the same data beside it.",
		}, []string{"→ reasoning"}},
		{"base and cot both pair", []fxRun{all[0], all[4], all[1]}, []string{
			"### m: base (m-base) → reasoning (m-reasoning)",
			"| full | 6 | 2 | 1 | q2, q10 |",
			"### m: cot (m-cot) → reasoning (m-reasoning)",
			"| full | 6 | 2 | 1 | q2, q10 |",
		}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, m := render(t, loadFx(t, c.runs...))
			_, sec, _ := strings.Cut(m, "## 7. "+hFlips)
			sec, _, _ = strings.Cut(sec, "## 8.")
			at := 0
			for _, w := range c.want {
				i := strings.Index(sec[at:], w)
				if i < 0 {
					t.Errorf("flips section lacks %q (in order)", w)
					continue
				}
				at += i + len(w)
			}
			for _, w := range c.not {
				if strings.Contains(sec, w) {
					t.Errorf("flips section has %q", w)
				}
			}
			if c.name == "pair" && !strings.Contains(h, `<tr><td class="l">full</td><td>6</td><td>2</td><td>1</td><td class="l ids">q2, q10</td></tr>`) {
				t.Errorf("HTML flips row wrong")
			}
			if t.Failed() {
				t.Log(sec)
			}
		})
	}
}

// More flips than the list holds: the first ones, in id order, and how many
// more there are.
func TestReasoningFlipsCap(t *testing.T) {
	base := fxRun{name: "b", model: "m", paradigm: "base", data: "/d", modes: []string{"full"}, runs: 1}
	reason := fxRun{name: "r", model: "m", paradigm: "reasoning", data: "/d", modes: []string{"full"}, runs: 1}
	for i := 1; i <= maxFlipIDs+7; i++ {
		q := fmt.Sprintf("e-%d", i)
		base.recs = append(base.recs, rec(q, "full", 1, true, model.Usage{}))
		reason.recs = append(reason.recs, rec(q, "full", 1, false, model.Usage{}))
	}
	_, m := render(t, loadFx(t, base, reason))
	var ids []string
	for i := 1; i <= maxFlipIDs; i++ {
		ids = append(ids, fmt.Sprintf(`e-%d`, i))
	}
	want := fmt.Sprintf("| full | %d | %d | 0 | %s … and 7 more |", maxFlipIDs+7, maxFlipIDs+7, strings.Join(ids, ", "))
	if !strings.Contains(m, want) {
		t.Errorf("Markdown lacks\n%s\n%s", want, m)
	}
}

func TestReasoningByBreakdown(t *testing.T) {
	f := fxRun{name: "rb", model: "thinker", paradigm: "reasoning", data: "/d", modes: []string{"full"}, runs: 1}
	for i, d := range []string{"easy", "hard", "hard"} {
		r := rec(fmt.Sprintf("q%d", i), "full", 1, true, model.Usage{ReasoningTokens: 100 * (i + 1)})
		r.Breakdown = map[string]string{"difficulty": d}
		r.Reasoning = strings.Repeat("x", 10*(i+1))
		f.recs = append(f.recs, r)
	}
	h, m := render(t, loadFx(t, f))
	for _, w := range []string{"### by difficulty", "| model | mode | easy | hard |", "| thinker | full | 100 tok · 10 chars (n=1) | 250 tok · 25 chars (n=2) |"} {
		if !strings.Contains(m, w) {
			t.Errorf("Markdown lacks %q", w)
		}
	}
	if !regexp.MustCompile(`<h3>by difficulty</h3>\s*<table>`).MatchString(h) || !strings.Contains(h, "<td>250 tok · 25 chars (n=2)</td>") {
		t.Errorf("HTML lacks the reasoning-by-difficulty table")
	}
}

func TestNatCompare(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"q2", "q10", -1}, {"q10", "q2", 1}, {"q02", "q2", -1}, {"a", "b", -1}, {"q1a", "q1b", -1}, {"q1", "q1a", -1}, {"10", "9", 1},
	}
	for _, c := range cases {
		if got := natCompare(c.a, c.b); got != c.want {
			t.Errorf("natCompare(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// Section 5 plots reasoning length, so it leaves out the offline
// baselines: ir keeps its option scores in the reasoning field (they are
// no reasoning), random has none. A run is a baseline by config.json's
// model, or by its summary's when it has no config.
func TestReasoningLeavesOutBaselines(t *testing.T) {
	withReasoning := func(model string, cfg bool) Run {
		r := Run{Dir: "/runs/" + model, Summary: run.Summary{Model: model}}
		if cfg {
			r.Config = run.Config{Model: model}
		}
		for q := range 4 {
			r.Records = append(r.Records, run.Record{QuestionID: fmt.Sprint(q), Mode: "full", Correct: q%2 == 0,
				Reasoning: "A: 3.2\nB: 1.1\nC: 0.4"})
		}
		return r
	}
	cases := []struct {
		name string
		runs []Run
		want []string // the rows of section 5
		note bool     // the section says the baselines are left out
	}{
		{"ir beside a model", []Run{withReasoning("ir", true), withReasoning("thinker", true)}, []string{"thinker"}, true},
		{"ir by its summary alone", []Run{withReasoning("ir", false), withReasoning("random", false)}, nil, true},
		{"no baseline", []Run{withReasoning("thinker", true)}, []string{"thinker"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := build(tc.runs)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range p.Reason {
				got = append(got, r.Model)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("section 5 rows %q, want %q", got, tc.want)
			}
			if (p.ReasonSVG != nil) != (len(tc.want) > 0) {
				t.Errorf("chart drawn: %v, with %d rows", p.ReasonSVG != nil, len(tc.want))
			}
			h, m := render(t, tc.runs)
			for _, out := range []string{h, m} {
				if strings.Contains(out, "offline baselines (random, ir) are left out") != tc.note {
					t.Errorf("note that the baselines are left out: want %v", tc.note)
				}
			}
		})
	}
}
