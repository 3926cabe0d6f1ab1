package model

import (
	"context"
	"encoding/json"
	"fmt"
)

// CheckToolsPrompt is the message of CheckTools' call.
const CheckToolsPrompt = `Call the function ping with {"text": "OK"}. Do not answer in text.`

// CheckTools makes one small call with a single tool and tool_choice
// "auto", as the tool loop sends them, to learn before a tool mode starts
// whether the model and server do tool calling: base gives the model,
// sampling and headers (its messages, tools and tool choice are replaced).
// A server that refuses the tools fails with an error for which
// ToolsUnsupported holds (an HTTPError naming "tools" or "tool_choice");
// one that answers in text instead of calling, with a ToolsIgnoredError. A
// reply cut off by the token limit before it called proves nothing and is
// not an error. Other errors (the key, the model name) are returned as
// they come.
func CheckTools(ctx context.Context, chat Chat, base Request) error {
	req := base
	req.Messages = []Message{{Role: "user", Content: CheckToolsPrompt}}
	req.Tools = []ToolSpec{{Type: "function", Function: FunctionSpec{
		Name:        "ping",
		Description: "Echo a text back. Call it whenever you are asked to.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
	}}}
	req.ToolChoice = ToolChoiceAuto
	if req.MaxTokens == 0 || req.MaxTokens > 512 {
		// Enough for a call, and for a short thought before it.
		req.MaxTokens = 512
	}
	resp, err := chat.Complete(ctx, req)
	if err != nil {
		if ToolsUnsupported(err) {
			return fmt.Errorf("model %s does not support tool calling: %w", req.Model, err)
		}
		return err
	}
	if len(resp.ToolCalls) > 0 || resp.FinishReason == "length" {
		return nil
	}
	content := resp.Content
	if len(content) > 80 {
		content = content[:80] + "…"
	}
	return &ToolsIgnoredError{Model: req.Model, Content: content}
}
