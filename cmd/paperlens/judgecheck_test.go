package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/paperlens/paperlens/eval/judgecheck"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// lfqaePairs are the first n comparisons of LFQA-E's Chinese subset as the
// stand-in judges know them (the answers as the prompt shows them,
// trimmed).
func lfqaePairs(t *testing.T, file string, n int) []modeltest.Pair {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		ResponseA string `json:"response_a"`
		ResponseB string `json:"response_b"`
		Label     string `json:"label"`
	}
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatal(err)
	}
	pairs := make([]modeltest.Pair, n)
	for i, r := range rows[:n] {
		pairs[i] = modeltest.Pair{First: strings.TrimSpace(r.ResponseA), Second: strings.TrimSpace(r.ResponseB),
			Truth: map[string]string{"response_a": "A", "response_b": "B", "same": "TIE"}[r.Label]}
	}
	return pairs
}

// Offline on all 1,193 comparisons: no judge, no network, the static
// baselines as JSON and as tables.
func TestJudgeCheckStaticCLI(t *testing.T) {
	t.Parallel()
	file := testcorpus.Path(t, "external", "lfqae", "unified_benchmark_zh.json")
	out, errOut, code := paperlens(t, "judge-check", file, "--json")
	var s judgecheck.Summary
	if err := json.Unmarshal([]byte(out), &s); err != nil || code != 0 {
		t.Fatalf("judge-check --json: exit %d, %v\n%s", code, err, errOut)
	}
	want, err := judgecheck.Run(t.Context(), judgecheck.Options{File: file})
	if err != nil {
		t.Fatal(err)
	}
	if s.Comparisons != 1193 || s.Judge != nil || s.Labels[judgecheck.Tie] != 96 ||
		s.Static.Length.Accuracy != want.Static.Length.Accuracy || s.Static.RougeL.MacroF1 != want.Static.RougeL.MacroF1 ||
		len(s.Static.RougeL.ByCompareType) != 2 {
		t.Errorf("judge-check --json: %+v", s)
	}
	for _, field := range []string{`"accuracy"`, `"macro_f1"`, `"tie_accuracy"`, `"by_compare_type"`, `"length"`, `"rouge_l"`} {
		if !strings.Contains(out, field) {
			t.Errorf("--json lacks %s", field)
		}
	}
	out, _, code = paperlens(t, "judge-check", file)
	for _, w := range []string{"1193 comparisons of unified_benchmark_zh.json (labels: A 599, B 498, TIE 96)", "length (longer wins)", "ROUGE-L vs reference", "  model_vs_model"} {
		if code != 0 || !strings.Contains(out, w) {
			t.Errorf("judge-check: exit %d, %q missing from\n%s", code, w, out)
		}
	}
}

// A stand-in judge giving the true label, on a loopback server: every
// figure perfect, its progress on stderr, the judgments in the folder and
// the key in none of its files.
func TestJudgeCheckTrueJudgeCLI(t *testing.T) {
	t.Parallel()
	file := testcorpus.Path(t, "external", "lfqae", "unified_benchmark_zh.json")
	j := modeltest.PairJudge{Mode: modeltest.JudgeTruth, Pairs: lfqaePairs(t, file, 16)}
	srv := modeltest.NewServer(t, modeltest.Config{Answer: j.Answer, Key: "sk-judge-secret"})
	dir := filepath.Join(t.TempDir(), "check")
	env := cli{env: []string{"JC_KEY=sk-judge-secret", "OPENAI_API_KEY=", "OPENAI_BASE_URL="}}
	out, errOut, code := env.run(t, "judge-check", file, "--judge-model", "truth", "--judge-base-url", srv.BaseURL(), "--judge-api-key-env", "JC_KEY",
		"--limit", "16", "--out", dir, "--json", "--concurrency", "2")
	var s judgecheck.Summary
	if err := json.Unmarshal([]byte(out), &s); err != nil || code != 0 {
		t.Fatalf("exit %d, %v\n%s\n%s", code, err, out, errOut)
	}
	if s.Comparisons != 16 || s.Labels[judgecheck.Tie] != 1 || s.Judge == nil || s.Judge.Accuracy != 1 || s.Judge.MacroF1 != 1 || *s.Judge.TieAccuracy != 1 ||
		s.Judge.Consistency.Rate != 1 || s.Judge.Consistency.N != 16 {
		t.Errorf("the true judge: %+v", s.Judge)
	}
	if !strings.Contains(errOut, "32/32") {
		t.Errorf("stderr shows no progress of the 32 judgments:\n%s", errOut)
	}
	recs, err := judgecheck.Folder(dir).Records()
	if err != nil || len(recs) != 32 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	for _, name := range []string{judgecheck.ConfigFile, judgecheck.ResultsFile, judgecheck.SummaryFile} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || strings.Contains(string(b), "sk-judge-secret") {
			t.Errorf("%s: %v, or it holds the key", name, err)
		}
	}
	// Run again, it sends nothing and prints the same figures as text.
	n := srv.Count()
	out, _, code = env.run(t, "judge-check", file, "--judge-model", "truth", "--judge-base-url", srv.BaseURL(), "--judge-api-key-env", "JC_KEY", "--limit", "16", "--out", dir)
	if code != 0 || srv.Count() != n || !strings.Contains(out, "judge truth") || !strings.Contains(out, "position consistency: 100.0% of 16") {
		t.Errorf("again: exit %d, %d calls\n%s", code, srv.Count()-n, out)
	}
}

// A check killed mid-way (SIGKILL) resumes: the rerun asks only for the
// judgments results.jsonl lacks, each ends up there once, and the figures
// are those of a check never killed. The server answers 10 judgments and
// holds the next ones until the kill, however fast the machine.
func TestJudgeCheckKilledResumesCLI(t *testing.T) {
	t.Parallel()
	const answered, workers = 10, 2
	file := testcorpus.Path(t, "external", "lfqae", "unified_benchmark_zh.json")
	j := modeltest.PairJudge{Mode: modeltest.JudgeRandom, Pairs: lfqaePairs(t, file, 20), Seed: 3}
	var held, killed atomic.Int32
	allHeld, release := make(chan struct{}), make(chan struct{})
	srv := modeltest.NewServer(t, modeltest.Config{Answer: func(r modeltest.Request) (string, string) {
		if r.N > 1+answered && killed.Load() == 0 { // call 1 is the preflight
			if held.Add(1) == workers {
				close(allHeld)
			}
			<-release
		}
		return j.Answer(r)
	}})
	releaseOnce := sync.OnceFunc(func() { killed.Store(1); close(release) })
	t.Cleanup(releaseOnce)
	dir := filepath.Join(t.TempDir(), "check")
	args := []string{"judge-check", file, "--judge-model", "random", "--judge-base-url", srv.BaseURL(), "--limit", "20", "--out", dir,
		"--concurrency", strconv.Itoa(workers), "--json"}
	c := paperlensProcess(args...)
	c.Env = append(c.Env, "OPENAI_API_KEY=")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- c.Wait() }()
	t.Cleanup(func() { _ = c.Process.Kill() })
	guard := hangGuard(t)
	results := filepath.Join(dir, judgecheck.ResultsFile)
	select {
	case <-allHeld:
	case err := <-exited:
		t.Fatalf("the check ended before its calls were held: %v", err)
	case <-guard:
		t.Fatalf("%d calls held, want %d", held.Load(), workers)
	}
	for countLines(results) < answered {
		select {
		case err := <-exited:
			t.Fatalf("the check ended with %d judgments: %v", countLines(results), err)
		case <-guard:
			t.Fatalf("%d judgments written of the %d answered", countLines(results), answered)
		case <-time.After(5 * time.Millisecond):
		}
	}
	_ = c.Process.Signal(syscall.SIGKILL)
	<-exited
	releaseOnce()
	if n := countLines(results); n != answered {
		t.Fatalf("%d judgments at the kill, want the %d answered", n, answered)
	}
	before := srv.Count()
	env := cli{env: []string{"OPENAI_API_KEY="}}
	out, errOut, code := env.run(t, args...)
	var resumed, whole judgecheck.Summary
	if err := json.Unmarshal([]byte(out), &resumed); err != nil || code != 0 {
		t.Fatalf("resumed: exit %d, %v\n%s", code, err, errOut)
	}
	if n := countLines(results); n != 40 {
		t.Errorf("results.jsonl has %d lines after the resume; want each of the 40 judgments once", n)
	}
	if sent := srv.Count() - before; sent != 1+40-answered {
		t.Errorf("the resume sent %d calls; want the preflight and the %d judgments missing", sent, 40-answered)
	}
	args[9] = filepath.Join(t.TempDir(), "whole") // --out
	out, _, _ = env.run(t, args...)
	if err := json.Unmarshal([]byte(out), &whole); err != nil || whole.Judge == nil || resumed.Judge == nil ||
		resumed.Judge.Accuracy != whole.Judge.Accuracy || *resumed.Judge.Consistency != *whole.Judge.Consistency {
		t.Errorf("resumed %+v, uninterrupted %+v (%v)", resumed.Judge, whole.Judge, err)
	}
}

// judge-check --lpfqa on an LPFQA run made here with a loopback judge: the
// judge's verdict on each multiple-choice row against the letters read
// from the same reply.
func TestJudgeCheckLPFQACLI(t *testing.T) {
	t.Parallel()
	// Six multiple-choice rows (key C) and a short one. Row i's reply is
	// "Case i. …", and the judge's score is set per case.
	var rows []map[string]string
	for i := range 6 {
		rows = append(rows, map[string]string{"prompt_id": fmt.Sprintf("q%d", i),
			"prompt":             fmt.Sprintf("Question %d: which holds?\nA. one\nB. two\nC. three\nD. four", i),
			"response_reference": "<参考答案>: C\n<评估要点>: The final choice must be option C."})
	}
	rows = append(rows, map[string]string{"prompt_id": "q6", "prompt": "Question 6: how many?", "response_reference": "<参考答案>: three"})
	data := filepath.Join(t.TempDir(), "lpfqa.json")
	b, _ := json.Marshal(rows)
	if err := os.WriteFile(data, b, 0o644); err != nil {
		t.Fatal(err)
	}
	replies := []string{
		"Case 0. The answer is C.", // right; judge 1
		"Case 1. The answer is C.", // right; judge 0
		"Case 2. The answer is A.", // wrong; judge 1
		"Case 3. The answer is B.", // wrong; judge 0
		"Case 4. I cannot tell.",   // no letter; judge 0
		"Case 5. The answer is C.", // right; the judge's reply has no score
		"Case 6. Three.",
	}
	scores := []string{`{"answer_score": 1}`, `{"answer_score": 0}`, `{"answer_score": 1}`, `{"answer_score": 0}`, `{"answer_score": 0}`, "I am unsure.", `{"answer_score": 1}`}
	srv := modeltest.NewServer(t, modeltest.Config{Answer: func(r modeltest.Request) (string, string) {
		p := r.Prompt()
		for i := range replies {
			if r.Model == "judge" && strings.Contains(p, fmt.Sprintf("Case %d.", i)) {
				return scores[i], ""
			}
			if r.Model == "answerer" && strings.Contains(p, fmt.Sprintf("Question %d:", i)) {
				return replies[i], ""
			}
		}
		return "OK", ""
	}})
	run := filepath.Join(t.TempDir(), "run")
	env := cli{env: []string{"OPENAI_API_KEY=", "OPENAI_BASE_URL="}}
	if _, errOut, code := env.run(t, "eval", "--bench", "lpfqa", "--data", data, "--home", t.TempDir(), "--model", "answerer", "--base-url", srv.BaseURL(),
		"--judge-model", "judge", "--runs", "1", "--out", run); code != 0 {
		t.Fatalf("eval: exit %d\n%s", code, errOut)
	}
	out, errOut, code := paperlens(t, "judge-check", "--lpfqa", run, "--json")
	var a judgecheck.LPFQAAgreement
	if err := json.Unmarshal([]byte(out), &a); err != nil || code != 0 {
		t.Fatalf("judge-check --lpfqa: exit %d, %v\n%s", code, err, errOut)
	}
	// Judge right/wrong against extraction right/wrong over cases 0–4.
	judge := []bool{true, false, true, false, false}
	extraction := []bool{true, true, false, false, false}
	var want [2][2]int
	agree := 0
	for i := range judge {
		want[b2i(!judge[i])][b2i(!extraction[i])]++
		if judge[i] == extraction[i] {
			agree++
		}
	}
	// κ by hand: po = 3/5; judge says right 2/5, extraction 2/5.
	po, pe := 3.0/5, 2.0/5*2.0/5+3.0/5*3.0/5
	kappa := (po - pe) / (1 - pe)
	if a.N != 5 || a.Agree != agree || a.Confusion != want || a.Kappa == nil || math.Abs(*a.Kappa-kappa) > 1e-9 ||
		a.ExtractionMisses != 1 || a.JudgeUnreadable != 1 || a.Errors != 0 || a.JudgeModel != "judge" {
		t.Errorf("--lpfqa: %+v\nwant n 5, %d agreeing, confusion %v, κ %v, 1 miss, 1 unreadable", a, agree, want, kappa)
	}
	out, _, code = paperlens(t, "judge-check", "--lpfqa", run)
	if code != 0 || !strings.Contains(out, "verdicts equal 60.0% (3 of 5)") || !strings.Contains(out, "judge right") {
		t.Errorf("judge-check --lpfqa as text: exit %d\n%s", code, out)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Mistakes are exit 2 with a message that names the file and row, or says
// what to give instead.
func TestJudgeCheckErrorsCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(`{"question":"q","reference":"r","response_a":"a","response_b":"b","label":"same"}`+"\n"+
		`{"question":"q","reference":"r","response_a":"a","response_b":"b","label":"better"}`+"\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"judge-check", bad}, "bad.jsonl:2: label \"better\""},
		{[]string{"judge-check"}, "give the file of comparisons"},
		{[]string{"judge-check", bad, "--vs", dir}, "--vs compares two judges"},
		{[]string{"judge-check", "--lpfqa", dir}, "not a run folder"},
		{[]string{"judge-check", "--lpfqa", dir, bad}, "give no FILE"},
		{[]string{"judge-check", bad, "--judge-model", "j", "--judge-header", "nocolon"}, "--judge-header"},
		{[]string{"judge-check", bad, "--concurrency", "0"}, "--concurrency 0"},
	} {
		_, errOut, code := cli{env: []string{"OPENAI_API_KEY="}}.run(t, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 saying %q", tc.args[1:], code, errOut, tc.want)
		}
	}
}
