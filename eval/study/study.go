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
	Name string
	Run  run.Result // the finished run (zero under a dry run)
	Plan *run.Plan  // a dry run's plan, else nil
}

// Result is what a study produced.
type Result struct {
	Questions int                // questions whose paper is available
	Retrieval *retrieval.Summary // nil when the benchmark has no gold evidence
	Models    []Model
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
	}
	return res, nil
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
