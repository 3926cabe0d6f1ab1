package modeltest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// serveCase is one request to a fresh server, or several to one server.
type serveCase struct {
	name   string
	cfg    Config
	method string // POST when empty
	path   string // /v1/chat/completions when empty
	header map[string]string
	bodies []string // one request per body
	cancel bool     // the client has hung up before the answer
}

const plainBody = `{"model":"m","messages":[{"role":"user","content":"hi"}]}`

func inject(f Fault) func(Request) *Fault { return func(Request) *Fault { return &f } }

func serveCases() []serveCase {
	tools := `{"model":"m","messages":[{"role":"system","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},` +
		`{"role":"tool","tool_call_id":"c1","name":"f","content":"r"}],"tools":[{"type":"function"}],"tool_choice":"auto"}`
	toolObj := `{"model":"m","messages":[{"role":"user","content":"hi"}],"tool_choice":{"type":"function","function":{"name":"f"}}}`
	params := `{"model":"m","messages":[{"role":"user","content":"hi"}],"temperature":0.5,"top_p":0.3,"max_tokens":9,"max_completion_tokens":7,"seed":3,"reasoning_effort":"low","stream":false,"extra":{"x":1}}`
	ok1 := `{"model":"m","messages":[{"role":"user","content":"hi"}],"temperature":1,"top_p":1,"max_completion_tokens":7}`
	calls := func(Request) []ToolCall { return []ToolCall{Call("id1", "search", `{"q":"x"}`)} }
	return []serveCase{
		{name: "GET", method: http.MethodGet, bodies: []string{""}},
		{name: "wrong path", path: "/v1/embeddings", bodies: []string{plainBody}},
		{name: "short path", path: "/chat/completions", bodies: []string{plainBody}},
		{name: "bad JSON", bodies: []string{`{"model":`}},
		{name: "JSON not an object", bodies: []string{`[1]`}},
		{name: "plain answer twice", bodies: []string{plainBody, plainBody}},
		{name: "tools and parts", bodies: []string{tools, toolObj}},
		{name: "all parameters", bodies: []string{params}},
		{name: "wrong key", cfg: Config{Key: "k"}, header: map[string]string{"Authorization": "Bearer nope"}, bodies: []string{plainBody}},
		{name: "wrong key echoed", cfg: Config{Key: "k", EchoHeaders: true}, header: map[string]string{"Authorization": "Bearer nope", "X-Trace": "t"}, bodies: []string{plainBody}},
		{name: "right key", cfg: Config{Key: "k"}, header: map[string]string{"Authorization": "Bearer k"}, bodies: []string{plainBody}},
		{name: "no model", bodies: []string{`{"messages":[{"role":"user","content":"hi"}]}`}},
		{name: "no messages", bodies: []string{`{"model":"m"}`}},
		{name: "no tools: tools", cfg: Config{NoTools: true}, bodies: []string{tools}},
		{name: "no tools: tool_choice", cfg: Config{NoTools: true}, bodies: []string{toolObj}},
		{name: "reasoning rules", cfg: Config{ReasoningRules: true}, bodies: []string{params,
			`{"model":"m","messages":[{"role":"user","content":"hi"}],"temperature":0.5}`,
			`{"model":"m","messages":[{"role":"user","content":"hi"}],"top_p":0.5}`, ok1}},
		{name: "429", cfg: Config{Inject: inject(Fault{Kind: RateLimited})}, bodies: []string{plainBody}},
		{name: "429 retry after 5 echoed", cfg: Config{Inject: inject(Fault{Kind: RateLimited}), Faults: Faults{RetryAfter: "5"}, EchoHeaders: true}, bodies: []string{plainBody}},
		{name: "429 without retry after", cfg: Config{Inject: inject(Fault{Kind: RateLimited}), Faults: Faults{RetryAfter: "-"}}, bodies: []string{plainBody}},
		{name: "429 fault header wins", cfg: Config{Inject: inject(Fault{Kind: RateLimited, Header: map[string]string{"Retry-After": "7", "X-Extra": "e"}})}, bodies: []string{plainBody}},
		{name: "500", cfg: Config{Inject: inject(Fault{Kind: ServerError})}, bodies: []string{plainBody}},
		{name: "status with body", cfg: Config{Inject: inject(Fault{Kind: Status, Status: 401, Body: `{"error":"x"}`})}, bodies: []string{plainBody}},
		{name: "status without body", cfg: Config{Inject: inject(Fault{Kind: Status})}, bodies: []string{plainBody}},
		{name: "stall that ends", cfg: Config{Inject: inject(Fault{Kind: Stall, Stall: time.Millisecond})}, bodies: []string{plainBody}},
		{name: "stall the client left", cfg: Config{Inject: inject(Fault{Kind: Stall})}, bodies: []string{plainBody}, cancel: true},
		{name: "latency the client left", cfg: Config{Latency: time.Hour}, bodies: []string{plainBody}, cancel: true},
		{name: "cut off", cfg: Config{Inject: inject(Fault{Kind: CutOff})}, bodies: []string{plainBody}},
		{name: "stall mid-body that ends", cfg: Config{Inject: inject(Fault{Kind: StallBody, Stall: time.Millisecond})}, bodies: []string{plainBody}},
		{name: "stall mid-body the client left", cfg: Config{Inject: inject(Fault{Kind: StallBody})}, bodies: []string{plainBody}, cancel: true},
		{name: "bad JSON reply", cfg: Config{Inject: inject(Fault{Kind: BadJSON})}, bodies: []string{plainBody}},
		{name: "empty choices", cfg: Config{Inject: inject(Fault{Kind: EmptyChoices})}, bodies: []string{plainBody}},
		{name: "forced OK", cfg: Config{Inject: inject(Fault{Kind: OK}), Faults: Faults{ServerError: 1}}, bodies: []string{plainBody}},
		{name: "faults by fraction", cfg: Config{Faults: Faults{Seed: 7, RateLimit: 0.3, ServerError: 0.2, BadJSON: 0.2, Empty: 0.2}},
			bodies: []string{plainBody, plainBody, plainBody, plainBody, plainBody, plainBody}},
		{name: "tool calls", cfg: Config{ToolCalls: calls}, bodies: []string{tools}},
		{name: "tool calls with an answer", cfg: Config{ToolCalls: calls, Answer: func(Request) (string, string) { return "let me look", "" }}, bodies: []string{tools}},
		{name: "tool calls with an empty answer", cfg: Config{ToolCalls: calls, Answer: func(Request) (string, string) { return "", "" }}, bodies: []string{tools}},
		{name: "tools ignored", cfg: Config{ToolCalls: calls, IgnoreTools: true}, bodies: []string{tools}},
		{name: "finish reason", cfg: Config{FinishReason: func(Request) string { return "length" }}, bodies: []string{plainBody}},
		{name: "reasoning and usage", cfg: Config{Answer: func(Request) (string, string) { return "B", "because" }, ReasoningField: "reasoning",
			ReasoningTokens: func(Request) int { return 11 }, CachedTokens: func(Request) int { return 5 }}, bodies: []string{plainBody}},
		{name: "reasoning default field", cfg: Config{Answer: func(Request) (string, string) { return "B", "because" }}, bodies: []string{plainBody}},
	}
}

var createdRE = regexp.MustCompile(`"created":\d+`)

// serveTranscript runs every case through the handler and writes what
// each request got back (status, headers, body) and what the server
// recorded.
func serveTranscript(t *testing.T) string {
	var b strings.Builder
	for _, tc := range serveCases() {
		s := NewServer(t, tc.cfg)
		fmt.Fprintf(&b, "== %s\n", tc.name)
		for _, body := range tc.bodies {
			method, path := tc.method, tc.path
			if method == "" {
				method = http.MethodPost
			}
			if path == "" {
				path = "/v1/chat/completions"
			}
			r := httptest.NewRequest(method, path, strings.NewReader(body))
			for k, v := range tc.header {
				r.Header.Set(k, v)
			}
			if tc.cancel {
				ctx, cancel := context.WithCancel(r.Context())
				cancel()
				r = r.WithContext(ctx)
			}
			w := httptest.NewRecorder()
			aborted := func() (aborted bool) {
				defer func() {
					if p := recover(); p != nil {
						if p != http.ErrAbortHandler {
							panic(p)
						}
						aborted = true
					}
				}()
				s.serve(w, r)
				return false
			}()
			var hs []string
			for k, v := range w.Header() {
				hs = append(hs, k+"="+strings.Join(v, ","))
			}
			sort.Strings(hs)
			fmt.Fprintf(&b, "%d aborted=%v %s\n%s\n", w.Code, aborted, strings.Join(hs, " "), createdRE.ReplaceAllString(w.Body.String(), `"created":0`))
		}
		for _, req := range s.Requests() {
			req.Header = nil // the recorder's request headers vary with nothing the server does
			js, err := json.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "request %s\n", js)
		}
		fmt.Fprintf(&b, "count=%d completed=%d served=%v faulted=%v\n", s.Count(), s.Completed(), s.Served(), s.Faulted())
	}
	return b.String()
}

// TestServeGolden pins the handler's every answer: the routes, request
// parsing, keys, parameter refusals, each fault kind, tool calls, finish
// reasons, reasoning and usage. Regenerate with MODELTEST_WRITE_GOLDEN=1
// only for a deliberate change.
func TestServeGolden(t *testing.T) {
	got := serveTranscript(t)
	const golden = "testdata/serve.golden"
	if os.Getenv("MODELTEST_WRITE_GOLDEN") != "" {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("line %d differs:\n got %s\nwant %s", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("transcript has %d lines, golden %d", len(gl), len(wl))
	}
}
