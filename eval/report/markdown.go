package report

import (
	"fmt"
	"io"
	"strings"
)

var mdRepl = strings.NewReplacer(`\`, `\\`, "|", `\|`, "<", "&lt;", ">", "&gt;", "&", "&amp;", "\n", " ", "\r", " ", "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`)

// md escapes text from the files for a Markdown table cell.
func md(s string) string { return mdRepl.Replace(s) }

func mdRow(b *strings.Builder, cells ...string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" " + c + " |")
	}
	b.WriteString("\n")
}

func mdHead(b *strings.Builder, cells ...string) {
	mdRow(b, cells...)
	b.WriteString("|" + strings.Repeat("---|", len(cells)) + "\n")
}

// Markdown writes the report's tables as Markdown (no charts).
func Markdown(w io.Writer, runs []Run) error {
	p, err := build(runs)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("# paperlens report\n\n")
	mdHead(&b, "model", "folder", "bench", "paradigm", "baseline", "runs", "questions")
	for _, r := range p.Runs {
		mdRow(&b, md(r.Model), md(r.Dir), md(r.Bench), md(r.Paradigm), md(r.Baseline), fmt.Sprint(r.Runs), fmt.Sprint(r.Questions))
	}

	fmt.Fprintf(&b, "\n## 1. %s\n\nAccuracy (%%), mean ± std over runs.\n\n", hAccuracy)
	head := []string{"model", "mode"}
	for _, t := range p.Acc.Types {
		head = append(head, md(t))
	}
	mdHead(&b, append(head, "overall", "n", "miss rate", "evidence recall")...)
	for _, r := range p.Acc.Rows {
		cells := append([]string{md(r.Model), md(r.Mode)}, r.Cells...)
		mdRow(&b, append(cells, "**"+r.Overall+"**", fmt.Sprint(r.N), r.Miss, r.Recall)...)
	}

	fmt.Fprintf(&b, "\n## 2. %s\n\n", hEffect)
	if len(p.Effects) == 0 {
		b.WriteString("No run has effects against a baseline.\n")
	}
	for _, e := range p.Effects {
		fmt.Fprintf(&b, "### %s (baseline: %s)\n\n", md(e.Model), md(e.Baseline))
		mdHead(&b, "mode", "Δ (pts)", "95% CI", "McNemar p", "right→wrong", "wrong→right", "evidence recall", "n")
		for _, r := range e.Rows {
			mdRow(&b, md(r.Mode), r.Diff, r.CI, r.P, fmt.Sprint(r.B10), fmt.Sprint(r.B01), r.Recall, fmt.Sprint(r.N))
		}
		b.WriteString("\n")
	}

	fmt.Fprintf(&b, "\n## 3. %s\n\n", hRecall)
	if len(p.Recall) == 0 {
		b.WriteString("No mode reports evidence recall.\n")
	} else {
		mdHead(&b, "model", "mode", "evidence recall", "accuracy (%)")
		for _, r := range p.Recall {
			mdRow(&b, md(r.Model), md(r.Mode), r.RecallS, r.AccS)
		}
	}

	fmt.Fprintf(&b, "\n## 4. %s\n\n", hReasoning)
	if len(p.Reason) == 0 {
		b.WriteString("No record carries reasoning text.\n")
	} else {
		b.WriteString("Accuracy (%) of scored records with reasoning text, pooled over modes and runs, by reasoning length in characters.\n\n")
		mdHead(&b, append([]string{"model"}, bucketNames...)...)
		for _, r := range p.Reason {
			cells := []string{md(r.Model)}
			for _, c := range r.Cells {
				cells = append(cells, c.Text)
			}
			mdRow(&b, cells...)
		}
	}

	fmt.Fprintf(&b, "\n## 5. %s\n\n", hMiss)
	head = []string{"model"}
	for _, m := range p.Miss.Modes {
		head = append(head, md(m))
	}
	mdHead(&b, head...)
	for _, r := range p.Miss.Rows {
		mdRow(&b, append([]string{md(r.Model)}, r.Cells...)...)
	}
	_, err = io.WriteString(w, b.String())
	return err
}
