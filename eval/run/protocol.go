package run

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/protocol"
)

// Protocol states what a run did against its benchmark's paper, setting by
// setting (summary.json "protocol"): the paper's value, the run's, whether
// they match and, where not, why (a flag the user gave, a server's
// refusal, an offline default).
func Protocol(cfg Config) protocol.Record {
	t := protocol.For(cfg.Bench)
	obs := map[string]protocol.Observed{}
	// given is the reason of a value the user asked for with a flag.
	given := func(flags ...string) string {
		for _, f := range flags {
			if cfg.setByUser(f) {
				return "--" + f + " given"
			}
		}
		return ""
	}
	set := func(name, value string, flags ...string) {
		obs[name] = protocol.Observed{Value: value, Why: given(flags...)}
	}
	floatText := func(p *float64) string {
		if p == nil {
			return protocol.None
		}
		return strconv.FormatFloat(*p, 'g', -1, 64)
	}
	set(protocol.Temperature, floatText(cfg.Temperature), "temperature")
	set(protocol.TopP, floatText(cfg.TopP), "top-p")
	// Only temperature and top_p are ever dropped (Config.droppable), and
	// their request names are the settings' names.
	for _, d := range cfg.Dropped {
		obs[d.Param] = protocol.Observed{Value: protocol.None, Why: d.Why}
	}
	set(protocol.MaxTokens, strconv.Itoa(cfg.MaxTokens), "max-tokens", "max-completion-tokens")
	set(protocol.Runs, strconv.Itoa(cfg.Runs), "runs")

	var usesPaper, usesRetrieval, usesDense, usesBM25, usesWeb bool
	for _, name := range cfg.Modes {
		m, ok := mode.Lookup(name)
		if !ok {
			continue
		}
		usesPaper = usesPaper || m.NeedsPaper()
		usesRetrieval = usesRetrieval || m.NeedsIndex()
		r := m.Retriever
		if m.Route {
			r = cfg.RouteRetriever
		}
		if len(m.Tools) > 0 && m.HasTool(mode.ToolSearchPaper) {
			r = cfg.ToolRetriever
		}
		usesDense = usesDense || r == "dense" || r == "hybrid"
		usesBM25 = usesBM25 || r == "bm25" || r == "hybrid"
		usesWeb = usesWeb || m.Web || m.HasTool(mode.ToolWebSearch)
	}
	if usesPaper || usesRetrieval {
		set(protocol.ContextBudget, strconv.Itoa(cfg.Budget), "budget")
	}
	if cfg.Bench == "lpfqa" {
		obs[protocol.Prompt] = protocol.Observed{Value: protocol.PromptLPFQA}
	} else {
		obs[protocol.Prompt] = protocol.Observed{Value: promptVariant(cfg)}
	}
	if cfg.PromptDir != "" {
		obs[protocol.Prompt] = protocol.Observed{Value: protocol.PromptCustom, Why: "--prompt-dir " + cfg.PromptDir + " given"}
	} else if cfg.Paradigm == CoT && cfg.CoTPrompt == CoTAnswerLine {
		obs[protocol.Prompt] = protocol.Observed{Value: protocol.PromptAnswerLine, Why: "--cot-prompt answer-line given"}
	}
	if usesRetrieval {
		set(protocol.Query, cfg.QueryForm, "query")
		set(protocol.K, strconv.Itoa(cfg.K), "k")
		set(protocol.PassageTokens, strconv.Itoa(cfg.MaxPassageTokens), "max-passage-tokens")
		obs[protocol.Tokenizer] = protocol.Observed{Value: protocol.Cl100k}
	}
	if usesBM25 {
		set(protocol.BM25, cfg.BM25, "bm25")
		if cfg.BM25 == "" {
			// A folder written before --bm25 existed ranked with Bleve.
			obs[protocol.BM25] = protocol.Observed{Value: protocol.BleveScorer, Why: "the run predates --bm25, when bm25 within a paper was Bleve's"}
		}
	}
	if usesDense {
		enc := cfg.Embedder
		if enc == "" {
			enc = "unknown"
		}
		o := protocol.Observed{Value: enc, Why: given("embedder")}
		// An OpenAI-compatible embedder serving BGE-m3 is the paper's
		// encoder, whatever its provenance suffix.
		if strings.Contains(strings.ToLower(enc), "bge-m3") {
			o.Value = protocol.BGEM3
		}
		if o.Why == "" && strings.HasPrefix(enc, protocol.LSA) {
			s, _ := t.Setting(protocol.DenseEncoder)
			o.Why = s.Why
		}
		obs[protocol.DenseEncoder] = o
	}
	if usesWeb {
		set(protocol.WebProvider, cfg.WebProvider, "web-provider")
		set(protocol.WebResults, strconv.Itoa(cfg.WebResults), "web-results")
		set(protocol.WebTokens, strconv.Itoa(cfg.WebTokens), "web-tokens")
		wq := cfg.WebQuery
		if wq == "" {
			wq = protocol.QuestionTitle
			if cfg.Bench != "elaipbench" {
				wq = "question"
			}
		}
		set(protocol.WebQuery, wq, "web-query")
	}
	share := protocol.SharePerMode
	if cfg.SharePrompts {
		share = protocol.ShareIdentical
	}
	set(protocol.CacheSharing, share, "share-identical-prompts")
	credit := protocol.NoCredit
	if cfg.ExtractFromReasoning {
		credit = protocol.ExtractReasoning
	}
	set(protocol.ReasoningText, credit, "extract-from-reasoning")
	obs[protocol.Denominator] = protocol.Observed{Value: protocol.AllQuestions}

	if cfg.Bench == "lpfqa" {
		j := protocol.Observed{Value: protocol.None, Why: "no --judge-model: no accuracy is reported"}
		if cfg.JudgeModel != "" {
			j = protocol.Observed{Value: protocol.JudgeLLM, Why: "judge " + cfg.JudgeModel}
		}
		obs[protocol.Judge] = j
		mcq := protocol.Observed{Value: cfg.LPFQAMCQ, Why: given("lpfqa-mcq")}
		if cfg.JudgeModel == "" && cfg.LPFQAMCQ == protocol.MCQJudged {
			mcq = protocol.Observed{Value: protocol.MCQExtract, Why: "no --judge-model: multiple-choice letters are extracted, reported apart"}
		}
		obs[protocol.LPFQAMCQ] = mcq
	} else {
		obs[protocol.Judge] = protocol.Observed{Value: protocol.ExactMatch}
	}
	rec := t.Compare(cfg.Paradigm, obs)
	// A matching setting that came from a flag still says so.
	for i, c := range rec.Settings {
		if c.Match && c.Why == "" {
			rec.Settings[i].Why = obs[c.Name].Why
		}
	}
	return rec
}

// promptVariant is the ElaipBench prompt a run's paradigm renders.
func promptVariant(cfg Config) string {
	if cfg.Paradigm == CoT {
		if cfg.CoTPrompt == CoTAnswerLine {
			return protocol.PromptAnswerLine
		}
		return protocol.PromptStep
	}
	return protocol.PromptBase
}

// ProtocolText is the Protocol block of summary.md, the inspector and the
// report: one line per departure, or a line saying there is none.
func ProtocolText(p protocol.Record) []string {
	d := p.Departures()
	if len(d) == 0 {
		return []string{fmt.Sprintf("Every setting matches %s.", p.Source)}
	}
	var out []string
	for _, c := range d {
		out = append(out, fmt.Sprintf("%s: %s here, %s in the paper (%s)", c.Name, c.Run, orNotStated(c.Paper), c.Why))
	}
	return out
}

func orNotStated(s string) string {
	if s == "" {
		return "not stated"
	}
	return s
}
