package study

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/index"
	"github.com/paperlens/paperlens/retrieve/rerank"
)

// Config is one study: the evaluation each model gets, what retrieval is
// scored, and which models are evaluated.
type Config struct {
	// Eval is each model's evaluation (eval/session): this request with
	// the model's name and its run folder under OutRoot (Folder). Its
	// config says where the papers come from (Data, Papers, Home,
	// MaxPassageTokens) and the benchmark (Bench); retrieval is scored
	// against gold evidence only for elaipbench, the one that marks it.
	Eval session.Request
	// OutRoot holds the run folders; "": DefaultOutRoot.
	OutRoot string
	// Models are evaluated in this order, each in every mode of the run.
	Models []string
	// Retrieval says what to score; empty fields: DefaultRetrieval. Its
	// fusion constant and excluded kinds default to the evaluation's.
	Retrieval retrieval.Config
	// Sweep, when set, is study --sweep: after the retrieval scores, the
	// budget sweep, and after each model's usual modes, its best swept
	// configurations (see Sweep).
	Sweep *Sweep
	// Out receives the study's report as it goes: the retrieval tables,
	// each model's summary, and under a dry run each model's plan (as JSON
	// with PlanJSON); nil: discarded.
	Out      io.Writer
	PlanJSON bool
}

// Defaults fills what a study was not told: with no data, the sample in
// testdata/ (the working directory being the repository root); with no
// model, the offline baselines random and ir, saying so on log; with no
// modes, every mode but the tool modes, which need a model that calls
// tools (and a search engine, a sandbox): they are asked for by name.
func (cfg *Config) Defaults(log io.Writer) error {
	c := &cfg.Eval.Config
	if c.Data == "" {
		c.Data = filepath.Join("testdata", "elaipbench", "sample.jsonl")
		if c.Papers == "" {
			c.Papers = filepath.Join("testdata", "papers")
		}
	}
	if _, err := os.Stat(c.Data); err != nil {
		return fmt.Errorf("benchmark %s: %w (run from the repository root, or pass --data)", c.Data, err)
	}
	if len(cfg.Models) == 0 {
		cfg.Models = []string{"random", "ir"}
		fmt.Fprintln(logOf(log), "No model configured: running the offline baselines random and ir.\n"+
			"To study a real model: paperlens study --models NAME --base-url URL (key in $OPENAI_API_KEY).")
	}
	if len(c.Modes) == 0 {
		c.Modes = DefaultModes()
	}
	return nil
}

// DefaultModes are the modes a study evaluates when not told: every mode
// but the tool modes, which need a model that calls tools (and a search
// engine, a sandbox), in report order.
func DefaultModes() []string {
	var out []string
	for _, m := range mode.All() {
		if !m.UsesTools() {
			out = append(out, m.Name)
		}
	}
	return out
}

// logOf is w, or a writer that discards.
func logOf(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
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
	var res Result
	// The reranker of the retrieval table and the sweep, checked before
	// anything is ingested: a setting that cannot work costs nothing.
	rr, err := sweepRerank(cfg.Eval, cfg.Models)
	if err != nil {
		return res, err
	}
	qs, err = session.EnsurePapers(ctx, papers(cfg.Eval), qs)
	if err != nil {
		return res, err
	}
	res.Questions = len(qs)
	if cfg.Eval.Config.Bench == "elaipbench" {
		if err := scoreRetrieval(ctx, cfg, rr, qs, &res, out); err != nil {
			return res, err
		}
	}
	if cfg.Sweep != nil {
		if err := runSweep(ctx, cfg, rr, qs, &res, out); err != nil {
			return res, err
		}
	}
	for _, m := range cfg.Models {
		if err := evaluateModel(ctx, cfg, rr, m, &res, out); err != nil {
			return res, err
		}
	}
	return res, nil
}

// papers is where an evaluation's papers come from and go.
func papers(req session.Request) session.Papers {
	c := req.Config
	return session.Papers{Home: c.Home, Data: c.Data, Dir: c.Papers, MaxTokens: c.MaxPassageTokens, Log: req.Log, Isolation: req.Isolation}
}

// evaluateModel runs one model in every mode (or plans it, under a dry
// run) and, with a sweep, its swept configurations.
func evaluateModel(ctx context.Context, cfg Config, rr session.Rerank, m string, res *Result, out io.Writer) error {
	req := cfg.Eval
	req.Config.Model = m
	req.Config.Out = Folder(outRoot(cfg), m, paradigm(req))
	r, plan, err := session.Eval(ctx, req)
	if plan != nil {
		res.Models = append(res.Models, Model{Name: m, Plan: plan})
		fmt.Fprintf(out, "## %s\n\n", m)
		return run.WritePlan(out, *plan, cfg.PlanJSON)
	}
	if err != nil {
		return fmt.Errorf("model %s: %w", m, err)
	}
	res.Models = append(res.Models, Model{Name: m, Run: r})
	md, err := run.Dir(r.Dir).SummaryMarkdown()
	if err != nil {
		return fmt.Errorf("model %s: %w", m, err)
	}
	fmt.Fprintf(out, "%s\n(run folder %s)\n\n", md, r.Dir)
	if cfg.Sweep == nil {
		return nil
	}
	swept, err := evaluateSwept(ctx, cfg, rr, m, res.Picked)
	if err != nil {
		return fmt.Errorf("model %s: %w", m, err)
	}
	res.Models[len(res.Models)-1].Swept = swept
	writeSweptReport(out, m, r, swept)
	return nil
}

// paradigm is the evaluation's paradigm, as its run folders name it.
func paradigm(req session.Request) string {
	if req.Config.Paradigm == "" {
		return run.Base
	}
	return req.Config.Paradigm
}

// DefaultOutRoot holds the study's run folders when Config.OutRoot is "".
const DefaultOutRoot = "runs"

// outRoot is where the study's run folders go.
func outRoot(cfg Config) string {
	if cfg.OutRoot == "" {
		return DefaultOutRoot
	}
	return cfg.OutRoot
}

// retrievalOf is where the study's retrieval is scored: the evaluation's
// home and index, reranked by rr, progress on the evaluation's log; the
// evaluation's run files (--retrieved) are scored beside the index's
// retrievers.
func retrievalOf(req session.Request, rr session.Rerank) session.Retrieval {
	return session.Retrieval{Home: req.Config.Home, Index: req.Index, Rerank: rr, Env: req.Env, Progress: req.Log, Log: req.Log, Retrieved: req.Retrieved}
}

// SweepLevels are the complete@budget levels whose cheapest configuration
// study --sweep names and evaluates first.
var SweepLevels = []float64{0.95, 0.9, 0.8}

func runSweep(ctx context.Context, cfg Config, rr session.Rerank, qs []bench.Question, res *Result, out io.Writer) error {
	if cfg.Eval.Config.Bench != "elaipbench" {
		return fmt.Errorf("--sweep needs gold evidence: use --bench elaipbench")
	}
	sw, err := session.Sweep(ctx, retrievalOf(cfg.Eval, rr), homeTokens(cfg.Eval), qs, cfg.Sweep.Grid)
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

func evaluateSwept(ctx context.Context, cfg Config, rr session.Rerank, model string, picked []retrieval.SweepRow) ([]SweptRun, error) {
	orders := cfg.Sweep.Orders
	if len(orders) == 0 {
		orders = []string{"score", "document"}
	}
	var out []SweptRun
	for _, row := range picked {
		for _, o := range orders {
			c := Config1{Row: row, Order: o}
			r, plan, err := session.Eval(ctx, sweptRequest(cfg.Eval, rr, outRoot(cfg), model, c))
			if plan != nil && err == nil {
				err = fmt.Errorf("a dry run evaluates no swept configuration")
			}
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
	if rc.RRFK == 0 {
		rc.RRFK = cfg.Eval.Index.RRFK
	}
	if rc.Exclude == nil {
		rc.Exclude = cfg.Eval.Config.Excluded()
	}
	return rc
}

// scoreRetrieval scores the retrievers against the gold evidence. The
// table scores 4 retrievers x 3 query forms: a cross-encoder reranks them
// for little, but a chat model would be asked 12 times per question, so
// with an llm reranker only the sweep and the model runs rerank.
func scoreRetrieval(ctx context.Context, cfg Config, rr session.Rerank, qs []bench.Question, res *Result, out io.Writer) error {
	if rr.Kind != rerank.API {
		rr = session.Rerank{Kind: rerank.None, Depth: rr.Depth}
	}
	rc := retrievalConfig(cfg)
	sum, err := session.ScoreRetrieval(ctx, retrievalOf(cfg.Eval, rr), qs, rc, nil)
	if err != nil {
		return err
	}
	res.Retrieval = &sum
	fmt.Fprint(out, "# Retrieval: evidence recall\n\n")
	if err := sum.WriteTable(out, rc.Ks); err != nil {
		return err
	}
	fmt.Fprintln(out)
	return nil
}

// Folder names a model's run folder under root for a paradigm, the way the
// study command always has: study-<model>-<paradigm>, with / and : made
// safe for a file name.
func Folder(root, model, paradigm string) string {
	return filepath.Join(root, fmt.Sprintf("study-%s-%s", session.SafeName(model), paradigm))
}
