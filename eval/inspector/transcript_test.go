package inspector

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/agent"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/model"
)

// serveAgent serves the fixture with an agent-mode record for q1 added:
// its transcript searches the paper, gets back the gold sentence among
// markup a hostile paper or page could carry, and answers.
func serveAgent(t *testing.T, tr agent.Transcript) *httptest.Server {
	t.Helper()
	dir, _ := writeFixture(t, run.Config{})
	var cfg run.Config
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	must(t, err)
	must(t, json.Unmarshal(b, &cfg))
	cfg.Modes = append(cfg.Modes, "agent")
	b, _ = json.MarshalIndent(cfg, "", "  ")
	must(t, os.WriteFile(filepath.Join(dir, "config.json"), b, 0o644))
	rec := run.Record{QuestionID: "q1", PaperID: "evil", Mode: "agent", Run: 1, Model: "fixture-model", Paradigm: "base",
		QuestionType: "SA-MCQ", ScoreKind: "exact", Gold: "A", Extracted: "A", Correct: true, Method: "answer-colon",
		Output: tr.Answer, Transcript: &tr}
	line, _ := json.Marshal(rec)
	f, err := os.OpenFile(filepath.Join(dir, run.ResultsFile), os.O_APPEND|os.O_WRONLY, 0o644)
	must(t, err)
	_, err = f.Write(append(line, '\n'))
	must(t, err)
	must(t, f.Close())
	site, err := Load([]string{dir}, Options{})
	must(t, err)
	srv := httptest.NewServer(site.Handler())
	t.Cleanup(srv.Close)
	return srv
}

func agentTranscript(cutOff, budgetFull bool) agent.Transcript {
	return agent.Transcript{
		Steps: []agent.Step{
			{Content: "Let me <b>search</b> the paper.", Reasoning: "I should look for <script>alert('r')</script> the training data.",
				Usage: model.Usage{PromptTokens: 400, CompletionTokens: 30},
				Calls: []agent.Call{{ID: "c1", Name: "search_paper", Arguments: `{"query":"training <img src=x onerror=alert(6)> pairs"}`,
					Result: agent.Result{Status: "ok", Passages: []string{"evil#1"},
						Text: "[evil#1] <script>alert('tool')</script> We train the retriever on twelve thousand labelled question passage pairs. The reranker helps."}}}},
			{Content: "Answer: A", Forced: cutOff, Usage: model.Usage{PromptTokens: 600, CompletionTokens: 5}},
		},
		Answer: "Answer: A", ToolCalls: 1, CutOff: cutOff || budgetFull, BudgetFull: budgetFull,
	}
}

func TestQuestionPageTranscript(t *testing.T) {
	cases := []struct {
		name               string
		cutOff, budgetFull bool
		summary            string
	}{
		{"within the cap", false, false, "1 tool call · not cut off"},
		{"cut off", true, false, "1 tool call · <span class=\"bad\">cut off at the cap"},
		{"budget full", false, true, "1 tool call · <span class=\"bad\">cut off at the context budget"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := serveAgent(t, agentTranscript(c.cutOff, c.budgetFull))
			code, body, _ := get(t, srv, "/r/1/q/q1")
			if code != 200 {
				t.Fatalf("GET = %d", code)
			}
			i := strings.Index(body, `data-mode="agent"`)
			if i < 0 {
				t.Fatalf("no agent column:\n%s", body)
			}
			col := body[i:]
			for _, want := range []string{
				"<h4>Transcript</h4>",
				c.summary,
				`<span class="tool-name">search_paper</span><span class="status">ok</span>`,
				// Arguments, model text and reasoning shown as text.
				`{&#34;query&#34;:&#34;training &lt;img src=x onerror=alert(6)&gt; pairs&#34;}`,
				"Let me &lt;b&gt;search&lt;/b&gt; the paper.",
				"<summary>reasoning (",
				"&lt;script&gt;alert(&#39;r&#39;)&lt;/script&gt;",
				// The tool result escaped, with the gold sentence marked
				// as in a retrieved passage.
				"[evil#1] &lt;script&gt;alert(&#39;tool&#39;)&lt;/script&gt; ",
				`<mark class="gold" title="gold sentence 1">We train the retriever on twelve thousand labelled question passage pairs</mark>`,
				"holds gold evidence",
			} {
				if !strings.Contains(col, want) {
					t.Errorf("agent column lacks %q:\n%s", want, col)
				}
			}
			// The call comes before its result and after the turn that made it.
			if a, r := strings.Index(col, "Let me &lt;b&gt;"), strings.Index(col, `<mark class="gold"`); a < 0 || r < a {
				t.Errorf("turn and result out of order")
			}
			noActiveMarkup(t, "/r/1/q/q1", body)
		})
	}
}

// A mode without a transcript shows no transcript section.
func TestQuestionPageNoTranscript(t *testing.T) {
	srv, _ := serve(t, run.Config{})
	_, body, _ := get(t, srv, "/r/1/q/q1")
	if strings.Contains(body, "<h4>Transcript</h4>") {
		t.Error("transcript section shown for modes without tools")
	}
}
