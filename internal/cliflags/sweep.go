package cliflags

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/retrieve"
)

// Sweep is the grid of eval retrieval --sweep and study --sweep.
type Sweep struct {
	On      bool // --sweep: score the grid
	budgets string
	sizes   string
	windows string
	parent  int
	reranks string
	oracle  bool
}

// Add declares --sweep and the flags of its grid.
func (s *Sweep) Add(fl *pflag.FlagSet) {
	fl.BoolVar(&s.On, "sweep", false, "score a grid of retrieval configurations at equal token budgets (passage size x k x query form x retriever x rerank, and small-to-big windows)")
	fl.StringVar(&s.budgets, "budgets", "256,512,1024,2048", "with --sweep: context token budgets; k = budget / passage tokens")
	fl.StringVar(&s.sizes, "sweep-passage-tokens", "128,256,512", "with --sweep: passage sizes, in tokens (sizes other than the home's are chunked again from the stored text into a temporary index)")
	fl.StringVar(&s.windows, "sweep-windows", "1,2,3", "with --sweep: small-to-big sentence windows (retrieve windows of N sentences, hand over their parent passages); \"\" for none")
	fl.IntVar(&s.parent, "sweep-parent-tokens", 512, "with --sweep: passage size of the parents small-to-big windows map to")
	fl.StringVar(&s.reranks, "sweep-rerank", "none", "with --sweep: rerank settings to sweep, comma-separated: none, api or llm (the reranker --rerank and its flags configure), gold[:DEPTH] (the question's gold evidence first among the top DEPTH, default 30: what a perfect reranker would reach)")
	fl.BoolVar(&s.oracle, "sweep-oracle", true, "with --sweep: add an oracle row per passage size and budget (the gold passages ranked first): the ceiling of any retriever")
}

// Config turns the flags into a sweep grid over the given retrievers and
// query forms; a list that is not positive whole numbers is an error
// naming its flag.
func (s *Sweep) Config(retrievers []string, forms []retrieve.QueryForm, rrfK int, threshold float64, exclude []kind.Kind, progress io.Writer) (retrieval.SweepConfig, error) {
	c := retrieval.SweepConfig{Retrievers: retrievers, Forms: forms, RRFK: rrfK, Parent: s.parent, Oracle: s.oracle, Exclude: exclude,
		Reranks: SplitList(s.reranks), Progress: progress}
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

// positiveInts reads the comma-separated list s of flag.
func positiveInts(flag, s string) ([]int, error) {
	var out []int
	for _, p := range SplitList(s) {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("--%s %q: give positive whole numbers, comma-separated", flag, s)
		}
		out = append(out, n)
	}
	return out, nil
}

// SplitList is the items of a comma-separated flag value, trimmed, the
// empty ones left out.
func SplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
