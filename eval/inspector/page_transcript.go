package inspector

import (
	"html/template"

	"github.com/paperlens/paperlens/eval/agent"
)

// transcriptView is a tool mode's exchange as the question page shows
// it: each model turn and the calls it made, with the gold evidence
// marked in what the tools returned.
type transcriptView struct {
	Steps      []stepView
	ToolCalls  int
	CutOff     bool
	BudgetFull bool
}

type stepView struct {
	N                int
	Content          string
	Reasoning        string
	Forced, Cached   bool
	Calls            []callView
	PromptTokens     int // the server's usage
	CompletionTokens int
	Sent             int // paperlens's cl100k count of the prompt sent (0 in older records)
}

type callView struct {
	Name, Arguments string
	Status          string
	Text            template.HTML // escaped, gold marked
	HasGold         bool
	Cached, Skipped bool
}

// transcript builds the view of a record's transcript; nil when the
// record has none (not a tool mode).
func (c *questionCtx) transcript(tr *agent.Transcript) *transcriptView {
	if tr == nil {
		return nil
	}
	v := &transcriptView{ToolCalls: tr.ToolCalls, CutOff: tr.CutOff, BudgetFull: tr.BudgetFull}
	for i, s := range tr.Steps {
		sv := stepView{N: i + 1, Content: s.Content, Reasoning: s.Reasoning, Forced: s.Forced, Cached: s.Cached,
			PromptTokens: s.Usage.PromptTokens, CompletionTokens: s.Usage.CompletionTokens, Sent: s.PromptTokens}
		for _, cl := range s.Calls {
			// Tool text is untrusted (web pages, paper text, program
			// output): highlight escapes it like passage text.
			sp := c.gold.Spans(cl.Result.Text)
			sv.Calls = append(sv.Calls, callView{Name: cl.Name, Arguments: cl.Arguments, Status: cl.Result.Status,
				Text: highlight(cl.Result.Text, sp, goldSentences), HasGold: len(sp) > 0, Cached: cl.Cached, Skipped: cl.Skipped})
		}
		v.Steps = append(v.Steps, sv)
	}
	return v
}
