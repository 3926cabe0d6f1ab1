package main

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/study"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/evidence"
)

// ragPassageMark opens a passage in the RAG prompt templates (as in
// eval/run's tests): the evidence reader scores passages apart, as eval
// retrieval does.
var ragPassageMark = regexp.MustCompile(`\n\[[0-9]+\] \(passage [^)\n]*\)\n`)

// evidenceModel stands in for a chat model that reads evidence, behind a
// loopback server. Asked an MCQ, it answers right exactly when the prompt
// holds all of the question's gold evidence (each sentence within one
// passage, by the evidence package's rule) and surely wrong otherwise.
// Asked to order a RankGPT window, it puts the passages holding most of
// the question's gold evidence first, the others after in their order.
func evidenceModel(t *testing.T, qs []bench.Question) func(modeltest.Request) (string, string) {
	t.Helper()
	golds := make([]*evidence.Gold, len(qs))
	for i, q := range qs {
		golds[i] = evidence.ParseGold(q.Evidence, evidence.Options{})
	}
	// The question whose stem text holds: the longest, should one stem
	// hold another.
	find := func(text string) int {
		best := -1
		for i, q := range qs {
			if strings.Contains(text, q.MCQ.Stem) && (best < 0 || len(q.MCQ.Stem) > len(qs[best].MCQ.Stem)) {
				best = i
			}
		}
		return best
	}
	// Windows overlap and every retriever and query form meets the same
	// passages: score each once.
	var mu sync.Mutex
	shares := map[string]float64{}
	share := func(qi int, text string) float64 {
		if qi < 0 || golds[qi].Empty() {
			return 0
		}
		key := strconv.Itoa(qi) + "\x00" + text
		mu.Lock()
		v, ok := shares[key]
		mu.Unlock()
		if !ok {
			v = golds[qi].Score([]string{text}).RecallAt(1)
			mu.Lock()
			shares[key] = v
			mu.Unlock()
		}
		return v
	}
	return func(r modeltest.Request) (string, string) {
		last := r.Messages[len(r.Messages)-1].Content
		if strings.Contains(r.Messages[0].Content, "RankGPT") {
			query, _, _ := strings.Cut(strings.TrimPrefix(last, "Search Query: "), ". \nRank the")
			qi := find(query)
			type passage struct {
				id    string
				share float64
			}
			var ps []passage
			for _, m := range r.Messages[3 : len(r.Messages)-1] {
				id, text, ok := strings.Cut(m.Content, "] ")
				if m.Role != "user" || !ok {
					continue
				}
				p := passage{id: id + "]", share: share(qi, text)}
				ps = append(ps, p)
			}
			sort.SliceStable(ps, func(i, j int) bool { return ps[i].share > ps[j].share })
			ids := make([]string, len(ps))
			for i, p := range ps {
				ids[i] = p.id
			}
			return strings.Join(ids, " > "), ""
		}
		qi := find(last)
		if qi < 0 {
			return "OK", "" // the preflight
		}
		q := qs[qi]
		// Only the context counts: the options may quote the evidence.
		ctx := strings.Replace(last, q.MCQ.Stem, "", 1)
		for _, o := range q.MCQ.Options {
			ctx = strings.Replace(ctx, o.Text, "", 1)
		}
		parts := ragPassageMark.Split(ctx, -1)
		if golds[qi].Score(parts).CompleteAt(len(parts)) == 1 {
			return "Answer: " + q.Answer, ""
		}
		for _, l := range q.MCQ.Letters() {
			if string(l) != q.Answer {
				return "Answer: " + string(l), ""
			}
		}
		return "", ""
	}
}

// rankGPTTokens sums the cl100k tokens of the RankGPT prompts among reqs
// (the messages' text, without a chat template's few tokens a turn).
func rankGPTTokens(reqs []modeltest.Request) (calls, toks int) {
	for _, r := range reqs {
		if len(r.Messages) == 0 || !strings.Contains(r.Messages[0].Content, "RankGPT") {
			continue
		}
		calls++
		for _, m := range r.Messages {
			toks += tokens.Count(m.Content)
		}
	}
	return calls, toks
}

var (
	pickedLine = regexp.MustCompile(`(?m)^- (.+): budget (\d+), complete@budget ([0-9.]+), (\d+) context tokens \(([0-9.]+)% of the mean full paper\)$`)
	matchLine  = regexp.MustCompile(`m matches full-paper accuracy \(([0-9.]+) vs ([0-9.]+), within its 95% interval\) with (.+), order (\w+), at ([0-9.]+)% of full's prompt tokens \((\d+) vs (\d+)\)\.`)
	sweepLine  = regexp.MustCompile(`(?m)^\s*(\d+)\s+[0-9.]+%\s+(\S.*?)\s{2,}([0-9.]+)\s+[0-9.]+\s+(\d+)\s+([0-9.]+)%\s*$`)
)

// Issue 16's acceptance: under the evidence-reading double, study --sweep
// with the LLM reranker finds a configuration whose evidence is complete
// for at least 95% of the questions within a quarter of the mean paper,
// evaluates it, and reports that it matches the full paper's accuracy at
// a share of its prompt tokens.
func TestStudySweepRerankLLM(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("study")
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	data := filepath.Join(root, "testdata", "elaipbench", "sample.jsonl")
	papers := filepath.Join(root, "testdata", "papers")
	qs, _, err := bench.LoadElaipBench(data)
	if err != nil {
		t.Fatal(err)
	}
	srv := modeltest.NewServer(t, modeltest.Config{Answer: evidenceModel(t, qs)})
	home, outDir := t.TempDir(), t.TempDir()
	// Passages of 160 tokens: at k=4 (budget 640, 22% of the mean paper)
	// the oracle holds every question's evidence, so a reranker that
	// lifts it from the top 30 can too.
	// The sample as study takes it by default from the repository root.
	// --isolate=false: its papers (ours) are parsed in this process. What
	// is tested is the sweep and the reranker, not the isolation of
	// untrusted files (the ingest tests' subject); the workers it started
	// cost ~0.25 s of CPU, most of it their start.
	out, errOut, code := (cli{env: []string{"OPENAI_API_KEY=sk-test-not-a-secret"}}).run(t, "study", "--data", data, "--papers", papers,
		"--home", home, "--out", outDir, "--runs", "1", "--models", "m", "--base-url", srv.BaseURL(),
		"--mode", "full,bm25", "--rerank", "llm", "--rerank-model", "m",
		"--query", "full", "--sweep", "--sweep-rerank", "none,llm", "--budgets", "320,640", "--sweep-passage-tokens", "160", "--sweep-windows", "", "--sweep-top", "2",
		"--isolate=false")
	if code != 0 {
		t.Fatalf("study --sweep --rerank llm: exit %d\n%s", code, errOut)
	}
	studyCalls := srv.Count()

	// The sweep's rows, for the record: the best reranked and unreranked
	// configuration within a quarter of the mean paper.
	logSweepRerankBest(t, out)

	// (a) A picked configuration, reranked by the LLM, is complete for ≥
	// 95% of the questions within 25% of the mean full paper.
	chosen, chosenComplete := pickSweepRerankConfig(t, out)

	// (b) Its eval runs (one per order) are reranked by the same model and
	// as accurate as the full paper; the report says it matches full.
	full, chosenDirs, scoreOrderTokens := checkSweepRerankRuns(t, outDir, srv.BaseURL(), chosen, chosenComplete)
	checkSweepRerankReport(t, out, chosen, scoreOrderTokens, full)

	// The reranker's own prompts are counted apart from the answer's:
	// run the chosen configuration again in a fresh folder, count the
	// RankGPT windows the server was sent and the prompt tokens it
	// reported for them, and find them in the summary's rerank_tokens.
	checkSweepRerankAgain(t, sweepRerankAgain{srv: srv, studyCalls: studyCalls, home: home, data: data, papers: papers,
		dir: chosenDirs[0], chosen: chosen, chosenComplete: chosenComplete, full: full})
}

// logSweepRerankBest logs the best reranked and unreranked configuration
// of the sweep's rows within a quarter of the mean paper.
func logSweepRerankBest(t *testing.T, out string) {
	t.Helper()
	best := map[bool]string{}
	bestC := map[bool]float64{false: -1, true: -1}
	for _, m := range sweepLine.FindAllStringSubmatch(out, -1) {
		label := m[2]
		complete, _ := strconv.ParseFloat(m[3], 64)
		share, _ := strconv.ParseFloat(m[5], 64)
		reranked := strings.HasSuffix(label, " rerank=llm")
		if strings.HasPrefix(label, retrieval.Oracle) || share > 25 || complete <= bestC[reranked] {
			continue
		}
		best[reranked], bestC[reranked] = fmt.Sprintf("%s (budget %s): complete@budget %.3f, %s context tokens, %.1f%% of the mean paper", label, m[1], complete, m[4], share), complete
	}
	t.Logf("best without reranking: %s", best[false])
	t.Logf("best with --rerank llm: %s", best[true])
}

// pickSweepRerankConfig returns the first picked configuration, reranked
// by the LLM, complete for ≥ 95% of the questions within 25% of the mean
// full paper, and its completeness; the study must name the cheapest.
func pickSweepRerankConfig(t *testing.T, out string) (chosen string, chosenComplete float64) {
	t.Helper()
	for _, m := range pickedLine.FindAllStringSubmatch(out, -1) {
		complete, _ := strconv.ParseFloat(m[3], 64)
		share, _ := strconv.ParseFloat(m[5], 64)
		budget, _ := strconv.Atoi(m[2])
		if strings.HasSuffix(m[1], " rerank=llm") && complete >= 0.95 && share <= 25 && chosen == "" {
			chosen, chosenComplete = m[1], complete
			t.Logf("picked %s: budget %d, complete@budget %.3f, %.1f%% of the mean full paper", m[1], budget, complete, share)
		}
	}
	for _, l := range regexp.MustCompile(`(?m)^(Cheapest reaching .*|- .*context tokens.*)$`).FindAllString(out, -1) {
		t.Log(l)
	}
	if chosen == "" {
		t.Fatalf("no picked configuration with rerank=llm reaches complete@budget 0.95 within 25%% of the mean paper:\n%s", out)
	}
	if !strings.Contains(out, "Cheapest reaching complete@budget 0.95: ") {
		t.Errorf("the study names no cheapest configuration at 0.95:\n%s", out)
	}
	return chosen, chosenComplete
}

// checkSweepRerankRuns checks the study's usual run and its sweep's runs
// in outDir: each reranked as its folder says, and the chosen
// configuration's two (one per order) as accurate as its completeness.
// It returns full's figures, the chosen runs' folders and the prompt
// tokens, answer and rerank, per question of the score-ordered one.
func checkSweepRerankRuns(t *testing.T, outDir, baseURL, chosen string, chosenComplete float64) (full run.ModeStats, chosenDirs []string, scoreOrderTokens float64) {
	t.Helper()
	usual, err := run.Dir(study.Folder(outDir, "m", "base")).ReadSummary()
	if err != nil {
		t.Fatal(err)
	}
	full = usual.ByMode["full"]
	// The usual modes rerank as --rerank says.
	if cfg, err := run.Dir(study.Folder(outDir, "m", "base")).ReadConfig(); err != nil || cfg.Rerank != "llm" {
		t.Errorf("usual run: rerank %q, %v", cfg.Rerank, err)
	}
	for _, name := range []string{"full", "bm25"} {
		ms := usual.ByMode[name]
		t.Logf("usual mode %s (k=5, passages of 512, --rerank llm for bm25): accuracy %.3f over %d, %.0f prompt tokens", name, ms.Accuracy, ms.N, ms.PromptTokens)
	}
	dirs, _ := filepath.Glob(filepath.Join(outDir, "study-m-base-sweep-*"))
	for _, d := range dirs {
		cfg, ms, ok := checkSweepRerankRun(t, d, baseURL, chosen, chosenComplete, full)
		if !ok {
			continue
		}
		chosenDirs = append(chosenDirs, d)
		if cfg.Order == "score" {
			scoreOrderTokens = ms.PromptTokens + float64(ms.RerankTokens.Prompt)/float64(ms.Records)
		}
	}
	if len(chosenDirs) != 2 {
		t.Fatalf("run folders of %s: %v (of %v)", chosen, chosenDirs, dirs)
	}
	return full, chosenDirs, scoreOrderTokens
}

// checkSweepRerankRun checks that the sweep's run in d is reranked as its
// folder says and, if it is of the chosen configuration (ok), that it
// counts reranker tokens and is as accurate as the chosen completeness.
func checkSweepRerankRun(t *testing.T, d, baseURL, chosen string, chosenComplete float64, full run.ModeStats) (cfg run.Config, ms run.ModeStats, ok bool) {
	t.Helper()
	cfg, err := run.Dir(d).ReadConfig()
	if err != nil {
		t.Fatal(err)
	}
	label := fmt.Sprintf("%s p%d k=%d", retrieval.Label(cfg.Modes[0], retrieve.QueryForm(cfg.QueryForm)), cfg.MaxPassageTokens, cfg.K)
	reranked := strings.HasSuffix(d, "-rerank-llm")
	if reranked != (cfg.Rerank == "llm") || (reranked && (cfg.RerankModel != "m" || cfg.RerankDepth != 30 || cfg.RerankBaseURL != baseURL)) {
		t.Errorf("%s: rerank %q model %q depth %d url %q", filepath.Base(d), cfg.Rerank, cfg.RerankModel, cfg.RerankDepth, cfg.RerankBaseURL)
	}
	if reranked {
		label += " rerank=llm"
	}
	if label != chosen {
		return cfg, ms, false
	}
	sum, err := run.Dir(d).ReadSummary()
	if err != nil {
		t.Fatal(err)
	}
	ms = sum.ByMode[cfg.Modes[0]]
	if ms.RerankTokens == nil || ms.RerankTokens.Prompt == 0 {
		t.Errorf("%s: the summary counts no reranker tokens", filepath.Base(d))
	}
	t.Logf("%s (order %s): accuracy %.3f over %d, prompt tokens %.0f; full %.3f over %d, %.0f prompt tokens (%.1f%%)",
		label, cfg.Order, ms.Accuracy, ms.N, ms.PromptTokens, full.Accuracy, full.N, full.PromptTokens, 100*ms.PromptTokens/full.PromptTokens)
	// The double reads evidence: its accuracy is the evidence's
	// completeness in the context the sweep measured.
	if math.Abs(ms.Accuracy-chosenComplete) > 0.0005 || full.Accuracy != 1 {
		t.Errorf("%s order %s: accuracy %.3f, complete@budget %.3f; full's %.3f over %d", label, cfg.Order, ms.Accuracy, chosenComplete, full.Accuracy, full.N)
	}
	return cfg, ms, true
}

// checkSweepRerankReport checks that the study's report says the chosen
// configuration, score-ordered, matches full at scoreOrderTokens, decided
// by the paired interval, and that its retrieval table is not reranked.
func checkSweepRerankReport(t *testing.T, out, chosen string, scoreOrderTokens float64, full run.ModeStats) {
	t.Helper()
	m := matchLine.FindStringSubmatch(out)
	if m == nil || !strings.HasSuffix(m[3], " rerank=llm") {
		t.Fatalf("the report names no reranked configuration matching full:\n%s", out)
	}
	t.Logf("report: %s", m[0])
	// The study's retrieval table is not reranked by a chat model (12
	// reranks a question); the sweep and the runs are.
	if strings.Contains(out, "dense>llm+full") {
		t.Errorf("the retrieval table was reranked by the LLM:\n%s", out)
	}
	// Decided as the report's frontier decides: paired by question.
	if !strings.Contains(out, m[0]+"\nPaired over 37 questions, its accuracy minus full's is ") {
		t.Errorf("the match is not decided by the paired interval:\n%s", out)
	}
	if want := fmt.Sprintf("%.1f", 100*scoreOrderTokens/full.PromptTokens); m[3] != chosen || m[4] != "score" || m[5] != want {
		t.Errorf("matches full with %s, order %s, at %s%% of its prompt tokens; want %s, order score, at %s%%", m[3], m[4], m[5], chosen, want)
	}
}

// sweepRerankAgain is what checkSweepRerankAgain needs of
// TestStudySweepRerankLLM: the server and the calls the study made, the
// study's home, data and papers, and the chosen configuration's first run
// folder, label and completeness, and full's figures.
type sweepRerankAgain struct {
	srv                     *modeltest.Server
	studyCalls              int
	home, data, papers, dir string
	chosen                  string
	chosenComplete          float64
	full                    run.ModeStats
}

// checkSweepRerankAgain runs the chosen configuration again in a fresh
// folder and checks that the summary's rerank_tokens are the prompt
// tokens the server reported for the RankGPT windows it was sent.
func checkSweepRerankAgain(t *testing.T, a sweepRerankAgain) {
	t.Helper()
	srv, chosen, chosenComplete, full := a.srv, a.chosen, a.chosenComplete, a.full
	cfg, err := run.Dir(a.dir).ReadConfig()
	if err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(t.TempDir(), "again")
	if o, errOut, code := (cli{env: []string{"OPENAI_API_KEY=sk-test-not-a-secret"}}).run(t, "eval", "--home", filepath.Join(a.home, "sweep", fmt.Sprintf("passages-%d", cfg.MaxPassageTokens)),
		"--data", a.data, "--papers", a.papers, "--model", "m", "--base-url", srv.BaseURL(), "--mode", cfg.Modes[0], "--runs", "1",
		"-k", strconv.Itoa(cfg.K), "--max-passage-tokens", strconv.Itoa(cfg.MaxPassageTokens), "--query", cfg.QueryForm,
		"--order", cfg.Order, "--rerank", "llm", "--rerank-model", "m", "--out", again); code != 0 {
		t.Fatalf("eval of %s: exit %d\n%s%s", chosen, code, o, errOut)
	}
	calls, toks := rankGPTTokens(srv.Requests()[a.studyCalls:])
	sum, err := run.Dir(again).ReadSummary()
	if err != nil {
		t.Fatal(err)
	}
	ms := sum.ByMode[cfg.Modes[0]]
	if math.Abs(ms.Accuracy-chosenComplete) > 0.0005 || calls == 0 {
		t.Errorf("%s again: accuracy %.3f (complete@budget %.3f), %d rerank calls", chosen, ms.Accuracy, chosenComplete, calls)
	}
	reported := 0 // what the double's usage said of those windows
	for _, r := range srv.Requests()[a.studyCalls:] {
		if len(r.Messages) > 0 && strings.Contains(r.Messages[0].Content, "RankGPT") {
			for _, m := range r.Messages {
				reported += modeltest.Tokens(m.Content)
			}
		}
	}
	if ms.RerankTokens == nil || ms.RerankTokens.Prompt != reported {
		t.Errorf("summary rerank tokens %+v; the server reported %d prompt tokens for %d windows", ms.RerankTokens, reported, calls)
	}
	n := float64(ms.N)
	t.Logf("%s: the LLM reranker sent %d RankGPT windows, %.1f per question, %.0f prompt tokens per question (cl100k, messages only), "+
		"beside the answer's %.0f prompt tokens; answer + rerank = %.0f, %.1f%% of full's %.0f",
		chosen, calls, float64(calls)/n, float64(toks)/n, ms.PromptTokens, ms.PromptTokens+float64(toks)/n,
		100*(ms.PromptTokens+float64(toks)/n)/full.PromptTokens, full.PromptTokens)
}
