package report

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/paperlens/paperlens/eval/published"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/stats"
)

// hPublished is the heading of the published-numbers section.
const hPublished = "Published numbers"

// publishedNote says how to read the comparison; both formats print it.
const publishedNote = "Each run beside the paper's number for the same model, bench and setting (ElaipBench Table 2: the run's paradigm, full mode; LPFQA Table 2: closed-book; LPFQA Table 4: closed-book, tool-python and tool-search). " +
	"Measured is the run's accuracy (mean over its runs) with a 95% Wilson interval over its n questions; repeated runs put the same questions again, so they do not narrow it. " +
	"The interval covers the published value when the paper's number is within it; it is the run's sampling error only, not the paper's, and the paper's own numbers are a mean of its runs."

// PaperOptions configure the published-numbers comparison.
type PaperOptions struct {
	// As names the published row a run is compared with when its model
	// name is not the paper's: the key is a run's model name or folder
	// (compared as published.Normalize does), "" for every run.
	As map[string]string
}

// ParsePublishedAs reads --published-as values: NAME maps every run,
// MODEL=NAME only the runs whose model or folder is MODEL.
func ParsePublishedAs(vals []string) (map[string]string, error) {
	out := map[string]string{}
	for _, v := range vals {
		from, to, ok := strings.Cut(v, "=")
		if !ok {
			from, to = "", v
		}
		from, to = strings.TrimSpace(from), strings.TrimSpace(to)
		if to == "" || (ok && from == "") {
			return nil, fmt.Errorf("--published-as %q: want NAME or MODEL=NAME", v)
		}
		key := published.Normalize(from)
		if prev, dup := out[key]; dup && prev != to {
			return nil, fmt.Errorf("--published-as %q: %q is already mapped to %q", v, from, prev)
		}
		out[key] = to
	}
	return out, nil
}

// PaperComparison is one run against one published table, or a run no
// published row names (Table empty, Note says why).
type PaperComparison struct {
	Run      string `json:"run"` // the report's label for the run
	Dir      string `json:"dir"`
	Model    string `json:"model"`
	Bench    string `json:"bench"`
	Paradigm string `json:"paradigm"`
	// As is the name looked up when --published-as mapped the run's.
	As        string      `json:"published_as,omitempty"`
	Table     string      `json:"table,omitempty"`
	Paper     string      `json:"paper,omitempty"`
	Section   string      `json:"section,omitempty"`
	Row       string      `json:"row,omitempty"` // the published row's model
	RowParad  string      `json:"row_paradigm,omitempty"`
	Cells     []PaperCell `json:"cells,omitempty"`
	Note      string      `json:"note,omitempty"`
	Questions int         `json:"questions"` // the run's
	// PaperQuestions is how many questions the paper's numbers are over.
	PaperQuestions int `json:"paper_questions,omitempty"`
}

// PaperCell is one published cell against the run's measurement of it.
type PaperCell struct {
	Column    string  `json:"column"`
	Mode      string  `json:"mode"`
	Published float64 `json:"published"` // percent, as printed
	// Measured, Lo and Hi are the run's accuracy and its 95% Wilson
	// interval, in percent; N is the questions it is over.
	Measured float64 `json:"measured"`
	Lo       float64 `json:"ci_lo"`
	Hi       float64 `json:"ci_hi"`
	N        int     `json:"n"`
	Covers   bool    `json:"covers"`
}

// Verdict says in words whether the interval covers the published value.
func (c PaperCell) Verdict() string {
	switch {
	case c.Covers:
		return "covers"
	case c.Published < c.Lo:
		return "does not cover (measured above)"
	}
	return "does not cover (measured below)"
}

// MeasuredText is "38.5 [24.9, 54.2]".
func (c PaperCell) MeasuredText() string {
	return fmt.Sprintf("%.1f [%.1f, %.1f]", c.Measured, c.Lo, c.Hi)
}

// breakdownFields are the summary's by_breakdown fields a published
// column's group may be recorded under (bench.Load's field names).
var breakdownFields = map[string][]string{
	"difficulty": {"difficulty", "level"},
	"discipline": {"discipline", "category", "subject"},
	"domain":     {"domain", "primary_domain"},
}

// valueAliases are other spellings of a published column's value in a
// dataset (normalised): LPFQA's paper abbreviates its domains.
var valueAliases = map[string][]string{
	"moderate":    {"medium"},
	"lifesci":     {"lifesciences", "lifescience"},
	"maths":       {"math", "mathematics"},
	"naturalsci":  {"naturalsciences", "naturalscience"},
	"socialsci":   {"socialsciences", "socialscience"},
	"ee":          {"electricalengineering"},
	"appliedtech": {"appliedtechnology"},
	"cs":          {"computerscience"},
}

func sameValue(col, v string) bool {
	c, n := published.Normalize(col), published.Normalize(v)
	return c == n || slices.Contains(valueAliases[c], n)
}

// columnAcc finds the run's accuracy for a published column of mode
// stats ms: overall, by question type, or by a breakdown value.
func columnAcc(ms run.ModeStats, group, col string) (run.Acc, bool) {
	switch group {
	case "":
		return ms.Acc, ms.N > 0
	case "question type":
		for ty, a := range ms.ByType {
			if sameValue(col, ty) {
				return a, a.N > 0
			}
		}
		return run.Acc{}, false
	}
	for _, f := range breakdownFields[group] {
		vals := ms.ByBreakdown[f]
		keys := make([]string, 0, len(vals))
		for v := range vals {
			keys = append(keys, v)
		}
		sort.Strings(keys) // a deterministic pick should two spellings occur
		for _, v := range keys {
			if sameValue(col, v) && vals[v].N > 0 {
				return vals[v], true
			}
		}
	}
	return run.Acc{}, false
}

// ComparePublished sets each run beside the published rows naming its
// model (or its --published-as name) on its bench, paradigm included
// where the table has one. A run no row names gets one comparison with a
// note, not an error.
func ComparePublished(runs []Run, opt PaperOptions) []PaperComparison {
	labs := labels(runs)
	var out []PaperComparison
	for i, r := range runs {
		s := r.Summary
		base := PaperComparison{Run: labs[i], Dir: filepath.Base(r.Dir), Model: s.Model, Bench: s.Bench, Paradigm: s.Paradigm, Questions: s.Questions}
		if base.Paradigm == "" {
			base.Paradigm = run.Base
		}
		if r.Progress.Incomplete() {
			// Its numbers cover part of the questions: say so beside them.
			base.Note = "the run is incomplete (" + r.Progress.Detail() + ")"
		}
		name := s.Model
		if as, ok := lookupAs(opt.As, s.Model, r.Dir); ok {
			name, base.As = as, as
		}
		matches := published.Find(s.Bench, name, base.Paradigm)
		if len(matches) == 0 {
			note := fmt.Sprintf("no published row for %q (paradigm %s) on %s", name, base.Paradigm, benchName(s.Bench))
			if base.As == "" {
				note += "; --published-as NAME compares it with a row of another name"
			}
			base.Note = joinNotes(note, base.Note)
			out = append(out, base)
			continue
		}
		for _, m := range matches {
			c := base
			c.Table, c.Paper, c.Section, c.Row, c.RowParad, c.PaperQuestions = m.Table.Name, m.Table.Paper, m.Table.Section, m.Row.Model, m.Row.Paradigm, m.Table.Questions
			var missing []string
			for _, col := range m.Table.Columns {
				md, ok := m.Table.Modes[col]
				if !ok {
					continue
				}
				pub, ok := m.Row.Values[col]
				if !ok {
					continue
				}
				ms, ok := s.ByMode[md]
				if !ok {
					if !slices.Contains(missing, md) {
						missing = append(missing, md)
					}
					continue
				}
				a, ok := columnAcc(ms, m.Table.Groups[col], col)
				if !ok {
					continue // the run has no such breakdown
				}
				lo, hi := stats.Wilson(a.Accuracy, a.N)
				p := pub / 100
				c.Cells = append(c.Cells, PaperCell{Column: col, Mode: md, Published: pub, Measured: 100 * a.Accuracy, Lo: 100 * lo, Hi: 100 * hi, N: a.N,
					Covers: lo <= p && p <= hi})
			}
			if len(missing) > 0 {
				c.Note = joinNotes(c.Note, "the run has no "+strings.Join(missing, ", ")+" mode: the columns it measures are left out")
			}
			out = append(out, c)
		}
	}
	return out
}

// lookupAs finds a run's --published-as name: by its model, then its
// folder, then the catch-all.
func lookupAs(as map[string]string, model, dir string) (string, bool) {
	if len(as) == 0 {
		return "", false
	}
	for _, k := range []string{model, filepath.Base(dir)} {
		if n := published.Normalize(k); n != "" {
			if v, ok := as[n]; ok {
				return v, true
			}
		}
	}
	v, ok := as[""]
	return v, ok
}

func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

func benchName(b string) string {
	if b == "" {
		return "an unnamed bench"
	}
	return b
}

// rowLabel is "Qwen3-8B (base)".
func (c PaperComparison) rowLabel() string {
	if c.RowParad == "" {
		return c.Row
	}
	return c.Row + " (" + c.RowParad + ")"
}

// runLabel is "qwen3-8b-awq as Qwen3-8B".
func (c PaperComparison) runLabel() string {
	if c.As == "" {
		return c.Run
	}
	return c.Run + " as " + c.As
}

// sampleNote says when the run answered another number of questions than
// the paper: its interval is then about a different sample.
func (c PaperComparison) sampleNote() string {
	if c.PaperQuestions == 0 || c.Questions == c.PaperQuestions {
		return ""
	}
	return fmt.Sprintf("The run answered %d questions, the paper %d: a different sample; the interval is over the run's questions.", c.Questions, c.PaperQuestions)
}

// PaperMarkdown writes the comparison as Markdown: one table per run and
// published table, and a line for each run no row names.
func PaperMarkdown(w io.Writer, cmp []PaperComparison) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n", hPublished, publishedNote)
	writePaperMarkdown(&b, cmp, "##")
	_, err := io.WriteString(w, b.String())
	return err
}

func writePaperMarkdown(b *strings.Builder, cmp []PaperComparison, h string) {
	for _, c := range cmp {
		if c.Table == "" {
			fmt.Fprintf(b, "\n%s %s (%s)\n\n%s.\n", h, md(c.runLabel()), md(c.Dir), md(upperFirst(c.Note)))
			continue
		}
		fmt.Fprintf(b, "\n%s %s (%s) against %s, %s\n\n", h, md(c.runLabel()), md(c.Dir), md(c.Table), md(c.rowLabel()))
		fmt.Fprintf(b, "%s, %s.", md(c.Paper), md(c.Section))
		if n := c.sampleNote(); n != "" {
			b.WriteString(" " + md(n))
		}
		b.WriteString("\n\n")
		if len(c.Cells) == 0 {
			b.WriteString("No column of this table was measured by the run.")
			if c.Note != "" {
				b.WriteString(" " + md(upperFirst(c.Note)) + ".")
			}
			b.WriteString("\n")
			continue
		}
		run.MarkdownHead(b, "column", "mode", "published %", "measured % [95% CI]", "n", "verdict")
		for _, cell := range c.Cells {
			run.MarkdownRow(b, md(cell.Column), md(cell.Mode), fmt.Sprintf("%.2f", cell.Published), cell.MeasuredText(), fmt.Sprint(cell.N), cell.Verdict())
		}
		if c.Note != "" {
			b.WriteString("\n" + md(upperFirst(c.Note)) + ".\n")
		}
	}
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// paperSection is the HTML section's data.
type paperSection struct {
	Note  string
	Items []paperItem
}

type paperItem struct {
	Run, Dir, Table, Paper, Section, Row, Note, Sample string
	Cells                                              []paperCellView
}

type paperCellView struct {
	Column, Mode, Published, Measured, Verdict string
	N                                          int
	Covers                                     bool
}

func buildPaperSection(cmp []PaperComparison) *paperSection {
	s := &paperSection{Note: publishedNote}
	for _, c := range cmp {
		it := paperItem{Run: c.runLabel(), Dir: c.Dir, Table: c.Table, Paper: c.Paper, Section: c.Section, Row: c.rowLabel(), Note: upperFirst(c.Note), Sample: c.sampleNote()}
		for _, cell := range c.Cells {
			it.Cells = append(it.Cells, paperCellView{Column: cell.Column, Mode: cell.Mode, Published: fmt.Sprintf("%.2f", cell.Published),
				Measured: cell.MeasuredText(), Verdict: cell.Verdict(), N: cell.N, Covers: cell.Covers})
		}
		s.Items = append(s.Items, it)
	}
	return s
}
