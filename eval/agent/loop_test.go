package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/eval/agent"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/model"
)

// fakeSearch stands in for search_paper: a fixed answer per query, and a
// count of the calls that actually ran.
type fakeSearch struct {
	mu      sync.Mutex
	results map[string]agent.Result
	runs    []string
}

func (f *fakeSearch) Name() string        { return agent.ToolSearchPaper }
func (f *fakeSearch) Description() string { return "Search the paper for passages." }
func (f *fakeSearch) Parameters() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`)
}
func (f *fakeSearch) Close() error { return nil }
func (f *fakeSearch) Call(_ context.Context, args json.RawMessage) (agent.Result, error) {
	var a struct{ Query string }
	if err := json.Unmarshal(args, &a); err != nil || a.Query == "" {
		return agent.Result{Status: "bad arguments", Text: "query is required"}, nil
	}
	f.mu.Lock()
	f.runs = append(f.runs, a.Query)
	f.mu.Unlock()
	if r, ok := f.results[a.Query]; ok {
		return r, nil
	}
	return agent.Result{Status: "ok", Text: "no passage matches " + a.Query}, nil
}

func (f *fakeSearch) ran() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.runs)
}

func question(q string) model.Request {
	return model.Request{Model: "fake-model", Messages: []model.Message{
		{Role: "system", Content: "Answer from the paper; search it with search_paper."},
		{Role: "user", Content: q},
	}}
}

func lastTool(r modeltest.Request) (modeltest.Message, bool) {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "tool" {
			return r.Messages[i], true
		}
	}
	return modeltest.Message{}, false
}

// searchOnce is a chat double standing in for a tool-calling model: it
// calls search_paper once with the user's question, then answers with the
// first passage id and text the tool returned.
func searchOnce() modeltest.Config {
	return modeltest.Config{
		ToolCalls: func(r modeltest.Request) []modeltest.ToolCall {
			if _, ok := lastTool(r); ok {
				return nil
			}
			q, _ := json.Marshal(map[string]string{"query": r.Messages[len(r.Messages)-1].Content})
			return []modeltest.ToolCall{modeltest.Call("call_1", agent.ToolSearchPaper, string(q))}
		},
		Answer: func(r modeltest.Request) (string, string) {
			if m, ok := lastTool(r); ok {
				line, _, _ := strings.Cut(m.Content, "\n")
				return "Answer: " + line, "the tool said so"
			}
			return "", ""
		},
	}
}

func TestRunSearchOnceThenAnswer(t *testing.T) {
	srv := modeltest.NewServer(t, searchOnce())
	chat, err := model.NewOpenAI(model.Options{BaseURL: srv.BaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	tool := &fakeSearch{results: map[string]agent.Result{
		"What batch size?": {Status: "ok", Text: "[p#3] We train with batch size 32.\n[p#9] Learning rate 0.1.", Passages: []string{"p#3", "p#9"}},
	}}
	tr, err := agent.Run(t.Context(), chat, question("What batch size?"), []agent.Tool{tool}, agent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkSearchedOnceTranscript(t, tr, tool)
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].ToolChoice != "auto" || len(reqs[0].Tools) != 1 || len(reqs[1].Tools) != 1 {
		t.Fatalf("requests %+v", reqs)
	}
	if m := reqs[1].Messages[3]; m.Role != "tool" || m.ToolCallID != "call_1" || m.Content != tool.results["What batch size?"].Text {
		t.Errorf("tool message sent %+v", m)
	}
	checkTranscriptStoredWhole(t, tr)
}

// checkSearchedOnceTranscript checks the transcript of a search for
// "What batch size?" then an answer: the answer from the tool's first
// line, one call in two steps, its result and hash, the reasoning, the
// passages, and both turns' tokens counted.
func checkSearchedOnceTranscript(t *testing.T, tr agent.Transcript, tool *fakeSearch) {
	t.Helper()
	if tr.Answer != "Answer: [p#3] We train with batch size 32." {
		t.Errorf("answer %q", tr.Answer)
	}
	if len(tr.Steps) != 2 || tr.ToolCalls != 1 || tr.CutOff || !reflect.DeepEqual(tool.runs, []string{"What batch size?"}) {
		t.Fatalf("transcript %+v, runs %v", tr, tool.runs)
	}
	call := tr.Steps[0].Calls[0]
	if call.Name != agent.ToolSearchPaper || call.Arguments != `{"query":"What batch size?"}` || call.ID != "call_1" ||
		call.Result.Status != "ok" || call.Hash != agent.ResultHash(call.Result) || tr.Steps[0].FinishReason != "tool_calls" {
		t.Errorf("call %+v", call)
	}
	if tr.Steps[1].Reasoning != "the tool said so" || tr.Reasoning != "the tool said so" {
		t.Errorf("reasoning %q", tr.Steps[1].Reasoning)
	}
	if got := tr.Passages(); !reflect.DeepEqual(got, []string{"p#3", "p#9"}) {
		t.Errorf("passages %v", got)
	}
	// Both turns' tokens count.
	if tr.Usage != tr.Steps[0].Usage.Add(tr.Steps[1].Usage) || tr.Steps[0].Usage.PromptTokens == 0 || tr.Steps[1].Usage.CompletionTokens == 0 {
		t.Errorf("usage %+v of %+v and %+v", tr.Usage, tr.Steps[0].Usage, tr.Steps[1].Usage)
	}
}

// checkTranscriptStoredWhole checks tr is stored as JSON with the record
// and read back whole, and its results stored apart (Dedup) come back
// whole (Restore).
func checkTranscriptStoredWhole(t *testing.T, tr agent.Transcript) {
	t.Helper()
	b, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	var back agent.Transcript
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, tr) {
		t.Errorf("JSON round trip: %v\n%s", err, b)
	}
	// Results stored apart come back whole.
	results := back.Dedup()
	if len(results) != 1 || back.Steps[0].Calls[0].Result.Text != "" {
		t.Errorf("dedup kept %d results, call result %+v", len(results), back.Steps[0].Calls[0].Result)
	}
	if err := back.Restore(results); err != nil || !reflect.DeepEqual(back, tr) {
		t.Errorf("restore: %v", err)
	}
	if err := back.Restore(nil); err == nil {
		t.Error("restore from an empty store succeeded")
	}
}

// callForever stands in for a model that never stops searching: perReply
// calls each turn, until tool_choice "none" makes it answer.
func callForever(perReply int) modeltest.Config {
	return modeltest.Config{
		ToolCalls: func(r modeltest.Request) []modeltest.ToolCall {
			if r.ToolChoice == "none" {
				return nil
			}
			n := 0
			for _, m := range r.Messages {
				n += len(m.ToolCalls)
			}
			var out []modeltest.ToolCall
			for i := range perReply {
				out = append(out, modeltest.Call(fmt.Sprintf("call_%d", n+i), agent.ToolSearchPaper, fmt.Sprintf(`{"query":"try %d"}`, n+i)))
			}
			return out
		},
		Answer: func(r modeltest.Request) (string, string) {
			if r.ToolChoice == "none" {
				return fmt.Sprintf("forced after %d results", strings.Count(promptText(r), "no passage matches")), ""
			}
			return "", ""
		},
	}
}

func promptText(r modeltest.Request) string {
	var b strings.Builder
	for _, m := range r.Messages {
		b.WriteString(m.Content + "\n")
	}
	return b.String()
}

func TestRunCutOffAtMaxToolCalls(t *testing.T) {
	cases := []struct {
		name            string
		max, perReply   int
		wantSkipped     int
		wantModelCalls  int
		wantAnswer      string
		wantResultsSent int
	}{
		{"default cap, one call a turn", 0, 1, 0, 11, "forced after 10 results", 10},
		{"cap 10, three calls a turn", 10, 3, 2, 5, "forced after 10 results", 10},
		{"cap 3", 3, 1, 0, 4, "forced after 3 results", 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := modeltest.NewServer(t, callForever(tc.perReply))
			chat, err := model.NewOpenAI(model.Options{BaseURL: srv.BaseURL()})
			if err != nil {
				t.Fatal(err)
			}
			tool := &fakeSearch{}
			tr, err := agent.Run(t.Context(), chat, question("q"), []agent.Tool{tool}, agent.Options{MaxToolCalls: tc.max})
			if err != nil {
				t.Fatal(err)
			}
			want := tc.max
			if want == 0 {
				want = agent.DefaultMaxToolCalls
			}
			if tool.ran() != want || tr.ToolCalls != want || !tr.CutOff || tr.Answer != tc.wantAnswer {
				t.Errorf("ran %d, counted %d, cut off %v, answer %q; want %d runs", tool.ran(), tr.ToolCalls, tr.CutOff, tr.Answer, want)
			}
			skipped := 0
			for _, s := range tr.Steps {
				for _, c := range s.Calls {
					if c.Skipped {
						skipped++
					}
				}
			}
			if skipped != tc.wantSkipped {
				t.Errorf("%d calls skipped, want %d", skipped, tc.wantSkipped)
			}
			reqs := srv.Requests()
			if len(reqs) != tc.wantModelCalls {
				t.Fatalf("%d model calls, want %d", len(reqs), tc.wantModelCalls)
			}
			last := reqs[len(reqs)-1]
			if last.ToolChoice != "none" || len(last.Tools) != 1 || !strings.Contains(last.Messages[len(last.Messages)-1].Content, "Answer the question now") {
				t.Errorf("last request: tool_choice %q, %d tools, last message %+v", last.ToolChoice, len(last.Tools), last.Messages[len(last.Messages)-1])
			}
			for _, r := range reqs[:len(reqs)-1] {
				if r.ToolChoice != "auto" {
					t.Errorf("request %d: tool_choice %q", r.N, r.ToolChoice)
				}
			}
			// Every call the model made was answered under its id.
			answered := map[string]bool{}
			for _, m := range last.Messages {
				if m.Role == "tool" {
					answered[m.ToolCallID] = true
				}
			}
			for _, m := range last.Messages {
				for _, c := range m.ToolCalls {
					if !answered[c.ID] {
						t.Errorf("call %s has no tool message", c.ID)
					}
				}
			}
			if !tr.Steps[len(tr.Steps)-1].Forced {
				t.Error("last step not marked forced")
			}
		})
	}
}

// A call of a tool that does not exist, or with arguments that are not a
// JSON object, is answered with a "bad arguments" result the model reads;
// the question goes on.
func TestRunBadCalls(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Config{
		ToolCalls: func(r modeltest.Request) []modeltest.ToolCall {
			if _, ok := lastTool(r); ok {
				return nil
			}
			return []modeltest.ToolCall{
				modeltest.Call("a", "browse", `{"url":"x"}`),
				modeltest.Call("b", agent.ToolSearchPaper, `{query: "unquoted"`),
				modeltest.Call("c", agent.ToolSearchPaper, `[1,2]`),
			}
		},
		Answer: func(r modeltest.Request) (string, string) { return "done", "" },
	})
	chat, err := model.NewOpenAI(model.Options{BaseURL: srv.BaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	tool := &fakeSearch{}
	tr, err := agent.Run(t.Context(), chat, question("q"), []agent.Tool{tool}, agent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tool.ran() != 0 || tr.ToolCalls != 3 || tr.Answer != "done" {
		t.Fatalf("ran %d, counted %d, answer %q", tool.ran(), tr.ToolCalls, tr.Answer)
	}
	for i, want := range []string{`no tool named "browse"`, "must be a JSON object", "must be a JSON object"} {
		c := tr.Steps[0].Calls[i]
		if c.Result.Status != "bad arguments" || !strings.Contains(c.Result.Text, want) {
			t.Errorf("call %s: %+v", c.ID, c.Result)
		}
	}
	sent := srv.Requests()[1].Messages
	if m := sent[len(sent)-3]; m.ToolCallID != "a" || !strings.Contains(m.Content, "search_paper") {
		t.Errorf("model told %+v", m)
	}
}

// A rerun over the same caches makes no tool call and, through the model
// cache, no HTTP call: the model's turns are the same requests.
func TestRunReplay(t *testing.T) {
	srv := modeltest.NewServer(t, callForever(2))
	base, err := model.NewOpenAI(model.Options{BaseURL: srv.BaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	run := func() (agent.Transcript, *fakeSearch) {
		chat, closer, err := model.Stack(base, model.StackOptions{CachePath: filepath.Join(dir, "model.db")})
		if err != nil {
			t.Fatal(err)
		}
		defer closer.Close()
		tc, err := agent.OpenFileCache(filepath.Join(dir, "tools.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer tc.Close()
		tool := &fakeSearch{}
		tr, err := agent.Run(t.Context(), chat, question("q"), []agent.Tool{tool},
			agent.Options{MaxToolCalls: 4, Cache: tc, Key: "bench/q1/agent/0"})
		if err != nil {
			t.Fatal(err)
		}
		return tr, tool
	}
	first, tool1 := run()
	calls := srv.Count()
	second, tool2 := run()
	if tool1.ran() != 4 || tool2.ran() != 0 || srv.Count() != calls {
		t.Errorf("first run %d tool calls, second %d; HTTP calls %d then %d", tool1.ran(), tool2.ran(), calls, srv.Count())
	}
	if second.Answer != first.Answer || second.ToolCalls != first.ToolCalls || second.Usage != first.Usage || second.PromptTokens != first.PromptTokens {
		t.Errorf("replay differs: %+v vs %+v", second, first)
	}
	for _, s := range second.Steps {
		if !s.Cached {
			t.Error("a model turn of the rerun was not served from the cache")
		}
		for _, c := range s.Calls {
			if !c.Cached && !c.Skipped {
				t.Errorf("call %s ran again", c.ID)
			}
		}
	}
}

// counter stands in for a stateful tool (python): each call adds to a
// running sum that lives in the tool.
type counter struct {
	sum  int
	runs int
}

func (c *counter) Name() string        { return agent.ToolPython }
func (c *counter) Description() string { return "Add to a running sum." }
func (c *counter) Parameters() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"add":{"type":"integer"}}}`)
}
func (c *counter) Close() error   { return nil }
func (c *counter) Stateful() bool { return true }
func (c *counter) Call(_ context.Context, args json.RawMessage) (agent.Result, error) {
	var a struct{ Add int }
	json.Unmarshal(args, &a)
	c.sum += a.Add
	c.runs++
	return agent.Result{Status: "ok", Text: fmt.Sprint(c.sum)}, nil
}

// A rerun that finds the first cells of a stateful tool in the cache but
// not the next runs the cached ones again first, so the next sees their
// state; and a cell's key depends on the cells before it.
func TestRunReplayStateful(t *testing.T) {
	adds := func(r modeltest.Request) []modeltest.ToolCall {
		n := 0
		for _, m := range r.Messages {
			n += len(m.ToolCalls)
		}
		if n >= 3 {
			return nil
		}
		return []modeltest.ToolCall{modeltest.Call(fmt.Sprint("c", n), agent.ToolPython, fmt.Sprintf(`{"add":%d}`, n+1))}
	}
	srv := modeltest.NewServer(t, modeltest.Config{ToolCalls: adds, Answer: func(r modeltest.Request) (string, string) {
		m, _ := lastTool(r)
		return "sum " + m.Content, ""
	}})
	chat, err := model.NewOpenAI(model.Options{BaseURL: srv.BaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	full := &agent.MemCache{}
	c1 := &counter{}
	tr, err := agent.Run(t.Context(), chat, question("q"), []agent.Tool{c1}, agent.Options{Cache: full, Key: "k"})
	if err != nil || tr.Answer != "sum 6" || c1.runs != 3 {
		t.Fatalf("%v %q %d", err, tr.Answer, c1.runs)
	}
	// As if killed after the first two cells were stored.
	partial := &agent.MemCache{}
	prior := []json.RawMessage{}
	for i, a := range []string{`{"add":1}`, `{"add":2}`} {
		k := agent.CallKey("k", agent.ToolPython, json.RawMessage(a), prior)
		r, ok, _ := full.Get(t.Context(), k)
		if !ok {
			t.Fatalf("cell %d not stored under its key", i)
		}
		partial.Put(t.Context(), k, r)
		prior = append(prior, json.RawMessage(a))
	}
	c2 := &counter{}
	tr, err = agent.Run(t.Context(), chat, question("q"), []agent.Tool{c2}, agent.Options{Cache: partial, Key: "k"})
	if err != nil || tr.Answer != "sum 6" || c2.runs != 3 {
		t.Errorf("resumed: %v %q, %d runs (2 replayed + 1 new)", err, tr.Answer, c2.runs)
	}
	if !tr.Steps[0].Calls[0].Cached || !tr.Steps[1].Calls[0].Cached || tr.Steps[2].Calls[0].Cached {
		t.Errorf("cached flags wrong: %+v", tr.Steps)
	}
}

// dying is fakeSearch that stops the question (as a kill would) on its
// failAt-th run.
type dying struct {
	fakeSearch
	failAt int
}

func (d *dying) Call(ctx context.Context, args json.RawMessage) (agent.Result, error) {
	if d.failAt > 0 && d.ran()+1 == d.failAt {
		return agent.Result{}, context.Canceled
	}
	return d.fakeSearch.Call(ctx, args)
}

// A question stopped in the middle resumes where it was: the finished
// turns' model calls and tool calls are not made again.
func TestRunResumeAfterInterruption(t *testing.T) {
	srv := modeltest.NewServer(t, callForever(1))
	base, err := model.NewOpenAI(model.Options{BaseURL: srv.BaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	run := func(failAt int) (agent.Transcript, *dying, error) {
		chat, closer, err := model.Stack(base, model.StackOptions{CachePath: filepath.Join(dir, "model.db")})
		if err != nil {
			t.Fatal(err)
		}
		defer closer.Close()
		tc, err := agent.OpenFileCache(filepath.Join(dir, "tools.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer tc.Close()
		tool := &dying{failAt: failAt}
		tr, err := agent.Run(t.Context(), chat, question("q"), []agent.Tool{tool}, agent.Options{MaxToolCalls: 5, Cache: tc, Key: "k"})
		return tr, tool, err
	}
	_, first, err := run(3)
	if !errors.Is(err, context.Canceled) || first.ran() != 2 {
		t.Fatalf("first run: %v after %d tool runs", err, first.ran())
	}
	calls := srv.Count() // turns 1 to 3 asked
	tr, second, err := run(0)
	if err != nil {
		t.Fatal(err)
	}
	// Tool calls 3 to 5 run; model turns 4 to 6 (the last forced) are new.
	if second.ran() != 3 || srv.Count()-calls != 3 || tr.ToolCalls != 5 || !tr.CutOff {
		t.Errorf("resumed run: %d tool runs, %d new model calls, %+v", second.ran(), srv.Count()-calls, tr)
	}
	if want := []string{"try 2", "try 3", "try 4"}; !reflect.DeepEqual(second.runs, want) {
		t.Errorf("ran %v, want %v", second.runs, want)
	}
}

// The file cache keeps a result shown to many calls once, and survives
// reopening.
func TestFileCacheStoresResultsOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tools.db")
	c, err := agent.OpenFileCache(path)
	if err != nil {
		t.Fatal(err)
	}
	same := agent.Result{Status: "ok", Text: "[p#1] x", Passages: []string{"p#1"}}
	for i, q := range []string{"q1", "q2", "q3"} {
		k := agent.CallKey(q, agent.ToolSearchPaper, json.RawMessage(`{"query":"x"}`), nil)
		r := same
		if i == 2 {
			r = agent.Result{Status: "ok", Text: "other"}
		}
		if err := c.Put(t.Context(), k, r); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.Results(); n != 2 {
		t.Errorf("%d results stored, want 2", n)
	}
	c.Close()
	c, err = agent.OpenFileCache(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, ok, err := c.Get(t.Context(), agent.CallKey("q2", agent.ToolSearchPaper, json.RawMessage(`{ "query": "x" }`), nil))
	if err != nil || !ok || !reflect.DeepEqual(got, same) {
		t.Errorf("after reopening: %+v %v %v", got, ok, err)
	}
}

// A model that searches forever, under a context budget: results are sent
// whole while they fit, the one that would pass the budget is cut to fit
// with a note, and the next turn forces the answer with the budget prompt,
// before the cap. The loop counts the server's prompt_tokens of each turn
// plus cl100k_base for what it adds; the test measures the conversation
// with cl100k_base alone.
func TestRunStopsAtBudget(t *testing.T) {
	long := strings.Repeat("The passage says the learning rate was warmed up over the first epoch. ", 20) // about 280 tokens
	tool := &fakeSearch{results: map[string]agent.Result{}}
	for i := range 30 {
		tool.results[fmt.Sprintf("try %d", i)] = agent.Result{Status: "ok", Text: fmt.Sprintf("[p%d] %s", i, long), Passages: []string{fmt.Sprintf("p%d", i)}}
	}
	srv := modeltest.NewServer(t, callForever(1))
	chat, err := model.NewOpenAI(model.Options{BaseURL: srv.BaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	const budget = 1000
	tr, err := agent.Run(t.Context(), chat, question("q"), []agent.Tool{tool}, agent.Options{MaxToolCalls: 10, Budget: budget})
	if err != nil {
		t.Fatal(err)
	}
	if !tr.BudgetFull || !tr.CutOff || tr.ToolCalls >= 10 || tr.ToolCalls < 3 {
		t.Fatalf("budget full %v, cut off %v, %d calls; want the budget to stop it after 3 or 4", tr.BudgetFull, tr.CutOff, tr.ToolCalls)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if last.ToolChoice != "none" || !strings.Contains(last.Messages[len(last.Messages)-1].Content, "context budget of 1000 tokens") {
		t.Errorf("last request: tool_choice %q, last message %q", last.ToolChoice, last.Messages[len(last.Messages)-1].Content)
	}
	var sent []model.Message
	for _, m := range last.Messages {
		sent = append(sent, model.Message{Role: m.Role, Content: m.Content})
		for _, c := range m.ToolCalls {
			sent[len(sent)-1].ToolCalls = append(sent[len(sent)-1].ToolCalls, model.ToolCall{ID: c.ID, Function: model.FunctionCall{Name: c.Function.Name, Arguments: c.Function.Arguments}})
		}
	}
	// The last request holds every result plus the budget prompt: all
	// but that prompt fits the budget.
	if n := tokensOf(sent[:len(sent)-1]); n > budget || n < budget-200 {
		t.Errorf("the conversation before the forced turn is %d tokens; want at most %d, and close to it", n, budget)
	}
	lastCall := tr.Steps[len(tr.Steps)-2].Calls[0]
	if !strings.HasSuffix(lastCall.Result.Text, "[cut: the context budget is reached]") || lastCall.Hash != agent.ResultHash(lastCall.Result) {
		t.Errorf("the last result was not cut with a note: %q", lastCall.Result.Text[max(0, len(lastCall.Result.Text)-80):])
	}
	if got := tr.Passages(); len(got) != tr.ToolCalls {
		t.Errorf("passages shown %q after %d calls", got, tr.ToolCalls)
	}
}

func tokensOf(msgs []model.Message) int {
	n := 0
	for _, m := range msgs {
		n += 4 + tokens.Count(m.Content)
		for _, c := range m.ToolCalls {
			n += 4 + tokens.Count(c.Function.Name) + tokens.Count(c.Function.Arguments)
		}
	}
	return n
}

// Every turn counts, the forced one included: the transcript's usage is
// the sum of what the server reported for each, and its prompt tokens the
// sum of each prompt as sent, the caller's count of the question's prompt
// plus cl100k_base (with framing) over what the loop added. A turn whose
// request fails adds to neither: the server reported nothing for it.
func TestRunCountsEveryTurn(t *testing.T) {
	const base = 1000 // the caller's count of the question's prompt
	cfg := callForever(1)
	cfg.ReasoningTokens = func(modeltest.Request) int { return 7 }
	cfg.CachedTokens = func(r modeltest.Request) int { return len(r.Messages) }
	srv := modeltest.NewServer(t, cfg)
	chat, err := model.NewOpenAI(model.Options{BaseURL: srv.BaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	q := question("q")
	tr, err := agent.Run(t.Context(), chat, q, []agent.Tool{&fakeSearch{}}, agent.Options{MaxToolCalls: 2, PromptTokens: base})
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(tr.Steps) != 3 || len(reqs) != 3 || !tr.Steps[2].Forced {
		t.Fatalf("%d steps, %d requests; want two searches and a forced answer", len(tr.Steps), len(reqs))
	}
	var usage model.Usage
	prompts := 0
	for i, r := range reqs {
		usage = usage.Add(tr.Steps[i].Usage)
		var added []model.Message
		for _, m := range r.Messages[len(q.Messages):] {
			mm := model.Message{Role: m.Role, Content: m.Content}
			for _, c := range m.ToolCalls {
				mm.ToolCalls = append(mm.ToolCalls, model.ToolCall{ID: c.ID, Function: model.FunctionCall{Name: c.Function.Name, Arguments: c.Function.Arguments}})
			}
			added = append(added, mm)
		}
		want := base + tokensOf(added)
		if tr.Steps[i].PromptTokens != want {
			t.Errorf("turn %d: prompt tokens %d, want %d", i+1, tr.Steps[i].PromptTokens, want)
		}
		prompts += want
	}
	if tr.Usage != usage || usage.ReasoningTokens != 3*7 || usage.CachedTokens == 0 || usage.TotalTokens != usage.PromptTokens+usage.CompletionTokens {
		t.Errorf("usage %+v, the turns' sum %+v", tr.Usage, usage)
	}
	if tr.PromptTokens != prompts {
		t.Errorf("prompt tokens %d, want %d", tr.PromptTokens, prompts)
	}

	// The third turn fails: the first two still count, and only they.
	srv.Update(func(c *modeltest.Config) {
		c.Inject = func(r modeltest.Request) *modeltest.Fault {
			if r.ToolChoice == "none" {
				return &modeltest.Fault{Kind: modeltest.ServerError}
			}
			return nil
		}
	})
	failed, err := agent.Run(t.Context(), chat, q, []agent.Tool{&fakeSearch{}}, agent.Options{MaxToolCalls: 2, PromptTokens: base})
	if err == nil || len(failed.Steps) != 2 {
		t.Fatalf("error %v after %d steps; want the forced turn's", err, len(failed.Steps))
	}
	if want := tr.Steps[0].Usage.Add(tr.Steps[1].Usage); failed.Usage != want || failed.PromptTokens != tr.Steps[0].PromptTokens+tr.Steps[1].PromptTokens {
		t.Errorf("failed run usage %+v, %d prompt tokens; want %+v, %d", failed.Usage, failed.PromptTokens, want, tr.Steps[0].PromptTokens+tr.Steps[1].PromptTokens)
	}
}
