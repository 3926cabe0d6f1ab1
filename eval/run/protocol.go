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
//
// The run's settings are observed group by group (sampling, prompt,
// retrieval, dense encoder, web, scoring), only for what its modes use,
// then compared with the paper's.
func Protocol(cfg Config) protocol.Record {
	t := protocol.For(cfg.Bench)
	o := observer{cfg: cfg, obs: map[string]protocol.Observed{}}
	o.sampling()
	u := usesOf(cfg)
	if u.paper || u.retrieval {
		o.set(protocol.ContextBudget, strconv.Itoa(cfg.Budget), "budget")
	}
	o.obs[protocol.Prompt] = promptObserved(cfg)
	if u.retrieval {
		o.retrieval()
	}
	if u.bm25 {
		o.bm25()
	}
	if u.dense {
		o.dense(t)
	}
	if u.web {
		o.web()
	}
	o.stores(u)
	o.scoring()
	rec := t.Compare(cfg.Paradigm, o.obs)
	// A matching setting that came from a flag still says so.
	for i, c := range rec.Settings {
		if c.Match && c.Why == "" {
			rec.Settings[i].Why = o.obs[c.Name].Why
		}
	}
	return rec
}

// observer collects a run's observed settings.
type observer struct {
	cfg Config
	obs map[string]protocol.Observed
}

// given is the reason of a value the user asked for with one of flags.
func (o observer) given(flags ...string) string {
	for _, f := range flags {
		if o.cfg.setByUser(f) {
			return "--" + f + " given"
		}
	}
	return ""
}

// set observes a setting's value, given by the user when one of flags was.
func (o observer) set(name, value string, flags ...string) {
	o.obs[name] = protocol.Observed{Value: value, Why: o.given(flags...)}
}

// floatText is a sampling value as the protocol states it.
func floatText(p *float64) string {
	if p == nil {
		return protocol.None
	}
	return strconv.FormatFloat(*p, 'g', -1, 64)
}

// sampling observes the request's sampling settings, those the server
// refused (dropped) included, and the number of runs.
func (o observer) sampling() {
	cfg := o.cfg
	o.set(protocol.Temperature, floatText(cfg.Temperature), "temperature")
	o.set(protocol.TopP, floatText(cfg.TopP), "top-p")
	// Only temperature and top_p are ever dropped (Config.droppable), and
	// their request names are the settings' names.
	for _, d := range cfg.Dropped {
		o.obs[d.Param] = protocol.Observed{Value: protocol.None, Why: d.Why}
	}
	o.set(protocol.MaxTokens, strconv.Itoa(cfg.MaxTokens), "max-tokens", "max-completion-tokens")
	o.set(protocol.Runs, strconv.Itoa(cfg.Runs), "runs")
}

// uses says what a run's modes use: the paper in context, retrieval, and
// which retrievers, the web.
type uses struct {
	paper, retrieval, dense, bm25, web bool
}

// usesOf looks up every mode of the run. Self-route ranks with
// RouteRetriever and a search_paper tool with ToolRetriever.
func usesOf(cfg Config) uses {
	var u uses
	for _, name := range cfg.Modes {
		m, ok := mode.Lookup(name)
		if !ok {
			continue
		}
		u.paper = u.paper || m.NeedsPaper()
		u.retrieval = u.retrieval || m.NeedsIndex()
		r := m.Retriever
		if m.Route {
			r = cfg.RouteRetriever
		}
		if len(m.Tools) > 0 && m.HasTool(mode.ToolSearchPaper) {
			r = cfg.ToolRetriever
		}
		u.dense = u.dense || r == "dense" || r == "hybrid"
		u.bm25 = u.bm25 || r == "bm25" || r == "hybrid"
		u.web = u.web || m.Web || m.HasTool(mode.ToolWebSearch)
	}
	return u
}

// promptObserved is the prompt the run rendered: LPFQA's, the paradigm's
// ElaipBench prompt, or one the user chose (a prompt folder, CoT's
// answer-line prompt).
func promptObserved(cfg Config) protocol.Observed {
	switch {
	case cfg.PromptDir != "":
		return protocol.Observed{Value: protocol.PromptCustom, Why: "--prompt-dir " + cfg.PromptDir + " given"}
	case cfg.Paradigm == CoT && cfg.CoTPrompt == CoTAnswerLine:
		return protocol.Observed{Value: protocol.PromptAnswerLine, Why: "--cot-prompt answer-line given"}
	case cfg.Bench == "lpfqa":
		return protocol.Observed{Value: protocol.PromptLPFQA}
	}
	return protocol.Observed{Value: promptVariant(cfg)}
}

// retrieval observes the query, k, passage size and tokenizer.
func (o observer) retrieval() {
	cfg := o.cfg
	o.set(protocol.Query, cfg.QueryForm, "query")
	o.set(protocol.K, strconv.Itoa(cfg.K), "k")
	o.set(protocol.PassageTokens, strconv.Itoa(cfg.MaxPassageTokens), "max-passage-tokens")
	o.obs[protocol.Tokenizer] = protocol.Observed{Value: protocol.Cl100k}
}

// bm25 observes the BM25 scorer. A folder written before --bm25 existed
// ranked with Bleve.
func (o observer) bm25() {
	o.set(protocol.BM25, o.cfg.BM25, "bm25")
	if o.cfg.BM25 == "" {
		o.obs[protocol.BM25] = protocol.Observed{Value: protocol.BleveScorer, Why: "the run predates --bm25, when bm25 within a paper was Bleve's"}
	}
}

// dense observes the dense encoder. An OpenAI-compatible embedder serving
// BGE-m3 is the paper's encoder, whatever its provenance suffix; the
// offline LSA encoder says why it stands in, as the table t does.
func (o observer) dense(t protocol.Table) {
	enc := o.cfg.Embedder
	if enc == "" {
		enc = "unknown"
	}
	ob := protocol.Observed{Value: enc, Why: o.given("embedder")}
	if strings.Contains(strings.ToLower(enc), "bge-m3") {
		ob.Value = protocol.BGEM3
	}
	if ob.Why == "" && strings.HasPrefix(enc, protocol.LSA) {
		s, _ := t.Setting(protocol.DenseEncoder)
		ob.Why = s.Why
	}
	o.obs[protocol.DenseEncoder] = ob
}

// stores observes where BM25 and dense search were served from. Searches
// within a paper are exact and use --bm25's scorer on every store; what a
// cluster changes is corpus-wide search (the corpus web stand-in, tools).
func (o observer) stores(u uses) {
	st := o.cfg.IndexStores
	if u.bm25 || u.web {
		ob := protocol.Observed{Value: protocol.StoreEmbedded}
		if v := st["bm25_store"]; v != "" && v != protocol.StoreEmbedded {
			ob = protocol.Observed{Value: v, Why: "--bm25-store " + v + " given: corpus-wide bm25 scores with Qdrant's IDF (always positive, counted per shard); bm25 within a paper keeps --bm25's scorer"}
		}
		o.obs[protocol.BM25Store] = ob
	}
	if u.dense || u.web {
		ob := protocol.Observed{Value: protocol.ExactSearch}
		if st["vector_store"] == "qdrant" && st["qdrant_ef"] != "" && st["qdrant_ef"] != "0" {
			ob = protocol.Observed{Value: "hnsw ef=" + st["qdrant_ef"] + " across papers",
				Why: "--vector-store qdrant given: corpus-wide dense search walks Qdrant's HNSW graph; searches within a paper stay exact (--qdrant-ef 0 makes both exact)"}
		}
		o.obs[protocol.DenseSearch] = ob
	}
}

// web observes the web search settings; the query defaults to question
// and title for ElaipBench, the question elsewhere.
func (o observer) web() {
	cfg := o.cfg
	o.set(protocol.WebProvider, cfg.WebProvider, "web-provider")
	o.set(protocol.WebResults, strconv.Itoa(cfg.WebResults), "web-results")
	o.set(protocol.WebTokens, strconv.Itoa(cfg.WebTokens), "web-tokens")
	wq := cfg.WebQuery
	if wq == "" {
		wq = protocol.QuestionTitle
		if cfg.Bench != "elaipbench" {
			wq = "question"
		}
	}
	o.set(protocol.WebQuery, wq, "web-query")
}

// scoring observes cache sharing, credit for reasoning text, the
// denominator and the judge: exact match, or for LPFQA the judge model
// (none without --judge-model, which also makes its multiple-choice rows
// extracted rather than judged).
func (o observer) scoring() {
	cfg := o.cfg
	share := protocol.SharePerMode
	if cfg.SharePrompts {
		share = protocol.ShareIdentical
	}
	o.set(protocol.CacheSharing, share, "share-identical-prompts")
	credit := protocol.NoCredit
	if cfg.ExtractFromReasoning {
		credit = protocol.ExtractReasoning
	}
	o.set(protocol.ReasoningText, credit, "extract-from-reasoning")
	o.obs[protocol.Denominator] = protocol.Observed{Value: protocol.AllQuestions}
	if cfg.Bench != "lpfqa" {
		o.obs[protocol.Judge] = protocol.Observed{Value: protocol.ExactMatch}
		return
	}
	j := protocol.Observed{Value: protocol.None, Why: "no --judge-model: no accuracy is reported"}
	if cfg.JudgeModel != "" {
		j = protocol.Observed{Value: protocol.JudgeLLM, Why: "judge " + cfg.JudgeModel}
	}
	o.obs[protocol.Judge] = j
	mcq := protocol.Observed{Value: cfg.LPFQAMCQ, Why: o.given("lpfqa-mcq")}
	if cfg.JudgeModel == "" && cfg.LPFQAMCQ == protocol.MCQJudged {
		mcq = protocol.Observed{Value: protocol.MCQExtract, Why: "no --judge-model: multiple-choice letters are extracted, reported apart"}
	}
	o.obs[protocol.LPFQAMCQ] = mcq
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
