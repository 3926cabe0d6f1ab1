package run

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// The texts of a summary's cells have one owner, here: summary.md, the
// report (Markdown and HTML) and the inspector show a number the same way.

// Percent is a share in percent with one decimal, without the sign.
func Percent(x float64) string { return fmt.Sprintf("%.1f", 100*x) }

// AccText is "mean ± std" in percent, or "–" when nothing was scored, so
// that an empty mode never reads as 0% accuracy.
func AccText(a Acc) string {
	if a.N == 0 {
		return "–"
	}
	return Percent(a.Accuracy) + " ± " + Percent(a.Std)
}

// RecallText is an evidence recall with two decimals, or "–" for a mode
// that retrieved nothing.
func RecallText(r *float64) string {
	if r == nil {
		return "–"
	}
	return fmt.Sprintf("%.2f", *r)
}

// Text is an effect's Δ in points, its 95% interval and McNemar's p, or
// "–" for each when no question was scored in both modes.
func (e Effect) Text() (diff, ci, p string) {
	if e.N == 0 {
		return "–", "–", "–"
	}
	return fmt.Sprintf("%+.1f", 100*e.Diff), fmt.Sprintf("[%+.1f, %+.1f]", 100*e.Lo, 100*e.Hi), fmt.Sprintf("%.3g", e.PValue)
}

// TokensPerQuestion renders the server-reported tokens per record as
// "prompt · completion (reasoning)", or "–" when the server reported none
// (offline baselines).
func TokensPerQuestion(ms ModeStats) string {
	t := ms.Tokens
	if ms.Records == 0 || t.Prompt+t.Completion == 0 {
		return "–"
	}
	n := float64(ms.Records)
	out := fmt.Sprintf("%.0f · %.0f", float64(t.Prompt)/n, float64(t.Completion)/n)
	if t.Reasoning > 0 {
		out += fmt.Sprintf(" (%.0f)", float64(t.Reasoning)/n)
	}
	return out
}

// CostText renders a cost in US$, or "–" without a --price.
func CostText(c *float64) string {
	switch {
	case c == nil:
		return "–"
	case *c == 0:
		return "0" // a free model, or an offline baseline in a priced run
	case *c < 0.01:
		return fmt.Sprintf("%.4f", *c)
	}
	return fmt.Sprintf("%.2f", *c)
}

// MarkdownRow writes one row of a Markdown table; the cells are written
// as given (escape text from the files first).
func MarkdownRow(b *strings.Builder, cells ...string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" " + c + " |")
	}
	b.WriteString("\n")
}

// MarkdownHead writes a Markdown table's header row and its rule.
func MarkdownHead(b *strings.Builder, cells ...string) {
	MarkdownRow(b, cells...)
	b.WriteString("|" + strings.Repeat("---|", len(cells)) + "\n")
}

// Markdown renders the summary as ElaipBench-style tables (summary.md):
// accuracy by question type per mode, accuracy and reasoning length by
// breakdown field, then the RAG effect against the baseline.
func Markdown(s Summary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s on %s (%s paradigm, %d run(s), %d questions)\n\n", s.Model, s.Bench, s.Paradigm, s.Runs, s.Questions)
	if s.Protocol != nil {
		b.WriteString("## Protocol\n\n")
		if len(s.Protocol.Departures()) > 0 {
			fmt.Fprintf(&b, "Where this run departs from %s:\n\n", s.Protocol.Source)
		}
		for _, line := range ProtocolText(*s.Protocol) {
			b.WriteString("- " + line + "\n")
		}
		b.WriteString("\n")
	}
	if s.NoAccuracy != "" {
		b.WriteString("**No overall accuracy.** " + s.NoAccuracy + ".\n\n")
	}
	b.WriteString("## Accuracy (%), mean ± std over runs\n\n")
	b.WriteString("Accuracy counts every question, a question that ended in an error as wrong; \"answered\" leaves those out.\n\n")
	rouge := markdownAccuracy(&b, s)
	if rouge && s.NoAccuracy == "" {
		b.WriteString("\nShort answers were scored by ROUGE-L F1 against the reference, shown apart: accuracy counts only what could be scored exactly. Accuracy on short answers needs a judge: pass --judge-model (LPFQA's grading prompt).\n")
	}
	fields := breakdownFields(s)
	for _, f := range fields {
		markdownBreakdown(&b, s, f)
	}
	for _, f := range fields {
		markdownReasoningBy(&b, s, f)
	}
	markdownHarmful(&b, s)
	for _, m := range s.Modes {
		if r := s.ByMode[m].Routes; r != nil {
			fmt.Fprintf(&b, "\n%s: %d of %d answers came from the passages; %d went on to the whole paper (the model replied unanswerable). Its prompt tokens are both calls'.\n",
				m, r[RouteRAG], r[RouteRAG]+r[RouteFull], r[RouteFull])
		}
	}
	for _, m := range s.Modes {
		if rt := s.ByMode[m].RerankTokens; rt != nil && s.ByMode[m].Records > 0 {
			q := max(1, s.ByMode[m].Records/max(1, s.Runs))
			fmt.Fprintf(&b, "\n%s: the LLM reranker used %d prompt and %d completion tokens, %.0f prompt tokens per question (once per question, not per run); they are not in the tokens above, and are in the cost.\n",
				m, rt.Prompt, rt.Completion, float64(rt.Prompt)/float64(q))
		}
	}
	if len(s.Effects) > 0 {
		markdownEffects(&b, s)
	}
	return b.String()
}

// markdownAccuracy writes the accuracy table and reports whether it has a
// ROUGE-L column.
func markdownAccuracy(b *strings.Builder, s Summary) (rouge bool) {
	for _, m := range s.Modes {
		rouge = rouge || s.ByMode[m].RougeL != nil
	}
	head := append(append([]string{"mode"}, s.Types...), "overall", "errors", "answered", "n", "miss rate", "truncated", "evidence recall")
	if rouge {
		head = append(head, "ROUGE-L (short answers)")
	}
	MarkdownHead(b, append(head, "prompt tokens", "tokens/q in · out (reasoning)", "cost US$")...)
	for _, m := range s.Modes {
		ms := s.ByMode[m]
		row := []string{m}
		for _, t := range s.Types {
			row = append(row, AccText(ms.ByType[t]))
		}
		acc, answered := AccText(ms.Acc), Percent(ms.AccuracyAnswered)
		switch {
		case s.NoAccuracy != "":
			acc, answered = "–", "–"
		case ms.N == 0:
			answered = "–"
		default:
			acc = "**" + acc + "**"
		}
		row = append(row, acc, fmt.Sprint(ms.Errors), answered, fmt.Sprint(ms.N), Percent(ms.MissRate)+"%", fmt.Sprint(ms.Truncated), RecallText(ms.EvidenceRecall))
		if rouge {
			r := "–"
			if ms.RougeL != nil {
				r = fmt.Sprintf("%.3f", *ms.RougeL)
			}
			row = append(row, r)
		}
		MarkdownRow(b, append(row, fmt.Sprintf("%.0f", ms.PromptTokens), TokensPerQuestion(ms), CostText(ms.CostUSD))...)
	}
	for _, m := range s.Modes {
		if n := s.ByMode[m].JudgeUnreadable; n > 0 {
			fmt.Fprintf(b, "\n%s: %d judge verdict(s) had no readable answer_score; each scored 0 and stayed in the accuracy.\n", m, n)
		}
	}
	return rouge
}

// breakdownFields are the breakdown fields the data carries, sorted.
func breakdownFields(s Summary) []string {
	fields := map[string]bool{}
	for _, ms := range s.ByMode {
		for f := range ms.ByBreakdown {
			fields[f] = true
		}
	}
	return slices.Sorted(maps.Keys(fields))
}

// SortValues sorts breakdown values in place, numbers by value (8, 9,
// 10: a composed question's statements and options) before the rest in
// text order, and returns them.
func SortValues(vs []string) []string {
	slices.SortFunc(vs, func(a, b string) int {
		x, errA := strconv.Atoi(a)
		y, errB := strconv.Atoi(b)
		switch {
		case errA == nil && errB == nil:
			return x - y
		case errA == nil:
			return -1
		case errB == nil:
			return 1
		}
		return strings.Compare(a, b)
	})
	return vs
}

func markdownBreakdown(b *strings.Builder, s Summary, f string) {
	vals := map[string]bool{}
	for _, ms := range s.ByMode {
		for v := range ms.ByBreakdown[f] {
			vals[v] = true
		}
	}
	vl := SortValues(slices.Collect(maps.Keys(vals)))
	fmt.Fprintf(b, "\n## Accuracy (%%) by %s\n\n", f)
	MarkdownHead(b, append([]string{"mode"}, vl...)...)
	for _, m := range s.Modes {
		row := []string{m}
		for _, v := range vl {
			a := s.ByMode[m].ByBreakdown[f][v]
			if a.N == 0 {
				row = append(row, "– (n=0)")
				continue
			}
			row = append(row, fmt.Sprintf("%s (n=%d)", Percent(a.Accuracy), a.N))
		}
		MarkdownRow(b, row...)
	}
}

func markdownReasoningBy(b *strings.Builder, s Summary, f string) {
	var rows strings.Builder
	for _, m := range s.Modes {
		rb := s.ByMode[m].ReasoningBy[f]
		if len(rb) == 0 {
			continue
		}
		vl := slices.Sorted(maps.Keys(rb))
		cells := make([]string, len(vl))
		for i, v := range vl {
			x := rb[v]
			cells[i] = fmt.Sprintf("%s: %.0f tok, %.0f chars, %.0f completion tok (n=%d)", v, x.Tokens, x.Chars, x.Completion, x.N)
		}
		MarkdownRow(&rows, m, strings.Join(cells, "; "))
	}
	if rows.Len() == 0 {
		return
	}
	fmt.Fprintf(b, "\n## Reasoning length by %s (mean per answer)\n\n", f)
	MarkdownHead(b, "mode", f)
	b.WriteString(rows.String())
}

func markdownEffects(b *strings.Builder, s Summary) {
	fmt.Fprintf(b, "\n## Effect against %s (paired over questions)\n\n", s.Baseline)
	MarkdownHead(b, "mode", "Δ accuracy (pts)", "95% CI", "McNemar p", "right→wrong", "wrong→right", "evidence recall", "n")
	for _, e := range s.Effects {
		diff, ci, p := e.Text()
		b10, b01 := fmt.Sprint(e.B10), fmt.Sprint(e.B01)
		if e.N == 0 {
			b10, b01 = "–", "–"
		}
		MarkdownRow(b, e.Mode, diff, ci, p, b10, b01, RecallText(e.EvidenceRecall), fmt.Sprint(e.N))
	}
	b.WriteString("\nΔ is the mode's accuracy minus the baseline's, per question averaged over runs; the interval is a percentile bootstrap over questions (10,000 resamples); McNemar's test uses per-question majority correctness. Evidence recall is the share of the gold evidence inside the passages the mode retrieved.\n")
}
