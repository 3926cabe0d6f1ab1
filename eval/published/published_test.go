package published_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/published"
)

// The papers' text, as extracted into the shared seeds: the transcription
// is checked against it cell by cell, so a typo in data/ fails here.
var (
	elaipSeed = filepath.Join("..", "..", "..", "shared", "seeds", "004_99b4ff95984d8335.txt")
	lpfqaSeed = filepath.Join("..", "..", "..", "shared", "seeds", "000_a3bff110adc3f7e8.txt")
)

func readSeed(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		t.Skipf("%s is not here: the transcription cannot be checked against the paper", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(b), "\n")
}

func table(t *testing.T, name string) published.Table {
	t.Helper()
	for _, tb := range published.Tables() {
		if tb.Name == name {
			return tb
		}
	}
	t.Fatalf("no table %q", name)
	return published.Table{}
}

func row(t *testing.T, tb published.Table, model, paradigm string) published.Row {
	t.Helper()
	for _, r := range tb.Rows {
		if r.Model == model && r.Paradigm == paradigm {
			return r
		}
	}
	t.Fatalf("%s has no row %q (%q)", tb.Name, model, paradigm)
	return published.Row{}
}

// checkRow compares a row's values with the cells printed in the paper,
// column by column; a cell that is not a number must be absent.
func checkRow(t *testing.T, tb published.Table, r published.Row, cells []string) {
	t.Helper()
	if len(cells) != len(tb.Columns) {
		t.Fatalf("%s %s: the paper prints %d cells, the table has %d columns", tb.Name, r.Model, len(cells), len(tb.Columns))
	}
	for i, c := range tb.Columns {
		want, err := strconv.ParseFloat(cells[i], 64)
		got, ok := r.Values[c]
		switch {
		case err != nil && ok:
			t.Errorf("%s %s (%s) %s: the paper prints %q, the data says %v", tb.Name, r.Model, r.Paradigm, c, cells[i], got)
		case err == nil && (!ok || got != want):
			t.Errorf("%s %s (%s) %s: the paper prints %v, the data says %v (present %v)", tb.Name, r.Model, r.Paradigm, c, want, got, ok)
		}
	}
}

func TestElaipBenchTable2AgainstThePaper(t *testing.T) {
	lines := readSeed(t, elaipSeed)
	tb := table(t, "ElaipBench Table 2")
	groups := map[string]string{"Base Models": "base", "CoTs": "cot", "LRMs": "reasoning"}
	paradigm, seen := "", 0
	for _, l := range lines {
		if !strings.HasPrefix(l, "| ") {
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch {
		case groups[cells[0]] != "":
			paradigm, cells = groups[cells[0]], cells[1:]
		case cells[0] == "Human":
			paradigm, cells = "", append([]string{"Human"}, cells[2:]...)
		case paradigm == "":
			continue // the statistics table before Table 2
		default:
			// Rows after the first of a group end with an empty cell
			// where the group's column was.
			if cells[len(cells)-1] == "" {
				cells = cells[:len(cells)-1]
			}
		}
		if cells[0] == "SA-MCQ" {
			continue
		}
		model := strings.TrimSuffix(cells[0], " + CoT")
		checkRow(t, tb, row(t, tb, model, paradigm), cells[1:])
		seen++
		if model == "Human" {
			break
		}
	}
	if seen != len(tb.Rows) || seen != 22 {
		t.Errorf("checked %d rows against the paper; the table has %d (want 22: 7 base, 7 CoT, 7 LRM, human)", seen, len(tb.Rows))
	}
	// Spot checks by hand, in case both readings of the text went wrong
	// the same way.
	for _, c := range []struct {
		model, paradigm, col string
		want                 float64
	}{
		{"DeepSeek-V3", "base", "Total", 39.95},
		{"GPT-5", "base", "SA-MCQ", 31.82},
		{"Claude-3.7-Sonnet-thinking", "reasoning", "Total", 38.46},
		{"GPT-5-thinking-all", "reasoning", "SA-MCQ", 46.59},
		{"Qwen3-8B", "cot", "Total", 35.98},
		{"Human", "", "NLP", 52.20},
	} {
		if got := row(t, tb, c.model, c.paradigm).Values[c.col]; got != c.want {
			t.Errorf("%s (%s) %s = %v, want %v", c.model, c.paradigm, c.col, got, c.want)
		}
	}
	if h := row(t, tb, "Human", ""); !h.Reference || h.Note == "" {
		t.Errorf("Human row: reference %v, note %q", h.Reference, h.Note)
	}
}

var bold = regexp.MustCompile(`</?b>`)

// tabRows returns the tab-separated rows after the line starting with
// head, up to the first blank line.
func tabRows(t *testing.T, lines []string, head string, skip int) [][]string {
	t.Helper()
	for i, l := range lines {
		if !strings.HasPrefix(l, head) {
			continue
		}
		var out [][]string
		for _, l := range lines[i+1+skip:] {
			if strings.TrimSpace(l) == "" {
				return out
			}
			out = append(out, strings.Split(bold.ReplaceAllString(l, ""), "\t"))
		}
		return out
	}
	t.Fatalf("no line starting %q", head)
	return nil
}

func TestLPFQATablesAgainstThePaper(t *testing.T) {
	lines := readSeed(t, lpfqaSeed)
	t2 := table(t, "LPFQA Table 2")
	rows := tabRows(t, lines, "Model\tLife Sci", 0)
	if len(rows) != 12 || len(t2.Rows) != 12 {
		t.Fatalf("Table 2: the paper has %d rows, the data %d (want 12)", len(rows), len(t2.Rows))
	}
	for _, cells := range rows {
		checkRow(t, t2, row(t, t2, cells[0], ""), cells[1:])
	}

	t4 := table(t, "LPFQA Table 4")
	rows = tabRows(t, lines, `Models \ Tools`, 1) // a second header line: Score, Score, Δ, …
	if len(rows) != 6 || len(t4.Rows) != 6 {
		t.Fatalf("Table 4: the paper has %d rows, the data %d (want 6)", len(rows), len(t4.Rows))
	}
	for _, cells := range rows {
		// Δ is printed "18.20%↓": a fall, stored as -18.20.
		for _, i := range []int{3, 5} {
			cells[i] = "-" + strings.TrimSuffix(cells[i], "%↓")
		}
		checkRow(t, t4, row(t, t4, cells[0], ""), cells[1:])
	}
	for _, c := range []struct {
		tb         published.Table
		model, col string
		want       float64
	}{
		{t2, "GPT-5-High", "Overall", 54.42},
		{t2, "Seed-1.6-Thinking", "Applied Tech", 57.89},
		{t2, "All Models Avg", "CS", 41.26},
		{t4, "GLM-4.6", "Search", 37.30},
		{t4, "Deepseek-V3.2-Thinking", "Jupyter CI Δ", -32.95},
	} {
		if got := row(t, c.tb, c.model, "").Values[c.col]; got != c.want {
			t.Errorf("%s %s %s = %v, want %v", c.tb.Name, c.model, c.col, got, c.want)
		}
	}
}

func TestTablesMetadata(t *testing.T) {
	for _, tb := range published.Tables() {
		if tb.Paper == "" || tb.Section == "" || tb.Bench == "" || len(tb.Modes) == 0 {
			t.Errorf("%s: incomplete metadata %+v", tb.Name, tb)
		}
		for _, r := range tb.Rows {
			for c := range tb.Modes {
				if _, ok := r.Values[c]; !ok && r.Note == "" {
					t.Errorf("%s %s: no %s and no note saying why", tb.Name, r.Model, c)
				}
			}
		}
	}
	// Tables hands out copies.
	a := published.Tables()
	a[0].Rows[0].Values["Total"] = -1
	if published.Tables()[0].Rows[0].Values["Total"] == -1 {
		t.Error("changing Tables' result changed the package's data")
	}
}

func TestNameMatching(t *testing.T) {
	for _, c := range []struct {
		bench, model, paradigm, mode string
		want                         string // the row's model, "" for no match
		wantParadigm                 string
	}{
		{"elaipbench", "gpt-4o-0806", "base", "full", "GPT-4o-0806", "base"},
		{"elaipbench", "openai/gpt-4o-2024-08-06", "base", "full", "GPT-4o-0806", "base"},
		{"elaipbench", "deepseek-v3", "", "full", "DeepSeek-V3", "base"},
		{"elaipbench", "deepseek-ai/DeepSeek-V3", "cot", "full", "DeepSeek-V3", "cot"},
		{"elaipbench", "GPT-5", "base", "full", "GPT-5", "base"},
		{"elaipbench", "gpt-5", "reasoning", "full", "", ""}, // GPT-5-thinking-all is another name
		{"elaipbench", "gpt-5-thinking-all", "reasoning", "full", "GPT-5-thinking-all", "reasoning"},
		{"elaipbench", "gpt-5-thinking-all", "base", "full", "", ""},
		{"elaipbench", "Qwen/Qwen3-8B", "base", "full", "Qwen3-8B", "base"},
		{"elaipbench", "qwen3-8b-awq", "base", "full", "", ""},
		{"elaipbench", "meta-llama/Llama-3.3-70B-Instruct", "base", "full", "Llama3.3-70B-Instruct", "base"},
		{"elaipbench", "o1-mini", "reasoning", "full", "GPT-o1-mini", "reasoning"},
		{"elaipbench", "Human", "", "full", "", ""}, // a reference row, not a model
		{"elaipbench", "GPT-5", "base", "closed-book", "", ""},
		{"elaipbench", "", "base", "full", "", ""},
		{"lpfqa", "GPT-5-High", "reasoning", "closed-book", "GPT-5-High", ""},
		{"lpfqa", "gpt-5-high", "", "tool-search", "GPT-5-High", ""},
		{"lpfqa", "deepseek-v3.2-thinking", "", "tool-python", "Deepseek-V3.2-Thinking", ""},
		{"lpfqa", "gemini-3.0-pro", "", "closed-book", "Gemini-3-Pro", ""},
		{"lpfqa", "GPT-4.1", "", "tool-search", "", ""}, // in Table 2, not in Table 4
		{"lpfqa", "All Models Avg", "", "closed-book", "", ""},
		{"lpfqa", "DeepSeek-V3", "", "closed-book", "", ""},
	} {
		r, tb, ok := published.Lookup(c.bench, c.model, c.paradigm, c.mode)
		if ok != (c.want != "") || r.Model != c.want || r.Paradigm != c.wantParadigm {
			t.Errorf("Lookup(%q, %q, %q, %q) = %q (%q) in %q, %v; want %q (%q)", c.bench, c.model, c.paradigm, c.mode, r.Model, r.Paradigm, tb.Name, ok, c.want, c.wantParadigm)
		}
	}
	// GPT-5-High is in both LPFQA tables.
	if ms := published.Find("lpfqa", "openai/gpt-5-high", "reasoning"); len(ms) != 2 || ms[0].Table.Name != "LPFQA Table 2" || ms[1].Table.Name != "LPFQA Table 4" {
		t.Errorf("Find(lpfqa, gpt-5-high) = %d matches", len(ms))
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"GPT-4o-0806":             "gpt4o0806",
		"openai/GPT 4o_0806":      "gpt4o0806",
		"deepseek-ai/DeepSeek-V3": "deepseekv3",
		"Llama3.3-70B-Instruct":   "llama3370binstruct",
		"":                        "",
	} {
		if got := published.Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}
