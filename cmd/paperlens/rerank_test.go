package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/internal/testkit/reranktest"
	"github.com/paperlens/paperlens/internal/testkit/sampletest"
)

// goldFirstScore stands in for a cross-encoder that knows the answer: a
// passage scores the share of its question's gold evidence it covers.
func goldFirstScore(t *testing.T, data string) func(query, text string) float64 {
	qs, _, err := bench.LoadElaipBench(data)
	if err != nil {
		t.Fatal(err)
	}
	return sampletest.GoldFirst(qs)
}

func retrievalRow(t *testing.T, out, label string) map[string]float64 {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var sum struct {
		Retrievers map[string]map[string]float64 `json:"retrievers"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil || sum.Retrievers[label] == nil {
		t.Fatalf("no %s in %q: %v", label, lines[len(lines)-1], err)
	}
	return sum.Retrievers[label]
}

// The rerank flags through the commands, against a TEI double (a
// loopback /rerank server standing in for a cross-encoder that ranks the
// gold evidence first) and a Cohere-protocol one (standing in for vLLM).
func TestRerankCommands(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	data := filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")
	score := goldFirstScore(t, data)
	tei := reranktest.NewServer(t, reranktest.Config{Protocol: reranktest.TEI, Score: score})
	cohere := reranktest.NewServer(t, reranktest.Config{Protocol: reranktest.Cohere, Score: score, RequireModel: true})

	out, errOut, code := paperlens(t, "eval", "retrieval", "--json", "--home", home, "--data", data, "--retriever", "bm25", "-k", "5")
	if code != 0 {
		t.Fatalf("eval retrieval: exit %d: %s", code, errOut)
	}
	before := retrievalRow(t, out, "bm25+full")["complete@5"]
	for _, srv := range []struct {
		url  string
		args []string
	}{
		{tei.BaseURL(), nil},
		{cohere.BaseURL(), []string{"--rerank-model", "BAAI/bge-reranker-v2-m3"}},
	} {
		args := append([]string{"eval", "retrieval", "--json", "--home", home, "--data", data, "--retriever", "bm25", "-k", "5",
			"--rerank", "api", "--rerank-base-url", srv.url}, srv.args...)
		out, errOut, code = paperlens(t, args...)
		if code != 0 {
			t.Fatalf("eval retrieval --rerank api: exit %d: %s", code, errOut)
		}
		after := retrievalRow(t, out, "bm25>api+full")["complete@5"]
		t.Logf("%s: complete@5 %.3f → %.3f", srv.url, before, after)
		if before >= 1 || after != 1 {
			t.Errorf("complete@5 %.3f without reranking, %.3f with; want below 1, then 1", before, after)
		}
	}

	out, errOut, code = paperlens(t, "search", "--json", "--home", home, "--paper", "lagged-replay-curriculum", "-k", "2",
		"--rerank", "api", "--rerank-base-url", tei.BaseURL(), "how", "stale", "transitions", "are", "replayed")
	if code != 0 || strings.Count(out, `"retriever":"bm25\u003eapi"`)+strings.Count(out, `"retriever":"bm25>api"`) != 2 {
		t.Errorf("search --rerank api: exit %d\n%s%s", code, out, errOut)
	}

	out, errOut, code = paperlens(t, "ask", "--home", home, "--paper", "lagged-replay-curriculum", "--mode", "bm25",
		"--rerank", "api", "--rerank-base-url", tei.BaseURL(), "How are stale transitions replayed? A. x B. y")
	if code != 0 || !strings.Contains(out, "Passages given to the model") {
		t.Errorf("ask --rerank api: exit %d\n%s%s", code, out, errOut)
	}

	// study's retrieval table reranks with a cross-encoder.
	out, errOut, code = paperlens(t, "study", "--home", home, "--data", sampleHead(t, 2), "--model", "random", "--mode", "closed-book", "--runs", "1",
		"--limit", "2", "--out", t.TempDir(), "--rerank", "api", "--rerank-base-url", tei.BaseURL())
	if code != 0 || !strings.Contains(out, "bleve>api+full") {
		t.Errorf("study --rerank api: exit %d, no reranked row in its retrieval table\n%s%s", code, out, errOut)
	}

	runDir := filepath.Join(t.TempDir(), "run")
	_, errOut, code = paperlens(t, "eval", "--home", home, "--data", data, "--model", "ir", "--mode", "bm25", "--runs", "1",
		"--out", runDir, "--rerank", "api", "--rerank-base-url", tei.BaseURL(), "--rerank-depth", "20")
	if code != 0 {
		t.Fatalf("eval --rerank api: exit %d: %s", code, errOut)
	}
	cfg, err := run.Dir(runDir).ReadConfig()
	if err != nil || cfg.Rerank != "api" || cfg.RerankDepth != 20 || cfg.RerankProtocol != "tei" || cfg.RerankBaseURL != tei.BaseURL() {
		t.Errorf("config.json: rerank %q depth %d protocol %q url %q: %v", cfg.Rerank, cfg.RerankDepth, cfg.RerankProtocol, cfg.RerankBaseURL, err)
	}
	_, errOut, code = paperlens(t, "eval", "--home", home, "--data", data, "--model", "ir", "--mode", "bm25", "--runs", "1", "--out", runDir)
	if code == 0 || !strings.Contains(errOut, "--rerank api, now none") {
		t.Errorf("resume without --rerank: exit %d: %s", code, errOut)
	}

	// A dead endpoint stops the run before its first question.
	dead := reranktest.NewServer(t, reranktest.Config{Protocol: reranktest.TEI})
	dead.Close()
	deadDir := filepath.Join(t.TempDir(), "dead")
	_, errOut, code = paperlens(t, "eval", "--home", home, "--data", data, "--model", "ir", "--mode", "bm25", "--runs", "1",
		"--out", deadDir, "--rerank", "api", "--rerank-base-url", dead.URL)
	if recs, _ := run.Dir(deadDir).Records(); code == 0 || len(recs) != 0 ||
		!strings.Contains(errOut, "rerank endpoint "+dead.URL+"/rerank (tei protocol)") || !strings.Contains(errOut, "is the server running?") {
		t.Errorf("dead endpoint: exit %d, %d records: %s", code, len(recs), errOut)
	}

	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"search", "--home", home, "--rerank", "api", "x"}, "--rerank api needs --rerank-base-url"},
		{[]string{"eval", "retrieval", "--home", home, "--data", data, "--rerank", "api"}, "--rerank api needs --rerank-base-url"},
		{[]string{"eval", "--home", home, "--data", data, "--model", "ir", "--mode", "bm25", "--rerank", "api"}, "--rerank api needs --rerank-base-url"},
		{[]string{"ask", "--home", home, "--paper", "lagged-replay-curriculum", "--rerank", "llm", "x"}, "--rerank llm needs --rerank-model"},
		{[]string{"search", "--home", home, "--rerank", "cross", "x"}, `--rerank "cross"`},
	} {
		_, errOut, code := paperlens(t, bad.args...)
		if code == 0 || !strings.Contains(errOut, bad.want) {
			t.Errorf("%v: exit %d, %q; want %q", bad.args, code, errOut, bad.want)
		}
	}
}

// Every command's help teaches the values and which servers speak which
// protocol.
func TestRerankHelp(t *testing.T) {
	t.Parallel()
	for _, cmd := range [][]string{{"search"}, {"ask"}, {"eval"}, {"eval", "retrieval"}, {"study"}} {
		out, _, code := paperlens(t, append(cmd, "--help")...)
		for _, want := range []string{"--rerank string", "--rerank-depth int", "--rerank-base-url", "--rerank-model",
			"Text Embeddings Inference", "Cohere, Jina, vLLM", "RankGPT", "window of 20"} {
			if code != 0 || !strings.Contains(out, want) {
				t.Errorf("%v --help lacks %q", cmd, want)
			}
		}
	}
}

// --rerank llm in an eval asks the answering model (a loopback chat server
// standing in for it, which orders RankGPT windows by their gold evidence
// and answers "A" otherwise) through the answering stack: the windows are
// cached in the run folder, so a rerun from scratch in the same folder
// makes no call but the preflight.
func TestEvalRerankLLMCached(t *testing.T) {
	t.Parallel()
	data := filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")
	score := goldFirstScore(t, data)
	srv := modeltest.NewServer(t, modeltest.Config{Answer: func(r modeltest.Request) (string, string) {
		if len(r.Messages) == 0 || !strings.Contains(r.Messages[0].Content, "RankGPT") {
			return "Answer: A", ""
		}
		last := r.Messages[len(r.Messages)-1].Content
		query, _, _ := strings.Cut(strings.TrimPrefix(last, "Search Query: "), ". \nRank the")
		var gold, rest []string
		for _, m := range r.Messages[3 : len(r.Messages)-1] {
			id, text, ok := strings.Cut(m.Content, "] ")
			if m.Role != "user" || !ok {
				continue
			}
			if score(query, text) > 0 {
				gold = append(gold, id+"]")
			} else {
				rest = append(rest, id+"]")
			}
		}
		return strings.Join(append(gold, rest...), " > "), ""
	}})
	out := filepath.Join(t.TempDir(), "run")
	args := []string{"eval", "--data", data, "--model", "m", "--base-url", srv.BaseURL(), "--mode", "bm25,full+bm25",
		"--runs", "2", "--limit", "6", "--max-passage-tokens", "128", "--out", out, "--home", t.TempDir(), "--rerank", "llm"}
	evalRun := func() {
		if out, errOut, code := (cli{env: []string{"OPENAI_API_KEY=sk-test-not-a-secret"}}).run(t, args...); code != 0 {
			t.Fatalf("eval --rerank llm: exit %d\n%s%s", code, out, errOut)
		}
	}
	evalRun()
	windows := 0
	for prompt, n := range srv.Served() {
		if strings.Contains(prompt, "RankGPT") {
			windows += n
		}
	}
	// 6 questions: one rerank per question, shared by both modes and runs;
	// most of the sample's papers hold over 20 passages of 128 tokens, so
	// most take two windows.
	if windows <= 6 || windows > 12 {
		t.Errorf("%d rerank windows for 6 questions at depth 30", windows)
	}
	cfg, err := run.Dir(out).ReadConfig()
	if err != nil || cfg.Rerank != "llm" || cfg.RerankModel != "m" || cfg.RerankBaseURL != srv.BaseURL() || cfg.RerankDepth != 30 {
		t.Fatalf("config.json: %+v %v", cfg, err)
	}
	calls := srv.Count()
	if err := os.Remove(filepath.Join(out, run.ResultsFile)); err != nil {
		t.Fatal(err)
	}
	evalRun()
	if n := srv.Count() - calls; n != 1 {
		t.Errorf("the rerun made %d calls; want only the preflight", n)
	}
}
