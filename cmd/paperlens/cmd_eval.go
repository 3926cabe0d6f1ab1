package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/eval/study"
	"github.com/paperlens/paperlens/internal/cliflags"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/index"
)

func newEvalCmd(g *globalOptions) *cobra.Command {
	cmd := newEvalModelCmd(g)
	cmd.AddCommand(newEvalRetrievalCmd(g))
	return cmd
}

// retrievalOptions are the flags of eval retrieval.
type retrievalOptions struct {
	index                                                    cliflags.Index
	bench, data, papers, retrievers, ks, forms, excludeKinds string
	asJSON                                                   bool
	threshold                                                float64
	maxTokens                                                int
	sweep                                                    cliflags.Sweep
	rerank                                                   session.Rerank
	retrieved                                                map[string]string
	// Set from the command line before runRetrieval.
	kGiven, queryGiven bool
}

func newEvalRetrievalCmd(g *globalOptions) *cobra.Command {
	var o retrievalOptions
	cmd := &cobra.Command{
		Use:     "retrieval --bench elaipbench --data FILE",
		Short:   "Score retrievers against the benchmark's gold evidence (recall@k, hit@k, MRR)",
		Long:    helpText("eval-retrieval") + helpText("rerank"),
		Example: helpText("eval-retrieval.example"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.kGiven, o.queryGiven = cmd.Flags().Changed("k"), cmd.Flags().Changed("query")
			return runRetrieval(cmd.Context(), g, o)
		},
	}
	fl := cmd.Flags()
	o.index.Add(fl)
	fl.StringVar(&o.bench, "bench", "elaipbench", "benchmark format (elaipbench: the one with gold evidence)")
	fl.StringVar(&o.data, "data", "", "benchmark file (.jsonl, .json or .parquet)")
	fl.StringVar(&o.papers, "papers", "", "folder of the benchmark's papers (PDFs named by paper_id) to ingest instead of paper_content")
	fl.StringVar(&o.retrievers, "retriever", "bm25,dense,hybrid", "retrievers to score, comma-separated: "+strings.Join(index.Names(), ", "))
	fl.StringVarP(&o.ks, "k", "k", "1,3,5,10", "cut-offs, comma-separated")
	fl.StringVar(&o.forms, "query", "full", "query forms, comma-separated: full (stem + options, as the dataset stores the question: ElaipBench's), stem, options")
	cliflags.AddPassageTokens(fl, &o.maxTokens, "max-tokens")
	cliflags.AddExcludeKinds(fl, &o.excludeKinds)
	cliflags.AddRerank(fl, &o.rerank)
	cliflags.AddThreshold(fl, &o.threshold)
	cliflags.AddRetrieved(fl, &o.retrieved)
	fl.BoolVar(&o.asJSON, "json", false, `one JSON object per question and retriever, then {"n":N,"retrievers":{...}}`)
	o.sweep.Add(fl)
	return cmd
}

// runRetrieval scores retrievers against the benchmark's gold evidence,
// or with --sweep a grid of configurations at equal token budgets.
func runRetrieval(ctx context.Context, g *globalOptions, o retrievalOptions) error {
	cfg, err := o.config()
	if err != nil {
		return err
	}
	qs, problems, err := bench.LoadElaipBench(o.data)
	for _, p := range problems {
		fmt.Fprintf(g.errOut, "%s:%s\n", o.data, p)
	}
	if err != nil {
		return err
	}
	home := g.homeDir()
	qs, err = session.EnsurePapers(ctx, session.Papers{Home: home, Data: o.data, Dir: o.papers, MaxTokens: o.maxTokens, Log: g.errOut, Isolation: g.isolation}, qs)
	if err != nil {
		return err
	}
	r := session.Retrieval{Home: home, Index: o.index.Spec(g.env), Rerank: o.rerank, Env: g.env, Log: g.errOut, Retrieved: o.retrieved}
	if !o.asJSON {
		r.Progress = g.errOut
	}
	if o.sweep.On {
		if !o.queryGiven {
			cfg.Forms = []retrieve.QueryForm{retrieve.FormStem, retrieve.FormFull, retrieve.FormOptions}
		}
		grid, err := o.sweep.Config(cfg.Retrievers, cfg.Forms, o.index.RRFK, o.threshold, cfg.Exclude, g.stderr)
		if err != nil {
			return err
		}
		sw, err := session.Sweep(ctx, r, o.maxTokens, qs, grid)
		if err != nil {
			return err
		}
		return sw.Write(g.stdout, study.SweepLevels, o.asJSON)
	}
	enc := json.NewEncoder(g.stdout)
	sum, err := session.ScoreRetrieval(ctx, r, qs, cfg, func(r retrieval.QuestionResult) {
		if o.asJSON {
			_ = enc.Encode(r)
		}
	})
	if err != nil {
		return err
	}
	if o.asJSON {
		return enc.Encode(sum)
	}
	return sum.WriteTable(g.stdout, cfg.Ks)
}

// config checks the flags and turns them into what to score, before
// anything is read or opened.
func (o retrievalOptions) config() (retrieval.Config, error) {
	if o.bench != "elaipbench" {
		return retrieval.Config{}, fmt.Errorf("--bench %s has no gold evidence to score retrieval against; use --bench elaipbench", o.bench)
	}
	if o.data == "" {
		return retrieval.Config{}, fmt.Errorf("--data FILE is required (ElaipBench's elabench.jsonl, or testdata/elaipbench/sample.jsonl)")
	}
	cfg := retrieval.Config{RRFK: o.index.RRFK, Retrievers: cliflags.SplitList(o.retrievers)}
	var err error
	if cfg.Exclude, err = cliflags.ParseExcludeKinds(o.excludeKinds); err != nil {
		return cfg, err
	}
	cfg.Evidence.Threshold = o.threshold
	if err := o.rerank.Check(); err != nil {
		return cfg, err
	}
	for _, q := range cliflags.SplitList(o.forms) {
		cfg.Forms = append(cfg.Forms, retrieve.QueryForm(q))
		if _, err := retrieve.QueryTexts(retrieve.QueryForm(q), "", nil); err != nil {
			return cfg, err
		}
	}
	for _, k := range cliflags.SplitList(o.ks) {
		n, err := strconv.Atoi(k)
		if err != nil || n <= 0 {
			return cfg, fmt.Errorf("-k %q: give positive whole numbers, e.g. -k 1,3,5,10", o.ks)
		}
		cfg.Ks = append(cfg.Ks, n)
	}
	if o.sweep.On && (o.kGiven || len(o.retrieved) > 0) {
		return cfg, fmt.Errorf("-k or --retrieved, and --sweep: the sweep derives k from --budgets and cuts passages of other sizes, which a run file does not rank")
	}
	return cfg, nil
}
