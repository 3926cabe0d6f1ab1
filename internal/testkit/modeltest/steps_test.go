package modeltest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestReadRequest(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		wantErr    bool
		check      func(Request) bool
	}{
		{"plain", plainBody, false, func(r Request) bool {
			return r.Model == "m" && len(r.Messages) == 1 && r.Messages[0].Content == "hi" && !r.Messages[0].ContentNull && r.Authorization == "Bearer x"
		}},
		{"text parts joined", `{"model":"m","messages":[{"role":"user","content":[{"text":"a"},{"text":"b"}]}]}`, false,
			func(r Request) bool { return r.Messages[0].Content == "ab" }},
		{"null and absent content", `{"model":"m","messages":[{"role":"assistant","content":null},{"role":"assistant"}]}`, false,
			func(r Request) bool { return r.Messages[0].ContentNull && r.Messages[1].ContentNull }},
		{"tool choice string", `{"model":"m","tool_choice":"auto"}`, false, func(r Request) bool { return r.ToolChoice == "auto" }},
		{"tool choice object kept as JSON", `{"model":"m","tool_choice":{"type":"none"}}`, false,
			func(r Request) bool { return r.ToolChoice == `{"type":"none"}` }},
		{"unknown members kept", `{"model":"m","thinking":{"on":true}}`, false,
			func(r Request) bool { return string(r.Body["thinking"]) == `{"on":true}` }},
		{"parameters", `{"model":"m","temperature":0.2,"top_p":0.9,"max_tokens":5,"max_completion_tokens":6,"seed":4,"reasoning_effort":"high","stream":true}`, false,
			func(r Request) bool {
				return *r.Temperature == 0.2 && *r.TopP == 0.9 && r.MaxTokens == 5 && r.MaxCompletionTokens == 6 && *r.Seed == 4 && r.ReasoningEffort == "high" && r.Stream
			}},
		{"bad JSON", `{`, true, nil},
		{"not an object", `"x"`, true, nil},
	} {
		r := httptest.NewRequest(http.MethodPost, "/v1/chat/completions", strings.NewReader(tc.body))
		r.Header.Set("Authorization", "Bearer x")
		got, err := readRequest(r)
		if (err != nil) != tc.wantErr || err == nil && !tc.check(got) {
			t.Errorf("%s: readRequest = %+v, %v", tc.name, got, err)
		}
	}
}

func TestRefuse(t *testing.T) {
	half := 0.5
	msgs := []Message{{Role: "user", Content: "hi"}}
	for _, tc := range []struct {
		name   string
		cfg    Config
		req    Request
		status int // 0: not refused
		fault  bool
	}{
		{"nothing to refuse", Config{}, Request{Model: "m", Messages: msgs}, 0, false},
		{"wrong key", Config{Key: "k"}, Request{Model: "m", Messages: msgs, Authorization: "Bearer j"}, 401, true},
		{"right key", Config{Key: "k"}, Request{Model: "m", Messages: msgs, Authorization: "Bearer k"}, 0, false},
		{"no model", Config{}, Request{Messages: msgs}, 400, false},
		{"no messages", Config{}, Request{Model: "m"}, 400, false},
		{"tools on a server without", Config{NoTools: true}, Request{Model: "m", Messages: msgs, Body: map[string]json.RawMessage{"tools": json.RawMessage("[]")}}, 400, true},
		{"tools where allowed", Config{}, Request{Model: "m", Messages: msgs, Body: map[string]json.RawMessage{"tools": json.RawMessage("[]")}}, 0, false},
		{"temperature to a reasoning model", Config{ReasoningRules: true}, Request{Model: "m", Messages: msgs, Temperature: &half}, 400, true},
		{"temperature elsewhere", Config{}, Request{Model: "m", Messages: msgs, Temperature: &half}, 0, false},
	} {
		s := NewServer(t, tc.cfg)
		w := httptest.NewRecorder()
		refusedIt := s.refuse(w, tc.cfg, tc.req, nil)
		if refusedIt != (tc.status != 0) || tc.status != 0 && w.Code != tc.status {
			t.Errorf("%s: refused %v status %d, want status %d", tc.name, refusedIt, w.Code, tc.status)
		}
		if got := s.Faulted()[Status] > 0; got != tc.fault {
			t.Errorf("%s: counted as a fault %v, want %v", tc.name, got, tc.fault)
		}
	}
}

func TestStallFor(t *testing.T) {
	for _, tc := range []struct {
		fault, cfg, want time.Duration
	}{
		{time.Second, time.Minute, time.Second},
		{0, time.Minute, time.Minute},
		{0, 0, DefaultStall},
	} {
		if got := stallFor(Config{Faults: Faults{StallFor: tc.cfg}}, &Fault{Stall: tc.fault}); got != tc.want {
			t.Errorf("stallFor(%v, %v) = %v, want %v", tc.fault, tc.cfg, got, tc.want)
		}
	}
}

func TestDrawFault(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cfg    Config
		want   Kind
		header string
	}{
		{"Inject first", Config{Inject: inject(Fault{Kind: BadJSON, Header: map[string]string{"X-A": "1"}}), Faults: Faults{ServerError: 1}}, BadJSON, "1"},
		{"Inject nil falls back", Config{Inject: func(Request) *Fault { return nil }, Faults: Faults{ServerError: 1}}, ServerError, ""},
		{"no faults", Config{}, OK, ""},
	} {
		s := NewServer(t, tc.cfg)
		w := httptest.NewRecorder()
		f := s.drawFault(w, tc.cfg, Request{Attempt: 1}, "p")
		if f.Kind != tc.want || w.Header().Get("X-A") != tc.header {
			t.Errorf("%s: fault %v header %q, want %v %q", tc.name, f.Kind, w.Header().Get("X-A"), tc.want, tc.header)
		}
		if n := s.Faulted()[tc.want]; (tc.want != OK) != (n == 1) {
			t.Errorf("%s: faulted %v", tc.name, s.Faulted())
		}
	}
}
