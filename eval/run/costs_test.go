package run

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/eval/agent"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/model"
)

// ledgerServer is a loopback OpenAI chat server that bills like a
// provider: it counts every request's tokens itself (words, not
// cl100k_base, so that nothing in paperlens can happen to agree with it),
// writes them in the reply's usage with reasoning and cached tokens in
// their details, and keeps a ledger of what it billed per question and
// mode. A failed request is billed nothing, as providers bill no 500.
//
// As a model it searches the paper under agent (1 to 4 tool calls by
// question, two of them in its first reply when it wants more than one)
// and, under self-route, declines every other question's passages with
// "unanswerable". Two faults: the second turn of one agent question fails
// once (the retry answers), and the paper call of one routed question
// always fails.
type ledgerServer struct {
	*httptest.Server
	qs []bench.Question

	mu       sync.Mutex
	ledger   map[string]model.Usage // "question/mode": the sum billed
	calls    map[string]int         // "question/mode": requests billed
	sent     map[string][][]wireMsg // "question/agent": each billed request's messages
	attempts map[[32]byte]int
}

type wireMsg struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	ToolCalls []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	ToolCallID string `json:"tool_call_id"`
}

func (m wireMsg) text() string {
	var s string
	json.Unmarshal(m.Content, &s) // null: an assistant turn that only calls tools
	return s
}

func newLedgerServer(t *testing.T, qs []bench.Question) *ledgerServer {
	s := &ledgerServer{qs: qs, ledger: map[string]model.Usage{}, calls: map[string]int{},
		sent: map[string][][]wireMsg{}, attempts: map[[32]byte]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// words is the server's own token count.
func words(s string) int { return len(strings.Fields(s)) }

// wants is how many tool calls the model makes for question i.
func wants(i int) int { return 1 + i%4 }

func (s *ledgerServer) serve(w http.ResponseWriter, r *http.Request) {
	raw, body, ok := readLedgerRequest(r)
	if !ok {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	qi := s.questionOf(body.Messages)
	tools := len(body.Tools) > 0
	rep, fail := s.reply(body, qi, tools, s.attempt(raw))
	if fail {
		http.Error(w, `{"error":{"message":"The server had an error","type":"server_error"}}`, http.StatusInternalServerError)
		return
	}
	u := ledgerBill(body, rep)
	out := ledgerCompletion(rep, u)
	s.mu.Lock()
	s.ledger[rep.key] = s.ledger[rep.key].Add(u)
	s.calls[rep.key]++
	if tools && qi >= 0 {
		s.sent[rep.key] = append(s.sent[rep.key], body.Messages)
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}

// ledgerRequest is what the ledger server reads of a chat request.
type ledgerRequest struct {
	Messages   []wireMsg         `json:"messages"`
	Tools      []json.RawMessage `json:"tools"`
	ToolChoice json.RawMessage   `json:"tool_choice"`
}

// ledgerCall is a tool call the ledger server's model makes.
type ledgerCall struct{ ID, Name, Args string }

// ledgerReply is the ledger server's model's reply, and the ledger key
// ("question/mode", "preflight", "other") it is billed to.
type ledgerReply struct {
	content, reasoning string
	calls              []ledgerCall
	key                string
}

// readLedgerRequest reads a request's body raw and decoded; not ok for a
// body that is no chat request with messages.
func readLedgerRequest(r *http.Request) ([]byte, ledgerRequest, bool) {
	raw, err := io.ReadAll(r.Body)
	var body ledgerRequest
	if err == nil {
		err = json.Unmarshal(raw, &body)
	}
	return raw, body, err == nil && len(body.Messages) > 0
}

// questionOf is the index of the question whose stem the first user turn
// holds, -1 for none.
func (s *ledgerServer) questionOf(msgs []wireMsg) int {
	for _, m := range msgs {
		if m.Role != "user" {
			continue
		}
		for i, q := range s.qs {
			if q.MCQ.Stem != "" && strings.Contains(m.text(), q.MCQ.Stem) {
				return i
			}
		}
		break
	}
	return -1
}

// attempt counts a request's attempts by its body: 1 the first time.
func (s *ledgerServer) attempt(raw []byte) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	sum := sha256.Sum256(raw)
	s.attempts[sum]++
	return s.attempts[sum]
}

// reply is the model's reply to a request about question qi (-1: none),
// with tools or not; fail when the server answers it with a 500.
func (s *ledgerServer) reply(body ledgerRequest, qi int, tools bool, attempt int) (ledgerReply, bool) {
	switch {
	case tools && strings.Contains(string(body.Tools[0]), `"ping"`):
		// The tool preflight (model.CheckTools): billed, to no question.
		return ledgerReply{calls: []ledgerCall{{"call_ping", "ping", `{"text":"ok"}`}}, key: "preflight"}, false
	case qi < 0:
		return ledgerReply{content: "I cannot tell.", key: "other"}, false
	case tools:
		return s.agentReply(body, qi, attempt)
	default:
		return s.selfRouteReply(body, qi)
	}
}

// agentReply searches the paper for question qi, wants(qi) times (two
// calls in its first reply when it wants more than one), then answers;
// the second turn of question 1 fails once.
func (s *ledgerServer) agentReply(body ledgerRequest, qi, attempt int) (ledgerReply, bool) {
	toolMsgs := 0
	for _, m := range body.Messages {
		if m.Role == "tool" {
			toolMsgs++
		}
	}
	q := s.qs[qi]
	rep := ledgerReply{key: q.ID + "/" + mode.Agent}
	if qi == 1 && toolMsgs == 2 && attempt == 1 {
		return rep, true
	}
	if string(body.ToolChoice) == `"none"` || toolMsgs >= wants(qi) {
		rep.content, rep.reasoning = "Answer: "+q.Answer, fmt.Sprintf("After %d searches the passages settle it.", toolMsgs)
		return rep, false
	}
	n := 1
	if toolMsgs == 0 && wants(qi) > 1 {
		n = 2
	}
	for k := toolMsgs; k < toolMsgs+n; k++ {
		args, _ := json.Marshal(map[string]string{"query": fmt.Sprintf("%s (part %d)", q.MCQ.Stem, k)})
		rep.calls = append(rep.calls, ledgerCall{fmt.Sprintf("call_%d", k), agent.ToolSearchPaper, string(args)})
	}
	rep.reasoning = "I should search the paper before answering."
	return rep, false
}

// selfRouteReply declines the passages of every other question and
// answers the rest; the paper call of question 2 always fails.
func (s *ledgerServer) selfRouteReply(body ledgerRequest, qi int) (ledgerReply, bool) {
	q := s.qs[qi]
	rep := ledgerReply{key: q.ID + "/" + mode.SelfRoute}
	last := body.Messages[len(body.Messages)-1].text()
	switch {
	case strings.Contains(last, `write "unanswerable"`) && qi%2 == 0:
		rep.content, rep.reasoning = "unanswerable", "The passages do not name it."
	case strings.Contains(last, `write "unanswerable"`):
		rep.content, rep.reasoning = "Answer: B", "Passage 2 says so."
	case qi == 2:
		// The paper call of this routed question always fails.
		return rep, true
	default:
		rep.content, rep.reasoning = "Answer: "+q.Answer, "The paper's method section names it, after a long read."
	}
	return rep, false
}

// ledgerBill is the bill: words of every message, call and tool spec, 3 a
// message of framing; the prompt but its last message is "cached" on a
// later turn, as a provider's prefix cache would serve it.
func ledgerBill(body ledgerRequest, rep ledgerReply) model.Usage {
	var u model.Usage
	for i, m := range body.Messages {
		n := 3 + words(m.text())
		for _, c := range m.ToolCalls {
			n += 3 + words(c.Function.Name+" "+c.Function.Arguments)
		}
		u.PromptTokens += n
		if i < len(body.Messages)-1 && len(body.Messages) > 2 {
			u.CachedTokens += n
		}
	}
	for _, t := range body.Tools {
		u.PromptTokens += len(t) / 10
	}
	u.ReasoningTokens = 2 * words(rep.reasoning)
	u.CompletionTokens = words(rep.content) + u.ReasoningTokens
	for _, c := range rep.calls {
		u.CompletionTokens += 3 + words(c.Name+" "+c.Args)
	}
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
	return u
}

// ledgerCompletion is the chat completion of rep, billed u.
func ledgerCompletion(rep ledgerReply, u model.Usage) []byte {
	msg := map[string]any{"role": "assistant", "content": rep.content, "reasoning_content": rep.reasoning}
	finish := "stop"
	if len(rep.calls) > 0 {
		msg["content"] = nil
		var tc []map[string]any
		for _, c := range rep.calls {
			tc = append(tc, map[string]any{"id": c.ID, "type": "function",
				"function": map[string]string{"name": c.Name, "arguments": c.Args}})
		}
		msg["tool_calls"], finish = tc, "tool_calls"
	}
	out, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-ledger", "object": "chat.completion", "created": time.Now().Unix(), "model": "ledger-model",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage": map[string]any{
			"prompt_tokens": u.PromptTokens, "completion_tokens": u.CompletionTokens, "total_tokens": u.TotalTokens,
			"prompt_tokens_details":     map[string]int{"cached_tokens": u.CachedTokens},
			"completion_tokens_details": map[string]int{"reasoning_tokens": u.ReasoningTokens},
		},
	})
	return out
}

func (s *ledgerServer) snapshot() (map[string]model.Usage, map[string]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, c := map[string]model.Usage{}, map[string]int{}
	for k, v := range s.ledger {
		l[k] = v
	}
	for k, v := range s.calls {
		c[k] = v
	}
	return l, c
}

// framed is cl100k_base over a message with OpenAI's 4 tokens of framing,
// and the same for each tool call: how paperlens counts what the tool loop
// adds to a prompt (Step.PromptTokens).
func framed(m wireMsg) int {
	n := 4 + tokens.Count(m.text())
	for _, c := range m.ToolCalls {
		n += 4 + tokens.Count(c.Function.Name) + tokens.Count(c.Function.Arguments)
	}
	return n
}

// Issue 22, item 5: a tool mode's and self-route's record costs what the
// server billed for all of the question's calls, and the summary what it
// billed for the run. Agent questions take 2 to 4 model calls (one cut
// off at the cap and forced, one retried after a 500), self-route
// questions 1 or 2 (one whose paper call fails); the server's ledger is
// compared question by question with the records, mode by mode with the
// summary, and again after a resume that replays every call from the
// response and tool caches.
func TestCostsAddUp(t *testing.T) {
	qs, st, ix := fixture(t)
	qs = qs[:8]
	srv := newLedgerServer(t, qs)
	cfg := sampleConfig(t, "ledger-model", mode.Agent, mode.SelfRoute)
	cfg.Runs, cfg.MaxToolCalls = 1, 3
	cache := filepath.Join(t.TempDir(), "cache.db")
	plan, err := DryRun(context.Background(), Options{Config: cfg, Corpus: st, Index: ix, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	run := func() Result {
		t.Helper()
		return runAgainstLedger(t, srv, cache, Options{Config: cfg, Corpus: st, Index: ix, Questions: qs})
	}
	first := run()
	ledger, billed := srv.snapshot()
	recs := mustRecords(t, cfg.Out, 2*len(qs))
	checkCostsMatchLedger(t, cfg, srv, ledger, billed, first, recs)

	firstTurns, worst := checkCostsFixtureCovers(t, recs)
	checkDryRunBoundHolds(t, cfg, plan, recs, firstTurns)
	k := worst.QuestionID + "/" + mode.Agent
	t.Logf("%s: %d calls; first prompt %d tokens (what the record said before), all prompts %d (cl100k); server billed prompt %d (%d cached), completion %d (%d reasoning)",
		k, billed[k], worst.Transcript.Steps[0].PromptTokens, worst.PromptTokens, ledger[k].PromptTokens, ledger[k].CachedTokens, ledger[k].CompletionTokens, ledger[k].ReasoningTokens)
	ag := first.Summary.ByMode[mode.Agent]
	t.Logf("agent summary: tokens %+v over %d records, prompt_tokens %.0f a question (first turns alone: %.0f)",
		ag.Tokens, ag.Records, ag.PromptTokens, float64(firstTurns)/float64(ag.Records))

	// A resume with the records lost: every answered call replays from the
	// caches and is billed nothing more, and the record costs the same.
	if err := os.Remove(filepath.Join(cfg.Out, ResultsFile)); err != nil {
		t.Fatal(err)
	}
	again := run()
	if l, c := srv.snapshot(); fmt.Sprint(l) != fmt.Sprint(ledger) || fmt.Sprint(c) != fmt.Sprint(billed) {
		t.Errorf("the resume was billed: %v calls, had %v", c, billed)
	}
	replayed := mustRecords(t, cfg.Out, 2*len(qs))
	checkCostsMatchLedger(t, cfg, srv, ledger, billed, again, replayed)
	checkResumeCostsSame(t, recs, replayed)
}

// runAgainstLedger runs opt against the ledger server, through a response
// cache at cache and retries of the server's 500s.
func runAgainstLedger(t *testing.T, srv *ledgerServer, cache string, opt Options) Result {
	t.Helper()
	base, err := model.NewOpenAI(model.Options{BaseURL: srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	chat, closer, err := model.Stack(base, model.StackOptions{CachePath: cache,
		Retry: model.RetryOptions{MaxAttempts: 2, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	opt.Chat = chat
	res, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// checkCostsMatchLedger checks the records and the summary (returned and
// on disk) of a run against what the server billed: each record's usage
// its question's bill, each mode's tokens the mode's bill, and each
// record's prompt tokens those of its calls.
func checkCostsMatchLedger(t *testing.T, cfg Config, srv *ledgerServer, ledger map[string]model.Usage, billed map[string]int, res Result, recs []Record) {
	t.Helper()
	want := map[string]Tokens{}
	var assembled = map[string]int{}
	for _, r := range recs {
		k := r.QuestionID + "/" + r.Mode
		l := ledger[k]
		if r.Usage != l {
			t.Errorf("%s: record usage %+v, the server billed %+v over %d calls", k, r.Usage, l, billed[k])
		}
		tk := want[r.Mode]
		tk.add(l)
		want[r.Mode] = tk
		assembled[r.Mode] += r.PromptTokens
		switch r.Mode {
		case mode.Agent:
			checkAgentPromptTokens(t, srv.sent[k], billed[k], k, r)
		case mode.SelfRoute:
			checkSelfRoutePromptTokens(t, k, r)
		}
	}
	for _, m := range cfg.Modes {
		ms := res.Summary.ByMode[m]
		if ms.Tokens != want[m] {
			t.Errorf("summary %s tokens %+v, the server billed %+v", m, ms.Tokens, want[m])
		}
		if got := ms.PromptTokens * float64(ms.Records); int(got+0.5) != assembled[m] {
			t.Errorf("summary %s prompt tokens %.1f a question, records sum to %d over %d", m, ms.PromptTokens, assembled[m], ms.Records)
		}
	}
	disk, err := Dir(cfg.Out).ReadSummary()
	if err != nil || disk.ByMode[mode.Agent].Tokens != want[mode.Agent] || disk.ByMode[mode.SelfRoute].Tokens != want[mode.SelfRoute] {
		t.Errorf("summary.json by_mode tokens %+v, %+v; billed %+v (%v)", disk.ByMode[mode.Agent].Tokens, disk.ByMode[mode.SelfRoute].Tokens, want, err)
	}
}

// checkAgentPromptTokens checks an agent record k against the billed
// requests whose messages were sent: a step per billed call, and the
// record's and transcript's prompt tokens paperlens's count of what was
// sent: each billed request's prompt, the question's (the first turn's,
// the dry run's count) plus what the loop added before it.
func checkAgentPromptTokens(t *testing.T, sent [][]wireMsg, billed int, k string, r Record) {
	t.Helper()
	tr := r.Transcript
	if tr == nil || len(tr.Steps) != billed {
		t.Fatalf("%s: transcript %v, %d calls billed", k, tr, billed)
	}
	n := 0
	for _, msgs := range sent {
		n += tr.Steps[0].PromptTokens
		for _, m := range msgs[len(sent[0]):] {
			n += framed(m)
		}
	}
	if r.PromptTokens != n || tr.PromptTokens != n {
		t.Errorf("%s: record prompt tokens %d, transcript's %d; the %d prompts sent hold %d", k, r.PromptTokens, tr.PromptTokens, len(sent), n)
	}
}

// checkSelfRoutePromptTokens checks a self-route record k: a call per
// route taken, and its prompt tokens the calls' sum.
func checkSelfRoutePromptTokens(t *testing.T, k string, r Record) {
	t.Helper()
	if len(r.RouteCalls) != 1+map[bool]int{true: 1}[r.Route == RouteFull] {
		t.Fatalf("%s: route %q with %d calls", k, r.Route, len(r.RouteCalls))
	}
	n := 0
	for _, c := range r.RouteCalls {
		n += c.PromptTokens
	}
	if r.PromptTokens != n {
		t.Errorf("%s: record prompt tokens %d, its calls' %d", k, r.PromptTokens, n)
	}
}

// checkCostsFixtureCovers checks the run covered what it should: a forced
// turn, a retried turn, both routes, a failed paper call. It returns the
// agent records' first turns' prompt tokens, summed, and the agent record
// with the most steps.
func checkCostsFixtureCovers(t *testing.T, recs []Record) (firstTurns int, worst Record) {
	t.Helper()
	var forced, full, failed int
	for _, r := range recs {
		if r.Mode == mode.Agent {
			firstTurns += r.Transcript.Steps[0].PromptTokens
			if r.Transcript.CutOff {
				forced++
			}
			if worst.Transcript == nil || len(r.Transcript.Steps) > len(worst.Transcript.Steps) {
				worst = r
			}
		}
		if r.Route == RouteFull {
			full++
			if r.Error != "" {
				failed++
			}
		}
	}
	if forced == 0 || full < 2 || failed != 1 {
		t.Errorf("%d agent questions forced, %d routed to the paper, %d of them failed: the fixture no longer covers the cases", forced, full, failed)
	}
	return firstTurns, worst
}

// checkDryRunBoundHolds checks the dry run's bound, unchanged, still holds
// the summed prompts, and the question's first turns are the dry run's
// count.
func checkDryRunBoundHolds(t *testing.T, cfg Config, plan Plan, recs []Record, firstTurns int) {
	t.Helper()
	for _, m := range cfg.Modes {
		sum := 0
		for _, r := range recs {
			if r.Mode == m {
				sum += r.PromptTokens
			}
		}
		if p := plan.ByMode[m]; sum > p.PromptTokensMax {
			t.Errorf("%s: the records' prompt tokens sum to %d, past the dry run's bound %d", m, sum, p.PromptTokensMax)
		}
	}
	if p := plan.ByMode[mode.Agent]; firstTurns != p.PromptTokens {
		t.Errorf("agent first turns %d prompt tokens, the dry run's %d", firstTurns, p.PromptTokens)
	}
}

// checkResumeCostsSame checks the resumed records cost what the first run's
// did, the agent's replayed from the cache.
func checkResumeCostsSame(t *testing.T, recs, replayed []Record) {
	t.Helper()
	before := map[key]Record{}
	for _, r := range recs {
		before[r.key()] = r
	}
	for _, r := range replayed {
		b := before[r.key()]
		if r.Usage != b.Usage || r.PromptTokens != b.PromptTokens {
			t.Errorf("%s [%s]: resumed usage %+v, %d prompt tokens; first %+v, %d", r.QuestionID, r.Mode, r.Usage, r.PromptTokens, b.Usage, b.PromptTokens)
		}
		if r.Mode == mode.Agent && !r.Transcript.Steps[0].Cached {
			t.Errorf("%s: not replayed from the cache", r.QuestionID)
		}
	}
}
