package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/run"
)

func fp(v float64) *float64 { return &v }

// writeRun builds a run folder by hand: config.json, summary.json and
// results.jsonl.
func writeRun(t *testing.T, model string, acc float64) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run-"+strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' {
			return r
		}
		return '_'
	}, model))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	modes := []string{"closed-book", "full", "full+hybrid", "hybrid", "oracle"}
	s := run.Summary{Model: model, Bench: "elaipbench", Paradigm: "reasoning", Runs: 2, Questions: 10, Modes: modes,
		Baseline: "full", ByMode: map[string]run.ModeStats{}, Types: []string{"multi", "single"}}
	for i, m := range modes {
		ms := run.ModeStats{Acc: run.Acc{Accuracy: acc + 0.05*float64(i), Std: 0.02, N: 10}, MissRate: 0.1 * float64(i%3),
			ByType: map[string]run.Acc{"single": {Accuracy: acc, Std: 0.01, N: 5}, "multi": {Accuracy: acc + 0.1, Std: 0.03, N: 5}}}
		switch m {
		case "full+hybrid", "hybrid":
			ms.EvidenceRecall = fp(0.4 + 0.1*float64(i))
		case "oracle":
			ms.EvidenceRecall = fp(1)
		}
		s.ByMode[m] = ms
		if m != "full" {
			s.Effects = append(s.Effects, run.Effect{Mode: m, Baseline: "full", N: 10, Diff: 0.05*float64(i) - 0.06,
				Lo: 0.05*float64(i) - 0.15, Hi: 0.05*float64(i) + 0.03, PValue: 0.04 * float64(i), B01: i, B10: 2, EvidenceRecall: ms.EvidenceRecall})
		}
	}
	write := func(name string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("config.json", map[string]any{"model": model, "bench": "elaipbench", "modes": modes, "runs": 2})
	write("summary.json", s)
	var lines bytes.Buffer
	for q := 0; q < 10; q++ {
		for _, m := range modes {
			r := run.Record{QuestionID: "q" + string(rune('0'+q)), Mode: m, Run: 1, Model: model, Correct: q%2 == 0, QuestionType: "single"}
			if m == "full" {
				r.Reasoning = strings.Repeat("x", 700*q+1)
			}
			b, _ := json.Marshal(r)
			lines.Write(append(b, '\n'))
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "results.jsonl"), lines.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

const evil = "<script>alert(1)</script>"

func loadAll(t *testing.T) []Run {
	t.Helper()
	runs, err := Load(writeRun(t, "ir", 0.5), writeRun(t, "random", 0.25), writeRun(t, evil, 0.3))
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 3 || len(runs[0].Records) != 50 {
		t.Fatalf("loaded %d runs, %d records", len(runs), len(runs[0].Records))
	}
	return runs
}

func TestHTML(t *testing.T) {
	runs := loadAll(t)
	var b bytes.Buffer
	if err := HTML(&b, runs); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, h := range []string{hAccuracy, hEffect, hRecall, hReasoning, hMiss} {
		if !strings.Contains(out, h) {
			t.Errorf("HTML lacks section %q", h)
		}
	}
	if n := strings.Count(out, "<svg"); n < 3 {
		t.Errorf("%d <svg> elements, want at least 3", n)
	}
	for _, bad := range []string{"http://", "https://", "src=", "<script", "<link", "@import", "url("} {
		if strings.Contains(strings.ToLower(out), bad) {
			t.Errorf("HTML contains %q", bad)
		}
	}
	if strings.Contains(out, "href=") {
		t.Errorf("HTML has an href")
	}
	if !strings.Contains(out, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("evil model name not escaped")
	}
	for _, want := range []string{"ir", "random", "full+hybrid", "oracle", "8k+", "0–1k"} {
		if !strings.Contains(out, want) && !strings.Contains(out, strings.ReplaceAll(want, "+", "&#43;")) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if os.Getenv("REPORT_DUMP") != "" {
		os.WriteFile(os.Getenv("REPORT_DUMP"), b.Bytes(), 0o644)
	}
}

func TestMarkdown(t *testing.T) {
	runs := loadAll(t)
	var b bytes.Buffer
	if err := Markdown(&b, runs); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, h := range []string{hAccuracy, hEffect, hRecall, hReasoning, hMiss} {
		if !strings.Contains(out, "## ") || !strings.Contains(out, h) {
			t.Errorf("Markdown lacks section %q", h)
		}
	}
	for _, want := range []string{
		"| model | mode | multi | single | overall | n | miss rate % | evidence recall % |",
		"| ir | full+hybrid |",
		"| mode | Δ (pp) | 95% CI | McNemar p |",
		"| model | mode | evidence recall % | accuracy % |",
		"| model | 0–1k | 1–2k | 2–4k | 4–8k | 8k+ |",
		"| random |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	if strings.Contains(out, "<script>") {
		t.Errorf("Markdown carries raw HTML from a model name")
	}
	if t.Failed() {
		t.Log(out)
	}
}

func TestLoadMissingSummary(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "empty-run")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "summary.json") {
		t.Fatalf("err = %v, want one naming %s and summary.json", err, dir)
	}
}

func TestNoRuns(t *testing.T) {
	if err := HTML(&bytes.Buffer{}, nil); err == nil {
		t.Error("HTML with no runs: no error")
	}
	if _, err := Load(); err == nil {
		t.Error("Load with no folders: no error")
	}
}

func TestTickLabel(t *testing.T) {
	cases := []struct {
		v, step float64
		want    string
	}{
		{-1, 0.5, "-1.0"}, {-0.5, 0.5, "-0.5"}, {1e-17, 0.5, "0"}, {0.5, 0.5, "+0.5"},
		{-20, 10, "-20"}, {0, 10, "0"}, {0.25, 0.05, "+0.25"}, {-0.2, 0.2, "-0.2"},
	}
	for _, c := range cases {
		if got := tickLabel(c.v, c.step); got != c.want {
			t.Errorf("tickLabel(%v, %v) = %q, want %q", c.v, c.step, got, c.want)
		}
	}
}

// Every share (accuracy, evidence recall, miss rate, and the tool
// section's) is a percentage with one decimal, the unit in the heading as
// the inspector has it ("evidence recall %"): never a fraction (0.62) or
// a cell with its own % sign.
func TestOneUnitPerShare(t *testing.T) {
	runs := loadAll(t)
	p, err := build(runs)
	if err != nil {
		t.Fatal(err)
	}
	var cells []string
	for _, r := range p.Acc.Rows {
		cells = append(cells, r.Miss, r.Recall)
	}
	for _, e := range p.Effects {
		for _, r := range e.Rows {
			cells = append(cells, r.Recall)
		}
	}
	for _, r := range p.Recall {
		cells = append(cells, r.RecallS, r.AccS)
	}
	for _, r := range p.Miss.Rows {
		cells = append(cells, r.Cells...)
	}
	share := regexp.MustCompile(`^(–|[0-9]{1,3}\.[0-9])$`)
	for _, c := range cells {
		if !share.MatchString(c) {
			t.Errorf("share %q is not a percentage with one decimal", c)
		}
	}
	if len(p.Recall) == 0 || p.Recall[0].RecallS != "60.0" {
		t.Errorf("first recall point %+v, want evidence recall 60.0 (0.6)", p.Recall[0])
	}
	h, m := render(t, runs)
	for _, head := range []string{"miss rate %", "evidence recall %", "accuracy %"} {
		if !strings.Contains(h, "<th>"+head+"</th>") || !strings.Contains(m, "| "+head+" |") {
			t.Errorf("a column is not headed %q in both formats", head)
		}
	}
}
