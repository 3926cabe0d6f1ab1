package model_test

import (
	"crypto/sha256"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/model"
)

// The fake stands in for OpenAI's o-series and GPT-5 endpoints, which refuse
// max_tokens and sampling parameters, and report reasoning and cached
// tokens in the usage details.
func TestReasoningModelRequest(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Config{
		ReasoningRules:  true,
		ReasoningTokens: func(modeltest.Request) int { return 321 },
		CachedTokens:    func(modeltest.Request) int { return 7 },
	})
	c := newClient(t, model.Options{BaseURL: srv.BaseURL(), APIKey: "sk-test-key-1234"})
	req := ask("q")
	req.MaxTokens, req.MaxTokensParam = 4000, "max_completion_tokens"
	req.ReasoningEffort = "high"
	req.Seed = ptr(int64(7))
	req.ExtraBody = json.RawMessage(`{"chat_template_kwargs":{"enable_thinking":false}}`)
	req.Header = http.Header{"X-Gateway-Token": {"gw-secret-value"}}
	resp, err := c.Complete(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	got := srv.Requests()[0]
	if got.MaxCompletionTokens != 4000 || got.MaxTokens != 0 || got.ReasoningEffort != "high" || got.Seed == nil || *got.Seed != 7 {
		t.Errorf("wire request %+v", got)
	}
	if string(got.Body["chat_template_kwargs"]) != `{"enable_thinking":false}` {
		t.Errorf("extra body arrived as %s", got.Body["chat_template_kwargs"])
	}
	if _, ok := got.Body["temperature"]; ok {
		t.Error("temperature sent though unset")
	}
	if got.Header.Get("X-Gateway-Token") != "gw-secret-value" {
		t.Errorf("header %q", got.Header.Get("X-Gateway-Token"))
	}
	if resp.Usage.ReasoningTokens != 321 || resp.Usage.CachedTokens != 7 || resp.FinishReason != "stop" {
		t.Errorf("usage %+v finish %q", resp.Usage, resp.FinishReason)
	}

	// The same model asked with max_tokens and a temperature: refused, and
	// the error names the parameter and is final.
	for _, tc := range []struct {
		name  string
		edit  func(*model.Request)
		param string
	}{
		{"max_tokens", func(r *model.Request) { r.MaxTokensParam = "max_tokens" }, "max_tokens"},
		{"temperature", func(r *model.Request) { r.Temperature = ptr(0.1) }, "temperature"},
		{"top_p", func(r *model.Request) { r.TopP = ptr(0.9) }, "top_p"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := req
			tc.edit(&r)
			_, err := c.Complete(t.Context(), r)
			p, ok := model.UnsupportedParam(err)
			if !ok || p != tc.param || model.Retryable(err) {
				t.Errorf("UnsupportedParam = %q, %v; retryable %v; err %v", p, ok, model.Retryable(err), err)
			}
			if strings.Contains(err.Error(), "gw-secret-value") || strings.Contains(err.Error(), "sk-test-key") {
				t.Errorf("secret in error: %v", err)
			}
		})
	}
}

// Header values must stay out of errors even when a proxy echoes the
// request headers back.
func TestHeaderValuesNeverLeak(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Config{EchoHeaders: true, Faults: modeltest.Faults{ServerError: 1}})
	c := newClient(t, model.Options{BaseURL: srv.BaseURL()})
	req := ask("q")
	req.Header = http.Header{"Helicone-Auth": {"Bearer hel-secret-abc"}}
	_, err := c.Complete(t.Context(), req)
	if err == nil || strings.Contains(err.Error(), "hel-secret-abc") {
		t.Fatalf("err %v", err)
	}
	if !strings.Contains(err.Error(), "[redacted]") {
		t.Errorf("the echoed header is not visible as redacted: %v", err)
	}
}

func TestUnsupportedParamBodies(t *testing.T) {
	cases := []struct {
		name, body string
		want       string
	}{
		{"openai param", `{"error":{"message":"Unsupported value: 'temperature' does not support 0.1 with this model.","type":"invalid_request_error","param":"temperature","code":"unsupported_value"}}`, "temperature"},
		{"openai no param", `{"error":{"message":"Unsupported parameter: 'reasoning_effort' is not supported with this model."}}`, "reasoning_effort"},
		{"pydantic extra", `{"detail":[{"type":"extra_forbidden","loc":["body","reasoning_effort"],"msg":"Extra inputs are not permitted"}]}`, "reasoning_effort"},
		{"azure", `{"error":{"message":"Unrecognized request argument supplied: seed"}}`, "seed"},
		{"context length", `{"error":{"message":"This model's maximum context length is 8192 tokens","param":"messages","code":"context_length_exceeded"}}`, ""},
		{"bad json", `{"error":{"message":"We could not parse the JSON body of your request."}}`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := modeltest.NewServer(t, modeltest.Config{Inject: func(modeltest.Request) *modeltest.Fault {
				return &modeltest.Fault{Kind: modeltest.Status, Status: 400, Body: tc.body}
			}})
			_, err := newClient(t, model.Options{BaseURL: srv.BaseURL()}).Complete(t.Context(), ask("q"))
			got, _ := model.UnsupportedParam(err)
			if got != tc.want {
				t.Errorf("param %q, want %q (%v)", got, tc.want, err)
			}
		})
	}
}

func TestSplitThink(t *testing.T) {
	cases := []struct{ in, answer, reasoning string }{
		{"Answer: B", "Answer: B", ""},
		{"<think>\nLet me see.\n</think>\n\nAnswer: B", "Answer: B", "Let me see."},
		{"  <thinking>x</thinking>B", "B", "x"},
		{"weighing options</think>Answer: A, C", "Answer: A, C", "weighing options"},
		{"<think>still thinking when the tokens ran out", "", "still thinking when the tokens ran out"},
		{"The tag <think> in the middle stays", "The tag <think> in the middle stays", ""},
	}
	for _, tc := range cases {
		a, r := model.SplitThink(tc.in)
		if a != tc.answer || r != tc.reasoning {
			t.Errorf("SplitThink(%q) = %q, %q; want %q, %q", tc.in, a, r, tc.answer, tc.reasoning)
		}
	}
	// The client applies it when the server sent no separate reasoning.
	srv := modeltest.NewServer(t, modeltest.Config{Answer: func(modeltest.Request) (string, string) {
		return "<think>hmm</think>Answer: D", ""
	}})
	resp, err := newClient(t, model.Options{BaseURL: srv.BaseURL()}).Complete(t.Context(), ask("q"))
	if err != nil || resp.Content != "Answer: D" || resp.Reasoning != "hmm" {
		t.Errorf("%+v %v", resp, err)
	}
}

func TestCacheKeyCoversRequestFields(t *testing.T) {
	base := ask("q")
	variants := map[string]func(*model.Request){
		"temperature":       func(r *model.Request) { r.Temperature = ptr(0.1) },
		"top_p":             func(r *model.Request) { r.TopP = ptr(0.9) },
		"max tokens":        func(r *model.Request) { r.MaxTokens = 64 },
		"max tokens param":  func(r *model.Request) { r.MaxTokensParam = "max_completion_tokens" },
		"reasoning effort":  func(r *model.Request) { r.ReasoningEffort = "high" },
		"seed":              func(r *model.Request) { r.Seed = ptr(int64(3)) },
		"extra body":        func(r *model.Request) { r.ExtraBody = json.RawMessage(`{"a":1}`) },
		"other extra body":  func(r *model.Request) { r.ExtraBody = json.RawMessage(`{"a":2}`) },
		"header name":       func(r *model.Request) { r.Header = http.Header{"X-A": {"1"}} },
		"other header name": func(r *model.Request) { r.Header = http.Header{"X-B": {"1"}} },
		"run":               func(r *model.Request) { r.Run = 2 },
		"model":             func(r *model.Request) { r.Model = "other" },
	}
	seen := map[[32]byte]string{model.CacheKey("http://h/v1", base): "base"}
	for name, edit := range variants {
		r := base
		edit(&r)
		k := model.CacheKey("http://h/v1", r)
		if prev, dup := seen[k]; dup {
			t.Errorf("%s and %s share a key", name, prev)
		}
		seen[k] = name
	}
	// Spelling and header values do not change what was asked.
	a, b := base, base
	a.ExtraBody, b.ExtraBody = json.RawMessage(`{"x": 1, "y": {"b":2,"a":1}}`), json.RawMessage(`{"y":{"a":1,"b":2},"x":1}`)
	a.Header, b.Header = http.Header{"X-Token": {"one"}}, http.Header{"x-token": {"two"}}
	if model.CacheKey("http://h/v1", a) != model.CacheKey("http://h/v1", b) {
		t.Error("key depends on JSON spelling or header values")
	}
	// A request with none of the new fields keeps the key that caches
	// written before they existed use.
	old, _ := json.Marshal(struct {
		V           int             `json:"v"`
		Endpoint    string          `json:"endpoint"`
		Model       string          `json:"model"`
		Messages    []model.Message `json:"messages"`
		Temperature *float64        `json:"temperature"`
		TopP        *float64        `json:"top_p"`
		MaxTokens   int             `json:"max_tokens"`
		Seed        *int64          `json:"seed"`
		Run         int             `json:"run"`
	}{1, "http://h/v1", base.Model, base.Messages, nil, nil, 0, nil, 0})
	if model.CacheKey("http://h/v1", base) != sha256.Sum256(old) {
		t.Error("the key of a plain request changed: existing response caches would miss")
	}
	// The same, spelled out, so that a change to how Message encodes is
	// caught too.
	lit := `{"v":1,"endpoint":"http://h/v1","model":"fake-model","messages":[{"role":"system","content":"Answer with one letter."},{"role":"user","content":"q"}],"temperature":null,"top_p":null,"max_tokens":0,"seed":null,"run":0}`
	if model.CacheKey("http://h/v1", base) != sha256.Sum256([]byte(lit)) {
		t.Error("the key of a plain request is not the hash of its old layout")
	}
}

// Endpoints are shown and keyed without credentials, whatever their shape.
func TestNormalizeEndpointHidesCredentials(t *testing.T) {
	for _, in := range []string{
		"https://alice:sk-secret-1@api.example.com/v1?key=sk-secret-2",
		"http://127.0.0.1:8000/v1/chat/completions?api-key=sk-secret-3#frag",
		"alice:sk-secret-4@api.example.com/v1",
		" https://API.Example.com/v1/ ",
	} {
		got := model.NormalizeEndpoint(in)
		if strings.Contains(got, "sk-secret") || strings.Contains(got, "alice") {
			t.Errorf("NormalizeEndpoint(%q) = %q", in, got)
		}
	}
	if got := model.NormalizeEndpoint(" https://API.Example.com/v1/ "); got != "https://api.example.com/v1" {
		t.Errorf("got %q", got)
	}
}
