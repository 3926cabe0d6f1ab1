package agent_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/agent"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
	"github.com/paperlens/paperlens/model"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/bm25"
	"github.com/paperlens/paperlens/retrieve/web"
)

func okapi(t *testing.T, papers map[string][]string) *bm25.Okapi {
	t.Helper()
	o, err := bm25.NewOkapi(bm25.OkapiOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for paper, texts := range papers {
		ps := make([]corpus.Passage, len(texts))
		for i, s := range texts {
			ps[i] = corpus.Passage{PaperID: paper, PassageID: corpus.PassageID(paper, i), Ordinal: i, Text: s}
		}
		if err := o.Add(ps); err != nil {
			t.Fatal(err)
		}
	}
	return o
}

func call(t *testing.T, tool agent.Tool, args string) agent.Result {
	t.Helper()
	r, err := tool.Call(t.Context(), json.RawMessage(args))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSearchPaper(t *testing.T) {
	ix := okapi(t, map[string][]string{
		"bn": {"Batch normalization normalises each mini-batch.", "We train with a batch size of 32 on ImageNet.",
			"The learning rate starts at 0.1.", "Batch size matters less with normalization."},
		// Another paper that matches the query better must not show.
		"other": {"batch size batch size batch size 4096"},
	})
	s := &agent.SearchPaper{Retriever: ix, PaperID: "bn", K: 2}
	// What the tool shows is the retriever's own ranking within the paper.
	hits, err := ix.Search(t.Context(), retrieve.Query{Text: "batch size", PaperID: "bn", K: 2})
	if err != nil || len(hits) != 2 {
		t.Fatalf("%v %v", hits, err)
	}
	top := []string{hits[0].PassageID, hits[1].PassageID}
	first := "[" + hits[0].PassageID + "] " + hits[0].Text + "\n\n[" + hits[1].PassageID + "] "
	cases := []struct {
		name, args string
		status     string
		passages   []string
		text       string // a part of the text
	}{
		{"query", `{"query":"batch size"}`, "ok", top, first},
		{"nothing matches", `{"query":"zebra"}`, "ok", nil, "No passage matches"},
		{"nothing searchable", `{"query":"the of"}`, "ok", nil, "No passage matches"},
		{"missing query", `{"q":"batch"}`, "bad arguments", nil, `"query" must be a non-empty string`},
		{"not an object", `"batch"`, "bad arguments", nil, "JSON object"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := call(t, s, tc.args)
			if r.Status != tc.status || !reflect.DeepEqual(r.Passages, tc.passages) || !strings.Contains(r.Text, tc.text) {
				t.Errorf("got %+v", r)
			}
			if strings.Contains(r.Text, "4096") {
				t.Error("another paper's passage shown")
			}
		})
	}
}

// searxng stands in for a SearXNG instance (its JSON API): results are
// the given URLs, titled and with a snippet naming the query.
func searxng(t *testing.T, urls ...string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query().Get("q")
		if r.URL.Path != "/search" || r.URL.Query().Get("format") != "json" || q == "" {
			http.Error(w, "bad request", 400)
			return
		}
		type res struct {
			URL     string `json:"url"`
			Title   string `json:"title"`
			Content string `json:"content"`
		}
		out := struct {
			Query   string `json:"query"`
			Results []res  `json:"results"`
		}{Query: q}
		if r.URL.Query().Get("pageno") == "" || r.URL.Query().Get("pageno") == "1" {
			for i, u := range urls {
				out.Results = append(out.Results, res{URL: u, Title: fmt.Sprintf("Result %d", i+1), Content: "about " + q})
			}
		}
		json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// pages stands in for the sites results point to: a corpus page, and one
// that fails.
func pages(t *testing.T) *httptest.Server {
	b, err := os.ReadFile(testcorpus.Path(t, "corpus", "html", "distill-momentum.html"))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/momentum", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(b)
	})
	mux.HandleFunc("/missing", http.NotFound)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestWebSearch(t *testing.T) {
	site := pages(t)
	engine := searxng(t, site.URL+"/momentum", site.URL+"/missing", "https://example.org/own")
	ws := &agent.WebSearch{Provider: web.NewSearXNG(engine.URL, nil), N: 5,
		Skip: func(r web.Result) bool { return strings.HasSuffix(r.URL, "/own") }}
	r := call(t, ws, `{"query":"why momentum works"}`)
	want := []string{site.URL + "/momentum", site.URL + "/missing"}
	if r.Status != "ok" || !reflect.DeepEqual(r.URLs, want) ||
		!strings.Contains(r.Text, "1. Result 1\n   "+site.URL+"/momentum\n   about why momentum works") {
		t.Errorf("got %+v", r)
	}
	if r := call(t, ws, `{}`); r.Status != "bad arguments" {
		t.Errorf("no query: %+v", r)
	}
	down := &agent.WebSearch{Provider: web.NewSearXNG("http://127.0.0.1:1", nil)}
	if r := call(t, down, `{"query":"x"}`); r.Status != "error" || !strings.Contains(r.Text, "search failed") {
		t.Errorf("engine down: %+v", r)
	}
}

func TestOpenPage(t *testing.T) {
	site := pages(t)
	loopback := web.NewFetcher(web.FetchOptions{Timeout: 2 * time.Second, AllowPrivate: true, Tokens: 4096})
	guarded := web.NewFetcher(web.FetchOptions{Timeout: 2 * time.Second})
	cases := []struct {
		name   string
		tool   *agent.OpenPage
		args   string
		status string
		text   string
	}{
		{"corpus page", &agent.OpenPage{Fetcher: loopback, Tokens: 200}, `{"url":"` + site.URL + `/momentum"}`, "ok", "momentum"},
		{"404", &agent.OpenPage{Fetcher: loopback}, `{"url":"` + site.URL + `/missing"}`, "error", "http 404"},
		{"loopback refused by the guard", &agent.OpenPage{Fetcher: guarded}, `{"url":"` + site.URL + `/momentum"}`, "refused", "blocked"},
		{"file scheme", &agent.OpenPage{Fetcher: guarded}, `{"url":"file:///etc/passwd"}`, "refused", "blocked"},
		{"no url", &agent.OpenPage{Fetcher: guarded}, `{"link":"x"}`, "bad arguments", `"url"`},
		// The question's own paper: known by its id in the URL, it is not
		// fetched (the URL would 404); known by its title, it is refused
		// once fetched.
		{"own paper by URL", &agent.OpenPage{Fetcher: loopback, Skip: web.Own{ID: "momentum-notes-2017"}.Matches},
			`{"url":"` + site.URL + `/momentum-notes-2017.pdf"}`, agent.StatusOwn, "the paper the question is about"},
		{"own paper by title", &agent.OpenPage{Fetcher: loopback, Skip: web.Own{Title: "Why Momentum Really Works"}.Matches},
			`{"url":"` + site.URL + `/momentum"}`, agent.StatusOwn, "the paper the question is about"},
		{"another paper's title", &agent.OpenPage{Fetcher: loopback, Tokens: 200, Skip: web.Own{Title: "How to Use t-SNE Effectively"}.Matches},
			`{"url":"` + site.URL + `/momentum"}`, "ok", "momentum"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := call(t, tc.tool, tc.args)
			if r.Status != tc.status || !strings.Contains(strings.ToLower(r.Text), tc.text) {
				t.Errorf("got %s: %.200q", r.Status, r.Text)
			}
			if tc.status == "ok" {
				// The title line plus at most Tokens tokens of text.
				_, body, _ := strings.Cut(r.Text, "\n\n")
				if n := tokens.Count(body); n > tc.tool.Tokens || n < tc.tool.Tokens/2 {
					t.Errorf("%d tokens, want about %d", n, tc.tool.Tokens)
				}
			}
		})
	}
}

// The acceptance double of issue 15: a model that calls search_paper once
// with the question and answers from what it returned, over a real BM25
// index. Its answer is right exactly when the tool showed the passage
// holding it, which is what makes agent accuracy equal the evidence rate.
func TestAgentOverRealSearch(t *testing.T) {
	ix := okapi(t, map[string][]string{
		"bn": {"Batch normalization normalises each mini-batch.", "We train with a batch size of 32 on ImageNet.",
			"The learning rate starts at 0.1 and drops tenfold.", "Results on CIFAR-10 are in Table 2."},
	})
	srv := modeltest.NewServer(t, searchOnce())
	chat, err := model.NewOpenAI(model.Options{BaseURL: srv.BaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ q, evidence string }{
		{"What batch size on ImageNet?", corpus.PassageID("bn", 1)},
		{"What learning rate?", corpus.PassageID("bn", 2)},
	} {
		tool := &agent.SearchPaper{Retriever: ix, PaperID: "bn", K: 1}
		tr, err := agent.Run(t.Context(), chat, question(tc.q), []agent.Tool{tool}, agent.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := tr.Passages(); !reflect.DeepEqual(got, []string{tc.evidence}) || !strings.HasPrefix(tr.Answer, "Answer: ["+tc.evidence+"]") {
			t.Errorf("%s: shown %v, answered %q", tc.q, got, tr.Answer)
		}
	}
}

// tool-search end to end: a double standing in for a model in LPFQA's
// Search setting searches the web with the question, opens the first
// result and answers with the page's title line.
func TestAgentWebSearchThenOpen(t *testing.T) {
	site := pages(t)
	engine := searxng(t, site.URL+"/momentum")
	srv := modeltest.NewServer(t, modeltest.Config{
		ToolCalls: func(r modeltest.Request) []modeltest.ToolCall {
			m, ok := lastTool(r)
			switch {
			case !ok:
				q, _ := json.Marshal(map[string]string{"query": r.Messages[len(r.Messages)-1].Content})
				return []modeltest.ToolCall{modeltest.Call("s", agent.ToolWebSearch, string(q))}
			case m.ToolCallID == "s":
				lines := strings.Split(m.Content, "\n")
				u, _ := json.Marshal(map[string]string{"url": strings.TrimSpace(lines[1])})
				return []modeltest.ToolCall{modeltest.Call("o", agent.ToolOpenPage, string(u))}
			}
			return nil
		},
		Answer: func(r modeltest.Request) (string, string) {
			m, _ := lastTool(r)
			title, _, _ := strings.Cut(m.Content, "\n")
			return "Answer: " + title, ""
		},
	})
	chat, err := model.NewOpenAI(model.Options{BaseURL: srv.BaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	tools := []agent.Tool{
		&agent.WebSearch{Provider: web.NewSearXNG(engine.URL, nil)},
		&agent.OpenPage{Fetcher: web.NewFetcher(web.FetchOptions{Timeout: 2 * time.Second, AllowPrivate: true}), Tokens: 300},
	}
	tr, err := agent.Run(t.Context(), chat, question("Why does momentum work?"), tools, agent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.ToolCalls != 2 || len(tr.Steps) != 3 {
		t.Fatalf("%d calls in %d steps", tr.ToolCalls, len(tr.Steps))
	}
	opened := tr.Steps[1].Calls[0]
	title, _, _ := strings.Cut(opened.Result.Text, "\n")
	if opened.Name != agent.ToolOpenPage || opened.Result.Status != "ok" || !reflect.DeepEqual(opened.Result.URLs, []string{site.URL + "/momentum"}) ||
		!strings.Contains(strings.ToLower(title), "momentum") || tr.Answer != "Answer: "+title {
		t.Errorf("opened %+v, answer %q", opened, tr.Answer)
	}
}
