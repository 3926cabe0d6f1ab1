package run

import (
	"context"
	"fmt"
	"net/http"

	"github.com/paperlens/paperlens/eval/agent/python"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/prompts"
	"github.com/paperlens/paperlens/model"
)

// Plan is what a run would send, counted before any call (--dry-run).
type Plan struct {
	// Calls is the number of model calls left to make (records already
	// finished in the run folder are not counted).
	Calls int `json:"calls"`
	// PromptTokens is the sum of their prompts, counted exactly in
	// cl100k_base on the assembled prompts (a provider's own tokenizer may
	// count a few percent differently).
	PromptTokens int `json:"prompt_tokens"`
	// CompletionTokensMax is the most the answers can use: Calls × the
	// answer length.
	CompletionTokensMax int `json:"completion_tokens_max"`
	// JudgeCalls is at most one per short answer; their prompts hold the
	// answers, so they are not in PromptTokens.
	JudgeCalls int `json:"judge_calls,omitempty"`
	// CostUSD is the prompt tokens at --price plus the answers at their
	// maximum; PromptCostUSD the prompts alone. Absent without a price.
	CostUSD       *float64 `json:"cost_usd,omitempty"`
	PromptCostUSD *float64 `json:"prompt_cost_usd,omitempty"`
	Resumed       int      `json:"resumed"`
	// PythonSandbox says how this machine bounds the python tool's session
	// (a cgroup, or rlimits only) and what that guarantees; set when a
	// mode calls the python tool.
	PythonSandbox *PlanSandbox `json:"python_sandbox,omitempty"`
	// ByMode splits Calls and PromptTokens by mode.
	ByMode map[string]PlanMode `json:"by_mode"`
	// Estimated names the modes whose prompts hold web results that a
	// dry run does not fetch: counted as if every result filled
	// --web-tokens.
	Estimated []string `json:"estimated,omitempty"`
	// Problems are the questions whose prompt cannot be built (a missing
	// paper, a budget too small): they would be recorded as errors.
	Problems []string `json:"problems,omitempty"`
	// CallsMax and PromptTokensMax bound a run with tool modes, whose
	// questions take one model call when the model calls no tool and up
	// to --max-tool-calls + 1: every turn counted, each tool result at
	// its largest, each prompt at most --budget less --max-tokens. Calls
	// and PromptTokens then count each tool-mode question's first turn.
	// Self-route is bounded the same way: Calls and PromptTokens count its
	// first call (the passages), the bound adds the paper's. Without tool
	// modes or self-route they equal Calls and PromptTokens.
	CallsMax        int `json:"calls_max"`
	PromptTokensMax int `json:"prompt_tokens_max"`
	// ToolModes names the modes so bounded.
	ToolModes []string `json:"tool_modes,omitempty"`
}

// PlanSandbox is python.Mechanism's answer for the run's limits.
type PlanSandbox struct {
	Mechanism string `json:"mechanism"`
	Guarantee string `json:"guarantee"`
}

// PlanMode is one mode's share of a Plan.
type PlanMode struct {
	Calls           int `json:"calls"`
	PromptTokens    int `json:"prompt_tokens"`
	CallsMax        int `json:"calls_max"`
	PromptTokensMax int `json:"prompt_tokens_max"`
}

// DryRun assembles every prompt the run would send and counts calls and
// tokens. It sends nothing and writes nothing. Web modes are built from the
// configured search when opt.Web is set; without it they are estimated.
func DryRun(ctx context.Context, opt Options) (Plan, error) {
	cfg := opt.Config
	if err := cfg.Validate(); err != nil {
		return Plan{}, err
	}
	ps, err := prompts.Load(cfg.PromptDir)
	if err != nil {
		return Plan{}, err
	}
	jobs, finished, err := pending(cfg, opt.Questions)
	if err != nil {
		return Plan{}, err
	}
	b := newBuilder(opt, ps)
	p := Plan{Resumed: len(finished), ByMode: map[string]PlanMode{}}
	for _, n := range cfg.Modes {
		if m, _ := mode.Lookup(n); m.HasTool(mode.ToolPythonCell) {
			name, why := python.Mechanism(cfg.PythonOptions())
			p.PythonSandbox = &PlanSandbox{Mechanism: name, Guarantee: why}
			break
		}
	}
	offline := cfg.Offline()
	estimated := map[string]bool{}
	problem := map[string]bool{}
	sizes := promptSizes{}
	for _, j := range jobs {
		if err := ctx.Err(); err != nil {
			return p, err
		}
		name := j.mode
		extra := 0
		if m, _ := mode.Lookup(name); m.Web && opt.Web == nil {
			// Stand in the same mode without web results, plus the most
			// the results can add.
			name = m.Baseline
			extra = cfg.WebResults * cfg.WebTokens
			estimated[j.mode] = true
		}
		bt, err := sizes.of(ctx, b, j.q, name)
		if err != nil {
			if k := j.q.ID + " [" + j.mode + "]"; !problem[k] {
				problem[k] = true
				p.Problems = append(p.Problems, fmt.Sprintf("%s: %v", k, err))
			}
			continue
		}
		m := p.ByMode[j.mode]
		if !offline {
			m.Calls++
			m.PromptTokens += bt.tokens + extra
			calls, most := 1, bt.tokens+extra
			if md, _ := mode.Lookup(j.mode); md.UsesTools() {
				calls, most = toolBound(cfg, md, bt.tokens)
			} else if md.Route && bt.full != nil {
				// Self-route: the passages surely, the paper at most.
				calls, most = 2, bt.tokens+bt.full.tokens
			}
			m.CallsMax += calls
			m.PromptTokensMax += most
			if j.q.Type == "short" && len(j.q.MCQ.Options) < 2 && cfg.JudgeModel != "" {
				p.JudgeCalls++
			}
		}
		p.ByMode[j.mode] = m
	}
	for _, m := range p.ByMode {
		p.Calls += m.Calls
		p.PromptTokens += m.PromptTokens
		p.CallsMax += m.CallsMax
		p.PromptTokensMax += m.PromptTokensMax
	}
	p.CompletionTokensMax = p.CallsMax * cfg.MaxTokens
	for _, m := range cfg.Modes {
		if estimated[m] {
			p.Estimated = append(p.Estimated, m)
		}
		if md, _ := mode.Lookup(m); md.UsesTools() {
			p.ToolModes = append(p.ToolModes, m)
		}
	}
	if cfg.Price != nil {
		in := cfg.Price.Cost(Tokens{Prompt: p.PromptTokens})
		all := cfg.Price.Cost(Tokens{Prompt: p.PromptTokensMax, Completion: p.CompletionTokensMax})
		p.PromptCostUSD, p.CostUSD = &in, &all
	}
	return p, nil
}

// promptSizes keeps, per question and mode, the sizes of its prompt that
// the plan counts, not the prompt: every run asks the same prompt, and
// the builder keeps none (see builder.build).
type promptSizes map[key]promptSize

// promptSize is a prompt's tokens and, for self-route, its second
// prompt's (full is nil without one).
type promptSize struct {
	tokens int
	full   *built
}

// of is the sizes of q's prompt under name, assembled on the first ask.
func (ps promptSizes) of(ctx context.Context, b *builder, q *bench.Question, name string) (promptSize, error) {
	k := key{q.ID, name, 0}
	if s, ok := ps[k]; ok {
		return s, nil
	}
	bt, err := b.build(ctx, *q, name)
	if err != nil {
		return promptSize{}, err
	}
	s := promptSize{tokens: bt.tokens}
	if bt.full != nil {
		s.full = &built{tokens: bt.full.tokens}
	}
	ps[k] = s
	return s, nil
}

// toolBound is the most model calls and prompt tokens one question of a
// tool mode can take when its first prompt is first tokens: the cap's
// calls plus the forced answer, each turn's prompt grown by the largest
// result of the mode's tools and capped by the budget.
func toolBound(cfg Config, m mode.Mode, first int) (calls, tokens int) {
	largest := 0
	for _, t := range m.Tools {
		n := 0
		switch t {
		case mode.ToolSearchPaper:
			n = cfg.K * chunkMax
		case mode.ToolOpenPage:
			n = cfg.WebTokens
		case mode.ToolWebSearch:
			n = cfg.WebResults * 100 // title, URL and snippet
		case mode.ToolPythonCell:
			n = 3 * python.DefaultOutput / 4 // stdout, stderr and value, about 4 bytes a token
		}
		largest = max(largest, n+50) // the call and its framing
	}
	room := cfg.Budget - cfg.MaxTokens
	for turn := 0; turn <= cfg.MaxToolCalls; turn++ {
		p := first + turn*largest
		if room > 0 && p > room {
			p = room
		}
		tokens += p
	}
	return cfg.MaxToolCalls + 1, tokens
}

// chunkMax is the most tokens of one passage (the chunker's limit).
const chunkMax = 512

// PreflightPrompt is the one message of the preflight call.
const PreflightPrompt = "Reply with the word OK."

// Preflight makes one small call (a one-word reply, at most 16 tokens, with
// the run's request fields) to check that the endpoint answers, accepts the
// key, serves the model and takes the fields, before anything is written.
// prefix is "" for the model under test, "judge-" for the judge, so that a
// refused field names the right flag.
func Preflight(ctx context.Context, chat model.Chat, modelName string, s Sampling, header http.Header, prefix string) error {
	if s.MaxTokens > 16 || s.MaxTokens == 0 {
		s.MaxTokens = 16
	}
	_, err := chat.Complete(ctx, s.Request(modelName, []model.Message{{Role: "user", Content: PreflightPrompt}}, 0, header))
	if err == nil {
		return nil
	}
	if r := refused(err, prefix); r != nil {
		return fmt.Errorf("preflight call to %s: %w", modelName, r)
	}
	return fmt.Errorf("preflight call to %s failed, so the run did not start: %w", modelName, err)
}
