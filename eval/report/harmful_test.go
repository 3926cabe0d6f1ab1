package report

import (
	"strings"
	"testing"

	"github.com/paperlens/paperlens/model"
)

// harmfulRun is a run of paradigm p whose mode full has, over 2 runs × 4
// questions, wrong answers of which some had reached the gold answer
// (flagged as scoring flags them), and mode bm25 none wrong.
func harmfulRun(name, p string, wrong, harmful int) fxRun {
	f := fxRun{name: name, model: name, paradigm: p, data: "/d/q.jsonl", modes: []string{"full", "bm25"}, runs: 2}
	i := 0
	for n := 1; n <= 2; n++ {
		for _, q := range []string{"q1", "q2", "q3", "q4"} {
			r := rec(q, "full", n, i >= wrong, model.Usage{CompletionTokens: 100})
			r.Gold, r.Extracted = "A", "A"
			if !r.Correct {
				r.Extracted = "C"
			}
			if i < harmful {
				r.ReasoningAnswers, r.HarmfulVerification = []string{"A", "C"}, true
			}
			r.Output = "So A. Wait. Answer: " + r.Extracted
			f.recs = append(f.recs, r, rec(q, "bm25", n, true, model.Usage{}))
			i++
		}
	}
	return f
}

// The report shows each run's rate per mode and paradigm, with the counts
// summary.json holds, in Markdown and HTML (with its bar chart); a base
// run without reasoning has none, and a cot run whose summary predates
// the rate is named with the command that adds it.
func TestReportHarmfulVerification(t *testing.T) {
	runs := loadFx(t, harmfulRun("thinker", "reasoning", 5, 3), harmfulRun("stepper", "cot", 4, 1), harmfulRun("plain", "base", 2, 0))
	for _, r := range runs {
		h := r.Summary.ByMode["full"].HarmfulVerification
		if r.Summary.Paradigm == "base" {
			if h != nil {
				t.Errorf("base run has a rate: %+v", h)
			}
			continue
		}
		if h == nil || h.Records != 8 {
			t.Fatalf("%s: %+v", r.Summary.Model, h)
		}
	}
	// A cot run whose summary.json was written before the rate existed.
	old := loadFx(t, harmfulRun("older", "cot", 2, 0))[0]
	for m, ms := range old.Summary.ByMode {
		ms.HarmfulVerification = nil
		old.Summary.ByMode[m] = ms
	}
	runs = append(runs, old)
	htmlOut, mdOut := render(t, runs)
	for _, want := range []string{
		"## 10. Harmful verification",
		"| thinker | reasoning | full | 3 of 5 wrong (60.0%) | 3 of 8 records (37.5%) |",
		"| thinker | reasoning | bm25 | 0 of 0 wrong | 0 of 8 records (0.0%) |",
		"| stepper | cot | full | 1 of 4 wrong (25.0%) | 1 of 8 records (12.5%) |",
		"No rate for older (older): their records were scored before",
		"'paperlens rescore RUN' adds them",
	} {
		if !strings.Contains(mdOut, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	if i := strings.Index(mdOut, "## 10. Harmful verification"); i >= 0 && strings.Contains(mdOut[i:], "| plain |") {
		t.Error("the base run has a harmful verification row")
	}
	for _, want := range []string{
		"<h2>10. Harmful verification</h2>",
		`aria-label="Harmful verification: share of wrong answers"`,
		"<td>3 of 5 wrong (60.0%)</td><td>3 of 8 records (37.5%)</td>",
		"<title>thinker · full: 3 of 5 wrong (60.0%)</title>",
	} {
		if !strings.Contains(htmlOut, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}

	// Base runs alone: no section.
	_, mdOut = render(t, loadFx(t, harmfulRun("plain", "base", 2, 0)))
	if strings.Contains(mdOut, hHarmful) {
		t.Error("a report of base runs has a harmful verification section")
	}
}
