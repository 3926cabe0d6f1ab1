package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/retrieve"
)

// sweepFlags are the grid of eval retrieval --sweep and study --sweep.
type sweepFlags struct {
	on      bool
	budgets string
	sizes   string
	windows string
	parent  int
	reranks string
	oracle  bool
	top     int // study --sweep only
}

func addSweepFlags(cmd *cobra.Command, s *sweepFlags) {
	fl := cmd.Flags()
	fl.BoolVar(&s.on, "sweep", false, "score a grid of retrieval configurations at equal token budgets (passage size x k x query form x retriever x rerank, and small-to-big windows)")
	fl.StringVar(&s.budgets, "budgets", "256,512,1024,2048", "with --sweep: context token budgets; k = budget / passage tokens")
	fl.StringVar(&s.sizes, "sweep-passage-tokens", "128,256,512", "with --sweep: passage sizes, in tokens (sizes other than the home's are chunked again from the stored text into a temporary index)")
	fl.StringVar(&s.windows, "sweep-windows", "1,2,3", "with --sweep: small-to-big sentence windows (retrieve windows of N sentences, hand over their parent passages); \"\" for none")
	fl.IntVar(&s.parent, "sweep-parent-tokens", 512, "with --sweep: passage size of the parents small-to-big windows map to")
	fl.StringVar(&s.reranks, "sweep-rerank", "none", "with --sweep: rerank settings to sweep, comma-separated: none, api or llm (the reranker --rerank and its flags configure), gold[:DEPTH] (the question's gold evidence first among the top DEPTH, default 30: what a perfect reranker would reach)")
	fl.BoolVar(&s.oracle, "sweep-oracle", true, "with --sweep: add an oracle row per passage size and budget (the gold passages ranked first): the ceiling of any retriever")
}

func positiveInts(flag, s string) ([]int, error) {
	var out []int
	for _, p := range splitList(s) {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("--%s %q: give positive whole numbers, comma-separated", flag, s)
		}
		out = append(out, n)
	}
	return out, nil
}

// config turns the flags into a sweep grid over the given retrievers and
// query forms.
func (s *sweepFlags) config(retrievers []string, forms []retrieve.QueryForm, rrfK int, threshold float64, exclude []kind.Kind, progress io.Writer) (retrieval.SweepConfig, error) {
	c := retrieval.SweepConfig{Retrievers: retrievers, Forms: forms, RRFK: rrfK, Parent: s.parent, Oracle: s.oracle, Exclude: exclude,
		Reranks: splitList(s.reranks), Progress: progress}
	c.Evidence.Threshold = threshold
	var err error
	if c.Budgets, err = positiveInts("budgets", s.budgets); err != nil {
		return c, err
	}
	if c.Sizes, err = positiveInts("sweep-passage-tokens", s.sizes); err != nil {
		return c, err
	}
	if c.Windows, err = positiveInts("sweep-windows", s.windows); err != nil {
		return c, err
	}
	return c, nil
}
