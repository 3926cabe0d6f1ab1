package report

import (
	"errors"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
)

type page struct {
	Runs      []runInfo
	Acc       accTable
	Effects   []effectBlock
	Recall    []recallPoint
	RecallSVG *chart
	Reason    []reasonRow
	Buckets   []string
	ReasonSVG *chart
	Miss      missTable
	MissSVG   *chart
	H         map[string]string
}

type runInfo struct {
	Model, Dir, Bench, Paradigm, Baseline string
	Runs, Questions                       int
	Colour                                string
}

func build(runs []Run) (*page, error) {
	if len(runs) == 0 {
		return nil, errors.New("report: no runs")
	}
	labs := labels(runs)
	cols := make([]string, len(runs))
	p := &page{H: map[string]string{"acc": hAccuracy, "effect": hEffect, "recall": hRecall, "reason": hReasoning, "miss": hMiss}, Buckets: bucketNames}
	for i, r := range runs {
		cols[i] = colour(i)
		s := r.Summary
		p.Runs = append(p.Runs, runInfo{Model: labs[i], Dir: filepath.Base(r.Dir), Bench: s.Bench, Paradigm: s.Paradigm, Baseline: s.Baseline,
			Runs: s.Runs, Questions: s.Questions, Colour: cols[i]})
	}
	p.Acc = buildAcc(runs, labs)
	p.Effects = buildEffects(runs, labs)
	for i := range p.Effects {
		p.Effects[i].Chart = effectChart(p.Effects[i].Model, p.Effects[i].effects, p.Effects[i].Colour)
	}
	p.Recall = buildRecall(runs, labs)
	if len(p.Recall) > 0 {
		var ms, cs []string
		seen := map[string]bool{}
		for _, pt := range p.Recall {
			if !seen[pt.Model] {
				seen[pt.Model] = true
				ms, cs = append(ms, pt.Model), append(cs, pt.Colour)
			}
		}
		p.RecallSVG = scatterChart(p.Recall, ms, cs)
	}
	p.Reason = buildReasoning(runs, labs)
	if len(p.Reason) > 0 {
		var ms, cs []string
		for _, r := range p.Reason {
			ms, cs = append(ms, r.Model), append(cs, r.Colour)
		}
		rows := p.Reason
		p.ReasonSVG = groupedBars("Accuracy by reasoning length", "acc %", bucketNames, ms, cs,
			func(s, c int) (float64, bool) { return rows[s].Cells[c].Acc, rows[s].Cells[c].N > 0 },
			func(s, c int) string {
				return fmt.Sprintf("%s · %s chars: %s", rows[s].Model, bucketNames[c], rows[s].Cells[c].Text)
			})
	}
	p.Miss = buildMiss(runs, labs)
	mt := p.Miss
	p.MissSVG = groupedBars("Miss rate per model and mode", "miss %", mt.Modes, labs, cols,
		func(s, c int) (float64, bool) {
			ms, ok := runs[s].Summary.ByMode[mt.Modes[c]]
			return ms.MissRate, ok
		},
		func(s, c int) string {
			return fmt.Sprintf("%s · %s: miss %s", labs[s], mt.Modes[c], mt.Rows[s].Cells[c])
		})
	return p, nil
}

// HTML writes one self-contained HTML report: inline CSS and inline SVG
// charts, no scripts and no external references.
func HTML(w io.Writer, runs []Run) error {
	p, err := build(runs)
	if err != nil {
		return err
	}
	return htmlTmpl.Execute(w, p)
}

var htmlTmpl = template.Must(template.New("page").Funcs(template.FuncMap{
	"f": func(v float64) string { return fmt.Sprintf("%.1f", v) },
}).Parse(`{{define "svg"}}<svg width="{{f .W}}" height="{{f .H}}" viewBox="0 0 {{f .W}} {{f .H}}" role="img" aria-label="{{.Label}}">
{{- range .Lines}}<line x1="{{f .X1}}" y1="{{f .Y1}}" x2="{{f .X2}}" y2="{{f .Y2}}" stroke="{{.Stroke}}" stroke-width="{{f .Width}}"{{if .Dash}} stroke-dasharray="4 3"{{end}}/>{{end}}
{{- range .Rects}}<rect x="{{f .X}}" y="{{f .Y}}" width="{{f .W}}" height="{{f .H}}" fill="{{.Fill}}"><title>{{.Title}}</title></rect>{{end}}
{{- range .Circles}}<circle cx="{{f .X}}" cy="{{f .Y}}" r="{{f .R}}" fill="{{.Fill}}" stroke="#fff"><title>{{.Title}}</title></circle>{{end}}
{{- range .Top}}<line x1="{{f .X1}}" y1="{{f .Y1}}" x2="{{f .X2}}" y2="{{f .Y2}}" stroke="{{.Stroke}}" stroke-width="{{f .Width}}"{{if .Dash}} stroke-dasharray="4 3"{{end}}/>{{end}}
{{- range .Texts}}<text x="{{f .X}}" y="{{f .Y}}" text-anchor="{{.Anchor}}" font-size="{{f .Size}}" fill="{{.Fill}}">{{.Text}}</text>{{end}}
</svg>{{end -}}
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>paperlens report</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
table{border-collapse:collapse;margin:.8em 0;font-size:13px}
th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}
th{background:#f3f3f3}td.l,th.l{text-align:left}
td.o{font-weight:bold}
.sw{display:inline-block;width:10px;height:10px;margin-right:4px}
.note{color:#555;font-size:13px}
svg{display:block;margin:.5em 0;font-family:inherit}
</style></head><body>
<h1>paperlens report</h1>
<table><tr><th class="l">model</th><th class="l">folder</th><th class="l">bench</th><th class="l">paradigm</th><th class="l">baseline</th><th>runs</th><th>questions</th></tr>
{{range .Runs}}<tr><td class="l"><span class="sw" style="background:{{.Colour}}"></span>{{.Model}}</td><td class="l">{{.Dir}}</td><td class="l">{{.Bench}}</td><td class="l">{{.Paradigm}}</td><td class="l">{{.Baseline}}</td><td>{{.Runs}}</td><td>{{.Questions}}</td></tr>
{{end}}</table>

<h2>1. {{.H.acc}}</h2>
<p class="note">Accuracy (%), mean ± std over runs.</p>
<table><tr><th class="l">model</th><th class="l">mode</th>{{range .Acc.Types}}<th>{{.}}</th>{{end}}<th>overall</th><th>n</th><th>miss rate</th><th>evidence recall</th></tr>
{{range .Acc.Rows}}<tr><td class="l">{{.Model}}</td><td class="l">{{.Mode}}</td>{{range .Cells}}<td>{{.}}</td>{{end}}<td class="o">{{.Overall}}</td><td>{{.N}}</td><td>{{.Miss}}</td><td>{{.Recall}}</td></tr>
{{end}}</table>

<h2>2. {{.H.effect}}</h2>
<p class="note">Δ is the mode's accuracy minus the baseline's in points, paired over questions; whiskers are the 95% bootstrap interval; p is McNemar's test on per-question majority correctness.</p>
{{range .Effects}}<h3>{{.Model}} (baseline: {{.Baseline}})</h3>
{{template "svg" .Chart}}
<table><tr><th class="l">mode</th><th>Δ (pts)</th><th>95% CI</th><th>McNemar p</th><th>right→wrong</th><th>wrong→right</th><th>evidence recall</th><th>n</th></tr>
{{range .Rows}}<tr><td class="l">{{.Mode}}</td><td>{{.Diff}}</td><td>{{.CI}}</td><td>{{.P}}</td><td>{{.B10}}</td><td>{{.B01}}</td><td>{{.Recall}}</td><td>{{.N}}</td></tr>
{{end}}</table>
{{else}}<p class="note">No run has effects against a baseline.</p>
{{end}}
<h2>3. {{.H.recall}}</h2>
{{if .RecallSVG}}{{template "svg" .RecallSVG}}
<table><tr><th class="l">model</th><th class="l">mode</th><th>evidence recall</th><th>accuracy (%)</th></tr>
{{range .Recall}}<tr><td class="l">{{.Model}}</td><td class="l">{{.Mode}}</td><td>{{.RecallS}}</td><td>{{.AccS}}</td></tr>
{{end}}</table>
{{else}}<p class="note">No mode reports evidence recall.</p>
{{end}}
<h2>4. {{.H.reason}}</h2>
{{if .ReasonSVG}}<p class="note">Scored records with reasoning text, pooled over modes and runs, bucketed by reasoning length in characters.</p>
{{template "svg" .ReasonSVG}}
<table><tr><th class="l">model</th>{{range .Buckets}}<th>{{.}}</th>{{end}}</tr>
{{range .Reason}}<tr><td class="l">{{.Model}}</td>{{range .Cells}}<td>{{.Text}}</td>{{end}}</tr>
{{end}}</table>
{{else}}<p class="note">No record carries reasoning text.</p>
{{end}}
<h2>5. {{.H.miss}}</h2>
<p class="note">Share of records from which no answer could be extracted.</p>
{{template "svg" .MissSVG}}
<table><tr><th class="l">model</th>{{range .Miss.Modes}}<th>{{.}}</th>{{end}}</tr>
{{range .Miss.Rows}}<tr><td class="l">{{.Model}}</td>{{range .Cells}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
</body></html>
`))
