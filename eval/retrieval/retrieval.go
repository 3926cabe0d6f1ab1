// Package retrieval scores retrievers against a benchmark's gold evidence:
// for each question, where each gold sentence first appears in the ranking,
// recall@k (share of the gold text covered by the top k passages), hit@k and
// reciprocal rank; averaged per retriever and query form, and per question
// type. The matching rule is package evidence's.
//
// # Gold passages, and the TREC measures
//
// A passage holds gold evidence when some gold sentence is found in it
// alone (evidence.Gold.Holds: the rule behind hit@k and MRR). The
// question's gold passages are those of its paper that hold gold
// evidence; Qrels writes them as TREC judgments (rel 1, and rel 0 for
// every other passage of the paper). Given the paper's passages
// (Config.Passages), Run also reports passage_recall@k: the share of the
// question's gold passages in the top k, 0 when it has none. Averaged
// over the questions with locatable gold (N), these equal what trec_eval
// -c computes from the rankings as a TREC run file and these qrels:
//
//   - passage_recall@k = recall_k (relevant retrieved in the top k over
//     relevant; 0 for a question with no relevant passage);
//   - hit@k = success_k (some relevant passage in the top k);
//   - mrr = recip_rank (1 / rank of the first relevant passage).
//
// recall@k itself, the share of gold words covered by the union of the
// top k, depends on which words each passage covers and on their
// overlap, so no per-passage judgment expresses it: it has no TREC
// equivalent.
package retrieval

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/evidence"
	"github.com/paperlens/paperlens/retrieve/rerank"
	"github.com/paperlens/paperlens/retrieve/trec"
)

// Source hands out retrievers by name (an *index.Index does).
type Source interface {
	Retriever(name string) (retrieve.Retriever, error)
}

// Config says what to measure.
type Config struct {
	Retrievers []string             // e.g. bm25, bleve, okapi, dense, hybrid
	Forms      []retrieve.QueryForm // stem, full, options
	Ks         []int                // cut-offs, e.g. 1, 3, 5, 10
	Evidence   evidence.Options     // matching rule
	RRFK       int                  // fusion k for option-aware queries
	Exclude    []kind.Kind          // passage kinds left out of every ranking (--exclude-kinds)
	// Rerank, when set, reorders the first RerankDepth candidates of every
	// ranking (--rerank; 0: rerank.DefaultDepth); labels then read
	// "bm25>api", "bm25>api+options".
	Rerank      rerank.Reranker
	RerankDepth int
	// Passages, when set, gives a paper's passages (the corpus's): the
	// gold passages are found among them and passage_recall@k reported
	// (see the package doc). nil: no passage recall.
	Passages func(paperID string) ([]corpus.Passage, error)
}

// Label names a retriever under a query form: "bm25" for the stem alone,
// "bm25+options" otherwise.
func Label(retriever string, form retrieve.QueryForm) string {
	if form == retrieve.FormStem || form == "" {
		return retriever
	}
	return retriever + "+" + string(form)
}

// Ranked is one retrieved passage as recorded per question.
type Ranked struct {
	Rank      int     `json:"rank"`
	PassageID string  `json:"passage_id"`
	Score     float64 `json:"score"`
}

// QuestionResult is one question under one retriever and query form.
type QuestionResult struct {
	QuestionID string             `json:"question_id"`
	PaperID    string             `json:"paper_id"`
	Type       string             `json:"question_type"`
	Retriever  string             `json:"retriever"`
	FirstRank  []int              `json:"first_rank"` // per gold sentence; 0 = not retrieved
	Recall     map[string]float64 `json:"recall"`     // "recall@5" → share
	Hit        map[string]float64 `json:"hit"`
	// Complete["complete@5"] is 1 when all the gold evidence is in the top 5.
	Complete map[string]float64 `json:"complete"`
	// PassageRecall["passage_recall@5"] is the share of GoldPassages in
	// the top 5 (with Config.Passages only).
	PassageRecall map[string]float64 `json:"passage_recall,omitempty"`
	// GoldPassages are the passages of the paper that hold gold evidence
	// (with Config.Passages only; may be empty).
	GoldPassages []string `json:"gold_passages,omitempty"`
	RR           float64  `json:"rr"`
	Hits         []Ranked `json:"hits"`
	Error        string   `json:"error,omitempty"`
}

// Summary averages the results: Retrievers[label]["recall@5"], and the same
// per question type.
type Summary struct {
	N          int                                      `json:"n"`
	NoGold     int                                      `json:"no_gold"`
	Errors     int                                      `json:"errors"`
	Retrievers map[string]map[string]float64            `json:"retrievers"`
	ByType     map[string]map[string]map[string]float64 `json:"by_type"`
}

// Run scores every question under every retriever and form, calling emit
// for each result. Questions whose gold text is too short to locate are
// counted in NoGold and left out of the averages.
func Run(ctx context.Context, src Source, qs []bench.Question, cfg Config, emit func(QuestionResult)) (Summary, error) {
	cfg = withRunDefaults(cfg)
	maxK, err := deepestCutoff(cfg.Ks)
	if err != nil {
		return Summary{}, err
	}
	sum := Summary{Retrievers: map[string]map[string]float64{}, ByType: map[string]map[string]map[string]float64{}}
	golds := parseGolds(qs, cfg.Evidence)
	sum.NoGold = countNoGold(golds)
	sum.N = len(qs) - sum.NoGold
	goldPassages, err := goldPassagesOf(qs, golds, cfg.Passages)
	if err != nil {
		return sum, err
	}
	means := newRunMeans()
	for _, name := range cfg.Retrievers {
		r, err := src.Retriever(name)
		if err != nil {
			return sum, err
		}
		if cfg.Rerank != nil {
			name = rerank.Wrap(r, cfg.Rerank, cfg.RerankDepth).Name()
		}
		for _, form := range cfg.Forms {
			label := Label(name, form)
			means.start(label)
			for i, q := range qs {
				if err := ctx.Err(); err != nil {
					return sum, err
				}
				if golds[i].Empty() {
					continue
				}
				res, failed, err := scoreQuestion(ctx, r, form, label, q, golds[i], goldPassages, i, cfg, maxK)
				if err != nil {
					return sum, err
				}
				if failed {
					sum.Errors++
				}
				means.add(q.Type, label, res)
				if emit != nil {
					emit(res)
				}
			}
		}
	}
	means.fill(&sum)
	return sum, nil
}

// withRunDefaults fills in the cut-offs (1, 3, 5, 10) and the query form
// (full) cfg leaves unset.
func withRunDefaults(cfg Config) Config {
	if len(cfg.Ks) == 0 {
		cfg.Ks = []int{1, 3, 5, 10}
	}
	if len(cfg.Forms) == 0 {
		cfg.Forms = []retrieve.QueryForm{retrieve.FormFull}
	}
	return cfg
}

// deepestCutoff is the largest of ks, the depth every search asks for; an
// error for a k that is not positive.
func deepestCutoff(ks []int) (int, error) {
	maxK := 0
	for _, k := range ks {
		if k <= 0 {
			return 0, fmt.Errorf("k must be positive, got %d", k)
		}
		maxK = max(maxK, k)
	}
	return maxK, nil
}

// parseGolds parses each question's gold evidence under the matching rule.
func parseGolds(qs []bench.Question, opt evidence.Options) []*evidence.Gold {
	golds := make([]*evidence.Gold, len(qs))
	for i, q := range qs {
		golds[i] = evidence.ParseGold(q.Evidence, opt)
	}
	return golds
}

// countNoGold counts the golds too short to locate.
func countNoGold(golds []*evidence.Gold) int {
	n := 0
	for _, g := range golds {
		if g.Empty() {
			n++
		}
	}
	return n
}

// scoreQuestion searches for question q (its i-th, gold its gold
// evidence) under retriever r and form, as labelled, and scores the
// ranking. A failed search is recorded in the result (Error, failed) and
// scored as the hits it returned; err is for a query that cannot be made.
func scoreQuestion(ctx context.Context, r retrieve.Retriever, form retrieve.QueryForm, label string, q bench.Question,
	gold *evidence.Gold, goldPassages [][]string, i int, cfg Config, maxK int) (res QuestionResult, failed bool, err error) {
	res = QuestionResult{QuestionID: q.ID, PaperID: q.PaperID, Type: q.Type, Retriever: label,
		Recall: map[string]float64{}, Hit: map[string]float64{}, Complete: map[string]float64{}}
	search, query, err := questionSearch(r, form, label, q, cfg)
	if err != nil {
		return res, false, err
	}
	hits, err := search.Search(ctx, retrieve.Query{Text: query, PaperID: q.PaperID, K: maxK, Exclude: cfg.Exclude, QuestionID: q.ID})
	if err != nil {
		res.Error = err.Error()
		failed = true
	}
	passages := make([]string, len(hits))
	for j, h := range hits {
		passages[j] = h.Text
		res.Hits = append(res.Hits, Ranked{Rank: j + 1, PassageID: h.PassageID, Score: h.Score})
	}
	m := gold.Score(passages)
	res.FirstRank = m.FirstRank
	for _, k := range cfg.Ks {
		res.Recall[fmt.Sprintf("recall@%d", k)] = m.RecallAt(k)
		res.Hit[fmt.Sprintf("hit@%d", k)] = m.HitAt(k)
		res.Complete[fmt.Sprintf("complete@%d", k)] = m.CompleteAt(k)
	}
	res.RR = m.RR()
	if goldPassages != nil {
		res.GoldPassages = goldPassages[i]
		res.PassageRecall = passageRecall(res.Hits, goldPassages[i], cfg.Ks)
	}
	return res, failed, nil
}

// questionSearch is the retriever that answers q under form, and the query
// text it is given: r itself and the one query text, or, for several
// texts, their fusion under r and the question whole (stem and options,
// what a reranker reads); wrapped in cfg's reranker if any.
func questionSearch(r retrieve.Retriever, form retrieve.QueryForm, label string, q bench.Question, cfg Config) (retrieve.Retriever, string, error) {
	texts, err := retrieve.QueryTexts(form, q.MCQ.Stem, q.MCQ.OptionLines())
	if err != nil {
		return nil, "", err
	}
	// A single query needs no fusion: keep the retriever's own scores.
	search, query := r, texts[0]
	if len(texts) > 1 {
		search = retrieve.Fused{R: r, Texts: texts, RRFK: cfg.RRFK, Label: label}
		// A reranker reads the question whole, stem and options.
		query = strings.TrimSpace(q.MCQ.Stem + "\n" + strings.Join(q.MCQ.OptionLines(), "\n"))
	}
	return rerank.Wrap(search, cfg.Rerank, cfg.RerankDepth), query, nil
}

// runAcc sums the measures of the results of one label (and question
// type).
type runAcc struct {
	n    int
	vals map[string]float64
}

func (a *runAcc) add(r QuestionResult) {
	a.n++
	for k, v := range r.Recall {
		a.vals[k] += v
	}
	for k, v := range r.Hit {
		a.vals[k] += v
	}
	for k, v := range r.Complete {
		a.vals[k] += v
	}
	for k, v := range r.PassageRecall {
		a.vals[k] += v
	}
	a.vals["mrr"] += r.RR
}

// mean is each measure averaged over the results added, and their number
// as "n".
func (a *runAcc) mean() map[string]float64 {
	out := map[string]float64{}
	for k, v := range a.vals {
		if a.n > 0 {
			out[k] = v / float64(a.n)
		}
	}
	out["n"] = float64(a.n)
	return out
}

// runMeans accumulates the results per label, overall and per question
// type, into a Summary's averages.
type runMeans struct {
	totals map[string]*runAcc
	byType map[string]map[string]*runAcc
}

func newRunMeans() *runMeans {
	return &runMeans{totals: map[string]*runAcc{}, byType: map[string]map[string]*runAcc{}}
}

// start opens (afresh) the overall average of label, so that a label
// scored has a row even with no question.
func (m *runMeans) start(label string) {
	m.totals[label] = &runAcc{vals: map[string]float64{}}
}

// add counts res, of a question of type typ, under label (started).
func (m *runMeans) add(typ, label string, res QuestionResult) {
	m.totals[label].add(res)
	if m.byType[typ] == nil {
		m.byType[typ] = map[string]*runAcc{}
	}
	if m.byType[typ][label] == nil {
		m.byType[typ][label] = &runAcc{vals: map[string]float64{}}
	}
	m.byType[typ][label].add(res)
}

// fill sets sum's averages, overall and per question type.
func (m *runMeans) fill(sum *Summary) {
	for label, a := range m.totals {
		sum.Retrievers[label] = a.mean()
	}
	for typ, byLabel := range m.byType {
		sum.ByType[typ] = map[string]map[string]float64{}
		for label, a := range byLabel {
			sum.ByType[typ][label] = a.mean()
		}
	}
}

// passageRecall is passage_recall@k for each k: the share of the gold
// passages among the first k hits, 0 when there are none.
func passageRecall(hits []Ranked, gold []string, ks []int) map[string]float64 {
	out := map[string]float64{}
	for _, k := range ks {
		found := 0
		for _, h := range hits[:min(k, len(hits))] {
			if slices.Contains(gold, h.PassageID) {
				found++
			}
		}
		v := 0.0
		if len(gold) > 0 {
			v = float64(found) / float64(len(gold))
		}
		out[fmt.Sprintf("passage_recall@%d", k)] = v
	}
	return out
}

// goldPassagesOf finds each question's gold passages (nil for a question
// without locatable gold); nil when passages is.
func goldPassagesOf(qs []bench.Question, golds []*evidence.Gold, passages func(string) ([]corpus.Passage, error)) ([][]string, error) {
	if passages == nil {
		return nil, nil
	}
	out := make([][]string, len(qs))
	byPaper := map[string][]corpus.Passage{}
	for i, q := range qs {
		if golds[i].Empty() {
			continue
		}
		ps, ok := byPaper[q.PaperID]
		if !ok {
			var err error
			if ps, err = passages(q.PaperID); err != nil {
				return nil, fmt.Errorf("question %s: the passages of paper %s: %w", q.ID, q.PaperID, err)
			}
			byPaper[q.PaperID] = ps
		}
		out[i] = GoldPassages(golds[i], ps)
	}
	return out, nil
}

// GoldPassages are the ids of the passages that hold gold evidence
// (evidence.Gold.Holds), in the order given.
func GoldPassages(g *evidence.Gold, passages []corpus.Passage) []string {
	out := []string{}
	for _, p := range passages {
		if g.Holds(p.Text) {
			out = append(out, p.PassageID)
		}
	}
	return out
}

// Qrels are the TREC judgments of the questions' gold evidence: for each
// question with locatable gold (the questions Run averages over), every
// passage of its paper, rel 1 when it holds gold evidence and 0
// otherwise, in passage order. Questions without locatable gold get no
// line, so trec_eval leaves them out as Run does; those whose gold no
// single passage holds get only rel-0 lines, so trec_eval counts them,
// at 0, as Run does. The judgments are the paper's passages as
// passages gives them (the corpus's: at the passage size of the home).
func Qrels(qs []bench.Question, passages func(paperID string) ([]corpus.Passage, error), opt evidence.Options) ([]trec.Judgment, error) {
	var out []trec.Judgment
	byPaper := map[string][]corpus.Passage{}
	for _, q := range qs {
		g := evidence.ParseGold(q.Evidence, opt)
		if g.Empty() {
			continue
		}
		ps, ok := byPaper[q.PaperID]
		if !ok {
			var err error
			if ps, err = passages(q.PaperID); err != nil {
				return nil, fmt.Errorf("question %s: the passages of paper %s: %w", q.ID, q.PaperID, err)
			}
			if len(ps) == 0 {
				return nil, fmt.Errorf("question %s: paper %s has no passages in the corpus: ingest it (paperlens ingest) before judging its passages", q.ID, q.PaperID)
			}
			byPaper[q.PaperID] = ps
		}
		gold := GoldPassages(g, ps)
		for _, p := range ps {
			rel := 0
			if slices.Contains(gold, p.PassageID) {
				rel = 1
			}
			out = append(out, trec.Judgment{QuestionID: q.ID, PassageID: p.PassageID, Rel: rel})
		}
	}
	return out, nil
}

// Labels lists a summary's retriever labels in a stable order.
func (s Summary) Labels() []string {
	var out []string
	for l := range s.Retrievers {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// hasPassageRecall reports whether passage recall was measured.
func (sum Summary) hasPassageRecall() bool {
	for _, r := range sum.Retrievers {
		for k := range r {
			if strings.HasPrefix(k, "passage_recall@") {
				return true
			}
		}
	}
	return false
}

// WriteTable writes the summary as aligned text tables, overall and by
// question type: recall, hit and complete at each k, and MRR, per
// retriever. It is the one text rendering of a retrieval summary.
func (sum Summary) WriteTable(w io.Writer, ks []int) error {
	cols := []string{}
	for _, k := range ks {
		cols = append(cols, fmt.Sprintf("recall@%d", k))
	}
	for _, k := range ks {
		cols = append(cols, fmt.Sprintf("hit@%d", k))
	}
	for _, k := range ks {
		cols = append(cols, fmt.Sprintf("complete@%d", k))
	}
	if sum.hasPassageRecall() {
		for _, k := range ks {
			cols = append(cols, fmt.Sprintf("passage_recall@%d", k))
		}
	}
	cols = append(cols, "mrr")
	table := func(rows map[string]map[string]float64) {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "retriever\tn\t")
		for _, c := range cols {
			fmt.Fprintf(tw, "%s\t", c)
		}
		fmt.Fprintln(tw)
		labels := make([]string, 0, len(rows))
		for l := range rows {
			labels = append(labels, l)
		}
		sort.Strings(labels)
		for _, l := range labels {
			fmt.Fprintf(tw, "%s\t%.0f\t", l, rows[l]["n"])
			for _, c := range cols {
				fmt.Fprintf(tw, "%.3f\t", rows[l][c])
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "Evidence recall over %d questions (%d without locatable gold left out, %d retrieval errors)\n\n", sum.N, sum.NoGold, sum.Errors)
	table(sum.Retrievers)
	types := make([]string, 0, len(sum.ByType))
	for t := range sum.ByType {
		types = append(types, t)
	}
	sort.Strings(types)
	for _, t := range types {
		fmt.Fprintf(w, "\n%s\n", t)
		table(sum.ByType[t])
	}
	return nil
}
