package report

import (
	"fmt"
	"path/filepath"
	"sort"

	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/run"
)

// Section headings, shared by both formats (tests look for them).
const (
	hAccuracy  = "Accuracy by question type"
	hEffect    = "RAG effect against the baseline"
	hRecall    = "Evidence recall vs accuracy"
	hReasoning = "Accuracy by reasoning length"
	hMiss      = "Miss rate"
	hTokens    = "Accuracy against prompt tokens"
	hReasonBy  = "Reasoning length by breakdown"
	hFlips     = "Reasoning flips"
)

// pct is run.Percent: the report shows shares as summary.md does, and as
// the inspector does: accuracy, evidence recall and miss rate in percent
// with one decimal, the unit in the column's heading ("miss rate %"), never
// in the cell.
var pct = run.Percent

// recallPct is an evidence recall in percent like every other share, or
// "–" for a mode that retrieved nothing.
func recallPct(r *float64) string {
	if r == nil {
		return "–"
	}
	return pct(*r)
}

var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"}

func colour(i int) string { return palette[i%len(palette)] }

// labels names each run by its model; runs sharing a model name get their
// folder name added so rows stay distinguishable.
func labels(runs []Run) []string {
	count := map[string]int{}
	for _, r := range runs {
		count[r.Summary.Model]++
	}
	out := make([]string, len(runs))
	for i, r := range runs {
		l := r.Summary.Model
		if l == "" {
			l = filepath.Base(r.Dir)
		} else if count[l] > 1 {
			l += " (" + filepath.Base(r.Dir) + ")"
		}
		out[i] = l
	}
	return out
}

// modes lists a run's modes: Summary.Modes, then any extra in ByMode in
// report order.
func modes(s run.Summary) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range s.Modes {
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	var extra []string
	for m := range s.ByMode {
		if !seen[m] {
			extra = append(extra, m)
		}
	}
	mode.Sort(extra)
	return append(out, extra...)
}

type accRow struct {
	Model, Mode string
	Cells       []string
	Overall     string
	N           int
	Miss        string
	Recall      string
	Truncated   int
	Tokens      string // server-reported per question: prompt · completion (reasoning)
	Cost        string
}

type accTable struct {
	Types   []string
	Rows    []accRow
	HasCost bool // some mode was priced (--price): show the cost column
}

func buildAcc(runs []Run, labs []string) accTable {
	seen := map[string]bool{}
	var t accTable
	for _, r := range runs {
		for _, ty := range r.Summary.Types {
			if !seen[ty] {
				seen[ty] = true
				t.Types = append(t.Types, ty)
			}
		}
	}
	sort.Strings(t.Types)
	for i, r := range runs {
		for _, m := range modes(r.Summary) {
			ms := r.Summary.ByMode[m]
			row := accRow{Model: labs[i], Mode: m, Overall: run.AccText(ms.Acc), N: ms.N, Miss: pct(ms.MissRate), Recall: recallPct(ms.EvidenceRecall),
				Truncated: ms.Truncated, Tokens: run.TokensPerQuestion(ms), Cost: run.CostText(ms.CostUSD)}
			t.HasCost = t.HasCost || ms.CostUSD != nil
			for _, ty := range t.Types {
				row.Cells = append(row.Cells, run.AccText(ms.ByType[ty]))
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

type effectRow struct {
	Mode, Diff, CI, P, Recall string
	N, B01, B10               int
}

type effectBlock struct {
	Model, Baseline string
	Colour          string
	Rows            []effectRow
	Chart           *chart
	effects         []run.Effect
}

func buildEffects(runs []Run, labs []string) []effectBlock {
	var out []effectBlock
	for i, r := range runs {
		if len(r.Summary.Effects) == 0 {
			continue
		}
		b := effectBlock{Model: labs[i], Baseline: r.Summary.Baseline, Colour: colour(i), effects: r.Summary.Effects}
		for _, e := range r.Summary.Effects {
			row := effectRow{Mode: e.Mode, N: e.N, B01: e.B01, B10: e.B10, Recall: recallPct(e.EvidenceRecall)}
			row.Diff, row.CI, row.P = e.Text()
			b.Rows = append(b.Rows, row)
		}
		out = append(out, b)
	}
	return out
}

type recallPoint struct {
	Model, Mode   string
	Recall, Acc   float64
	Colour, Shape string // the run's colour and marker
	RecallS, AccS string // percent, one decimal
}

func buildRecall(runs []Run, labs []string) []recallPoint {
	var out []recallPoint
	for i, r := range runs {
		for _, m := range modes(r.Summary) {
			ms := r.Summary.ByMode[m]
			if ms.EvidenceRecall == nil {
				continue
			}
			out = append(out, recallPoint{Model: labs[i], Mode: m, Recall: *ms.EvidenceRecall, Acc: ms.Accuracy, Colour: colour(i), Shape: seriesShape(i),
				RecallS: recallPct(ms.EvidenceRecall), AccS: pct(ms.Accuracy)})
		}
	}
	return out
}

// Reasoning-length buckets, in characters.
var bucketEdges = []int{0, 1000, 2000, 4000, 8000}
var bucketNames = []string{"0–1k", "1–2k", "2–4k", "4–8k", "8k+"}

func bucketOf(n int) int {
	for i := len(bucketEdges) - 1; i >= 0; i-- {
		if n >= bucketEdges[i] {
			return i
		}
	}
	return 0
}

type reasonCell struct {
	Acc  float64
	N    int
	Text string
}

type reasonRow struct {
	Model  string
	Colour string
	Cells  []reasonCell
}

// reasonOffNote says why section 5 leaves the offline baselines out.
const reasonOffNote = "The offline baselines (random, ir) are left out: they do not reason, and ir's reasoning field holds its option scores."

// offline reports whether a run is an offline baseline (random, ir), by
// its config.json, or its summary's model when it has none. They do not
// reason: the ir baseline keeps its option scores in the records'
// reasoning field, which read as reasoning length would plot the scores'
// length.
func offline(r Run) bool {
	c := r.Config
	if c.Model == "" {
		c.Model = r.Summary.Model
	}
	return c.Offline()
}

// buildReasoning pools each run's scored records with non-empty Reasoning
// over modes and runs, and reports accuracy per length bucket. Runs without
// reasoning text, and the offline baselines, are left out.
func buildReasoning(runs []Run, labs []string) []reasonRow {
	var out []reasonRow
	for i, r := range runs {
		if offline(r) {
			continue
		}
		correct := make([]int, len(bucketNames))
		total := make([]int, len(bucketNames))
		any := false
		for _, rec := range r.Records {
			if rec.Reasoning == "" || rec.Error != "" || rec.ScoreKind == "rouge_l" {
				continue
			}
			any = true
			b := bucketOf(len(rec.Reasoning))
			total[b]++
			if rec.Correct {
				correct[b]++
			}
		}
		if !any {
			continue
		}
		row := reasonRow{Model: labs[i], Colour: colour(i)}
		for b := range bucketNames {
			c := reasonCell{N: total[b], Text: "–"}
			if total[b] > 0 {
				c.Acc = float64(correct[b]) / float64(total[b])
				c.Text = fmt.Sprintf("%s (n=%d)", pct(c.Acc), total[b])
			}
			row.Cells = append(row.Cells, c)
		}
		out = append(out, row)
	}
	return out
}

type missTable struct {
	Modes []string
	Rows  []missRow
}

type missRow struct {
	Model string
	Cells []string
}

func buildMiss(runs []Run, labs []string) missTable {
	var t missTable
	seen := map[string]bool{}
	for _, r := range runs {
		for _, m := range modes(r.Summary) {
			if !seen[m] {
				seen[m] = true
				t.Modes = append(t.Modes, m)
			}
		}
	}
	for i, r := range runs {
		row := missRow{Model: labs[i]}
		for _, m := range t.Modes {
			ms, ok := r.Summary.ByMode[m]
			if !ok {
				row.Cells = append(row.Cells, "–")
				continue
			}
			row.Cells = append(row.Cells, pct(ms.MissRate))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
