package model_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/model"
)

func ptr[T any](v T) *T { return &v }

func newClient(t *testing.T, o model.Options) *model.OpenAI {
	t.Helper()
	c, err := model.NewOpenAI(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func ask(q string) model.Request {
	return model.Request{Model: "fake-model", Messages: []model.Message{
		{Role: "system", Content: "Answer with one letter."},
		{Role: "user", Content: q},
	}}
}

// The fake stands in for DeepSeek, vLLM, Ollama and llama.cpp answering in
// their dialects of the chat completions reply.
func TestOpenAIParsesReplies(t *testing.T) {
	think := func(r modeltest.Request) (string, string) { return "B", "the paper says B in section 3" }
	cases := []struct {
		name string
		cfg  modeltest.Config
		want model.Response
	}{
		{"reasoning_content (DeepSeek, vLLM, Qwen)", modeltest.Config{Answer: think},
			model.Response{Content: "B", Reasoning: "the paper says B in section 3", FinishReason: "stop",
				Usage: model.Usage{PromptTokens: 10, CompletionTokens: 9, TotalTokens: 19, ReasoningTokens: 8}}},
		{"reasoning (newer vLLM, Ollama)", modeltest.Config{Answer: think, ReasoningField: "reasoning"},
			model.Response{Content: "B", Reasoning: "the paper says B in section 3", FinishReason: "stop",
				Usage: model.Usage{PromptTokens: 10, CompletionTokens: 9, TotalTokens: 19, ReasoningTokens: 8}}},
		{"no reasoning (plain OpenAI)", modeltest.Config{Answer: func(modeltest.Request) (string, string) { return "C", "" }},
			model.Response{Content: "C", FinishReason: "stop", Usage: model.Usage{PromptTokens: 10, CompletionTokens: 1, TotalTokens: 11}}},
		{"null content, out of tokens while thinking (o-series, R1)", modeltest.Config{Inject: raw200(
			`{"choices":[{"index":0,"message":{"role":"assistant","content":null,"reasoning_content":"hmm"},"finish_reason":"length"}],
			  "usage":{"prompt_tokens":5,"completion_tokens":100,"completion_tokens_details":{"reasoning_tokens":100}}}`)},
			model.Response{Reasoning: "hmm", FinishReason: "length", Usage: model.Usage{PromptTokens: 5, CompletionTokens: 100, TotalTokens: 105, ReasoningTokens: 100}}},
		{"content as text parts, no usage (llama.cpp-style gateways)", modeltest.Config{Inject: raw200(
			`{"choices":[{"message":{"content":[{"type":"text","text":"A"},{"type":"text","text":"!"}]},"finish_reason":"stop"}]}`)},
			model.Response{Content: "A!", FinishReason: "stop"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := modeltest.NewServer(t, tc.cfg)
			c := newClient(t, model.Options{BaseURL: srv.BaseURL()})
			got, err := c.Complete(t.Context(), ask("Which option?"))
			if err != nil {
				t.Fatal(err)
			}
			if got.Attempts != 1 || got.Latency <= 0 || got.Cached {
				t.Errorf("Attempts %d, Latency %v, Cached %v; want 1, > 0, false", got.Attempts, got.Latency, got.Cached)
			}
			got.Attempts, got.Latency = 0, 0
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func raw200(body string) func(modeltest.Request) *modeltest.Fault {
	return func(modeltest.Request) *modeltest.Fault {
		return &modeltest.Fault{Kind: modeltest.Status, Status: 200, Body: body}
	}
}

// The fake stands in for any server: this checks the wire request.
func TestOpenAISendsParameters(t *testing.T) {
	cases := []struct {
		name  string
		param string
		req   model.Request
		check func(t *testing.T, r modeltest.Request)
	}{
		{"all set", "", model.Request{Model: "m", Messages: []model.Message{{Role: "user", Content: "q"}},
			Temperature: ptr(0.0), TopP: ptr(0.9), MaxTokens: 64, Seed: ptr(int64(7)), Run: 3},
			func(t *testing.T, r modeltest.Request) {
				if r.Temperature == nil || *r.Temperature != 0 || r.TopP == nil || *r.TopP != 0.9 ||
					r.MaxTokens != 64 || r.MaxCompletionTokens != 0 || r.Seed == nil || *r.Seed != 7 || r.Stream {
					t.Errorf("%+v", r)
				}
			}},
		{"unset parameters are left to the server", "", model.Request{Model: "m", Messages: []model.Message{{Role: "user", Content: "q"}}},
			func(t *testing.T, r modeltest.Request) {
				if r.Temperature != nil || r.TopP != nil || r.MaxTokens != 0 || r.Seed != nil {
					t.Errorf("%+v", r)
				}
			}},
		{"max_completion_tokens for o-series", "max_completion_tokens", model.Request{Model: "o3", MaxTokens: 9, Messages: []model.Message{{Role: "user", Content: "q"}}},
			func(t *testing.T, r modeltest.Request) {
				if r.MaxTokens != 0 || r.MaxCompletionTokens != 9 {
					t.Errorf("%+v", r)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := modeltest.NewServer(t, modeltest.Config{})
			c := newClient(t, model.Options{BaseURL: srv.BaseURL() + "/", APIKey: "k-123", MaxTokensParam: tc.param})
			if _, err := c.Complete(t.Context(), tc.req); err != nil {
				t.Fatal(err)
			}
			r := srv.Requests()[0]
			if r.Authorization != "Bearer k-123" || r.Model != tc.req.Model || len(r.Messages) != len(tc.req.Messages) {
				t.Errorf("auth %q model %q messages %v", r.Authorization, r.Model, r.Messages)
			}
			tc.check(t, r)
		})
	}
}

// The official SDKs read OPENAI_API_KEY and OPENAI_BASE_URL on their own;
// this client must not, or a local vLLM run would ship the user's OpenAI
// key to it. The fake stands in for that local server.
func TestOpenAIIgnoresEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-the-environment")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	srv := modeltest.NewServer(t, modeltest.Config{})
	c := newClient(t, model.Options{BaseURL: srv.BaseURL()})
	if _, err := c.Complete(t.Context(), ask("q")); err != nil {
		t.Fatal(err)
	}
	if h := srv.Requests()[0].Header; h.Get("Authorization") != "" {
		t.Errorf("sent Authorization %q though no key was given", h.Get("Authorization"))
	}
}

// The fake stands in for a provider failing in each way it can; the
// client must type each failure so WithRetry can decide.
func TestOpenAIErrors(t *testing.T) {
	t.Parallel() // waits on loopback faults and stalls, not on the CPU
	status := func(code int, body string, hdr map[string]string) func(modeltest.Request) *modeltest.Fault {
		return func(modeltest.Request) *modeltest.Fault {
			return &modeltest.Fault{Kind: modeltest.Status, Status: code, Body: body, Header: hdr}
		}
	}
	kind := func(k modeltest.Kind) func(modeltest.Request) *modeltest.Fault {
		return func(modeltest.Request) *modeltest.Fault { return &modeltest.Fault{Kind: k, Stall: 30 * time.Second} }
	}
	cases := []struct {
		name      string
		inject    func(modeltest.Request) *modeltest.Fault
		retryable bool
		wantType  any
		want      []string
	}{
		{"500", status(500, "", nil), true, &model.HTTPError{}, []string{"500 Internal Server Error from http://127.0.0.1:"}},
		{"503 HTML from a proxy", status(503, "<html><body>upstream\n\n overloaded</body></html>", nil), true, &model.HTTPError{}, []string{"503", "upstream overloaded"}},
		{"429 rate limit", status(429, `{"error":{"code":"rate_limit_exceeded"}}`, map[string]string{"Retry-After": "2"}), true, &model.HTTPError{}, []string{"429 Too Many Requests"}},
		{"429 quota exhausted", status(429, `{"error":{"code":"insufficient_quota","message":"You exceeded your current quota"}}`, nil), false, &model.HTTPError{}, []string{"waiting will not help"}},
		{"401", status(401, "", nil), false, &model.HTTPError{}, []string{"401 Unauthorized from http://127.0.0.1:", "check the API key in $OPENAI_API_KEY"}},
		{"403", status(403, "", nil), false, &model.HTTPError{}, []string{"403 Forbidden", `may use model "fake-model"`}},
		{"404", status(404, "", nil), false, &model.HTTPError{}, []string{"404 Not Found", `check the model name "fake-model"`}},
		{"400 max_tokens", status(400, `{"error":{"message":"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."}}`, nil),
			false, &model.HTTPError{}, []string{`MaxTokensParam = "max_completion_tokens"`}},
		{"400 context length", status(400, `{"error":{"message":"This model's maximum context length is 8192 tokens"}}`, nil), false, &model.HTTPError{}, []string{"context window"}},
		{"cut-off body", kind(modeltest.CutOff), true, &model.MalformedError{}, []string{"body cut off", "unexpected EOF"}},
		{"half the JSON", kind(modeltest.BadJSON), true, &model.MalformedError{}, []string{"malformed response from http://127.0.0.1:", "unexpected end of JSON"}},
		{"empty choices", kind(modeltest.EmptyChoices), true, &model.MalformedError{}, []string{"no choices"}},
		{"200 carrying an error", status(200, `{"error":{"message":"upstream timeout"}}`, nil), true, &model.MalformedError{}, []string{"upstream timeout"}},
		{"stall past Timeout", kind(modeltest.Stall), true, &model.TimeoutError{}, []string{"no complete response within 1s (Timeout) from http://127.0.0.1:"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := modeltest.NewServer(t, modeltest.Config{Inject: tc.inject})
			c := newClient(t, model.Options{BaseURL: srv.BaseURL(), APIKey: "k", APIKeyEnv: "$OPENAI_API_KEY", Timeout: time.Second})
			// No time is asserted: the stall case (30 s at the server)
			// ending in a *TimeoutError shows Timeout ended it.
			_, err := c.Complete(t.Context(), ask("q"))
			if err == nil {
				t.Fatal("no error")
			}
			if got := model.Retryable(err); got != tc.retryable {
				t.Errorf("Retryable = %v, want %v: %v", got, tc.retryable, err)
			}
			if !errorsAsType(err, tc.wantType) {
				t.Errorf("error %T is not %T: %v", err, tc.wantType, err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	t.Run("Retry-After is parsed", func(t *testing.T) {
		srv := modeltest.NewServer(t, modeltest.Config{Inject: status(429, "", map[string]string{"Retry-After": "2"})})
		_, err := newClient(t, model.Options{BaseURL: srv.BaseURL()}).Complete(t.Context(), ask("q"))
		var he *model.HTTPError
		if !errors.As(err, &he) || he.RetryAfter != 2*time.Second {
			t.Errorf("%#v", err)
		}
	})
	t.Run("connection refused", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		_, err = newClient(t, model.Options{BaseURL: "http://" + addr + "/v1"}).Complete(t.Context(), ask("q"))
		var te *model.TransportError
		if !errors.As(err, &te) || !model.Retryable(err) || !strings.Contains(err.Error(), "is the server running?") {
			t.Errorf("%T %v", err, err)
		}
	})
	t.Run("bad requests are refused before sending", func(t *testing.T) {
		c := newClient(t, model.Options{BaseURL: "http://127.0.0.1:1/v1"})
		for _, r := range []model.Request{{Messages: []model.Message{{Role: "user", Content: "q"}}}, {Model: "m"}} {
			if _, err := c.Complete(t.Context(), r); err == nil || model.Retryable(err) {
				t.Errorf("%+v: %v", r, err)
			}
		}
	})
	t.Run("bad options", func(t *testing.T) {
		for _, o := range []model.Options{{BaseURL: "localhost:8000"}, {BaseURL: "ftp://x/v1"}, {MaxTokensParam: "n_predict"}} {
			if _, err := model.NewOpenAI(o); err == nil {
				t.Errorf("%+v accepted", o)
			}
		}
	})
	t.Run("caller's cancel is not retryable", func(t *testing.T) {
		srv := modeltest.NewServer(t, modeltest.Config{Latency: 5 * time.Second})
		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		defer cancel()
		_, err := newClient(t, model.Options{BaseURL: srv.BaseURL()}).Complete(ctx, ask("q"))
		if !errors.Is(err, context.DeadlineExceeded) || model.Retryable(err) {
			t.Errorf("%T %v", err, err)
		}
	})
}

func errorsAsType(err error, target any) bool {
	switch target.(type) {
	case *model.HTTPError:
		var e *model.HTTPError
		return errors.As(err, &e)
	case *model.MalformedError:
		var e *model.MalformedError
		return errors.As(err, &e)
	case *model.TimeoutError:
		var e *model.TimeoutError
		return errors.As(err, &e)
	}
	return false
}

// The fake stands in for a server or proxy that echoes request headers
// (Authorization included) in its error bodies and even in answers: the
// key must appear in no error, no response and no cache byte.
func TestAPIKeyNeverLeaks(t *testing.T) {
	const key = "sk-proj-SECRET/abc+def_0123456789"
	echoAuth := func(r modeltest.Request) (string, string) {
		return "you sent " + r.Authorization, "header " + r.Authorization
	}
	cases := []struct {
		name   string
		cfg    modeltest.Config
		wantOK bool
	}{
		{"401 quoting the wrong key", modeltest.Config{Key: "the-right-key", EchoHeaders: true}, false},
		{"500 echoing headers", modeltest.Config{EchoHeaders: true, Faults: modeltest.Faults{ServerError: 1}}, false},
		{"429 echoing headers", modeltest.Config{EchoHeaders: true, Faults: modeltest.Faults{RateLimit: 1}}, false},
		{"400 quoting the key JSON-escaped", modeltest.Config{Inject: func(modeltest.Request) *modeltest.Fault {
			return &modeltest.Fault{Kind: modeltest.Status, Status: 400, Body: `{"error":{"message":"bad key sk-proj-SECRET\/abc+def_0123456789"}}`}
		}}, false},
		{"answer echoing the header", modeltest.Config{Answer: echoAuth}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := modeltest.NewServer(t, tc.cfg)
			base := newClient(t, model.Options{BaseURL: srv.BaseURL(), APIKey: key, APIKeyEnv: "$OPENAI_API_KEY"})
			path := t.TempDir() + "/responses.db"
			chat, closer, err := model.Stack(base, model.StackOptions{CachePath: path,
				Retry: model.RetryOptions{MaxAttempts: 2, MinBackoff: time.Millisecond}})
			if err != nil {
				t.Fatal(err)
			}
			resp, err := chat.Complete(t.Context(), ask("q"))
			if (err == nil) != tc.wantOK {
				t.Fatalf("err = %v", err)
			}
			closer.Close()
			for _, s := range []string{errString(err), resp.Content, resp.Reasoning} {
				if strings.Contains(s, key) || strings.Contains(s, `sk-proj-SECRET\/abc`) {
					t.Errorf("key leaked: %s", s)
				}
			}
			if srv.Requests()[0].Authorization != "Bearer "+key {
				t.Errorf("the key was not sent")
			}
			if b := readFile(t, path); strings.Contains(string(b), key) || strings.Contains(string(b), "SECRET") {
				t.Errorf("key in the cache file")
			}
			if err != nil && !strings.Contains(err.Error(), "http://127.0.0.1:") {
				t.Errorf("error does not name the endpoint: %v", err)
			}
		})
	}
	t.Run("nothing else in the request carries it", func(t *testing.T) {
		srv := modeltest.NewServer(t, modeltest.Config{})
		c := newClient(t, model.Options{BaseURL: srv.BaseURL(), APIKey: key})
		c.Complete(t.Context(), ask("q"))
		h := srv.Requests()[0].Header.Clone()
		h.Del("Authorization")
		if strings.Contains(strings.Join(flatten(h), " "), key) {
			t.Errorf("key outside Authorization: %v", h)
		}
	})
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func flatten(h http.Header) []string {
	var out []string
	for k, vs := range h {
		out = append(out, k)
		out = append(out, vs...)
	}
	return out
}
