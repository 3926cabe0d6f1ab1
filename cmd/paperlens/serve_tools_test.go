package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/agent"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// paperSearcher stands in for a tool-calling model under agent: it
// answers the tool preflight, searches the paper once with the question
// it was sent, and answers A once the result is back.
func paperSearcher() modeltest.Config {
	return modeltest.Config{
		ToolCalls: func(r modeltest.Request) []modeltest.ToolCall {
			var user string
			for _, m := range r.Messages {
				switch {
				case m.Role == "tool":
					return nil
				case m.Role == "user" && user == "":
					user = m.Content
				}
			}
			for _, t := range r.Tools {
				if strings.Contains(string(t), `"name":"ping"`) {
					return []modeltest.ToolCall{modeltest.Call("call_ping", "ping", `{"text":"ok"}`)}
				}
			}
			args, _ := json.Marshal(map[string]string{"query": user})
			return []modeltest.ToolCall{modeltest.Call("call_1", agent.ToolSearchPaper, string(args))}
		},
		Answer: func(r modeltest.Request) (string, string) { return "I searched the paper. Answer: A", "" },
	}
}

// TestServeToolTranscriptInBrowser runs agent against the double, serves
// the run and loads in headless Chromium a question page whose
// search_paper result holds gold evidence: the transcript's call, its
// arguments and the highlighted gold must be in the rendered page, and
// the highlight must show on the screenshot.
func TestServeToolTranscriptInBrowser(t *testing.T) {
	t.Parallel()
	chromiumPath(t)
	srv := modeltest.NewServer(t, paperSearcher())
	home, out := t.TempDir(), filepath.Join(t.TempDir(), "run")
	data := filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")
	if _, errOut, code := paperlens(t, "eval", "--home", home, "--data", data, "--model", "fake-model", "--base-url", srv.BaseURL(),
		"--mode", "agent", "--runs", "1", "--out", out); code != 0 {
		t.Fatalf("eval: %s", errOut)
	}
	base := startServe(t, out)
	_, list := httpGet(t, base+"/r/1/")
	qurl := questionShowing(t, base, list, `class="passage tool-call gold"`)
	if qurl == "" {
		t.Fatal("no question page shows a search_paper result holding gold evidence")
	}
	page := dumpDOM(t, qurl)
	checks := map[string]*regexp.Regexp{
		"the transcript":        regexp.MustCompile(`<h4>Transcript</h4>`),
		"the call count":        regexp.MustCompile(`<p class="tool-summary">1 tool call · not cut off</p>`),
		"the call":              regexp.MustCompile(`<span class="tool-name">search_paper</span><span class="status">ok</span>`),
		"its arguments":         regexp.MustCompile(`<pre class="mono tool-args">\{"query":"[^<]{20,}</pre>`),
		"gold in the result":    regexp.MustCompile(`<div class="passage tool-call gold">(?s:.)*?<div class="text pre tool-result">(?s:.)*?<mark class="gold"[^>]*>[^<]{20,}</mark>`),
		"the model's last turn": regexp.MustCompile(`I searched the paper\. Answer: A`),
	}
	for what, re := range checks {
		if !re.MatchString(page) {
			t.Errorf("question page in the browser lacks %s", what)
		}
	}
	shot := screenshot(t, qurl, "transcript.png")
	n := goldPixels(t, shot)
	t.Logf("%d pixels of the gold highlight", n)
	if n < 500 {
		t.Errorf("screenshot %s has %d pixels of the gold highlight: not visible", shot, n)
	}
}
