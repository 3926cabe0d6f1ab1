package report

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/paperlens/paperlens/eval/run"
)

// tokenPoint is one (run, mode) on the accuracy-against-prompt-tokens chart.
type tokenPoint struct {
	Model, Mode, Colour string
	Shape               string  // the run's marker (seriesShape)
	Tokens              float64 // mean prompt tokens per question
	Server              bool    // Tokens are the server's count, not paperlens's cl100k estimate
	Acc                 float64
	TokensS, AccS       string
	Source              string
}

// tokenSources says which prompt-token count a set of points uses, for the
// axis label and caption.
type tokenSources struct{ server, assembled bool }

func (s tokenSources) mixed() bool { return s.server && s.assembled }

func (s tokenSources) axis() string {
	switch {
	case s.mixed():
		return "prompt tokens per question (log): filled server-reported, hollow assembled (cl100k)"
	case s.server:
		return "prompt tokens per question, server-reported (log scale)"
	}
	return "prompt tokens per question, assembled by paperlens, cl100k (log scale)"
}

func (s tokenSources) caption() string {
	switch {
	case s.mixed():
		return "x is the server-reported prompt tokens per question where the server reported them (filled points), else the prompt size paperlens assembled, counted in cl100k_base tokens (hollow points); the two counts differ by tokenizer and chat template."
	case s.server:
		return "x is the server-reported prompt tokens per question (usage.prompt_tokens over every record of every run)."
	}
	return "x is the mean prompt size paperlens assembled, in cl100k_base tokens: no run here has server-reported token counts."
}

// table is the caption for the Markdown table, which has no points to
// fill and names the count per row instead.
func (s tokenSources) table() string {
	switch {
	case s.mixed():
		return "Prompt tokens per question: the server's count where it reported one, else the prompt size paperlens assembled (cl100k_base); \"counted by\" says which, and the two differ by tokenizer and chat template."
	case s.server:
		return "Prompt tokens per question as the server reported them (usage.prompt_tokens over every record of every run)."
	}
	return "Prompt tokens per question as paperlens assembled them, in cl100k_base tokens: no run here has server-reported token counts."
}

// buildTokens places every (run, mode) at its mean prompt tokens per
// question: the server's count when it reported one, since that is what
// is billed and what the model read; otherwise the assembled prompt size,
// which offline baselines also have. Modes with neither are left out and
// counted in skipped.
func buildTokens(runs []Run, labs []string) (pts []tokenPoint, src tokenSources, skipped int) {
	for i, r := range runs {
		for _, m := range modes(r.Summary) {
			ms := r.Summary.ByMode[m]
			p := tokenPoint{Model: labs[i], Mode: m, Colour: colour(i), Shape: seriesShape(i), Acc: ms.Accuracy, AccS: pct(ms.Accuracy)}
			switch {
			case ms.Records > 0 && ms.Tokens.Prompt > 0:
				p.Tokens, p.Server, p.Source = float64(ms.Tokens.Prompt)/float64(ms.Records), true, "server"
				src.server = true
			case ms.PromptTokens > 0:
				p.Tokens, p.Source = ms.PromptTokens, "assembled (cl100k)"
				src.assembled = true
			default:
				skipped++
				continue
			}
			p.TokensS = strconv.Itoa(int(math.Round(p.Tokens)))
			pts = append(pts, p)
		}
	}
	return pts, src, skipped
}

// tokenTick prints a token count compactly: 500, 2k, 10k, 1.5M.
func tokenTick(v float64) string {
	switch {
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'g', 3, 64) + "M"
	case v >= 1e3:
		return strconv.FormatFloat(v/1e3, 'g', 3, 64) + "k"
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// tokensChart plots accuracy (y) against prompt tokens per question (x, log
// scale: closed-book prompts are tens of tokens and whole papers tens of
// thousands), one point per (run, mode), labelled with the mode and
// drawn in the run's colour and shape.
func tokensChart(pts []tokenPoint, src tokenSources) *chart {
	const left, top, bottom, pw, ph = 60.0, 24.0, 50.0, 470.0, 346.0
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		lo, hi = math.Min(lo, p.Tokens), math.Max(hi, p.Tokens)
	}
	dlo, dhi := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if dhi <= dlo {
		dhi = dlo + 1
	}
	x := func(v float64) float64 { return left + (math.Log10(v)-dlo)/(dhi-dlo)*pw }
	y := func(v float64) float64 { return top + (1-v)*ph }
	sp := make([]scatterPoint, len(pts))
	for i, p := range pts {
		sp[i] = scatterPoint{X: x(p.Tokens), Y: y(p.Acc), Series: p.Model, Colour: p.Colour, Shape: p.Shape, Label: p.Mode,
			Title:  fmt.Sprintf("%s · %s: %s prompt tokens per question (%s), accuracy %s%%", p.Model, p.Mode, p.TokensS, p.Source, p.AccS),
			Hollow: !p.Server && src.mixed()}
	}
	items := pointLegend(sp)
	c := &chart{W: frameWidth(left, pw, items, 680), H: top + ph + bottom, Label: "Accuracy against prompt tokens per question"}
	// Decades only, unless the span is short enough that 2× and 5× ticks
	// still leave room for their labels.
	mults := []float64{1}
	if dhi-dlo <= 2 {
		mults = []float64{1, 2, 5}
	}
	for d := dlo; d <= dhi; d++ {
		for _, m := range mults {
			v := m * math.Pow(10, d)
			if math.Log10(v) > dhi+1e-9 {
				break
			}
			c.line(x(v), top, x(v), top+ph, "#e5e5e5", 1, false)
			c.text(x(v), top+ph+xTickGap, tokenTick(v), "middle", 11)
		}
	}
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		c.line(left, y(v), left+pw, y(v), "#e5e5e5", 1, false)
		c.text(left-6, y(v)+4, fmt.Sprintf("%.0f", 100*v), "end", 11)
	}
	c.line(left, top+ph, left+pw, top+ph, "#000", 1, false)
	c.line(left, top, left, top+ph, "#000", 1, false)
	axisTitle(c, left+pw/2, c.H-12, src.axis())
	yAxisLabel(c, left, top, "acc %")
	labelScatter(c, left, top, pw, ph, sp, items)
	return c
}

// reasonByTable is the mean reasoning length per value of one breakdown
// field (e.g. difficulty), one row per (run, mode) that reasoned.
type reasonByTable struct {
	Field  string
	Values []string
	Rows   []reasonByRow
}

type reasonByRow struct {
	Model, Mode string
	Cells       []string
}

func buildReasonBy(runs []Run, labs []string) []reasonByTable {
	fields := map[string]map[string]bool{}
	for _, r := range runs {
		for _, ms := range r.Summary.ByMode {
			for f, vals := range ms.ReasoningBy {
				if fields[f] == nil {
					fields[f] = map[string]bool{}
				}
				for v := range vals {
					fields[f][v] = true
				}
			}
		}
	}
	var out []reasonByTable
	for _, f := range slices.Sorted(maps.Keys(fields)) {
		t := reasonByTable{Field: f, Values: slices.Sorted(maps.Keys(fields[f]))}
		for i, r := range runs {
			for _, m := range modes(r.Summary) {
				rb := r.Summary.ByMode[m].ReasoningBy[f]
				if len(rb) == 0 {
					continue
				}
				row := reasonByRow{Model: labs[i], Mode: m}
				for _, v := range t.Values {
					row.Cells = append(row.Cells, reasonLenText(rb[v]))
				}
				t.Rows = append(t.Rows, row)
			}
		}
		out = append(out, t)
	}
	return out
}

// reasonLenText shows tokens when the server counted them and characters
// when the reply carried the text: some servers give only one of the two.
// A cot run has neither (it reasons in its answer): its completion tokens
// are shown.
func reasonLenText(x run.ReasoningLen) string {
	if x.N == 0 {
		return "–"
	}
	var s string
	if x.Tokens > 0 {
		s = fmt.Sprintf("%.0f tok", x.Tokens)
	}
	if x.Chars > 0 {
		if s != "" {
			s += " · "
		}
		s += fmt.Sprintf("%.0f chars", x.Chars)
	}
	switch {
	case s == "" && x.Completion > 0:
		// A cot run: the server counts its reasoning only as completion.
		s = fmt.Sprintf("%.0f completion tok", x.Completion)
	case s == "":
		s = "0"
	}
	return fmt.Sprintf("%s (n=%d)", s, x.N)
}
