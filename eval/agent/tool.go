// Package agent runs a model that calls tools: the OpenAI tools /
// tool_calls / tool-message loop, capped at a number of tool calls, with a
// last turn that forces an answer, every turn and every tool result
// recorded in a transcript and cached for replay. It serves the tool modes
// of issue 15 (agent, full+agent, tool-search, tool-python), which
// reproduce LPFQA's Search and code-interpreter settings (section 4.3,
// Table 4) and let a model search its paper itself.
package agent

import (
	"context"
	"encoding/json"
)

// The tool names and their arguments are fixed: scripts, transcripts and
// the report use them.
const (
	ToolSearchPaper = "search_paper" // {"query": string}: top -k passages of the question's paper
	ToolWebSearch   = "web_search"   // {"query": string}: results of --web-provider (title, url, snippet)
	ToolOpenPage    = "open_page"    // {"url": string}: the fetched page's main text, cut to --web-tokens
	ToolPython      = "python"       // {"code": string}: stdout, stderr and the last expression
)

// Tool is one function a model may call. A Tool is made per question (its
// state, such as a Python session, lives for that question) and closed
// when the question is done.
type Tool interface {
	// Name is the function name the model sees (one of the constants).
	Name() string
	// Description and Parameters (a JSON Schema object) are sent to the
	// model in the request's "tools".
	Description() string
	Parameters() json.RawMessage
	// Call runs the tool on the model's arguments. A problem the model
	// caused (bad arguments, code that fails, a page that cannot be
	// fetched, a sandbox limit) is a Result with Status other than "ok"
	// and a Text that says what happened, so the model can read it and the
	// run goes on; an error is reserved for what should stop the question
	// (the context cancelled, the sandbox missing).
	Call(ctx context.Context, args json.RawMessage) (Result, error)
	// Close releases what the tool holds for its question.
	Close() error
}

// Result is what a tool call returned.
type Result struct {
	Status string `json:"status"` // "ok", or why not: "bad arguments", "error", "timeout", "killed", "refused", "too long"
	Text   string `json:"text"`   // what the model is sent
	// Passages are the ids of the passages the result showed the model
	// (search_paper), so evidence recall can count every passage it saw.
	Passages []string `json:"passages,omitempty"`
	// URLs are the pages a web_search listed or open_page opened.
	URLs []string `json:"urls,omitempty"`
}
