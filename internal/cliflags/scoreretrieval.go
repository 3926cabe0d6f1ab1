package cliflags

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/index"
)

// ScoreRetrieval is the flag set of `paperlens eval retrieval`: what to
// score against the gold evidence, and the --sweep grid.
type ScoreRetrieval struct {
	Index               Index
	Bench, Data         string // --bench, --data
	Papers              string // --papers
	JSON                bool   // --json
	MaxTokens           int    // --passage-tokens
	Sweep               Sweep
	rerank              session.Rerank
	retrieved           map[string]string
	threshold           float64
	retrievers, ks      string
	forms, excludeKinds string
}

// Add declares eval retrieval's flags.
func (f *ScoreRetrieval) Add(fl *pflag.FlagSet) {
	f.Index.Add(fl)
	fl.StringVar(&f.Bench, "bench", "elaipbench", "benchmark format (elaipbench: the one with gold evidence)")
	fl.StringVar(&f.Data, "data", "", "benchmark file (.jsonl, .json or .parquet)")
	fl.StringVar(&f.Papers, "papers", "", "folder of the benchmark's papers (PDFs named by paper_id) to ingest instead of paper_content")
	fl.StringVar(&f.retrievers, "retriever", "bm25,dense,hybrid", "retrievers to score, comma-separated: "+strings.Join(index.Names(), ", "))
	fl.StringVarP(&f.ks, "k", "k", "1,3,5,10", "cut-offs, comma-separated")
	fl.StringVar(&f.forms, "query", "full", "query forms, comma-separated: full (stem + options, as the dataset stores the question: ElaipBench's), stem, options")
	AddPassageTokens(fl, &f.MaxTokens, "max-tokens")
	AddExcludeKinds(fl, &f.excludeKinds)
	AddRerank(fl, &f.rerank)
	AddThreshold(fl, &f.threshold)
	AddRetrieved(fl, &f.retrieved)
	fl.BoolVar(&f.JSON, "json", false, `one JSON object per question and retriever, then {"n":N,"retrievers":{...}}`)
	f.Sweep.Add(fl)
}

// Config checks the flags and turns them into what to score, before
// anything is read or opened; changed says which flags were given.
func (f *ScoreRetrieval) Config(changed func(string) bool) (retrieval.Config, error) {
	if f.Bench != "elaipbench" {
		return retrieval.Config{}, fmt.Errorf("--bench %s has no gold evidence to score retrieval against; use --bench elaipbench", f.Bench)
	}
	if f.Data == "" {
		return retrieval.Config{}, fmt.Errorf("--data FILE is required (ElaipBench's elabench.jsonl, or testdata/elaipbench/sample.jsonl)")
	}
	cfg := retrieval.Config{RRFK: f.Index.RRFK, Retrievers: SplitList(f.retrievers)}
	var err error
	if cfg.Exclude, err = ParseExcludeKinds(f.excludeKinds); err != nil {
		return cfg, err
	}
	cfg.Evidence.Threshold = f.threshold
	if err := f.rerank.Check(); err != nil {
		return cfg, err
	}
	for _, q := range SplitList(f.forms) {
		cfg.Forms = append(cfg.Forms, retrieve.QueryForm(q))
		if _, err := retrieve.QueryTexts(retrieve.QueryForm(q), "", nil); err != nil {
			return cfg, err
		}
	}
	for _, k := range SplitList(f.ks) {
		n, err := strconv.Atoi(k)
		if err != nil || n <= 0 {
			return cfg, fmt.Errorf("-k %q: give positive whole numbers, e.g. -k 1,3,5,10", f.ks)
		}
		cfg.Ks = append(cfg.Ks, n)
	}
	if f.Sweep.On && (changed("k") || len(f.retrieved) > 0) {
		return cfg, fmt.Errorf("-k or --retrieved, and --sweep: the sweep derives k from --budgets and cuts passages of other sizes, which a run file does not rank")
	}
	return cfg, nil
}

// Grid is the --sweep grid over cfg's retrievers: every query form
// unless --query was given.
func (f *ScoreRetrieval) Grid(cfg retrieval.Config, changed func(string) bool, progress io.Writer) (retrieval.SweepConfig, error) {
	forms := cfg.Forms
	if !changed("query") {
		forms = []retrieve.QueryForm{retrieve.FormStem, retrieve.FormFull, retrieve.FormOptions}
	}
	return f.Sweep.Config(cfg.Retrievers, forms, f.Index.RRFK, f.threshold, cfg.Exclude, progress)
}

// Retrieval is where the flags score: the invocation's home and
// environment, the index and reranker flags, the run files; notes go to
// the invocation's log.
func (f *ScoreRetrieval) Retrieval(inv Invocation) session.Retrieval {
	return session.Retrieval{Home: inv.Home, Index: f.Index.Spec(inv.Env), Rerank: f.rerank, Env: inv.Env, Log: inv.Log, Retrieved: f.retrieved}
}
