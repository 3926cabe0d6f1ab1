package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/study"
	"github.com/paperlens/paperlens/ingest/corpus"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/index"
	"github.com/paperlens/paperlens/retrieve/rerank"
)

func newStudyCmd() *cobra.Command {
	var f evalFlags
	var models string
	var sweep sweepFlags
	cmd := &cobra.Command{
		Use:   "study [flags]",
		Short: "The whole study: ingest, index, score retrieval, evaluate every mode, report the RAG effect",
		Long: `study runs the ElaipBench RAG study end to end:

  1. ingests the benchmark's papers (--papers, or the paper_content of --data)
  2. builds the BM25 and dense indexes
  3. scores every retriever against the gold evidence (recall@k, MRR)
  4. evaluates each model (--models) in every mode, --runs times
  5. prints, per model, accuracy by mode and question type (like ElaipBench's
     Table 2) and the RAG effect of each mode against the full-paper baseline

With no model configured it runs the offline baselines (random and ir) on
the sample in testdata/, so it works on a fresh clone with no key and no
server. Point it at a real model with --models and --base-url.

With --sweep it also scores the retrieval grid of eval retrieval --sweep
(same flags) and evaluates the best --sweep-top configurations with each
model, each under passage order score and document, as eval runs of their
own (run folders study-MODEL-PARADIGM-sweep-...; a passage size other than
the home's is ingested into HOME/sweep/passages-N). Picked: from the
configurations a run can take (passages, reranked or not; not small-to-big
windows, the oracle or the gold reranker, which are bounds), the Pareto set
of complete@budget against context tokens; its cheapest reaching 0.95, 0.9
and 0.8 in turn, then its most complete. The report says which matches the
full-paper accuracy (within its 95% interval) at what share of its prompt
tokens.

--sweep-rerank none,llm (or api) adds rows reranked by what --rerank
configures; with llm, the sweep and every reranked run ask --rerank-model
(default: the one model studied) at --rerank-base-url (default --base-url).
A reranked row runs reranked (folder ...-rerank-llm), any other row runs
without a reranker, and the usual modes rerank as --rerank says. The
reranker's own calls are not in the prompt tokens the report compares.`,
		Example: `  paperlens study
  OPENAI_API_KEY=... paperlens study --models gpt-4o-mini,ir --data elabench.jsonl --papers papers/
  paperlens study --models Qwen/Qwen3-8B --base-url http://localhost:8000/v1
  paperlens study --sweep --budgets 256,512,768 --sweep-top 3
  paperlens study --sweep --models Qwen/Qwen3-8B --base-url http://localhost:8000/v1 --rerank llm --sweep-rerank none,llm`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			home := homeDir(cmd)
			if f.cfg.Data == "" {
				f.cfg.Data = filepath.Join("testdata", "elaipbench", "sample.jsonl")
				if f.cfg.Papers == "" {
					f.cfg.Papers = filepath.Join("testdata", "papers")
				}
			}
			if _, err := os.Stat(f.cfg.Data); err != nil {
				return fmt.Errorf("benchmark %s: %w (run from the repository root, or pass --data)", f.cfg.Data, err)
			}
			if models == "" && f.cfg.Model != "" {
				models = f.cfg.Model // --model works as an alias of --models
			}
			ms := splitList(models)
			if len(ms) == 0 {
				ms = []string{"random", "ir"}
				fmt.Fprintln(stderr, "No model configured: running the offline baselines random and ir.\n"+
					"To study a real model: paperlens study --models NAME --base-url URL (key in $OPENAI_API_KEY).")
			}
			if f.modes == "" {
				// Every mode but the tool modes, which need a model
				// that calls tools (and a search engine, a sandbox):
				// they are asked for by name.
				var names []string
				for _, m := range mode.All() {
					if !m.UsesTools() {
						names = append(names, m.Name)
					}
				}
				f.modes = strings.Join(names, ",")
			}
			exclude, err := parseExcludeKinds(f.cfg.ExcludeKinds)
			if err != nil {
				return err
			}
			qs, err := loadQuestions(f.cfg, stderr)
			if err != nil {
				return err
			}
			outRoot := f.cfg.Out
			if outRoot == "" {
				outRoot = "runs"
			}
			// The reranker the retrieval table and the sweep score with,
			// and the one a reranked row's eval run uses: the same model,
			// so a row's accuracy is that of the ranking it was picked for.
			srf, err := sweepRerankFlags(f, ms)
			if err != nil {
				return err
			}
			rr, rrCloser, err := srf.standalone(home, os.Stderr)
			if err != nil {
				return err
			}
			defer rrCloser.Close()
			// The retrieval table scores 4 retrievers x 3 query forms: a
			// cross-encoder reranks them for little, but a chat model
			// would be asked 12 times per question, so with --rerank llm
			// only the sweep and the model runs rerank.
			var tableRR rerank.Reranker
			if srf.kind == rerank.API {
				tableRR = rr
			}
			var sw *study.Sweep
			if sweep.on {
				homeTokens := f.cfg.MaxPassageTokens
				sw = &study.Sweep{
					Top: sweep.top,
					Score: func(ctx context.Context, st *corpus.Store, ix *index.Index, qs []bench.Question) (retrieval.Sweep, error) {
						forms := []retrieve.QueryForm{retrieve.FormStem, retrieve.FormFull, retrieve.FormOptions}
						if cmd.Flags().Changed("query") {
							// --query fixes the query form: the sweep then
							// scores only that one.
							forms = []retrieve.QueryForm{retrieve.QueryForm(f.cfg.QueryForm)}
						}
						sc, err := sweep.config([]string{index.BM25, index.Dense, index.Hybrid}, forms, f.index.rrfK, 0, exclude)
						if err != nil {
							return retrieval.Sweep{}, err
						}
						sc.Rerank = sweepRerank(&srf, rr)
						return runSweep(ctx, st, ix, f.index.config(home), homeTokens, qs, sc)
					},
					Evaluate: func(ctx context.Context, m string, c study.Config1) (run.Result, error) {
						g := sweptFlags(f, srf, outRoot, m, c)
						h := home
						if c.Row.PassageTokens != homeTokens {
							// The home keeps its passages: another size is a home of its own.
							h = filepath.Join(home, "sweep", fmt.Sprintf("passages-%d", c.Row.PassageTokens))
						}
						res, plan, err := runEval(ctx, h, &g, cmd.Flags().Changed, stderr)
						if plan != nil && err == nil {
							err = fmt.Errorf("a dry run evaluates no swept configuration")
						}
						return res, err
					},
				}
			}
			res, err := study.Run(ctx, study.Config{
				Sweep:     sw,
				Papers:    study.Papers{Home: home, Data: f.cfg.Data, Dir: f.cfg.Papers, MaxTokens: f.cfg.MaxPassageTokens, Log: stderr},
				Bench:     f.cfg.Bench,
				Models:    ms,
				Retrieval: retrieval.Config{RRFK: f.index.rrfK, Exclude: exclude, Rerank: tableRR, RerankDepth: srf.depth},
				OpenIndex: func(ctx context.Context) (*corpus.Store, *index.Index, error) {
					st, ix, _, err := openIndex(ctx, home, &f.index, false)
					return st, ix, err
				},
				Evaluate: func(ctx context.Context, m string) (run.Result, *run.Plan, error) {
					g := f
					g.cfg.Model = m
					g.cfg.Out = study.Folder(outRoot, m, f.cfg.Paradigm)
					res, plan, err := runEval(ctx, home, &g, cmd.Flags().Changed, stderr)
					if plan != nil {
						fmt.Fprintf(stdout, "## %s\n\n", m)
						if err := printPlan(os.Stdout, *plan, g.asJSON); err != nil {
							return res, nil, err
						}
					}
					return res, plan, err
				},
				Out: os.Stdout,
			}, qs)
			if err != nil {
				return err
			}
			if dirs := res.Dirs(); len(dirs) > 0 {
				fmt.Fprintf(stdout, "Next: browse every question with 'paperlens serve %s',\nor write a report with 'paperlens report %s --html report.html'.\n",
					strings.Join(dirs, " "), strings.Join(dirs, " "))
			}
			return nil
		},
	}
	addEvalFlags(cmd, &f)
	addSweepFlags(cmd, &sweep)
	cmd.Flags().IntVar(&sweep.top, "sweep-top", 3, "with --sweep: configurations evaluated with each model (the cheapest reaching complete@budget 0.95, 0.9, 0.8 on the Pareto set, then its most complete)")
	cmd.Flags().StringVar(&models, "models", "", "models to study, comma-separated (default: the offline baselines random,ir; --model NAME works too)")
	return cmd
}

// sweepRerankFlags resolves the study's --rerank flags for its retrieval table and --sweep,
// which scores the grid once for every model: --rerank llm asks
// --rerank-model, else the one model studied (as eval reranks with the
// answering model), at --rerank-base-url, else --base-url, else
// $OPENAI_BASE_URL, with --rerank-api-key-env, else --api-key-env.
func sweepRerankFlags(f evalFlags, models []string) (rerankFlags, error) {
	rf := f.rerank
	if rf.kind != rerank.LLM {
		return rf, nil
	}
	if rf.model == "" {
		var online []string
		for _, m := range models {
			if m != "random" && m != "ir" {
				online = append(online, m)
			}
		}
		if len(online) != 1 {
			return rf, fmt.Errorf("study --rerank llm with models %s: give --rerank-model, the one chat model that orders passages for the retrieval table, the sweep and every reranked run",
				strings.Join(models, ","))
		}
		rf.model = online[0]
	}
	if rf.baseURL == "" {
		rf.baseURL = f.cfg.BaseURL
	}
	if rf.baseURL == "" {
		rf.baseURL = os.Getenv("OPENAI_BASE_URL")
	}
	if rf.keyEnv == "" {
		rf.keyEnv = f.apiKeyEnv
	}
	return rf, nil
}

// sweptFlags are the eval flags of model m's run of one swept
// configuration: the study's, with the row's k, passage size, query form,
// retriever and reranker, the order c names, and a folder of its own.
func sweptFlags(f evalFlags, srf rerankFlags, outRoot, m string, c study.Config1) evalFlags {
	g := f
	g.cfg.Model = m
	g.cfg.K, g.cfg.MaxPassageTokens, g.cfg.QueryForm, g.cfg.Order = c.Row.K, c.Row.PassageTokens, c.Row.Form, c.Order
	g.modes = c.Mode()
	// A row runs as the sweep scored it. Rows carry no neighbour
	// expansion (the grid has no such dimension), so none here, whatever
	// --expand gives the usual modes; a swept expand would be set from the
	// row.
	g.cfg.Expand = 0
	// A row without a reranker runs without one even when the study has
	// --rerank; a reranked row (study.Runnable: api or llm) with the one
	// the sweep used.
	g.rerank = rerankFlags{kind: rerank.None, depth: f.rerank.depth}
	suffix := ""
	if c.Row.Rerank == rerank.API || c.Row.Rerank == rerank.LLM {
		g.rerank = srf
		suffix = "-rerank-" + c.Row.Rerank
	}
	g.cfg.Out = fmt.Sprintf("%s-sweep-%s-p%d-k%d-%s-%s%s", study.Folder(outRoot, m, f.cfg.Paradigm),
		c.Row.Retriever, c.Row.PassageTokens, c.Row.K, c.Row.Form, c.Order, suffix)
	return g
}
