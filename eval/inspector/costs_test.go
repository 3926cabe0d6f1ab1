package inspector

import (
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/agent"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/model"
)

// The question page gives a tool mode's and self-route's tokens summed
// over all their model calls, and says over how many; each turn shows
// what was sent. A tool-mode record written before the turns' prompts
// were summed says its prompt tokens are the first turn's alone.
func TestQuestionPageSumsCalls(t *testing.T) {
	steps := []agent.Step{
		{Content: "Searching.", PromptTokens: 199, Usage: model.Usage{PromptTokens: 250, CompletionTokens: 20, TotalTokens: 270, ReasoningTokens: 12}},
		{Content: "Searching again.", PromptTokens: 1100, Usage: model.Usage{PromptTokens: 1180, CompletionTokens: 25, TotalTokens: 1205, ReasoningTokens: 15, CachedTokens: 200}},
		{Content: "Answer: A", Forced: true, PromptTokens: 1900, Usage: model.Usage{PromptTokens: 1708, CompletionTokens: 9, TotalTokens: 1717, ReasoningTokens: 4, CachedTokens: 1100}},
	}
	tr := agent.Transcript{Steps: steps, Answer: "Answer: A", ToolCalls: 2, CutOff: true}
	for _, s := range steps {
		tr.Usage = tr.Usage.Add(s.Usage)
		tr.PromptTokens += s.PromptTokens
	}
	old := tr
	old.PromptTokens = 0
	old.Steps = append([]agent.Step(nil), old.Steps...)
	for i := range old.Steps {
		old.Steps[i].PromptTokens = 0
	}
	rec := func(q, m string, tr *agent.Transcript, prompt int) run.Record {
		return run.Record{QuestionID: q, PaperID: "evil", Mode: m, Run: 1, Gold: "A", Extracted: "A", Correct: true,
			Output: "Answer: A", PromptTokens: prompt, Usage: tr.Usage, Transcript: tr}
	}
	route := run.Record{QuestionID: "q1", PaperID: "evil", Mode: "self-route", Run: 1, Gold: "A", Extracted: "A", Correct: true,
		Output: "Answer: A", PromptTokens: 1300, Usage: model.Usage{PromptTokens: 1350, CompletionTokens: 8, TotalTokens: 1358},
		Route: run.RouteFull, RouteCalls: []run.RouteCall{
			{Route: run.RouteRAG, PromptTokens: 400, Usage: model.Usage{PromptTokens: 420, CompletionTokens: 4, TotalTokens: 424}, Output: "Unanswerable.", Unanswerable: true},
			{Route: run.RouteFull, PromptTokens: 900, Usage: model.Usage{PromptTokens: 930, CompletionTokens: 4, TotalTokens: 934}, Output: "Answer: A"},
		}}
	srv := serveWith(t, []string{"agent", "self-route"}, []run.Record{
		rec("q1", "agent", &tr, tr.PromptTokens), route,
		rec("q3", "agent", &old, 199),
	})
	column := func(path, mode string) string {
		t.Helper()
		code, body, _ := get(t, srv, path)
		if code != 200 {
			t.Fatalf("GET %s = %d", path, code)
		}
		i := strings.Index(body, `data-mode="`+mode+`"`)
		if i < 0 {
			t.Fatalf("%s: no %s column", path, mode)
		}
		col := body[i:]
		if j := strings.Index(col[1:], `<div class="mode" data-mode=`); j >= 0 {
			col = col[:j+1]
		}
		return col
	}
	for _, c := range []struct {
		path, mode string
		want       []string
	}{
		{"/r/1/q/q1", "agent", []string{
			`<dd class="prompt-tokens">3199 <span class="muted">summed over 3 model calls</span>`,
			`prompt 3138 (1300 cached) · completion 54 (31 reasoning) <span class="muted">summed over 3 model calls</span>`,
			`<span>1900 tokens sent (cl100k)</span>`,
		}},
		{"/r/1/q/q1", "self-route", []string{
			`<dd class="prompt-tokens">1300 <span class="muted">summed over 2 model calls</span>`,
			`prompt 1350 · completion 8 <span class="muted">summed over 2 model calls</span>`,
		}},
		{"/r/1/q/q3", "agent", []string{
			`<dd class="prompt-tokens">199 <span class="muted">the first turn's alone (recorded before paperlens summed the turns)</span>`,
		}},
	} {
		col := column(c.path, c.mode)
		for _, w := range c.want {
			if !strings.Contains(col, w) {
				t.Errorf("%s %s column lacks %q:\n%s", c.path, c.mode, w, col)
			}
		}
	}
	// A mode of one call says nothing of a sum.
	if col := column("/r/1/q/q1", "full"); strings.Contains(col, "summed over") {
		t.Errorf("full column speaks of a sum:\n%s", col)
	}
}
