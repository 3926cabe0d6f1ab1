package retrieval

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/chunk"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/evidence"
	"github.com/paperlens/paperlens/retrieve/index"
)

func TestWithSweepDefaults(t *testing.T) {
	got := withSweepDefaults(SweepConfig{})
	want := SweepConfig{Budgets: []int{256, 512, 1024, 2048}, Sizes: []int{128, 256, 512}, Parent: chunk.DefaultMaxTokens,
		Retrievers: []string{index.BM25, index.Dense, index.Hybrid},
		Forms:      []retrieve.QueryForm{retrieve.FormStem, retrieve.FormFull, retrieve.FormOptions}, Reranks: []string{RerankNone}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("defaults %+v, want %+v", got, want)
	}
	set := SweepConfig{Budgets: []int{64}, Sizes: []int{32}, Parent: 64, Retrievers: []string{index.BM25},
		Forms: []retrieve.QueryForm{retrieve.FormStem}, Reranks: []string{"gold"}}
	if got := withSweepDefaults(set); !reflect.DeepEqual(got, set) {
		t.Errorf("given grid changed: %+v", got)
	}
}

func TestCheckSweepConfig(t *testing.T) {
	rerank := func(string, retrieve.Retriever) (retrieve.Retriever, error) { return nil, nil }
	ok := withSweepDefaults(SweepConfig{})
	for _, c := range []struct {
		name string
		edit func(*SweepConfig)
		err  string // "" : accepted; else a part of the error
	}{
		{"defaults", func(*SweepConfig) {}, ""},
		{"run file", func(c *SweepConfig) { c.Retrievers = []string{index.BM25, "run:x.trec"} }, "retriever run:x.trec: a run file"},
		{"zero budget", func(c *SweepConfig) { c.Budgets = []int{256, 0} }, "budget must be positive, got 0"},
		{"bad gold depth", func(c *SweepConfig) { c.Reranks = []string{"gold:0"} }, "gold:0"},
		{"gold", func(c *SweepConfig) { c.Reranks = []string{RerankNone, "gold", "gold:50"} }, ""},
		{"no reranker", func(c *SweepConfig) { c.Reranks = []string{"llm"} }, `rerank "llm": no reranker available here`},
		{"a reranker", func(c *SweepConfig) { c.Reranks = []string{"llm"}; c.Rerank = rerank }, ""},
	} {
		cfg := ok
		c.edit(&cfg)
		err := checkSweepConfig(cfg)
		if (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.err)
		}
	}
}

func TestLoadSweepPapersWithoutGold(t *testing.T) {
	// No paper is loaded for a question without locatable gold: no store
	// is needed to find that none has any.
	qs := []bench.Question{{ID: "a", PaperID: "p", Evidence: "short"}, {ID: "b", PaperID: "p"}}
	out, golds, papers, err := loadSweepPapers(nil, qs, evidence.Options{})
	if err == nil || err.Error() != "no question has gold evidence to locate" || out.NoGold != 2 || out.N != 0 || golds != nil || papers != nil {
		t.Errorf("%+v %v %v %v", out, golds, papers, err)
	}
}

func TestGoldsByQuery(t *testing.T) {
	q := stepQuestion()
	golds := parseGolds([]bench.Question{q}, evidence.Options{})
	byQuery, err := goldsByQuery([]bench.Question{q}, golds, []retrieve.QueryForm{retrieve.FormStem, retrieve.FormOptions})
	if err != nil {
		t.Fatal(err)
	}
	// The stem (shared by both forms), and stem and option for each option.
	want := []string{q.MCQ.Stem, q.MCQ.Stem + "\nA. grids", q.MCQ.Stem + "\nB. budgets"}
	if len(byQuery) != len(want) {
		t.Errorf("%d query texts, want %d", len(byQuery), len(want))
	}
	for _, text := range want {
		if byQuery["p1\x00"+text] != golds[0] {
			t.Errorf("no gold for %q", text)
		}
	}
	if _, err := goldsByQuery([]bench.Question{q}, golds, []retrieve.QueryForm{"bogus"}); err == nil {
		t.Error("an unknown query form is accepted")
	}
}

func TestSetShares(t *testing.T) {
	rows := []SweepRow{{Budget: 500, ContextTokens: 400}, {Budget: 1000, ContextTokens: 1000}}
	setShares(rows, 2000)
	for i, want := range [][2]float64{{0.25, 0.2}, {0.5, 0.5}} {
		if math.Abs(rows[i].BudgetShare-want[0]) > 1e-12 || math.Abs(rows[i].ContextShare-want[1]) > 1e-12 {
			t.Errorf("row %d: shares %v %v, want %v", i, rows[i].BudgetShare, rows[i].ContextShare, want)
		}
	}
}
