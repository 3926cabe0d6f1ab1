package report

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/paperlens/paperlens/eval/run"
)

// hHarmful is the heading of the harmful-verification section.
const hHarmful = "Harmful verification"

// harmfulIntro says what the section shows; both formats print it before
// run.HarmfulNote.
const harmfulIntro = "Per run and mode, as ElaipBench's Figure 3 shows it for the CoT and reasoning paradigms: harmful verification as a share of the wrong answers, and of all records."

// harmfulSection is the report's harmful-verification section: a row per
// (run, mode) with a rate, and the reasoning runs whose summaries predate
// it.
type harmfulSection struct {
	Num   int // its number: after the tool section when there is one
	Rows  []harmfulRow
	Chart *chart // share of wrong answers, per mode and run (HTML)
	// Stale names the cot and reasoning runs without a rate, made before
	// paperlens kept it: 'paperlens rescore RUN' adds it.
	Stale []string
}

type harmfulRow struct {
	Model, Paradigm, Mode string
	OfWrong, OfRecords    string
}

// buildHarmful gathers the rates; nil when no run has one and no
// reasoning run lacks one (a report of base runs has no such section).
func buildHarmful(runs []Run, labs []string, cols []string, num int) *harmfulSection {
	sec := &harmfulSection{Num: num}
	var series, scols []string
	var rates []map[string]*run.Harmful
	var cats []string
	seenCat := map[string]bool{}
	for i, r := range runs {
		byMode := map[string]*run.Harmful{}
		for _, m := range modes(r.Summary) {
			h := r.Summary.ByMode[m].HarmfulVerification
			if h == nil {
				continue
			}
			byMode[m] = h
			w, all := run.HarmfulText(h)
			sec.Rows = append(sec.Rows, harmfulRow{Model: labs[i], Paradigm: cmp.Or(paradigmOf(r), run.Base), Mode: m, OfWrong: w, OfRecords: all})
			if !seenCat[m] {
				seenCat[m] = true
				cats = append(cats, m)
			}
		}
		if len(byMode) > 0 {
			series, scols, rates = append(series, labs[i]), append(scols, cols[i]), append(rates, byMode)
			continue
		}
		if p := paradigmOf(r); (p == run.CoT || p == run.Reasoning) && !offline(r) && slices.ContainsFunc(r.Records, extracted) {
			sec.Stale = append(sec.Stale, fmt.Sprintf("%s (%s)", labs[i], filepath.Base(r.Dir)))
		}
	}
	if len(sec.Rows) == 0 && len(sec.Stale) == 0 {
		return nil
	}
	if len(series) > 0 {
		sec.Chart = groupedBars(hHarmful+": share of wrong answers", "% wrong", cats, series, scols,
			func(s, c int) (float64, bool) {
				h := rates[s][cats[c]]
				return shareOfWrong(h), h != nil && h.Wrong > 0
			},
			func(s, c int) string {
				w, _ := run.HarmfulText(rates[s][cats[c]])
				return fmt.Sprintf("%s · %s: %s", series[s], cats[c], w)
			})
	}
	return sec
}

// extracted reports a record scored by extraction (a record from before
// score_kind was kept may be one) that ended without an error.
func extracted(r run.Record) bool {
	return (r.ScoreKind == "exact" || r.ScoreKind == "") && r.Error == ""
}

func shareOfWrong(h *run.Harmful) float64 {
	if h == nil {
		return 0
	}
	return h.ShareOfWrong
}

// staleNote says which runs lack a rate and how to add it.
func (h *harmfulSection) StaleNote() string {
	if len(h.Stale) == 0 {
		return ""
	}
	return "No rate for " + strings.Join(h.Stale, ", ") + ": their records were scored before paperlens kept the answers along the reasoning; 'paperlens rescore RUN' adds them."
}

// writeHarmfulMarkdown writes the harmful-verification section, when the
// report has one.
func writeHarmfulMarkdown(b *strings.Builder, p *page) {
	h := p.Harmful
	if h == nil {
		return
	}
	fmt.Fprintf(b, "\n## %d. %s\n\n%s %s\n", h.Num, hHarmful, harmfulIntro, run.HarmfulNote)
	if len(h.Rows) > 0 {
		b.WriteString("\n")
		run.MarkdownHead(b, "model", "paradigm", "mode", "harmful / wrong", "harmful / records")
		for _, r := range h.Rows {
			run.MarkdownRow(b, md(r.Model), md(r.Paradigm), md(r.Mode), r.OfWrong, r.OfRecords)
		}
	}
	if n := h.StaleNote(); n != "" {
		b.WriteString("\n" + md(n) + "\n")
	}
}
