package inspector

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/model"
)

// serveWith serves the fixture with extra records (and their modes).
func serveWith(t *testing.T, modes []string, extra []run.Record) *httptest.Server {
	t.Helper()
	dir, _ := writeFixture(t, run.Config{})
	var cfg run.Config
	b, _ := os.ReadFile(filepath.Join(dir, "config.json"))
	must(t, json.Unmarshal(b, &cfg))
	cfg.Modes = append(cfg.Modes, modes...)
	b, _ = json.MarshalIndent(cfg, "", "  ")
	must(t, os.WriteFile(filepath.Join(dir, "config.json"), b, 0o644))
	f, err := os.OpenFile(filepath.Join(dir, run.ResultsFile), os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	for _, r := range extra {
		r.Model, r.Paradigm, r.QuestionType, r.ScoreKind = "fixture-model", "base", "SA-MCQ", "exact"
		b, _ := json.Marshal(r)
		_, err := f.Write(append(b, '\n'))
		must(t, err)
	}
	must(t, f.Close())
	site, err := Load([]string{dir}, Options{})
	must(t, err)
	srv := httptest.NewServer(site.Handler())
	t.Cleanup(srv.Close)
	return srv
}

// The question page shows which way self-route went and both of its
// calls, marks the passages the answer cites and links each citation to
// its passage; the run's page tables it like any mode.
func TestSelfRouteAndCitesOnQuestionPage(t *testing.T) {
	var recs []run.Record
	for _, n := range []int{1, 2} {
		recs = append(recs,
			run.Record{QuestionID: "q1", PaperID: "evil", Mode: "self-route", Run: n, Gold: "A", Extracted: "A", Correct: true,
				Context: []run.ContextItem{{PassageID: "evil#1", Rank: 1, Score: 3, Retriever: "bm25"}, {PassageID: "evil#2", Rank: 1, Retriever: "bm25", Expanded: true}},
				Output:  "Answer: A [p1]", PromptTokens: 1300, Usage: model.Usage{PromptTokens: 1350, CompletionTokens: 8},
				Route: run.RouteFull, Cited: []string{"evil#1"}, RouteCalls: []run.RouteCall{
					{Route: run.RouteRAG, PromptTokens: 400, Usage: model.Usage{PromptTokens: 420, CompletionTokens: 4}, Output: "Unanswerable.", Unanswerable: true, Cached: true},
					{Route: run.RouteFull, PromptTokens: 900, Usage: model.Usage{PromptTokens: 930, CompletionTokens: 4}, Output: "Answer: A [p1]"},
				}},
			run.Record{QuestionID: "q3", PaperID: "plain", Mode: "self-route", Run: n, Gold: "A", Extracted: "A", Correct: true,
				Context: []run.ContextItem{{PassageID: "plain#1", Rank: 1, Score: 2, Retriever: "bm25"}}, Output: "Answer: A", PromptTokens: 300,
				Route: run.RouteRAG, RouteCalls: []run.RouteCall{{Route: run.RouteRAG, PromptTokens: 300, Output: "Answer: A"}}})
	}
	srv := serveWith(t, []string{"self-route"}, recs)
	_, body, _ := get(t, srv, "/r/1/q/q1")
	i := strings.Index(body, `data-mode="self-route"`)
	if i < 0 {
		t.Fatalf("no self-route column:\n%s", body)
	}
	col := body[i:]
	for _, want := range []string{
		"retrieved passages; whole paper when they do not suffice",
		`route: <strong class="route-full">full</strong>`,
		// Each field of a call is labelled in its own element.
		"<dt>call</dt><dd>rag</dd>\n<dt>prompt tokens</dt><dd>400</dd>\n<dt>server tokens</dt><dd>prompt 420 · completion 4</dd>\n<dt>cached</dt><dd>yes</dd>\n<dt>read as</dt><dd class=\"bad\">unanswerable</dd>",
		"<dt>call</dt><dd>full</dd>\n<dt>prompt tokens</dt><dd>900</dd>",
		"Unanswerable.",
		"The whole paper was in the prompt",
		// The cited passage is marked and the citation links to it.
		`<div class="passage gold cited" id="psg-self-route-evil-1">`,
		`<span class="cited-mark">cited</span>`,
		`<a class="cite" href="#psg-self-route-evil-1">[p1]</a>`,
		// The neighbour --expand added is told apart from the hits.
		`<span class="neighbour">neighbour (--expand)</span>`,
	} {
		if !strings.Contains(col, want) {
			t.Errorf("self-route column lacks %q:\n%s", want, col)
		}
	}
	_, q3, _ := get(t, srv, "/r/1/q/q3")
	col3 := q3[strings.Index(q3, `data-mode="self-route"`):]
	if !strings.Contains(col3, `route: <strong class="route-rag">rag</strong> — the passages sufficed`) || strings.Contains(col3, "The whole paper was in the prompt") {
		t.Errorf("rag route column:\n%s", col3)
	}
	// The other modes' columns carry no route.
	if full := body[strings.Index(body, `data-mode="full"`):strings.Index(body, `data-mode="bm25"`)]; strings.Contains(full, "route:") {
		t.Errorf("full column shows a route:\n%s", full)
	}
	_, index, _ := get(t, srv, "/")
	if !strings.Contains(index, "self-route") {
		t.Errorf("the run's page does not list self-route:\n%s", index)
	}
}
