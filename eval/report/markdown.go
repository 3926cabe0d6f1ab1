package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/paperlens/paperlens/eval/run"
)

var mdRepl = strings.NewReplacer(`\`, `\\`, "|", `\|`, "<", "&lt;", ">", "&gt;", "&", "&amp;", "\n", " ", "\r", " ", "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`)

// md escapes text from the files for a Markdown table cell.
func md(s string) string { return mdRepl.Replace(s) }

// Markdown writes the report's tables as Markdown (no charts).
func Markdown(w io.Writer, runs []Run) error { return MarkdownWith(w, runs, WriteOptions{}) }

// MarkdownWith is Markdown with optional sections. Each section is
// written by a function of its own, in the report's order.
func MarkdownWith(w io.Writer, runs []Run, opt WriteOptions) error {
	p, err := build(runs)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("# paperlens report\n\n")
	for _, section := range []func(*strings.Builder, *page){
		writeRunsMarkdown, writeAccuracyMarkdown, writeShapeMarkdown, writeEffectsMarkdown, writeTokensMarkdown,
		writeRecallMarkdown, writeReasoningMarkdown, writeReasonByMarkdown, writeFlipsMarkdown,
		writeMissMarkdown, writeFrontierMarkdown, writeToolsMarkdown, writeHarmfulMarkdown,
	} {
		section(&b, p)
	}
	if opt.Published != nil {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n", hPublished, publishedNote)
		writePaperMarkdown(&b, ComparePublished(runs, *opt.Published), "###")
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// writeRunsMarkdown writes the table of runs, the incomplete ones, and
// where each departs from its benchmark's paper.
func writeRunsMarkdown(b *strings.Builder, p *page) {
	run.MarkdownHead(b, "model", "folder", "bench", "paradigm", "baseline", "runs", "questions", "records")
	for _, r := range p.Runs {
		run.MarkdownRow(b, md(r.Model), md(r.Dir), md(r.Bench), md(r.Paradigm), md(r.Baseline), fmt.Sprint(r.Runs), fmt.Sprint(r.Questions), r.Records)
	}
	for _, n := range p.Incomplete {
		b.WriteString("\n**Incomplete run** " + md(n) + "\n")
	}
	if len(p.Protocol) > 0 {
		b.WriteString("\n## Protocol\n\nWhere each run departs from its benchmark's paper, and why.\n")
		for _, x := range p.Protocol {
			fmt.Fprintf(b, "\n%s (%s):\n", md(x.Model), md(x.Dir))
			for _, l := range x.Lines {
				b.WriteString("- " + md(l) + "\n")
			}
		}
	}
}

// writeAccuracyMarkdown writes section 1: accuracy by mode and question
// type, with misses, recall, truncation, tokens and cost.
func writeAccuracyMarkdown(b *strings.Builder, p *page) {
	fmt.Fprintf(b, "\n## 1. %s\n\nAccuracy (%%), mean ± std over runs.\n\n", hAccuracy)
	head := []string{"model", "mode"}
	for _, t := range p.Acc.Types {
		head = append(head, md(t))
	}
	head = append(head, "overall", "n", "miss rate %", "evidence recall %", "truncated", "tokens/q in · out (reasoning)")
	if p.Acc.HasCost {
		head = append(head, "cost US$")
	}
	run.MarkdownHead(b, head...)
	for _, r := range p.Acc.Rows {
		cells := append([]string{md(r.Model), md(r.Mode)}, r.Cells...)
		cells = append(cells, "**"+r.Overall+"**", fmt.Sprint(r.N), r.Miss, r.Recall, fmt.Sprint(r.Truncated), r.Tokens)
		if p.Acc.HasCost {
			cells = append(cells, r.Cost)
		}
		run.MarkdownRow(b, cells...)
	}
	b.WriteString("\nTruncated: replies cut by the token limit before an answer (counted wrong). Tokens per question are the server's counts over every record: prompt · completion (reasoning).")
	if p.Acc.HasCost {
		b.WriteString(" Cost is those tokens at the run's --price, over all its runs.")
	}
	b.WriteString("\n")
}

// writeEffectsMarkdown writes section 2: each mode against the baseline.
func writeEffectsMarkdown(b *strings.Builder, p *page) {
	fmt.Fprintf(b, "\n## 2. %s\n\n", hEffect)
	if len(p.Effects) == 0 {
		b.WriteString("No run has effects against a baseline.\n")
	}
	for _, e := range p.Effects {
		fmt.Fprintf(b, "### %s (baseline: %s)\n\n", md(e.Model), md(e.Baseline))
		run.MarkdownHead(b, "mode", "Δ (pp)", "95% CI", "McNemar p", "right→wrong", "wrong→right", "evidence recall %", "n")
		for _, r := range e.Rows {
			run.MarkdownRow(b, md(r.Mode), r.Diff, r.CI, r.P, fmt.Sprint(r.B10), fmt.Sprint(r.B01), r.Recall, fmt.Sprint(r.N))
		}
		b.WriteString("\n")
	}
}

// writeTokensMarkdown writes section 3: prompt tokens against accuracy.
func writeTokensMarkdown(b *strings.Builder, p *page) {
	fmt.Fprintf(b, "\n## 3. %s\n\n", hTokens)
	if len(p.Tokens) == 0 {
		b.WriteString("No mode has a prompt token count.\n")
		return
	}
	b.WriteString(p.TokensTab)
	if p.TokensOut > 0 {
		fmt.Fprintf(b, " %d mode(s) with no token count are left out.", p.TokensOut)
	}
	b.WriteString(" The HTML report plots these.\n\n")
	run.MarkdownHead(b, "model", "mode", "prompt tokens/q", "counted by", "accuracy %")
	for _, t := range p.Tokens {
		run.MarkdownRow(b, md(t.Model), md(t.Mode), t.TokensS, t.Source, t.AccS)
	}
}

// writeRecallMarkdown writes section 4: evidence recall against accuracy.
func writeRecallMarkdown(b *strings.Builder, p *page) {
	fmt.Fprintf(b, "\n## 4. %s\n\n", hRecall)
	if len(p.Recall) == 0 {
		b.WriteString("No mode reports evidence recall.\n")
		return
	}
	run.MarkdownHead(b, "model", "mode", "evidence recall %", "accuracy %")
	for _, r := range p.Recall {
		run.MarkdownRow(b, md(r.Model), md(r.Mode), r.RecallS, r.AccS)
	}
}

// writeReasoningMarkdown writes section 5: accuracy by reasoning length.
func writeReasoningMarkdown(b *strings.Builder, p *page) {
	fmt.Fprintf(b, "\n## 5. %s\n\n", hReasoning)
	off := ""
	if p.ReasonOff != "" {
		off = " " + p.ReasonOff
	}
	if len(p.Reason) == 0 {
		b.WriteString("No record carries reasoning text." + off + "\n")
		return
	}
	b.WriteString("Accuracy (%) of scored records with reasoning text, pooled over modes and runs, by reasoning length in characters." + off + "\n\n")
	run.MarkdownHead(b, append([]string{"model"}, bucketNames...)...)
	for _, r := range p.Reason {
		cells := []string{md(r.Model)}
		for _, c := range r.Cells {
			cells = append(cells, c.Text)
		}
		run.MarkdownRow(b, cells...)
	}
}

// writeReasonByMarkdown writes section 6: reasoning length by a breakdown
// field's values.
func writeReasonByMarkdown(b *strings.Builder, p *page) {
	fmt.Fprintf(b, "\n## 6. %s\n\n", hReasonBy)
	if len(p.ReasonBy) == 0 {
		b.WriteString("No run reports reasoning length by a breakdown field.\n")
	}
	for _, t := range p.ReasonBy {
		fmt.Fprintf(b, "### by %s\n\nMean reasoning per answer: tokens as the server counted them, characters of reasoning text.\n\n", md(t.Field))
		head := []string{"model", "mode"}
		for _, v := range t.Values {
			head = append(head, md(v))
		}
		run.MarkdownHead(b, head...)
		for _, r := range t.Rows {
			run.MarkdownRow(b, append([]string{md(r.Model), md(r.Mode)}, r.Cells...)...)
		}
		b.WriteString("\n")
	}
}

// writeFlipsMarkdown writes section 7: questions a reasoning run gets
// wrong that a base or cot run of the same model gets right, and the
// reverse.
func writeFlipsMarkdown(b *strings.Builder, p *page) {
	fmt.Fprintf(b, "\n## 7. %s\n\n", hFlips)
	if len(p.Flips) == 0 {
		b.WriteString("No reasoning run has a base or cot run of the same model on the same data beside it.\n")
	} else {
		b.WriteString("A reasoning run against a base or cot run of the same model on the same data, per mode: questions right (a majority of scored runs) without reasoning and wrong with it, and the reverse.\n\n")
	}
	for _, f := range p.Flips {
		fmt.Fprintf(b, "### %s: %s → %s\n\n", md(f.Model), md(f.Base), md(f.Reason))
		run.MarkdownHead(b, "mode", "paired questions", "right→wrong", "wrong→right", "right→wrong questions")
		for _, r := range f.Rows {
			run.MarkdownRow(b, md(r.Mode), fmt.Sprint(r.N), fmt.Sprint(r.Lost), fmt.Sprint(r.Gained), r.list(md))
		}
		b.WriteString("\n")
	}
}

// writeMissMarkdown writes section 8: miss rates by model and mode.
func writeMissMarkdown(b *strings.Builder, p *page) {
	fmt.Fprintf(b, "\n## 8. %s\n\nMiss rate %%: the share of records from which no answer could be extracted.\n\n", hMiss)
	head := []string{"model"}
	for _, m := range p.Miss.Modes {
		head = append(head, md(m))
	}
	run.MarkdownHead(b, head...)
	for _, r := range p.Miss.Rows {
		run.MarkdownRow(b, append([]string{md(r.Model)}, r.Cells...)...)
	}
}

// writeToolsMarkdown writes section 10, for runs with a tool mode only:
// tool calls per question and accuracy by the number of calls.
func writeToolsMarkdown(b *strings.Builder, p *page) {
	tr := p.Tools
	if len(tr) == 0 {
		return
	}
	fmt.Fprintf(b, "\n## 10. %s\n\nTool modes: tool calls per question (mean), the share of questions answered without any tool, and accuracy by the number of calls the model made (records in brackets).\n\n", hTools)
	head := []string{"model", "mode", "n", "calls/q", "no tool %"}
	for _, c := range callBuckets {
		head = append(head, c+" calls: acc %")
	}
	run.MarkdownHead(b, head...)
	for _, r := range tr {
		run.MarkdownRow(b, append([]string{md(r.Model), md(r.Mode), fmt.Sprint(r.N), r.MeanCalls, r.NoTool}, r.ByCalls...)...)
	}
}

// writeFrontierMarkdown writes section 9: per model the points as a table
// (the figure's data) and the sentences naming the cheapest configuration
// within full's interval.
func writeFrontierMarkdown(b *strings.Builder, p *page) {
	fmt.Fprintf(b, "\n## 9. %s\n\n%s\n", hFrontier, p.FrontierNote)
	for _, f := range p.Frontier {
		fmt.Fprintf(b, "\n### %s\n\n", md(f.Model))
		if len(f.Points) == 0 {
			b.WriteString("No mode of this model has a scored question with a prompt token count.\n")
			continue
		}
		b.WriteString(md(f.TokensNote()) + "\n\n")
		head := []string{"configuration", "folder", "accuracy % [95% CI]", "n", "prompt tokens/q"}
		if f.HasCost {
			head = append(head, "cost US$/q")
		}
		head = append(head, "frontier")
		if f.HasCost {
			head = append(head, "cost frontier")
		}
		if f.HasFull {
			head = append(head, "vs full (points)", "within full's CI")
		}
		run.MarkdownHead(b, head...)
		for _, pt := range f.Points {
			cells := []string{md(pt.Label), md(pt.Dir), pt.AccS, fmt.Sprint(pt.N), pt.TokensS}
			if f.HasCost {
				cells = append(cells, pt.CostS)
			}
			cells = append(cells, yesNo(pt.Frontier))
			if f.HasCost {
				cells = append(cells, yesNo(pt.CostFrontier))
			}
			if f.HasFull {
				cells = append(cells, pt.VsFull, pt.WithinS)
			}
			run.MarkdownRow(b, cells...)
		}
		b.WriteString("\n" + md(f.Sentence) + "\n")
		if f.CostSentence != "" {
			b.WriteString("\n" + md(f.CostSentence) + "\n")
		}
		if f.Skipped > 0 {
			fmt.Fprintf(b, "\n%d mode(s) with no scored question or no prompt token count are left out.\n", f.Skipped)
		}
	}
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}
