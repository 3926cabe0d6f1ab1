package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeSummary writes a run folder holding only summary.json, in the shape
// eval writes it (by_mode.<mode>.accuracy, n, by_type, by_breakdown).
func writeSummary(t *testing.T, name, summary string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "summary.json"), []byte(summary), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// An ElaipBench base run on all 403 questions: 40.0% overall (the paper's
// DeepSeek-V3 has 39.95), 60% on SA-MCQ (the paper: 32.95, well outside),
// and difficulty and discipline breakdowns.
const elaipSummary = `{"model": %q, "bench": "elaipbench", "paradigm": "base", "runs": 1, "questions": 403,
 "modes": ["closed-book", "full"], "baseline": "full", "types": ["MA-MCQ", "SA-MCQ"],
 "by_mode": {
  "closed-book": {"accuracy": 0.2, "std": 0, "n": 403},
  "full": {"accuracy": 0.4, "std": 0, "n": 403,
   "by_type": {"SA-MCQ": {"accuracy": 0.6, "n": 88}, "MA-MCQ": {"accuracy": 0.42, "n": 315}},
   "by_breakdown": {"difficulty": {"easy": {"accuracy": 0.8588, "n": 85}, "hard": {"accuracy": 0.2, "n": 209}},
                    "discipline": {"NLP": {"accuracy": 0.45, "n": 220}}}}}}`

func elaipRun(t *testing.T, dir, model string) string {
	return writeSummary(t, dir, strings.Replace(elaipSummary, "%q", `"`+model+`"`, 1))
}

func cell(t *testing.T, c PaperComparison, col string) PaperCell {
	t.Helper()
	for _, x := range c.Cells {
		if x.Column == col {
			return x
		}
	}
	t.Fatalf("%s against %s: no %s cell in %+v", c.Run, c.Table, col, c.Cells)
	return PaperCell{}
}

func TestComparePublishedElaipBench(t *testing.T) {
	runs, err := Load(elaipRun(t, "v3", "deepseek-ai/DeepSeek-V3"))
	if err != nil {
		t.Fatal(err)
	}
	cmp := ComparePublished(runs, PaperOptions{})
	if len(cmp) != 1 || cmp[0].Table != "ElaipBench Table 2" || cmp[0].Row != "DeepSeek-V3" || cmp[0].RowParad != "base" || cmp[0].Section != "§4.2, Table 2" {
		t.Fatalf("comparisons: %+v", cmp)
	}
	c := cmp[0]
	for _, want := range []struct {
		col       string
		published float64
		covers    bool
		verdict   string
	}{
		{"Total", 39.95, true, "covers"},
		{"SA-MCQ", 32.95, false, "does not cover (measured above)"},
		{"MA-MCQ", 41.90, true, "covers"},
		{"Easy", 85.88, true, "covers"},
		{"Hard", 0.96, false, "does not cover (measured above)"},
		{"NLP", 44.88, true, "covers"},
	} {
		got := cell(t, c, want.col)
		if got.Published != want.published || got.Covers != want.covers || got.Verdict() != want.verdict || got.Mode != "full" {
			t.Errorf("%s: %+v (%s); want published %v, %s", want.col, got, got.Verdict(), want.published, want.verdict)
		}
		if got.Lo > got.Measured || got.Measured > got.Hi || (got.Covers != (got.Lo <= got.Published && got.Published <= got.Hi)) {
			t.Errorf("%s: interval [%v, %v] around %v, published %v, covers %v", want.col, got.Lo, got.Hi, got.Measured, got.Published, got.Covers)
		}
	}
	// Measured 40.0% of 403: the 95% Wilson interval is about ±4.7 points.
	if tot := cell(t, c, "Total"); tot.N != 403 || tot.Measured != 40 || tot.Lo < 35 || tot.Lo > 36 || tot.Hi < 44.5 || tot.Hi > 45.5 {
		t.Errorf("Total: %+v", tot)
	}
	// The run has no moderate, ML or CV breakdown: those columns are left out.
	for _, x := range c.Cells {
		if x.Column == "Moderate" || x.Column == "ML" || x.Column == "CV" {
			t.Errorf("a column the run did not measure: %+v", x)
		}
	}
	var b bytes.Buffer
	if err := PaperMarkdown(&b, cmp); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# Published numbers",
		"## deepseek-ai/DeepSeek-V3 (v3) against ElaipBench Table 2, DeepSeek-V3 (base)",
		"| Total | full | 39.95 | 40.0 [35.3, 44.9] | 403 | covers |",
		"| SA-MCQ | full | 32.95 | 60.0 [49.6, 69.6] | 88 | does not cover (measured above) |",
		"95% Wilson interval",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "a different sample") {
		t.Errorf("all 403 questions, yet a sample note:\n%s", b.String())
	}
}

func TestComparePublishedParadigmAndNames(t *testing.T) {
	cot := writeSummary(t, "gpt5-cot", `{"model": "openai/gpt-5", "bench": "elaipbench", "paradigm": "cot", "runs": 3, "questions": 38,
	 "modes": ["full"], "by_mode": {"full": {"accuracy": 0.35, "std": 0.02, "n": 38, "runs": [0.33, 0.35, 0.37]}}}`)
	reasoning := writeSummary(t, "gpt5-reasoning", `{"model": "gpt-5", "bench": "elaipbench", "paradigm": "reasoning", "runs": 1, "questions": 38,
	 "modes": ["full"], "by_mode": {"full": {"accuracy": 0.35, "n": 38}}}`)
	awq := elaipRun(t, "awq", "qwen3-8b-awq")
	other := elaipRun(t, "other", "my-model")
	runs, err := Load(cot, reasoning, awq, other)
	if err != nil {
		t.Fatal(err)
	}
	as, err := ParsePublishedAs([]string{"qwen3-8b-awq=Qwen3-8B"})
	if err != nil {
		t.Fatal(err)
	}
	cmp := ComparePublished(runs, PaperOptions{As: as})
	if len(cmp) != 4 {
		t.Fatalf("%d comparisons: %+v", len(cmp), cmp)
	}
	// The cot run is compared with GPT-5 + CoT (35.24), not GPT-5 base.
	if c := cmp[0]; c.Row != "GPT-5" || c.RowParad != "cot" || cell(t, c, "Total").Published != 35.24 || !cell(t, c, "Total").Covers {
		t.Errorf("cot run: %+v", c)
	}
	if !strings.Contains(cmp[0].sampleNote(), "38 questions, the paper 403") {
		t.Errorf("sample note: %q", cmp[0].sampleNote())
	}
	// gpt-5 with --paradigm reasoning is not GPT-5-thinking-all.
	if c := cmp[1]; c.Table != "" || !strings.Contains(c.Note, `no published row for "gpt-5" (paradigm reasoning) on elaipbench`) {
		t.Errorf("reasoning run: %+v", c)
	}
	if c := cmp[2]; c.Row != "Qwen3-8B" || c.As != "Qwen3-8B" || c.runLabel() != "qwen3-8b-awq as Qwen3-8B" || cell(t, c, "Total").Published != 35.48 {
		t.Errorf("--published-as run: %+v", c)
	}
	if c := cmp[3]; c.Table != "" || !strings.Contains(c.Note, "--published-as NAME") {
		t.Errorf("unmatched run: %+v", c)
	}
	var b bytes.Buffer
	if err := PaperMarkdown(&b, cmp); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## qwen3-8b-awq as Qwen3-8B (awq) against ElaipBench Table 2, Qwen3-8B (base)",
		"## my-model (other)\n\nNo published row for \"my-model\" (paradigm base) on elaipbench; --published-as NAME compares it with a row of another name.",
		"The run answered 38 questions, the paper 403"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, b.String())
		}
	}
}

func TestComparePublishedLPFQA(t *testing.T) {
	dir := writeSummary(t, "g5", `{"model": "GPT-5-High", "bench": "lpfqa", "paradigm": "reasoning", "runs": 1, "questions": 430,
	 "modes": ["closed-book", "tool-search"], "by_mode": {
	  "closed-book": {"accuracy": 0.5442, "n": 430, "by_breakdown": {"domain": {"Mathematics": {"accuracy": 0.64, "n": 61}, "CS": {"accuracy": 0.1, "n": 58}}}},
	  "tool-search": {"accuracy": 0.60, "n": 430}}}`)
	runs, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	cmp := ComparePublished(runs, PaperOptions{})
	if len(cmp) != 2 || cmp[0].Table != "LPFQA Table 2" || cmp[1].Table != "LPFQA Table 4" {
		t.Fatalf("comparisons: %+v", cmp)
	}
	if o := cell(t, cmp[0], "Overall"); o.Published != 54.42 || !o.Covers || o.Mode != "closed-book" {
		t.Errorf("Overall: %+v", o)
	}
	if m := cell(t, cmp[0], "Maths"); m.Published != 63.93 || m.N != 61 || !m.Covers {
		t.Errorf("Maths from the domain Mathematics: %+v", m)
	}
	if c := cell(t, cmp[0], "CS"); c.Covers || c.Verdict() != "does not cover (measured below)" {
		t.Errorf("CS: %+v", c)
	}
	if len(cmp[0].Cells) != 3 {
		t.Errorf("Table 2 cells: %+v", cmp[0].Cells)
	}
	// Table 4: no tools and search measured, tool-python not run; Δ
	// columns are not accuracies.
	t4 := cmp[1]
	if len(t4.Cells) != 2 || cell(t, t4, "No tools").Published != 54.42 || cell(t, t4, "Search").Mode != "tool-search" || cell(t, t4, "Search").Published != 44.30 || cell(t, t4, "Search").Covers {
		t.Errorf("Table 4: %+v", t4)
	}
	if !strings.Contains(t4.Note, "no tool-python mode") {
		t.Errorf("Table 4 note: %q", t4.Note)
	}
}

// The HTML report gains the section only when asked, with every string
// from the files escaped.
func TestPublishedHTML(t *testing.T) {
	runs, err := Load(elaipRun(t, "evil", evil), elaipRun(t, "v3", "DeepSeek-V3"))
	if err != nil {
		t.Fatal(err)
	}
	var plain, with, md bytes.Buffer
	if err := HTML(&plain, runs); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), hPublished) {
		t.Error("the plain report has the published section")
	}
	opt := WriteOptions{Published: &PaperOptions{As: map[string]string{"": "GPT-4o-0806"}}}
	if err := HTMLWith(&with, runs, opt); err != nil {
		t.Fatal(err)
	}
	h := with.String()
	for _, want := range []string{"<h2>Published numbers</h2>", "against ElaipBench Table 2, GPT-4o-0806 (base)", "<td>37.47</td><td>40.0 [35.3, 44.9]</td><td>403</td><td class=\"l cov\">covers</td>",
		"&lt;script&gt;alert(1)&lt;/script&gt; as GPT-4o-0806"} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if strings.Contains(h, "<script") {
		t.Error("HTML carries a script")
	}
	if err := MarkdownWith(&md, runs, opt); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "\n## Published numbers\n") || !strings.Contains(md.String(), "### DeepSeek-V3 as GPT-4o-0806 (v3) against ElaipBench Table 2") {
		t.Errorf("Markdown section:\n%s", md.String())
	}
}

func TestParsePublishedAs(t *testing.T) {
	as, err := ParsePublishedAs([]string{"Qwen3-8B", "local/qwen3-14b-awq=Qwen3-14B"})
	if err != nil || as[""] != "Qwen3-8B" || as["qwen314bawq"] != "Qwen3-14B" {
		t.Errorf("ParsePublishedAs = %v, %v", as, err)
	}
	for _, bad := range [][]string{{""}, {"=Qwen3-8B"}, {"a="}, {"a=X", "A=Y"}} {
		if _, err := ParsePublishedAs(bad); err == nil {
			t.Errorf("ParsePublishedAs(%q) accepted", bad)
		}
	}
}

// A run stopped early is compared on what it has, and says so.
func TestComparePublishedIncomplete(t *testing.T) {
	dir := elaipRun(t, "stopped", "DeepSeek-V3")
	recs := `{"question_id": "q1", "mode": "full", "run": 1, "correct": true, "question_type": "SA-MCQ"}
{"question_id": "q2", "mode": "full", "run": 1, "correct": false, "question_type": "MA-MCQ"}
`
	if err := os.WriteFile(filepath.Join(dir, "results.jsonl"), []byte(recs), 0o644); err != nil {
		t.Fatal(err)
	}
	runs, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	cmp := ComparePublished(runs, PaperOptions{})
	if len(cmp) != 1 || cmp[0].Row != "DeepSeek-V3" || !strings.HasPrefix(cmp[0].Note, "the run is incomplete (2 of 806 records") {
		t.Fatalf("comparisons: %+v", cmp)
	}
	var b bytes.Buffer
	if err := PaperMarkdown(&b, cmp); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\nThe run is incomplete (2 of 806 records") {
		t.Errorf("Markdown:\n%s", b.String())
	}
}
