package report

import (
	"errors"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"slices"
	"sync"

	"github.com/paperlens/paperlens/eval/run"
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
	// ReasonOff says that offline baselines were left out of section 5,
	// when the report has one; "" otherwise.
	ReasonOff string
	Miss      missTable
	MissSVG   *chart
	Tokens    []tokenPoint
	TokensSVG *chart
	TokensCap string // which prompt-token count the chart's x is
	TokensTab string // the same, for the Markdown table
	TokensOut int    // modes left off the chart: no token count at all
	ReasonBy  []reasonByTable
	Shape     []reasonByTable // accuracy by composed questions' statements and options
	Flips     []flipPair
	Tools     []toolRow
	CallBkts  []string
	Frontier  []frontierBlock
	// Harmful is the harmful-verification section, nil when no run has
	// a rate or lacks one it should have.
	Harmful *harmfulSection
	// FrontierNote says how to read the frontier and which interval
	// decides "within full's".
	FrontierNote string
	// Incomplete says, per run with records missing, how many and whether
	// its numbers were computed here from the records.
	Incomplete []string
	// Paper is the published-numbers section, nil unless asked for.
	Paper *paperSection
	// Protocol says, per run, where it departs from its paper.
	Protocol []protocolInfo
	H        map[string]string
}

// protocolInfo is one run's Protocol block: each departure from its
// benchmark's paper and why, or one line saying there is none.
type protocolInfo struct {
	Model, Dir string
	Lines      []string
	Departs    bool
}

// buildProtocol states each run's protocol: from summary.json, or, for a
// folder written before runs stated it, from its config.json.
func buildProtocol(runs []Run, labs []string) []protocolInfo {
	var out []protocolInfo
	for i, r := range runs {
		p := r.Summary.Protocol
		if p == nil && r.Config.Bench != "" {
			x := run.Protocol(r.Config)
			p = &x
		}
		if p == nil {
			continue
		}
		out = append(out, protocolInfo{Model: labs[i], Dir: filepath.Base(r.Dir), Lines: run.ProtocolText(*p), Departs: len(p.Departures()) > 0})
	}
	return out
}

type runInfo struct {
	Model, Dir, Bench, Paradigm, Baseline string
	Runs, Questions                       int
	Records                               string // "60", or "12 of 60" when some are missing
	Colour                                string
}

func build(runs []Run) (*page, error) {
	if len(runs) == 0 {
		return nil, errors.New("report: no runs")
	}
	labs := labels(runs)
	cols := make([]string, len(runs))
	p := &page{H: map[string]string{"acc": hAccuracy, "effect": hEffect, "recall": hRecall, "reason": hReasoning, "miss": hMiss,
		"tokens": hTokens, "reasonBy": hReasonBy, "flips": hFlips, "tools": hTools, "frontier": hFrontier, "published": hPublished,
		"harmful": hHarmful, "harmfulIntro": harmfulIntro, "harmfulNote": run.HarmfulNote}, Buckets: bucketNames}
	for i, r := range runs {
		cols[i] = colour(i)
		s := r.Summary
		p.Runs = append(p.Runs, runInfo{Model: labs[i], Dir: filepath.Base(r.Dir), Bench: s.Bench, Paradigm: s.Paradigm, Baseline: s.Baseline,
			Runs: s.Runs, Questions: s.Questions, Records: recordsCell(r.Progress), Colour: cols[i]})
		if r.Progress.Incomplete() {
			note := fmt.Sprintf("%s (%s): %s.", filepath.Base(r.Dir), labs[i], r.Progress.Detail())
			if r.Recomputed {
				note += " Its numbers are computed from the records present, so they cover only part of the questions and runs."
			} else {
				note += " Its summary.json was written when the run stopped early (a refused request or a run of failures): its numbers cover only the records present."
			}
			p.Incomplete = append(p.Incomplete, note)
		}
	}
	p.Protocol = buildProtocol(runs, labs)
	p.Acc = buildAcc(runs, labs)
	p.Effects = buildEffects(runs, labs)
	for i := range p.Effects {
		p.Effects[i].Chart = effectChart(p.Effects[i].Model, p.Effects[i].effects, p.Effects[i].Colour)
	}
	var src tokenSources
	p.Tokens, src, p.TokensOut = buildTokens(runs, labs)
	if len(p.Tokens) > 0 {
		p.TokensSVG, p.TokensCap, p.TokensTab = tokensChart(p.Tokens, src), src.caption(), src.table()
	}
	p.ReasonBy = buildReasonBy(runs, labs)
	p.Shape = buildShape(runs, labs)
	p.Flips = buildFlips(runs, labs)
	p.Tools, p.CallBkts = buildTools(runs, labs), callBuckets
	harmfulNum := 10
	if len(p.Tools) > 0 {
		harmfulNum = 11
	}
	p.Harmful = buildHarmful(runs, labs, cols, harmfulNum)
	p.Frontier, p.FrontierNote = buildFrontier(runs), frontierNote
	p.Recall = buildRecall(runs, labs)
	if len(p.Recall) > 0 {
		p.RecallSVG = scatterChart(p.Recall)
	}
	p.Reason = buildReasoning(runs, labs)
	if slices.ContainsFunc(runs, offline) {
		p.ReasonOff = reasonOffNote
	}
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

// recordsCell is the runs table's records column: blank when the folder
// kept no records, "12 of 60" when some are missing.
func recordsCell(p Progress) string {
	switch {
	case p.Expected == 0 && p.Records == 0:
		return ""
	case p.Incomplete():
		of := fmt.Sprint(p.Expected)
		if p.Guessed {
			of = "≥ " + of
		}
		return fmt.Sprintf("%d of %s", p.Records, of)
	}
	return fmt.Sprint(p.Records)
}

// HTML writes one self-contained HTML report: inline CSS and inline SVG
// charts, no scripts and no external references.
func HTML(w io.Writer, runs []Run) error { return HTMLWith(w, runs, WriteOptions{}) }

// WriteOptions add optional sections to the report.
type WriteOptions struct {
	// Published, when set, adds the published-numbers section: each run
	// beside the paper's number for its model (see ComparePublished).
	Published *PaperOptions
}

// HTMLWith is HTML with optional sections.
func HTMLWith(w io.Writer, runs []Run, opt WriteOptions) error {
	p, err := build(runs)
	if err != nil {
		return err
	}
	if opt.Published != nil {
		p.Paper = buildPaperSection(ComparePublished(runs, *opt.Published))
	}
	return htmlTmpl().Execute(w, p)
}

var tmplFuncs = template.FuncMap{
	"f": func(v float64) string { return fmt.Sprintf("%.1f", v) },
}

// svgShapes draws a chart's primitives (the template "shapes"), for the
// report's inline SVG and for FrontierSVG's standalone file.
const svgShapes = `{{define "shapes"}}
{{- range .Lines}}<line x1="{{f .X1}}" y1="{{f .Y1}}" x2="{{f .X2}}" y2="{{f .Y2}}" stroke="{{.Stroke}}" stroke-width="{{f .Width}}"{{if .Dash}} stroke-dasharray="4 3"{{end}}/>{{end}}
{{- range .Rects}}<rect x="{{f .X}}" y="{{f .Y}}" width="{{f .W}}" height="{{f .H}}" fill="{{.Fill}}"><title>{{.Title}}</title></rect>{{end}}
{{- range .Circles}}{{if .Polygon}}<polygon points="{{.Points}}"{{else}}<circle cx="{{f .X}}" cy="{{f .Y}}" r="{{f .R}}"{{end}} fill="{{.Fill}}" stroke="{{if .Stroke}}{{.Stroke}}{{else}}#fff{{end}}"{{if .Stroke}} stroke-width="2"{{end}}><title>{{.Title}}</title>{{if .Polygon}}</polygon>{{else}}</circle>{{end}}{{end}}
{{- range .Top}}<line x1="{{f .X1}}" y1="{{f .Y1}}" x2="{{f .X2}}" y2="{{f .Y2}}" stroke="{{.Stroke}}" stroke-width="{{f .Width}}"{{if .Dash}} stroke-dasharray="4 3"{{end}}/>{{end}}
{{- range .Texts}}<text x="{{f .X}}" y="{{f .Y}}" text-anchor="{{.Anchor}}" font-size="{{f .Size}}" fill="{{.Fill}}"{{if .Rotate}} transform="rotate({{f .Rotate}} {{f .X}} {{f .Y}})"{{end}}{{if .Class}} class="{{.Class}}"{{end}}>{{.Text}}</text>{{end}}
{{end}}`

// svgFigure is one chart as an inline <svg> (the template "svg").
const svgFigure = `{{define "svg"}}<svg width="{{f .W}}" height="{{f .H}}" viewBox="0 0 {{f .W}} {{f .H}}" role="img" aria-label="{{.Label}}">{{template "shapes" .}}</svg>{{end -}}`

// htmlTmpl is parsed on first use: parsed at initialisation it cost every
// paperlens process, `--help` included, about 80 KB and 0.5 ms.
var htmlTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(tmplFuncs).Parse(svgShapes + svgFigure + `
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
.warn{background:#fff4e5;border:1px solid #f0c36d;padding:6px 10px;font-size:14px}
svg{display:block;margin:.5em 0;font-family:inherit}
td.ids{max-width:560px;overflow-wrap:anywhere}
.answer{border-left:4px solid #2ca02c;padding:2px 10px;max-width:900px}
td.cov{color:#1a7f37}td.nocov{color:#b42318;font-weight:bold}
</style></head><body>
<h1>paperlens report</h1>
<table><tr><th class="l">model</th><th class="l">folder</th><th class="l">bench</th><th class="l">paradigm</th><th class="l">baseline</th><th>runs</th><th>questions</th><th>records</th></tr>
{{range .Runs}}<tr><td class="l"><span class="sw" style="background:{{.Colour}}"></span>{{.Model}}</td><td class="l">{{.Dir}}</td><td class="l">{{.Bench}}</td><td class="l">{{.Paradigm}}</td><td class="l">{{.Baseline}}</td><td>{{.Runs}}</td><td>{{.Questions}}</td><td>{{.Records}}</td></tr>
{{end}}</table>
{{range .Incomplete}}<p class="warn"><b>Incomplete run</b> {{.}}</p>
{{end}}{{with .Protocol}}<h2>Protocol</h2>
<p class="note">Where each run departs from its benchmark's paper (ElaipBench A.5, A.7; LPFQA §4), and why: a flag given, a server's refusal, or an offline default.</p>
{{range .}}<p{{if .Departs}} class="warn"{{end}}><b>{{.Model}}</b> ({{.Dir}})</p><ul>{{range .Lines}}<li>{{.}}</li>{{end}}</ul>
{{end}}{{end}}
<h2>1. {{.H.acc}}</h2>
<p class="note">Accuracy (%), mean ± std over runs.</p>
<table><tr><th class="l">model</th><th class="l">mode</th>{{range .Acc.Types}}<th>{{.}}</th>{{end}}<th>overall</th><th>n</th><th>miss rate %</th><th>evidence recall %</th><th>truncated</th><th>tokens/q in · out (reasoning)</th>{{if .Acc.HasCost}}<th>cost US$</th>{{end}}</tr>
{{range .Acc.Rows}}<tr><td class="l">{{.Model}}</td><td class="l">{{.Mode}}</td>{{range .Cells}}<td>{{.}}</td>{{end}}<td class="o">{{.Overall}}</td><td>{{.N}}</td><td>{{.Miss}}</td><td>{{.Recall}}</td><td>{{.Truncated}}</td><td>{{.Tokens}}</td>{{if $.Acc.HasCost}}<td>{{.Cost}}</td>{{end}}</tr>
{{end}}</table>
<p class="note">Truncated: replies cut by the token limit before an answer (counted wrong). Tokens per question are the server's counts over every record: prompt · completion, with the reasoning part of the completion in brackets.{{if .Acc.HasCost}} Cost is those tokens at the --price given to the run, over all its runs.{{end}}</p>
{{range .Shape}}<h3>Accuracy by {{.Field}}</h3>
<p class="note">{{$.ShapeNote}}</p>
<table><tr><th class="l">model</th><th class="l">mode</th>{{range .Values}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><td class="l">{{.Model}}</td><td class="l">{{.Mode}}</td>{{range .Cells}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}
<h2>2. {{.H.effect}}</h2>
<p class="note">Δ is the mode's accuracy minus the baseline's in points, paired over questions; whiskers are the 95% bootstrap interval; p is McNemar's test on per-question majority correctness.</p>
{{range .Effects}}<h3>{{.Model}} (baseline: {{.Baseline}})</h3>
{{template "svg" .Chart}}
<table><tr><th class="l">mode</th><th>Δ (pp)</th><th>95% CI</th><th>McNemar p</th><th>right→wrong</th><th>wrong→right</th><th>evidence recall %</th><th>n</th></tr>
{{range .Rows}}<tr><td class="l">{{.Mode}}</td><td>{{.Diff}}</td><td>{{.CI}}</td><td>{{.P}}</td><td>{{.B10}}</td><td>{{.B01}}</td><td>{{.Recall}}</td><td>{{.N}}</td></tr>
{{end}}</table>
{{else}}<p class="note">No run has effects against a baseline.</p>
{{end}}
<h2>3. {{.H.tokens}}</h2>
{{if .TokensSVG}}<p class="note">One point per run and mode: what more context buys against what it costs to read. {{.TokensCap}}{{if .TokensOut}} {{.TokensOut}} mode(s) with no token count are left out.{{end}}</p>
{{template "svg" .TokensSVG}}
{{else}}<p class="note">No mode has a prompt token count.</p>
{{end}}
<h2>4. {{.H.recall}}</h2>
{{if .RecallSVG}}{{template "svg" .RecallSVG}}
<table><tr><th class="l">model</th><th class="l">mode</th><th>evidence recall %</th><th>accuracy %</th></tr>
{{range .Recall}}<tr><td class="l">{{.Model}}</td><td class="l">{{.Mode}}</td><td>{{.RecallS}}</td><td>{{.AccS}}</td></tr>
{{end}}</table>
{{else}}<p class="note">No mode reports evidence recall.</p>
{{end}}
<h2>5. {{.H.reason}}</h2>
{{if .ReasonSVG}}<p class="note">Scored records with reasoning text, pooled over modes and runs, bucketed by reasoning length in characters; accuracy %.{{with .ReasonOff}} {{.}}{{end}}</p>
{{template "svg" .ReasonSVG}}
<table><tr><th class="l">model</th>{{range .Buckets}}<th>{{.}}</th>{{end}}</tr>
{{range .Reason}}<tr><td class="l">{{.Model}}</td>{{range .Cells}}<td>{{.Text}}</td>{{end}}</tr>
{{end}}</table>
{{else}}<p class="note">No record carries reasoning text.{{with .ReasonOff}} {{.}}{{end}}</p>
{{end}}
<h2>6. {{.H.reasonBy}}</h2>
{{if .ReasonBy}}<p class="note">Mean reasoning per answer: tokens as the server counted them, characters of reasoning text.</p>
{{range .ReasonBy}}<h3>by {{.Field}}</h3>
<table><tr><th class="l">model</th><th class="l">mode</th>{{range .Values}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><td class="l">{{.Model}}</td><td class="l">{{.Mode}}</td>{{range .Cells}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}{{else}}<p class="note">No run reports reasoning length by a breakdown field.</p>
{{end}}
<h2>7. {{.H.flips}}</h2>
{{if .Flips}}<p class="note">A reasoning run against a base or cot run of the same model on the same data, per mode: questions right (a majority of scored runs) without reasoning and wrong with it, and the reverse.</p>
{{range .Flips}}<h3>{{.Model}}: {{.Base}} → {{.Reason}}</h3>
<table><tr><th class="l">mode</th><th>paired questions</th><th>right→wrong</th><th>wrong→right</th><th class="l">right→wrong questions</th></tr>
{{range .Rows}}<tr><td class="l">{{.Mode}}</td><td>{{.N}}</td><td>{{.Lost}}</td><td>{{.Gained}}</td><td class="l ids">{{.List}}</td></tr>
{{end}}</table>
{{end}}{{else}}<p class="note">No reasoning run has a base or cot run of the same model on the same data beside it.</p>
{{end}}
<h2>8. {{.H.miss}}</h2>
<p class="note">Miss rate %: the share of records from which no answer could be extracted.</p>
{{template "svg" .MissSVG}}
<table><tr><th class="l">model</th>{{range .Miss.Modes}}<th>{{.}}</th>{{end}}</tr>
{{range .Miss.Rows}}<tr><td class="l">{{.Model}}</td>{{range .Cells}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
<h2>9. {{.H.frontier}}</h2>
<p class="note">{{.FrontierNote}}</p>
{{range .Frontier}}<h3>{{.Model}}</h3>
{{if .Points}}<p class="note">{{.TokensNote}}</p>
{{template "svg" .Chart}}
{{if .CostChart}}{{template "svg" .CostChart}}
{{end}}<p class="answer">{{.Sentence}}</p>
{{if .CostSentence}}<p class="answer">{{.CostSentence}}</p>
{{end}}
<table><tr><th class="l">configuration</th><th class="l">folder</th><th>accuracy % [95% CI]</th><th>n</th><th>prompt tokens/q</th>{{if .HasCost}}<th>cost US$/q</th>{{end}}<th>frontier</th>{{if .HasCost}}<th>cost frontier</th>{{end}}{{if .HasFull}}<th class="l">vs full (points)</th><th>within full's CI</th>{{end}}</tr>
{{$b := .}}{{range .Points}}<tr><td class="l">{{.Label}}</td><td class="l">{{.Dir}}</td><td>{{.AccS}}</td><td>{{.N}}</td><td>{{.TokensS}}</td>{{if $b.HasCost}}<td>{{.CostS}}</td>{{end}}<td>{{if .Frontier}}yes{{else}}no{{end}}</td>{{if $b.HasCost}}<td>{{if .CostFrontier}}yes{{else}}no{{end}}</td>{{end}}{{if $b.HasFull}}<td class="l">{{.VsFull}}</td><td>{{.WithinS}}</td>{{end}}</tr>
{{end}}</table>
{{if .Skipped}}<p class="note">{{.Skipped}} mode(s) with no scored question or no prompt token count are left out.</p>
{{end}}{{else}}<p class="note">No mode of this model has a scored question with a prompt token count.</p>
{{end}}{{end}}
{{if .Tools}}<h2>10. {{.H.tools}}</h2>
<p class="note">Tool modes: tool calls per question (mean), the share of questions answered without any tool, and accuracy by the number of calls the model made (records in brackets).</p>
<table class="tools"><tr><th class="l">model</th><th class="l">mode</th><th>n</th><th>calls/q</th><th>no tool %</th>{{range .CallBkts}}<th>{{.}} calls: acc %</th>{{end}}</tr>
{{range .Tools}}<tr><td class="l">{{.Model}}</td><td class="l">{{.Mode}}</td><td>{{.N}}</td><td>{{.MeanCalls}}</td><td>{{.NoTool}}</td>{{range .ByCalls}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}{{with .Harmful}}<h2>{{.Num}}. {{$.H.harmful}}</h2>
<p class="note">{{$.H.harmfulIntro}} {{$.H.harmfulNote}}</p>
{{with .Chart}}{{template "svg" .}}
{{end}}{{if .Rows}}<table><tr><th class="l">model</th><th class="l">paradigm</th><th class="l">mode</th><th>harmful / wrong</th><th>harmful / records</th></tr>
{{range .Rows}}<tr><td class="l">{{.Model}}</td><td class="l">{{.Paradigm}}</td><td class="l">{{.Mode}}</td><td>{{.OfWrong}}</td><td>{{.OfRecords}}</td></tr>
{{end}}</table>
{{end}}{{with .StaleNote}}<p class="warn">{{.}}</p>
{{end}}{{end}}{{with .Paper}}<h2>{{$.H.published}}</h2>
<p class="note">{{.Note}}</p>
{{range .Items}}{{if .Table}}<h3>{{.Run}} ({{.Dir}}) against {{.Table}}, {{.Row}}</h3>
<p class="note">{{.Paper}}, {{.Section}}.{{if .Sample}} {{.Sample}}{{end}}</p>
{{if .Cells}}<table><tr><th class="l">column</th><th class="l">mode</th><th>published %</th><th>measured % [95% CI]</th><th>n</th><th class="l">verdict</th></tr>
{{range .Cells}}<tr><td class="l">{{.Column}}</td><td class="l">{{.Mode}}</td><td>{{.Published}}</td><td>{{.Measured}}</td><td>{{.N}}</td><td class="l {{if .Covers}}cov{{else}}nocov{{end}}">{{.Verdict}}</td></tr>
{{end}}</table>
{{else}}<p class="note">No column of this table was measured by the run.</p>
{{end}}{{if .Note}}<p class="note">{{.Note}}.</p>
{{end}}{{else}}<h3>{{.Run}} ({{.Dir}})</h3>
<p class="note">{{.Note}}.</p>
{{end}}{{end}}{{end}}</body></html>
`))
})
