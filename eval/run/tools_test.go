package run

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/eval/agent"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/model"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/evidence"
	"github.com/paperlens/paperlens/retrieve/web"
)

// toolBlock opens each passage after the first in a search_paper result.
var toolBlock = regexp.MustCompile(`\n\n\[[^\]\n]+\] `)

// askedQuestion is the question whose stem the request's first user turn
// holds.
func askedQuestion(qs []bench.Question, r modeltest.Request) (bench.Question, bool) {
	for _, m := range r.Messages {
		if m.Role != "user" {
			continue
		}
		for _, q := range qs {
			if q.MCQ.Stem != "" && strings.Contains(m.Content, q.MCQ.Stem) {
				return q, true
			}
		}
		break
	}
	return bench.Question{}, false
}

// toolsOffered reports whether the request lists a tool of that name.
func toolsOffered(r modeltest.Request, name string) bool {
	for _, t := range r.Tools {
		if strings.Contains(string(t), `"name":"`+name+`"`) {
			return true
		}
	}
	return false
}

// pingCall answers the tool preflight (model.CheckTools) as a model that
// calls tools does; nil when the request is not the preflight.
func pingCall(r modeltest.Request) []modeltest.ToolCall {
	if toolsOffered(r, "ping") {
		return []modeltest.ToolCall{modeltest.Call("call_ping", "ping", `{"text":"ok"}`)}
	}
	return nil
}

func toolMessages(r modeltest.Request) []modeltest.Message {
	var out []modeltest.Message
	for _, m := range r.Messages {
		if m.Role == "tool" {
			out = append(out, m)
		}
	}
	return out
}

// searchingReader stands in for a tool-calling model that searches the
// paper once with the question's stem and then reads only what the tool
// returned, as the evidence reader reads its prompt: right exactly when
// the returned passages hold the gold evidence complete, otherwise a
// letter that is surely wrong.
func searchingReader(qs []bench.Question) modeltest.Config {
	return modeltest.Config{
		ToolCalls: func(r modeltest.Request) []modeltest.ToolCall {
			if c := pingCall(r); c != nil {
				return c
			}
			q, ok := askedQuestion(qs, r)
			if !ok || len(toolMessages(r)) > 0 || !toolsOffered(r, agent.ToolSearchPaper) {
				return nil
			}
			args, _ := json.Marshal(map[string]string{"query": q.MCQ.Stem})
			return []modeltest.ToolCall{modeltest.Call("call_1", agent.ToolSearchPaper, string(args))}
		},
		Answer: func(r modeltest.Request) (string, string) {
			q, ok := askedQuestion(qs, r)
			tm := toolMessages(r)
			if !ok || len(tm) == 0 {
				return "I cannot tell.", ""
			}
			text := strings.TrimPrefix(tm[0].Content, "[")
			if _, rest, ok := strings.Cut(text, "] "); ok {
				text = rest
			}
			parts := toolBlock.Split(text, -1)
			g := evidence.ParseGold(q.Evidence, evidence.Options{})
			if g.Score(parts).CompleteAt(len(parts)) == 1 {
				return "Answer: " + q.Answer, ""
			}
			for _, l := range q.MCQ.Letters() {
				if string(l) != q.Answer {
					return "Answer: " + string(l), ""
				}
			}
			return "", ""
		},
	}
}

// toolChat is the model stack the eval command builds (response cache,
// retry, limits) over the OpenAI client talking to srv.
func toolChat(t *testing.T, srv *modeltest.Server, cache string) model.Chat {
	t.Helper()
	chat, closer := openToolChat(t, srv, cache)
	t.Cleanup(func() { closer.Close() })
	return chat
}

func openToolChat(t *testing.T, srv *modeltest.Server, cache string) (model.Chat, io.Closer) {
	t.Helper()
	base, err := model.NewOpenAI(model.Options{BaseURL: srv.BaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	chat, closer, err := model.Stack(base, model.StackOptions{CachePath: cache})
	if err != nil {
		t.Fatal(err)
	}
	return chat, closer
}

// Under agent, a model that searches once and reads only the result is
// right exactly when the passages search_paper showed it hold the gold
// evidence: the record's evidence recall counts what the tool returned.
func TestAgentAccuracyEqualsEvidenceShown(t *testing.T) {
	qs, st, ix := fixture(t)
	srv := modeltest.NewServer(t, searchingReader(qs))
	cfg := sampleConfig(t, "fake-model", mode.Agent)
	cfg.Runs = 1
	if cfg.MaxToolCalls != agent.DefaultMaxToolCalls {
		t.Errorf("max tool calls %d by default, want %d", cfg.MaxToolCalls, agent.DefaultMaxToolCalls)
	}
	chat := toolChat(t, srv, filepath.Join(t.TempDir(), "cache.db"))
	res, err := Run(context.Background(), Options{Config: cfg, Chat: chat, Corpus: st, Index: ix, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := Dir(cfg.Out).Records()
	if err != nil || len(recs) != len(qs) {
		t.Fatalf("%d records, want %d: %v", len(recs), len(qs), err)
	}
	shown, right := 0, 0
	for _, r := range recs {
		if r.Error != "" {
			t.Fatalf("%s: %s", r.QuestionID, r.Error)
		}
		if r.Transcript == nil || r.Transcript.ToolCalls != 1 || len(r.Transcript.Steps) != 2 || r.Transcript.CutOff {
			t.Fatalf("%s: transcript %+v, want one search then an answer", r.QuestionID, r.Transcript)
		}
		if len(r.Context) == 0 || len(r.Context) > cfg.K || r.Context[0].Retriever != agent.ToolSearchPaper {
			t.Errorf("%s: context %+v, want the passages search_paper returned", r.QuestionID, r.Context)
		}
		if r.Recall == nil {
			t.Fatalf("%s: no evidence recall", r.QuestionID)
		}
		complete := *r.Recall == 1
		if r.Correct != complete {
			t.Errorf("%s: correct %v, but evidence recall of the passages shown %.2f", r.QuestionID, r.Correct, *r.Recall)
		}
		if complete {
			shown++
		}
		if r.Correct {
			right++
		}
		if r.Usage.TotalTokens == 0 || r.Transcript.Usage != r.Usage {
			t.Errorf("%s: usage %+v, transcript's %+v", r.QuestionID, r.Usage, r.Transcript.Usage)
		}
	}
	t.Logf("%d of %d questions had the evidence shown, %d right", shown, len(qs), right)
	if acc := res.Summary.ByMode[mode.Agent].Accuracy; acc != float64(shown)/float64(len(qs)) {
		t.Errorf("agent accuracy %.3f, evidence shown in %d of %d", acc, shown, len(qs))
	}
	// One preflight, then two turns per question.
	if n := srv.Count(); n != 1+2*len(qs) {
		t.Errorf("%d requests at the server, want %d", n, 1+2*len(qs))
	}
}

// A model that would call a tool 30 times is cut off at --max-tool-calls:
// the last request forbids tools and its text is the answer.
func TestToolModeCutOffAtMaxToolCalls(t *testing.T) {
	qs, st, ix := fixture(t)
	qs = qs[:2]
	srv := modeltest.NewServer(t, modeltest.Config{
		ToolCalls: func(r modeltest.Request) []modeltest.ToolCall {
			if c := pingCall(r); c != nil {
				return c
			}
			if r.ToolChoice == "none" || len(toolMessages(r)) >= 30 {
				return nil
			}
			n := len(toolMessages(r))
			args, _ := json.Marshal(map[string]string{"query": "attempt " + strings.Repeat("x", n+1)})
			return []modeltest.ToolCall{modeltest.Call("call_"+string(rune('a'+n)), agent.ToolSearchPaper, string(args))}
		},
		Answer: func(r modeltest.Request) (string, string) { return "Answer: A", "" },
	})
	cfg := sampleConfig(t, "fake-model", mode.Agent)
	cfg.Runs, cfg.MaxToolCalls = 1, 4
	plan, err := DryRun(context.Background(), Options{Config: cfg, Corpus: st, Index: ix, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Options{Config: cfg, Chat: toolChat(t, srv, ""), Corpus: st, Index: ix, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range mustRecords(t, cfg.Out, len(qs)) {
		tr := r.Transcript
		if r.Error != "" || tr == nil {
			t.Fatalf("%s: error %q, transcript %v", r.QuestionID, r.Error, tr)
		}
		last := tr.Steps[len(tr.Steps)-1]
		if !tr.CutOff || tr.ToolCalls != cfg.MaxToolCalls || !last.Forced || r.Output != "Answer: A" || r.Extracted != "A" {
			t.Errorf("%s: cut off %v after %d calls (cap %d), last step forced %v, output %q", r.QuestionID, tr.CutOff, tr.ToolCalls, cfg.MaxToolCalls, last.Forced, r.Output)
		}
	}
	if res.Summary.ByMode[mode.Agent].N != len(qs) {
		t.Errorf("summary %+v", res.Summary.ByMode[mode.Agent])
	}
	// Per question: the cap's calls, one turn each, and the forced turn.
	if n := srv.Count(); n != 1+len(qs)*(cfg.MaxToolCalls+1) {
		t.Errorf("%d requests, want %d", n, 1+len(qs)*(cfg.MaxToolCalls+1))
	}
	reqs := srv.Requests()
	if last := reqs[len(reqs)-1]; last.ToolChoice != "none" {
		t.Errorf("last request tool_choice %q, want none", last.ToolChoice)
	}
	// The dry run's plan: one first turn per question, and a bound the
	// run, which used up the cap, reaches in calls and stays under in
	// prompt tokens.
	sent := 0
	for _, r := range reqs[1:] { // the first is the preflight
		for _, m := range r.Messages {
			sent += tokens.Count(m.Content)
			for _, c := range m.ToolCalls {
				sent += tokens.Count(c.Function.Arguments)
			}
		}
	}
	if plan.Calls != len(qs) || plan.CallsMax != len(reqs)-1 || !slices.Equal(plan.ToolModes, []string{mode.Agent}) {
		t.Errorf("plan: %d calls, at most %d, tool modes %q; the run made %d", plan.Calls, plan.CallsMax, plan.ToolModes, len(reqs)-1)
	}
	if sent < plan.PromptTokens || sent > plan.PromptTokensMax {
		t.Errorf("the run sent %d prompt tokens; the plan said %d to %d", sent, plan.PromptTokens, plan.PromptTokensMax)
	}
}

func mustRecords(t *testing.T, out string, n int) []Record {
	t.Helper()
	recs, err := Dir(out).Records()
	if err != nil || len(recs) != n {
		t.Fatalf("%d records, want %d: %v", len(recs), n, err)
	}
	return recs
}

// A finished tool-mode run reruns without a request; with its records lost
// (killed before they were written), the rerun replays every turn from the
// response cache and every tool result from the run's tool cache.
func TestToolModeRerunMakesNoCalls(t *testing.T) {
	qs, st, ix := fixture(t)
	srv := modeltest.NewServer(t, searchingReader(qs))
	cfg := sampleConfig(t, "fake-model", mode.Agent, mode.FullAgent)
	cfg.Runs = 1
	cache := filepath.Join(t.TempDir(), "cache.db")
	run := func() Result {
		t.Helper()
		chat, closer := openToolChat(t, srv, cache)
		defer closer.Close()
		res, err := Run(context.Background(), Options{Config: cfg, Chat: chat, Corpus: st, Index: ix, Questions: qs})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := run()
	before := mustRecords(t, cfg.Out, 2*len(qs))
	calls := srv.Count()
	if _, err := os.Stat(filepath.Join(cfg.Out, ToolsFile)); err != nil {
		t.Fatalf("no tool cache in the run folder: %v", err)
	}

	again := run()
	if srv.Count() != calls || again.Done != 0 || again.Resumed != 2*len(qs) {
		t.Errorf("rerun of a finished run: %d requests (had %d), %d done, %d resumed", srv.Count(), calls, again.Done, again.Resumed)
	}

	if err := os.Remove(filepath.Join(cfg.Out, ResultsFile)); err != nil {
		t.Fatal(err)
	}
	replay := run()
	if srv.Count() != calls {
		t.Errorf("replay made %d requests", srv.Count()-calls)
	}
	after := mustRecords(t, cfg.Out, 2*len(qs))
	want := map[key]Record{}
	for _, r := range before {
		want[r.key()] = r
	}
	for _, r := range after {
		w := want[r.key()]
		if r.Output != w.Output || r.Correct != w.Correct || r.Transcript == nil || r.Transcript.ToolCalls != w.Transcript.ToolCalls {
			t.Errorf("%s [%s]: replay answered %q, first %q", r.QuestionID, r.Mode, r.Output, w.Output)
			continue
		}
		for _, s := range r.Transcript.Steps {
			if !s.Cached {
				t.Errorf("%s [%s]: a model turn was not replayed from the cache", r.QuestionID, r.Mode)
			}
			for _, c := range s.Calls {
				if !c.Cached {
					t.Errorf("%s [%s]: tool call %s ran again", r.QuestionID, r.Mode, c.ID)
				}
			}
		}
	}
	if replay.Summary.ByMode[mode.Agent].Accuracy != first.Summary.ByMode[mode.Agent].Accuracy {
		t.Errorf("accuracy %v, first %v", replay.Summary.ByMode[mode.Agent], first.Summary.ByMode[mode.Agent])
	}
}

// A server that refuses tools stops a tool-mode run before any record,
// with an error naming the mode.
func TestToolModeNeedsToolCalling(t *testing.T) {
	qs, st, ix := fixture(t)
	srv := modeltest.NewServer(t, modeltest.Config{NoTools: true})
	cfg := sampleConfig(t, "fake-model", mode.ClosedBook, mode.Agent)
	_, err := Run(context.Background(), Options{Config: cfg, Chat: toolChat(t, srv, ""), Corpus: st, Index: ix, Questions: qs})
	if err == nil || !strings.Contains(err.Error(), "mode agent") || !model.ToolsUnsupported(err) {
		t.Fatalf("error %v, want one naming mode agent and tool support", err)
	}
	if recs, _ := Dir(cfg.Out).Records(); len(recs) != 0 {
		t.Errorf("%d records written", len(recs))
	}
	if srv.Count() != 1 {
		t.Errorf("%d requests, want the one preflight", srv.Count())
	}
}

// fakeEngine stands in for a search engine (the real providers are tested
// in retrieve/web): a query holding a question's stem finds that
// question's page on the loopback page server.
type fakeEngine struct {
	qs     []bench.Question
	base   string
	titles map[string]string // paper id → title
}

func (e fakeEngine) Name() string { return "fake" }

// Search lists the question's own paper first, by its id in a URL and by
// its title on another site, then the page with the answer.
func (e fakeEngine) Search(_ context.Context, query string, n int) ([]web.Result, error) {
	for _, q := range e.qs {
		if strings.Contains(query, q.MCQ.Stem) {
			return []web.Result{
				{URL: e.base + "/papers/" + q.PaperID + ".pdf", Title: "PDF", Rank: 1},
				{URL: e.base + "/elsewhere/" + q.ID, Title: e.titles[q.PaperID], Rank: 2},
				{URL: e.base + "/page/" + q.ID, Title: "Notes on " + q.ID, Snippet: "a page about the question", Rank: 3},
			}[:min(n, 3)], nil
		}
	}
	return nil, nil
}

var rightOption = regexp.MustCompile(`The right option is ([A-Z, ]+)\.`)

// tool-search end to end: the model searches, opens the page the engine
// listed through the guarded fetcher, and answers from the page's text.
// The engine lists the question's own paper first, twice; web_search hides
// it, as the web modes do, so the first URL the model sees is the notes.
func TestToolSearchSearchesThenOpens(t *testing.T) {
	qs, st, ix := fixture(t)
	qs = qs[:3]
	var ownFetched atomic.Int32
	pages := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := strings.TrimPrefix(r.URL.Path, "/page/")
		for _, q := range qs {
			if q.ID == id {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprintf(w, "<html><head><title>Notes</title></head><body><article><h1>Notes on the question</h1>"+
					"<p>These notes discuss the paper the question is about, its method and its results in some detail, so that a reader can check the claims.</p>"+
					"<p>After reading the paper closely we conclude: The right option is %s.</p></article></body></html>", q.Answer)
				return
			}
		}
		ownFetched.Add(1)
		http.NotFound(w, r)
	}))
	defer pages.Close()
	srv := modeltest.NewServer(t, modeltest.Config{
		ToolCalls: func(r modeltest.Request) []modeltest.ToolCall {
			if c := pingCall(r); c != nil {
				return c
			}
			q, ok := askedQuestion(qs, r)
			tm := toolMessages(r)
			switch {
			case !ok:
				return nil
			case len(tm) == 0:
				args, _ := json.Marshal(map[string]string{"query": q.MCQ.Stem})
				return []modeltest.ToolCall{modeltest.Call("call_s", agent.ToolWebSearch, string(args))}
			case len(tm) == 1:
				for _, line := range strings.Split(tm[0].Content, "\n") {
					if u := strings.TrimSpace(line); strings.HasPrefix(u, "http") {
						args, _ := json.Marshal(map[string]string{"url": u})
						return []modeltest.ToolCall{modeltest.Call("call_o", agent.ToolOpenPage, string(args))}
					}
				}
			}
			return nil
		},
		Answer: func(r modeltest.Request) (string, string) {
			for _, m := range toolMessages(r) {
				if x := rightOption.FindStringSubmatch(m.Content); x != nil {
					return "Answer: " + x[1], ""
				}
			}
			return "I found nothing.", ""
		},
	})
	cfg := sampleConfig(t, "fake-model", mode.ToolSearch)
	cfg.Runs = 1
	titles := map[string]string{}
	for _, q := range qs {
		d, err := st.Doc(q.PaperID)
		if err != nil || len(strings.Fields(d.Title)) < 3 {
			t.Fatalf("paper %s: title %q (%v); the own-paper check needs one", q.PaperID, d.Title, err)
		}
		titles[q.PaperID] = d.Title
	}
	wt := &WebTools{Provider: fakeEngine{qs: qs, base: pages.URL, titles: titles}, Fetcher: web.NewFetcher(web.FetchOptions{AllowPrivate: true, Tokens: 400}),
		Title: func(id string) string { return titles[id] }}
	res, err := Run(context.Background(), Options{Config: cfg, Chat: toolChat(t, srv, ""), Corpus: st, Index: ix, Questions: qs, WebTools: wt})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range mustRecords(t, cfg.Out, len(qs)) {
		tr := r.Transcript
		if r.Error != "" || tr == nil || tr.ToolCalls != 2 || len(tr.Steps) != 3 {
			t.Fatalf("%s: error %q, transcript %+v", r.QuestionID, r.Error, tr)
		}
		if found := tr.Steps[0].Calls[0].Result; !reflect.DeepEqual(found.URLs, []string{pages.URL + "/page/" + r.QuestionID}) {
			t.Errorf("%s: web_search listed %q; the own paper (by id and by title) should be hidden", r.QuestionID, found.URLs)
		}
		open := tr.Steps[1].Calls[0]
		if open.Name != agent.ToolOpenPage || open.Result.Status != "ok" || !strings.Contains(open.Result.Text, "The right option is") {
			t.Errorf("%s: open_page %+v", r.QuestionID, open)
		}
		if !r.Correct {
			t.Errorf("%s: output %q, gold %s", r.QuestionID, r.Output, r.Gold)
		}
	}
	if n := ownFetched.Load(); n != 0 {
		t.Errorf("%d requests for pages other than the notes (the own paper)", n)
	}
	if acc := res.Summary.ByMode[mode.ToolSearch].Accuracy; acc != 1 {
		t.Errorf("tool-search accuracy %.2f, want 1 (every page holds the answer)", acc)
	}
}

// --tool-retriever picks how search_paper ranks: the passages each record
// shows are the named retriever's top k for the model's query (the
// question's stem), in its order. An unknown name is refused up front.
func TestToolRetriever(t *testing.T) {
	qs, st, ix := fixture(t)
	qs = qs[:6]
	for _, name := range []string{"", "bm25", "dense", "hybrid"} {
		t.Run("retriever "+name, func(t *testing.T) {
			srv := modeltest.NewServer(t, searchingReader(qs))
			cfg := sampleConfig(t, "fake-model", mode.Agent)
			cfg.Runs, cfg.ToolRetriever = 1, name
			cfg.Defaults(nil) // "" becomes the default
			if _, err := Run(context.Background(), Options{Config: cfg, Chat: toolChat(t, srv, ""), Corpus: st, Index: ix, Questions: qs}); err != nil {
				t.Fatal(err)
			}
			want := name
			if want == "" {
				want = AgentRetriever
			}
			if got, err := Dir(cfg.Out).ReadConfig(); err != nil || got.ToolRetriever != want {
				t.Errorf("config.json tool_retriever %q (%v), want %q", got.ToolRetriever, err, want)
			}
			r, err := ix.Retriever(want)
			if err != nil {
				t.Fatal(err)
			}
			for _, rec := range mustRecords(t, cfg.Out, len(qs)) {
				q := qs[slices.IndexFunc(qs, func(q bench.Question) bool { return q.ID == rec.QuestionID })]
				hits, err := r.Search(context.Background(), retrieve.Query{Text: q.MCQ.Stem, PaperID: q.PaperID, K: cfg.K})
				if err != nil {
					t.Fatal(err)
				}
				var got, top []string
				for _, c := range rec.Context {
					got = append(got, c.PassageID)
				}
				for _, h := range hits {
					top = append(top, h.PassageID)
				}
				if !slices.Equal(got, top) {
					t.Errorf("%s: search_paper showed %q, %s ranks %q", rec.QuestionID, got, want, top)
				}
			}
		})
	}
	cfg := sampleConfig(t, "fake-model", mode.Agent)
	cfg.ToolRetriever = "splade"
	if _, err := Run(context.Background(), Options{Config: cfg, Corpus: st, Index: ix, Questions: qs}); err == nil || !strings.Contains(err.Error(), "--tool-retriever") {
		t.Errorf("unknown retriever: %v", err)
	}
}
