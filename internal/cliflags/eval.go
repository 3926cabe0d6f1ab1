package cliflags

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/eval/agent/python"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/protocol"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/eval/study"
	"github.com/paperlens/paperlens/ingest"
)

// Eval is the flag set of `paperlens eval`, which study and ask share.
type Eval struct {
	// Config is the run as the flags give it; Request completes it.
	Config run.Config
	Modes  string // --mode, comma-separated
	JSON   bool   // --json
	Index  Index

	// Retrieved are the run files of --retrieved NAME=FILE (eval and
	// study: see AddRetrieved).
	Retrieved map[string]string

	req, judgeReq requestFlags
	judgeKeyEnv   string
	price         string
	dryRun        bool
	progressEvery time.Duration
	clients       session.Clients
	web           session.Web
	rerank        session.Rerank
	// rerun is --config RUN/config.json (eval: see AddConfig), fl the
	// flag set Add declared on, whose flags a rerun sets again over the
	// recorded values.
	rerun string
	fl    *pflag.FlagSet
	// compose is --compose (eval: see AddCompose).
	compose string
}

// Invocation is what a request takes from the process that runs the
// command, passed in by the caller rather than read here.
type Invocation struct {
	Home string            // the corpus home, --home resolved
	Args []string          // the command line after the program name
	Env  map[string]string // overrides of the process's environment; nil: none
	// Isolation is how papers and fetched pages are parsed; DocTimeout
	// bounds parsing one fetched page.
	Isolation  *ingest.Isolation
	DocTimeout time.Duration
	Log        io.Writer // notes and per-question errors, escaped for a terminal
	// Progress receives the progress lines (or bar, when Terminal).
	Progress io.Writer
	Terminal bool
}

// Add declares eval's flags. The rerank flags are among them: their
// longer help is the caller's to append (see AddRerank).
func (f *Eval) Add(fl *pflag.FlagSet) {
	f.fl = fl
	c := &f.Config
	fl.StringVar(&c.Bench, "bench", "elaipbench", "benchmark format: elaipbench, lpfqa or jsonl")
	fl.StringVar(&c.Data, "data", "", "benchmark file (.jsonl, .json or .parquet)")
	fl.StringVar(&c.Papers, "papers", "", "folder of the papers as PDFs named by paper_id, parsed instead of paper_content")
	fl.StringVar(&c.Model, "model", "", "model name served at --base-url; random or ir for the offline baselines")
	fl.StringVar(&c.BaseURL, "base-url", "", "OpenAI-compatible API root, e.g. http://localhost:8000/v1 (default $OPENAI_BASE_URL, else https://api.openai.com/v1)")
	fl.StringVar(&c.APIKeyEnv, "api-key-env", "OPENAI_API_KEY", "environment variable holding the API key (never written anywhere)")
	fl.StringVar(&f.Modes, "mode", "", modeUsage("default: "+evalModes+"; LPFQA: "+lpfqaModes))
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
	addRequestFlags(fl, "", &c.Sampling, &f.req)
	addJudgeFlags(fl, judgeTargets{&c.JudgeModel, &c.JudgeURL, &f.judgeKeyEnv, &c.Judge, &f.judgeReq},
		judgeHelp{"LPFQA judge model for short answers (without it they get ROUGE-L, reported apart from accuracy)", "--base-url", "--api-key-env"})
	fl.StringVar(&f.price, "price", "", "US$ per million tokens, in=X,out=Y[,cached=Z]: adds cost_usd per mode to the summary")
	fl.StringVar(&c.Order, "order", "score", "order of retrieved passages in the prompt: score (best first) or document")
	AddExcludeKinds(fl, &c.ExcludeKinds)
	fl.StringVar(&c.QueryForm, "query", "full", "retrieval query: full (the question as the dataset stores it, stem + options: ElaipBench's), stem, or options (stem and each option, fused)")
	fl.StringVar(&c.PromptDir, "prompt-dir", "", "folder of prompt templates overriding the built-in ones (see eval/prompts/templates)")
	fl.StringVar(&c.Out, "out", "", "run folder (default "+evalOut+"); rerunning with the same folder resumes")
	fl.Int64Var(&c.Seed, "seed", 1, "seed for the random baseline and the bootstrap; when given, also sent to the model as seed")
	fl.Float64Var(&c.IRThreshold, "ir-threshold", 0.9, "ir baseline: for MA-MCQ, options scoring at least this share of the best are chosen too")
	fl.IntVar(&c.RPM, "rpm", 0, "requests per minute limit (0: none)")
	fl.IntVar(&c.TPM, "tpm", 0, "tokens per minute limit (0: none)")
	fl.StringVar(&c.Fields, "fields", "", "LPFQA field names, e.g. id=prompt_id,prompt=prompt,reference=response_reference")
	AddPassageTokens(fl, &c.MaxPassageTokens, "max-passage-tokens")
	addClientFlags(fl, &f.clients)
	fl.StringVar(&c.WebProvider, "web-provider", "corpus", "web modes: google, searxng, brave, or corpus (offline: the indexed corpus minus the question's own paper)")
	fl.StringVar(&f.web.SearXNGURL, "searxng-url", "", "SearXNG base URL for --web-provider searxng (default $SEARXNG_URL)")
	fl.IntVar(&c.WebResults, "web-results", 5, "usable web results kept per question, after leaving out the paper itself and failed pages (ElaipBench: 5)")
	fl.IntVar(&c.WebTokens, "web-tokens", 1024, "tokens kept of each web page")
	fl.StringVar(&f.web.Cache, "web-cache", "", "where search responses and pages are stored (default RUN/web-cache)")
	fl.BoolVar(&c.WebReplay, "web-replay", false, "answer web modes strictly from --web-cache, with no network")
	fl.BoolVar(&f.web.AllowPrivate, "allow-private-hosts", false, "let the fetcher reach private, loopback and link-local addresses (tests, intranets)")
	fl.StringVar(&c.WebQuery, "web-query", "", "web query: question+title (ElaipBench default) or question (LPFQA default)")
	fl.BoolVar(&f.JSON, "json", false, "print summary.json to stdout (with --dry-run: the plan)")
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
	f.Index.Add(fl)
	AddRerank(fl, &f.rerank)
}

// addToolLimitFlags registers the python session's limits.
func addToolLimitFlags(fl *pflag.FlagSet, c *run.Config) {
	fl.Var(toolMemory(&c.ToolMemory), "tool-memory",
		"tool-python: memory of one question's Python session as a whole, every process it starts and its files included (e.g. 512MiB, 2GiB); 'eval --dry-run' says how this machine enforces it")
	fl.IntVar(&c.ToolProcesses, "tool-processes", python.DefaultProcesses,
		"tool-python: processes (threads included) one question's Python session may run at once; a fork past it is refused")
}

// Request maps the eval flags to a session request: the request flags
// the user gave (changed says which) become overrides and flags_set (the
// protocol fills the rest), the client settings stay out of the config.
// With --config, the recorded run is the starting point and only the
// flags given now change it (see AddConfig). It runs before any call, so
// a malformed value is a usage error.
func (f *Eval) Request(inv Invocation, changed func(string) bool) (session.Request, error) {
	src, rr, err := f.rerunOf()
	if err != nil {
		return session.Request{}, err
	}
	c := src.Config
	if rr == nil || changed("home") {
		c.Home = inv.Home
	}
	c.Modes = SplitList(src.Modes)
	var o run.Overrides
	var header, judgeHeader http.Header
	if o.Answer, header, err = f.req.apply(&c.Sampling, changed, c.Seed); err != nil {
		return session.Request{}, err
	}
	if o.Judge, judgeHeader, err = f.judgeReq.apply(&c.Judge, changed, 0); err != nil {
		return session.Request{}, err
	}
	if rr == nil || changed("price") {
		if c.Price, err = run.ParsePrice(f.price); err != nil {
			return session.Request{}, err
		}
	}
	if c.ExcludeKinds, err = run.ParseExcludeKinds(c.ExcludeKinds); err != nil {
		return session.Request{}, err
	}
	c.FlagsSet = flagsSet(changed)
	cl := f.clients
	if err := checkClients(cl); err != nil {
		return session.Request{}, err
	}
	cl.JudgeKeyEnv, cl.Header, cl.JudgeHeader = f.judgeKeyEnv, header, judgeHeader
	if rr != nil {
		if err := rr.CheckHeaders(cl); err != nil {
			return session.Request{}, fmt.Errorf("--config %s: %w", f.rerun, err)
		}
		o = mergeOverrides(rr.Overrides, o)
		c.FlagsSet = mergeNames(rr.Config.FlagsSet, c.FlagsSet)
	}
	sp, err := f.composeSpec(changed)
	if err != nil {
		return session.Request{}, err
	}
	web := f.web
	web.DocTimeout = inv.DocTimeout
	return session.Request{Compose: sp,
		Config: c, Overrides: o, Command: commandLine(inv.Args), Clients: cl,
		Index: src.Index.Spec(inv.Env), Rerank: src.rerank, Web: web, Isolation: inv.Isolation,
		Env: inv.Env, Log: inv.Log, DryRun: f.dryRun, Retrieved: f.Retrieved,
		Progress: session.Progress{W: inv.Progress, Terminal: inv.Terminal, Every: f.progressEvery},
	}, nil
}

// StudyUsage rewrites the help of the eval flags whose meaning study
// changes: --mode's default (study.DefaultModes) and --out, the folder of
// its run folders (study.Folder).
func StudyUsage(fl *pflag.FlagSet) {
	fl.Lookup("mode").Usage = modeUsage("default: " + studyModes)
	fl.Lookup("out").Usage = "folder of the study's run folders, one per model: " + studyFolderIn("DIR") +
		" (default " + study.DefaultOutRoot + "); rerunning with the same folder resumes"
}

// modeUsage is --mode's help, with what the command does without it.
func modeUsage(defaults string) string {
	return "modes, comma-separated: " + strings.Join(mode.Names(), ", ") + " (" + defaults + ")"
}

// protocolFlags are the flags whose values the protocol block reports as
// the user's choice (config.json's flags_set names them).
var protocolFlags = []string{"temperature", "top-p", "max-tokens", "max-completion-tokens", "budget", "cot-prompt",
	"prompt-dir", "bm25", "embedder", "query", "k", "max-passage-tokens", "runs", "web-provider", "web-results",
	"web-tokens", "web-query", "share-identical-prompts", "judge-model", "lpfqa-mcq", "extract-from-reasoning"}

// flagsSet lists the protocol flags the user gave, in protocolFlags order.
func flagsSet(changed func(string) bool) []string {
	var out []string
	for _, f := range protocolFlags {
		if changed(f) {
			out = append(out, f)
		}
	}
	return out
}

// secretFlags carry values that are never written: header values may be
// tokens.
var secretFlags = map[string]bool{"--header": true, "--judge-header": true}

// urlFlags carry URLs, written without user info or query.
var urlFlags = map[string]bool{"--base-url": true, "--judge-base-url": true, "--embed-base-url": true,
	"--searxng-url": true, "--qdrant": true, "--rerank-base-url": true}

// commandLine is args as config.json records them (session.CommandLine).
func commandLine(args []string) []string {
	return session.CommandLine("paperlens", args, secretFlags, urlFlags)
}
