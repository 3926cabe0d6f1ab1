// Package protocol is the single owner of the papers' evaluation settings:
// one table per benchmark, each row with the paper's value, the section that
// states it, paperlens's default and the flag that changes it. Flags take
// their defaults from these tables, and every run compares what it did with
// its table (see Check), so a departure from the paper is always stated.
//
// The package imports nothing of paperlens: run, the CLI and the docs read
// it, never the other way round.
package protocol

import (
	"fmt"
	"strconv"
	"strings"
)

// Paradigms (the --paradigm flag).
const (
	Base      = "base"
	CoT       = "cot"
	Reasoning = "reasoning"
)

// Paradigms lists the paradigms in table order.
var Paradigms = []string{Base, CoT, Reasoning}

// Setting names (fixed: summary.json protocol.settings[].name).
const (
	Temperature   = "temperature"
	TopP          = "top_p"
	MaxTokens     = "max_tokens"
	ContextBudget = "context_budget"
	Prompt        = "prompt"
	BM25          = "bm25"
	DenseEncoder  = "dense_encoder"
	Query         = "query"
	K             = "k"
	PassageTokens = "passage_tokens"
	Tokenizer     = "tokenizer"
	Runs          = "runs"
	WebProvider   = "web_provider"
	WebResults    = "web_results"
	WebTokens     = "web_tokens"
	WebQuery      = "web_query"
	CacheSharing  = "cache_sharing"
	Judge         = "judge"
	LPFQAMCQ      = "lpfqa_mcq"
	Denominator   = "denominator"
	ReasoningText = "reasoning_text"
	BM25Store     = "bm25_store"
	DenseSearch   = "dense_search"
)

// Values a setting takes.
const (
	None = "none" // a request field that is not sent

	PromptBase       = "base"           // the base prompt: letters only
	PromptStep       = "base+step"      // the base prompt plus "Let's think step by step."
	PromptAnswerLine = "answer-line"    // paperlens's CoT variant: reason, then "Answer: X"
	PromptLPFQA      = "question"       // LPFQA: the question as posted
	PromptCustom     = "custom"         // --prompt-dir
	SharePerMode     = "per mode"       // every mode makes its own call
	ShareIdentical   = "identical"      // --share-identical-prompts
	AllQuestions     = "all questions"  // errors and unreadable verdicts count as wrong
	ExactMatch       = "exact"          // no judge: letters compared exactly
	MCQJudged        = "judge"          // LPFQA: multiple-choice rows are judged too
	MCQExtract       = "extract"        // --lpfqa-mcq extract: letters extracted
	NoCredit         = "no credit"      // an empty answer is a miss
	ExtractReasoning = "extract"        // --extract-from-reasoning
	OkapiScorer      = "okapi"          // rank_bm25's BM25Okapi
	BleveScorer      = "bleve"          // Bleve's BM25
	Cl100k           = "cl100k_base"    // the tokenizer paperlens counts with
	NotUsed          = "not used"       // the run's modes do not use this setting
	QuestionTitle    = "question+title" // web query: the question and the paper title
	Unstated         = ""               // the paper does not say
	LSA              = "lsa"            // the embedded offline encoder
	StoreEmbedded    = "embedded"       // an index in the evaluating process (rank_bm25, a flat vector scan)
	ExactSearch      = "exact"          // every candidate scored: no approximate index
	BGEM3            = "BAAI/bge-m3"    // ElaipBench's dense encoder
	Google           = "google"         // the papers' web search
	JudgeLLM         = "LLM judge"      // LPFQA: an LLM judge with the App. B prompt
)

// V is a setting's value, one for all paradigms (key "") or one per
// paradigm. "" is a value the paper does not state.
type V map[string]string

// For is the value under a paradigm.
func (v V) For(paradigm string) string {
	if s, ok := v[paradigm]; ok {
		return s
	}
	return v[""]
}

// all is one value for every paradigm.
func all(s string) V { return V{"": s} }

// Setting is one row of a benchmark's table.
type Setting struct {
	Name    string
	Section string // where the paper states it
	// PaperText is the paper's value in its own words, for the docs.
	PaperText string
	// Paper is the paper's value in the form a run records it ("" where the
	// paper does not say).
	Paper V
	// Default is paperlens's default; it equals Paper wherever the paper
	// states the setting and it can be reproduced here.
	Default V
	// Why says why the default departs from the paper, where it does.
	Why  string
	Flag string // the flag that changes it
}

// Table is a benchmark's protocol.
type Table struct {
	Name     string // the paper's benchmark, e.g. ElaipBench
	Bench    string // the --bench value
	Source   string // the paper
	Settings []Setting
}

// Setting returns the row of that name.
func (t Table) Setting(name string) (Setting, bool) {
	for _, s := range t.Settings {
		if s.Name == name {
			return s, true
		}
	}
	return Setting{}, false
}

// Default is the default of a setting under a paradigm ("" when the table
// has no such row).
func (t Table) Default(name, paradigm string) string {
	s, _ := t.Setting(name)
	return s.Default.For(paradigm)
}

// Float is a numeric default as a request field: nil for "none".
func (t Table) Float(name, paradigm string) *float64 {
	v, err := strconv.ParseFloat(t.Default(name, paradigm), 64)
	if err != nil {
		return nil
	}
	return &v
}

// Int is a whole-number default (0 when the table has none).
func (t Table) Int(name, paradigm string) int {
	n, _ := strconv.Atoi(t.Default(name, paradigm))
	return n
}

// For is the table of a benchmark (--bench); a format without a paper
// (jsonl) gets ElaipBench's, whose prompts it uses.
func For(bench string) Table {
	if bench == "lpfqa" {
		return LPFQA
	}
	return ElaipBench
}

// Tables lists every table.
func Tables() []Table { return []Table{ElaipBench, LPFQA} }

// ElaipBench is arXiv 2510.10549's protocol (§4.1, §4.6, A.5, A.7).
var ElaipBench = Table{
	Name: "ElaipBench", Bench: "elaipbench", Source: "ElaipBench (arXiv 2510.10549)",
	Settings: []Setting{
		{Name: Temperature, Section: "A.5", PaperText: "temperature=0.1 for base, CoT and LRMs (\"the same parameter configuration is adopted for LRMs\")",
			Paper: all("0.1"), Default: all("0.1"), Flag: "--temperature"},
		{Name: TopP, Section: "A.5", PaperText: "not stated",
			Paper: all(Unstated), Default: all("1"), Flag: "--top-p",
			Why: "the paper does not say; 1 is every server's own default"},
		{Name: MaxTokens, Section: "A.5", PaperText: "max_new_tokens=32 (base), 4,096 (CoT, and the same for LRMs)",
			Paper: V{Base: "32", CoT: "4096", Reasoning: "4096"}, Default: V{Base: "32", CoT: "4096", Reasoning: "4096"}, Flag: "--max-tokens"},
		{Name: ContextBudget, Section: "A.7.2", PaperText: "paper + knowledge snippets within 32,768 tokens; round-robin truncation over retrieved items",
			Paper: all("32768"), Default: all("32768"), Flag: "--budget"},
		{Name: Prompt, Section: "A.5, §4.2", PaperText: "base: output only the final option; CoT: add \"Let's think step by step.\"; LRMs: the base prompt",
			Paper: V{Base: PromptBase, CoT: PromptStep, Reasoning: PromptBase}, Default: V{Base: PromptBase, CoT: PromptStep, Reasoning: PromptBase}, Flag: "--cot-prompt, --prompt-dir"},
		{Name: BM25, Section: "A.7.1", PaperText: "rank_bm25 with its default hyper-parameters (BM25Okapi)",
			Paper: all(OkapiScorer), Default: all(OkapiScorer), Flag: "--bm25"},
		{Name: DenseEncoder, Section: "A.7.1", PaperText: "BGE-m3, official checkpoint, 1,024 dimensions, cosine",
			Paper: all(BGEM3), Default: all(LSA), Flag: "--embedder openai --embed-model BAAI/bge-m3",
			Why: "offline default: no model weights can be downloaded here, so the embedded LSA encoder stands in; serve BGE-m3 (TEI, vLLM) for the paper's"},
		{Name: BM25Store, Section: "A.7.1", PaperText: "rank_bm25 in the evaluating process",
			Paper: all(StoreEmbedded), Default: all(StoreEmbedded), Flag: "--bm25-store"},
		{Name: DenseSearch, Section: "A.7.1", PaperText: "cosine similarity with every passage (exact)",
			Paper: all(ExactSearch), Default: all(ExactSearch), Flag: "--vector-store, --qdrant-ef"},
		{Name: Query, Section: "A.7.1", PaperText: "the question (stem and options, as the dataset stores it)",
			Paper: all("full"), Default: all("full"), Flag: "--query"},
		{Name: K, Section: "§4.6, A.7.1", PaperText: "top five passages",
			Paper: all("5"), Default: all("5"), Flag: "-k"},
		{Name: PassageTokens, Section: "§4.6", PaperText: "non-overlapping passages of 512 tokens at sentence boundaries",
			Paper: all("512"), Default: all("512"), Flag: "--passage-tokens"},
		{Name: Tokenizer, Section: "§4.6", PaperText: "not stated",
			Paper: all(Unstated), Default: all(Cl100k), Flag: "",
			Why: "the paper does not name its tokenizer; paperlens counts with cl100k_base"},
		{Name: Runs, Section: "§4.1", PaperText: "mean of 3 independent API calls",
			Paper: all("3"), Default: all("3"), Flag: "--runs"},
		{Name: WebProvider, Section: "§4.6, A.7.1", PaperText: "Google Custom Search API",
			Paper: all(Google), Default: all("corpus"), Flag: "--web-provider",
			Why: "offline default: the indexed corpus minus the question's own paper stands in for the web; pass --web-provider google for the paper's"},
		{Name: WebResults, Section: "§4.6", PaperText: "top five web pages",
			Paper: all("5"), Default: all("5"), Flag: "--web-results"},
		{Name: WebTokens, Section: "A.7.1", PaperText: "\"truncated to the first  tokens\" (the number is missing from the text)",
			Paper: all(Unstated), Default: all("1024"), Flag: "--web-tokens",
			Why: "the number is missing from the paper's text; paperlens keeps 1,024 tokens of each page"},
		{Name: WebQuery, Section: "A.7.1", PaperText: "the question and the paper title, concatenated",
			Paper: all(QuestionTitle), Default: all(QuestionTitle), Flag: "--web-query"},
		{Name: CacheSharing, Section: "§4.6", PaperText: "each setting is its own evaluation",
			Paper: all(SharePerMode), Default: all(SharePerMode), Flag: "--share-identical-prompts"},
		{Name: Judge, Section: "A.5", PaperText: "none: strict exact match of the option letters",
			Paper: all(ExactMatch), Default: all(ExactMatch), Flag: ""},
		{Name: ReasoningText, Section: "A.5", PaperText: "the answer is read from the response",
			Paper: all(NoCredit), Default: all(NoCredit), Flag: "--extract-from-reasoning"},
		{Name: Denominator, Section: "A.5", PaperText: "strict accuracy over every question",
			Paper: all(AllQuestions), Default: all(AllQuestions), Flag: ""},
	},
}

// LPFQA is the LPFQA paper's protocol (§4, §4.3, App. B).
var LPFQA = Table{
	Name: "LPFQA", Bench: "lpfqa", Source: "LPFQA (§4, App. B, Table 4)",
	Settings: []Setting{
		{Name: Temperature, Section: "§4", PaperText: "temperature = 1 for all models",
			Paper: all("1"), Default: all("1"), Flag: "--temperature"},
		{Name: TopP, Section: "§4", PaperText: "top_p = 1 for all models",
			Paper: all("1"), Default: all("1"), Flag: "--top-p"},
		{Name: MaxTokens, Section: "§4", PaperText: "not stated",
			Paper: all(Unstated), Default: V{Base: "2048", CoT: "4096", Reasoning: "16384"}, Flag: "--max-tokens",
			Why: "the paper does not say; room for a worked answer, and for thinking under reasoning"},
		{Name: Prompt, Section: "§4", PaperText: "the question as posted",
			Paper: all(PromptLPFQA), Default: all(PromptLPFQA), Flag: "--prompt-dir"},
		{Name: Runs, Section: "§4", PaperText: "not stated",
			Paper: all(Unstated), Default: all("3"), Flag: "--runs",
			Why: "the paper does not say; three runs give a spread at temperature 1"},
		{Name: WebProvider, Section: "§4.3, Table 4", PaperText: "Google Search and a text browser (Search tools)",
			Paper: all(Google), Default: all("corpus"), Flag: "--web-provider",
			Why: "offline default: the indexed corpus stands in for the web; pass --web-provider google for the paper's"},
		{Name: CacheSharing, Section: "§4.3", PaperText: "each setting is its own evaluation",
			Paper: all(SharePerMode), Default: all(SharePerMode), Flag: "--share-identical-prompts"},
		{Name: Judge, Section: "§4, App. B", PaperText: "an LLM judge with the App. B prompt, binary verdict, every task",
			Paper: all(JudgeLLM), Default: all(None), Flag: "--judge-model",
			Why: "the paper does not name its judge model; without --judge-model no accuracy is reported"},
		{Name: LPFQAMCQ, Section: "§4", PaperText: "every task is judged, multiple-choice ones included",
			Paper: all(MCQJudged), Default: all(MCQJudged), Flag: "--lpfqa-mcq"},
		{Name: ReasoningText, Section: "§4", PaperText: "the judge reads the model's output",
			Paper: all(NoCredit), Default: all(NoCredit), Flag: "--extract-from-reasoning"},
		{Name: Denominator, Section: "§4", PaperText: "the average binary score over all tasks",
			Paper: all(AllQuestions), Default: all(AllQuestions), Flag: ""},
	},
}

// Check is one setting of a run against the paper (fixed JSON:
// summary.json protocol.settings[]).
type Check struct {
	Name  string `json:"name"`
	Paper string `json:"paper"`
	Run   string `json:"run"`
	Match bool   `json:"match"`
	Why   string `json:"why,omitempty"`
}

// Record is what a run states about its protocol (fixed JSON:
// summary.json "protocol").
type Record struct {
	Name     string  `json:"name"`
	Source   string  `json:"source"`
	Settings []Check `json:"settings"`
}

// Departures are the settings that depart from the paper.
func (r Record) Departures() []Check {
	var out []Check
	for _, c := range r.Settings {
		if !c.Match {
			out = append(out, c)
		}
	}
	return out
}

// Observed is what a run did for one setting: its value, and why, when the
// value is not the default (a flag, a server's refusal).
type Observed struct {
	Value string
	Why   string
}

// Fixed lists the setting names every run states (fixed JSON names); a
// name the benchmark's paper has no row for is stated as not in the paper.
var Fixed = []string{Temperature, TopP, MaxTokens, ContextBudget, Prompt, BM25, BM25Store, DenseEncoder, DenseSearch, Query, K,
	PassageTokens, Runs, CacheSharing, Judge, LPFQAMCQ, Denominator}

// Compare states a run against the table: one Check per row, in table
// order, then the fixed names the table has no row for. A row the run does not report is recorded as not used. A setting
// the paper does not state matches whatever the run did (there is nothing
// to depart from), and says so.
func (t Table) Compare(paradigm string, run map[string]Observed) Record {
	rec := Record{Name: t.Name, Source: t.Source}
	for _, s := range t.Settings {
		o, ok := run[s.Name]
		paper := s.Paper.For(paradigm)
		c := Check{Name: s.Name, Paper: paper, Run: o.Value}
		switch {
		case !ok || o.Value == NotUsed:
			c.Run, c.Match = NotUsed, true
		case paper == Unstated:
			c.Paper, c.Match = "not stated", true
			c.Why = firstNonEmpty(o.Why, s.Why)
		default:
			c.Match = o.Value == paper
			if !c.Match {
				c.Why = o.Why
				if c.Why == "" && o.Value == s.Default.For(paradigm) {
					c.Why = s.Why
				}
				if c.Why == "" {
					c.Why = "differs from the paper"
				}
			}
		}
		rec.Settings = append(rec.Settings, c)
	}
	for _, name := range Fixed {
		if _, ok := t.Setting(name); ok {
			continue
		}
		c := Check{Name: name, Paper: "not in this paper", Run: NotUsed, Match: true}
		if o, ok := run[name]; ok && o.Value != "" {
			c.Run, c.Why = o.Value, o.Why
		}
		rec.Settings = append(rec.Settings, c)
	}
	return rec
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// MarkdownTable renders the tables as the README's Protocol table: one row
// per setting with the paper's value and section, the default and the flag.
func MarkdownTable() string {
	var b strings.Builder
	for i, t := range Tables() {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "**%s** (`--bench %s`)\n\n", t.Source, t.Bench)
		b.WriteString("| setting | the paper | section | default | flag |\n|---|---|---|---|---|\n")
		for _, s := range t.Settings {
			def := s.Default.For("")
			if def == "" || len(s.Default) > 1 {
				var parts []string
				for _, p := range Paradigms {
					parts = append(parts, p+": "+s.Default.For(p))
				}
				def = strings.Join(parts, ", ")
			}
			if s.Why != "" && s.Paper.For("") != Unstated {
				def += " (departs: " + s.Why + ")"
			}
			flag := s.Flag
			if flag == "" {
				flag = "–"
			} else {
				flag = "`" + flag + "`"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", s.Name, s.PaperText, s.Section, def, flag)
		}
	}
	return b.String()
}
