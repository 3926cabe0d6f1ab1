package inspector

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/testkit/browsertest"
	"github.com/paperlens/paperlens/model"
)

// The twelve-mode run: every mode a run can have on one question page,
// for the checks of what a person sees with many modes (layout_test.go)
// and of what each mode's column shows.

// TestMain stops the Chromium the browser checks share once every test
// has run.
func TestMain(m *testing.M) {
	code := m.Run()
	browsertest.Stop()
	os.Exit(code)
}

// twelveModes are the modes of the wide fixture, in the mode table's order.
var twelveModes = []string{"closed-book", "full", "bm25", "dense", "hybrid", "full+bm25", "full+dense", "full+hybrid",
	"self-route", "oracle", "web", "agent"}

// longID is a question id with no place to break: the list's first column
// and the question page's heading must wrap it, not widen the page.
var longID = "q-" + strings.Repeat("0123456789abcdef", 8)

// unbroken is content with no space in it (a URL, a base64 blob, a token
// run a model can print), 600 characters.
var unbroken = strings.Repeat("https://example.org/a/very/long/path?", 16) + "end"

// passagesOf are the passages each fixture question's retrievers return,
// best first: the first holds gold evidence.
var passagesOf = map[string][]string{"q1": {"evil#1", "evil#2", "evil#0"}, "q2": {"evil#1", "evil#0"}, "q3": {"plain#1", "plain#0"}}

// wideRecords are two runs of every fixture question under each of the
// twelve modes, holding what each mode records. Hostile records put
// unbroken content in every box that can hold it (output, reasoning,
// tool arguments, web URLs, an error) and add a question with a long id;
// calm ones read like a real run, for the README's screenshot.
func wideRecords(hostile bool) []run.Record {
	var out []run.Record
	for qi, fq := range fxQuestions {
		qid, pid, gold := fq["id"].(string), fq["paper_id"].(string), fq["answer"].(string)
		for _, n := range []int{1, 2} {
			for i, m := range twelveModes {
				correct := m != "closed-book" && (i*7+qi*3+n)%4 != 0
				r := run.Record{QuestionID: qid, PaperID: pid, Mode: m, Run: n, Gold: gold, Extracted: gold, Correct: correct,
					Method: "answer-colon", PromptTokens: 1000 + 100*i, Usage: model.Usage{PromptTokens: 1020 + 100*i, CompletionTokens: 12, ReasoningTokens: 4},
					FinishReason: "stop", LatencyMS: 840}
				if !correct {
					r.Extracted = "C"
				}
				r.Output, r.Reasoning = "The passage I was given states it [p1].\nAnswer: "+r.Extracted, "Find the sentence that answers the question."
				if hostile {
					r.Output, r.Reasoning = "Let me answer "+unbroken+"\nAnswer: "+r.Extracted, "thinking "+unbroken
				}
				modeContext(&r, passagesOf[qid], hostile)
				out = append(out, r)
			}
		}
	}
	if hostile {
		// A question the dataset lacks, known from its record alone: its
		// id is the widest thing on the list page.
		out = append(out, run.Record{QuestionID: longID, PaperID: "plain", Mode: "full", Run: 1, Gold: "A", Extracted: "A", Correct: true, Output: "Answer: A"})
	}
	return out
}

// modeContext sets what the record's mode was given: ranked passages,
// the gold evidence, web results, self-route's calls or a tool transcript.
func modeContext(r *run.Record, ids []string, hostile bool) {
	long := func(calm string) string {
		if hostile {
			return unbroken
		}
		return calm
	}
	switch m := r.Mode; m {
	case "bm25", "dense", "hybrid", "full+bm25", "full+dense", "full+hybrid":
		ret := strings.TrimPrefix(m, "full+")
		for k, id := range ids {
			// The last passage is a neighbour --expand added beside the first.
			r.Context = append(r.Context, run.ContextItem{PassageID: id, Rank: min(k+1, len(ids)-1), Score: 12.3456 / float64(k+1), Retriever: ret, Expanded: k > 0 && k == len(ids)-1})
		}
		r.Recall = new(0.5)
	case "oracle":
		r.Context = []run.ContextItem{{PassageID: "gold", Rank: 1, Retriever: "oracle"}}
	case "web":
		r.Web = []run.WebItem{{URL: long("https://example.org/retrievers"), Title: long("Training dense retrievers"), Rank: 1, Tokens: 40, Status: "ok"},
			{URL: "https://example.org/b", Rank: 2, Status: "http 404"}}
		r.Context = []run.ContextItem{{PassageID: r.Web[0].URL, Rank: 1, Retriever: "web"}}
	case "self-route":
		r.Context = []run.ContextItem{{PassageID: ids[0], Rank: 1, Score: 3, Retriever: "bm25"}}
		r.Route, r.Cited = run.RouteFull, []string{ids[0]}
		r.RouteCalls = []run.RouteCall{
			{Route: run.RouteRAG, PromptTokens: 400, Usage: model.Usage{PromptTokens: 420, CompletionTokens: 4}, Output: strings.TrimSpace("Unanswerable. " + long("")), Unanswerable: true, Cached: true},
			{Route: run.RouteFull, PromptTokens: 900, Usage: model.Usage{PromptTokens: 930, CompletionTokens: 4}, Output: "Answer: A [p1]"},
		}
	case "agent":
		tr := agentTranscript(false, false)
		if hostile {
			tr.Steps[0].Calls[0].Arguments = `{"query":"` + unbroken + `"}`
		}
		r.Transcript = &tr
		for k, id := range ids[:min(2, len(ids))] {
			r.Context = append(r.Context, run.ContextItem{PassageID: id, Rank: k + 1, Retriever: "search_paper"})
		}
		r.Recall = new(1.0)
	case "closed-book":
		if hostile && r.Run == 2 {
			r.Extracted, r.Correct, r.Error = "", false, "model: "+unbroken
		}
	}
}

// serveTwelve serves the fixture run with the twelve modes' records.
func serveTwelve(t *testing.T, hostile bool) *httptest.Server {
	t.Helper()
	dir, _ := writeFixture(t, run.Config{})
	var cfg run.Config
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	must(t, err)
	must(t, json.Unmarshal(b, &cfg))
	cfg.Modes = twelveModes
	b, _ = json.MarshalIndent(cfg, "", "  ")
	must(t, os.WriteFile(filepath.Join(dir, "config.json"), b, 0o644))
	// The fixture's own records are replaced: they are of three modes only.
	var lines []byte
	for _, r := range wideRecords(hostile) {
		r.Model, r.Paradigm, r.QuestionType, r.ScoreKind = "fixture-model", "base", "SA-MCQ", "exact"
		b, _ := json.Marshal(r)
		lines = append(append(lines, b...), '\n')
	}
	must(t, os.WriteFile(filepath.Join(dir, run.ResultsFile), lines, 0o644))
	site, err := Load([]string{dir}, Options{})
	must(t, err)
	srv := httptest.NewServer(site.Handler())
	t.Cleanup(srv.Close)
	return srv
}
