package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/report"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// sampleGold reads the ElaipBench sample's gold answers, keyed by what a
// prompt shows of the question: the stem's first line and option A.
func sampleGold(t *testing.T, path string) (map[string]string, []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gold := map[string]string{}
	var order []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var q struct{ Question, Answer string }
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatal(err)
		}
		k := questionKey(q.Question)
		if g, dup := gold[k]; (dup && g != q.Answer) || k == "" {
			t.Fatalf("question key %q is ambiguous", k)
		}
		// The sample repeats one question (line 38 is line 19), which
		// eval counts once.
		gold[k] = q.Answer
		order = append(order, k)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return gold, order
}

// questionKey is the first line of text (a question, or a prompt from
// "Question: " on) and its "A. " line.
func questionKey(text string) string {
	lines := strings.Split(text, "\n")
	var a string
	for _, l := range lines {
		if strings.HasPrefix(l, "A. ") {
			a = l
			break
		}
	}
	return strings.TrimSpace(lines[0]) + "\n" + strings.TrimSpace(a)
}

// knowingServer answers a question right when right says so for its
// position in the sample, and wrong otherwise: the run's accuracy is then
// known before it is measured.
func knowingServer(t *testing.T, sample string, right func(i int) bool) *modeltest.Server {
	gold, order := sampleGold(t, sample)
	index := map[string]int{}
	for i, k := range order {
		if _, seen := index[k]; !seen {
			index[k] = i
		}
	}
	return modeltest.NewServer(t, modeltest.Config{Answer: func(r modeltest.Request) (string, string) {
		p := r.Prompt()
		i := strings.LastIndex(p, "Question: ")
		if i < 0 {
			return "I cannot tell.", ""
		}
		k := questionKey(p[i+len("Question: "):])
		g, ok := gold[k]
		switch {
		case !ok:
			return "I cannot tell.", ""
		case right(index[k]):
			return g, ""
		case g == "A":
			return "B", ""
		}
		return "A", "" // wrong for every other gold, single or multiple
	}})
}

// A run named as a Table 2 row is set beside it, a run under another name
// is not (and says so), and --published-as maps it onto the row. Runs go
// through the real pipeline against a loopback model that answers 13 of
// the sample's 37 distinct questions right (every third: 35.1%, whose
// Wilson interval covers Qwen3-8B's published 35.48) or all of them
// (100%, far above GPT-5's 38.71).
func TestReportPaperTable(t *testing.T) {
	t.Parallel()
	sample := filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")
	third := knowingServer(t, sample, func(i int) bool { return i%3 == 0 })
	all := knowingServer(t, sample, func(int) bool { return true })
	home := t.TempDir()
	eval := func(srv *modeltest.Server, model, name string) string {
		out := filepath.Join(t.TempDir(), name)
		if _, errOut, code := paperlens(t, "eval", "--bench", "elaipbench", "--data", sample, "--model", model, "--base-url", srv.BaseURL(),
			"--paradigm", "base", "--mode", "full", "--runs", "1", "--concurrency", "4", "--home", home, "--out", out); code != 0 {
			t.Fatalf("eval %s: exit %d\n%s", model, code, errOut)
		}
		return out
	}
	qwen := eval(third, "Qwen/Qwen3-8B", "qwen3-8b-base")
	gpt := eval(all, "openai/gpt-5", "gpt-5-base")
	awq := eval(third, "qwen3-8b-awq", "awq-base")
	var s struct {
		ByMode map[string]struct {
			Accuracy float64 `json:"accuracy"`
			N        int     `json:"n"`
		} `json:"by_mode"`
	}
	b, err := os.ReadFile(filepath.Join(qwen, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if full := s.ByMode["full"]; full.N != 37 || full.Accuracy*37 < 12.99 || full.Accuracy*37 > 13.01 {
		t.Fatalf("the loopback model should score 13/37 in full mode: %+v", full)
	}

	out, errOut, code := paperlens(t, "report", "--paper-table", qwen, gpt, awq)
	if code != 0 {
		t.Fatalf("report --paper-table: exit %d\n%s", code, errOut)
	}
	for _, want := range []string{
		"# Published numbers",
		"## Qwen/Qwen3-8B (qwen3-8b-base) against ElaipBench Table 2, Qwen3-8B (base)",
		"ElaipBench: A Benchmark for Expert-Level Artificial Intelligence Paper Understanding, §4.2, Table 2.",
		"The run answered 37 questions, the paper 403",
		"| Total | full | 35.48 | 35.1 [21.8, 51.2] | 37 | covers |",
		"## openai/gpt-5 (gpt-5-base) against ElaipBench Table 2, GPT-5 (base)",
		"| Total | full | 38.71 | 100.0 [90.6, 100.0] | 37 | does not cover (measured above) |",
		"| SA-MCQ | full | 31.82 | 100.0 [",
		"## qwen3-8b-awq (awq-base)\n\nNo published row for \"qwen3-8b-awq\" (paradigm base) on elaipbench; --published-as NAME compares it with a row of another name.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report --paper-table lacks %q:\n%s", want, out)
		}
	}

	// --published-as maps the quantised model onto its paper name; as
	// MODEL=NAME it leaves other runs alone.
	out, errOut, code = paperlens(t, "report", "--paper-table", "--published-as", "qwen3-8b-awq=Qwen3-8B", awq, gpt)
	if code != 0 {
		t.Fatalf("report --published-as: exit %d\n%s", code, errOut)
	}
	for _, want := range []string{
		"## qwen3-8b-awq as Qwen3-8B (awq-base) against ElaipBench Table 2, Qwen3-8B (base)",
		"| Total | full | 35.48 | 35.1 [21.8, 51.2] | 37 | covers |",
		"## openai/gpt-5 (gpt-5-base) against ElaipBench Table 2, GPT-5 (base)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report --published-as lacks %q:\n%s", want, out)
		}
	}

	// --json: the same comparison, for scripts.
	out, errOut, code = paperlens(t, "report", "--paper-table", "--json", "--published-as", "Qwen3-8B", awq)
	if code != 0 {
		t.Fatalf("report --json: exit %d\n%s", code, errOut)
	}
	var cmp []report.PaperComparison
	if err := json.Unmarshal([]byte(out), &cmp); err != nil {
		t.Fatalf("--json printed %v:\n%s", err, out)
	}
	if len(cmp) != 1 || cmp[0].Row != "Qwen3-8B" || cmp[0].As != "Qwen3-8B" || len(cmp[0].Cells) == 0 || cmp[0].Cells[0].Column != "Total" || !cmp[0].Cells[0].Covers || cmp[0].Cells[0].Published != 35.48 {
		t.Errorf("--json: %+v", cmp)
	}

	// With --html the report gains the section, escaped and script-free.
	html := filepath.Join(t.TempDir(), "report.html")
	if _, errOut, code := paperlens(t, "report", "--paper-table", "--html", html, qwen, awq); code != 0 {
		t.Fatalf("report --html: exit %d\n%s", code, errOut)
	}
	h, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<h2>Published numbers</h2>", "Qwen/Qwen3-8B (qwen3-8b-base) against ElaipBench Table 2, Qwen3-8B (base)",
		`<td>35.48</td><td>35.1 [21.8, 51.2]</td><td>37</td><td class="l cov">covers</td>`, "No published row for &#34;qwen3-8b-awq&#34;"} {
		if !strings.Contains(string(h), want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if strings.Contains(string(h), "<script") {
		t.Error("HTML carries a script")
	}

	// Misplaced flags fail before any folder is read.
	for _, args := range [][]string{{"report", "--published-as", "Qwen3-8B", qwen}, {"report", "--json", qwen}, {"report", "--paper-table", "--json", "--html", html, qwen}} {
		if _, errOut, code := paperlens(t, args...); code == 0 || !strings.Contains(errOut, "--") {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
}
