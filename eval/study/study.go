package study

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/ingest/corpus"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/index"
)

// Config is one study: where the papers come from, what retrieval is
// scored, and which models are evaluated.
type Config struct {
	Papers
	// Bench is the benchmark's format; retrieval is scored against gold
	// evidence only for elaipbench, the one that marks it.
	Bench string
	// Models are evaluated in this order, each in every mode of the run.
	Models []string
	// Retrieval says what to score; zero: DefaultRetrieval.
	Retrieval retrieval.Config
	// OpenIndex opens the corpus and its indexes brought up to date (the
	// command wires its index flags); the study closes both.
	OpenIndex func(ctx context.Context) (*corpus.Store, *index.Index, error)
	// Evaluate runs one model in every mode, or plans it (a dry run,
	// returned as a non-nil plan and no run).
	Evaluate func(ctx context.Context, model string) (run.Result, *run.Plan, error)
	// Sweep, when set, is study --sweep: after the retrieval scores, the
	// budget sweep, and after each model's usual modes, its best swept
	// configurations (see Sweep).
	Sweep *Sweep
	// Out receives the study's report as it goes: the retrieval tables and
	// each model's summary; nil: discarded.
	Out io.Writer
}

// DefaultRetrieval scores every retriever with every query form at k = 1,
// 5 and 10, as the study command always has.
func DefaultRetrieval() retrieval.Config {
	return retrieval.Config{
		Retrievers: []string{index.Bleve, index.Okapi, index.Dense, index.Hybrid},
		Forms:      []retrieve.QueryForm{retrieve.FormFull, retrieve.FormStem, retrieve.FormOptions},
		Ks:         []int{1, 5, 10},
	}
}

// Model is one model's part of a study.
type Model struct {
	Name  string
	Run   run.Result // the finished run (zero under a dry run)
	Plan  *run.Plan  // a dry run's plan, else nil
	Swept []SweptRun // study --sweep: the swept configurations' runs
}

// Result is what a study produced.
type Result struct {
	Questions int                // questions whose paper is available
	Retrieval *retrieval.Summary // nil when the benchmark has no gold evidence
	// Sweep is study --sweep's retrieval sweep, Picked the configurations
	// evaluated; nil without --sweep.
	Sweep  *retrieval.Sweep
	Picked []retrieval.SweepRow
	Models []Model
}

// Dirs are the run folders of the finished models.
func (r Result) Dirs() []string {
	var dirs []string
	for _, m := range r.Models {
		if m.Plan == nil && m.Run.Dir != "" {
			dirs = append(dirs, m.Run.Dir)
		}
	}
	return dirs
}

// Run is the study: ingest the papers the questions need (dropping the
// questions whose paper is missing), score retrieval against the gold
// evidence, then evaluate each model. It stops at the first model that
// fails, keeping what earlier models finished.
func Run(ctx context.Context, cfg Config, qs []bench.Question) (Result, error) {
	out := cfg.Out
	if out == nil {
		out = io.Discard
	}
	if cfg.Evaluate == nil {
		return Result{}, errors.New("study: no Evaluate function")
	}
	var res Result
	qs, err := EnsurePapers(ctx, cfg.Papers, qs)
	if err != nil {
		return res, err
	}
	res.Questions = len(qs)
	if cfg.Bench == "elaipbench" && cfg.OpenIndex != nil {
		sum, err := scoreRetrieval(ctx, cfg, qs)
		if err != nil {
			return res, err
		}
		res.Retrieval = &sum
		fmt.Fprint(out, "# Retrieval: evidence recall\n\n")
		if err := sum.WriteTable(out, retrievalConfig(cfg).Ks); err != nil {
			return res, err
		}
		fmt.Fprintln(out)
	}
	if cfg.Sweep != nil {
		if err := runSweep(ctx, cfg, qs, &res, out); err != nil {
			return res, err
		}
	}
	for _, m := range cfg.Models {
		r, plan, err := cfg.Evaluate(ctx, m)
		if plan != nil {
			res.Models = append(res.Models, Model{Name: m, Plan: plan})
			continue
		}
		if err != nil {
			return res, fmt.Errorf("model %s: %w", m, err)
		}
		res.Models = append(res.Models, Model{Name: m, Run: r})
		md, err := run.Dir(r.Dir).SummaryMarkdown()
		if err != nil {
			return res, fmt.Errorf("model %s: %w", m, err)
		}
		fmt.Fprintf(out, "%s\n(run folder %s)\n\n", md, r.Dir)
		if cfg.Sweep != nil {
			swept, err := evaluateSwept(ctx, cfg, m, res.Picked)
			if err != nil {
				return res, fmt.Errorf("model %s: %w", m, err)
			}
			res.Models[len(res.Models)-1].Swept = swept
			writeSweptReport(out, m, r, swept)
		}
	}
	return res, nil
}

// SweepLevels are the complete@budget levels whose cheapest configuration
// study --sweep names and evaluates first.
var SweepLevels = []float64{0.95, 0.9, 0.8}

func runSweep(ctx context.Context, cfg Config, qs []bench.Question, res *Result, out io.Writer) error {
	if cfg.Bench != "elaipbench" || cfg.OpenIndex == nil {
		return fmt.Errorf("--sweep needs gold evidence: use --bench elaipbench")
	}
	st, ix, err := cfg.OpenIndex(ctx)
	if err != nil {
		return err
	}
	sw, err := cfg.Sweep.Score(ctx, st, ix, qs)
	ix.Close()
	st.Close()
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	top := cfg.Sweep.Top
	if top <= 0 {
		top = 3
	}
	res.Sweep, res.Picked = &sw, Pick(sw, top, SweepLevels)
	fmt.Fprint(out, "# Retrieval: budget sweep\n\n")
	if err := sw.WriteTable(out); err != nil {
		return err
	}
	fmt.Fprintln(out)
	sw.WriteCheapest(out, SweepLevels)
	fmt.Fprintf(out, "\nEvaluated with each model (the Pareto set's cheapest at each level, then its most complete):\n")
	for _, r := range res.Picked {
		fmt.Fprintf(out, "- %s: budget %d, complete@budget %.3f, %.0f context tokens (%.1f%% of the mean full paper)\n",
			r.Label(), r.Budget, r.Complete, r.ContextTokens, 100*r.ContextShare)
	}
	fmt.Fprintln(out)
	return nil
}

func evaluateSwept(ctx context.Context, cfg Config, model string, picked []retrieval.SweepRow) ([]SweptRun, error) {
	orders := cfg.Sweep.Orders
	if len(orders) == 0 {
		orders = []string{"score", "document"}
	}
	var out []SweptRun
	for _, row := range picked {
		for _, o := range orders {
			c := Config1{Row: row, Order: o}
			r, err := cfg.Sweep.Evaluate(ctx, model, c)
			if err != nil {
				return out, fmt.Errorf("%s order %s: %w", row.Label(), o, err)
			}
			ms := r.Summary.ByMode[c.Mode()]
			sr := SweptRun{Config1: c, Dir: r.Dir, Accuracy: ms.Accuracy, PromptTokens: ms.PromptTokens}
			if rt := ms.RerankTokens; rt != nil && ms.Records > 0 {
				sr.RerankTokens = float64(rt.Prompt) / float64(ms.Records)
			}
			out = append(out, sr)
		}
	}
	return out, nil
}

func retrievalConfig(cfg Config) retrieval.Config {
	rc := cfg.Retrieval
	def := DefaultRetrieval()
	if len(rc.Retrievers) == 0 {
		rc.Retrievers = def.Retrievers
	}
	if len(rc.Forms) == 0 {
		rc.Forms = def.Forms
	}
	if len(rc.Ks) == 0 {
		rc.Ks = def.Ks
	}
	return rc
}

func scoreRetrieval(ctx context.Context, cfg Config, qs []bench.Question) (retrieval.Summary, error) {
	st, ix, err := cfg.OpenIndex(ctx)
	if err != nil {
		return retrieval.Summary{}, err
	}
	defer st.Close()
	defer ix.Close()
	return retrieval.Run(ctx, ix, qs, retrievalConfig(cfg), nil)
}

// Folder names a model's run folder under root for a paradigm, the way the
// study command always has: study-<model>-<paradigm>, with / and : made
// safe for a file name.
func Folder(root, model, paradigm string) string {
	safe := strings.NewReplacer("/", "_", ":", "_").Replace(model)
	return filepath.Join(root, fmt.Sprintf("study-%s-%s", safe, paradigm))
}
