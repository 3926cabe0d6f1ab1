package model

import (
	"context"
	"errors"
	"time"
)

// Message is one chat turn. Role is "system", "user" or "assistant".
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is one chat completion to make. Nil pointers and a zero MaxTokens
// leave the parameter out, so the server's default applies.
type Request struct {
	Model       string
	Messages    []Message
	Temperature *float64
	TopP        *float64
	MaxTokens   int
	Seed        *int64
	// Run is the repeat index of a sampled question. It is not sent; it is
	// part of the cache key, so that runs 0, 1 and 2 of the same prompt at
	// temperature 0.7 are three samples, not one answer served three times.
	Run int
}

// Usage is the server's token accounting. ReasoningTokens is the part of
// CompletionTokens spent thinking (usage.completion_tokens_details), where
// the server reports it.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	ReasoningTokens  int `json:"reasoning_tokens"`
}

// Response is a completed chat call.
type Response struct {
	Content string
	// Reasoning is the separate chain of thought that reasoning servers
	// return beside the answer: "reasoning_content" (DeepSeek, vLLM, Qwen)
	// or "reasoning" (newer vLLM, Ollama, OpenRouter). Empty when the server
	// sends none; a model that thinks inline leaves "<think>…</think>" in
	// Content.
	Reasoning    string
	Usage        Usage
	FinishReason string // "stop", "length", "content_filter", …
	// Cached reports an answer served from the disk cache (WithCache)
	// without calling the server.
	Cached bool
	// Latency is the duration of the HTTP call that succeeded, not of the
	// failed attempts and waits before it; 0 when Cached.
	Latency time.Duration
	// Attempts is how many calls this answer took (WithRetry sets it; the
	// bare client says 1); 0 when Cached.
	Attempts int
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
	return nil
}
