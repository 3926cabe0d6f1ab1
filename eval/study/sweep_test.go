package study

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
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
// runs of their own after the usual modes, and the report compares each
// with the full-paper mode.
func TestStudySweep(t *testing.T) {
	t.Parallel()
	home, runs := t.TempDir(), t.TempDir()
	req := evalRequest(home, "")
	var out bytes.Buffer
	res, err := Run(context.Background(), Config{
		Eval:      req,
		OutRoot:   runs,
		Models:    []string{"ir"},
		Retrieval: retrieval.Config{Retrievers: []string{index.BM25}, Ks: []int{5}},
		Sweep: &Sweep{
			Top:  2,
			Grid: retrieval.SweepConfig{Budgets: []int{512, 768, 1536}, Sizes: []int{256, 512}, Retrievers: []string{index.Dense}},
		},
		Out: &out,
	}, loadSample(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Sweep == nil || len(res.Picked) != 2 || len(res.Sweep.Rows) == 0 {
		t.Fatalf("sweep %+v, picked %v", res.Sweep, res.Picked)
	}
	// Two configurations, each under score and document order, each a
	// run whose config.json holds it.
	swept := res.Models[0].Swept
	if len(swept) != 4 {
		t.Fatalf("evaluated %+v", swept)
	}
	for i, r := range swept {
		p, order := res.Picked[i/2], []string{"score", "document"}[i%2]
		cfg, err := run.Dir(r.Dir).ReadConfig()
		if err != nil || r.Row.Label() != p.Label() || r.Order != order || cfg.K != p.K || cfg.MaxPassageTokens != p.PassageTokens ||
			cfg.QueryForm != p.Form || cfg.Order != order || strings.Join(cfg.Modes, ",") != "dense" || cfg.Model != "ir" {
			t.Errorf("swept run %d: %s order %s, config %+v (%v); want %s order %s", i, r.Row.Label(), r.Order, cfg, err, p.Label(), order)
		}
	}
	s := out.String()
	for _, w := range []string{"# Retrieval: budget sweep", "complete@budget", "ir: swept configurations", "| " + res.Picked[0].Label() + " | score |", "of full's prompt tokens"} {
		if !strings.Contains(s, w) {
			t.Errorf("report lacks %q:\n%s", w, s)
		}
	}
}

// The report names the cheapest swept configuration within full's
// accuracy interval and its share of full's prompt tokens: here a model as
// good as its evidence (accuracy is complete@budget, the prompt the
// context plus 100 tokens of question), beside full right 80% of the time
// over 37 answers, whose 95% interval reaches down to 0.671.
func TestSweptReportNamesTheMatch(t *testing.T) {
	usual := run.Result{Summary: run.Summary{ByMode: map[string]run.ModeStats{"full": {Acc: run.Acc{Accuracy: 0.8, N: 37}, PromptTokens: 3000}}}}
	rows := []retrieval.SweepRow{row("dense", 256, 2, 0.6, 500), row("dense", 256, 3, 0.75, 760), row("dense", 512, 3, 0.9, 1530)}
	var runs []SweptRun
	for _, r := range rows {
		for _, o := range []string{"score", "document"} {
			runs = append(runs, SweptRun{Config1: Config1{Row: r, Order: o}, Accuracy: r.Complete, PromptTokens: r.ContextTokens + 100})
		}
	}
	var out bytes.Buffer
	writeSweptReport(&out, "m", usual, runs)
	match := rows[1]
	line := fmt.Sprintf("with %s, order score, at %.1f%% of full's prompt tokens", match.Label(), 100*(match.ContextTokens+100)/3000)
	if !strings.Contains(out.String(), line) || !strings.Contains(out.String(), "| "+rows[0].Label()+" | score |") {
		t.Errorf("report lacks %q:\n%s", line, out.String())
	}
}

// A swept row runs as the sweep scored it: its own k, passage size, query
// form, order and folder, a home of its own for another passage size;
// reranked by the sweep's reranker only when the row is, never by the
// study's otherwise; no neighbour expansion.
func TestSweptRequest(t *testing.T) {
	var req session.Request
	req.Config.Paradigm, req.Config.K, req.Config.MaxPassageTokens, req.Config.Expand, req.Config.Home = "base", 5, 512, 2, "home"
	req.Rerank = session.Rerank{Kind: "llm", Depth: 30}
	rr := session.Rerank{Kind: "llm", Depth: 30, Model: "ranker", BaseURL: "http://127.0.0.1:1/v1", KeyEnv: "KEY"}
	row := retrieval.SweepRow{Unit: retrieval.UnitPassage, PassageTokens: 160, K: 4, Retriever: "dense", Form: "stem"}
	for _, c := range []struct {
		rerank, order string
		want          session.Rerank
		folder        string
	}{
		{"none", "score", session.Rerank{Kind: "none", Depth: 30}, "study-m-base-sweep-dense-p160-k4-stem-score"},
		{"", "document", session.Rerank{Kind: "none", Depth: 30}, "study-m-base-sweep-dense-p160-k4-stem-document"},
		{"llm", "score", rr, "study-m-base-sweep-dense-p160-k4-stem-score-rerank-llm"},
	} {
		r := row
		r.Rerank = c.rerank
		g := sweptRequest(req, rr, "runs", "m", Config1{Row: r, Order: c.order})
		gc := g.Config
		if g.Rerank != c.want || gc.Out != filepath.Join("runs", c.folder) || gc.K != 4 || gc.MaxPassageTokens != 160 ||
			gc.QueryForm != "stem" || gc.Order != c.order || strings.Join(gc.Modes, ",") != "dense" || gc.Expand != 0 || gc.Model != "m" ||
			gc.Home != filepath.Join("home", "sweep", "passages-160") {
			t.Errorf("rerank %q: rerank %+v, out %s, k %d, passage %d, form %s, order %s, modes %v, expand %d, home %s",
				c.rerank, g.Rerank, gc.Out, gc.K, gc.MaxPassageTokens, gc.QueryForm, gc.Order, gc.Modes, gc.Expand, gc.Home)
		}
	}
	if req.Rerank.Kind != "llm" || req.Config.Expand != 2 {
		t.Errorf("the study's own request changed: %+v, expand %d", req.Rerank, req.Config.Expand)
	}
	if g := sweptRequest(req, rr, "runs", "m", Config1{Row: retrieval.SweepRow{PassageTokens: 512}}); g.Config.Home != "home" {
		t.Errorf("the home's own passage size runs in home %s", g.Config.Home)
	}
}

// With several models, study --sweep --rerank llm needs the one model that
// orders passages for the sweep; with one, that model at the evaluation's
// URL with its key variable.
func TestSweepRerank(t *testing.T) {
	var req session.Request
	req.Config.BaseURL, req.Config.APIKeyEnv = "http://127.0.0.1:9/v1", "MY_KEY"
	req.Rerank = session.Rerank{Kind: "llm", Depth: 30}
	got, err := sweepRerank(req, []string{"ir", "m"})
	if err != nil || got.Model != "m" || got.BaseURL != req.Config.BaseURL || got.KeyEnv != "MY_KEY" {
		t.Errorf("one model: %+v, %v", got, err)
	}
	if _, err := sweepRerank(req, []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "--rerank-model") {
		t.Errorf("two models: %v", err)
	}
	req.Rerank.Model, req.Rerank.BaseURL = "ranker", "http://127.0.0.1:10/v1"
	if got, err := sweepRerank(req, []string{"a", "b"}); err != nil || got.Model != "ranker" || got.BaseURL != "http://127.0.0.1:10/v1" {
		t.Errorf("--rerank-model: %+v, %v", got, err)
	}
	req.Rerank = session.Rerank{Kind: "none", Depth: 30}
	if got, err := sweepRerank(req, []string{"a", "b"}); err != nil || got != req.Rerank {
		t.Errorf("--rerank none: %+v, %v", got, err)
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
