package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/protocol"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/model"
)

// evalOptions are the flags of `paperlens eval` (fixed names: scripts use
// them), which study and ask share.
type evalOptions struct {
	cfg           run.Config
	modes         string
	req, judgeReq requestFlags
	judgeKeyEnv   string
	price         string
	asJSON        bool
	dryRun        bool
	progressEvery time.Duration
	clients       session.Clients
	web           session.Web
	index         indexFlags
	rerank        session.Rerank
}

func addEvalFlags(cmd *cobra.Command, f *evalOptions) {
	fl := cmd.Flags()
	c := &f.cfg
	fl.StringVar(&c.Bench, "bench", "elaipbench", "benchmark format: elaipbench, lpfqa or jsonl")
	fl.StringVar(&c.Data, "data", "", "benchmark file (.jsonl, .json or .parquet)")
	fl.StringVar(&c.Papers, "papers", "", "folder of the papers as PDFs named by paper_id, parsed instead of paper_content")
	fl.StringVar(&c.Model, "model", "", "model name served at --base-url; random or ir for the offline baselines")
	fl.StringVar(&c.BaseURL, "base-url", "", "OpenAI-compatible API root, e.g. http://localhost:8000/v1 (default $OPENAI_BASE_URL, else https://api.openai.com/v1)")
	fl.StringVar(&c.APIKeyEnv, "api-key-env", "OPENAI_API_KEY", "environment variable holding the API key (never written anywhere)")
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
	fl.DurationVar(&f.clients.AttemptTimeout, "attempt-timeout", 10*time.Minute, "give up on one API call after this long and retry")
	fl.IntVar(&f.clients.MaxAttempts, "max-attempts", 6, "tries per API call before the question is recorded with an error")
	fl.Int64Var(&f.clients.MaxReplyBytes, "max-reply-bytes", model.DefaultMaxReplyBytes,
		"read at most this many bytes of a model's reply: a longer one (a model repeating itself) is cut while read, scored on what came before the cut, and its record says reply_cut")
	fl.DurationVar(&f.clients.ReadIdleTimeout, "read-idle-timeout", model.DefaultReadIdleTimeout,
		"give up on a reply whose body has begun and then sent nothing for this long, and retry. Counted from the reply's headers, not before them: a reasoning model may think for minutes before its first byte, which --attempt-timeout bounds. 0: off")
	fl.StringVar(&c.WebProvider, "web-provider", "corpus", "web modes: google, searxng, brave, or corpus (offline: the indexed corpus minus the question's own paper)")
	fl.StringVar(&f.web.SearXNGURL, "searxng-url", "", "SearXNG base URL for --web-provider searxng (default $SEARXNG_URL)")
	fl.IntVar(&c.WebResults, "web-results", 5, "usable web results kept per question, after leaving out the paper itself and failed pages (ElaipBench: 5)")
	fl.IntVar(&c.WebTokens, "web-tokens", 1024, "tokens kept of each web page")
	fl.StringVar(&f.web.Cache, "web-cache", "", "where search responses and pages are stored (default RUN/web-cache)")
	fl.BoolVar(&c.WebReplay, "web-replay", false, "answer web modes strictly from --web-cache, with no network")
	fl.BoolVar(&f.web.AllowPrivate, "allow-private-hosts", false, "let the fetcher reach private, loopback and link-local addresses (tests, intranets)")
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

func newEvalModelCmd(g *globalOptions) *cobra.Command {
	var f evalOptions
	cmd := &cobra.Command{
		Use:     "eval --bench elaipbench|lpfqa|jsonl --data FILE --model NAME [flags]",
		Short:   "Evaluate a model on a benchmark in every mode, with repeats, exact scoring and a RAG-effect report",
		Long:    helpText("eval"),
		Example: helpText("eval.example"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			req, err := f.request(g, cmd.Flags().Changed)
			if err != nil {
				return err
			}
			return runEval(cmd.Context(), g, &f, req)
		},
	}
	addEvalFlags(cmd, &f)
	return cmd
}

// request maps the eval flags to a session request: the request flags
// the user gave become overrides and flags_set (the protocol fills the
// rest), the client settings stay out of the config.
func (f *evalOptions) request(g *globalOptions, changed func(string) bool) (session.Request, error) {
	c := f.cfg
	c.Home = g.homeDir()
	c.Modes = splitList(f.modes)
	var o run.Overrides
	var header, judgeHeader http.Header
	var err error
	if o.Answer, header, err = f.req.apply(&c.Sampling, changed, c.Seed); err != nil {
		return session.Request{}, err
	}
	if o.Judge, judgeHeader, err = f.judgeReq.apply(&c.Judge, changed, 0); err != nil {
		return session.Request{}, err
	}
	if c.Price, err = run.ParsePrice(f.price); err != nil {
		return session.Request{}, err
	}
	if c.ExcludeKinds, err = run.ParseExcludeKinds(c.ExcludeKinds); err != nil {
		return session.Request{}, err
	}
	c.FlagsSet = flagsSet(changed)
	cl := f.clients
	if cl.MaxReplyBytes <= 0 {
		return session.Request{}, fmt.Errorf("--max-reply-bytes %d: give a positive number of bytes (default %d, 4 MiB)", cl.MaxReplyBytes, model.DefaultMaxReplyBytes)
	}
	if cl.ReadIdleTimeout < 0 {
		return session.Request{}, fmt.Errorf("--read-idle-timeout %v: give a duration such as 60s, or 0 for none", cl.ReadIdleTimeout)
	}
	cl.JudgeKeyEnv, cl.Header, cl.JudgeHeader = f.judgeKeyEnv, header, judgeHeader
	web := f.web
	web.DocTimeout = g.iso.timeout
	return session.Request{
		Config: c, Overrides: o, Command: commandLine(g.args), Clients: cl,
		Index: f.index.spec(g), Rerank: f.rerank, Web: web, Isolation: g.isolation,
		Env: g.env, Log: g.errOut, DryRun: f.dryRun,
		Progress: session.Progress{W: g.stderr, Terminal: g.stderrTTY, Every: f.progressEvery},
	}, nil
}

// runEval evaluates, then prints the summary (or the plan of a dry run)
// and maps the records that failed to the exit status.
func runEval(ctx context.Context, g *globalOptions, f *evalOptions, req session.Request) error {
	res, plan, err := session.Eval(ctx, req)
	if plan != nil {
		return run.WritePlan(g.stdout, *plan, f.asJSON)
	}
	var stopped *run.BreakerError
	if err != nil && !errors.As(err, &stopped) {
		return err
	}
	if f.asJSON {
		b, _ := run.Dir(res.Dir).SummaryJSON()
		g.stdout.Write(b)
	} else {
		b, _ := run.Dir(res.Dir).SummaryMarkdown()
		g.stdout.Write(b)
		fmt.Fprintf(g.errOut, "\n%d records written, %d resumed; run folder %s\n", res.Done, res.Resumed, res.Dir)
	}
	if msg := res.Failures(err); msg != "" {
		return &exitError{code: 1, msg: msg}
	}
	return nil
}
