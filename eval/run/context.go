package run

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/assemble"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/prompts"
	"github.com/paperlens/paperlens/model"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/evidence"
	"github.com/paperlens/paperlens/retrieve/rerank"
)

// Retrievers hands out retrievers by name (an *index.Index does).
type Retrievers interface {
	Retriever(name string) (retrieve.Retriever, error)
}

// WebDoc is one web result with its extracted text.
type WebDoc struct {
	URL, Title, Text, Status string
	Rank, Tokens             int
}

// WebSearch finds web text for a query; paperID is the question's own
// paper, which every provider leaves out. It returns up to --web-results
// usable docs (Status "ok"), over-fetching to get them, along with the
// results it passed over before them (failed pages, the paper itself), each
// with its Status. Fewer usable docs, or none, is an answer, not an error:
// an error is a search that failed after its retries (or a missing key).
type WebSearch func(ctx context.Context, query, paperID string) ([]WebDoc, error)

// newBuilder makes the prompt builder of a run.
func newBuilder(opt Options, ps *prompts.Set) *builder {
	return &builder{cfg: opt.Config, st: opt.Corpus, ix: opt.Index, prompts: ps, web: opt.Web, rr: opt.Rerank, cite: opt.Cite,
		papers: map[string]paperInfo{}, retrieved: map[string][]retrieve.Hit{}}
}

// builder assembles each question's prompt for a mode. Retrieval does not
// depend on the run, so it is done once per question and mode.
type builder struct {
	cfg     Config
	st      *corpus.Store
	ix      Retrievers
	prompts *prompts.Set
	web     WebSearch
	cite    bool // ask the model to cite passages (paperlens ask)
	// rr reranks retrieval (Config.Rerank); a dry run has none and builds
	// its prompts from the first stage's top K, which sends nothing and
	// holds as many passages.
	rr rerank.Reranker

	mu        sync.Mutex
	papers    map[string]paperInfo
	retrieved map[string][]retrieve.Hit
	// reranked is what reranking each retrieval used (by the same key).
	reranked map[string]model.Usage
	// builds caches each question's prompt in a web mode (see build).
	builds map[string]built
	// memos keep what assembling a prompt computed that no run changes
	// (see memo), by memoKey.
	memos map[string]memo
}

type paperInfo struct {
	text     string
	tokens   int
	ordinals map[string]int
	passages []corpus.Passage // in ordinal order, for --expand
	err      error
}

// built is a question's prompt under one mode.
type built struct {
	messages  []model.Message
	context   []ContextItem
	tokens    int
	cuts      []assemble.Cut
	truncated int
	recall    *float64
	snippets  []string // texts of the retrieved passages, for IR and inspection
	hits      []retrieve.Hit
	web       []WebItem
	// rerank is what an LLM reranker's calls used to order the passages
	// (zero without one, or with a cross-encoder, which bills no tokens).
	rerank model.Usage
	// full is self-route's second prompt, the whole paper, sent when the
	// model replies that the passages (messages) do not suffice.
	full *built
}

func (b *builder) paper(id string) paperInfo {
	b.mu.Lock()
	defer b.mu.Unlock()
	if p, ok := b.papers[id]; ok {
		return p
	}
	var p paperInfo
	if b.st == nil {
		p.err = fmt.Errorf("no corpus")
	} else if text, err := b.st.Text(id); err != nil {
		p.err = fmt.Errorf("paper %q is not in the corpus: ingest it, or use a dataset file that carries paper_content", id)
	} else {
		p.text = text
		p.tokens = tokens.Count(text)
		p.ordinals = map[string]int{}
		if ps, err := b.st.Passages(id); err == nil {
			for _, x := range ps {
				p.ordinals[x.PassageID] = x.Ordinal
			}
			p.passages = ps
		}
	}
	b.papers[id] = p
	return p
}

// retrieve runs (once) the mode's retriever for a question.
func (b *builder) retrieve(ctx context.Context, q bench.Question, name string) ([]retrieve.Hit, error) {
	cacheKey := q.ID + "\x00" + name
	b.mu.Lock()
	if h, ok := b.retrieved[cacheKey]; ok {
		b.mu.Unlock()
		return h, nil
	}
	b.mu.Unlock()
	if b.ix == nil {
		return nil, fmt.Errorf("mode needs the retrieval index, which is not open")
	}
	r, err := b.ix.Retriever(name)
	if err != nil {
		return nil, err
	}
	stem, opts := q.MCQ.Stem, q.MCQ.OptionLines()
	if stem == "" {
		stem = q.Text
	}
	texts, err := retrieve.QueryTexts(retrieve.QueryForm(b.cfg.QueryForm), stem, opts)
	if err != nil {
		return nil, err
	}
	query := texts[0]
	if len(texts) > 1 {
		r = retrieve.Fused{R: r, Texts: texts, Label: name}
		// A reranker reads the question whole, stem and options.
		query = strings.TrimSpace(stem + "\n" + strings.Join(opts, "\n"))
	}
	r = rerank.Wrap(r, b.rr, b.cfg.RerankDepth)
	var used rerank.Usage
	hits, err := r.Search(rerank.CountUsage(ctx, &used), retrieve.Query{Text: query, PaperID: q.PaperID, K: b.cfg.K, Exclude: b.cfg.Excluded(), QuestionID: q.ID})
	if err != nil {
		return nil, fmt.Errorf("retrieve (%s): %w", name, err)
	}
	hits = b.sharePassageText(q.PaperID, hits)
	b.mu.Lock()
	b.retrieved[cacheKey] = hits
	if u := used.Total(); u != (model.Usage{}) {
		if b.reranked == nil {
			b.reranked = map[string]model.Usage{}
		}
		b.reranked[cacheKey] = u
	}
	b.mu.Unlock()
	return hits, nil
}

// sharePassageText makes each hit's text the paper's stored passage
// (paper) where the two are equal, so that the hits kept for later runs
// hold no copy of text already held once per paper. It changes a copy.
func (b *builder) sharePassageText(paperID string, hits []retrieve.Hit) []retrieve.Hit {
	p := b.paper(paperID)
	out := make([]retrieve.Hit, len(hits))
	for i, h := range hits {
		if ord, ok := p.ordinals[h.PassageID]; ok && ord >= 0 && ord < len(p.passages) && p.passages[ord].Text == h.Text {
			h.Text = p.passages[ord].Text
		}
		out[i] = h
	}
	return out
}

// rerankUsage is what reranking a question's retrieval by name used.
func (b *builder) rerankUsage(q bench.Question, name string) model.Usage {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.reranked[q.ID+"\x00"+name]
}

func (b *builder) questionTemplate() string {
	if b.cfg.Bench == "lpfqa" {
		return prompts.LPFQAAnswer
	}
	if b.cfg.Paradigm == CoT && b.cfg.CoTPrompt == CoTAnswerLine {
		return prompts.MCQCoTAnswerLine
	}
	return "mcq_" + b.cfg.Paradigm
}

func contextTemplate(s mode.Mode) string {
	switch {
	case s.Oracle:
		return "context_oracle"
	case s.Web && s.Paper:
		return "context_full_web"
	case s.Web:
		return "context_web"
	case s.Route:
		return "context_rag" // self-route's first call; its second is context_full
	case s.Paper && s.Retriever != "":
		return "context_full_rag"
	case s.Retriever != "":
		return "context_rag"
	case s.Paper:
		return "context_full"
	}
	return ""
}

// render builds the prompt text from the context parts.
func (b *builder) render(q bench.Question, spec mode.Mode, paper string, snips []assemble.Snippet) (string, error) {
	ctxText := ""
	if name := contextTemplate(spec); name != "" {
		cd := prompts.ContextData{Paper: paper, Evidence: q.Evidence, Order: b.cfg.Order, Cite: b.cite && !spec.Web}
		for _, s := range snips {
			if spec.Web {
				cd.Web = append(cd.Web, prompts.WebDoc{Rank: s.Rank, URL: s.ID, Text: s.Text})
				continue
			}
			p := prompts.Passage{ID: s.ID, Rank: s.Rank, Score: s.Score, Text: s.Text}
			if cd.Cite {
				p.Cite = citeLabel(s.ID)
			}
			cd.Passages = append(cd.Passages, p)
		}
		var err error
		if ctxText, err = b.prompts.Render(name, cd); err != nil {
			return "", err
		}
	}
	data := prompts.MCQData{
		Question: q.Text, Stem: q.MCQ.Stem, Options: q.MCQ.Options, Type: q.Type,
		Multi: q.Type == "MA-MCQ", Context: ctxText,
	}
	text, err := b.prompts.Render(b.questionTemplate(), data)
	if err != nil || !spec.Route {
		return text, err
	}
	// The instruction comes last, after the question's own answer format,
	// so that it is the last thing the model reads.
	tail, err := b.prompts.Render(prompts.RouteUnanswerable, data)
	return text + "\n\n" + tail, err
}

// build returns the prompt of a question under a mode. A web mode's is
// assembled once and kept for later runs, since its results come from a
// search that may answer otherwise next time; any other is assembled
// again for each run from the paper and the retrieval, both kept (paper,
// retrieve). Keeping every prompt for later runs held each question's
// whole prompt, the paper itself in the full modes, for the whole
// evaluation: gigabytes at 10,000 questions, where assembling again costs
// well under a millisecond (BenchmarkHarness/cold).
func (b *builder) build(ctx context.Context, q bench.Question, name string) (built, error) {
	if m, _ := mode.Lookup(name); !m.Web {
		return b.assemble(ctx, q, name)
	}
	k := q.ID + "\x00" + name
	b.mu.Lock()
	if bt, ok := b.builds[k]; ok {
		b.mu.Unlock()
		return bt, nil
	}
	b.mu.Unlock()
	bt, err := b.assemble(ctx, q, name)
	if err == nil {
		b.mu.Lock()
		if b.builds == nil {
			b.builds = map[string]built{}
		}
		b.builds[k] = bt
		b.mu.Unlock()
	}
	return bt, err
}

// assemble builds the prompt of a question under a mode, within the budget.
func (b *builder) assemble(ctx context.Context, q bench.Question, name string) (built, error) {
	spec, err := mode.Get(name)
	if err != nil {
		return built{}, err
	}
	if !spec.Route {
		return b.assembleSpec(ctx, q, spec)
	}
	// Self-route: the passages now, the paper prepared for the second
	// call (its tokens are counted only when it is sent).
	rag := spec
	rag.Paper = false
	if b.cfg.RouteRetriever != "" {
		rag.Retriever = b.cfg.RouteRetriever
	}
	out, err := b.assembleSpec(ctx, q, rag)
	if err != nil {
		return out, err
	}
	full, err := b.assembleSpec(ctx, q, mode.Mode{Name: mode.Full, Paper: true, Kind: "whole paper"})
	if err != nil {
		return out, fmt.Errorf("self-route, the paper for the second call: %w", err)
	}
	out.full = &full
	return out, nil
}

// assembleSpec builds the prompt of a question for the context parts of
// spec, within the budget.
func (b *builder) assembleSpec(ctx context.Context, q bench.Question, spec mode.Mode) (built, error) {
	name := spec.Name
	var out built
	// A web mode's results may differ from one search to the next, and
	// its prompt is kept whole instead (see build).
	mk, web := memoKey(q, spec), spec.Web
	m, have := b.memo(mk)
	have = have && !web
	var paper string
	paperTokens := 0
	if spec.Paper {
		p := b.paper(q.PaperID)
		if p.err != nil {
			return out, p.err
		}
		paper, paperTokens = p.text, p.tokens
	}
	var snips []assemble.Snippet
	switch {
	case spec.Web:
		if b.web == nil {
			return out, fmt.Errorf("mode %s needs a web provider (--web-provider)", name)
		}
		docs, err := b.web(ctx, b.webQuery(q), q.PaperID)
		if err != nil {
			return out, fmt.Errorf("web search: %w", err)
		}
		out.web = []WebItem{}
		for _, d := range docs {
			usable := d.Status == "ok" && strings.TrimSpace(d.Text) != ""
			if usable && b.cfg.WebResults > 0 && len(snips) == b.cfg.WebResults {
				break // a provider that gave more than asked
			}
			// The record keeps the search rank, so a passed-over result
			// shows where it was; the prompt numbers its blocks 1, 2, ...
			out.web = append(out.web, WebItem{URL: d.URL, Title: d.Title, Rank: d.Rank, Tokens: d.Tokens, Status: d.Status})
			if usable {
				n := len(snips) + 1
				snips = append(snips, assemble.Snippet{ID: d.URL, Rank: n, Ordinal: -1, Text: d.Text, Cut: true})
				out.context = append(out.context, ContextItem{PassageID: d.URL, Rank: n, Retriever: "web"})
			}
		}
		if len(snips) == 0 {
			// Nothing usable is still an answer, recorded with its web
			// list. The web templates would announce results and list
			// none, so the prompt is the one without web: closed-book for
			// web, the paper alone (context_full) for full+web.
			spec.Web = false
		}
	case spec.Oracle:
		if strings.TrimSpace(q.Evidence) == "" {
			return out, fmt.Errorf("mode oracle needs gold evidence, and this question has none")
		}
		snips = []assemble.Snippet{{ID: "gold", Rank: 1, Ordinal: -1, Text: q.Evidence}}
		one := 1.0
		out.recall = &one
	case spec.Retriever != "":
		var err error
		if snips, err = b.retrievedSnippets(ctx, q, spec.Retriever, paperTokens, &out); err != nil {
			return out, err
		}
		if have {
			out.recall = m.recall.get()
		} else {
			out.recall = evidenceRecall(q, out.snippets)
		}
	}
	if !have {
		var err error
		if m, err = b.newMemo(q, spec, snips, out.recall); err != nil {
			return out, err
		}
		if !web {
			b.keepMemo(mk, m)
		}
	}
	fixed := m.fixed
	// The budget counts the paper and the passages only (ElaipBench
	// A.7.2: "paper + knowledge snippets within 32,768 tokens"); the
	// instruction, the question and the answer are not charged to it, so
	// a reasoning run reads as much of the paper as a base run.
	fit := assemble.Fit(assemble.Input{Paper: paper, Snippets: snips, Order: b.cfg.Order, Available: b.cfg.Budget, PaperTokens: paperTokens})
	text, err := b.render(q, spec, fit.Paper, fit.Snippets)
	if err != nil {
		return out, err
	}
	out.messages = []model.Message{{Role: "user", Content: text}}
	out.tokens = fixed + fit.Tokens
	out.cuts, out.truncated = fit.Cuts, fit.CutTokens
	if fit.OverBudget {
		return out, fmt.Errorf("the passages do not fit --budget %d even with the paper cut: raise --budget", b.cfg.Budget)
	}
	if w := b.cfg.ContextWindow; w > 0 && out.tokens+b.cfg.MaxTokens > w {
		// Cutting here would change the paper's protocol without saying
		// so: the question fails, and says what to change.
		return out, fmt.Errorf("the prompt (%d tokens, cl100k_base) and the answer (%d) pass the model's context window of %d tokens: give the model's real window with --context-window, or lower --budget or --max-tokens",
			out.tokens, b.cfg.MaxTokens, w)
	}
	return out, nil
}

// retrievedSnippets is a retrieval mode's passages for q by retriever (with their
// neighbours, under --expand, within the budget the paper's paperTokens
// leave), as snippets; it fills out's context, snippets, hits and
// reranking usage.
func (b *builder) retrievedSnippets(ctx context.Context, q bench.Question, retriever string, paperTokens int, out *built) ([]assemble.Snippet, error) {
	hits, err := b.retrieve(ctx, q, retriever)
	if err != nil {
		return nil, err
	}
	out.rerank = b.rerankUsage(q, retriever)
	p := b.paper(q.PaperID)
	room := 0
	if b.cfg.Expand > 0 {
		// What neighbours may fill: the budget (paper and passages,
		// ElaipBench A.7.2) less the paper.
		room = b.cfg.Budget - paperTokens
	}
	var snips []assemble.Snippet
	for _, g := range expand(hits, p, b.cfg.Expand, room) {
		snips = append(snips, assemble.Snippet{ID: g.id, Rank: g.rank, Score: g.score, Ordinal: g.ordinal, Text: g.text})
		for _, it := range g.items {
			it.Retriever = retriever
			out.context = append(out.context, it)
		}
		out.snippets = append(out.snippets, g.texts...)
	}
	out.hits = hits
	return snips, nil
}

// evidenceRecall is the share of q's gold evidence the snippets hold;
// nil for a question without gold evidence.
func evidenceRecall(q bench.Question, snippets []string) *float64 {
	if strings.TrimSpace(q.Evidence) == "" {
		return nil
	}
	g := evidence.ParseGold(q.Evidence, evidence.Options{})
	if g.Empty() {
		return nil
	}
	r := g.Score(snippets).RecallAt(len(snippets))
	return &r
}

// newMemo computes the memo of q's prompt for spec with snips, whose
// evidence recall is recall: the fixed part of the prompt is everything
// but paper and snippet text.
func (b *builder) newMemo(q bench.Question, spec mode.Mode, snips []assemble.Snippet, recall *float64) (memo, error) {
	empty := make([]assemble.Snippet, len(snips))
	for i, s := range snips {
		empty[i] = assemble.Snippet{ID: s.ID, Rank: s.Rank, Score: s.Score}
	}
	skeleton, err := b.render(q, spec, "", empty)
	if err != nil {
		return memo{}, err
	}
	return memo{fixed: tokens.Count(skeleton), recall: optFloat{}.of(recall)}, nil
}

// memo is what assembling a question's prompt for a mode's context parts
// computed that no run changes, kept so that later runs skip it: the
// tokens of the prompt without paper and passages, and the evidence
// recall of the passages. Two numbers per question and mode, where a
// kept prompt was kilobytes; together they were about a third of the cost of
// assembling a prompt again (BenchmarkHarness: 0.69 ms, now 0.46).
type memo struct {
	fixed  int
	recall optFloat
}

// optFloat is a *float64 kept by value, so that no record shares it.
type optFloat struct {
	v  float64
	ok bool
}

func (optFloat) of(p *float64) optFloat {
	if p == nil {
		return optFloat{}
	}
	return optFloat{*p, true}
}

func (o optFloat) get() *float64 {
	if !o.ok {
		return nil
	}
	v := o.v
	return &v
}

// memoKey names a question's prompt for spec's context parts (self-route
// assembles two: its passages, and the paper).
func memoKey(q bench.Question, spec mode.Mode) string {
	return fmt.Sprintf("%s\x00%s\x00%s\x00%t%t%t", q.ID, spec.Name, spec.Retriever, spec.Paper, spec.Oracle, spec.Web)
}

func (b *builder) memo(k string) (memo, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	m, ok := b.memos[k]
	return m, ok
}

func (b *builder) keepMemo(k string, m memo) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.memos == nil {
		b.memos = map[string]memo{}
	}
	b.memos[k] = m
}

// webQuery is what a web mode searches for: for ElaipBench the question
// plus the paper's title (as the paper did), otherwise the question; the
// stem only when options are inline, so option text does not steer it.
func (b *builder) webQuery(q bench.Question) string {
	text := q.MCQ.Stem
	if text == "" {
		text = q.Text
	}
	if b.cfg.WebQuery == "question" || b.cfg.Bench != "elaipbench" && b.cfg.WebQuery != "question+title" {
		return text
	}
	if b.st != nil {
		if d, err := b.st.Doc(q.PaperID); err == nil && d.Title != "" {
			return text + " " + d.Title
		}
	}
	return text
}
