// Package retrieval scores retrievers against a benchmark's gold evidence:
// for each question, where each gold sentence first appears in the ranking,
// recall@k (share of the gold text covered by the top k passages), hit@k and
// reciprocal rank; averaged per retriever and query form, and per question
// type. The matching rule is package evidence's.
package retrieval

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/evidence"
	"github.com/paperlens/paperlens/retrieve/rerank"
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
	RR       float64            `json:"rr"`
	Hits     []Ranked           `json:"hits"`
	Error    string             `json:"error,omitempty"`
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
	if len(cfg.Ks) == 0 {
		cfg.Ks = []int{1, 3, 5, 10}
	}
	if len(cfg.Forms) == 0 {
		cfg.Forms = []retrieve.QueryForm{retrieve.FormFull}
	}
	maxK := 0
	for _, k := range cfg.Ks {
		if k <= 0 {
			return Summary{}, fmt.Errorf("k must be positive, got %d", k)
		}
		maxK = max(maxK, k)
	}
	sum := Summary{Retrievers: map[string]map[string]float64{}, ByType: map[string]map[string]map[string]float64{}}
	type acc struct {
		n    int
		vals map[string]float64
	}
	totals := map[string]*acc{}
	byType := map[string]map[string]*acc{}
	add := func(a *acc, r QuestionResult) {
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
		a.vals["mrr"] += r.RR
	}
	golds := make([]*evidence.Gold, len(qs))
	for i, q := range qs {
		golds[i] = evidence.ParseGold(q.Evidence, cfg.Evidence)
		if golds[i].Empty() {
			sum.NoGold++
		}
	}
	sum.N = len(qs) - sum.NoGold
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
			totals[label] = &acc{vals: map[string]float64{}}
			for i, q := range qs {
				if err := ctx.Err(); err != nil {
					return sum, err
				}
				if golds[i].Empty() {
					continue
				}
				res := QuestionResult{QuestionID: q.ID, PaperID: q.PaperID, Type: q.Type, Retriever: label,
					Recall: map[string]float64{}, Hit: map[string]float64{}, Complete: map[string]float64{}}
				texts, err := retrieve.QueryTexts(form, q.MCQ.Stem, q.MCQ.OptionLines())
				if err != nil {
					return sum, err
				}
				// A single query needs no fusion: keep the retriever's own scores.
				search, query := r, texts[0]
				if len(texts) > 1 {
					search = retrieve.Fused{R: r, Texts: texts, RRFK: cfg.RRFK, Label: label}
					// A reranker reads the question whole, stem and options.
					query = strings.TrimSpace(q.MCQ.Stem + "\n" + strings.Join(q.MCQ.OptionLines(), "\n"))
				}
				search = rerank.Wrap(search, cfg.Rerank, cfg.RerankDepth)
				hits, err := search.Search(ctx, retrieve.Query{Text: query, PaperID: q.PaperID, K: maxK, Exclude: cfg.Exclude})
				if err != nil {
					res.Error = err.Error()
					sum.Errors++
				}
				passages := make([]string, len(hits))
				for j, h := range hits {
					passages[j] = h.Text
					res.Hits = append(res.Hits, Ranked{Rank: j + 1, PassageID: h.PassageID, Score: h.Score})
				}
				m := golds[i].Score(passages)
				res.FirstRank = m.FirstRank
				for _, k := range cfg.Ks {
					res.Recall[fmt.Sprintf("recall@%d", k)] = m.RecallAt(k)
					res.Hit[fmt.Sprintf("hit@%d", k)] = m.HitAt(k)
					res.Complete[fmt.Sprintf("complete@%d", k)] = m.CompleteAt(k)
				}
				res.RR = m.RR()
				add(totals[label], res)
				if byType[q.Type] == nil {
					byType[q.Type] = map[string]*acc{}
				}
				if byType[q.Type][label] == nil {
					byType[q.Type][label] = &acc{vals: map[string]float64{}}
				}
				add(byType[q.Type][label], res)
				if emit != nil {
					emit(res)
				}
			}
		}
	}
	mean := func(a *acc) map[string]float64 {
		out := map[string]float64{}
		for k, v := range a.vals {
			if a.n > 0 {
				out[k] = v / float64(a.n)
			}
		}
		out["n"] = float64(a.n)
		return out
	}
	for label, a := range totals {
		sum.Retrievers[label] = mean(a)
	}
	for typ, m := range byType {
		sum.ByType[typ] = map[string]map[string]float64{}
		for label, a := range m {
			sum.ByType[typ][label] = mean(a)
		}
	}
	return sum, nil
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
