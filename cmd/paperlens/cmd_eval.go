package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/eval/study"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/index"
)

func newEvalCmd() *cobra.Command {
	cmd := newEvalModelCmd()
	cmd.AddCommand(newEvalRetrievalCmd())
	return cmd
}

func newEvalRetrievalCmd() *cobra.Command {
	var f indexFlags
	var benchName, data, papers, retrievers, ks, forms, excludeKinds string
	var asJSON bool
	var threshold float64
	var maxTokens int
	var sweep sweepFlags
	var rf rerankFlags
	cmd := &cobra.Command{
		Use:   "retrieval --bench elaipbench --data FILE",
		Short: "Score retrievers against the benchmark's gold evidence (recall@k, hit@k, MRR)",
		Long: `eval retrieval asks each retriever for the passages of each question's own
paper and measures how much of the gold evidence (ElaipBench's
relevant_passage) they hold.

Matching: gold and passages are normalised (NFKC, lower case, hyphens and
punctuation dropped) and compared as word 3-grams. A gold sentence is found
in a passage when the passage covers at least --threshold of its words.
  recall@k  share of all gold words covered by the top k passages
  hit@k     1 when some gold sentence is found in the top k
  complete@k 1 when every gold sentence is found in the top k: a reader
           needs all of it, so this bounds RAG accuracy
  mrr       1 / rank of the first passage holding a gold sentence

Query forms (--query, several allowed):
  full     stem and all options as one query: the question as the dataset
           stores it, which ElaipBench retrieves with (default)
  stem     the question stem alone
  options  the stem and stem + each option, fused by reciprocal rank
           (each option has its own evidence)

--sweep scores a grid at equal token budgets instead: every passage size
(--sweep-passage-tokens) x retriever x query form (all three unless --query
is given) x rerank (--sweep-rerank), and small-to-big sentence windows
(--sweep-windows) mapped to their parent passages, at each of --budgets. k
is the number of whole passages that fit a budget. Each row reports
complete@budget (gold evidence complete within those k passages), recall,
mean context tokens, and the budget as a share of the mean full paper.
Passage order (score or document) does not change what is in context, so
it is not swept here; study --sweep puts it before a model.

Papers the file carries (paper_content) are ingested when not stored yet; a
row without paper_content uses the stored document with its paper_id.`,
		Example: `  paperlens eval retrieval --bench elaipbench --data testdata/elaipbench/sample.jsonl
  paperlens eval retrieval --bench elaipbench --data elabench.jsonl --retriever bm25,dense,hybrid --query stem,options --json
  paperlens eval retrieval --bench elaipbench --data elabench.jsonl --retriever bm25 --rerank api --rerank-base-url http://localhost:8080
  paperlens eval retrieval --data testdata/elaipbench/sample.jsonl --sweep --budgets 256,512,768,1024`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if benchName != "elaipbench" {
				return fmt.Errorf("--bench %s has no gold evidence to score retrieval against; use --bench elaipbench", benchName)
			}
			if data == "" {
				return fmt.Errorf("--data FILE is required (ElaipBench's elabench.jsonl, or testdata/elaipbench/sample.jsonl)")
			}
			cfg := retrieval.Config{RRFK: f.rrfK}
			var err error
			if cfg.Exclude, err = parseExcludeKinds(excludeKinds); err != nil {
				return err
			}
			cfg.Evidence.Threshold = threshold
			if err := rf.check(); err != nil {
				return err
			}
			for _, r := range splitList(retrievers) {
				cfg.Retrievers = append(cfg.Retrievers, r)
			}
			for _, q := range splitList(forms) {
				cfg.Forms = append(cfg.Forms, retrieve.QueryForm(q))
				if _, err := retrieve.QueryTexts(retrieve.QueryForm(q), "", nil); err != nil {
					return err
				}
			}
			for _, k := range splitList(ks) {
				n, err := strconv.Atoi(k)
				if err != nil || n <= 0 {
					return fmt.Errorf("-k %q: give positive whole numbers, e.g. -k 1,3,5,10", ks)
				}
				cfg.Ks = append(cfg.Ks, n)
			}
			ctx := cmd.Context()

			qs, problems, err := bench.LoadElaipBench(data)
			for _, p := range problems {
				fmt.Fprintf(stderr, "%s:%s\n", data, p)
			}
			if err != nil {
				return err
			}
			home := homeDir(cmd)
			qs, err = ensurePapers(ctx, home, data, papers, maxTokens, qs)
			if err != nil {
				return err
			}
			st, ix, _, err := openIndex(ctx, home, &f, asJSON)
			if err != nil {
				return err
			}
			defer st.Close()
			defer ix.Close()
			rr, closer, err := rf.standalone(home, os.Stderr)
			if err != nil {
				return err
			}
			defer closer.Close()
			cfg.Rerank, cfg.RerankDepth = rr, rf.depth
			if sweep.on {
				if cmd.Flags().Changed("k") {
					return fmt.Errorf("-k and --sweep: the sweep derives k from --budgets and the passage size")
				}
				if !cmd.Flags().Changed("query") {
					cfg.Forms = []retrieve.QueryForm{retrieve.FormStem, retrieve.FormFull, retrieve.FormOptions}
				}
				sc, err := sweep.config(cfg.Retrievers, cfg.Forms, f.rrfK, threshold, cfg.Exclude)
				if err != nil {
					return err
				}
				sc.Rerank = sweepRerank(&rf, rr)
				sw, err := runSweep(ctx, st, ix, f.config(home), maxTokens, qs, sc)
				if err != nil {
					return err
				}
				return printSweep(os.Stdout, sw, asJSON)
			}
			enc := json.NewEncoder(os.Stdout)
			sum, err := retrieval.Run(ctx, ix, qs, cfg, func(r retrieval.QuestionResult) {
				if asJSON {
					_ = enc.Encode(r)
				}
			})
			if err != nil {
				return err
			}
			if asJSON {
				return enc.Encode(sum)
			}
			printRetrievalSummary(sum, cfg.Ks)
			return nil
		},
	}
	addIndexFlags(cmd, &f)
	fl := cmd.Flags()
	fl.StringVar(&benchName, "bench", "elaipbench", "benchmark format (elaipbench: the one with gold evidence)")
	fl.StringVar(&data, "data", "", "benchmark file (.jsonl, .json or .parquet)")
	fl.StringVar(&papers, "papers", "", "folder of the benchmark's papers (PDFs named by paper_id) to ingest instead of paper_content")
	fl.StringVar(&retrievers, "retriever", "bm25,dense,hybrid", "retrievers to score, comma-separated: "+strings.Join(index.Names(), ", "))
	fl.StringVarP(&ks, "k", "k", "1,3,5,10", "cut-offs, comma-separated")
	fl.StringVar(&forms, "query", "full", "query forms, comma-separated: full (stem + options, as the dataset stores the question: ElaipBench's), stem, options")
	addPassageTokens(cmd, &maxTokens, "max-tokens")
	addExcludeKinds(cmd, &excludeKinds)
	addRerankFlags(cmd, &rf)
	fl.Float64Var(&threshold, "threshold", 0.6, "share of a gold sentence's words a passage must cover for the sentence to count as found")
	fl.BoolVar(&asJSON, "json", false, `one JSON object per question and retriever, then {"n":N,"retrievers":{...}}`)
	addSweepFlags(cmd, &sweep)
	return cmd
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// ensurePapers is study.EnsurePapers with notes on stderr: it ingests the
// papers a benchmark needs and drops the questions whose paper is missing.
func ensurePapers(ctx context.Context, home, data, papersDir string, maxTokens int, qs []bench.Question) ([]bench.Question, error) {
	return study.EnsurePapers(ctx, study.Papers{Home: home, Data: data, Dir: papersDir, MaxTokens: maxTokens, Log: stderr}, qs)
}

// ensurePapersWrites counts the times ensurePapers opened the store for
// writing, so tests can tell a read-only pass from an ingest.
var ensurePapersWrites = &study.PaperWrites

func printRetrievalSummary(sum retrieval.Summary, ks []int) {
	_ = sum.WriteTable(os.Stdout, ks)
}
