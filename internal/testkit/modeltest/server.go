// Package modeltest runs a loopback server speaking the OpenAI
// /v1/chat/completions protocol, for tests of model clients and of
// everything built on them (evaluation runs, graders, the CLI) without a
// network, a key or a GPU.
//
//	srv := modeltest.NewServer(t, modeltest.Config{
//		Answer: func(r modeltest.Request) (string, string) { return "B", "" },
//		Faults: modeltest.Faults{Seed: 1, RateLimit: 0.05, Stall: 0.05},
//	})
//	client, _ := model.NewOpenAI(model.Options{BaseURL: srv.BaseURL()})
//
// It answers a POST of {"model", "messages", "temperature"?, "top_p"?,
// "max_tokens"? or "max_completion_tokens"?, "seed"?, "stream"} with
// {"id", "object": "chat.completion", "created", "model", "choices":
// [{"index": 0, "message": {"role": "assistant", "content",
// "reasoning_content"?}, "finish_reason": "stop"}], "usage": {…,
// "completion_tokens_details": {"reasoning_tokens"}}}, as OpenAI, vLLM and
// DeepSeek do. Streaming is not implemented.
//
// Faults are injected per call by fraction, deterministically: whether the
// k-th call carrying a given prompt fails, and how, is a function of the
// seed, the prompt and k, so a test sees the same faults whatever order its
// workers reach the server in.
//
// This package does not import paperlens/model, so model's own tests can
// use it.
package modeltest

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Message is one chat turn as received.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	// ContentNull is true when "content" was null or absent, as OpenAI
	// sends it on an assistant turn that only calls tools.
	ContentNull bool       `json:"-"`
	ToolCalls   []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID  string     `json:"tool_call_id,omitempty"`
	Name        string     `json:"name,omitempty"`
}

// ToolCall is one function call of an assistant message, in OpenAI's
// shape: {"id", "type": "function", "function": {"name", "arguments"}},
// arguments being a JSON document in a string.
type ToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// Call is a ToolCall to function name with arguments args (a JSON object).
func Call(id, name, args string) ToolCall {
	c := ToolCall{ID: id, Type: "function"}
	c.Function.Name, c.Function.Arguments = name, args
	return c
}

// Request is what the server received.
type Request struct {
	N                   int // arrival number, from 1
	Attempt             int // arrival number among calls with the same prompt, from 1
	Model               string
	Messages            []Message
	Temperature, TopP   *float64
	MaxTokens           int // "max_tokens", 0 when absent
	MaxCompletionTokens int // "max_completion_tokens", 0 when absent
	Seed                *int64
	ReasoningEffort     string // "reasoning_effort", "" when absent
	Stream              bool
	Authorization       string // the raw header
	Header              http.Header
	// Tools is "tools" as sent (nil when absent), ToolChoice is
	// "tool_choice" as sent ("" when absent; the JSON text when it is an
	// object).
	Tools      []json.RawMessage
	ToolChoice string
	// Body is every top-level member of the JSON body as sent, for fields
	// the server does not model (chat_template_kwargs, thinking, …).
	Body map[string]json.RawMessage
}

// Prompt is PromptKey(r.Messages).
func (r Request) Prompt() string { return PromptKey(r.Messages) }

// PromptKey is the key Served counts by: every message's role and content.
func PromptKey(msgs []Message) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString(m.Role)
		b.WriteString(": ")
		b.WriteString(m.Content)
		b.WriteString("\n")
	}
	return b.String()
}

// Kind is a kind of injected fault.
type Kind int

// The faults the server can inject.
const (
	OK           Kind = iota // no fault
	RateLimited              // 429 with Retry-After (Faults.RetryAfter)
	ServerError              // 500 with an OpenAI-style error body
	CutOff                   // 200, half the JSON, then the connection is dropped
	BadJSON                  // 200 whose body is half the JSON, cleanly ended
	Stall                    // nothing until the stall ends or the client hangs up
	EmptyChoices             // 200 with "choices": []
	Status                   // Fault.Status with Fault.Body, e.g. a 401 or 400
	// StallBody is 200, the headers and half the JSON, then nothing until
	// the stall ends (then the rest) or the client hangs up: a reply that
	// stalls mid-body.
	StallBody
)

var kindNames = [...]string{"ok", "429", "500", "cut-off", "bad-json", "stall", "empty-choices", "status", "stall-body"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Fault is one injected answer.
type Fault struct {
	Kind   Kind
	Status int               // for Kind Status (0 means 500)
	Body   string            // for Kind Status; empty means an OpenAI-style error
	Header map[string]string // extra headers, e.g. Retry-After
	Stall  time.Duration     // for Kind Stall and StallBody; 0 means Faults.StallFor
}

// Faults inject failures into a fraction of calls. The fractions add up to
// at most 1.
type Faults struct {
	Seed                          uint64
	RateLimit, ServerError        float64
	CutOff, BadJSON, Stall, Empty float64
	// RetryAfter is the Retry-After header of injected 429s ("0" when
	// empty; "-" sends none).
	RetryAfter string
	// StallFor is how long a stall lasts unless the client hangs up first
	// (DefaultStall). The handler returns as soon as the client gives up,
	// so long stalls cost a test only its client's timeout.
	StallFor time.Duration
}

// DefaultStall is Faults.StallFor when zero.
const DefaultStall = 30 * time.Second

// Config is the server's behaviour. Fields may be changed while it runs
// with Server.Update.
type Config struct {
	// Answer gives the content and reasoning for a request; nil answers
	// "answer: " + the last message's content.
	Answer func(Request) (content, reasoning string)
	// ReasoningField names the reasoning in the reply: "reasoning_content"
	// (default: DeepSeek, vLLM, Qwen) or "reasoning" (newer vLLM, Ollama).
	ReasoningField string
	// Latency is waited before every answer, faults included.
	Latency time.Duration
	// Faults are injected by fraction.
	Faults Faults
	// Inject, when set, is asked first about every call; a non-nil Fault
	// is served (Kind OK forces a good answer), nil falls back to Faults.
	Inject func(Request) *Fault
	// Key, when set, makes calls without "Authorization: Bearer <Key>" fail
	// with 401, quoting what was sent (worse than OpenAI, which masks it).
	Key string
	// EchoHeaders makes error bodies (401, 429, 500, Status) repeat every
	// request header, Authorization included, as misconfigured proxies do:
	// a client must keep the key out of its errors anyway.
	EchoHeaders bool
	// ReasoningRules makes the server refuse what OpenAI's o-series and
	// GPT-5 models refuse, with their 400 bodies: "max_tokens" (they take
	// only "max_completion_tokens"), and "temperature" or "top_p" other
	// than 1.
	ReasoningRules bool
	// ReasoningTokens, when set, is the usage's reasoning token count for a
	// request (a model that thinks without showing it, as o-series do);
	// nil counts the reasoning text's tokens.
	ReasoningTokens func(Request) int
	// CachedTokens, when set, is the usage's
	// prompt_tokens_details.cached_tokens for a request.
	CachedTokens func(Request) int
	// FinishReason, when set, is the reply's finish_reason ("length" for a
	// reply cut by the token limit); nil says "stop".
	FinishReason func(Request) string
	// ToolCalls, when set, is asked about every request; calls it returns
	// are the reply's "tool_calls", with content null (unless Answer gives
	// some) and finish_reason "tool_calls", as OpenAI and vLLM's tool
	// parsers answer. Nil or an empty list answers with text.
	ToolCalls func(Request) []ToolCall
	// NoTools makes the server refuse a request carrying "tools" or
	// "tool_choice" with a 400 naming the parameter, as OpenAI-compatible
	// servers without tool support do; IgnoreTools instead answers such a
	// request with text, as servers that drop unknown fields do.
	NoTools, IgnoreTools bool
}

// Server is a loopback chat completions server. It is safe for concurrent
// use.
type Server struct {
	*httptest.Server

	closed    chan struct{}
	closeOnce sync.Once

	mu        sync.Mutex
	cfg       Config
	n         int
	reqs      []Request
	attempts  map[string]int
	served    map[string]int
	completed int
	faulted   map[Kind]int
}

// NewServer starts a server on 127.0.0.1 and closes it when the test ends.
func NewServer(tb testing.TB, cfg Config) *Server {
	s := Start(cfg)
	tb.Cleanup(s.Close)
	return s
}

// Start starts a server on 127.0.0.1 that the caller must Close, for
// examples and programs without a testing.TB.
func Start(cfg Config) *Server {
	s := &Server{cfg: cfg, closed: make(chan struct{}),
		attempts: map[string]int{}, served: map[string]int{}, faulted: map[Kind]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// BaseURL is the API root to give clients: URL + "/v1".
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Close ends stalls and latencies still running, then shuts the server
// down.
func (s *Server) Close() {
	s.closeOnce.Do(func() { close(s.closed) })
	s.Server.Close()
}

// Update changes the configuration under the server's lock.
func (s *Server) Update(f func(*Config)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(&s.cfg)
}

// Requests returns a copy of every request received, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Count is the number of requests received.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// Completed is the number of good answers written in full.
func (s *Server) Completed() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.completed
}

// Served returns, per PromptKey, how many good answers were written in
// full: what a provider would have billed as completed calls.
func (s *Server) Served() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.served)
}

// Faulted returns how many faults of each kind were injected.
func (s *Server) Faulted() map[Kind]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.faulted)
}

type wireRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCalls  []ToolCall      `json:"tool_calls"`
		ToolCallID string          `json:"tool_call_id"`
		Name       string          `json:"name"`
	} `json:"messages"`
	Tools               []json.RawMessage `json:"tools"`
	ToolChoice          json.RawMessage   `json:"tool_choice"`
	Temperature         *float64          `json:"temperature"`
	TopP                *float64          `json:"top_p"`
	MaxTokens           int               `json:"max_tokens"`
	MaxCompletionTokens int               `json:"max_completion_tokens"`
	Seed                *int64            `json:"seed"`
	ReasoningEffort     string            `json:"reasoning_effort"`
	Stream              bool              `json:"stream"`
}

// serve answers one call. The stages: route and parse the request
// (readRequest), record it, wait out the latency, refuse what the
// configuration refuses (refuse), draw the fault (drawFault) and serve the
// ones without a reply (failEarly), then build the reply (reply) and write
// it, whole or damaged (writeReply).
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || (r.URL.Path != "/v1/chat/completions" && r.URL.Path != "/chat/completions") {
		writeError(w, http.StatusNotFound, "not_found", "no route "+r.Method+" "+r.URL.Path, nil)
		return
	}
	req, err := readRequest(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "bad JSON: "+err.Error(), nil)
		return
	}
	prompt := req.Prompt()
	cfg := s.record(&req, prompt)

	var echo http.Header
	if cfg.EchoHeaders {
		echo = r.Header
	}
	if !s.wait(r, cfg.Latency) {
		return
	}
	if s.refuse(w, cfg, req, echo) {
		return
	}
	f := s.drawFault(w, cfg, req, prompt)
	if s.failEarly(w, r, cfg, f, echo) {
		return
	}
	s.writeReply(w, r, cfg, f, reply(cfg, req, f), prompt)
}

// readRequest reads the body to its end and parses it. Reading it all
// matters: only then does net/http watch the connection, and cancel
// r.Context() when the client hangs up mid-stall.
func readRequest(r *http.Request) (Request, error) {
	raw, err := io.ReadAll(r.Body)
	var body wireRequest
	var members map[string]json.RawMessage
	if err == nil {
		if err = json.Unmarshal(raw, &body); err == nil {
			err = json.Unmarshal(raw, &members)
		}
	}
	if err != nil {
		return Request{}, err
	}
	req := Request{Model: body.Model, Temperature: body.Temperature, TopP: body.TopP, MaxTokens: body.MaxTokens,
		MaxCompletionTokens: body.MaxCompletionTokens, Seed: body.Seed, ReasoningEffort: body.ReasoningEffort,
		Stream: body.Stream, Authorization: r.Header.Get("Authorization"), Header: r.Header.Clone(), Body: members}
	for _, m := range body.Messages {
		c := bytes.TrimSpace(m.Content)
		req.Messages = append(req.Messages, Message{Role: m.Role, Content: contentText(m.Content),
			ContentNull: len(c) == 0 || string(c) == "null",
			ToolCalls:   m.ToolCalls, ToolCallID: m.ToolCallID, Name: m.Name})
	}
	req.Tools = body.Tools
	if len(body.ToolChoice) > 0 {
		var tc string
		if json.Unmarshal(body.ToolChoice, &tc) != nil {
			tc = string(body.ToolChoice)
		}
		req.ToolChoice = tc
	}
	return req, nil
}

// record numbers the request (overall and per prompt), keeps it, and
// returns the configuration to answer it with, both under the lock.
func (s *Server) record(req *Request, prompt string) Config {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	req.N = s.n
	s.attempts[prompt]++
	req.Attempt = s.attempts[prompt]
	s.reqs = append(s.reqs, *req)
	return s.cfg
}

// refuse answers what the configuration refuses before any fault: a wrong
// key (401), a request without model or messages (400), tools on a server
// without them, and what reasoning models refuse (400s naming the
// parameter). It reports whether it answered.
func (s *Server) refuse(w http.ResponseWriter, cfg Config, req Request, echo http.Header) bool {
	if cfg.Key != "" && req.Authorization != "Bearer "+cfg.Key {
		s.count(Status)
		writeError(w, http.StatusUnauthorized, "invalid_api_key",
			"Incorrect API key provided: "+strings.TrimPrefix(req.Authorization, "Bearer "), echo)
		return true
	}
	if req.Model == "" || len(req.Messages) == 0 {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "model and messages are required", nil)
		return true
	}
	if cfg.NoTools && (req.Body["tools"] != nil || req.Body["tool_choice"] != nil) {
		param := "tools"
		if req.Body["tools"] == nil {
			param = "tool_choice"
		}
		s.count(Status)
		writeParamError(w, "Unsupported parameter: '"+param+"' is not supported with this model.", param, "unsupported_parameter")
		return true
	}
	if cfg.ReasoningRules {
		if msg, param, code := refused(req); msg != "" {
			s.count(Status)
			writeParamError(w, msg, param, code)
			return true
		}
	}
	return false
}

// drawFault asks Inject, then the fractions, for this call's fault; counts
// it and sets its extra headers.
func (s *Server) drawFault(w http.ResponseWriter, cfg Config, req Request, prompt string) *Fault {
	var f *Fault
	if cfg.Inject != nil {
		f = cfg.Inject(req)
	}
	if f == nil {
		f = pick(cfg.Faults, prompt, req.Attempt)
	}
	if f.Kind != OK {
		s.count(f.Kind)
	}
	for k, v := range f.Header {
		w.Header().Set(k, v)
	}
	return f
}

// failEarly serves the faults answered without a reply (429, 500, a
// status) and waits out a stall. It reports whether the call is over: a
// stall that ends before the client gives up is just slow, and is
// answered.
func (s *Server) failEarly(w http.ResponseWriter, r *http.Request, cfg Config, f *Fault, echo http.Header) bool {
	switch f.Kind {
	case RateLimited:
		ra := cfg.Faults.RetryAfter
		if ra == "" {
			ra = "0"
		}
		if ra != "-" && w.Header().Get("Retry-After") == "" {
			w.Header().Set("Retry-After", ra)
		}
		writeError(w, http.StatusTooManyRequests, "rate_limit_exceeded", "Rate limit reached for requests", echo)
		return true
	case ServerError:
		writeError(w, http.StatusInternalServerError, "server_error", "The server had an error while processing your request", echo)
		return true
	case Status:
		code := f.Status
		if code == 0 {
			code = http.StatusInternalServerError
		}
		if f.Body != "" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			w.Write([]byte(f.Body))
			return true
		}
		writeError(w, code, "error", http.StatusText(code), echo)
		return true
	case Stall:
		return !s.wait(r, stallFor(cfg, f))
	}
	return false
}

// stallFor is how long fault f stalls: its own duration, else the
// configuration's, else DefaultStall.
func stallFor(cfg Config, f *Fault) time.Duration {
	d := f.Stall
	if d == 0 {
		d = cfg.Faults.StallFor
	}
	if d == 0 {
		d = DefaultStall
	}
	return d
}

// reply builds the JSON reply: the answer, tool calls when the
// configuration makes some (content null unless Answer gives some), the
// finish reason, and no choices for an EmptyChoices fault.
func reply(cfg Config, req Request, f *Fault) []byte {
	content, reasoning := answer(cfg, req)
	out := completion(cfg, req, content, reasoning)
	if cfg.ToolCalls != nil && !cfg.IgnoreTools {
		if calls := cfg.ToolCalls(req); len(calls) > 0 {
			ch := out["choices"].([]any)[0].(map[string]any)
			msg := ch["message"].(map[string]any)
			msg["tool_calls"] = calls
			if content == "" || cfg.Answer == nil {
				msg["content"] = nil
			}
			ch["finish_reason"] = "tool_calls"
		}
	}
	if cfg.FinishReason != nil {
		out["choices"].([]any)[0].(map[string]any)["finish_reason"] = cfg.FinishReason(req)
	}
	if f.Kind == EmptyChoices {
		out["choices"] = []any{}
	}
	js, _ := json.Marshal(out)
	return js
}

// writeReply writes the reply js as fault f shapes it: cut off, stalled
// mid-body, half of it (bad JSON), or whole. A good answer written in full
// counts as served.
func (s *Server) writeReply(w http.ResponseWriter, r *http.Request, cfg Config, f *Fault, js []byte, prompt string) {
	w.Header().Set("Content-Type", "application/json")
	switch f.Kind {
	case CutOff:
		// Promise the whole body, send half, and drop the connection: the
		// client's read fails with an unexpected EOF.
		writeHalf(w, js)
		panic(http.ErrAbortHandler)
	case StallBody:
		writeHalf(w, js)
		if !s.wait(r, stallFor(cfg, f)) {
			return
		}
		w.Write(js[len(js)/2:])
		return
	case BadJSON:
		js = js[:len(js)/2]
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(js)))
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(js); err != nil {
		return
	}
	if f.Kind == OK || f.Kind == Stall {
		s.mu.Lock()
		s.served[prompt]++
		s.completed++
		s.mu.Unlock()
	}
}

// writeHalf promises the whole of js, writes its first half and flushes
// it to the client.
func writeHalf(w http.ResponseWriter, js []byte) {
	w.Header().Set("Content-Length", strconv.Itoa(len(js)))
	w.WriteHeader(http.StatusOK)
	w.Write(js[:len(js)/2])
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
}

func (s *Server) count(k Kind) {
	s.mu.Lock()
	s.faulted[k]++
	s.mu.Unlock()
}

// wait sleeps d unless the client hangs up or the server closes first; it
// reports whether to go on answering.
func (s *Server) wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
	case <-s.closed:
	}
	return false
}

// pick draws the fault for the attempt-th call with prompt.
func pick(f Faults, prompt string, attempt int) *Fault {
	h := sha256.New()
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], f.Seed)
	binary.LittleEndian.PutUint64(b[8:], uint64(attempt))
	h.Write(b[:])
	h.Write([]byte(prompt))
	u := float64(binary.LittleEndian.Uint64(h.Sum(nil))>>11) / (1 << 53)
	for _, c := range []struct {
		p float64
		k Kind
	}{{f.RateLimit, RateLimited}, {f.ServerError, ServerError}, {f.CutOff, CutOff},
		{f.BadJSON, BadJSON}, {f.Stall, Stall}, {f.Empty, EmptyChoices}} {
		if u < c.p {
			return &Fault{Kind: c.k}
		}
		u -= c.p
	}
	return &Fault{Kind: OK}
}

func answer(cfg Config, req Request) (string, string) {
	if cfg.Answer != nil {
		return cfg.Answer(req)
	}
	return "answer: " + req.Messages[len(req.Messages)-1].Content, ""
}

// Tokens is the fake's token count for text: about 4 bytes a token.
func Tokens(text string) int {
	if text == "" {
		return 0
	}
	return len(text)/4 + 1
}

func completion(cfg Config, req Request, content, reasoning string) map[string]any {
	msg := map[string]any{"role": "assistant", "content": content}
	if reasoning != "" {
		field := cfg.ReasoningField
		if field == "" {
			field = "reasoning_content"
		}
		msg[field] = reasoning
	}
	prompt := 0
	for _, m := range req.Messages {
		prompt += Tokens(m.Content)
		for _, c := range m.ToolCalls {
			prompt += Tokens(c.Function.Name + c.Function.Arguments)
		}
	}
	think := Tokens(reasoning)
	if cfg.ReasoningTokens != nil {
		think = cfg.ReasoningTokens(req)
	}
	completion := Tokens(content) + think
	usage := map[string]any{
		"prompt_tokens":             prompt,
		"completion_tokens":         completion,
		"total_tokens":              prompt + completion,
		"completion_tokens_details": map[string]int{"reasoning_tokens": think},
	}
	if cfg.CachedTokens != nil {
		usage["prompt_tokens_details"] = map[string]int{"cached_tokens": cfg.CachedTokens(req)}
	}
	return map[string]any{
		"id":      fmt.Sprintf("chatcmpl-fake-%d", req.N),
		"object":  "chat.completion",
		"created": time.Now().Unix(),
		"model":   req.Model,
		"choices": []any{map[string]any{
			"index": 0, "message": msg, "finish_reason": "stop", "logprobs": nil,
		}},
		"usage": usage,
	}
}

// refused is what a reasoning model answers a request it will not take:
// the message, the parameter and the code, in OpenAI's words; "" when the
// request is acceptable.
func refused(req Request) (msg, param, code string) {
	switch {
	case req.MaxTokens != 0 || req.Body["max_tokens"] != nil:
		return "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
			"max_tokens", "unsupported_parameter"
	case req.Temperature != nil && *req.Temperature != 1:
		return fmt.Sprintf("Unsupported value: 'temperature' does not support %v with this model. Only the default (1) value is supported.", *req.Temperature),
			"temperature", "unsupported_value"
	case req.TopP != nil && *req.TopP != 1:
		return fmt.Sprintf("Unsupported value: 'top_p' does not support %v with this model. Only the default (1) value is supported.", *req.TopP),
			"top_p", "unsupported_value"
	}
	return "", "", ""
}

func writeParamError(w http.ResponseWriter, msg, param, code string) {
	js, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": msg, "type": "invalid_request_error", "param": param, "code": code}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	w.Write(js)
}

// writeError answers in OpenAI's error format; echo, when set, is quoted
// in the body as a leaky proxy would.
func writeError(w http.ResponseWriter, status int, code, msg string, echo http.Header) {
	e := map[string]any{"message": msg, "type": code, "code": code}
	if echo != nil {
		e["request_headers"] = echo
	}
	js, _ := json.Marshal(map[string]any{"error": e})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(js)
}

// contentText reads a message content that is a string or an array of
// text parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}
