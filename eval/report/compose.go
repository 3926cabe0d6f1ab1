package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/paperlens/paperlens/eval/run"
)

// shapeFields are the breakdown fields of composed questions
// (eval/compose: paperlens compose, eval --compose) and what the report
// calls them: section 1 adds accuracy by each, as Encyclo-K Figure 4
// does by option count.
var shapeFields = []struct{ field, title string }{
	{"statements", "number of statements"},
	{"options", "number of options"},
}

// shapeNote heads the tables.
const shapeNote = "Composed questions (Encyclo-K's form): accuracy %, mean over runs, and the questions behind it."

// buildShape is accuracy per value of each shape field the runs carry,
// one row per (run, mode): none for runs of a benchmark's own questions.
func buildShape(runs []Run, labs []string) []reasonByTable {
	var out []reasonByTable
	for _, sf := range shapeFields {
		vals := map[string]bool{}
		for _, r := range runs {
			for _, ms := range r.Summary.ByMode {
				for v := range ms.ByBreakdown[sf.field] {
					vals[v] = true
				}
			}
		}
		if len(vals) == 0 {
			continue
		}
		t := reasonByTable{Field: sf.title, Values: run.SortValues(slices.Collect(maps.Keys(vals)))}
		for i, r := range runs {
			for _, m := range modes(r.Summary) {
				by := r.Summary.ByMode[m].ByBreakdown[sf.field]
				if len(by) == 0 {
					continue
				}
				row := reasonByRow{Model: labs[i], Mode: m}
				for _, v := range t.Values {
					cell := "–"
					if a := by[v]; a.N > 0 {
						cell = fmt.Sprintf("%s (n=%d)", pct(a.Accuracy), a.N)
					}
					row.Cells = append(row.Cells, cell)
				}
				t.Rows = append(t.Rows, row)
			}
		}
		out = append(out, t)
	}
	return out
}

// writeShapeMarkdown writes the shape tables under section 1.
func writeShapeMarkdown(b *strings.Builder, p *page) {
	for _, t := range p.Shape {
		fmt.Fprintf(b, "\n### Accuracy by %s\n\n%s\n\n", t.Field, shapeNote)
		head := []string{"model", "mode"}
		for _, v := range t.Values {
			head = append(head, md(v))
		}
		run.MarkdownHead(b, head...)
		for _, r := range t.Rows {
			run.MarkdownRow(b, append([]string{md(r.Model), md(r.Mode)}, r.Cells...)...)
		}
	}
}

// ShapeNote is shapeNote, for the HTML template.
func (p *page) ShapeNote() string { return shapeNote }
