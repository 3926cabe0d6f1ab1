package study

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/ingest/corpus"
	"github.com/paperlens/paperlens/retrieve/index"
)

func row(retriever string, size, k int, complete, tokens float64) retrieval.SweepRow {
	return retrieval.SweepRow{Budget: size * k, Unit: retrieval.UnitPassage, PassageTokens: size, K: k, Retriever: retriever,
		Form: "full", Rerank: retrieval.RerankNone, Complete: complete, ContextTokens: tokens}
}

// Pick takes the Pareto set's cheapest row at each level, then its most
// complete rows; rows a run cannot take (windows, the gold reranker and the
// oracle, which are bounds) and rows beaten on both counts never. Rows
// reranked by what --rerank configures (api, llm) are configurations like
// any other.
func TestPick(t *testing.T) {
	window := row("dense", 512, 1, 0.99, 100)
	window.Unit, window.Window = retrieval.UnitWindow, 2
	gold := row("bm25", 128, 2, 0.99, 100)
	gold.Rerank = retrieval.RerankGold
	goldDeep := row("dense", 128, 2, 0.99, 110)
	goldDeep.Rerank = retrieval.RerankGold + ":50"
	oracle := row(retrieval.Oracle, 128, 2, 1, 90)
	rows := []retrieval.SweepRow{
		row("bm25", 128, 2, 0.50, 200),
		row("dense", 128, 4, 0.91, 400),
		row("hybrid", 256, 2, 0.85, 450), // beaten: dearer and less complete than dense p128 k=4
		row("dense", 256, 4, 0.96, 800),
		row("hybrid", 128, 8, 0.97, 900),
		window, gold, goldDeep, oracle,
	}
	llm := row("bm25", 128, 4, 0.96, 390)
	llm.Rerank = "llm"
	api := row("hybrid", 128, 8, 0.97, 950) // beaten by the same row unreranked
	api.Rerank = "api"
	reranked := append(append([]retrieval.SweepRow(nil), rows...), llm, api)
	for _, c := range []struct {
		rows []retrieval.SweepRow
		n    int
		want []string
	}{
		{rows, 1, []string{"dense+full p256 k=4"}},
		{rows, 3, []string{"dense+full p256 k=4", "dense+full p128 k=4", "hybrid+full p128 k=8"}},
		{rows, 5, []string{"dense+full p256 k=4", "dense+full p128 k=4", "hybrid+full p128 k=8", "bm25+full p128 k=2"}},
		// The reranked row reaches 0.95 cheapest and leaves dense p128
		// k=4 off the Pareto set.
		{reranked, 2, []string{"bm25+full p128 k=4 rerank=llm", "hybrid+full p128 k=8"}},
		{reranked, 5, []string{"bm25+full p128 k=4 rerank=llm", "hybrid+full p128 k=8", "bm25+full p128 k=2"}},
	} {
		var got []string
		for _, r := range Pick(retrieval.Sweep{Rows: c.rows}, c.n, SweepLevels) {
			got = append(got, r.Label())
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("Pick(%d of %d rows) = %v, want %v", c.n, len(c.rows), got, c.want)
		}
	}
}

func TestRunnable(t *testing.T) {
	for _, c := range []struct {
		rerank string
		want   bool
	}{
		{"", true}, {retrieval.RerankNone, true}, {"api", true}, {"llm", true},
		{retrieval.RerankGold, false}, {retrieval.RerankGold + ":10", false}, {"cross", false},
	} {
		r := row("bm25", 128, 2, 0.5, 200)
		r.Rerank = c.rerank
		if got := Runnable(r); got != c.want {
			t.Errorf("Runnable(rerank %q) = %v, want %v", c.rerank, got, c.want)
		}
	}
}

// study --sweep in process: the real sweep over the sample, its cheapest
// configurations reported, the picked ones evaluated under both orders as
// runs of their own after the usual modes, and the report names the one
// matching full-paper accuracy and its share of full's prompt tokens.
func TestStudySweep(t *testing.T) {
	home, runs := t.TempDir(), t.TempDir()
	var asked []string
	usual := func(_ context.Context, m string) (run.Result, *run.Plan, error) {
		dir := Folder(runs, m, "base")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return run.Result{}, nil, err
		}
		sum := run.Summary{Model: m, ByMode: map[string]run.ModeStats{"full": {Acc: run.Acc{Accuracy: 0.8, N: 37}, PromptTokens: 3000}}}
		if err := run.Dir(dir).WriteSummary(sum); err != nil {
			return run.Result{}, nil, err
		}
		return run.Result{Dir: dir, Summary: sum}, nil, nil
	}
	// A model as good as its evidence: accuracy is complete@budget, and
	// the prompt is the context plus 100 tokens of question.
	swept := func(_ context.Context, m string, c Config1) (run.Result, error) {
		asked = append(asked, fmt.Sprintf("%s k=%d p=%d %s %s %s", m, c.Row.K, c.Row.PassageTokens, c.Row.Form, c.Order, c.Mode()))
		ms := run.ModeStats{Acc: run.Acc{Accuracy: c.Row.Complete, N: 37}, PromptTokens: c.Row.ContextTokens + 100}
		return run.Result{Dir: "swept", Summary: run.Summary{ByMode: map[string]run.ModeStats{c.Mode(): ms}}}, nil
	}
	var out bytes.Buffer
	res, err := Run(context.Background(), Config{
		Papers:    Papers{Home: home, Data: sample},
		Bench:     "elaipbench",
		Models:    []string{"m"},
		Retrieval: retrieval.Config{Retrievers: []string{index.BM25}, Ks: []int{5}},
		OpenIndex: openIndex(home),
		Evaluate:  usual,
		Sweep: &Sweep{
			Top: 2,
			Score: func(ctx context.Context, st *corpus.Store, ix *index.Index, qs []bench.Question) (retrieval.Sweep, error) {
				return retrieval.RunSweep(ctx, retrieval.SweepSource{Store: st, Index: ix, HomeTokens: 512, TempDir: t.TempDir()}, qs,
					retrieval.SweepConfig{Budgets: []int{512, 768, 1536}, Sizes: []int{256, 512}, Retrievers: []string{index.Dense}})
			},
			Evaluate: swept,
		},
		Out: &out,
	}, loadSample(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Sweep == nil || len(res.Picked) != 2 || len(res.Sweep.Rows) == 0 {
		t.Fatalf("sweep %+v, picked %v", res.Sweep, res.Picked)
	}
	// Two configurations, each under score and document order.
	if len(asked) != 4 || len(res.Models[0].Swept) != 4 {
		t.Fatalf("evaluated %v", asked)
	}
	p := res.Picked[0]
	want := fmt.Sprintf("m k=%d p=%d %s score dense", p.K, p.PassageTokens, p.Form)
	if asked[0] != want || !strings.HasSuffix(asked[1], "document dense") {
		t.Errorf("first evaluated %q, %q; want %q then document order", asked[0], asked[1], want)
	}
	s := out.String()
	for _, w := range []string{"# Retrieval: budget sweep", "complete@budget", "m: swept configurations", "| " + p.Label() + " | score |"} {
		if !strings.Contains(s, w) {
			t.Errorf("report lacks %q:\n%s", w, s)
		}
	}
	// Full is right 80% of the time over 37 answers: its 95% interval
	// reaches down to 0.671, so the match is the cheapest picked row
	// whose completeness is at least that.
	var match *retrieval.SweepRow
	for i, r := range res.Picked {
		if Matches(r.Complete, 0.8, 37) && (match == nil || r.ContextTokens < match.ContextTokens) {
			match = &res.Picked[i]
		}
	}
	if match == nil {
		t.Fatalf("no picked row within full's interval: %+v\n%s", res.Picked, s)
	}
	line := fmt.Sprintf("with %s, order score, at %.1f%% of full's prompt tokens", match.Label(), 100*(match.ContextTokens+100)/3000)
	if !strings.Contains(s, line) {
		t.Errorf("report lacks %q:\n%s", line, s)
	}
}

func TestMatches(t *testing.T) {
	for _, c := range []struct {
		acc, full float64
		n         int
		want      bool
	}{
		{0.8, 0.8, 37, true},
		{0.68, 0.8, 37, true},  // 0.8 - 1.96*sqrt(0.16/37) = 0.671
		{0.66, 0.8, 37, false}, // below the interval
		{0.66, 0.8, 0, false},  // nothing to compare with
		{0.9, 0.8, 37, true},
	} {
		if got := Matches(c.acc, c.full, c.n); got != c.want {
			t.Errorf("Matches(%.2f, %.2f, %d) = %v", c.acc, c.full, c.n, got)
		}
	}
}
