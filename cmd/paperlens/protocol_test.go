package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/eval/protocol"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// longPaperData writes an ElaipBench file of the sample's first n
// questions whose paper is about want tokens long: the sample paper (which
// holds the gold evidence) followed by the seed papers in ../shared.
func longPaperData(t *testing.T, n, want int) (path string, paperTokens int) {
	t.Helper()
	var extra strings.Builder
	for _, f := range []string{"004_99b4ff95984d8335.txt", "002_30a2cd83ba58627d.txt"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "seeds", f))
		if err != nil {
			t.Skipf("the shared seed papers are not beside the repo: %v", err)
		}
		extra.Write(b)
		extra.WriteString("\n\n")
	}
	lines, err := os.ReadFile(filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for i, line := range strings.Split(strings.TrimSpace(string(lines)), "\n")[:n] {
		var row map[string]any
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatal(err)
		}
		// One long paper for all, under a name of its own.
		paper := row["paper_content"].(string)
		if i == 0 {
			// Paragraphs are added until the paper reaches want tokens.
			// Counting the whole paper again after each (of hundreds)
			// cost seconds of CPU: a paragraph's count is added instead,
			// close to what it adds to the paper (a merge across the
			// newline may differ by a token), and the result is counted
			// whole, adding more should it fall short.
			var body strings.Builder
			body.WriteString(paper)
			n := tokens.Count(paper)
			paras := strings.Split(extra.String(), "\n")
			for n < want && len(paras) > 0 {
				for n < want && len(paras) > 0 {
					n += tokens.Count("\n" + paras[0])
					body.WriteString("\n" + paras[0])
					paras = paras[1:]
				}
				n = tokens.Count(body.String())
			}
			paperTokens = n
			row["paper_content"] = body.String()
		} else {
			delete(row, "paper_content")
		}
		row["paper_id"] = "long-paper"
		b, _ := json.Marshal(row)
		out.Write(b)
		out.WriteString("\n")
	}
	// Every question is about the sample's first paper: keep those.
	path = filepath.Join(t.TempDir(), "long.jsonl")
	if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, paperTokens
}

// evidenceReader answers a question right exactly when its gold evidence is
// in the prompt, and "A" otherwise: an honest model that reads.
func evidenceReader(t *testing.T, data string) func(modeltest.Request) (string, string) {
	t.Helper()
	b, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	type q struct{ stem, evidence, answer string }
	var qs []q
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var row struct {
			Question, Answer string
			Relevant         string `json:"relevant_passage"`
		}
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatal(err)
		}
		stem, _, _ := strings.Cut(row.Question, "\n")
		ev := strings.TrimSpace(row.Relevant)
		if len(ev) > 80 {
			ev = ev[:80]
		}
		qs = append(qs, q{stem, ev, row.Answer})
	}
	return func(r modeltest.Request) (string, string) {
		p := r.Prompt()
		for _, x := range qs {
			if strings.Contains(p, x.stem) {
				if x.evidence != "" && strings.Contains(p, x.evidence) {
					return "The answer is " + x.answer + ".", "I read the paper."
				}
				return "The answer is A.", "I did not find it."
			}
		}
		return "OK", ""
	}
}

// Under --paradigm reasoning, mode full on a 30,000-token paper sends the
// whole paper, at the paper's temperature 0.1 and 4,096 answer tokens
// (ElaipBench A.5, A.7.2): the budget counts paper and passages only.
func TestProtocolReasoningReadsWholePaper(t *testing.T) {
	t.Parallel()
	data, paperTokens := longPaperData(t, 4, 30000)
	if paperTokens < 29000 || paperTokens > 32768 {
		t.Fatalf("paper of %d tokens; want about 30,000", paperTokens)
	}
	srv := modeltest.NewServer(t, modeltest.Config{Answer: evidenceReader(t, data)})
	out := filepath.Join(t.TempDir(), "run")
	_, stderr, code := paperlens(t, "eval", "--bench", "elaipbench", "--data", data, "--model", "m", "--base-url", srv.BaseURL(),
		"--paradigm", "reasoning", "--mode", "full", "--runs", "1", "--out", out, "--home", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	recs := readRecords(t, out)
	if len(recs) != 4 {
		t.Fatalf("%d records", len(recs))
	}
	for _, r := range recs {
		if r.TruncatedTokens != 0 || !r.Correct || r.Error != "" {
			t.Errorf("%s: truncated %d tokens, correct %t, error %q", r.QuestionID, r.TruncatedTokens, r.Correct, r.Error)
		}
		// (The prompt's paper is whitespace-normalised, a little shorter.)
		if r.PromptTokens < paperTokens*99/100 {
			t.Errorf("%s: prompt of %d tokens for a paper of %d", r.QuestionID, r.PromptTokens, paperTokens)
		}
	}
	for _, r := range questionRequests(srv) {
		if r.Temperature == nil || *r.Temperature != 0.1 || r.MaxCompletionTokens != 4096 {
			t.Fatalf("request %d: temperature %v, max_completion_tokens %d; want 0.1 and 4096", r.N, r.Temperature, r.MaxCompletionTokens)
		}
	}
	s := readSummary(t, out)
	if s.Protocol == nil {
		t.Fatal("summary.json has no protocol")
	}
	for _, c := range s.Protocol.Settings {
		if (c.Name == protocol.Temperature || c.Name == protocol.MaxTokens || c.Name == protocol.ContextBudget) && !c.Match {
			t.Errorf("%s departs: %+v", c.Name, c)
		}
	}
}

// A server that refuses the paper's temperature (as OpenAI's o-series do)
// is found by the preflight: no question's request is rejected, the run
// goes on without the field, and the protocol says why.
func TestProtocolServerRefusal(t *testing.T) {
	t.Parallel()
	data, _ := longPaperData(t, 3, 30000)
	srv := modeltest.NewServer(t, modeltest.Config{ReasoningRules: true, Answer: evidenceReader(t, data)})
	out := filepath.Join(t.TempDir(), "run")
	args := []string{"eval", "--bench", "elaipbench", "--data", data, "--model", "o-fake", "--base-url", srv.BaseURL(),
		"--paradigm", "reasoning", "--mode", "full", "--runs", "1", "--out", out, "--home", t.TempDir()}
	stdout, stderr, code := paperlens(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if n := srv.Faulted()[modeltest.Status]; n != 1 {
		t.Errorf("%d requests rejected; want only the preflight's first", n)
	}
	for _, r := range questionRequests(srv) {
		if r.Temperature != nil {
			t.Fatalf("request %d still sends temperature %v", r.N, *r.Temperature)
		}
	}
	s := readSummary(t, out)
	var temp *protocol.Check
	for i, c := range s.Protocol.Settings {
		if c.Name == protocol.Temperature {
			temp = &s.Protocol.Settings[i]
		}
	}
	if temp == nil || temp.Match || temp.Run != "none" || temp.Paper != "0.1" || !strings.Contains(temp.Why, "refused") {
		t.Fatalf("protocol temperature: %+v", temp)
	}
	if !strings.Contains(stdout, "## Protocol") || !strings.Contains(stdout, "temperature: none here, 0.1 in the paper") {
		t.Errorf("summary.md lacks the departure:\n%s", stdout)
	}
	// A resume asks the same, without the refused field.
	n := srv.Faulted()[modeltest.Status]
	os.Remove(filepath.Join(out, run.ResultsFile))
	if _, stderr, code := paperlens(t, args...); code != 0 || srv.Faulted()[modeltest.Status] != n {
		t.Fatalf("resume: exit %d, %d more rejections\n%s", code, srv.Faulted()[modeltest.Status]-n, stderr)
	}
}

// Two modes whose prompts are byte-identical make two calls by default,
// and one with --share-identical-prompts, a departure the protocol states.
func TestProtocolCoupledModes(t *testing.T) {
	t.Parallel()
	// full and full+web send one prompt when the web finds nothing: a web
	// mode without usable results falls back to the paper alone, and the
	// offline web (the corpus less the question's own paper) of a home
	// with one paper has none.
	data, _ := longPaperData(t, 6, 0)
	for _, tc := range []struct {
		share bool
		calls int
	}{{false, 12}, {true, 6}} {
		srv := modeltest.NewServer(t, modeltest.Config{Answer: evidenceReader(t, data)})
		out := filepath.Join(t.TempDir(), "run")
		args := []string{"eval", "--bench", "elaipbench", "--data", data, "--model", "m", "--base-url", srv.BaseURL(),
			"--mode", "full,full+web", "--web-provider", "corpus", "--runs", "1", "--out", out, "--home", t.TempDir()}
		if tc.share {
			args = append(args, "--share-identical-prompts")
		}
		_, stderr, code := paperlens(t, args...)
		if code != 0 {
			t.Fatalf("share %t: exit %d\n%s", tc.share, code, stderr)
		}
		prompts := map[string]int{}
		for _, r := range questionRequests(srv) {
			prompts[r.Prompt()]++
		}
		if len(prompts) != 6 {
			t.Fatalf("share %t: %d distinct prompts; the test needs the two modes' prompts identical", tc.share, len(prompts))
		}
		if n := len(questionRequests(srv)); n != tc.calls {
			t.Errorf("share %t: %d calls, want %d", tc.share, n, tc.calls)
		}
		s := readSummary(t, out)
		shared := false
		for _, c := range s.Protocol.Departures() {
			shared = shared || c.Name == protocol.CacheSharing
		}
		if shared != tc.share {
			t.Errorf("share %t: cache_sharing stated as a departure: %t", tc.share, shared)
		}
	}
}

// Accuracy counts every question, errors as wrong; accuracy_answered
// leaves them out, and the summary shows the error count beside both.
func TestProtocolDenominators(t *testing.T) {
	t.Parallel()
	data := writeQuestions(t, 12)
	srv := modeltest.NewServer(t, modeltest.Config{
		Answer: func(r modeltest.Request) (string, string) {
			// Every question right, so only the errors lower accuracy.
			p := r.Prompt()
			var i int
			if at := strings.Index(p, "Question number "); at >= 0 {
				fmt.Sscanf(p[at:], "Question number %d", &i)
			}
			return fmt.Sprintf("The answer is %c.", "ABCD"[i%4]), ""
		},
		// Questions 0, 1 and 2 always fail with a server error.
		Inject: func(r modeltest.Request) *modeltest.Fault {
			for _, n := range []string{"number 0:", "number 1:", "number 2:"} {
				if strings.Contains(r.Prompt(), n) {
					return &modeltest.Fault{Kind: modeltest.ServerError}
				}
			}
			return nil
		},
	})
	out := filepath.Join(t.TempDir(), "run")
	stdout, _, code := paperlens(t, "eval", "--bench", "jsonl", "--data", data, "--model", "m", "--base-url", srv.BaseURL(),
		"--mode", "closed-book", "--runs", "1", "--max-attempts", "1", "--stop-after-failures", "-1", "--out", out, "--home", t.TempDir())
	if code == 0 {
		t.Fatal("exit 0 with 3 failed questions")
	}
	ms := readSummary(t, out).ByMode["closed-book"]
	if ms.Errors != 3 || ms.N != 12 || ms.Accuracy != 9.0/12 || ms.AccuracyAnswered != 1 {
		t.Fatalf("errors %d, n %d, accuracy %.3f, accuracy_answered %.3f; want 3, 12, 0.750, 1", ms.Errors, ms.N, ms.Accuracy, ms.AccuracyAnswered)
	}
	if !strings.Contains(stdout, "| **75.0") || !strings.Contains(stdout, "| 3 | 100.0 |") {
		t.Errorf("summary.md lacks accuracy, errors and answered side by side:\n%s", stdout)
	}
}

// ElaipBench's intra-paper BM25 is rank_bm25's Okapi (A.7.1): the default
// retrieves what --bm25 okapi retrieves, --bm25 bleve departs, and
// config.json names the scorer.
func TestProtocolBM25Scorer(t *testing.T) {
	t.Parallel()
	sample := filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")
	home := t.TempDir()
	contexts := map[string]map[string]string{}
	for _, scorer := range []string{"", "okapi", "bleve"} {
		out := filepath.Join(t.TempDir(), "run")
		args := []string{"eval", "--bench", "elaipbench", "--data", sample, "--model", "ir", "--mode", "bm25",
			"--runs", "1", "--out", out, "--home", home}
		if scorer != "" {
			args = append(args, "--bm25", scorer)
		}
		if _, stderr, code := paperlens(t, args...); code != 0 {
			t.Fatalf("--bm25 %q: exit %d\n%s", scorer, code, stderr)
		}
		var cfg run.Config
		b, _ := os.ReadFile(filepath.Join(out, "config.json"))
		if err := json.Unmarshal(b, &cfg); err != nil {
			t.Fatal(err)
		}
		want := scorer
		if want == "" {
			want = "okapi"
		}
		if cfg.BM25 != want {
			t.Errorf("--bm25 %q: config.json says bm25 %q", scorer, cfg.BM25)
		}
		contexts[scorer] = map[string]string{}
		for _, r := range readRecords(t, out) {
			var ids []string
			for _, c := range r.Context {
				ids = append(ids, c.PassageID)
			}
			contexts[scorer][r.QuestionID] = strings.Join(ids, ",")
		}
		departs := false
		for _, c := range readSummary(t, out).Protocol.Departures() {
			departs = departs || c.Name == protocol.BM25
		}
		if departs != (scorer == "bleve") {
			t.Errorf("--bm25 %q: bm25 stated as a departure: %t", scorer, departs)
		}
	}
	differ := 0
	for q, ids := range contexts[""] {
		if ids != contexts["okapi"][q] {
			t.Errorf("%s: the default retrieved %s, okapi %s", q, ids, contexts["okapi"][q])
		}
		if ids != contexts["bleve"][q] {
			differ++
		}
	}
	if differ == 0 {
		t.Error("okapi and bleve retrieved the same for every question: the test cannot tell them apart")
	}
}
