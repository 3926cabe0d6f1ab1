package report

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/eval/study"
	"github.com/paperlens/paperlens/internal/testkit/browsertest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	browsertest.Stop()
	os.Exit(code)
}

// sampleStudy runs what the README tour runs, `paperlens study` on its
// defaults (the sample in testdata/, the offline baselines random and ir,
// every mode but the tool modes, 3 runs, seed 1), in process through
// eval/study as the command does, and loads its run folders as `paperlens
// report` does. It takes about 2 s of CPU.
func sampleStudy(t *testing.T) []Run {
	t.Helper()
	root := filepath.Join("..", "..", "testdata")
	cfg := study.Config{
		// The command's flag defaults that Config.Defaults does not fill.
		Eval: session.Request{Config: run.Config{Bench: "elaipbench", Data: filepath.Join(root, "elaipbench", "sample.jsonl"),
			Papers: filepath.Join(root, "papers"), Home: t.TempDir(), Runs: 3, Seed: 1, APIKeyEnv: "OPENAI_API_KEY",
			WebProvider: "corpus", WebResults: 5, WebTokens: 1024, StopAfter: run.DefaultStopAfter}},
		OutRoot: t.TempDir(),
	}
	if err := cfg.Defaults(io.Discard); err != nil {
		t.Fatal(err)
	}
	qs, err := session.Questions(cfg.Eval.Config, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	res, err := study.Run(context.Background(), cfg, qs)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := Load(res.Dirs()...)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].Summary.Model != "random" || runs[1].Summary.Model != "ir" || len(runs[1].Summary.Modes) < 10 {
		t.Fatalf("the sample study ran %d runs, not random and ir in every mode", len(runs))
	}
	return runs
}

// crowdedRuns is the case the sample does not reach: twelve modes, two
// runs of one model with identical numbers (one under a long folder name,
// so its label is long too), and a third run whose modes coincide among
// themselves (bm25 = hybrid = self-route), all with recall, tokens,
// effects, misses and reasoning text.
func crowdedRuns() []Run {
	mk := func(model, dir string, base float64, same bool) Run {
		s := run.Summary{Model: model, Bench: "elaipbench", Paradigm: "reasoning", Runs: 3, Questions: 37, Modes: crowdedModes,
			Baseline: "closed-book", ByMode: map[string]run.ModeStats{}}
		var recs []run.Record
		for i, m := range crowdedModes {
			acc := base + 0.03*float64(i%5)
			tok := 160.0 * float64(1+i)
			if same && (m == "bm25" || m == "hybrid" || m == "self-route") {
				acc, tok = base, 2000
			}
			ms := run.ModeStats{Acc: run.Acc{Accuracy: acc, Std: 0.01, N: 37}, MissRate: 0.02 * float64(i%4), PromptTokens: tok, Records: 111}
			if i >= 2 && m != "web" && m != "full+web" {
				ms.EvidenceRecall = fp(0.9 + 0.01*float64(i%3))
			}
			s.ByMode[m] = ms
			if m != "closed-book" {
				s.Effects = append(s.Effects, run.Effect{Mode: m, Baseline: "closed-book", N: 37, Diff: acc - base, Lo: acc - base - 0.1, Hi: acc - base + 0.1, PValue: 0.5})
			}
			for q := range 8 {
				recs = append(recs, run.Record{QuestionID: fmt.Sprintf("q%d", q), Mode: m, Run: 1, Correct: q%3 != 0, ScoreKind: "exact",
					Reasoning: strings.Repeat("r", 1100*q+1)})
			}
		}
		return Run{Dir: "/runs/" + dir, Summary: s, Records: recs, Config: run.Config{Model: model, Bench: "elaipbench", Data: "/d/sample.jsonl"}}
	}
	return []Run{
		mk("oracle", "study-oracle-b", 0.4, false),
		mk("oracle", "study-oracle-baseline-long-name", 0.4, false),
		mk("gpt-4o-mini", "study-gpt-4o-mini-reasoning", 0.6, true),
	}
}

// figText is what the browser measured of one text in a figure: its box,
// its figure's box, and whether it is a legend label.
type figText struct {
	browsertest.Box
	Legend bool
	SVG    browsertest.Box
}

// svgTextsJS measures every text of every figure (svg text, whatever its
// class: ticks, axis titles, point labels, legends) by its bounding
// client rect, and the outermost svg holding it.
const svgTextsJS = `(() => {
  const out = [];
  const box = r => ({X: r.x + window.scrollX, Y: r.y + window.scrollY, Width: r.width, Height: r.height});
  for (const el of document.querySelectorAll('svg text')) {
    const text = (el.textContent || '').trim();
    if (!text) continue;
    let svg = el.closest('svg');
    while (svg.parentElement && svg.parentElement.closest('svg')) svg = svg.parentElement.closest('svg');
    const b = box(el.getBoundingClientRect());
    Object.assign(b, {Text: text, Legend: el.classList.contains('legend'), SVG: box(svg.getBoundingClientRect())});
    out.push(b);
  }
  return out;
})()`

// serveHTML serves page at a local URL for the browser.
func serveHTML(t *testing.T, page []byte) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// measure loads page in the browser and returns its figures' texts.
func measure(t *testing.T, page []byte) []figText {
	t.Helper()
	return browsertest.InTab(t, serveHTML(t, page), []chromedp.Action[chromedp.Void]{chromedp.EmulateViewport(1200, 900)},
		chromedp.Evaluate[[]figText](svgTextsJS))
}

// figureProblems lists what a reader would trip over in the measured
// texts: two texts that intersect (by more than half a pixel, which
// anti-aliasing touches), and a text not wholly inside its figure (the
// svg clips it: a legend cut to "oracle (study-oracle-b").
func figureProblems(texts []figText) []string {
	var out []string
	boxes := make([]browsertest.Box, len(texts))
	for i, x := range texts {
		boxes[i] = x.Box
	}
	for _, o := range browsertest.Overlaps(boxes, 0.5) {
		out = append(out, fmt.Sprintf("%q at %.1f,%.1f %.1f×%.1f intersects %q at %.1f,%.1f %.1f×%.1f",
			o[0].Text, o[0].X, o[0].Y, o[0].Width, o[0].Height, o[1].Text, o[1].X, o[1].Y, o[1].Width, o[1].Height))
	}
	for _, x := range texts {
		b, s := x.Box, x.SVG
		if b.X < s.X-0.5 || b.Y < s.Y-0.5 || b.X+b.Width > s.X+s.Width+0.5 || b.Y+b.Height > s.Y+s.Height+0.5 {
			kind := "text"
			if x.Legend {
				kind = "legend label"
			}
			out = append(out, fmt.Sprintf("%s %q (%.1f..%.1f, %.1f..%.1f) is cut by its figure (%.1f..%.1f, %.1f..%.1f)",
				kind, b.Text, b.X, b.X+b.Width, b.Y, b.Y+b.Height, s.X, s.X+s.Width, s.Y, s.Y+s.Height))
		}
	}
	return out
}

// The acceptance check of the figures: the sample report (what the README
// tour's `paperlens study` then `paperlens report --html` gives) and a
// crowded one, rendered in Chromium, have no two texts of their figures
// intersecting and no text (legends included) cut by its figure's edge.
// The old-layout case shows the check failing where it should: labels at
// one fixed offset from coinciding points, and a legend wider than its
// svg, as the report drew them before. On the report as it was before
// the layout (commit 47d7f42) this test finds 79 intersecting texts in
// the sample report, and 116 and 9 cut texts in the crowded one.
func TestFiguresInBrowser(t *testing.T) {
	browsertest.Path(t)
	sample := sampleStudy(t)
	cases := []struct {
		name string
		runs []Run
	}{
		{"sample study", sample},
		{"crowded: 12 modes, equal runs, a long name", crowdedRuns()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var page bytes.Buffer
			if err := HTML(&page, tc.runs); err != nil {
				t.Fatal(err)
			}
			texts := measure(t, page.Bytes())
			legends := 0
			for _, x := range texts {
				if x.Legend {
					legends++
				}
			}
			// Every run is named in the legends of sections 3, 4 and 8.
			if len(texts) < 100 || legends < 3*len(tc.runs) {
				t.Fatalf("measured %d texts, %d legend labels: the figures did not render", len(texts), legends)
			}
			for _, p := range figureProblems(texts) {
				t.Error(p)
			}
		})
	}
	t.Run("old layout fails the check", func(t *testing.T) {
		// Section 3 as drawn before: every label 7 px right of and 6 px
		// above its point, so coinciding points (bm25 and hybrid at one
		// spot) print their labels over each other; the legend's text
		// started 30 px into a 150 px margin whatever its length.
		c := &chart{W: 680, H: 420, Label: "old"}
		for _, m := range []string{"bm25", "hybrid"} {
			c.text(300+7, 200-6, m, "start", 10)
		}
		c.text(60+470+30, 30, "oracle (study-oracle-baseline-long-name)", "start", 11)
		c.Texts[2].Class = "legend"
		var page bytes.Buffer
		if err := figuresPage(`{{template "svg" .}}`).Execute(&page, c); err != nil {
			t.Fatal(err)
		}
		got := figureProblems(measure(t, page.Bytes()))
		if len(got) != 2 || !strings.Contains(got[0], `"bm25"`) || !strings.Contains(got[1], "legend label") {
			t.Errorf("the check should find the two labels over each other and the cut legend, found %q", got)
		}
	})
	if os.Getenv("PAPERLENS_SCREENSHOTS") != "" {
		screenshotFigures(t, sample)
	}
}

// figuresPage is a page of charts drawn as the report draws them, body
// being the template of what it shows: two figures a row, as wide as they
// are, on white.
func figuresPage(body string) *template.Template {
	return template.Must(template.New("page").Funcs(tmplFuncs).Parse(svgShapes + svgFigure + `<!DOCTYPE html><html><head><meta charset="utf-8"><style>
body{margin:0;padding:12px;background:#fff;font-family:system-ui,-apple-system,"Segoe UI",sans-serif;display:grid;grid-template-columns:auto auto;gap:8px 16px;align-items:start;width:max-content}
svg{display:block}</style></head><body>` + body + `</body></html>`))
}

// screenshotFigures writes docs/img/report.png for the README tour: the
// sample report's figures of sections 3, 4, 2 (random's RAG effect) and 9
// (ir's frontier), two by two, as the browser draws them.
func screenshotFigures(t *testing.T, runs []Run) {
	t.Helper()
	p, err := build(runs)
	if err != nil {
		t.Fatal(err)
	}
	// Section 8 is left out: the offline baselines always answer, so
	// their miss rates are all 0 and its bars empty.
	figs := []*chart{p.TokensSVG, p.RecallSVG, p.Effects[0].Chart, p.Frontier[1].Chart}
	var page bytes.Buffer
	if err := figuresPage(`{{range .}}{{template "svg" .}}{{end}}`).Execute(&page, figs); err != nil {
		t.Fatal(err)
	}
	// The viewport is the grid's size: two columns as wide as their
	// widest figure, two rows as high as their highest, the page's
	// padding and gaps around them.
	colW := [2]float64{math.Max(figs[0].W, figs[2].W), math.Max(figs[1].W, figs[3].W)}
	rowH := [2]float64{math.Max(figs[0].H, figs[1].H), math.Max(figs[2].H, figs[3].H)}
	w, h := int64(math.Ceil(colW[0]+colW[1]+16+24)), int64(math.Ceil(rowH[0]+rowH[1]+8+24))
	png := browsertest.Screenshot(t, serveHTML(t, page.Bytes()), w, h)
	out := filepath.Join("..", "..", "docs", "img", "report.png")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes)", out, len(png))
}
