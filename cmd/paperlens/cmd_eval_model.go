package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/protocol"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/ingest/corpus"
	"github.com/paperlens/paperlens/internal/progress"
	"github.com/paperlens/paperlens/model"
)

// evalFlags are the flags of `paperlens eval` (fixed names: scripts use them).
type evalFlags struct {
	cfg            run.Config
	apiKeyEnv      string
	judgeKeyEnv    string
	asJSON         bool
	modes          string
	req, judgeReq  requestFlags
	price          string
	dryRun         bool
	progressEvery  time.Duration
	header         http.Header // --header values, never written
	judgeHeader    http.Header
	index          indexFlags
	attemptTimeout time.Duration
	maxAttempts    int
	// Issue 23: a runaway reply is cut, a stalled one given up.
	maxReplyBytes   int64
	readIdleTimeout time.Duration
	// flights counts the model calls at the server, for the progress
	// line; runEval sets it (nil: not counted).
	flights      *model.Flights
	searxngURL   string
	webCache     string
	allowPrivate bool
	rerank       rerankFlags
}

func addEvalFlags(cmd *cobra.Command, f *evalFlags) {
	fl := cmd.Flags()
	c := &f.cfg
	fl.StringVar(&c.Bench, "bench", "elaipbench", "benchmark format: elaipbench, lpfqa or jsonl")
	fl.StringVar(&c.Data, "data", "", "benchmark file (.jsonl, .json or .parquet)")
	fl.StringVar(&c.Papers, "papers", "", "folder of the papers as PDFs named by paper_id, parsed instead of paper_content")
	fl.StringVar(&c.Model, "model", "", "model name served at --base-url; random or ir for the offline baselines")
	fl.StringVar(&c.BaseURL, "base-url", "", "OpenAI-compatible API root, e.g. http://localhost:8000/v1 (default $OPENAI_BASE_URL, else https://api.openai.com/v1)")
	fl.StringVar(&f.apiKeyEnv, "api-key-env", "OPENAI_API_KEY", "environment variable holding the API key (never written anywhere)")
	fl.StringVar(&f.modes, "mode", "", "modes, comma-separated: "+strings.Join(mode.Names(), ", ")+" (default: closed-book,full,full+bm25,full+dense,full+hybrid,hybrid,oracle; LPFQA: closed-book)")
	eb := protocol.ElaipBench
	fl.StringVar(&c.Paradigm, "paradigm", "base", "base (letters only), cot (the base prompt plus \"Let's think step by step.\") or reasoning (the base prompt, room to think)")
	fl.IntVar(&c.Runs, "runs", eb.Int(protocol.Runs, ""), "repeated runs; accuracy is reported as mean ± std over runs (ElaipBench §4.1: 3)")
	fl.IntVar(&c.Concurrency, "concurrency", 8, "questions in flight")
	fl.IntVarP(&c.K, "k", "k", eb.Int(protocol.K, ""), "passages retrieved per question in RAG modes (ElaipBench §4.6: 5)")
	fl.IntVar(&c.Budget, "budget", eb.Int(protocol.ContextBudget, ""), "context budget in tokens (cl100k_base) for the paper and retrieved passages together, as ElaipBench A.7.2; the instruction, question and answer are not charged to it. Passages are trimmed round-robin first, then the paper is cut in the middle, and the record says by how much")
	fl.IntVar(&c.ContextWindow, "context-window", run.DefaultContextWindow, "the model's context window in tokens: a question whose prompt and answer would pass it fails with a message instead of being cut")
	fl.IntVar(&f.req.maxTokens, "max-tokens", 0, "answer tokens, sent as max_tokens (default from the paper: ElaipBench base 32, cot and reasoning 4096 (A.5), reasoning sent as max_completion_tokens; LPFQA 2048, cot 4096, reasoning 16384)")
	fl.StringVar(&c.CoTPrompt, "cot-prompt", run.CoTPaper, "--paradigm cot prompt: paper (the base prompt plus \"Let's think step by step.\", ElaipBench A.5) or answer-line (reason, then a final \"Answer: X\" line; a departure)")
	fl.BoolVar(&c.SharePrompts, "share-identical-prompts", false, "let modes whose prompts are byte-identical share one answer (a departure: by default every mode makes its own call)")
	fl.BoolVar(&c.ExtractFromReasoning, "extract-from-reasoning", false, "score an empty answer on the letters in the model's reasoning text (a departure: by default an empty answer is a miss)")
	fl.StringVar(&c.LPFQAMCQ, "lpfqa-mcq", protocol.MCQJudged, "LPFQA multiple-choice rows: judge (every row judged, as LPFQA §4) or extract (letters extracted from the reply; a departure)")
	addRequestFlags(cmd, "", &c.Sampling, &f.req)
	addRequestFlags(cmd, "judge-", &c.Judge, &f.judgeReq)
	fl.StringVar(&f.price, "price", "", "US$ per million tokens, in=X,out=Y[,cached=Z]: adds cost_usd per mode to the summary")
	fl.StringVar(&c.Order, "order", "score", "order of retrieved passages in the prompt: score (best first) or document")
	addExcludeKinds(cmd, &c.ExcludeKinds)
	fl.StringVar(&c.QueryForm, "query", "full", "retrieval query: full (the question as the dataset stores it, stem + options: ElaipBench's), stem, or options (stem and each option, fused)")
	fl.StringVar(&c.JudgeModel, "judge-model", "", "LPFQA judge model for short answers (without it they get ROUGE-L, reported apart from accuracy)")
	fl.StringVar(&c.JudgeURL, "judge-base-url", "", "judge API root (default: --base-url)")
	fl.StringVar(&f.judgeKeyEnv, "judge-api-key-env", "", "environment variable holding the judge's key (default: --api-key-env)")
	fl.StringVar(&c.PromptDir, "prompt-dir", "", "folder of prompt templates overriding the built-in ones (see eval/prompts/templates)")
	fl.StringVar(&c.Out, "out", "", "run folder (default runs/<bench>-<model>-<paradigm>); rerunning with the same folder resumes")
	fl.Int64Var(&c.Seed, "seed", 1, "seed for the random baseline and the bootstrap; when given, also sent to the model as seed")
	fl.Float64Var(&c.IRThreshold, "ir-threshold", 0.9, "ir baseline: for MA-MCQ, options scoring at least this share of the best are chosen too")
	fl.IntVar(&c.RPM, "rpm", 0, "requests per minute limit (0: none)")
	fl.IntVar(&c.TPM, "tpm", 0, "tokens per minute limit (0: none)")
	fl.StringVar(&c.Fields, "fields", "", "LPFQA field names, e.g. id=prompt_id,prompt=prompt,reference=response_reference")
	addPassageTokens(cmd, &c.MaxPassageTokens, "max-passage-tokens")
	fl.DurationVar(&f.attemptTimeout, "attempt-timeout", 10*time.Minute, "give up on one API call after this long and retry")
	fl.IntVar(&f.maxAttempts, "max-attempts", 6, "tries per API call before the question is recorded with an error")
	fl.Int64Var(&f.maxReplyBytes, "max-reply-bytes", model.DefaultMaxReplyBytes,
		"read at most this many bytes of a model's reply: a longer one (a model repeating itself) is cut while read, scored on what came before the cut, and its record says reply_cut")
	fl.DurationVar(&f.readIdleTimeout, "read-idle-timeout", model.DefaultReadIdleTimeout,
		"give up on a reply whose body has begun and then sent nothing for this long, and retry. Counted from the reply's headers, not before them: a reasoning model may think for minutes before its first byte, which --attempt-timeout bounds. 0: off")
	fl.StringVar(&c.WebProvider, "web-provider", "corpus", "web modes: google, searxng, brave, or corpus (offline: the indexed corpus minus the question's own paper)")
	fl.StringVar(&f.searxngURL, "searxng-url", "", "SearXNG base URL for --web-provider searxng (default $SEARXNG_URL)")
	fl.IntVar(&c.WebResults, "web-results", 5, "usable web results kept per question, after leaving out the paper itself and failed pages (ElaipBench: 5)")
	fl.IntVar(&c.WebTokens, "web-tokens", 1024, "tokens kept of each web page")
	fl.StringVar(&f.webCache, "web-cache", "", "where search responses and pages are stored (default RUN/web-cache)")
	fl.BoolVar(&c.WebReplay, "web-replay", false, "answer web modes strictly from --web-cache, with no network")
	fl.BoolVar(&f.allowPrivate, "allow-private-hosts", false, "let the fetcher reach private, loopback and link-local addresses (tests, intranets)")
	fl.StringVar(&c.WebQuery, "web-query", "", "web query: question+title (ElaipBench default) or question (LPFQA default)")
	fl.BoolVar(&f.asJSON, "json", false, "print summary.json to stdout (with --dry-run: the plan)")
	fl.BoolVar(&c.LogPrompts, "log-prompts", false, "keep every prompt exactly as sent (deduplicated, compressed) in RUN/prompts.db; 'paperlens prompt RUN QUESTION' shows it")
	fl.IntVar(&c.MaxToolCalls, "max-tool-calls", 0, "tool modes: tool calls per question before a last turn forces the answer (default 10)")
	fl.StringVar(&c.ToolRetriever, "tool-retriever", "", "agent, full+agent: how search_paper ranks the paper's passages: bm25 (default), dense or hybrid")
	// Issue 16 (h-route): neighbour expansion and self-route's retriever.
	fl.IntVar(&c.Expand, "expand", 0, "RAG modes: add the N passages before and after each retrieved one (same paper), merged where they touch; 0: none")
	fl.StringVar(&c.RouteRetriever, "route-retriever", "", "self-route: the retriever of its first call: bm25 (default), dense or hybrid")
	fl.BoolVar(&c.UnsafePython, "unsafe-python", false, "tool-python: run python3 without the bubblewrap sandbox when bubblewrap is missing (no isolation)")
	addToolLimitFlags(fl, c)
	fl.IntVar(&c.Limit, "limit", 0, "evaluate only the first N questions of the file (0: all); for trying a setup before paying for it")
	fl.BoolVar(&f.dryRun, "dry-run", false, "assemble every prompt and print the calls, prompt tokens (cl100k_base) and, with --price, the cost; send nothing")
	fl.IntVar(&c.StopAfter, "stop-after-failures", run.DefaultStopAfter, "stop the run when this many model calls in a row failed the same way (negative: never)")
	fl.DurationVar(&f.progressEvery, "progress-every", 10*time.Second, "on a non-terminal stderr, print a progress line at least this often")
	addIndexFlags(cmd, &f.index)
	addRerankFlags(cmd, &f.rerank)
}

func newEvalModelCmd() *cobra.Command {
	var f evalFlags
	cmd := &cobra.Command{
		Use:   "eval --bench elaipbench|lpfqa|jsonl --data FILE --model NAME [flags]",
		Short: "Evaluate a model on a benchmark in every mode, with repeats, exact scoring and a RAG-effect report",
		Long: `eval asks a model (any OpenAI-compatible chat API: OpenAI, vLLM, Ollama,
llama.cpp, DeepSeek) every question in every mode, --runs times, and scores
the answers exactly.

Modes:
  closed-book             question only
  full                    the whole paper in context (ElaipBench's base setting)
  bm25, dense, hybrid     top-k retrieved passages only (classic RAG)
  full+bm25, full+dense,  the paper plus retrieved passages as auxiliary
  full+hybrid             knowledge (ElaipBench's RAG setting)
  oracle                  the gold evidence only: the ceiling for retrieval
  web, full+web           web results pasted in (question or paper + results)
  agent                   the question, and a search_paper tool the model calls
  full+agent              the paper, and the search_paper tool
  tool-search             web_search + open_page tools (LPFQA's Search setting)
  tool-python             a sandboxed python tool (LPFQA's code interpreter)
  self-route              retrieved passages, told to reply "unanswerable" when
                          they do not suffice; then the whole paper (Self-Route)

The run folder (--out) holds config.json (everything needed to rerun, no
secrets), results.jsonl (one record per question, mode and run, appended as
each finishes), summary.json and summary.md (accuracy by mode and question
type, and each mode against the baseline: difference, 95% bootstrap interval,
McNemar p, evidence recall). A killed run loses nothing: rerun the same
command and only the unfinished questions are asked; calls that finished are
served from the response cache in the run folder.

Protocol: the defaults are the papers' settings (ElaipBench A.5, A.7;
LPFQA §4), and summary.json, summary.md, the report and the inspector list
every setting that departs from the paper and why.

Reasoning models: --paradigm reasoning sends temperature 0.1 and 4,096
answer tokens as ElaipBench A.5 did, the length as max_completion_tokens as
OpenAI's o-series and GPT-5 require. A server that refuses a paper setting
(o-series refuse temperature) is found by the preflight call: the run
leaves that field out and records the departure. --reasoning-effort,
--extra-body (e.g. Qwen3's chat_template_kwargs) and --header cover the
rest, and --judge-* set the judge's fields. A 400 naming a field you gave
stops the run with the flag to change. --price in=X,out=Y adds the cost per
mode to the summary.

Accuracy counts every question, a question that ended in an error as
wrong; the error count and the accuracy over answered questions stand
beside it.

--model random and --model ir are offline baselines that need no key.`,
		Example: `  paperlens eval --bench elaipbench --data testdata/elaipbench/sample.jsonl --model ir
  OPENAI_API_KEY=... paperlens eval --bench elaipbench --data elabench.jsonl --model gpt-4o --mode full,full+bm25 --runs 3
  paperlens eval --bench elaipbench --data elabench.jsonl --base-url http://localhost:8000/v1 --model Qwen/Qwen3-8B --paradigm reasoning --max-tokens 16384
  paperlens eval --bench elaipbench --data elabench.jsonl --base-url http://localhost:8000/v1 --model Qwen/Qwen3-8B --extra-body '{"chat_template_kwargs":{"enable_thinking":false}}'
  paperlens eval --bench elaipbench --data elabench.jsonl --model o4-mini --paradigm reasoning --reasoning-effort high --price in=1.1,out=4.4`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			res, plan, err := runEval(ctx, homeDir(cmd), &f, cmd.Flags().Changed, stderr)
			if plan != nil {
				return printPlan(os.Stdout, *plan, f.asJSON)
			}
			var stopped *run.BreakerError
			if err != nil && !errors.As(err, &stopped) {
				return err
			}
			if f.asJSON {
				b, _ := run.Dir(res.Dir).SummaryJSON()
				os.Stdout.Write(b)
			} else {
				b, _ := run.Dir(res.Dir).SummaryMarkdown()
				os.Stdout.Write(b)
				fmt.Fprintf(stderr, "\n%d records written, %d resumed; run folder %s\n", res.Done, res.Resumed, res.Dir)
			}
			return failedRecords(res, err)
		},
	}
	addEvalFlags(cmd, &f)
	return cmd
}

// loadQuestions reads a benchmark file in the named format, printing
// problems with their line numbers.
func loadQuestions(c run.Config, logw io.Writer) ([]bench.Question, error) {
	qs, problems, err := run.LoadQuestions(c)
	for _, p := range problems {
		fmt.Fprintf(logw, "%s:%s\n", c.Data, p)
	}
	return qs, err
}

// runEval wires benchmark, corpus, indexes and model, then runs. With
// --dry-run it returns the plan instead and sends nothing.
func runEval(ctx context.Context, home string, f *evalFlags, changed func(string) bool, logw io.Writer) (run.Result, *run.Plan, error) {
	c := f.cfg
	c.Home = home
	c.APIKeyEnv = f.apiKeyEnv
	c.Modes = splitList(f.modes)
	// The scorer behind bm25, recorded in config.json (the index flags
	// own --bm25).
	c.BM25 = f.index.BM25()
	if err := f.applyRequest(&c, changed); err != nil {
		return run.Result{}, nil, err
	}
	if c.Out == "" {
		c.Out = filepath.Join("runs", fmt.Sprintf("%s-%s-%s", c.Bench, strings.NewReplacer("/", "_", ":", "_").Replace(c.Model), c.Paradigm))
	}
	if c.BaseURL == "" {
		c.BaseURL = os.Getenv("OPENAI_BASE_URL")
	}
	if err := f.rerank.apply(&c); err != nil {
		return run.Result{}, nil, err
	}
	if err := c.Validate(); err != nil {
		return run.Result{}, nil, err
	}
	if err := describeRun(&c, os.Args[1:]); err != nil {
		return run.Result{}, nil, err
	}
	if !c.Offline() && !f.dryRun {
		if err := checkKey(c.BaseURL, f.apiKeyEnv, "", logw); err != nil {
			return run.Result{}, nil, err
		}
	}
	qs, err := loadQuestions(c, logw)
	if err != nil {
		return run.Result{}, nil, err
	}
	if c.Limit > 0 && len(qs) > c.Limit {
		qs = qs[:c.Limit]
	}
	opt := run.Options{Config: c, Questions: qs, Log: logw, Header: f.header, JudgeHeader: f.judgeHeader}
	// (opt.Config is refreshed below whenever c gains a field.)

	needCorpus, needIndex, needWeb := c.Model == "ir", c.Model == "ir", false
	needWebTools := false
	for _, name := range c.Modes {
		m, _ := mode.Lookup(name) // c.Validate checked the names
		// The corpus web provider searches the indexed corpus.
		webIndex := m.Web && c.WebProvider == "corpus"
		// tool-search's tools call the engine themselves (newWebTools).
		needWeb = needWeb || m.Web
		needWebTools = needWebTools || m.HasTool(mode.ToolWebSearch)
		needIndex = needIndex || m.NeedsIndex() || webIndex
		needCorpus = needCorpus || m.NeedsPaper() || m.NeedsIndex() || webIndex
	}
	if needCorpus {
		qs, err = ensurePapers(ctx, c.Home, c.Data, c.Papers, c.MaxPassageTokens, qs)
		if err != nil {
			return run.Result{}, nil, err
		}
		opt.Questions = qs
		if needIndex {
			st, ix, rep, err := openIndex(ctx, c.Home, &f.index, false)
			if err != nil {
				return run.Result{}, nil, err
			}
			defer st.Close()
			defer ix.Close()
			opt.Corpus, opt.Index = st, ix
			c.Embedder, c.VectorDim = rep.Embedder, rep.Dim
			opt.Config = c
		} else {
			st, err := corpus.Open(c.Home, true)
			if err != nil {
				return run.Result{}, nil, err
			}
			defer st.Close()
			opt.Corpus = st
		}
	}
	// A dry run fetches web results only where that costs nothing: the
	// offline corpus provider and replay from the web cache.
	if needWeb && (!f.dryRun || c.WebProvider == "corpus" || c.WebReplay) {
		ws, closer, err := newWebSearch(c, f, opt)
		if err != nil {
			return run.Result{}, nil, err
		}
		if closer != nil {
			defer closer.Close()
		}
		opt.Web = ws
	}
	if needWebTools && !f.dryRun && !c.Offline() {
		wt, closer, err := newWebTools(c, f, opt.Corpus)
		if err != nil {
			return run.Result{}, nil, err
		}
		if closer != nil {
			defer closer.Close()
		}
		opt.WebTools = wt
	}
	if f.dryRun {
		f.rerank.dryRunNote(c, logw)
		p, err := run.DryRun(ctx, opt)
		if err != nil {
			return run.Result{}, nil, err
		}
		return run.Result{Dir: c.Out}, &p, nil
	}
	// The folder's writer lock comes first: the response cache inside it
	// would otherwise report a second eval as a busy cache file.
	unlock, err := run.Dir(c.Out).Lock()
	if err != nil {
		return run.Result{}, nil, err
	}
	defer unlock()
	opt.FolderLocked = true
	// Every model call of the run (answers, judge, reranker, preflight)
	// is counted for the progress line.
	f.flights = &model.Flights{}
	// One cheap call per endpoint before the first real one (run.Run makes
	// it only when there is work left, so a finished run sends nothing).
	var checks []func(context.Context, run.Sampling) error
	if !c.Offline() {
		chat, closer, err := newChat(c.Out, c.BaseURL, os.Getenv(f.apiKeyEnv), f, c.Concurrency)
		if err != nil {
			return run.Result{}, nil, err
		}
		defer closer.Close()
		opt.Chat = chat
		// The run passes its request fields, less any paper setting a
		// refusal made it leave out.
		checks = append(checks, func(ctx context.Context, s run.Sampling) error {
			return preflight(ctx, c.BaseURL, os.Getenv(f.apiKeyEnv), f.apiKeyEnv, c.Model, s, f.header, "", f)
		})
	}
	rr, rrCloser, err := f.rerank.forRun(c, opt.Chat, c.Out, f, logw)
	if err != nil {
		return run.Result{}, nil, err
	}
	defer rrCloser.Close()
	opt.Rerank = rr
	if p, ok := rr.(interface{ Probe(context.Context) error }); ok {
		checks = append(checks, func(ctx context.Context, _ run.Sampling) error { return p.Probe(ctx) })
	}
	if c.JudgeModel != "" {
		base := c.JudgeURL
		if base == "" {
			base = c.BaseURL
		}
		keyEnv := f.judgeKeyEnv
		if keyEnv == "" {
			keyEnv = f.apiKeyEnv
		}
		if err := checkKey(base, keyEnv, "judge-", logw); err != nil {
			return run.Result{}, nil, err
		}
		judge, closer, err := newChat(filepath.Join(c.Out, "judge"), base, os.Getenv(keyEnv), f, c.Concurrency)
		if err != nil {
			return run.Result{}, nil, err
		}
		defer closer.Close()
		opt.Judge = judge
		checks = append(checks, func(ctx context.Context, _ run.Sampling) error {
			return preflight(ctx, base, os.Getenv(keyEnv), keyEnv, c.JudgeModel, c.Judge, f.judgeHeader, "judge-", f)
		})
	}
	opt.Preflight = func(ctx context.Context, s run.Sampling) error {
		for _, check := range checks {
			if err := check(ctx, s); err != nil {
				return err
			}
		}
		return nil
	}
	rep := progress.NewEval(os.Stderr, isatty.IsTerminal(os.Stderr.Fd()), f.progressEvery)
	rep.Watch(f.flights.InFlight)
	opt.Progress = rep.Update
	res, err := run.Run(ctx, opt)
	rep.Close()
	return res, nil, err
}

// checkKey says when the key variable is empty: an error for OpenAI's own
// API, which always needs one, a note otherwise (local servers need none).
func checkKey(baseURL, keyEnv, prefix string, logw io.Writer) error {
	if os.Getenv(keyEnv) != "" {
		return nil
	}
	if baseURL == "" || strings.Contains(strings.ToLower(model.NormalizeEndpoint(baseURL)), "api.openai.com") {
		return fmt.Errorf("$%s is empty and the %sbase URL is OpenAI's API, which needs a key: export %s=..., or pass --%sapi-key-env NAME, or --%sbase-url for a local server",
			keyEnv, prefix, keyEnv, prefix, prefix)
	}
	fmt.Fprintf(logw, "note: $%s is empty, so no API key is sent to %s (fine for a local server; set it or --%sapi-key-env otherwise)\n",
		keyEnv, model.NormalizeEndpoint(baseURL), prefix)
	return nil
}

// preflight makes one small call before the run, through a client of its
// own (no cache, two attempts), so that a dead endpoint, a rejected key, an
// unknown model or a refused request field stops the run before anything is
// written.
func preflight(ctx context.Context, baseURL, key, keyEnv, modelName string, s run.Sampling, header http.Header, prefix string, f *evalFlags) error {
	o, err := f.modelOptions(baseURL, key, "$"+keyEnv)
	if err != nil {
		return err
	}
	base, err := model.NewOpenAI(o)
	if err != nil {
		return err
	}
	chat := model.WithRetry(model.WithFlights(base, f.flights), model.RetryOptions{MaxAttempts: 2, MinBackoff: 200 * time.Millisecond, MaxBackoff: time.Second, AttemptTimeout: f.attemptTimeout})
	return run.Preflight(ctx, chat, modelName, s, header, prefix)
}

// applyRequest fills c's request fields from the flags and the paper's
// defaults, and keeps the header values in f (never in c).
func (f *evalFlags) applyRequest(c *run.Config, changed func(string) bool) error {
	var err error
	var o run.Overrides
	if o.Answer, f.header, err = f.req.apply(&c.Sampling, changed, c.Seed); err != nil {
		return err
	}
	if o.Judge, f.judgeHeader, err = f.judgeReq.apply(&c.Judge, changed, 0); err != nil {
		return err
	}
	if c.Price, err = run.ParsePrice(f.price); err != nil {
		return err
	}
	if c.ExcludeKinds, err = run.ParseExcludeKinds(c.ExcludeKinds); err != nil {
		return err
	}
	c.FlagsSet = flagsSet(changed)
	c.Defaults(&o)
	return nil
}

// newChat stacks the model client: response cache (in the run folder) →
// retry with backoff → rate limit → concurrency gate → HTTP.
func newChat(dir, baseURL, key string, f *evalFlags, concurrency int) (model.Chat, io.Closer, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	o, err := f.modelOptions(baseURL, key, f.apiKeyEnv)
	if err != nil {
		return nil, nil, err
	}
	base, err := model.NewOpenAI(o)
	if err != nil {
		return nil, nil, err
	}
	return model.Stack(base, model.StackOptions{
		CachePath: filepath.Join(dir, "cache.db"), Endpoint: baseURL,
		Retry: model.RetryOptions{MaxAttempts: f.maxAttempts, AttemptTimeout: f.attemptTimeout},
		RPM:   f.cfg.RPM, TPM: f.cfg.TPM, Concurrency: concurrency, Flights: f.flights,
	})
}

// modelOptions are the answer model's client options from the flags.
func (f *evalFlags) modelOptions(baseURL, key, keyEnv string) (model.Options, error) {
	if f.maxReplyBytes <= 0 {
		return model.Options{}, fmt.Errorf("--max-reply-bytes %d: give a positive number of bytes (default %d, 4 MiB)", f.maxReplyBytes, model.DefaultMaxReplyBytes)
	}
	if f.readIdleTimeout < 0 {
		return model.Options{}, fmt.Errorf("--read-idle-timeout %v: give a duration such as 60s, or 0 for none", f.readIdleTimeout)
	}
	idle := f.readIdleTimeout
	if idle == 0 {
		idle = -1 // the flag's 0 is off; model.Options' 0 is the default
	}
	return model.Options{BaseURL: baseURL, APIKey: key, APIKeyEnv: keyEnv, Timeout: f.attemptTimeout,
		MaxReplyBytes: f.maxReplyBytes, ReadIdleTimeout: idle}, nil
}

// printPlan prints a dry run's plan: a table, or with --json the plan.
func printPlan(w io.Writer, p run.Plan, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(p)
	}
	fmt.Fprintf(w, "Dry run: nothing sent.\n\n%d model calls (%d records already finished), %d prompt tokens (cl100k_base), answers at most %d tokens\n",
		p.Calls, p.Resumed, p.PromptTokens, p.CompletionTokensMax)
	if len(p.ToolModes) > 0 {
		fmt.Fprintf(w, "%s: the model decides how many tools to call; those counts are the first turns. At most %d calls and %d prompt tokens with --max-tool-calls used up and every result at its largest\n",
			strings.Join(p.ToolModes, ", "), p.CallsMax, p.PromptTokensMax)
	}
	if p.JudgeCalls > 0 {
		fmt.Fprintf(w, "plus up to %d judge calls (their prompts hold the answers, so they are not counted)\n", p.JudgeCalls)
	}
	if p.CostUSD != nil {
		fmt.Fprintf(w, "cost: US$ %.2f for the prompts, at most US$ %.2f with every answer at full length\n", *p.PromptCostUSD, *p.CostUSD)
	}
	if p.PythonSandbox != nil {
		fmt.Fprintf(w, "python tool: %s\n", p.PythonSandbox.Guarantee)
	}
	fmt.Fprintln(w)
	for _, m := range slices.Sorted(maps.Keys(p.ByMode)) {
		x := p.ByMode[m]
		fmt.Fprintf(w, "  %-12s %6d calls  %12d prompt tokens", m, x.Calls, x.PromptTokens)
		if x.CallsMax != x.Calls {
			fmt.Fprintf(w, "  (at most %d calls, %d tokens)", x.CallsMax, x.PromptTokensMax)
		}
		fmt.Fprintln(w)
	}
	if len(p.Estimated) > 0 {
		fmt.Fprintf(w, "\n%s: web results are not fetched in a dry run; counted as %s full results\n", strings.Join(p.Estimated, ", "), "--web-results ×  --web-tokens")
	}
	for i, pr := range p.Problems {
		if i == 10 {
			fmt.Fprintf(w, "… and %d more questions whose prompt cannot be built\n", len(p.Problems)-10)
			break
		}
		fmt.Fprintf(w, "cannot build: %s\n", pr)
	}
	return nil
}

// failedRecords maps a finished (or breaker-stopped) run to the exit
// status: 0 when every record is error-free, 1 when some ended in an error,
// with how many and why.
func failedRecords(res run.Result, stopErr error) error {
	n := res.Failed()
	if n == 0 && stopErr == nil {
		return nil
	}
	var b strings.Builder
	if stopErr != nil {
		b.WriteString(stopErr.Error())
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%d record(s) ended in an error and count as wrong in accuracy; rerun the same command to retry them.", n)
	for i, e := range res.Errors {
		if i == 3 {
			fmt.Fprintf(&b, "\n  … %d more kinds", len(res.Errors)-3)
			break
		}
		msg := e.Error
		if r := []rune(msg); len(r) > 240 {
			msg = string(r[:240]) + "…"
		}
		fmt.Fprintf(&b, "\n  %d× %s", e.N, msg)
	}
	return &exitError{code: 1, msg: b.String()}
}
