package model

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/paperlens/paperlens/internal/httpx"
	"github.com/paperlens/paperlens/internal/lazyregexp"
)

// Defaults for zero Options fields.
const (
	DefaultBaseURL = "https://api.openai.com/v1"
	// DefaultTimeout bounds one HTTP call. Reasoning models (o-series,
	// DeepSeek-R1, QwQ) routinely think for minutes before the first byte of
	// a non-streamed answer, so the limit is generous.
	DefaultTimeout = 10 * time.Minute
	// DefaultMaxReplyBytes is where a reply is cut: a 128k-token answer
	// with its reasoning is well under 4 MB, so a longer one is a model
	// that ran away (repeating itself until the server's own limit), and
	// its first 4 MiB are all that is worth reading and scoring.
	DefaultMaxReplyBytes = 4 << 20
	// DefaultReadIdleTimeout is how long a reply's body may go without a
	// byte once its headers have come. A server sends a non-streamed
	// answer whole, so a pause mid-body is a stall, not thinking.
	DefaultReadIdleTimeout = 60 * time.Second
)

// Options configure NewOpenAI. Every value is taken from here: the client
// reads no environment variable, so a key meant for one server is never sent
// to another by accident.
type Options struct {
	// BaseURL is the API root that "/chat/completions" is appended to:
	// "https://api.openai.com/v1", "http://localhost:8000/v1" (vLLM),
	// "http://localhost:11434/v1" (Ollama), "http://localhost:8080/v1"
	// (llama.cpp), "https://api.deepseek.com/v1". A URL already ending in
	// "/chat/completions" is used as is. Empty means DefaultBaseURL.
	BaseURL string
	// APIKey is sent as "Authorization: Bearer <key>"; empty sends no
	// header, as local servers expect. It never appears in an error.
	APIKey string
	// APIKeyEnv names where the caller read APIKey from, e.g.
	// "$OPENAI_API_KEY", so that a 401 can say what to fix.
	APIKeyEnv string
	// Timeout bounds each call, connection to last byte (DefaultTimeout).
	Timeout time.Duration
	// HTTPClient sends the requests; nil means a client of its own whose
	// connection pool keeps enough idle connections for heavy concurrency.
	// Its own Timeout, if any, also applies.
	HTTPClient *http.Client
	// MaxReplyBytes is the most of a reply's body read
	// (DefaultMaxReplyBytes). A longer reply is no error: it is cut there
	// while it is read (the rest is never held, the connection is
	// closed), the message content and reasoning up to the cut are
	// recovered from the cut JSON, and the Response says Cut. (A body
	// holding no chat completion before the cut is a *MalformedError.)
	// Negative means DefaultMaxReplyBytes too.
	MaxReplyBytes int64
	// ReadIdleTimeout ends a call whose reply body has started and then
	// sent no byte for this long (DefaultReadIdleTimeout), with a
	// retryable *TimeoutError naming --read-idle-timeout, the paperlens
	// flag that sets it. It starts when the headers arrive, since a
	// reasoning model may think for minutes before them; Timeout bounds
	// that wait. Negative means none.
	ReadIdleTimeout time.Duration
	// MaxTokensParam is the JSON name Request.MaxTokens is sent under:
	// "max_tokens" (default; vLLM, Ollama, llama.cpp, DeepSeek and older
	// OpenAI models) or "max_completion_tokens" (required by OpenAI's
	// o-series and GPT-5 models, which reject max_tokens with a 400).
	MaxTokensParam string
}

// OpenAI is a Chat over any OpenAI-compatible /v1/chat/completions
// endpoint. It makes exactly one HTTP call per Complete: retries, limits and
// caching are the decorators' job. Safe for concurrent use.
type OpenAI struct {
	o        Options
	endpoint string // full URL posted to
	shown    string // endpoint without user info or query, for errors
	base     string // normalised BaseURL, for cache keys
	http     *http.Client
	key      httpx.Redactor // removes the API key
}

var _ Chat = (*OpenAI)(nil)

// NewOpenAI checks the options and returns a client. It makes no request.
func NewOpenAI(o Options) (*OpenAI, error) {
	if o.BaseURL == "" {
		o.BaseURL = DefaultBaseURL
	}
	u, err := url.Parse(o.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// The parse error would quote the URL, which may carry credentials.
		return nil, errors.New("model: BaseURL must be an absolute http(s) URL such as http://localhost:8000/v1")
	}
	switch o.MaxTokensParam {
	case "":
		o.MaxTokensParam = "max_tokens"
	case "max_tokens", "max_completion_tokens":
	default:
		return nil, fmt.Errorf("model: MaxTokensParam %q: want max_tokens or max_completion_tokens", o.MaxTokensParam)
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxReplyBytes <= 0 {
		o.MaxReplyBytes = DefaultMaxReplyBytes
	}
	if o.ReadIdleTimeout == 0 {
		o.ReadIdleTimeout = DefaultReadIdleTimeout
	}
	c := &OpenAI{o: o, http: o.HTTPClient}
	u.Path = strings.TrimRight(u.Path, "/")
	if !strings.HasSuffix(u.Path, "/chat/completions") {
		u.Path += "/chat/completions"
	}
	u.RawPath = ""
	c.endpoint = u.String()
	c.shown = httpx.DisplayURL(u.String())
	c.base = NormalizeEndpoint(o.BaseURL)
	if c.http == nil {
		// Enough idle connections for heavy concurrency; see NewHTTPClient.
		c.http = httpx.NewHTTPClient(1024)
	}
	c.key = httpx.NewRedactor(o.APIKey)
	return c, nil
}

// BaseURL is the normalised API root (see NormalizeEndpoint), what WithCache
// should be given as the endpoint.
func (c *OpenAI) BaseURL() string { return c.base }

// NormalizeEndpoint is u with user info, query, fragment and trailing
// slashes removed and the scheme and host lower-cased, so that the cache
// key of an endpoint neither depends on spelling nor carries credentials.
func NormalizeEndpoint(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		// Not an absolute URL (NewOpenAI refuses these): shown the safe
		// way, since "user:key@host" would otherwise pass through whole.
		return httpx.DisplayURL(strings.TrimRight(s, "/"))
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	u.Path = strings.TrimSuffix(strings.TrimRight(u.Path, "/"), "/chat/completions")
	return httpx.DisplayURL(u.String())
}

// Complete makes one POST to /chat/completions.
func (c *OpenAI) Complete(ctx context.Context, req Request) (Response, error) {
	if err := validate(req); err != nil {
		return Response{}, err
	}
	body, err := c.encode(req)
	if err != nil {
		return Response{}, err
	}
	sec := c.secrets(req)
	h := http.Header{}
	if c.o.APIKey != "" {
		h.Set("Authorization", "Bearer "+c.o.APIKey)
	}
	for name, vals := range req.Header {
		h.Del(name)
		for _, v := range vals {
			h.Add(name, v)
		}
	}
	rep, err := httpx.Do(ctx, c.http, httpx.Call{
		URL: c.endpoint, Shown: c.shown, Header: h, UserAgent: "paperlens-model/1",
		Body: body, Secrets: sec, Timeout: c.o.Timeout,
		MaxBody: c.o.MaxReplyBytes, CutOK: true,
		IdleTimeout: max(c.o.ReadIdleTimeout, 0), IdleName: "--read-idle-timeout",
	})
	if err != nil {
		var he *HTTPError
		if errors.As(err, &he) {
			c.explain(he, rep.Body, req)
		}
		return Response{}, err
	}
	decode := c.decode
	if rep.Cut {
		decode = c.decodeCut
	}
	out, err := decode(rep.Body, req)
	if err != nil {
		return Response{}, err
	}
	out.Latency = rep.Latency
	out.Attempts = 1
	return out, nil
}

// wireRequest is the JSON body. MaxTokens goes in by hand under the
// configured name, and ExtraBody is merged over it.
type wireRequest struct {
	Model           string     `json:"model"`
	Messages        []Message  `json:"messages"`
	Temperature     *float64   `json:"temperature,omitempty"`
	TopP            *float64   `json:"top_p,omitempty"`
	Seed            *int64     `json:"seed,omitempty"`
	ReasoningEffort string     `json:"reasoning_effort,omitempty"`
	Tools           []ToolSpec `json:"tools,omitempty"`
	ToolChoice      string     `json:"tool_choice,omitempty"`
	Stream          bool       `json:"stream"`
}

func (c *OpenAI) encode(req Request) ([]byte, error) {
	body, err := json.Marshal(wireRequest{
		Model: req.Model, Messages: req.Messages,
		Temperature: req.Temperature, TopP: req.TopP, Seed: req.Seed,
		ReasoningEffort: req.ReasoningEffort, Tools: req.Tools, ToolChoice: req.ToolChoice,
	})
	if err != nil {
		return nil, fmt.Errorf("model: encode request: %w", err)
	}
	if req.MaxTokens > 0 {
		param := req.MaxTokensParam
		if param == "" {
			param = c.o.MaxTokensParam
		}
		// Splice the parameter in before the closing brace.
		body = append(body[:len(body)-1], fmt.Sprintf(`,%q:%d}`, param, req.MaxTokens)...)
	}
	if len(req.ExtraBody) > 0 {
		var m, extra map[string]json.RawMessage
		if err := json.Unmarshal(body, &m); err != nil {
			return nil, fmt.Errorf("model: encode request: %w", err)
		}
		if err := json.Unmarshal(req.ExtraBody, &extra); err != nil {
			return nil, fmt.Errorf("model: extra body: %w", err)
		}
		for k, v := range extra {
			m[k] = v
		}
		if body, err = json.Marshal(m); err != nil {
			return nil, fmt.Errorf("model: encode request: %w", err)
		}
	}
	return body, nil
}

type wireResponse struct {
	Choices []struct {
		Message struct {
			Content          json.RawMessage `json:"content"`
			ReasoningContent json.RawMessage `json:"reasoning_content"`
			Reasoning        json.RawMessage `json:"reasoning"`
			ToolCalls        []ToolCall      `json:"tool_calls"`
			// FunctionCall is the pre-tools form ("function_call") that
			// some older servers still answer with.
			FunctionCall *FunctionCall `json:"function_call"`
		} `json:"message"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens            int `json:"prompt_tokens"`
		CompletionTokens        int `json:"completion_tokens"`
		TotalTokens             int `json:"total_tokens"`
		CompletionTokensDetails *struct {
			ReasoningTokens int `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
		PromptTokensDetails *struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

func (c *OpenAI) decode(raw []byte, req Request) (Response, error) {
	sec := c.secrets(req)
	var w wireResponse
	if err := json.Unmarshal(raw, &w); err != nil {
		return Response{}, &MalformedError{URL: c.shown, Reason: sec.Redact(err.Error()), Excerpt: sec.Excerpt(raw, 0)}
	}
	if len(w.Choices) == 0 {
		reason := "no choices"
		if len(w.Error) > 0 && string(w.Error) != "null" {
			// Some proxies report upstream failures as 200 + {"error": …}.
			reason = "no choices, error " + sec.Excerpt(w.Error, 0)
		}
		return Response{}, &MalformedError{URL: c.shown, Reason: reason, Excerpt: sec.Excerpt(raw, 0)}
	}
	ch := w.Choices[0]
	content, ok := text(ch.Message.Content)
	if !ok {
		return Response{}, &MalformedError{URL: c.shown, Reason: "message content is neither a string nor text parts", Excerpt: sec.Excerpt(raw, 0)}
	}
	reasoning, _ := text(ch.Message.ReasoningContent)
	if reasoning == "" {
		// Newer vLLM and Ollama name it "reasoning". An object there (some
		// gateways' structured reasoning) is not text and is skipped.
		reasoning, _ = text(ch.Message.Reasoning)
	}
	out := Response{Content: sec.Redact(content), Reasoning: sec.Redact(reasoning)}
	for i, tc := range ch.Message.ToolCalls {
		if tc.Type == "" {
			tc.Type = "function"
		}
		if tc.ID == "" {
			// Some servers (older Ollama) give no id; the tool message must
			// still name its call, so invent a stable one.
			tc.ID = fmt.Sprintf("call_%d", i)
		}
		out.ToolCalls = append(out.ToolCalls, tc)
	}
	if fc := ch.Message.FunctionCall; fc != nil && len(out.ToolCalls) == 0 && fc.Name != "" {
		out.ToolCalls = []ToolCall{{ID: "call_0", Type: "function", Function: *fc}}
	}
	if ch.FinishReason != nil {
		out.FinishReason = *ch.FinishReason
	}
	if u := w.Usage; u != nil {
		out.Usage = Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
		if out.Usage.TotalTokens == 0 {
			out.Usage.TotalTokens = u.PromptTokens + u.CompletionTokens
		}
		if d := u.CompletionTokensDetails; d != nil {
			out.Usage.ReasoningTokens = d.ReasoningTokens
		}
		if d := u.PromptTokensDetails; d != nil {
			out.Usage.CachedTokens = d.CachedTokens
		}
	}
	if out.Reasoning == "" {
		out.Content, out.Reasoning = SplitThink(out.Content)
	}
	return out, nil
}

// decodeCut recovers what a reply cut at MaxReplyBytes held: the JSON is
// closed where it was cut (salvageJSON) and decoded as usual, and the
// answer is marked Cut. Asking again would only bring the same runaway
// reply, so the cut is no error and the caller scores what was kept. A
// body with no chat completion before the cut (not JSON: a proxy's page;
// no choice begun) is a *MalformedError, as it would be uncut.
func (c *OpenAI) decodeCut(raw []byte, req Request) (Response, error) {
	sec := c.secrets(req)
	fixed := salvageJSON(raw)
	if fixed == nil {
		return Response{}, &MalformedError{URL: c.shown, Excerpt: sec.Excerpt(raw, 0),
			Reason: fmt.Sprintf("a reply longer than %d bytes (--max-reply-bytes) that is not JSON", c.o.MaxReplyBytes)}
	}
	out, err := c.decode(fixed, req)
	if err != nil {
		var me *MalformedError
		if errors.As(err, &me) {
			me.Reason = fmt.Sprintf("a reply longer than %d bytes (--max-reply-bytes), cut there: %s", c.o.MaxReplyBytes, me.Reason)
		}
		return Response{}, err
	}
	out.Cut = true
	// The cut may have gone through a secret the model echoed.
	out.Content, out.Reasoning = sec.RedactCut(out.Content), sec.RedactCut(out.Reasoning)
	return out, nil
}

// text decodes a message field that is a string, null, absent, or an array
// of {"type":"text","text":…} parts.
func text(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", true
	}
	var s string
	if raw[0] == '"' {
		return s, json.Unmarshal(raw, &s) == nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if raw[0] != '[' || json.Unmarshal(raw, &parts) != nil {
		return "", false
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" || p.Type == "" {
			b.WriteString(p.Text)
		}
	}
	return b.String(), true
}

// explain adds to a non-2xx error what to check (Hint) and, for a 400 or
// 422 refusing a parameter, which one (Param); the shared transport has
// already filled in the status, excerpt, Retry-After and quota.
func (c *OpenAI) explain(e *HTTPError, raw []byte, req Request) {
	low := strings.ToLower(string(raw))
	key := "the API key"
	if c.o.APIKeyEnv != "" {
		key += " in " + c.o.APIKeyEnv
	}
	switch e.StatusCode {
	case http.StatusUnauthorized:
		if c.o.APIKey == "" {
			e.Hint = "no API key was sent: set " + key
		} else {
			e.Hint = "check " + key
		}
	case http.StatusForbidden:
		e.Hint = "check " + key + " and that it may use model " + strconv.Quote(req.Model)
	case http.StatusPaymentRequired:
		e.Hint = "the account is out of credit"
	case http.StatusNotFound:
		e.Hint = "check the model name " + strconv.Quote(req.Model) + " and that BaseURL is the API root (e.g. ending in /v1)"
	case http.StatusRequestEntityTooLarge:
		e.Hint = "the prompt is too long for this server"
	case http.StatusTooManyRequests:
		if e.Quota() {
			e.Hint = "the account's quota or spending limit is exhausted; waiting will not help"
		}
	case http.StatusBadRequest, http.StatusUnprocessableEntity:
		e.Param = unsupportedParam(raw)
		if e.Param == "" && (len(req.Tools) > 0 || req.ToolChoice != "") {
			e.Param = toolsRefused(low)
		}
		switch {
		case isToolParam(e.Param):
			e.Hint = "this model or server does not support tool calling (it refuses the request parameter " + strconv.Quote(e.Param) +
				"); use a model and server with function calling (vLLM needs --enable-auto-tool-choice and --tool-call-parser)"
		case (e.Param == "" || e.Param == "max_tokens") && strings.Contains(low, "max_tokens") && strings.Contains(low, "max_completion_tokens"):
			if e.Param == "" {
				e.Param = "max_tokens"
			}
			e.Hint = "this model wants MaxTokensParam = \"max_completion_tokens\""
		case e.Param != "":
			e.Hint = "this model or server does not accept the request parameter " + strconv.Quote(e.Param)
		case strings.Contains(low, "context length") || strings.Contains(low, "context_length") || strings.Contains(low, "maximum context"):
			e.Hint = "the prompt plus MaxTokens exceeds the model's context window"
		default:
			e.Hint = "the server rejected the request parameters"
		}
	}
}

// isToolParam reports whether a refused parameter is part of tool calling.
func isToolParam(p string) bool {
	return p == "tools" || p == "tool_choice" || strings.HasPrefix(p, "tools.") || strings.HasPrefix(p, "tools[")
}

// toolsRefused names the tool parameter a 400 refuses in the words servers
// use without a param field: vLLM's `"auto" tool choice requires
// --enable-auto-tool-choice`, Ollama's "model … does not support tools",
// llama.cpp's "tools param requires --jinja flag"; "" for other 400s.
func toolsRefused(low string) string {
	switch {
	case strings.Contains(low, "tool choice") || strings.Contains(low, "tool_choice"):
		return "tool_choice"
	case strings.Contains(low, "does not support tools") || strings.Contains(low, "tools param") ||
		strings.Contains(low, "'tools'") || strings.Contains(low, "\"tools\"") || strings.Contains(low, "tool calling") ||
		strings.Contains(low, "function calling"):
		return "tools"
	}
	return ""
}

// secrets is the redactor for one request: the key and the values of the
// request's extra headers (a gateway token travels there).
func (c *OpenAI) secrets(req Request) httpx.Redactor {
	var vals []string
	for _, vs := range req.Header {
		for _, v := range vs {
			if len(v) >= 4 { // shorter values are flags, not secrets, and would mangle text
				vals = append(vals, v)
			}
		}
	}
	if len(vals) == 0 {
		return c.key
	}
	return c.key.With(vals...)
}

var unsupportedRE = lazyregexp.MustCompile(`(?i)unsupported (?:parameter|value)s?:?\s*'([a-z_.]+)'|'([a-z_.]+)' is not supported|unrecognized request argument supplied:\s*([a-z_.]+)`)

// unsupportedParam names the request parameter a 400 or 422 refuses, when
// the body says so in one of the forms servers use: OpenAI's error.param
// with code unsupported_parameter or unsupported_value ("Unsupported
// parameter: 'max_tokens' …", "Unsupported value: 'temperature' …"),
// pydantic's extra_forbidden with loc ["body", NAME] (vLLM, SGLang and
// other FastAPI servers), or "Unrecognized request argument supplied: NAME"
// (Azure). Other 400s (a prompt too long, bad JSON) give "".
func unsupportedParam(raw []byte) string {
	var w struct {
		Error  json.RawMessage `json:"error"`
		Detail []struct {
			Type string `json:"type"`
			Loc  []any  `json:"loc"`
		} `json:"detail"`
	}
	if json.Unmarshal(raw, &w) == nil {
		var e struct {
			Param   *string `json:"param"`
			Code    any     `json:"code"`
			Message string  `json:"message"`
		}
		if json.Unmarshal(w.Error, &e) == nil && e.Param != nil && *e.Param != "" {
			code := strings.ToLower(fmt.Sprint(e.Code) + " " + e.Message)
			if strings.Contains(code, "unsupported") || strings.Contains(code, "not supported") || strings.Contains(code, "unrecognized") {
				return *e.Param
			}
		}
		for _, d := range w.Detail {
			if (d.Type == "extra_forbidden" || d.Type == "value_error.extra") && len(d.Loc) == 2 && d.Loc[0] == "body" {
				if s, ok := d.Loc[1].(string); ok {
					return s
				}
			}
		}
	}
	if m := unsupportedRE.FindSubmatch(raw); m != nil {
		for _, g := range m[1:] {
			if len(g) > 0 {
				return string(g)
			}
		}
	}
	return ""
}
