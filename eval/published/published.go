package published

import (
	"bytes"
	"embed"
	"encoding/csv"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// Benches, as paperlens --bench names them.
const (
	ElaipBench = "elaipbench"
	LPFQA      = "lpfqa"
)

// Table is one results table of a paper.
type Table struct {
	Name    string // "ElaipBench Table 2"
	Bench   string // the paperlens bench it reports on
	Paper   string // the paper's title
	Section string // where in the paper: "§4.2, Table 2"
	// Setting says in words what the numbers measure and how paperlens
	// reproduces it.
	Setting string
	Columns []string // value columns, in the paper's order
	// Modes maps a column to the paperlens mode whose accuracy measures
	// the same thing; columns absent (LPFQA Table 4's Δ) are not accuracies.
	Modes map[string]string
	// Groups says, for a column over part of the questions, which part:
	// "question type", "difficulty", "discipline" or "domain" (the column
	// is then the value). Columns absent are over all questions.
	Groups map[string]string
	// Questions is how many questions the paper's numbers are over: a run
	// on fewer answered a different sample.
	Questions int
	Rows      []Row
}

// Row is one line of a table.
type Row struct {
	Model string
	// Paradigm is the paperlens --paradigm the row was measured under
	// (base, cot, reasoning); empty for tables that do not vary it.
	Paradigm string
	// Aliases are other names of the same model (API identifiers).
	Aliases []string
	// Values are the row's cells by column, in percent.
	Values map[string]float64
	// Reference marks a row that is not a model (Human, an average): it
	// is shown for context and never matched.
	Reference bool
	Note      string
}

// Value is the row's cell in column c.
func (r Row) Value(c string) (float64, bool) {
	v, ok := r.Values[c]
	return v, ok
}

// spec is a table's metadata; its rows are in data/<file>.
type spec struct {
	file string
	t    Table
}

const (
	elaipTitle = "ElaipBench: A Benchmark for Expert-Level Artificial Intelligence Paper Understanding"
	lpfqaTitle = "LPFQA: A Long-Tail Professional Forum-based Benchmark for LLM Evaluation"
)

func allMode(mode string, cols ...string) map[string]string {
	m := map[string]string{}
	for _, c := range cols {
		m[c] = mode
	}
	return m
}

// group says each of cols is a value of the grouping field.
func group(field string, cols ...string) map[string]string { return allMode(field, cols...) }

func merge(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		maps.Copy(out, m)
	}
	return out
}

var specs = []spec{
	{"elaipbench-table2.csv", Table{
		Name: "ElaipBench Table 2", Bench: ElaipBench, Paper: elaipTitle, Section: "§4.2, Table 2",
		Setting: "accuracy with the whole paper in context (paperlens mode full), mean of 3 API calls, per paradigm: Base Models (--paradigm base), CoTs (cot), LRMs (reasoning)",
		Modes:   allMode("full", "Total", "SA-MCQ", "MA-MCQ", "Easy", "Moderate", "Hard", "ML", "CV", "NLP"),
		Groups: merge(group("question type", "SA-MCQ", "MA-MCQ"), group("difficulty", "Easy", "Moderate", "Hard"),
			group("discipline", "ML", "CV", "NLP")),
		Questions: 403,
	}},
	{"lpfqa-table2.csv", Table{
		Name: "LPFQA Table 2", Bench: LPFQA, Paper: lpfqaTitle, Section: "§4.1, Table 2",
		Setting:   "accuracy (LLM judge) per primary domain without tools (paperlens mode closed-book), temperature 1, top_p 1",
		Modes:     allMode("closed-book", "Life Sci", "Maths", "Natural Sci", "Social Sci", "EE", "Applied Tech", "CS", "Overall"),
		Groups:    group("domain", "Life Sci", "Maths", "Natural Sci", "Social Sci", "EE", "Applied Tech", "CS"),
		Questions: 430,
	}},
	{"lpfqa-table4.csv", Table{
		Name: "LPFQA Table 4", Bench: LPFQA, Paper: lpfqaTitle, Section: "§4.3, Table 4",
		Setting:   "accuracy without tools (closed-book), with a Jupyter code interpreter (tool-python) and with search (tool-search); Δ is the relative change from no tools, in percent",
		Modes:     map[string]string{"No tools": "closed-book", "Jupyter CI": "tool-python", "Search": "tool-search"},
		Questions: 430,
	}},
}

//go:embed data/*.csv
var files embed.FS

// tables parses the embedded files once; a malformed file is a bug of this
// package, caught by its tests, so it panics.
var tables = sync.OnceValue(func() []Table {
	var out []Table
	for _, s := range specs {
		t, err := parse(s)
		if err != nil {
			panic(err)
		}
		out = append(out, t)
	}
	return out
})

// Tables returns the published tables, ElaipBench's first. The result is a
// copy: callers may change it.
func Tables() []Table {
	src := tables()
	out := make([]Table, len(src))
	for i, t := range src {
		t.Columns, t.Modes, t.Groups = slices.Clone(t.Columns), maps.Clone(t.Modes), maps.Clone(t.Groups)
		t.Rows = slices.Clone(t.Rows)
		for j, r := range t.Rows {
			t.Rows[j].Aliases, t.Rows[j].Values = slices.Clone(r.Aliases), maps.Clone(r.Values)
		}
		out[i] = t
	}
	return out
}

// Columns of the CSV files that are not values.
var metaCols = map[string]bool{"paradigm": true, "model": true, "aliases": true, "reference": true, "note": true}

func parse(s spec) (Table, error) {
	t := s.t
	b, err := files.ReadFile("data/" + s.file)
	if err != nil {
		return t, fmt.Errorf("published: %w", err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		return t, fmt.Errorf("published: %s: %w", s.file, err)
	}
	if len(recs) < 2 {
		return t, fmt.Errorf("published: %s: no rows", s.file)
	}
	head := recs[0]
	for _, h := range head {
		if !metaCols[h] {
			t.Columns = append(t.Columns, h)
		}
	}
	for c := range merge(t.Modes, t.Groups) {
		if !slices.Contains(t.Columns, c) {
			return t, fmt.Errorf("published: %s: mode column %q is not in the file", s.file, c)
		}
	}
	for i, rec := range recs[1:] {
		r := Row{Values: map[string]float64{}}
		for j, h := range head {
			v := strings.TrimSpace(rec[j])
			switch h {
			case "paradigm":
				r.Paradigm = v
			case "model":
				r.Model = v
			case "aliases":
				if v != "" {
					r.Aliases = strings.Split(v, ";")
				}
			case "reference":
				r.Reference = v == "yes"
			case "note":
				r.Note = v
			default:
				if v == "" {
					continue // printed as no number: see the note
				}
				f, err := strconv.ParseFloat(v, 64)
				if err != nil {
					return t, fmt.Errorf("published: %s line %d, %s: %w", s.file, i+2, h, err)
				}
				r.Values[h] = f
			}
		}
		if r.Model == "" {
			return t, fmt.Errorf("published: %s line %d: no model", s.file, i+2)
		}
		t.Rows = append(t.Rows, r)
	}
	return t, nil
}

// Normalize is the form model names are compared in: the part after the
// last "/" (a provider or organisation prefix such as "openai/" or
// "deepseek-ai/"), lower case, letters and digits only. "GPT-4o-0806",
// "gpt-4o-0806" and "openai/GPT 4o 0806" all normalise to "gpt4o0806".
func Normalize(name string) string {
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Matches reports whether the model name names row r: its model or an
// alias, compared normalised and whole (so "gpt-5" is not
// "GPT-5-thinking-all"). Reference rows match nothing.
func (r Row) Matches(model string) bool {
	n := Normalize(model)
	if r.Reference || n == "" {
		return false
	}
	if n == Normalize(r.Model) {
		return true
	}
	for _, a := range r.Aliases {
		if n == Normalize(a) {
			return true
		}
	}
	return false
}

// Match is a published row for a model, with its table.
type Match struct {
	Table Table
	Row   Row
}

// Find returns every published row of bench naming model under paradigm,
// in table order. An empty paradigm is base, paperlens's default; tables
// whose rows carry no paradigm match any.
func Find(bench, model, paradigm string) []Match {
	if paradigm == "" {
		paradigm = "base"
	}
	var out []Match
	for _, t := range Tables() {
		if !strings.EqualFold(t.Bench, bench) {
			continue
		}
		for _, r := range t.Rows {
			if r.Paradigm != "" && r.Paradigm != paradigm {
				continue
			}
			if r.Matches(model) {
				out = append(out, Match{Table: t, Row: r})
			}
		}
	}
	return out
}

// Lookup returns the first published row of bench for model under
// paradigm that has a column measured by mode (see Table.Modes), with its
// table.
func Lookup(bench, model, paradigm, mode string) (Row, Table, bool) {
	for _, m := range Find(bench, model, paradigm) {
		for _, md := range m.Table.Modes {
			if md == mode {
				return m.Row, m.Table, true
			}
		}
	}
	return Row{}, Table{}, false
}
