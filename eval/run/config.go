// Package run evaluates a model on a benchmark in every mode, with repeated
// runs, exact scoring and resumable, append-only records: a task is a
// dataset, a solver and a scorer, and every question is logged with its
// input, context, output and score (the shape of Inspect AI's logs).
package run

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/eval/agent"
	"github.com/paperlens/paperlens/eval/compose"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/protocol"
	"github.com/paperlens/paperlens/model"
)

// Modes (the --mode flag; fixed names). eval/mode defines them; these
// names stay for the callers that know them as run's.
const (
	ClosedBook = mode.ClosedBook
	Full       = mode.Full
	ModeBM25   = mode.BM25
	ModeDense  = mode.Dense
	ModeHybrid = mode.Hybrid
	FullBM25   = mode.FullBM25
	FullDense  = mode.FullDense
	FullHybrid = mode.FullHybrid
	Oracle     = mode.Oracle
	Web        = mode.Web
	FullWeb    = mode.FullWeb
)

// AllModes lists every mode in report order.
var AllModes = mode.Names()

// Paradigms (the --paradigm flag).
const (
	Base      = protocol.Base      // answer letters only (ElaipBench: temperature 0.1, 32 new tokens)
	CoT       = protocol.CoT       // "Let's think step by step." (4,096 tokens)
	Reasoning = protocol.Reasoning // base prompt, room to think; reasoning text kept
)

// Config is everything needed to rerun an evaluation; it is written to
// config.json in the run folder and holds no secrets.
type Config struct {
	Bench       string   `json:"bench"`
	Data        string   `json:"data"`
	Papers      string   `json:"papers,omitempty"`
	Home        string   `json:"home"`
	Model       string   `json:"model"`
	BaseURL     string   `json:"base_url,omitempty"`
	APIKeyEnv   string   `json:"api_key_env,omitempty"` // the variable's name, never its value
	Modes       []string `json:"modes"`
	Paradigm    string   `json:"paradigm"`
	Runs        int      `json:"runs"`
	Concurrency int      `json:"concurrency"`
	K           int      `json:"k"`
	Budget      int      `json:"budget"`
	// Sampling holds the answering model's request fields; its JSON
	// members (temperature, top_p, max_tokens, …) sit at the top level.
	Sampling
	Order     string `json:"order"`      // snippet order: score or document
	QueryForm string `json:"query_form"` // stem, full or options
	// ExcludeKinds are the passage kinds retrieval leaves out
	// (--exclude-kinds), comma-separated in kind.All order; "" for none.
	ExcludeKinds string   `json:"exclude_kinds,omitempty"`
	JudgeModel   string   `json:"judge_model,omitempty"`
	JudgeURL     string   `json:"judge_base_url,omitempty"`
	Judge        Sampling `json:"judge"` // the judge's request fields
	// Price, when set, turns token totals into dollars in the summary.
	Price            *Price  `json:"price,omitempty"`
	PromptDir        string  `json:"prompt_dir,omitempty"`
	Out              string  `json:"out"`
	Seed             int64   `json:"seed"`
	IRThreshold      float64 `json:"ir_threshold"`
	RPM              int     `json:"rpm,omitempty"`
	TPM              int     `json:"tpm,omitempty"`
	Fields           string  `json:"fields,omitempty"` // LPFQA field map
	MaxPassageTokens int     `json:"max_passage_tokens"`
	WebProvider      string  `json:"web_provider,omitempty"`
	WebResults       int     `json:"web_results,omitempty"`
	WebTokens        int     `json:"web_tokens,omitempty"`
	WebQuery         string  `json:"web_query,omitempty"` // question+title (ElaipBench default) or question
	WebReplay        bool    `json:"web_replay,omitempty"`
	// StopAfter stops the run when this many model calls in a row failed
	// the same way (0: DefaultStopAfter; negative: never).
	StopAfter int `json:"stop_after_failures,omitempty"`
	// Limit keeps the first N questions in file order (0: all).
	Limit int `json:"limit,omitempty"`
	// Labels is a file of fields joined to the questions (--labels; see
	// Labels), an absolute path; "" for none. Records made with it carry
	// its labels in their breakdown.
	Labels string `json:"labels,omitempty"`
	// LogPrompts stores each prompt exactly as sent (prompts.db).
	LogPrompts bool `json:"log_prompts,omitempty"`
	// MaxToolCalls caps the tool calls of one question in a tool mode
	// (--max-tool-calls; 10 when a tool mode is asked for); then one last
	// turn with tool_choice "none" forces the answer.
	MaxToolCalls int `json:"max_tool_calls,omitempty"`
	// UnsafePython runs the python tool without bubblewrap when it is
	// missing (--unsafe-python).
	UnsafePython bool `json:"unsafe_python,omitempty"`
	// ToolMemory and ToolProcesses bound one question's python session as a
	// whole, every process it starts included (--tool-memory, default
	// 1 GiB; --tool-processes, default 64); zero means the default. How the
	// bound is enforced depends on the machine: see python.Mechanism.
	ToolMemory    int64 `json:"tool_memory,omitempty"`
	ToolProcesses int   `json:"tool_processes,omitempty"`
	// ToolRetriever ranks what search_paper returns: bm25 (the default),
	// dense or hybrid, as in the modes of those names.
	ToolRetriever string `json:"tool_retriever,omitempty"`

	// Reranking (--rerank, --rerank-depth, --rerank-model,
	// --rerank-base-url, --rerank-protocol): the retrieval modes search
	// RerankDepth candidates and keep the K best by the reranker. "" is
	// none, as the papers did; api is a rerank endpoint (RerankProtocol
	// tei or cohere), llm a chat model ordering them RankGPT-style.
	Rerank         string `json:"rerank,omitempty"`
	RerankDepth    int    `json:"rerank_depth,omitempty"`
	RerankModel    string `json:"rerank_model,omitempty"`
	RerankBaseURL  string `json:"rerank_base_url,omitempty"`
	RerankProtocol string `json:"rerank_protocol,omitempty"`

	// Issue 16, h-route (--expand, --route-retriever). Expand adds the
	// Expand passages before and after each retrieved one (same paper,
	// by ordinal), merged where they touch; 0 adds none.
	// RouteRetriever is the retriever of self-route's first call: bm25
	// (the default when self-route runs), dense or hybrid.
	Expand         int    `json:"expand,omitempty"`
	RouteRetriever string `json:"route_retriever,omitempty"`

	// Retrieved are the run files of the run:NAME modes (--retrieved
	// NAME=FILE, issue 25): mode run:NAME gets the top K passages its
	// file ranks for each question, as bm25 gets its own. Each is kept
	// with its absolute path and the SHA-256 of its bytes when the run
	// started, so that the folder says which retrieval it was given.
	Retrieved []RetrievedFile `json:"retrieved,omitempty"`

	// Compose (eval --compose, issue 26) draws each run's questions
	// afresh from Data's in Encyclo-K's form (eval/compose): run r with
	// seed Compose.Seed + r, each listed in its run_seeds.
	Compose *compose.Spec `json:"compose,omitempty"`

	// The papers' protocol (eval/protocol owns the defaults).
	// BM25 is the scorer behind bm25 and hybrid within a paper: okapi
	// (rank_bm25, ElaipBench A.7.1) or bleve (--bm25).
	BM25 string `json:"bm25,omitempty"`
	// IndexStores says where the indexes were served from
	// (session.Index.Recorded): vector_store, bm25_store and, with Qdrant,
	// its collection, shard count and HNSW ef. Nil in runs before them:
	// both embedded.
	IndexStores map[string]string `json:"index_stores,omitempty"`
	// ContextWindow is the model's window in tokens (--context-window): a
	// prompt and answer that would pass it fail the question with a clear
	// message instead of being cut.
	ContextWindow int `json:"context_window,omitempty"`
	// CoTPrompt is the CoT prompt: paper (the base prompt plus "Let's
	// think step by step.") or answer-line (reason, then "Answer: X").
	CoTPrompt string `json:"cot_prompt,omitempty"`
	// SharePrompts lets modes whose prompts are byte-identical share one
	// answer (--share-identical-prompts); by default every mode makes its
	// own call, as the papers' settings were separate evaluations.
	SharePrompts bool `json:"share_identical_prompts,omitempty"`
	// ExtractFromReasoning reads the letters of an empty answer from the
	// reasoning text (--extract-from-reasoning); by default it is a miss.
	ExtractFromReasoning bool `json:"extract_from_reasoning,omitempty"`
	// LPFQAMCQ is how LPFQA's multiple-choice rows are scored: judge
	// (every row judged, LPFQA §4) or extract (letter extraction).
	LPFQAMCQ string `json:"lpfqa_mcq,omitempty"`
	// FlagsSet names the protocol settings the user gave, by the names of
	// the flags that set them (the command fills it), so that the run's
	// protocol block can say a departure was asked for.
	FlagsSet []string `json:"flags_set,omitempty"`
	// Dropped are request fields the run left out because the server
	// refused them in the preflight (a paper setting such as temperature
	// on a model that takes none).
	Dropped []Dropped `json:"dropped,omitempty"`

	// Provenance: what made the run, so that a folder describes itself.
	// Data, Papers, Home and Out are absolute paths.
	DataSHA256 string `json:"data_sha256,omitempty"`
	Version    string `json:"paperlens_version,omitempty"`
	Revision   string `json:"vcs_revision,omitempty"` // "+modified" when built from a dirty tree
	Embedder   string `json:"embedder,omitempty"`     // the dense embedder and its fit, e.g. lsa-256@<corpus hash>
	VectorDim  int    `json:"vector_dim,omitempty"`
	// Command is the command line, with header values removed and URLs
	// without user info or query.
	Command []string `json:"command,omitempty"`
}

// RetrievedFile is one run file given as --retrieved NAME=FILE (fixed
// JSON, in config.json's "retrieved").
type RetrievedFile struct {
	Name   string `json:"name"`   // NAME: the file's mode is run:NAME
	Path   string `json:"path"`   // absolute
	SHA256 string `json:"sha256"` // of the file's bytes
}

// RetrievedFile is the run file of the mode or retriever run:NAME.
func (c *Config) RetrievedFile(name string) (RetrievedFile, bool) {
	n, ok := mode.RunName(name)
	if !ok {
		return RetrievedFile{}, false
	}
	for _, f := range c.Retrieved {
		if f.Name == n {
			return f, true
		}
	}
	return RetrievedFile{}, false
}

// checkRetrieved checks that every run:NAME mode has its file and every
// file its mode.
func (c *Config) checkRetrieved() error {
	seen := map[string]bool{}
	for _, f := range c.Retrieved {
		if err := mode.CheckRunName(f.Name); err != nil {
			return fmt.Errorf("--retrieved %s=%s: %w", f.Name, f.Path, err)
		}
		if seen[f.Name] {
			return fmt.Errorf("--retrieved %s is given twice: give each run file its own name", f.Name)
		}
		seen[f.Name] = true
		if !slices.Contains(c.Modes, mode.RunMode(f.Name)) {
			return fmt.Errorf("--retrieved %s=%s is the retrieval of mode %s, which --mode does not list: add %s to --mode", f.Name, f.Path, mode.RunMode(f.Name), mode.RunMode(f.Name))
		}
	}
	for _, m := range c.Modes {
		if n, ok := mode.RunName(m); ok && !seen[n] {
			return fmt.Errorf("--mode %s takes its passages from a run file: give it as --retrieved %s=FILE (a TREC run file: qid Q0 passage_id rank score tag)", m, n)
		}
	}
	return nil
}

// Sampling is what a chat request carries besides the prompt (fixed flag
// names: --temperature, --top-p, --max-tokens, --max-completion-tokens,
// --reasoning-effort, --extra-body, --header, --seed; with a --judge-
// prefix for the judge). Nil and empty fields are not sent.
type Sampling struct {
	Temperature *float64 `json:"temperature"`
	TopP        *float64 `json:"top_p"`
	MaxTokens   int      `json:"max_tokens"`
	// MaxTokensParam is the name MaxTokens is sent under: max_tokens or
	// max_completion_tokens (o-series, GPT-5).
	MaxTokensParam  string          `json:"max_tokens_param,omitempty"`
	ReasoningEffort string          `json:"reasoning_effort,omitempty"`
	ExtraBody       json.RawMessage `json:"extra_body,omitempty"`
	// HeaderNames are the names of the extra headers; their values (often
	// tokens) live only in Options and are never written.
	HeaderNames []string `json:"header_names,omitempty"`
	// Seed is sent as "seed" when set (--seed given).
	Seed *int64 `json:"request_seed,omitempty"`
}

// Request builds the chat request for msgs with these fields.
func (s Sampling) Request(modelName string, msgs []model.Message, run int, header http.Header) model.Request {
	return model.Request{Model: modelName, Messages: msgs, Temperature: s.Temperature, TopP: s.TopP,
		MaxTokens: s.MaxTokens, MaxTokensParam: s.MaxTokensParam, ReasoningEffort: s.ReasoningEffort,
		Seed: s.Seed, ExtraBody: s.ExtraBody, Header: header, Run: run}
}

// Validate checks the fields before any call; prefix is "" or "judge-",
// for messages that name the flag.
func (s Sampling) Validate(prefix string) error {
	switch s.ReasoningEffort {
	case "", "minimal", "low", "medium", "high":
	default:
		return fmt.Errorf("--%sreasoning-effort %q: use minimal, low, medium or high", prefix, s.ReasoningEffort)
	}
	if err := model.CheckExtraBody(s.ExtraBody); err != nil {
		return fmt.Errorf("--%sextra-body: %w", prefix, err)
	}
	switch s.MaxTokensParam {
	case "", "max_tokens", "max_completion_tokens":
	default:
		return fmt.Errorf("max tokens parameter %q: use max_tokens or max_completion_tokens", s.MaxTokensParam)
	}
	return nil
}

// Price is US$ per million tokens (--price in=X,out=Y[,cached=Z]).
type Price struct {
	In     float64  `json:"in"`
	Out    float64  `json:"out"`
	Cached *float64 `json:"cached,omitempty"` // cached prompt tokens; nil bills them as In
}

// ParsePrice reads "in=2,out=8[,cached=0.5]".
func ParsePrice(s string) (*Price, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	p := &Price{}
	var haveIn, haveOut bool
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if !ok || err != nil || x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, fmt.Errorf("--price %q: want in=X,out=Y[,cached=Z] in US$ per million tokens, e.g. in=2,out=8,cached=0.5", s)
		}
		switch strings.TrimSpace(k) {
		case "in", "input", "prompt":
			p.In, haveIn = x, true
		case "out", "output", "completion":
			p.Out, haveOut = x, true
		case "cached":
			p.Cached = &x
		default:
			return nil, fmt.Errorf("--price: unknown part %q: use in=, out= and cached=", k)
		}
	}
	if !haveIn || !haveOut {
		return nil, fmt.Errorf("--price %q: give both in= and out= (US$ per million tokens)", s)
	}
	return p, nil
}

// Cost is the price of the tokens in US$: cached prompt tokens at the
// cached price, the rest of the prompt at In, completion (reasoning
// included, as vendors bill it) at Out.
func (p Price) Cost(t Tokens) float64 {
	cached := p.In
	if p.Cached != nil {
		cached = *p.Cached
	}
	return (float64(t.Prompt-t.Cached)*p.In + float64(t.Cached)*cached + float64(t.Completion)*p.Out) / 1e6
}

// Dropped is a request field left out because the server refused it.
type Dropped struct {
	Param string `json:"param"`
	Why   string `json:"why"`
}

// Overrides are the request settings a user gave for a run. Nil leaves a
// setting to Defaults, which takes it from the benchmark's protocol table
// (eval/protocol): the command maps its flags here, so this package never
// needs to know what a flag is called.
type Overrides struct {
	Answer RequestOverrides // the model under test
	Judge  RequestOverrides // the LPFQA judge
}

// RequestOverrides are one model's request fields as the user gave them.
type RequestOverrides struct {
	// Temperature and TopP: nil is the protocol's value; a pointer to nil
	// leaves the field out of the request (reasoning models refuse it).
	Temperature, TopP **float64
	// MaxTokens is the answer length sent as max_tokens,
	// MaxCompletionTokens the same sent as max_completion_tokens (o-series,
	// GPT-5); give at most one.
	MaxTokens, MaxCompletionTokens *int
}

// Defaults fills what the user left unset from the benchmark's protocol
// table (eval/protocol), by paradigm, as the papers did: ElaipBench 0.1
// and 32 tokens (base) or 4,096 (CoT and reasoning), LPFQA 1.0 / top_p 1.
// Under the reasoning paradigm the answer length goes as
// max_completion_tokens, which reasoning models require; a server that
// refuses a paper setting is handled by the preflight (see Run). The judge
// gets temperature 0 and 1,024 tokens. o may be nil: nothing was given.
func (c *Config) Defaults(o *Overrides) {
	if o == nil {
		o = &Overrides{}
	}
	if c.Paradigm == "" {
		c.Paradigm = Base
	}
	c.protocolDefaults()
	c.modeDefaults()
	c.answerDefaults(o.Answer)
	c.judgeDefaults(o.Judge)
}

// protocolDefaults fills the retrieval and context settings the protocol
// table or the runner's own defaults give.
func (c *Config) protocolDefaults() {
	t := protocol.For(c.Bench)
	// Settings LPFQA's paper has no row for (it retrieves nothing) take
	// ElaipBench's, whose retrieval modes an LPFQA run may still use.
	def := func(name string) int {
		if n := t.Int(name, c.Paradigm); n > 0 {
			return n
		}
		return protocol.ElaipBench.Int(name, c.Paradigm)
	}
	orInt := func(p *int, v func() int) {
		if *p <= 0 {
			*p = v()
		}
	}
	orString := func(p *string, v string) {
		if *p == "" {
			*p = v
		}
	}
	orInt(&c.Runs, func() int { return def(protocol.Runs) })
	orInt(&c.Concurrency, func() int { return 8 })
	orInt(&c.K, func() int { return def(protocol.K) })
	orInt(&c.Budget, func() int { return def(protocol.ContextBudget) })
	orInt(&c.ContextWindow, func() int { return DefaultContextWindow })
	orInt(&c.MaxPassageTokens, func() int { return def(protocol.PassageTokens) })
	if c.IRThreshold <= 0 {
		c.IRThreshold = 0.9
	}
	orString(&c.Order, "score")
	orString(&c.QueryForm, protocol.ElaipBench.Default(protocol.Query, c.Paradigm))
	orString(&c.BM25, protocol.ElaipBench.Default(protocol.BM25, c.Paradigm))
	orString(&c.CoTPrompt, CoTPaper)
	orString(&c.LPFQAMCQ, protocol.MCQJudged)
}

// DefaultModes are the modes a run of bench evaluates when --mode is not
// given: LPFQA's closed-book (its questions have no paper), else the
// paper's settings (closed-book, full, full plus each retriever), hybrid
// alone and the oracle.
func DefaultModes(bench string) []string {
	if bench == "lpfqa" {
		return []string{ClosedBook}
	}
	return []string{ClosedBook, Full, FullBM25, FullDense, FullHybrid, ModeHybrid, Oracle}
}

// modeDefaults fills the modes and what the chosen modes need: their
// retrievers, the reranker's depth and model, the tool budget.
func (c *Config) modeDefaults() {
	if len(c.Modes) == 0 {
		c.Modes = DefaultModes(c.Bench)
	}
	if c.ToolRetriever == "" && c.usesSearchPaper() {
		c.ToolRetriever = AgentRetriever
	}
	// --rerank none is recorded as no reranking, as before the flag.
	if c.Rerank == "none" {
		c.Rerank = ""
	}
	if c.Rerank != "" && c.RerankDepth <= 0 {
		c.RerankDepth = 30
	}
	if c.Rerank == "llm" && c.RerankModel == "" && !c.Offline() {
		c.RerankModel = c.Model
	}
	if c.RouteRetriever == "" && slices.Contains(c.Modes, mode.SelfRoute) {
		c.RouteRetriever = "bm25"
	}
	if c.MaxToolCalls <= 0 && len(toolModes(c.Modes)) > 0 {
		c.MaxToolCalls = agent.DefaultMaxToolCalls
	}
}

// answerDefaults fills the answering model's request fields: what the
// user gave, else the protocol's value for the paradigm.
func (c *Config) answerDefaults(o RequestOverrides) {
	t := protocol.For(c.Bench)
	c.Temperature = orFloat(o.Temperature, t.Float(protocol.Temperature, c.Paradigm))
	c.TopP = orFloat(o.TopP, t.Float(protocol.TopP, c.Paradigm))
	switch {
	case o.MaxCompletionTokens != nil:
		c.MaxTokens, c.MaxTokensParam = *o.MaxCompletionTokens, "max_completion_tokens"
	case o.MaxTokens != nil:
		c.MaxTokens, c.MaxTokensParam = *o.MaxTokens, "max_tokens"
	default:
		c.MaxTokens = t.Int(protocol.MaxTokens, c.Paradigm)
		if c.MaxTokensParam == "" && c.Paradigm == Reasoning {
			c.MaxTokensParam = "max_completion_tokens"
		}
	}
	if c.MaxTokensParam == "" {
		c.MaxTokensParam = "max_tokens"
	}
}

// judgeDefaults fills the judge's request fields: temperature 0 and 1,024
// tokens unless given; top_p is sent only when given.
func (c *Config) judgeDefaults(o RequestOverrides) {
	zero := 0.0
	c.Judge.Temperature = orFloat(o.Temperature, &zero)
	if o.TopP != nil {
		c.Judge.TopP = *o.TopP
	}
	switch {
	case o.MaxCompletionTokens != nil:
		c.Judge.MaxTokens, c.Judge.MaxTokensParam = *o.MaxCompletionTokens, "max_completion_tokens"
	case o.MaxTokens != nil:
		c.Judge.MaxTokens = *o.MaxTokens
	default:
		c.Judge.MaxTokens = 1024
	}
	if c.Judge.MaxTokensParam == "" {
		c.Judge.MaxTokensParam = "max_tokens"
	}
}

// orFloat is the value given (a pointer to nil: none), else def.
func orFloat(given **float64, def *float64) *float64 {
	if given != nil {
		return *given
	}
	return def
}

// DefaultContextWindow is the model window assumed without
// --context-window: 131,072 tokens, which the models both papers evaluated
// have or exceed (ElaipBench A.5 asks for at least 32k).
const DefaultContextWindow = 131072

// CoT prompt variants (--cot-prompt).
const (
	CoTPaper      = "paper"       // the base prompt plus "Let's think step by step." (ElaipBench A.5)
	CoTAnswerLine = "answer-line" // reason, then a final "Answer: X" line
)

// setByUser reports whether the user gave a protocol flag.
func (c *Config) setByUser(flag string) bool { return slices.Contains(c.FlagsSet, flag) }

// Validate checks the config before any work starts.
func (c *Config) Validate() error {
	switch c.Bench {
	case "elaipbench", "lpfqa", "jsonl":
	default:
		return fmt.Errorf("--bench %q: use elaipbench, lpfqa or jsonl", c.Bench)
	}
	if c.Data == "" {
		return fmt.Errorf("--data FILE is required")
	}
	if c.Model == "" {
		return fmt.Errorf("--model is required: a model name served at --base-url, or random / ir for the offline baselines")
	}
	switch c.Paradigm {
	case Base, CoT, Reasoning:
	default:
		return fmt.Errorf("--paradigm %q: use base, cot or reasoning", c.Paradigm)
	}
	for _, m := range c.Modes {
		if _, err := mode.Get(m); err != nil {
			return err
		}
	}
	if err := c.checkRetrieved(); err != nil {
		return err
	}
	if err := c.checkCompose(); err != nil {
		return err
	}
	switch c.BM25 {
	case "", protocol.OkapiScorer, protocol.BleveScorer:
	default:
		return fmt.Errorf("--bm25 %q: use okapi (rank_bm25's BM25Okapi, ElaipBench A.7.1) or bleve (Bleve's BM25)", c.BM25)
	}
	switch c.CoTPrompt {
	case "", CoTPaper, CoTAnswerLine:
	default:
		return fmt.Errorf("--cot-prompt %q: use paper (the base prompt plus \"Let's think step by step.\", ElaipBench A.5) or answer-line (reason, then a final \"Answer: X\" line)", c.CoTPrompt)
	}
	switch c.LPFQAMCQ {
	case "", protocol.MCQJudged, protocol.MCQExtract:
	default:
		return fmt.Errorf("--lpfqa-mcq %q: use judge (every row judged, as LPFQA §4) or extract (letters extracted from multiple-choice replies)", c.LPFQAMCQ)
	}
	if c.ContextWindow < 0 {
		return fmt.Errorf("--context-window %d: give the model's window in tokens, e.g. 131072", c.ContextWindow)
	}
	switch c.ToolRetriever {
	case "", "bm25", "dense", "hybrid":
	default:
		return fmt.Errorf("--tool-retriever %q: use bm25, dense or hybrid", c.ToolRetriever)
	}
	switch c.RouteRetriever {
	case "", "bm25", "dense", "hybrid":
	default:
		return fmt.Errorf("--route-retriever %q: use bm25, dense or hybrid", c.RouteRetriever)
	}
	if c.Expand < 0 {
		return fmt.Errorf("--expand %d: use 0 (no neighbours) or a positive number of passages on each side", c.Expand)
	}
	if c.MaxToolCalls < 0 {
		return fmt.Errorf("--max-tool-calls %d: use a positive number", c.MaxToolCalls)
	}
	switch c.Rerank {
	case "", "none", "api", "llm":
	default:
		return fmt.Errorf("--rerank %q: use none, api (a /rerank endpoint: TEI, vLLM, Jina, Cohere) or llm (a chat model)", c.Rerank)
	}
	if c.RerankDepth < 0 {
		return fmt.Errorf("--rerank-depth %d: use a positive number of candidates", c.RerankDepth)
	}
	if c.Rerank == "api" && c.RerankBaseURL == "" {
		return fmt.Errorf("--rerank api needs --rerank-base-url: the rerank server's root, e.g. http://localhost:8080 (TEI) or http://localhost:8000/v1 (vLLM)")
	}
	if c.Rerank == "llm" && c.RerankModel == "" {
		return fmt.Errorf("--rerank llm needs --rerank-model: the answering model %s is an offline baseline and cannot order passages", c.Model)
	}
	if c.Order != "score" && c.Order != "document" {
		return fmt.Errorf("--order %q: use score or document", c.Order)
	}
	if _, err := ParseExcludeKinds(c.ExcludeKinds); err != nil {
		return err
	}
	if err := c.Sampling.Validate(""); err != nil {
		return err
	}
	return c.Judge.Validate("judge-")
}

// checkCompose checks eval --compose's shape, and that --limit, which
// would keep the first questions of the first run only, is not given too.
func (c *Config) checkCompose() error {
	if c.Compose == nil {
		return nil
	}
	if c.Limit > 0 {
		return fmt.Errorf("--limit with --compose: give the number of questions per run as --compose questions=N instead")
	}
	if err := c.Compose.Validate(); err != nil {
		return fmt.Errorf("--compose: %w", err)
	}
	return nil
}

// ParseExcludeKinds reads --exclude-kinds: a comma-separated list of
// passage kinds, or "" or "none" for none. It gives the list as
// Config.ExcludeKinds records it: in kind.All order, "" for none.
func ParseExcludeKinds(list string) (string, error) {
	ks, err := kind.Parse(list)
	if err != nil {
		return "", fmt.Errorf("--exclude-kinds: %w", err)
	}
	set := kind.NewSet(ks)
	var in []kind.Kind
	for _, k := range kind.All {
		if set.Has(k) {
			in = append(in, k)
		}
	}
	return kind.Names(in), nil
}

// Excluded is ExcludeKinds as kinds, for retrieval queries.
func (c *Config) Excluded() []kind.Kind {
	ks, _ := kind.Parse(c.ExcludeKinds) // Validate checked it
	return ks
}

// Offline reports whether the model is one of the offline baselines.
func (c *Config) Offline() bool { return c.Model == "random" || c.Model == "ir" }

// DataSHA256 is the SHA-256 of a dataset file as config.json records it
// (data_sha256), so that a run folder can tell when its dataset changed.
func DataSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
