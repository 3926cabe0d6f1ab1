package run

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/paperlens/paperlens/eval/agent"
	"github.com/paperlens/paperlens/eval/agent/python"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/model"
	"github.com/paperlens/paperlens/retrieve/evidence"
	"github.com/paperlens/paperlens/retrieve/web"
)

// ToolsFile is the tool cache inside a run folder: every tool result of the
// tool modes, so that a rerun or resume makes no tool call for a finished
// turn (the model's turns replay through the response cache).
const ToolsFile = "tools.db"

// WebTools is what tool-search's tools use: the search engine of
// --web-provider and the guarded page fetcher.
type WebTools struct {
	Provider web.Provider
	Fetcher  *web.Fetcher
	// Title, when set, gives a paper's title. web_search then hides the
	// question's own paper (by its id in a URL, or its title) and
	// open_page refuses it, as the web modes leave it out.
	Title func(paperID string) string
}

// skip is what a question's web tools hide: its own paper, when it has
// one.
func (w *WebTools) skip(q bench.Question) func(web.Result) bool {
	if q.PaperID == "" {
		return nil
	}
	own := web.Own{ID: q.PaperID}
	if w.Title != nil {
		own.Title = w.Title(q.PaperID)
	}
	return own.Matches
}

// toolModes are the configured modes in which the model calls tools.
func toolModes(names []string) []string {
	var out []string
	for _, n := range names {
		if m, ok := mode.Lookup(n); ok && m.UsesTools() {
			out = append(out, n)
		}
	}
	return out
}

// checkToolModes is the preflight of the tool modes that have work left:
// the python tool must be able to start (bubblewrap, or --unsafe-python),
// and the model must call tools (model.CheckTools, one call).
func checkToolModes(ctx context.Context, opt Options, jobs []job) error {
	cfg := opt.Config
	left := map[string]bool{}
	var names []string
	for _, j := range jobs {
		if m, _ := mode.Lookup(j.mode); m.UsesTools() && !left[j.mode] {
			left[j.mode] = true
			names = append(names, j.mode)
		}
	}
	if len(names) == 0 {
		return nil
	}
	for _, n := range names {
		m, _ := mode.Lookup(n)
		if m.HasTool(mode.ToolPythonCell) && !cfg.Offline() {
			py, err := python.New(cfg.PythonOptions())
			if err != nil {
				return fmt.Errorf("mode %s: %w", n, err)
			}
			py.Close()
		}
	}
	if cfg.Offline() || opt.Chat == nil {
		return nil
	}
	if err := model.CheckTools(ctx, opt.Chat, cfg.Sampling.Request(cfg.Model, nil, 0, opt.Header)); err != nil {
		return fmt.Errorf("mode %s needs a model that calls tools, and the run did not start: %w", strings.Join(names, ", "), err)
	}
	return nil
}

// usesSearchPaper reports whether a configured mode gives the model
// search_paper.
func (c Config) usesSearchPaper() bool {
	for _, n := range c.Modes {
		if m, ok := mode.Lookup(n); ok && m.HasTool(mode.ToolSearchPaper) {
			return true
		}
	}
	return false
}

// tools builds the tools of one question under a tool mode; the caller
// closes them.
func (s llmSolver) tools(q bench.Question, m mode.Mode) ([]agent.Tool, error) {
	var out []agent.Tool
	for _, name := range m.Tools {
		switch name {
		case mode.ToolSearchPaper:
			if s.ix == nil {
				return out, fmt.Errorf("mode %s needs the retrieval index, which is not open", m.Name)
			}
			name := s.cfg.ToolRetriever
			if name == "" {
				name = AgentRetriever
			}
			r, err := s.ix.Retriever(name)
			if err != nil {
				return out, err
			}
			out = append(out, &agent.SearchPaper{Retriever: r, PaperID: q.PaperID, K: s.cfg.K, Exclude: s.cfg.Excluded()})
		case mode.ToolWebSearch:
			if s.web == nil || s.web.Provider == nil {
				return out, fmt.Errorf("mode %s needs a web provider (--web-provider)", m.Name)
			}
			out = append(out, &agent.WebSearch{Provider: s.web.Provider, N: s.cfg.WebResults, Skip: s.web.skip(q)})
		case mode.ToolOpenPage:
			if s.web == nil || s.web.Fetcher == nil {
				return out, fmt.Errorf("mode %s needs the page fetcher of a web provider (--web-provider)", m.Name)
			}
			out = append(out, &agent.OpenPage{Fetcher: s.web.Fetcher, Tokens: s.cfg.WebTokens, Skip: s.web.skip(q)})
		case mode.ToolPythonCell:
			py, err := python.New(s.cfg.PythonOptions())
			if err != nil {
				return out, err
			}
			out = append(out, py)
		default:
			return out, fmt.Errorf("mode %s: no tool %q", m.Name, name)
		}
	}
	return out, nil
}

// AgentRetriever ranks the passages search_paper returns unless
// --tool-retriever says otherwise.
const AgentRetriever = "bm25"

// solveTools runs the tool loop of one question: every turn through the
// model stack, every tool result through the run's tool cache.
func (s llmSolver) solveTools(ctx context.Context, q bench.Question, m mode.Mode, run int, b built) (answer, error) {
	tools, err := s.tools(q, m)
	defer func() {
		for _, t := range tools {
			t.Close()
		}
	}()
	if err != nil {
		return answer{}, err
	}
	// PromptTokens: the first turn counts as the assembled prompt does in
	// every mode (b.tokens); the record's PromptTokens is then the sum of
	// every turn's prompt (Transcript.PromptTokens), not the first's alone.
	opt := agent.Options{MaxToolCalls: s.cfg.MaxToolCalls, Budget: s.cfg.Budget - s.cfg.MaxTokens, PromptTokens: b.tokens}
	if s.toolCache != nil {
		opt.Cache = s.toolCache
		opt.Key = s.cfg.Bench + "/" + q.ID + "/" + m.Name + "/" + strconv.Itoa(run)
	}
	start := time.Now()
	tr, err := agent.Run(ctx, s.chat, s.cfg.Sampling.Request(s.cfg.Model, b.messages, run, s.header), tools, opt)
	cached, cut := len(tr.Steps) > 0, false
	for _, st := range tr.Steps {
		cached = cached && st.Cached
		cut = cut || st.ReplyCut
	}
	ans := answer{output: tr.Answer, reasoning: tr.Reasoning, usage: tr.Usage, latency: time.Since(start),
		cached: cached, attempts: 1, finish: tr.FinishReason, cut: cut, transcript: &tr}
	if err != nil {
		return ans, fmt.Errorf("mode %s: %w", m.Name, err)
	}
	return ans, nil
}

// toolEvidence sets what a tool mode's record says the model was shown:
// every passage search_paper returned, in the order first shown, and the
// share of the gold evidence they hold.
func (b *builder) toolEvidence(q bench.Question, tr *agent.Transcript, r *Record) {
	ids := tr.Passages()
	if len(ids) == 0 {
		return
	}
	texts := map[string]string{}
	if b.st != nil {
		if ps, err := b.st.Passages(q.PaperID); err == nil {
			for _, p := range ps {
				texts[p.PassageID] = p.Text
			}
		}
	}
	var snippets []string
	for i, id := range ids {
		r.Context = append(r.Context, ContextItem{PassageID: id, Rank: i + 1, Retriever: mode.ToolSearchPaper})
		if t, ok := texts[id]; ok {
			snippets = append(snippets, t)
		}
	}
	if len(snippets) < len(ids) {
		// Without the passages' texts, read what the tool sent.
		snippets = snippets[:0]
		for _, st := range tr.Steps {
			for _, c := range st.Calls {
				if c.Name == mode.ToolSearchPaper && len(c.Result.Passages) > 0 {
					snippets = append(snippets, c.Result.Text)
				}
			}
		}
	}
	if strings.TrimSpace(q.Evidence) != "" {
		g := evidence.ParseGold(q.Evidence, evidence.Options{})
		if !g.Empty() {
			v := g.Score(snippets).RecallAt(len(snippets))
			r.Recall = &v
		}
	}
}

// PythonOptions are the python tool's limits this run asks for.
func (c Config) PythonOptions() python.Options {
	return python.Options{Unsafe: c.UnsafePython, Memory: c.ToolMemory, Processes: c.ToolProcesses}
}
