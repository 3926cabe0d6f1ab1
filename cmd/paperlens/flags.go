package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/eval/agent/python"
	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/internal/isolate"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/index"
	"github.com/paperlens/paperlens/retrieve/rerank"
)

// The flags several commands share (fixed names: scripts use them), and
// the values they parse.

// value adapts a parse function to a flag: Set parses and stores, String
// shows the value (the default in --help).
type value[T any] struct {
	p     *T
	typ   string
	parse func(string) (T, error)
	show  func(T) string
}

var _ pflag.Value = value[int]{}

func (v value[T]) Type() string { return v.typ }
func (v value[T]) String() string {
	if v.p == nil {
		var zero T
		return v.show(zero)
	}
	return v.show(*v.p)
}
func (v value[T]) Set(s string) error {
	x, err := v.parse(s)
	if err != nil {
		return err
	}
	*v.p = x
	return nil
}

// optFloat is a float flag that also takes "none": leave the field out of
// the request, as reasoning models require for temperature and top_p.
func optFloat(p **float64) pflag.Value {
	return value[*float64]{p: p, typ: "X|none",
		parse: func(s string) (*float64, error) {
			if strings.EqualFold(strings.TrimSpace(s), "none") {
				return nil, nil
			}
			v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil {
				return nil, fmt.Errorf("want a number or none")
			}
			return &v, nil
		},
		show: func(v *float64) string {
			if v == nil {
				return "" // "none" would print as a misleading "(default none)" in --help
			}
			return strconv.FormatFloat(*v, 'g', -1, 64)
		}}
}

// bm25Value is --bm25, checked as it is parsed so that a bad value fails
// the command before it ingests or indexes anything.
func bm25Value(p *string) pflag.Value {
	return value[string]{p: p, typ: "okapi|bleve", show: func(s string) string { return s },
		parse: func(s string) (string, error) {
			if err := index.CheckBM25(s); err != nil {
				return "", index.ErrBM25 // pflag already names the flag and the value
			}
			return s, nil
		}}
}

// size is a flag holding a number of bytes, written with a unit, of at
// least min (0: any), and how it is shown when zero.
func size(p *int64, min int64, tooLittle func(string) error, zero int64) pflag.Value {
	return value[int64]{p: p, typ: "size",
		parse: func(s string) (int64, error) {
			n, err := isolate.ParseBytes(s)
			if err != nil || n >= min {
				return n, err
			}
			return 0, tooLittle(isolate.FormatBytes(n))
		},
		show: func(n int64) string {
			if n == 0 {
				n = zero
			}
			return isolate.FormatBytes(n)
		}}
}

// toolMemory is --tool-memory, stored in bytes in run.Config.ToolMemory,
// where zero means python.DefaultMemory (so that config.json names a limit
// only when one was asked for). python3 with numpy needs about 100 MiB of
// address space to start.
func toolMemory(p *int64) pflag.Value {
	v := size(p, 128<<20, func(s string) error {
		return fmt.Errorf("--tool-memory %s is too little for python3 and numpy to start in; give at least 128MiB", s)
	}, python.DefaultMemory).(value[int64])
	parse := v.parse
	v.parse = func(s string) (int64, error) {
		if _, err := isolate.ParseBytes(s); err != nil {
			return 0, fmt.Errorf("--tool-memory: %w", err)
		}
		return parse(s)
	}
	return v
}

// requestFlags are the request-field flags of one model (prefix "") or of
// the judge (prefix "judge-"); fixed names.
type requestFlags struct {
	prefix              string
	temperature, topP   *float64
	maxTokens           int
	maxCompletionTokens int
	extraBody           string
	headers             []string
	seed                int64
}

func addRequestFlags(cmd *cobra.Command, prefix string, s *run.Sampling, f *requestFlags) {
	fl := cmd.Flags()
	f.prefix = prefix
	who, defTemp, defTopP, mctNote := "", "the paper's: ElaipBench 0.1 (A.5), LPFQA 1 (§4); left out if the server refuses it",
		"1 (LPFQA §4; ElaipBench does not say)", " (the default field under --paradigm reasoning)"
	if prefix != "" {
		who, defTemp, defTopP, mctNote = "the judge's ", "0", "not sent", ""
	}
	fl.Var(optFloat(&f.temperature), prefix+"temperature", who+"sampling temperature, or none to leave it out (default: "+defTemp+")")
	fl.Var(optFloat(&f.topP), prefix+"top-p", who+"nucleus sampling top_p, or none to leave it out (default: "+defTopP+")")
	if prefix != "" {
		// eval's own --max-tokens is declared with the other eval flags.
		fl.IntVar(&f.maxTokens, prefix+"max-tokens", 0, who+"answer tokens, sent as max_tokens (default: 1024)")
	}
	fl.IntVar(&f.maxCompletionTokens, prefix+"max-completion-tokens", 0,
		who+"answer tokens, sent as max_completion_tokens as o-series and GPT-5 require"+mctNote)
	fl.StringVar(&s.ReasoningEffort, prefix+"reasoning-effort", "", who+"reasoning_effort to send: minimal, low, medium or high")
	fl.StringVar(&f.extraBody, prefix+"extra-body", "", who+`JSON object merged into every request body, e.g. '{"chat_template_kwargs":{"enable_thinking":false}}'`)
	fl.StringArrayVar(&f.headers, prefix+"header", nil, who+"extra HTTP header 'Name: value' (repeatable); values are never written to disk or logs")
	if prefix != "" {
		fl.Int64Var(&f.seed, prefix+"seed", 0, who+"seed to send (default: none sent)")
	}
}

// apply copies what the flags say into s, maps the flags the user gave to
// the run's overrides (the rest the protocol fills) and returns the header
// values. It runs before any call, so bad JSON or a malformed header is a
// usage error. seed is the value of eval's own --seed, sent only when
// given.
func (f *requestFlags) apply(s *run.Sampling, changed func(string) bool, seed int64) (run.RequestOverrides, http.Header, error) {
	p := f.prefix
	var o run.RequestOverrides
	if changed(p + "temperature") {
		o.Temperature = &f.temperature
	}
	if changed(p + "top-p") {
		o.TopP = &f.topP
	}
	if changed(p + "max-tokens") {
		o.MaxTokens = &f.maxTokens
	}
	if changed(p + "max-completion-tokens") {
		if changed(p + "max-tokens") {
			return o, nil, fmt.Errorf("--%smax-tokens and --%smax-completion-tokens both set the answer length: give one (max_completion_tokens for o-series and GPT-5)", p, p)
		}
		if f.maxCompletionTokens <= 0 {
			return o, nil, fmt.Errorf("--%smax-completion-tokens %d: give a positive number of tokens", p, f.maxCompletionTokens)
		}
		o.MaxCompletionTokens = &f.maxCompletionTokens
	}
	if strings.TrimSpace(f.extraBody) != "" {
		if !json.Valid([]byte(f.extraBody)) {
			return o, nil, fmt.Errorf(`--%sextra-body is not valid JSON: %.80q (quote it for the shell, e.g. '{"chat_template_kwargs":{"enable_thinking":false}}')`, p, f.extraBody)
		}
		s.ExtraBody = json.RawMessage(f.extraBody)
	}
	if p == "" && changed("seed") {
		s.Seed = &seed
	}
	if p != "" && changed(p+"seed") {
		v := f.seed
		s.Seed = &v
	}
	h, err := f.header()
	if err != nil {
		return o, nil, err
	}
	s.HeaderNames = nil
	for name := range h {
		s.HeaderNames = append(s.HeaderNames, name)
	}
	slices.Sort(s.HeaderNames)
	return o, h, nil
}

// header parses the --header values.
func (f *requestFlags) header() (http.Header, error) {
	p := f.prefix
	var h http.Header
	for _, line := range f.headers {
		name, value, ok := strings.Cut(line, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t\r\n") || strings.ContainsAny(value, "\r\n") {
			// The value may be a token: show only the name, if any.
			shown := "(no colon)"
			if ok {
				shown = fmt.Sprintf("%q", name)
			}
			return nil, fmt.Errorf("--%sheader %s: want 'Name: value', e.g. --%sheader 'X-Gateway-Route: research'", p, shown, p)
		}
		if h == nil {
			h = http.Header{}
		}
		h.Add(textproto.CanonicalMIMEHeaderKey(name), strings.TrimSpace(value))
	}
	return h, nil
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

// indexFlags are the flags of every command that opens the indexes.
type indexFlags struct{ x session.Index }

func addIndexFlags(cmd *cobra.Command, f *indexFlags) {
	fl, x := cmd.Flags(), &f.x
	fl.StringVar(&x.Embedder, "embedder", "lsa", "dense embedder: lsa (embedded, fitted on your corpus, no download) or openai (any OpenAI-compatible /v1/embeddings endpoint: TEI, vLLM, Ollama, OpenAI)")
	fl.StringVar(&x.EmbedModel, "embed-model", "BAAI/bge-m3", "embedding model name for --embedder openai (ElaipBench used BGE-m3)")
	fl.StringVar(&x.EmbedBaseURL, "embed-base-url", "", "embedding endpoint base URL, e.g. http://localhost:8080/v1 (default $OPENAI_BASE_URL)")
	fl.StringVar(&x.EmbedKeyEnv, "embed-api-key-env", "OPENAI_API_KEY", "environment variable holding the embedding endpoint's key")
	fl.StringVar(&x.QueryPrefix, "embed-query-prefix", "", `text put before queries, for models that want it (E5: "query: ")`)
	fl.StringVar(&x.PassagePrefix, "embed-passage-prefix", "", `text put before passages (E5: "passage: ")`)
	fl.IntVar(&x.EmbedBatch, "embed-batch", 64, "texts per embedding request")
	fl.IntVar(&x.EmbedConcurrency, "embed-concurrency", 4, "embedding requests in flight")
	fl.StringVar(&x.Store, "store", "embedded", "vector store: embedded (exact cosine, on disk under --home) or qdrant")
	fl.StringVar(&x.QdrantURL, "qdrant", "", "Qdrant gRPC URL, e.g. http://localhost:6334 (default $QDRANT_URL)")
	fl.StringVar(&x.Collection, "collection", "paperlens", "Qdrant collection")
	fl.IntVar(&x.LSADim, "lsa-dim", 256, "dimensions of the lsa embedder")
	fl.IntVar(&x.RRFK, "rrf-k", 60, "k of reciprocal rank fusion for hybrid retrieval")
	// Left empty, so the index applies index.DefaultBM25: one place says
	// what the default is (and the help does not print it twice).
	fl.Var(bm25Value(&x.BM25), "bm25", "scorer behind bm25 and hybrid within a paper: okapi (rank_bm25's BM25Okapi, as ElaipBench A.7.1; default) or bleve (Bleve's BM25)")
}

// spec is the index settings, with the invocation's environment.
func (f *indexFlags) spec(g *globalOptions) session.Index {
	x := f.x
	x.Env = g.env
	return x
}

// The reranking flags of search, ask, eval, eval retrieval and study
// (fixed names) fill a session.Rerank.

func addRerankFlags(cmd *cobra.Command, f *session.Rerank) {
	cmd.Long += helpText("rerank")
	fl := cmd.Flags()
	fl.StringVar(&f.Kind, "rerank", rerank.None, "second-stage reranking: none (the papers'), api (a /rerank endpoint: TEI, vLLM, Jina, Cohere) or llm (a chat model, RankGPT-style)")
	fl.IntVar(&f.Depth, "rerank-depth", rerank.DefaultDepth, "first-stage candidates the reranker reorders before the top k are kept")
	fl.StringVar(&f.BaseURL, "rerank-base-url", "", "rerank server root: http://host:8080 (TEI), http://host:8000/v1 (vLLM), https://api.jina.ai/v1; for llm an OpenAI-compatible API root (default --base-url)")
	fl.StringVar(&f.Model, "rerank-model", "", "reranker model: sent to cohere-protocol servers (e.g. BAAI/bge-reranker-v2-m3, jina-reranker-v2-base-multilingual); for llm the chat model (default --model)")
	fl.StringVar(&f.Protocol, "rerank-protocol", "auto", "api: tei (POST /rerank {query,texts}), cohere (POST /v1/rerank {model,query,documents,top_n}: Cohere, Jina, vLLM, Infinity) or auto (cohere when the URL ends in /v1 or /v2)")
	fl.StringVar(&f.KeyEnv, "rerank-api-key-env", "", "environment variable holding the reranker's key (api: none sent by default; llm: default --api-key-env, else OPENAI_API_KEY)")
}

// addToolLimitFlags registers the python session's limits.
func addToolLimitFlags(fl *pflag.FlagSet, c *run.Config) {
	fl.Var(toolMemory(&c.ToolMemory), "tool-memory",
		"tool-python: memory of one question's Python session as a whole, every process it starts and its files included (e.g. 512MiB, 2GiB); 'eval --dry-run' says how this machine enforces it")
	fl.IntVar(&c.ToolProcesses, "tool-processes", python.DefaultProcesses,
		"tool-python: processes (threads included) one question's Python session may run at once; a fork past it is refused")
}

// sweepFlags are the grid of eval retrieval --sweep and study --sweep.
type sweepFlags struct {
	on      bool
	budgets string
	sizes   string
	windows string
	parent  int
	reranks string
	oracle  bool
	top     int // study --sweep only
}

func addSweepFlags(cmd *cobra.Command, s *sweepFlags) {
	fl := cmd.Flags()
	fl.BoolVar(&s.on, "sweep", false, "score a grid of retrieval configurations at equal token budgets (passage size x k x query form x retriever x rerank, and small-to-big windows)")
	fl.StringVar(&s.budgets, "budgets", "256,512,1024,2048", "with --sweep: context token budgets; k = budget / passage tokens")
	fl.StringVar(&s.sizes, "sweep-passage-tokens", "128,256,512", "with --sweep: passage sizes, in tokens (sizes other than the home's are chunked again from the stored text into a temporary index)")
	fl.StringVar(&s.windows, "sweep-windows", "1,2,3", "with --sweep: small-to-big sentence windows (retrieve windows of N sentences, hand over their parent passages); \"\" for none")
	fl.IntVar(&s.parent, "sweep-parent-tokens", 512, "with --sweep: passage size of the parents small-to-big windows map to")
	fl.StringVar(&s.reranks, "sweep-rerank", "none", "with --sweep: rerank settings to sweep, comma-separated: none, api or llm (the reranker --rerank and its flags configure), gold[:DEPTH] (the question's gold evidence first among the top DEPTH, default 30: what a perfect reranker would reach)")
	fl.BoolVar(&s.oracle, "sweep-oracle", true, "with --sweep: add an oracle row per passage size and budget (the gold passages ranked first): the ceiling of any retriever")
}

func positiveInts(flag, s string) ([]int, error) {
	var out []int
	for _, p := range splitList(s) {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("--%s %q: give positive whole numbers, comma-separated", flag, s)
		}
		out = append(out, n)
	}
	return out, nil
}

// config turns the flags into a sweep grid over the given retrievers and
// query forms.
func (s *sweepFlags) config(retrievers []string, forms []retrieve.QueryForm, rrfK int, threshold float64, exclude []kind.Kind, progress io.Writer) (retrieval.SweepConfig, error) {
	c := retrieval.SweepConfig{Retrievers: retrievers, Forms: forms, RRFK: rrfK, Parent: s.parent, Oracle: s.oracle, Exclude: exclude,
		Reranks: splitList(s.reranks), Progress: progress}
	c.Evidence.Threshold = threshold
	var err error
	if c.Budgets, err = positiveInts("budgets", s.budgets); err != nil {
		return c, err
	}
	if c.Sizes, err = positiveInts("sweep-passage-tokens", s.sizes); err != nil {
		return c, err
	}
	if c.Windows, err = positiveInts("sweep-windows", s.windows); err != nil {
		return c, err
	}
	return c, nil
}

// excludeKindsUsage is --exclude-kinds' help in every command that
// retrieves.
const excludeKindsUsage = "passage kinds retrieval leaves out, comma-separated (e.g. references,front-matter; kinds: see 'paperlens ingest --help'), or none; k passages of the other kinds are still returned"

// addExcludeKinds declares --exclude-kinds.
func addExcludeKinds(cmd *cobra.Command, p *string) {
	cmd.Flags().StringVar(p, "exclude-kinds", "", excludeKindsUsage)
}

// parseExcludeKinds reads --exclude-kinds, with errors that name the flag.
func parseExcludeKinds(list string) ([]kind.Kind, error) {
	canon, err := run.ParseExcludeKinds(list)
	if err != nil {
		return nil, err
	}
	return kind.Parse(canon)
}

// secretFlags carry values that are never written: header values may be
// tokens.
var secretFlags = map[string]bool{"--header": true, "--judge-header": true}

// urlFlags carry URLs, written without user info or query.
var urlFlags = map[string]bool{"--base-url": true, "--judge-base-url": true, "--embed-base-url": true,
	"--searxng-url": true, "--qdrant-url": true, "--rerank-base-url": true}

// commandLine is args as config.json records them (session.CommandLine).
func commandLine(args []string) []string {
	return session.CommandLine("paperlens", args, secretFlags, urlFlags)
}
