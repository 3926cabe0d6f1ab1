package model

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"
)

// Message is one chat turn. Role is "system", "user", "assistant" or
// "tool".
//
// An assistant turn that calls tools carries ToolCalls (its Content is
// often empty, and is then sent as null, as OpenAI sends it); the answer
// to each call is a "tool" turn with the call's id in ToolCallID. Name is
// the optional participant or function name some servers want on tool
// turns. The fields added for tools are left out of the JSON when unset,
// so a plain message encodes, and enters the cache key, as it always has.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Name       string     `json:"name,omitempty"`
}

// MarshalJSON writes content as null on an assistant turn that only calls
// tools; every other message is encoded field by field as declared.
func (m Message) MarshalJSON() ([]byte, error) {
	type plain Message
	if m.Content != "" || len(m.ToolCalls) == 0 {
		return json.Marshal(plain(m))
	}
	return json.Marshal(struct {
		Role       string     `json:"role"`
		Content    *string    `json:"content"`
		ToolCalls  []ToolCall `json:"tool_calls"`
		ToolCallID string     `json:"tool_call_id,omitempty"`
		Name       string     `json:"name,omitempty"`
	}{m.Role, nil, m.ToolCalls, m.ToolCallID, m.Name})
}

// ToolCall is one function call the model asked for: Type is "function",
// Function.Arguments the arguments as the model wrote them, a JSON
// document in a string (which may be invalid: the model wrote it).
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall is the function part of a ToolCall.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// UnmarshalJSON also takes arguments sent as a JSON object rather than a
// string holding one, as some OpenAI-compatible servers send them.
func (f *FunctionCall) UnmarshalJSON(b []byte) error {
	var w struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	f.Name, f.Arguments = w.Name, ""
	a := bytes.TrimSpace(w.Arguments)
	switch {
	case len(a) == 0 || string(a) == "null":
	case a[0] == '"':
		return json.Unmarshal(a, &f.Arguments)
	default:
		f.Arguments = string(a)
	}
	return nil
}

// ToolSpec is one entry of a request's "tools": Type "function" and the
// function's name, description and parameters (a JSON Schema object).
type ToolSpec struct {
	Type     string       `json:"type"`
	Function FunctionSpec `json:"function"`
}

// FunctionSpec describes a function the model may call.
type FunctionSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// The values of Request.ToolChoice.
const (
	ToolChoiceAuto     = "auto"     // the model decides
	ToolChoiceNone     = "none"     // the model must answer in text
	ToolChoiceRequired = "required" // the model must call a tool
)

// Request is one chat completion to make. Nil pointers, a zero MaxTokens
// and empty strings leave the parameter out, so the server's default
// applies. Every field but Header values is part of the cache key.
type Request struct {
	Model       string
	Messages    []Message
	Temperature *float64
	TopP        *float64
	MaxTokens   int
	// MaxTokensParam is the JSON name MaxTokens is sent under for this
	// request: "max_tokens" or "max_completion_tokens" (o-series and GPT-5
	// refuse max_tokens). Empty means the client's Options.MaxTokensParam.
	MaxTokensParam string
	// ReasoningEffort is sent as "reasoning_effort" (minimal, low, medium,
	// high) when set.
	ReasoningEffort string
	Seed            *int64
	// ExtraBody is a JSON object whose members are merged into the request
	// body, over the fields above: {"chat_template_kwargs":
	// {"enable_thinking": false}} for Qwen3 on vLLM, {"thinking": {…}} for
	// gateways that take it. See CheckExtraBody.
	ExtraBody json.RawMessage
	// Header holds extra HTTP headers (gateway routing, organisation). Only
	// their names enter the cache key; values are sent and never stored,
	// and are removed from errors like the API key.
	Header http.Header
	// Tools are the functions the model may call, sent as "tools" when
	// there are any. ToolChoice is sent as "tool_choice" when set: "auto",
	// "none" or "required" (see the constants). Both enter the cache key
	// only when set.
	Tools      []ToolSpec
	ToolChoice string
	// Run is the repeat index of a sampled question. It is not sent; it is
	// part of the cache key, so that runs 0, 1 and 2 of the same prompt at
	// temperature 0.7 are three samples, not one answer served three times.
	Run int
	// Scope separates calls that send the same prompt for different
	// purposes, e.g. the evaluation mode: two modes whose prompts happen to
	// be byte-identical are still two samples. It is not sent; it enters
	// the cache key only when set.
	Scope string
}

// Usage is the server's token accounting. ReasoningTokens is the part of
// CompletionTokens spent thinking (usage.completion_tokens_details), where
// the server reports it.
//
// CachedTokens is the part of PromptTokens the provider served from its
// prompt cache (usage.prompt_tokens_details.cached_tokens), billed at a
// lower price by most vendors.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	ReasoningTokens  int `json:"reasoning_tokens"`
	CachedTokens     int `json:"cached_tokens"`
}

// Add sums two usages, for calls that take several turns.
func (u Usage) Add(v Usage) Usage {
	return Usage{u.PromptTokens + v.PromptTokens, u.CompletionTokens + v.CompletionTokens,
		u.TotalTokens + v.TotalTokens, u.ReasoningTokens + v.ReasoningTokens, u.CachedTokens + v.CachedTokens}
}

// Response is a completed chat call.
type Response struct {
	Content string
	// Reasoning is the separate chain of thought that reasoning servers
	// return beside the answer: "reasoning_content" (DeepSeek, vLLM, Qwen)
	// or "reasoning" (newer vLLM, Ollama, OpenRouter), or an inline
	// "<think>…</think>" block that the client moved out of Content (see
	// SplitThink). Empty when the model did not think aloud.
	Reasoning    string
	Usage        Usage
	FinishReason string // "stop", "length", "tool_calls", "content_filter", …
	// ToolCalls are the functions the model asked to call, in its order;
	// FinishReason is then usually "tool_calls". Empty for a text answer.
	ToolCalls []ToolCall
	// Cached reports an answer served from the disk cache (WithCache)
	// without calling the server.
	Cached bool
	// Latency is the duration of the HTTP call that succeeded, not of the
	// failed attempts and waits before it; 0 when Cached.
	Latency time.Duration
	// Attempts is how many calls this answer took (WithRetry sets it; the
	// bare client says 1); 0 when Cached.
	Attempts int
	// Cut reports a reply longer than Options.MaxReplyBytes: Content and
	// Reasoning are what came before the cut, and FinishReason, Usage and
	// ToolCalls are whatever came before it too (often nothing). The
	// cache keeps it, so an answer served from the cache still says so.
	Cut bool
}

// Chat completes chat requests. Implementations must be safe for
// concurrent use. The decorators in this package (WithRetry, WithRateLimit,
// WithConcurrency, WithCache) wrap one Chat in another, so a caller only
// ever sees this interface.
type Chat interface {
	Complete(ctx context.Context, req Request) (Response, error)
}

// ChatFunc adapts a function to Chat, for fakes and small adapters.
type ChatFunc func(ctx context.Context, req Request) (Response, error)

// Complete calls f.
func (f ChatFunc) Complete(ctx context.Context, req Request) (Response, error) { return f(ctx, req) }

// validate rejects requests no server can answer, before anything is sent
// or rate-limited.
func validate(req Request) error {
	if req.Model == "" {
		return errors.New("model: Request.Model is empty")
	}
	if len(req.Messages) == 0 {
		return errors.New("model: Request.Messages is empty")
	}
	switch req.MaxTokensParam {
	case "", "max_tokens", "max_completion_tokens":
	default:
		return errors.New("model: Request.MaxTokensParam must be max_tokens or max_completion_tokens")
	}
	switch req.ToolChoice {
	case "", ToolChoiceAuto, ToolChoiceNone, ToolChoiceRequired:
	default:
		return errors.New("model: Request.ToolChoice must be auto, none or required")
	}
	for _, t := range req.Tools {
		if t.Function.Name == "" {
			return errors.New("model: a tool in Request.Tools has no function name")
		}
	}
	return CheckExtraBody(req.ExtraBody)
}

// CheckExtraBody reports whether raw is usable as Request.ExtraBody: empty,
// or a JSON object that does not replace the model or the messages (which
// would make the cache key lie about what was asked).
func CheckExtraBody(raw json.RawMessage) error {
	if len(raw) == 0 {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return errors.New(`extra body must be a JSON object, e.g. {"chat_template_kwargs":{"enable_thinking":false}}`)
	}
	for _, k := range []string{"model", "messages", "stream"} {
		if _, ok := m[k]; ok {
			return errors.New("extra body may not set \"" + k + "\": paperlens sets it")
		}
	}
	return nil
}

// SplitThink moves a chain of thought written inline, as Qwen3, QwQ and
// DeepSeek-R1 distills do when the server does not parse it out, from the
// answer to the reasoning: "<think>R</think>A" gives ("A", "R"). Templates
// that open the block in the prompt leave only "R</think>A"; a reply cut
// off while thinking leaves "<think>R" and no answer. Text without a think
// block is returned unchanged.
func SplitThink(content string) (answer, reasoning string) {
	t := strings.TrimLeft(content, " \t\r\n")
	open := ""
	for _, tag := range []string{"<think>", "<thinking>"} {
		if strings.HasPrefix(t, tag) {
			open = tag
			t = t[len(tag):]
			break
		}
	}
	for _, end := range []string{"</think>", "</thinking>"} {
		if i := strings.LastIndex(t, end); i >= 0 {
			return strings.TrimSpace(t[i+len(end):]), strings.TrimSpace(t[:i])
		}
	}
	if open != "" {
		return "", strings.TrimSpace(t) // cut off mid-thought
	}
	return content, ""
}
