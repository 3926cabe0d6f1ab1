package retrieval

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/paperlens/paperlens/chunk"
	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/evidence"
	"github.com/paperlens/paperlens/retrieve/index"
)

// Rerank settings the sweep knows itself.
const (
	RerankNone = "none" // rankings as retrieved
	// RerankGold ("gold" or "gold:DEPTH") reorders a retriever's top
	// DEPTH (default 30) by the question's gold evidence: the bound of any
	// reranker at that depth. A diagnostic, never a configuration to run.
	RerankGold = "gold"
)

// Units of a swept configuration: what is retrieved.
const (
	UnitPassage = "passage" // passages of PassageTokens, handed over as retrieved
	UnitWindow  = "window"  // small-to-big: sentence windows retrieved, their parent passages handed over
)

// SweepConfig is the grid eval retrieval --sweep scores. Every
// configuration is scored at every budget: k is the number of whole
// passages of its size that fit (budget / passage tokens), so that
// configurations compete for the same number of context tokens.
//
// Order (score or document) is left out on purpose: it changes where
// passages sit in the prompt, not which ones are there, so completeness
// and recall are the same under both. It matters only to a model, and
// study --sweep puts it in the grid it evaluates.
type SweepConfig struct {
	Budgets    []int                // context token budgets, e.g. 256, 512, 1024, 2048
	Sizes      []int                // passage tokens, e.g. 128, 256, 512
	Windows    []int                // small-to-big sentence windows, e.g. 1, 2, 3; none: no small-to-big
	Parent     int                  // passage tokens of the parents windows map to (default 512)
	Retrievers []string             // bm25, dense, hybrid (bleve, okapi too)
	Forms      []retrieve.QueryForm // stem, full, options
	// Reranks names the rerank settings; "none" (the default) is built
	// in, any other is made by Rerank.
	Reranks []string
	// Rerank wraps a retriever with the named reranker (package
	// retrieve/rerank's Wrap), for settings other than none.
	// "gold" and "gold:DEPTH" are built in (RerankGold).
	Rerank   func(name string, r retrieve.Retriever) (retrieve.Retriever, error)
	Evidence evidence.Options
	RRFK     int
	Exclude  []kind.Kind
	// Oracle adds a ceiling row per passage size and budget (retriever
	// "oracle"): the passages holding the gold evidence, as if ranked
	// first. No retriever does better at that size and k, but for a gold
	// sentence no single passage holds (cut across two), which the oracle
	// does not pick.
	Oracle bool
	// Progress receives a line per retriever and query form done; nil:
	// discarded.
	Progress io.Writer
}

// SweepSource is what the sweep searches: the home's corpus and index,
// whose passages are HomeTokens long, and how to build an index for
// passages of another size.
type SweepSource struct {
	Store      *corpus.Store
	Index      Source // the home's index: searched for passages of HomeTokens
	HomeTokens int
	// IndexConfig is the home's index configuration: indexes for other
	// passage sizes are built with it in a folder of their own under
	// TempDir (the embedded vector store always), and removed at the end.
	IndexConfig index.Config
	TempDir     string // "" : the system's
}

// SweepRow is one configuration at one budget, averaged over the questions
// with locatable gold evidence.
type SweepRow struct {
	Budget        int    `json:"budget"`
	Unit          string `json:"unit"`           // passage or window
	PassageTokens int    `json:"passage_tokens"` // of the passages handed over (the parents, for windows)
	Window        int    `json:"window,omitempty"`
	K             int    `json:"k"` // passages handed over (budget / passage tokens)
	Retriever     string `json:"retriever"`
	Form          string `json:"query_form"`
	Rerank        string `json:"rerank"`
	N             int    `json:"n"`
	// Complete is complete@budget: the share of questions whose gold
	// evidence is all within the K passages.
	Complete      float64 `json:"complete"`
	Recall        float64 `json:"recall"`
	ContextTokens float64 `json:"context_tokens"` // mean tokens of the K passages
	// BudgetShare is the budget over the mean full-paper tokens.
	BudgetShare float64 `json:"budget_share"`
	// ContextShare is ContextTokens over the mean full-paper tokens.
	ContextShare float64 `json:"context_share"`
	Errors       int     `json:"errors,omitempty"`
}

// Label names the configuration, e.g. "hybrid+full p128 k=4" or
// "bm25 w2>p512 k=2 rerank=llm".
func (r SweepRow) Label() string {
	unit := fmt.Sprintf("p%d", r.PassageTokens)
	if r.Unit == UnitWindow {
		unit = fmt.Sprintf("w%d>p%d", r.Window, r.PassageTokens)
	}
	s := fmt.Sprintf("%s %s k=%d", Label(r.Retriever, retrieve.QueryForm(r.Form)), unit, r.K)
	if r.Rerank != "" && r.Rerank != RerankNone {
		s += " rerank=" + r.Rerank
	}
	return s
}

// Sweep is a sweep's result.
type Sweep struct {
	N      int `json:"n"`
	NoGold int `json:"no_gold"`
	// FullTokens is the mean tokens of a question's whole paper (its
	// passages at the home's size), the yardstick of BudgetShare.
	FullTokens float64 `json:"full_tokens"`
	// Searches counts the searches the base retrievers (bm25, dense...;
	// hybrid's parts are theirs) ran: one per unit, retriever, paper and
	// distinct query text when retrieval is shared.
	Searches int        `json:"searches"`
	Rows     []SweepRow `json:"rows"`
}

// paper is one paper's stored text and passages at the home's size.
type paper struct {
	doc      corpus.Document
	text     string
	passages []corpus.Passage
	spans    []kind.Span
}

// unitIndex is what one unit (a passage size, or a window over parents)
// is searched in.
type unitIndex struct {
	unit   string
	size   int // passage tokens of the passages handed over
	window int
	src    Source
	tokens map[string]int    // passage id -> tokens, of what is handed over
	parent map[string]string // window passage id -> parent passage id
	text   map[string]string // parent passage id -> text (windows only)
	// byPaper are each paper's passages handed over, in document order:
	// what the oracle ceiling picks from.
	byPaper map[string][]corpus.Passage
	close   func()
}

// RunSweep scores every configuration of cfg on the questions. Retrieval
// is shared: each retriever is asked once per query text and paper, at
// the deepest k any configuration needs, and every shallower k (the fused
// rankings of hybrid and options included) is computed from those lists
// exactly as a search at that k would rank. So a row equals what eval
// retrieval reports at its k.
func RunSweep(ctx context.Context, src SweepSource, qs []bench.Question, cfg SweepConfig) (Sweep, error) {
	cfg = withSweepDefaults(cfg)
	if err := checkSweepConfig(cfg); err != nil {
		return Sweep{}, err
	}
	progress := cfg.Progress
	if progress == nil {
		progress = io.Discard
	}
	out, golds, papers, err := loadSweepPapers(src.Store, qs, cfg.Evidence)
	if err != nil {
		return out, err
	}

	tmp, err := os.MkdirTemp(src.TempDir, "paperlens-sweep-")
	if err != nil {
		return out, fmt.Errorf("sweep: temporary folder: %w", err)
	}
	defer os.RemoveAll(tmp)

	byQuery, err := goldsByQuery(qs, golds, cfg.Forms)
	if err != nil {
		return out, err
	}
	units, err := sweepUnits(cfg)
	if err != nil {
		return out, err
	}
	for _, u := range units {
		ui, err := openUnit(ctx, src, papers, u, cfg, tmp)
		if err != nil {
			return out, err
		}
		rows, searches, err := sweepUnit(ctx, ui, qs, golds, byQuery, cfg, progress)
		out.Searches += searches
		ui.close()
		if err != nil {
			return out, err
		}
		setShares(rows, out.FullTokens)
		out.Rows = append(out.Rows, rows...)
	}
	SortRows(out.Rows)
	return out, nil
}

// withSweepDefaults fills in the grid cfg leaves unset: budgets of 256 to
// 2048 tokens, passages of 128, 256 and 512, parents of
// chunk.DefaultMaxTokens, bm25, dense and hybrid under every query form,
// and no reranking.
func withSweepDefaults(cfg SweepConfig) SweepConfig {
	if len(cfg.Budgets) == 0 {
		cfg.Budgets = []int{256, 512, 1024, 2048}
	}
	if len(cfg.Sizes) == 0 {
		cfg.Sizes = []int{128, 256, 512}
	}
	if cfg.Parent <= 0 {
		cfg.Parent = chunk.DefaultMaxTokens
	}
	if len(cfg.Retrievers) == 0 {
		cfg.Retrievers = []string{index.BM25, index.Dense, index.Hybrid}
	}
	if len(cfg.Forms) == 0 {
		cfg.Forms = []retrieve.QueryForm{retrieve.FormStem, retrieve.FormFull, retrieve.FormOptions}
	}
	if len(cfg.Reranks) == 0 {
		cfg.Reranks = []string{RerankNone}
	}
	return cfg
}

// checkSweepConfig refuses what the sweep cannot score: a run file as a
// retriever, a budget that is not positive, a rerank setting that is
// malformed or that nothing here can make.
func checkSweepConfig(cfg SweepConfig) error {
	for _, r := range cfg.Retrievers {
		if strings.HasPrefix(r, mode.RunPrefix) {
			return fmt.Errorf("retriever %s: a run file ranks the home's passages, and the sweep cuts passages of other sizes; score %s without the sweep", r, r)
		}
	}
	for _, b := range cfg.Budgets {
		if b <= 0 {
			return fmt.Errorf("budget must be positive, got %d", b)
		}
	}
	for _, rr := range cfg.Reranks {
		_, gold, err := goldReranker(rr)
		if err != nil {
			return err
		}
		if rr != RerankNone && !gold && cfg.Rerank == nil {
			return fmt.Errorf("rerank %q: no reranker available here (none, gold, gold:DEPTH)", rr)
		}
	}
	return nil
}

// loadSweepPapers parses each question's gold evidence and loads the
// papers of the questions with locatable gold. The Sweep it starts counts
// those questions (N), the others (NoGold) and the mean tokens of their
// papers (FullTokens); an error when no question has locatable gold.
func loadSweepPapers(st *corpus.Store, qs []bench.Question, opt evidence.Options) (Sweep, []*evidence.Gold, map[string]*paper, error) {
	var out Sweep
	golds := make([]*evidence.Gold, len(qs))
	papers := map[string]*paper{}
	var fullSum float64
	for i, q := range qs {
		golds[i] = evidence.ParseGold(q.Evidence, opt)
		if golds[i].Empty() {
			out.NoGold++
			continue
		}
		p, err := loadPaper(st, papers, q.PaperID)
		if err != nil {
			return out, nil, nil, err
		}
		fullSum += float64(p.doc.Tokens)
		out.N++
	}
	if out.N == 0 {
		return out, nil, nil, fmt.Errorf("no question has gold evidence to locate")
	}
	out.FullTokens = fullSum / float64(out.N)
	return out, golds, papers, nil
}

// goldsByQuery maps each query text a question is asked by, under any of
// forms, to the question's gold, keyed by paper and text: how the gold
// reranker finds the asking question.
func goldsByQuery(qs []bench.Question, golds []*evidence.Gold, forms []retrieve.QueryForm) (map[string]*evidence.Gold, error) {
	byQuery := map[string]*evidence.Gold{}
	for i, q := range qs {
		for _, form := range forms {
			texts, err := retrieve.QueryTexts(form, q.MCQ.Stem, q.MCQ.OptionLines())
			if err != nil {
				return nil, err
			}
			for _, t := range texts {
				byQuery[q.PaperID+"\x00"+t] = golds[i]
			}
		}
	}
	return byQuery, nil
}

// setShares sets each row's budget and context tokens as shares of the
// mean full paper's fullTokens.
func setShares(rows []SweepRow, fullTokens float64) {
	for i := range rows {
		rows[i].BudgetShare = float64(rows[i].Budget) / fullTokens
		rows[i].ContextShare = rows[i].ContextTokens / fullTokens
	}
}

// SortRows orders rows by budget, then complete@budget (best first), then
// fewer context tokens, then label.
func SortRows(rows []SweepRow) {
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.Budget != b.Budget {
			return a.Budget < b.Budget
		}
		if a.Complete != b.Complete {
			return a.Complete > b.Complete
		}
		if a.ContextTokens != b.ContextTokens {
			return a.ContextTokens < b.ContextTokens
		}
		return a.Label() < b.Label()
	})
}

type unitSpec struct {
	unit   string
	size   int
	window int
}

func sweepUnits(cfg SweepConfig) ([]unitSpec, error) {
	var out []unitSpec
	seen := map[int]bool{}
	for _, s := range cfg.Sizes {
		if s < 8 {
			return nil, fmt.Errorf("passage size %d: give at least 8 tokens", s)
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, unitSpec{UnitPassage, s, 0})
		}
	}
	seenW := map[int]bool{}
	for _, w := range cfg.Windows {
		if w <= 0 {
			return nil, fmt.Errorf("sentence window %d: give at least 1 sentence", w)
		}
		if !seenW[w] {
			seenW[w] = true
			out = append(out, unitSpec{UnitWindow, cfg.Parent, w})
		}
	}
	return out, nil
}

func loadPaper(st *corpus.Store, papers map[string]*paper, id string) (*paper, error) {
	if p, ok := papers[id]; ok {
		return p, nil
	}
	doc, err := st.Doc(id)
	if err != nil {
		return nil, fmt.Errorf("paper %s: %w", id, err)
	}
	text, err := st.Text(id)
	if err != nil {
		return nil, fmt.Errorf("paper %s: text: %w", id, err)
	}
	ps, err := st.Passages(id)
	if err != nil {
		return nil, fmt.Errorf("paper %s: passages: %w", id, err)
	}
	p := &paper{doc: doc, text: text, passages: ps, spans: doc.Spans}
	if p.spans == nil {
		// A record from before documents kept their kinds: its passages,
		// each of one kind, carry the kinds the extractor found.
		for _, sp := range ps {
			if k := sp.KindOf(); k != kind.Body {
				p.spans = append(p.spans, kind.Span{Start: sp.Start, End: sp.End, Kind: k})
			}
		}
	}
	papers[id] = p
	return p, nil
}

// passagesAt are a paper's passages at size tokens: the stored ones at the
// home's size, else its stored text chunked again.
func (p *paper) passagesAt(size, home int) []corpus.Passage {
	if size == home {
		return p.passages
	}
	var out []corpus.Passage
	for _, c := range chunk.Split(p.text, chunk.Options{MaxTokens: size, Spans: p.spans}) {
		out = append(out, corpus.Passage{PaperID: p.doc.PaperID, PassageID: corpus.PassageID(p.doc.PaperID, c.Ordinal),
			Ordinal: c.Ordinal, Tokens: c.Tokens, Start: c.Start, End: c.End, Section: c.Section,
			Kind: string(c.Kind.Or()), Text: c.Text})
	}
	return out
}

// windows cuts each parent passage into runs of w sentences; a window never
// crosses its parent's ends, so it has exactly one parent.
func windows(text string, sents []chunk.Span, parents []corpus.Passage, w int) (wins []corpus.Passage, parentOf []int) {
	j := 0
	for pi, p := range parents {
		var cur []chunk.Span
		for ; j < len(sents) && sents[j].Start < p.End; j++ {
			s := chunk.Span{Start: max(sents[j].Start, p.Start), End: min(sents[j].End, p.End)}
			if s.End > s.Start && strings.TrimSpace(text[s.Start:s.End]) != "" {
				cur = append(cur, s)
			}
			if sents[j].End > p.End {
				break // the rest of this sentence opens the next parent
			}
		}
		if len(cur) == 0 {
			cur = []chunk.Span{{Start: p.Start, End: p.End}}
		}
		for a := 0; a < len(cur); a += w {
			b := min(a+w, len(cur)) - 1
			wins = append(wins, corpus.Passage{Start: cur[a].Start, End: cur[b].End, Section: p.Section, Kind: p.Kind,
				Text: text[cur[a].Start:cur[b].End]})
			parentOf = append(parentOf, pi)
		}
	}
	return wins, parentOf
}

// sweepBatch is how many papers a scratch index stores per transaction.
const sweepBatch = 64

// openUnit finds or builds the index a unit is searched in: the home's for
// passages of its size, else one built in a folder under tmp from the
// stored texts.
func openUnit(ctx context.Context, src SweepSource, papers map[string]*paper, u unitSpec, cfg SweepConfig, tmp string) (*unitIndex, error) {
	ui := &unitIndex{unit: u.unit, size: u.size, window: u.window, tokens: map[string]int{}, byPaper: map[string][]corpus.Passage{}, close: func() {}}
	ids := make([]string, 0, len(papers))
	for id := range papers {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	if u.unit == UnitPassage && u.size == src.HomeTokens && src.Index != nil {
		ui.src = src.Index
		for _, id := range ids {
			ui.byPaper[id] = papers[id].passages
			for _, p := range papers[id].passages {
				ui.tokens[p.PassageID] = p.Tokens
			}
		}
		return ui, nil
	}
	name := fmt.Sprintf("p%d", u.size)
	if u.unit == UnitWindow {
		name = fmt.Sprintf("w%d-p%d", u.window, u.size)
		ui.parent, ui.text = map[string]string{}, map[string]string{}
	}
	home := filepath.Join(tmp, name)
	st, err := corpus.Open(home, false)
	if err != nil {
		return nil, fmt.Errorf("sweep index %s: %w", name, err)
	}
	// A scratch index of papers already in memory: stored sweepBatch to a
	// transaction, since each costs two flushes of the disk.
	var batch []corpus.Paper
	for _, id := range ids {
		p := papers[id]
		ps := p.passagesAt(u.size, src.HomeTokens)
		doc := p.doc
		doc.MaxTokens = u.size
		ui.byPaper[id] = ps
		if u.unit == UnitWindow {
			for _, pp := range ps {
				ui.tokens[pp.PassageID] = pp.Tokens
				ui.text[pp.PassageID] = pp.Text
			}
			wins, parentOf := windows(p.text, chunk.Sentences(p.text), ps, u.window)
			for i := range wins {
				wins[i].Tokens = tokens.Count(wins[i].Text)
				ui.parent[corpus.PassageID(id, i)] = ps[parentOf[i]].PassageID
			}
			ps = wins
		} else {
			for _, pp := range ps {
				ui.tokens[pp.PassageID] = pp.Tokens
			}
		}
		doc.Tokens = 0
		for _, pp := range ps {
			doc.Tokens += pp.Tokens
		}
		batch = append(batch, corpus.Paper{Doc: doc, Text: p.text, Passages: ps})
		if len(batch) == sweepBatch {
			if err := st.PutMany(batch); err != nil {
				st.Close()
				return nil, fmt.Errorf("sweep index %s: %w", name, err)
			}
			batch = batch[:0]
		}
	}
	if err := st.PutMany(batch); err != nil {
		st.Close()
		return nil, fmt.Errorf("sweep index %s: %w", name, err)
	}
	icfg := src.IndexConfig
	icfg.Home, icfg.Store, icfg.OpenStore, icfg.ReadOnly, icfg.Rebuild = home, "embedded", nil, false, false
	if cfg.RRFK > 0 {
		icfg.RRFK = cfg.RRFK
	}
	ix, err := index.Open(ctx, icfg, st)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("sweep index %s: %w", name, err)
	}
	if _, err := ix.Update(ctx, nil); err != nil {
		ix.Close()
		st.Close()
		return nil, fmt.Errorf("sweep index %s: %w", name, err)
	}
	ui.src = ix
	ui.close = func() {
		ix.Close()
		st.Close()
		os.RemoveAll(home)
	}
	return ui, nil
}

// budgetKs maps each budget to the passages of size that fit it; budgets
// too small for one passage are left out.
func budgetKs(budgets []int, size int) map[int]int {
	out := map[int]int{}
	for _, b := range budgets {
		if k := b / size; k > 0 {
			out[b] = k
		}
	}
	return out
}

// sweepUnit scores every retriever, rerank and form of one unit.
func sweepUnit(ctx context.Context, ui *unitIndex, qs []bench.Question, golds []*evidence.Gold, byQuery map[string]*evidence.Gold, cfg SweepConfig, progress io.Writer) (rows []SweepRow, searches int, err error) {
	ks := budgetKs(cfg.Budgets, ui.size)
	if len(ks) == 0 {
		return nil, 0, nil
	}
	kmax := 0
	for _, k := range ks {
		kmax = max(kmax, k)
	}
	// The deepest list any search below asks of a base retriever: options
	// over hybrid asks hybrid for max(4k, 20), which asks its parts for
	// four times that.
	deep := 4 * max(4*kmax, 20)
	if ui.unit == UnitWindow {
		deep = 4 * max(4*windowDepth(kmax, ui.window), 20)
	}
	bases := map[string]*prefixCache{}
	defer func() {
		for _, b := range bases {
			searches += b.calls
		}
	}()
	base := func(name string) (retrieve.Retriever, error) {
		if r, ok := bases[name]; ok {
			return r, nil
		}
		r, err := ui.src.Retriever(name)
		if err != nil {
			return nil, err
		}
		bases[name] = &prefixCache{r: r, deep: deep, lists: map[string][]retrieve.Hit{}, asked: map[string]int{}}
		return bases[name], nil
	}
	if cfg.Oracle && ui.unit == UnitPassage {
		rows = append(rows, ui.oracle(ks, qs, golds)...)
	}
	for _, name := range cfg.Retrievers {
		var r retrieve.Retriever
		var err error
		if name == index.Hybrid {
			// The index's hybrid, over the shared lists of its parts.
			bm, err1 := base(index.BM25)
			dn, err2 := base(index.Dense)
			if err1 != nil || err2 != nil {
				return nil, 0, fmt.Errorf("hybrid: %v %v", err1, err2)
			}
			r = &retrieve.Hybrid{Parts: []retrieve.Retriever{bm, dn}, K: cfg.RRFK, Label: index.Hybrid}
		} else if r, err = base(name); err != nil {
			return nil, 0, err
		}
		for _, rr := range cfg.Reranks {
			rret := r
			if depth, gold, _ := goldReranker(rr); gold {
				rret = &memo{r: goldFirst{r: r, depth: depth, golds: byQuery}, hits: map[string][]retrieve.Hit{}}
			} else if rr != RerankNone {
				w, err := cfg.Rerank(rr, r)
				if err != nil {
					return nil, 0, fmt.Errorf("rerank %s: %w", rr, err)
				}
				rret = &memo{r: w, hits: map[string][]retrieve.Hit{}}
			}
			for _, form := range cfg.Forms {
				rs, err := sweepOne(ctx, ui, rret, name, form, rr, ks, qs, golds, cfg)
				if err != nil {
					return nil, 0, err
				}
				rows = append(rows, rs...)
				unit := fmt.Sprintf("passages of %d tokens", ui.size)
				if ui.unit == UnitWindow {
					unit = fmt.Sprintf("%d-sentence windows > passages of %d tokens", ui.window, ui.size)
				}
				fmt.Fprintf(progress, "sweep: %s, %s, rerank %s: %d budgets\n", unit, Label(name, form), rr, len(rs))
			}
		}
	}
	return rows, 0, nil
}

// windowDepth is how many windows are searched to find k parents: enough
// for k parents even when each holds several of the best windows.
func windowDepth(k, w int) int { return max(20, 6*k*(4/w+1)) }

// sweepOne scores one retriever, form and rerank at every budget.
func sweepOne(ctx context.Context, ui *unitIndex, r retrieve.Retriever, name string, form retrieve.QueryForm, rr string, ks map[int]int, qs []bench.Question, golds []*evidence.Gold, cfg SweepConfig) ([]SweepRow, error) {
	budgets := make([]int, 0, len(ks))
	for b := range ks {
		budgets = append(budgets, b)
	}
	sort.Ints(budgets)
	rows := make([]SweepRow, len(budgets))
	for i, b := range budgets {
		rows[i] = SweepRow{Budget: b, Unit: ui.unit, PassageTokens: ui.size, Window: ui.window, K: ks[b],
			Retriever: name, Form: string(form), Rerank: rr}
	}
	label := Label(name, form)
	for qi, q := range qs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if golds[qi].Empty() {
			continue
		}
		texts, err := retrieve.QueryTexts(form, q.MCQ.Stem, q.MCQ.OptionLines())
		if err != nil {
			return nil, err
		}
		search := func(k int) ([]retrieve.Hit, error) {
			if len(texts) == 1 {
				return r.Search(ctx, retrieve.Query{Text: texts[0], PaperID: q.PaperID, K: k, Exclude: cfg.Exclude})
			}
			return retrieve.MultiSearch(ctx, []retrieve.Retriever{r}, texts,
				retrieve.Query{PaperID: q.PaperID, K: k, Exclude: cfg.Exclude}, cfg.RRFK, 0, label)
		}
		var wins []retrieve.Hit
		var winErr error
		if ui.unit == UnitWindow {
			kmax := 0
			for _, k := range ks {
				kmax = max(kmax, k)
			}
			wins, winErr = search(windowDepth(kmax, ui.window))
		}
		for i := range rows {
			row := &rows[i]
			row.N++
			var passages []string
			tok := 0
			err := winErr
			if err == nil {
				if ui.unit == UnitWindow {
					passages, tok = ui.parents(wins, row.K)
				} else {
					var hits []retrieve.Hit
					if hits, err = search(row.K); err == nil {
						for _, h := range hits {
							passages = append(passages, h.Text)
							tok += ui.tokensOf(h)
						}
					}
				}
			}
			if err != nil {
				row.Errors++
				continue
			}
			m := golds[qi].Score(passages)
			row.Complete += m.CompleteAt(len(passages))
			row.Recall += m.RecallAt(len(passages))
			row.ContextTokens += float64(tok)
		}
	}
	meanRows(rows)
	return rows, nil
}

// goldFirst is the "gold" rerank setting: it asks its retriever for depth
// candidates and puts first those covering most of the asking question's
// gold evidence, as a perfect reranker would. It bounds what any reranker
// at that depth can do over that retriever, as the oracle rows bound what
// any ranking can do at a passage size.
type goldFirst struct {
	r     retrieve.Retriever
	depth int
	golds map[string]*evidence.Gold // paper and query text -> the question's gold
}

func (g goldFirst) Name() string { return g.r.Name() + ">gold" }

func (g goldFirst) Search(ctx context.Context, q retrieve.Query) ([]retrieve.Hit, error) {
	deep := q
	deep.K = max(q.K, g.depth)
	hits, err := g.r.Search(ctx, deep)
	if err != nil {
		return nil, err
	}
	gold := g.golds[q.PaperID+"\x00"+q.Text]
	if gold == nil {
		return nil, fmt.Errorf("gold reranker: no question asks %q", q.Text)
	}
	// Greedy set cover: each next passage is the one holding most gold
	// sentences not held yet, so a sentence the paper repeats (abstract
	// and body) does not crowd out the others; then those holding most
	// gold words, for sentences split across two passages.
	holds := make([][]bool, len(hits))
	part := make([]float64, len(hits)) // gold words held, found sentences or not
	for i, h := range hits {
		m := gold.Score([]string{h.Text})
		part[i] = m.RecallAt(1)
		holds[i] = make([]bool, len(m.FirstRank))
		for j, r := range m.FirstRank {
			holds[i][j] = r == 1
		}
	}
	have := make([]bool, len(gold.Sentences))
	used := make([]bool, len(hits))
	out := make([]retrieve.Hit, 0, q.K)
	for len(out) < min(q.K, len(hits)) {
		best, bestNew := -1, -1
		for i := range hits {
			if used[i] {
				continue
			}
			n := 0
			for j, ok := range holds[i] {
				if ok && !have[j] {
					n++
				}
			}
			if n > bestNew || (n == bestNew && part[i] > part[best]) {
				best, bestNew = i, n
			}
		}
		used[best] = true
		for j, ok := range holds[best] {
			have[j] = have[j] || ok
		}
		h := hits[best]
		h.Rank, h.Score = len(out)+1, float64(bestNew)
		out = append(out, h)
	}
	return out, nil
}

// goldReranker parses a "gold" or "gold:DEPTH" rerank setting (depth 30,
// the rerank default, when not given).
func goldReranker(name string) (depth int, ok bool, err error) {
	if name == RerankGold {
		return 30, true, nil
	}
	rest, found := strings.CutPrefix(name, RerankGold+":")
	if !found {
		return 0, false, nil
	}
	if _, err := fmt.Sscanf(rest, "%d", &depth); err != nil || depth <= 0 || fmt.Sprint(depth) != rest {
		return 0, true, fmt.Errorf("rerank %q: give gold or gold:DEPTH with a positive depth", name)
	}
	return depth, true, nil
}

// Oracle is the retriever name of the ceiling rows (SweepConfig.Oracle).
const Oracle = "oracle"

// oracle scores, at each budget, the first passage holding each gold
// sentence, in document order, at most k of them.
func (ui *unitIndex) oracle(ks map[int]int, qs []bench.Question, golds []*evidence.Gold) []SweepRow {
	budgets := make([]int, 0, len(ks))
	for b := range ks {
		budgets = append(budgets, b)
	}
	sort.Ints(budgets)
	rows := make([]SweepRow, len(budgets))
	for i, b := range budgets {
		rows[i] = SweepRow{Budget: b, Unit: ui.unit, PassageTokens: ui.size, K: ks[b], Retriever: Oracle, Rerank: RerankNone}
	}
	for qi, q := range qs {
		if golds[qi].Empty() {
			continue
		}
		ps := ui.byPaper[q.PaperID]
		texts := make([]string, len(ps))
		for i, p := range ps {
			texts[i] = p.Text
		}
		need := map[int]bool{}
		var order []int
		for _, r := range golds[qi].Score(texts).FirstRank {
			if r > 0 && !need[r-1] {
				need[r-1] = true
				order = append(order, r-1)
			}
		}
		sort.Ints(order)
		for i := range rows {
			row := &rows[i]
			pick := order[:min(len(order), row.K)]
			var sel []string
			tok := 0
			for _, j := range pick {
				sel = append(sel, ps[j].Text)
				tok += ps[j].Tokens
			}
			m := golds[qi].Score(sel)
			row.N++
			row.Complete += m.CompleteAt(len(sel))
			row.Recall += m.RecallAt(len(sel))
			row.ContextTokens += float64(tok)
		}
	}
	meanRows(rows)
	return rows
}

func (ui *unitIndex) tokensOf(h retrieve.Hit) int {
	if n, ok := ui.tokens[h.PassageID]; ok {
		return n
	}
	return tokens.Count(h.Text)
}

// parents maps ranked windows to their parent passages, first appearance
// first, and keeps the first k.
func (ui *unitIndex) parents(wins []retrieve.Hit, k int) (texts []string, tok int) {
	seen := map[string]bool{}
	for _, w := range wins {
		pid, ok := ui.parent[w.PassageID]
		if !ok || seen[pid] {
			continue
		}
		seen[pid] = true
		texts = append(texts, ui.text[pid])
		tok += ui.tokens[pid]
		if len(texts) == k {
			break
		}
	}
	return texts, tok
}

// prefixCache asks its retriever once per query text, paper and kinds
// left out, for at least deep hits, and answers every search for fewer
// with the head of that list: the top k of a ranking is the head of its
// top n. Dense retrieval embeds each query text once this way.
type prefixCache struct {
	r     retrieve.Retriever
	deep  int
	mu    sync.Mutex
	lists map[string][]retrieve.Hit
	asked map[string]int // the k each list was asked for: a shorter list is the whole paper
	calls int
}

func (c *prefixCache) Name() string { return c.r.Name() }

func (c *prefixCache) Search(ctx context.Context, q retrieve.Query) ([]retrieve.Hit, error) {
	key := fmt.Sprintf("%s\x00%s\x00%v", q.PaperID, q.Text, q.Exclude)
	c.mu.Lock()
	defer c.mu.Unlock()
	hits, ok := c.lists[key]
	if !ok || (q.K > c.asked[key] && len(hits) >= c.asked[key]) {
		deep := q
		deep.K = max(q.K, c.deep)
		var err error
		if hits, err = c.r.Search(ctx, deep); err != nil {
			return nil, err
		}
		c.calls++
		c.lists[key], c.asked[key] = hits, deep.K
	}
	if len(hits) > q.K {
		hits = hits[:q.K]
	}
	return append([]retrieve.Hit(nil), hits...), nil
}

// memo remembers a (reranking) retriever's answers by query and k: a
// reranker is the costly step, and the sweep asks it the same again for
// every budget sharing a k.
type memo struct {
	r    retrieve.Retriever
	mu   sync.Mutex
	hits map[string][]retrieve.Hit
}

func (m *memo) Name() string { return m.r.Name() }

func (m *memo) Search(ctx context.Context, q retrieve.Query) ([]retrieve.Hit, error) {
	key := fmt.Sprintf("%s\x00%s\x00%v\x00%d", q.PaperID, q.Text, q.Exclude, q.K)
	m.mu.Lock()
	h, ok := m.hits[key]
	m.mu.Unlock()
	if ok {
		return append([]retrieve.Hit(nil), h...), nil
	}
	h, err := m.r.Search(ctx, q)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	m.hits[key] = h
	m.mu.Unlock()
	return append([]retrieve.Hit(nil), h...), nil
}

// WriteTable writes the rows as one aligned table, in the rows' order.
func (s Sweep) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "Budget sweep over %d questions (%d without locatable gold left out); mean full paper %.0f tokens\n\n", s.N, s.NoGold, s.FullTokens)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "budget\tshare\tconfiguration\tcomplete@budget\trecall\tcontext tokens\tcontext share\t\n")
	for _, r := range s.Rows {
		fmt.Fprintf(tw, "%d\t%.1f%%\t%s\t%.3f\t%.3f\t%.0f\t%.1f%%\t", r.Budget, 100*r.BudgetShare, r.Label(), r.Complete, r.Recall, r.ContextTokens, 100*r.ContextShare)
		if r.Errors > 0 {
			fmt.Fprintf(tw, "%d errors", r.Errors)
		}
		fmt.Fprintln(tw, "\t")
	}
	return tw.Flush()
}

// Cheapest is the row with the smallest budget reaching complete@budget ≥
// level (ties: fewer context tokens, then higher completeness) among those
// ok accepts (nil: all), oracle rows left out, and whether there is one.
func (s Sweep) Cheapest(level float64, ok func(SweepRow) bool) (SweepRow, bool) {
	var best SweepRow
	found := false
	for _, r := range s.Rows {
		if r.Retriever == Oracle || r.Complete < level || (ok != nil && !ok(r)) {
			continue
		}
		if !found || r.Budget < best.Budget || (r.Budget == best.Budget && (r.ContextTokens < best.ContextTokens ||
			(r.ContextTokens == best.ContextTokens && r.Complete > best.Complete))) {
			best, found = r, true
		}
	}
	return best, found
}

// WriteCheapest writes, for each level, the cheapest configuration whose
// complete@budget reaches it (Cheapest), or that none does.
func (s Sweep) WriteCheapest(w io.Writer, levels []float64) {
	for _, l := range levels {
		r, ok := s.Cheapest(l, nil)
		if !ok {
			fmt.Fprintf(w, "No configuration reaches complete@budget %.2f.\n", l)
			continue
		}
		bound := ""
		if _, gold, _ := goldReranker(r.Rerank); gold {
			bound = " (a bound: the gold reranker, what a perfect reranker would reach)"
		}
		fmt.Fprintf(w, "Cheapest reaching complete@budget %.2f: %s, budget %d (%.1f%% of the mean full paper), complete %.3f, %.0f context tokens%s.\n",
			l, r.Label(), r.Budget, 100*r.BudgetShare, r.Complete, r.ContextTokens, bound)
	}
}

// meanRows turns each row's sums over its questions into means.
func meanRows(rows []SweepRow) {
	for i := range rows {
		if n := float64(rows[i].N); n > 0 {
			rows[i].Complete /= n
			rows[i].Recall /= n
			rows[i].ContextTokens /= n
		}
	}
}
