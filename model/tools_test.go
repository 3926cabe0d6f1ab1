package model_test

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/model"
)

var searchSpec = model.ToolSpec{Type: "function", Function: model.FunctionSpec{
	Name: "search_paper", Description: "Search the paper.",
	Parameters: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`),
}}

// The wire form of messages is what OpenAI documents: a plain turn as it
// always was, content null on a turn that only calls tools, the call's id
// on a tool turn.
func TestMessageJSON(t *testing.T) {
	call := model.ToolCall{ID: "call_1", Type: "function", Function: model.FunctionCall{Name: "search_paper", Arguments: `{"query":"x"}`}}
	cases := []struct {
		name string
		msg  model.Message
		want string
	}{
		{"plain", model.Message{Role: "user", Content: "q"}, `{"role":"user","content":"q"}`},
		{"empty plain", model.Message{Role: "assistant"}, `{"role":"assistant","content":""}`},
		{"calls only", model.Message{Role: "assistant", ToolCalls: []model.ToolCall{call}},
			`{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"search_paper","arguments":"{\"query\":\"x\"}"}}]}`},
		{"calls with text", model.Message{Role: "assistant", Content: "let me look", ToolCalls: []model.ToolCall{call}},
			`{"role":"assistant","content":"let me look","tool_calls":[{"id":"call_1","type":"function","function":{"name":"search_paper","arguments":"{\"query\":\"x\"}"}}]}`},
		{"tool result", model.Message{Role: "tool", Content: "[p#1] text", ToolCallID: "call_1", Name: "search_paper"},
			`{"role":"tool","content":"[p#1] text","tool_call_id":"call_1","name":"search_paper"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.msg)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.want {
				t.Errorf("got  %s\nwant %s", b, tc.want)
			}
		})
	}
}

// One tool round against the loopback server standing in for an
// OpenAI-compatible server with function calling (OpenAI, vLLM with a tool
// parser): the tools and tool_choice go out, the call comes back with
// finish_reason tool_calls, and the follow-up turn carries the assistant's
// call (content null) and the tool's answer under its id.
func TestToolCallRoundTrip(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Config{
		ToolCalls: func(r modeltest.Request) []modeltest.ToolCall {
			if r.Messages[len(r.Messages)-1].Role == "user" {
				return []modeltest.ToolCall{modeltest.Call("call_7", "search_paper", `{"query":"batch size"}`)}
			}
			return nil
		},
		Answer: func(r modeltest.Request) (string, string) {
			last := r.Messages[len(r.Messages)-1]
			if last.Role == "tool" {
				return "from tool: " + last.Content, ""
			}
			return "", ""
		},
	})
	c := newClient(t, model.Options{BaseURL: srv.BaseURL()})
	req := ask("What batch size?")
	req.Tools, req.ToolChoice = []model.ToolSpec{searchSpec}, model.ToolChoiceAuto
	first, err := c.Complete(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	want := []model.ToolCall{{ID: "call_7", Type: "function", Function: model.FunctionCall{Name: "search_paper", Arguments: `{"query":"batch size"}`}}}
	if !reflect.DeepEqual(first.ToolCalls, want) || first.FinishReason != "tool_calls" || first.Content != "" {
		t.Fatalf("first reply %+v", first)
	}
	got := srv.Requests()[0]
	if got.ToolChoice != "auto" || len(got.Tools) != 1 || !strings.Contains(string(got.Tools[0]), `"name":"search_paper"`) {
		t.Errorf("sent tools %s, tool_choice %q", got.Tools, got.ToolChoice)
	}

	req.Messages = append(req.Messages,
		model.Message{Role: "assistant", ToolCalls: first.ToolCalls},
		model.Message{Role: "tool", ToolCallID: "call_7", Content: "[p#2] batch size 32"})
	second, err := c.Complete(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if second.Content != "from tool: [p#2] batch size 32" || len(second.ToolCalls) != 0 || second.FinishReason != "stop" {
		t.Errorf("second reply %+v", second)
	}
	sent := srv.Requests()[1].Messages
	if a := sent[len(sent)-2]; a.Role != "assistant" || !a.ContentNull || len(a.ToolCalls) != 1 || a.ToolCalls[0].ID != "call_7" {
		t.Errorf("assistant turn sent as %+v", a)
	}
	if tm := sent[len(sent)-1]; tm.Role != "tool" || tm.ToolCallID != "call_7" {
		t.Errorf("tool turn sent as %+v", tm)
	}
	// Without tools the request carries neither field.
	if _, err := c.Complete(t.Context(), ask("plain")); err != nil {
		t.Fatal(err)
	}
	if b := srv.Requests()[2].Body; b["tools"] != nil || b["tool_choice"] != nil {
		t.Errorf("plain request sent tools: %s %s", b["tools"], b["tool_choice"])
	}
}

// A tool call is answered from the cache like any reply.
func TestCacheKeepsToolCalls(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Config{ToolCalls: func(modeltest.Request) []modeltest.ToolCall {
		return []modeltest.ToolCall{modeltest.Call("call_1", "search_paper", `{"query":"q"}`)}
	}})
	c, err := model.WithCache(newClient(t, model.Options{BaseURL: srv.BaseURL()}), filepath.Join(t.TempDir(), "c.db"), srv.BaseURL())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	req := ask("q")
	req.Tools = []model.ToolSpec{searchSpec}
	a, err := c.Complete(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Complete(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !b.Cached || srv.Count() != 1 || !reflect.DeepEqual(a.ToolCalls, b.ToolCalls) || b.FinishReason != "tool_calls" {
		t.Errorf("cached %v after %d calls: %+v vs %+v", b.Cached, srv.Count(), a, b)
	}
	// The same messages without tools are another question.
	if _, err := c.Complete(t.Context(), ask("q")); err != nil || srv.Count() != 2 {
		t.Errorf("plain request after a tool request: %v, %d calls", err, srv.Count())
	}
}

// Tool fields enter the key only when set, and each changes it.
func TestCacheKeyTools(t *testing.T) {
	base := ask("q")
	other := searchSpec
	other.Function.Description = "Search it."
	variants := map[string]func(*model.Request){
		"tools":       func(r *model.Request) { r.Tools = []model.ToolSpec{searchSpec} },
		"other tools": func(r *model.Request) { r.Tools = []model.ToolSpec{other} },
		"tool choice": func(r *model.Request) { r.ToolChoice = "none" },
		"tool message": func(r *model.Request) {
			r.Messages = append(r.Messages, model.Message{Role: "tool", ToolCallID: "c", Content: "x"})
		},
		"tool call id": func(r *model.Request) {
			r.Messages = append(r.Messages, model.Message{Role: "tool", ToolCallID: "d", Content: "x"})
		},
	}
	seen := map[[32]byte]string{model.CacheKey("http://h/v1", base): "base"}
	for name, edit := range variants {
		r := base
		r.Messages = append([]model.Message(nil), base.Messages...)
		edit(&r)
		k := model.CacheKey("http://h/v1", r)
		if prev, dup := seen[k]; dup {
			t.Errorf("%s and %s share a key", name, prev)
		}
		seen[k] = name
	}
	// Schema spelling does not matter.
	a, b := base, base
	a.Tools = []model.ToolSpec{searchSpec}
	respelled := searchSpec
	respelled.Function.Parameters = json.RawMessage(`{ "required":["query"], "properties":{"query":{"type":"string"}}, "type":"object" }`)
	b.Tools = []model.ToolSpec{respelled}
	if model.CacheKey("http://h/v1", a) != model.CacheKey("http://h/v1", b) {
		t.Error("key depends on the schema's spelling")
	}
}

// A server without tool support is named as such, whichever way it says
// so; one that drops the tools silently is caught by CheckTools.
func TestToolsUnsupported(t *testing.T) {
	cases := []struct {
		name    string
		cfg     modeltest.Config
		ignored bool // want a ToolsIgnoredError rather than an HTTP refusal
		ok      bool
	}{
		{"supports tools", modeltest.Config{ToolCalls: func(modeltest.Request) []modeltest.ToolCall {
			return []modeltest.ToolCall{modeltest.Call("c", "ping", `{"text":"OK"}`)}
		}}, false, true},
		{"400 naming tools (OpenAI shape)", modeltest.Config{NoTools: true}, false, false},
		{"400 from vLLM without --enable-auto-tool-choice", modeltest.Config{Inject: func(modeltest.Request) *modeltest.Fault {
			return &modeltest.Fault{Kind: modeltest.Status, Status: 400,
				Body: `{"object":"error","message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","param":null,"code":400}`}
		}}, false, false},
		{"400 from Ollama", modeltest.Config{Inject: func(modeltest.Request) *modeltest.Fault {
			return &modeltest.Fault{Kind: modeltest.Status, Status: 400, Body: `{"error":{"message":"registry.ollama.ai/library/gemma:2b does not support tools","type":"api_error","param":null,"code":null}}`}
		}}, false, false},
		{"tools ignored", modeltest.Config{ToolCalls: func(modeltest.Request) []modeltest.ToolCall {
			return []modeltest.ToolCall{modeltest.Call("c", "ping", `{}`)}
		}, IgnoreTools: true}, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := modeltest.NewServer(t, tc.cfg)
			c := newClient(t, model.Options{BaseURL: srv.BaseURL()})
			err := model.CheckTools(t.Context(), c, ask("unused"))
			if tc.ok {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !model.ToolsUnsupported(err) || !strings.Contains(err.Error(), "does not support tool calling") {
				t.Fatalf("got %v", err)
			}
			var ig *model.ToolsIgnoredError
			if errors.As(err, &ig) != tc.ignored {
				t.Errorf("ToolsIgnoredError %v, want %v: %v", !tc.ignored, tc.ignored, err)
			}
			if !tc.ignored {
				if p, _ := model.UnsupportedParam(err); p != "tools" && p != "tool_choice" {
					t.Errorf("param %q", p)
				}
			}
		})
	}
	// A plain 400 on a request without tools is not blamed on tools.
	srv := modeltest.NewServer(t, modeltest.Config{Inject: func(modeltest.Request) *modeltest.Fault {
		return &modeltest.Fault{Kind: modeltest.Status, Status: 400, Body: `{"error":{"message":"function calling is off","type":"x"}}`}
	}})
	_, err := newClient(t, model.Options{BaseURL: srv.BaseURL()}).Complete(t.Context(), ask("q"))
	if err == nil || model.ToolsUnsupported(err) {
		t.Errorf("plain 400: %v", err)
	}
}

// Arguments arrive as a string holding JSON (OpenAI) or, from some
// servers, as the object itself; both read as the JSON text.
func TestToolCallArgumentsForms(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"string", `{"choices":[{"message":{"content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{\"q\":1}"}}]},"finish_reason":"tool_calls"}]}`, `{"q":1}`},
		{"object", `{"choices":[{"message":{"content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":{"q":1}}}]},"finish_reason":"tool_calls"}]}`, `{"q":1}`},
		{"legacy function_call, no id", `{"choices":[{"message":{"content":null,"function_call":{"name":"f","arguments":"{\"q\":1}"}},"finish_reason":"function_call"}]}`, `{"q":1}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := modeltest.NewServer(t, modeltest.Config{Inject: func(modeltest.Request) *modeltest.Fault {
				return &modeltest.Fault{Kind: modeltest.Status, Status: 200, Body: tc.body}
			}})
			resp, err := newClient(t, model.Options{BaseURL: srv.BaseURL()}).Complete(t.Context(), ask("q"))
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.ToolCalls) != 1 || resp.ToolCalls[0].Function.Name != "f" || resp.ToolCalls[0].Function.Arguments != tc.want || resp.ToolCalls[0].ID == "" {
				t.Errorf("got %+v", resp.ToolCalls)
			}
		})
	}
}
