package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// reasoningServer stands in for an OpenAI o-series or GPT-5 endpoint: it
// refuses max_tokens and a temperature or top_p other than 1 with OpenAI's
// 400 bodies, thinks a number of hidden tokens that depends on the prompt,
// and reports part of each prompt as served from its prompt cache.
func reasoningServer(t *testing.T) *modeltest.Server {
	return modeltest.NewServer(t, modeltest.Config{
		ReasoningRules: true,
		Answer: func(r modeltest.Request) (string, string) {
			return "After weighing the options, the answer is B.", ""
		},
		ReasoningTokens: func(r modeltest.Request) int { return 100 + len(r.Prompt())%97 },
		CachedTokens:    func(r modeltest.Request) int { return 16 },
	})
}

func readSummary(t *testing.T, dir string) run.Summary {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s run.Summary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestEvalReasoningModel(t *testing.T) {
	t.Parallel()
	srv := reasoningServer(t)
	sample := filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")
	home, out := t.TempDir(), filepath.Join(t.TempDir(), "run")
	args := []string{"eval", "--bench", "elaipbench", "--data", sample, "--model", "o-fake", "--base-url", srv.BaseURL(),
		"--paradigm", "reasoning", "--reasoning-effort", "high", "--max-completion-tokens", "4000",
		"--extra-body", `{"service_tier":"flex","metadata":{"study":"paperlens"}}`,
		"--header", "X-Gateway-Token: gw-secret-0123456789",
		"--price", "in=2,out=8,cached=0.5", "--mode", "full,bm25", "--runs", "1", "--concurrency", "4",
		"--out", out, "--home", home, "--json"}
	stdout, stderr, code := paperlens(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	// The paper's temperature 0.1 is refused once, by the preflight;
	// every question is then asked without it.
	if n := srv.Faulted()[modeltest.Status]; n != 1 {
		t.Fatalf("%d requests were rejected; want the preflight's one", n)
	}
	reqs := questionRequests(srv)
	sent := checkReasoningRequests(t, reqs)
	checkReasoningSummary(t, stdout, len(reqs), sent)

	// The header's value is never written; its name is.
	checkReasoningRunFiles(t, out)

	// A resumed run sends nothing; so does a rerun from the response cache
	// alone.
	checkReasoningResume(t, srv, args, out)
}

// checkReasoningRequests checks the fields of each question's request and
// returns the tokens the server sent for them (Cached left zero).
func checkReasoningRequests(t *testing.T, reqs []modeltest.Request) run.Tokens {
	t.Helper()
	var reasoning, prompt, completion int
	for _, r := range reqs {
		if r.ReasoningEffort != "high" || r.MaxCompletionTokens != 4000 || r.MaxTokens != 0 ||
			string(r.Body["service_tier"]) != `"flex"` || r.Temperature != nil || r.TopP == nil || *r.TopP != 1 {
			t.Fatalf("request %d: effort %q, max_completion_tokens %d, max_tokens %d, service_tier %s, temperature %v, top_p %v",
				r.N, r.ReasoningEffort, r.MaxCompletionTokens, r.MaxTokens, r.Body["service_tier"], r.Temperature, r.TopP)
		}
		if r.Header.Get("X-Gateway-Token") != "gw-secret-0123456789" {
			t.Fatalf("request %d lacks the gateway header", r.N)
		}
		reasoning += 100 + len(r.Prompt())%97
		for _, m := range r.Messages {
			prompt += modeltest.Tokens(m.Content)
		}
		completion += modeltest.Tokens("After weighing the options, the answer is B.") + 100 + len(r.Prompt())%97
	}
	return run.Tokens{Prompt: prompt, Completion: completion, Reasoning: reasoning}
}

// checkReasoningSummary checks the --json summary printed as stdout
// against the nreqs question requests and the tokens sent for them.
func checkReasoningSummary(t *testing.T, stdout string, nreqs int, sent run.Tokens) {
	t.Helper()
	var s run.Summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("--json printed %q: %v", stdout, err)
	}
	var got run.Tokens
	var cost float64
	for _, m := range []string{"full", "bm25"} {
		ms := s.ByMode[m]
		if ms.N != s.Questions || ms.Errors != 0 {
			t.Errorf("%s: %d of %d questions answered, %d errors", m, ms.N, s.Questions, ms.Errors)
		}
		got.Prompt += ms.Tokens.Prompt
		got.Completion += ms.Tokens.Completion
		got.Reasoning += ms.Tokens.Reasoning
		got.Cached += ms.Tokens.Cached
		if ms.CostUSD == nil {
			t.Fatalf("%s: no cost_usd with --price", m)
		}
		cost += *ms.CostUSD
	}
	if nreqs != 2*s.Questions {
		t.Errorf("%d requests for %d questions × 2 modes", nreqs, s.Questions)
	}
	prompt, completion := sent.Prompt, sent.Completion
	want := run.Tokens{Prompt: prompt, Completion: completion, Reasoning: sent.Reasoning, Cached: 16 * nreqs}
	if got != want {
		t.Errorf("summary tokens %+v, the server sent %+v", got, want)
	}
	wantCost := (float64(prompt-want.Cached)*2 + float64(want.Cached)*0.5 + float64(completion)*8) / 1e6
	if math.Abs(cost-wantCost) > 1e-9 {
		t.Errorf("cost %.6f, want %.6f", cost, wantCost)
	}
}

// checkReasoningRunFiles checks that no file of the run in out holds the
// header's value and that config.json records its name and the request
// fields.
func checkReasoningRunFiles(t *testing.T, out string) {
	t.Helper()
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), "gw-secret-0123456789") {
				t.Errorf("%s holds the header value", p)
			}
		}
		return nil
	})
	cfg, _ := os.ReadFile(filepath.Join(out, "config.json"))
	for _, w := range []string{`"X-Gateway-Token"`, `"reasoning_effort": "high"`, `"max_tokens_param": "max_completion_tokens"`, `"service_tier"`} {
		if !strings.Contains(string(cfg), w) {
			t.Errorf("config.json lacks %s:\n%s", w, cfg)
		}
	}
}

// checkReasoningResume checks that rerunning args (writing to out) resumes without a
// request, that a rerun from the response cache alone sends only the
// preflight, and that another reasoning effort is refused in the folder.
func checkReasoningResume(t *testing.T, srv *modeltest.Server, args []string, out string) {
	t.Helper()
	n := srv.Count()
	if _, stderr, code := paperlens(t, args...); code != 0 || srv.Count() != n {
		t.Fatalf("resume: exit %d, %d new requests\n%s", code, srv.Count()-n, stderr)
	}
	os.Remove(filepath.Join(out, run.ResultsFile))
	asked := len(questionRequests(srv))
	if _, stderr, code := paperlens(t, args...); code != 0 || len(questionRequests(srv)) != asked || srv.Count() != n+1 {
		t.Fatalf("rerun from the cache: exit %d, %d new requests (one preflight expected)\n%s", code, srv.Count()-n, stderr)
	}
	// A changed request field is a different run: refused in this folder.
	changed := append([]string{}, args...)
	changed[indexOf(changed, "high")] = "low"
	if _, stderr, code := paperlens(t, changed...); code == 0 || !strings.Contains(stderr, "reasoning_effort") {
		t.Errorf("a run with another reasoning effort resumed in the same folder: exit %d\n%s", code, stderr)
	}
}

// questionRequests are the requests that asked a question, leaving out the
// preflight call.
func questionRequests(srv *modeltest.Server) []modeltest.Request {
	var out []modeltest.Request
	for _, r := range srv.Requests() {
		if r.Messages[len(r.Messages)-1].Content != run.PreflightPrompt {
			out = append(out, r)
		}
	}
	return out
}

func indexOf(ss []string, s string) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	return -1
}

// Base paradigm with every sampling field left out and the answer length
// sent as max_completion_tokens: the same strict server takes it.
func TestEvalBaseWithoutSamplingFields(t *testing.T) {
	t.Parallel()
	srv := reasoningServer(t)
	data := writeQuestions(t, 12)
	_, stderr, code := paperlens(t, "eval", "--bench", "jsonl", "--data", data, "--model", "o-fake", "--base-url", srv.BaseURL(),
		"--temperature", "none", "--top-p", "none", "--max-completion-tokens", "64", "--mode", "closed-book", "--runs", "1",
		"--out", filepath.Join(t.TempDir(), "run"), "--home", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if n := srv.Faulted()[modeltest.Status]; n != 0 {
		t.Fatalf("%d requests rejected", n)
	}
	for _, r := range srv.Requests() {
		if r.Messages[0].Content == run.PreflightPrompt {
			continue // its answer length is capped at 16
		}
		if r.Temperature != nil || r.TopP != nil || r.MaxCompletionTokens != 64 || r.Body["max_tokens"] != nil {
			t.Fatalf("request %+v", r)
		}
	}
}

// A parameter the model refuses stops the run within the first calls, names
// the flag that changes it, and exits non-zero.
func TestEvalStopsOnRefusedParameter(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		extra []string
		want  string
	}{
		{"max_tokens", nil, "--max-completion-tokens"},
		// A temperature the user asked for is not dropped: the run stops.
		// (The paper's default is dropped instead; see TestProtocolServerRefusal.)
		{"temperature", []string{"--max-completion-tokens", "64", "--temperature", "0.7"}, "--temperature none"},
		{"top_p", []string{"--max-completion-tokens", "64", "--temperature", "1", "--top-p", "0.9"}, "--top-p none"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := reasoningServer(t)
			data := writeQuestions(t, 200)
			out := filepath.Join(t.TempDir(), "run")
			args := append([]string{"eval", "--bench", "jsonl", "--data", data, "--model", "o-fake", "--base-url", srv.BaseURL(),
				"--mode", "closed-book", "--runs", "3", "--concurrency", "4", "--out", out, "--home", t.TempDir()}, tc.extra...)
			_, stderr, code := paperlens(t, args...)
			if code == 0 {
				t.Fatal("exit 0")
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr lacks %q:\n%s", tc.want, stderr)
			}
			if n := srv.Count(); n > 3 {
				t.Errorf("%d calls before stopping; want the preflight's", n)
			}
			if recs := readRecords(t, out); len(recs) != 0 {
				t.Errorf("%d records written for refused requests", len(recs))
			}
		})
	}
}

func TestRequestFlagErrors(t *testing.T) {
	t.Parallel()
	data := writeQuestions(t, 2)
	base := []string{"eval", "--bench", "jsonl", "--data", data, "--model", "m", "--base-url", "http://127.0.0.1:1/v1",
		"--out", filepath.Join(t.TempDir(), "run"), "--home", t.TempDir()}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--extra-body", "{chat_template_kwargs:"}, "--extra-body is not valid JSON"},
		{[]string{"--extra-body", "[1,2]"}, "must be a JSON object"},
		{[]string{"--extra-body", `{"model":"x"}`}, `may not set "model"`},
		{[]string{"--header", "sk-just-a-token"}, "want 'Name: value'"},
		{[]string{"--reasoning-effort", "extreme"}, "minimal, low, medium or high"},
		{[]string{"--max-tokens", "10", "--max-completion-tokens", "10"}, "both set the answer length"},
		{[]string{"--temperature", "warm"}, "want a number or none"},
		{[]string{"--price", "in=2"}, "give both in= and out="},
		{[]string{"--judge-extra-body", "nope"}, "--judge-extra-body is not valid JSON"},
	}
	for _, tc := range cases {
		_, stderr, code := paperlens(t, append(append([]string{}, base...), tc.args...)...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr lacks %q:\n%s", tc.args, code, tc.want, stderr)
		}
		if strings.Contains(stderr, "sk-just-a-token") {
			t.Errorf("%v: the header value was printed", tc.args)
		}
	}
}
