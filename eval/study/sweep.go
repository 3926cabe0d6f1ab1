package study

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strings"

	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/retrieve/rerank"
)

// Sweep is study --sweep: score the retrieval grid, then evaluate the best
// few configurations with each model as ordinary eval runs, under each
// passage order, next to the usual modes.
type Sweep struct {
	// Grid is the retrieval sweep over the home's corpus and index; its
	// rerank rows rerank with what the evaluation's reranker configures.
	Grid retrieval.SweepConfig
	// Top is how many configurations are evaluated (default 3): see Pick.
	Top int
	// Orders are the passage orders each is evaluated under (default
	// score and document): order changes nothing the sweep measures, only
	// what a model reads first.
	Orders []string
}

// Config1 is one swept configuration under one passage order.
type Config1 struct {
	Row   retrieval.SweepRow
	Order string
}

// Mode is the eval mode a configuration runs as: its retriever's RAG mode.
func (c Config1) Mode() string { return c.Row.Retriever }

// Runnable says whether an eval run can take a row's configuration: the
// config of a run has passage size, k, query form, retriever, order and
// reranker (none, api or llm: the one the study's --rerank flags
// configure, which the sweep scored the row with). Small-to-big windows,
// the oracle and the gold reranker are not: the last two are bounds, not
// configurations.
func Runnable(r retrieval.SweepRow) bool {
	if r.Unit != retrieval.UnitPassage || r.Retriever == retrieval.Oracle {
		return false
	}
	switch r.Rerank {
	case "", retrieval.RerankNone, rerank.API, rerank.LLM:
		return true
	}
	return false
}

// Pick chooses the configurations study --sweep evaluates: the Pareto
// set of the runnable rows (no other row has as high a complete@budget
// with fewer mean context tokens), then from it the cheapest reaching each
// of levels in turn, then the most complete of the rest, until n are
// chosen.
func Pick(sw retrieval.Sweep, n int, levels []float64) []retrieval.SweepRow {
	var rows []retrieval.SweepRow
	for _, r := range sw.Rows {
		if Runnable(r) && r.Errors == 0 {
			rows = append(rows, r)
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].ContextTokens != rows[j].ContextTokens {
			return rows[i].ContextTokens < rows[j].ContextTokens
		}
		return rows[i].Complete > rows[j].Complete
	})
	var front []retrieval.SweepRow
	best := -1.0
	for _, r := range rows {
		if r.Complete > best {
			front = append(front, r)
			best = r.Complete
		}
	}
	var out []retrieval.SweepRow
	taken := map[string]bool{}
	take := func(r retrieval.SweepRow) {
		if key := r.Label(); !taken[key] && len(out) < n {
			taken[key] = true
			out = append(out, r)
		}
	}
	for _, l := range levels {
		for _, r := range front {
			if r.Complete >= l {
				take(r)
				break
			}
		}
	}
	for i := len(front) - 1; i >= 0; i-- {
		take(front[i])
	}
	return out
}

// SweptRun is one model's eval run of one configuration.
type SweptRun struct {
	Config1
	Dir          string  `json:"dir"`
	Accuracy     float64 `json:"accuracy"`
	PromptTokens float64 `json:"prompt_tokens"`
	// RerankTokens are the LLM reranker's prompt tokens per record (each
	// question reranked once, spread over its runs): what the context
	// cost beside the answer's prompt.
	RerankTokens float64 `json:"rerank_tokens,omitempty"`
}

// cost is what a configuration's context cost per record: the answer's
// prompt and the reranker's.
func (r SweptRun) cost() float64 { return r.PromptTokens + r.RerankTokens }

// matchesFull says whether a swept run matches full-paper accuracy, and
// how that was decided. As in the report's frontier: when both runs'
// records pair question by question, the 95% paired bootstrap interval of
// the difference must reach 0; otherwise Matches.
func matchesFull(usual run.Result, r SweptRun, full run.ModeStats) (bool, string) {
	// Per-question scores read as the records stream by: the two runs'
	// records are never held.
	if usual.Dir != "" && r.Dir != "" {
		a, errA := run.Dir(usual.Dir).PerQuestion("full")
		b, errB := run.Dir(r.Dir).PerQuestion(r.Mode())
		cfg, errC := run.Dir(usual.Dir).ReadConfig()
		if errA != nil || errB != nil || errC != nil {
			a, b = nil, nil // nothing pairs: unpaired below
		}
		n, d, lo, hi := run.PairedDiff(a, b, uint64(cfg.Seed)+1)
		if n > 0 {
			return hi >= -1e-9, fmt.Sprintf("Paired over %d questions, its accuracy minus full's is %+.1f points, 95%% bootstrap interval [%+.1f, %+.1f].",
				n, 100*d, 100*lo, 100*hi)
		}
	}
	return Matches(r.Accuracy, full.Accuracy, full.N), "Unpaired (no records to pair): within full's 95% interval by the normal approximation."
}

// Matches says whether acc is within the 95% interval of full's accuracy
// over n answers (normal approximation): "matches full-paper accuracy"
// when two runs cannot be paired question by question.
func Matches(acc, full float64, n int) bool {
	if n <= 0 {
		return false
	}
	half := 1.96 * math.Sqrt(full*(1-full)/float64(n))
	return acc >= full-half-1e-12
}

// writeSweptReport prints a model's swept runs against its full-paper
// mode, and which configuration matches full's accuracy at what share of
// its prompt tokens.
func writeSweptReport(out io.Writer, model string, usual run.Result, runs []SweptRun) {
	full, ok := usual.Summary.ByMode["full"]
	fmt.Fprintf(out, "## %s: swept configurations\n\n", model)
	fmt.Fprintln(out, "| configuration | order | complete@budget | accuracy | prompt tokens | rerank tokens | share of full's |")
	fmt.Fprintln(out, "|---|---|---:|---:|---:|---:|---:|")
	for _, r := range runs {
		share := "–"
		if ok && full.PromptTokens > 0 {
			share = fmt.Sprintf("%.1f%%", 100*r.cost()/full.PromptTokens)
		}
		fmt.Fprintf(out, "| %s | %s | %.3f | %.3f | %.0f | %.0f | %s |\n", r.Row.Label(), r.Order, r.Row.Complete, r.Accuracy, r.PromptTokens, r.RerankTokens, share)
	}
	fmt.Fprintln(out)
	if !ok || full.PromptTokens == 0 {
		fmt.Fprintf(out, "No full-paper mode in %s's run to compare with.\n\n", model)
		return
	}
	var match *SweptRun
	var how string
	for i := range runs {
		r := &runs[i]
		ok, why := matchesFull(usual, *r, full)
		if ok && (match == nil || r.cost() < match.cost()) {
			match, how = r, why
		}
	}
	if match == nil {
		fmt.Fprintf(out, "No swept configuration matches full-paper accuracy (%.3f over %d answers) for %s.\n\n", full.Accuracy, full.N, model)
		return
	}
	fmt.Fprintf(out, "%s matches full-paper accuracy (%.3f vs %.3f, within its 95%% interval) with %s, order %s, at %.1f%% of full's prompt tokens (%.0f vs %.0f).\n",
		model, match.Accuracy, full.Accuracy, match.Row.Label(), match.Order, 100*match.cost()/full.PromptTokens, match.cost(), full.PromptTokens)
	fmt.Fprintln(out, how)
	if match.RerankTokens > 0 {
		fmt.Fprintf(out, "Of its %.0f tokens per question, %.0f are the LLM reranker's prompts: the answer alone reads %.1f%% of full's.\n",
			match.cost(), match.RerankTokens, 100*match.PromptTokens/full.PromptTokens)
	}
	fmt.Fprintln(out)
}

// sweepRerank is the reranker of the study's retrieval table and its
// sweep, which scores the grid once for every model, and of a reranked
// swept row's run: the same model, so a row's accuracy is that of the
// ranking it was picked for. An llm reranker asks its own model, else the
// one model studied (as eval reranks with the answering model), at its
// own URL, else the evaluation's, else $OPENAI_BASE_URL, with its own key
// variable, else the evaluation's.
func sweepRerank(req session.Request, models []string) (session.Rerank, error) {
	rr := req.Rerank
	if err := rr.Check(); err != nil || rr.Kind != rerank.LLM {
		return rr, err
	}
	if rr.Model == "" {
		var online []string
		for _, m := range models {
			if m != "random" && m != "ir" {
				online = append(online, m)
			}
		}
		if len(online) != 1 {
			return rr, fmt.Errorf("study --rerank llm with models %s: give --rerank-model, the one chat model that orders passages for the retrieval table, the sweep and every reranked run",
				strings.Join(models, ","))
		}
		rr.Model = online[0]
	}
	if rr.BaseURL == "" {
		rr.BaseURL = req.Config.BaseURL
	}
	if rr.BaseURL == "" {
		rr.BaseURL = req.Getenv("OPENAI_BASE_URL")
	}
	if rr.KeyEnv == "" {
		rr.KeyEnv = req.Config.APIKeyEnv
	}
	return rr, nil
}

// sweptRequest is model m's evaluation of one swept configuration: the
// study's, with the row's k, passage size, query form, retriever and
// reranker, the order c names, and a folder of its own. A passage size
// other than the home's is a home of its own (the home keeps its
// passages).
func sweptRequest(req session.Request, rr session.Rerank, outRoot, m string, c Config1) session.Request {
	g := req
	g.Config.Model = m
	g.Config.K, g.Config.MaxPassageTokens, g.Config.QueryForm, g.Config.Order = c.Row.K, c.Row.PassageTokens, c.Row.Form, c.Order
	g.Config.Modes = []string{c.Mode()}
	if c.Row.PassageTokens != homeTokens(req) {
		g.Config.Home = filepath.Join(req.Config.Home, "sweep", fmt.Sprintf("passages-%d", c.Row.PassageTokens))
	}
	// A row runs as the sweep scored it. Rows carry no neighbour
	// expansion (the grid has no such dimension), so none here, whatever
	// the usual modes expand; a swept expand would be set from the row.
	g.Config.Expand = 0
	// A row without a reranker runs without one even when the study
	// reranks; a reranked row (Runnable: api or llm) with the one the
	// sweep used.
	g.Rerank = session.Rerank{Kind: rerank.None, Depth: req.Rerank.Depth}
	suffix := ""
	if c.Row.Rerank == rerank.API || c.Row.Rerank == rerank.LLM {
		g.Rerank = rr
		suffix = "-rerank-" + c.Row.Rerank
	}
	g.Config.Out = fmt.Sprintf("%s-sweep-%s-p%d-k%d-%s-%s%s", Folder(outRoot, m, paradigm(req)),
		c.Row.Retriever, c.Row.PassageTokens, c.Row.K, c.Row.Form, c.Order, suffix)
	return g
}

// homeTokens is the passage size of the evaluation's home.
func homeTokens(req session.Request) int {
	if n := req.Config.MaxPassageTokens; n > 0 {
		return n
	}
	return ingest.DefaultMaxTokens
}
