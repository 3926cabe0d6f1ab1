// Package run evaluates a model on a benchmark in every mode, with repeated
// runs, exact scoring and resumable, append-only records: a task is a
// dataset, a solver and a scorer, and every question is logged with its
// input, context, output and score (the shape of Inspect AI's logs).
package run

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Modes (the --mode flag; fixed names).
const (
	ClosedBook = "closed-book" // question only
	Full       = "full"        // whole paper in context (ElaipBench's base setting)
	ModeBM25   = "bm25"        // top-k passages only (classic RAG)
	ModeDense  = "dense"
	ModeHybrid = "hybrid"
	FullBM25   = "full+bm25" // paper + retrieved passages as auxiliary knowledge (ElaipBench's RAG setting)
	FullDense  = "full+dense"
	FullHybrid = "full+hybrid"
	Oracle     = "oracle"   // gold evidence only: the ceiling for retrieval
	Web        = "web"      // question + web snippets (web retrieval issue)
	FullWeb    = "full+web" // paper + web snippets
)

// AllModes lists every mode in report order.
var AllModes = []string{ClosedBook, Full, ModeBM25, ModeDense, ModeHybrid, FullBM25, FullDense, FullHybrid, Oracle, Web, FullWeb}

// modeSpec says what context a mode assembles.
type modeSpec struct {
	paper     bool
	retriever string // "" for none
	oracle    bool
	web       bool
}

func specOf(mode string) (modeSpec, error) {
	switch mode {
	case ClosedBook:
		return modeSpec{}, nil
	case Full:
		return modeSpec{paper: true}, nil
	case ModeBM25, ModeDense, ModeHybrid:
		return modeSpec{retriever: mode}, nil
	case FullBM25, FullDense, FullHybrid:
		return modeSpec{paper: true, retriever: strings.TrimPrefix(mode, "full+")}, nil
	case Oracle:
		return modeSpec{oracle: true}, nil
	case Web:
		return modeSpec{web: true}, nil
	case FullWeb:
		return modeSpec{paper: true, web: true}, nil
	}
	return modeSpec{}, fmt.Errorf("unknown mode %q: use %s", mode, strings.Join(AllModes, ", "))
}

// Paradigms (the --paradigm flag).
const (
	Base      = "base"      // answer letters only (ElaipBench: temperature 0.1, 32 new tokens)
	CoT       = "cot"       // "Let's think step by step." (4,096 tokens)
	Reasoning = "reasoning" // base prompt, room to think; reasoning text kept
)

// Config is everything needed to rerun an evaluation; it is written to
// config.json in the run folder and holds no secrets.
type Config struct {
	Bench            string   `json:"bench"`
	Data             string   `json:"data"`
	Papers           string   `json:"papers,omitempty"`
	Home             string   `json:"home"`
	Model            string   `json:"model"`
	BaseURL          string   `json:"base_url,omitempty"`
	APIKeyEnv        string   `json:"api_key_env,omitempty"` // the variable's name, never its value
	Modes            []string `json:"modes"`
	Paradigm         string   `json:"paradigm"`
	Runs             int      `json:"runs"`
	Concurrency      int      `json:"concurrency"`
	K                int      `json:"k"`
	Budget           int      `json:"budget"`
	MaxTokens        int      `json:"max_tokens"`
	Temperature      float64  `json:"temperature"`
	TopP             float64  `json:"top_p"`
	Order            string   `json:"order"`      // snippet order: score or document
	QueryForm        string   `json:"query_form"` // stem, full or options
	JudgeModel       string   `json:"judge_model,omitempty"`
	JudgeURL         string   `json:"judge_base_url,omitempty"`
	PromptDir        string   `json:"prompt_dir,omitempty"`
	Out              string   `json:"out"`
	Seed             int64    `json:"seed"`
	IRThreshold      float64  `json:"ir_threshold"`
	RPM              int      `json:"rpm,omitempty"`
	TPM              int      `json:"tpm,omitempty"`
	Fields           string   `json:"fields,omitempty"` // LPFQA field map
	MaxPassageTokens int      `json:"max_passage_tokens"`
	WebProvider      string   `json:"web_provider,omitempty"`
	WebResults       int      `json:"web_results,omitempty"`
	WebTokens        int      `json:"web_tokens,omitempty"`
	WebQuery         string   `json:"web_query,omitempty"` // question+title (ElaipBench default) or question
	WebReplay        bool     `json:"web_replay,omitempty"`
}

// Defaults fills what the user left unset, by benchmark and paradigm, as the
// papers did: ElaipBench base 0.1 / 32 tokens, CoT 4,096; LPFQA 1.0 / top_p 1.
func (c *Config) Defaults(setTemp, setTopP, setMax bool) {
	if c.Paradigm == "" {
		c.Paradigm = Base
	}
	if c.Runs <= 0 {
		c.Runs = 3
	}
	if c.Concurrency <= 0 {
		c.Concurrency = 8
	}
	if c.K <= 0 {
		c.K = 5
	}
	if c.Budget <= 0 {
		c.Budget = 32768
	}
	if c.Order == "" {
		c.Order = "score"
	}
	if c.QueryForm == "" {
		c.QueryForm = "stem"
	}
	if c.IRThreshold <= 0 {
		c.IRThreshold = 0.9
	}
	if c.MaxPassageTokens <= 0 {
		c.MaxPassageTokens = 512
	}
	if len(c.Modes) == 0 {
		if c.Bench == "lpfqa" {
			c.Modes = []string{ClosedBook}
		} else {
			c.Modes = []string{ClosedBook, Full, FullBM25, FullDense, FullHybrid, ModeHybrid, Oracle}
		}
	}
	if !setTemp {
		c.Temperature = 0.1
		if c.Bench == "lpfqa" {
			c.Temperature = 1
		}
	}
	if !setTopP {
		c.TopP = 1
	}
	if !setMax {
		switch c.Paradigm {
		case CoT:
			c.MaxTokens = 4096
		case Reasoning:
			c.MaxTokens = 16384
		default:
			c.MaxTokens = 32
			if c.Bench == "lpfqa" {
				c.MaxTokens = 2048
			}
		}
	}
}

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
		if _, err := specOf(m); err != nil {
			return err
		}
	}
	if c.Order != "score" && c.Order != "document" {
		return fmt.Errorf("--order %q: use score or document", c.Order)
	}
	return nil
}

// Offline reports whether the model is one of the offline baselines.
func (c *Config) Offline() bool { return c.Model == "random" || c.Model == "ir" }

func writeConfig(dir string, c Config) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "config.json"), append(b, '\n'), 0o644)
}
