package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/model"
)

// DefaultMaxToolCalls is Options.MaxToolCalls when zero (--max-tool-calls).
const DefaultMaxToolCalls = 10

// DefaultFinalPrompt is the user turn added before the forced last request
// when the model has used up its tool calls; %d is the cap.
const DefaultFinalPrompt = "You have used all %d tool calls you may make. Answer the question now, with what you have found, in the format asked for. Do not call tools."

// DefaultBudgetPrompt is that user turn when the context budget, not the
// cap, ended the search.
const DefaultBudgetPrompt = "The conversation has reached the context budget of %d tokens, so no more tool results fit. Answer the question now, with what you have found, in the format asked for. Do not call tools."

// minRoom is the fewest tokens worth sending as a cut tool result; with
// less room left the answer is forced.
const minRoom = 64

// Options configure Run.
type Options struct {
	// MaxToolCalls caps the tool calls of one question (DefaultMaxToolCalls
	// when 0). When the model reaches it, one last request is made with
	// tool_choice "none" and FinalPrompt added, and its text is the answer.
	MaxToolCalls int
	// FinalPrompt is the user turn of that last request (DefaultFinalPrompt
	// when empty; a %d in it is replaced by the cap).
	FinalPrompt string
	// ToolChoice is sent on every request but the forced last one; empty
	// means "auto".
	ToolChoice string
	// Cache, when set, keeps every tool result, so that a rerun of a
	// finished turn runs no tool (the model's turns replay through the
	// model cache: the same messages give the same request). Key must then
	// name the question: the benchmark, question id, mode and run, what
	// makes a tool call of one question differ from the same call in
	// another.
	Cache ToolCache
	Key   string
	// Budget, when positive, is how many prompt tokens the conversation
	// may reach: the model's window less the room kept for the answer
	// (--budget less --max-tokens). A tool result that would pass it is
	// cut to fit, with a note, and once fewer than 64 tokens are left the
	// answer is forced as at the cap, with DefaultBudgetPrompt. The count
	// is the server's prompt_tokens of the last turn when it reports one,
	// else cl100k_base over the messages.
	Budget int
	// PromptTokens, when positive, is the caller's count of req.Messages
	// (run passes its assembled prompt's cl100k_base count, so that a tool
	// mode's first turn counts as the same prompt does in every other
	// mode); zero counts them as the loop counts what it adds. See
	// Step.PromptTokens.
	PromptTokens int
}

// ToolCache stores tool results by key (see CallKey). Implementations must
// be safe for concurrent use; Put must be durable when it returns, so that
// a run killed after a tool call finds it on restart.
type ToolCache interface {
	Get(ctx context.Context, key string) (Result, bool, error)
	Put(ctx context.Context, key string, r Result) error
}

// Stateful is implemented by tools whose result depends on the calls made
// before it in the same question (python: the notebook's cells; a tool
// named python is taken as stateful unless it says otherwise). Their
// cache key includes those calls, and a cached prefix is re-run before the
// first call that misses, so the tool's state is what the model believes
// it is.
type Stateful interface {
	Stateful() bool
}

// CallKey is the cache key of a call of tool name with arguments args in
// the question named question; prior are the arguments of the same tool's
// earlier calls in the question when the tool is stateful (nil otherwise).
// Arguments are canonical JSON, so spacing and member order do not matter.
func CallKey(question, name string, args json.RawMessage, prior []json.RawMessage) string {
	h := sha256.New()
	fmt.Fprintf(h, "agent-tool/1\x00%s\x00%s\x00%s", question, name, model.CanonicalJSON(args))
	for _, p := range prior {
		fmt.Fprintf(h, "\x00%s", model.CanonicalJSON(p))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Transcript is the whole exchange of one question, as stored with its
// record.
type Transcript struct {
	Steps []Step `json:"steps"`
	// Answer is the text of the model's last turn; Reasoning its thought,
	// when the server returned one; FinishReason its finish_reason.
	Answer       string `json:"answer"`
	Reasoning    string `json:"reasoning,omitempty"`
	FinishReason string `json:"finish_reason,omitempty"`
	// ToolCalls counts the calls the model made that were answered (run,
	// served from the cache, or refused as bad arguments); calls past the
	// cap in the reply that reached it are not counted.
	ToolCalls int `json:"tool_calls"`
	// CutOff is true when the cap was reached and the answer was forced
	// with tool_choice "none"; BudgetFull when the context budget forced
	// it (CutOff is then true as well).
	CutOff     bool `json:"cut_off"`
	BudgetFull bool `json:"budget_full,omitempty"`
	// Usage sums every turn's tokens as the server reported them, a turn
	// replayed from the response cache included (the cache keeps the usage
	// of the call it stored), so that a resumed run costs what the first
	// did.
	Usage model.Usage `json:"usage"`
	// PromptTokens sums the steps' PromptTokens: paperlens's own count of
	// every prompt the loop sent, which grows each turn by the replies and
	// tool results before it. A turn whose request failed is in neither
	// sum, as the server reported nothing for it.
	PromptTokens int `json:"prompt_tokens"`
}

// Step is one model turn and the tool calls it made.
type Step struct {
	Content      string      `json:"content,omitempty"`
	Reasoning    string      `json:"reasoning,omitempty"`
	FinishReason string      `json:"finish_reason,omitempty"`
	Usage        model.Usage `json:"usage"`
	// PromptTokens is paperlens's count of the messages this turn sent:
	// Options.PromptTokens for the question's prompt plus cl100k_base
	// over each message the loop added (replies, tool results, the
	// forced turn's prompt) with OpenAI's 4 tokens of framing a message,
	// as the budget counts. The tools' specs are not in it.
	PromptTokens int `json:"prompt_tokens"`
	// Cached is a turn served from the model cache.
	Cached bool `json:"cached,omitempty"`
	// ReplyCut is a turn whose reply was over the size limit and cut
	// (model.Response.Cut): Content and Reasoning are what came before.
	ReplyCut bool `json:"reply_cut,omitempty"`
	// Forced is the last turn, asked with tool_choice "none" after the cap.
	Forced bool   `json:"forced,omitempty"`
	Calls  []Call `json:"calls,omitempty"`
}

// Call is one tool call and its result.
type Call struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"` // as the model wrote them
	Result    Result `json:"result"`
	// Hash is ResultHash(Result), under which a store can keep each
	// distinct result once.
	Hash string `json:"hash"`
	// Cached is a result served from the tool cache; Skipped a call past
	// the cap, answered without running.
	Cached  bool `json:"cached,omitempty"`
	Skipped bool `json:"skipped,omitempty"`
}

// ResultHash is the SHA-256 (hex) of a result's canonical JSON: equal
// results, however many questions they occur in, share it.
func ResultHash(r Result) string {
	b, _ := json.Marshal(r)
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Passages are the ids of every passage any tool result showed the model,
// first showing first, each once: what evidence recall counts.
func (t *Transcript) Passages() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range t.Steps {
		for _, c := range s.Calls {
			for _, p := range c.Result.Passages {
				if !seen[p] {
					seen[p] = true
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// Specs are the tools as a request's "tools".
func Specs(tools []Tool) []model.ToolSpec {
	out := make([]model.ToolSpec, len(tools))
	for i, t := range tools {
		out[i] = model.ToolSpec{Type: "function", Function: model.FunctionSpec{
			Name: t.Name(), Description: t.Description(), Parameters: t.Parameters()}}
	}
	return out
}

// Run asks req (its messages, model and sampling) with tools, runs the
// tool calls of each reply and sends their results back, until the model
// answers without calling a tool or has made opt.MaxToolCalls calls, when
// one last request with tool_choice "none" forces the answer. Every turn
// goes through chat (so through its cache, retries and limits) and counts
// in the transcript's usage. A tool's error (not a Result with a bad
// status: the context cancelled, a sandbox missing) or a model error stops
// the question; the transcript so far is returned with it. Run does not
// close the tools.
func Run(ctx context.Context, chat model.Chat, req model.Request, tools []Tool, opt Options) (Transcript, error) {
	var tr Transcript
	if opt.MaxToolCalls <= 0 {
		opt.MaxToolCalls = DefaultMaxToolCalls
	}
	if opt.ToolChoice == "" {
		opt.ToolChoice = model.ToolChoiceAuto
	}
	if opt.Cache != nil && opt.Key == "" {
		return tr, errors.New("agent: Options.Cache needs Options.Key, the question's name")
	}
	byName := map[string]Tool{}
	var names []string
	for _, t := range tools {
		if _, dup := byName[t.Name()]; dup {
			return tr, fmt.Errorf("agent: two tools named %q", t.Name())
		}
		byName[t.Name()] = t
		names = append(names, t.Name())
	}
	sort.Strings(names)
	req.Tools = Specs(tools)
	req.Messages = append([]model.Message(nil), req.Messages...)
	st := &state{opt: opt, byName: byName, names: names, history: map[string][]json.RawMessage{}, unrun: map[string]int{}}
	used := messageTokens(req.Messages...) // prompt tokens so far
	// base and first are the question's prompt as counted by the caller
	// and by the loop: a turn's count is base plus what the loop added.
	base, first := opt.PromptTokens, len(req.Messages)
	if base <= 0 {
		base = used
	}

	for {
		forced := tr.ToolCalls >= opt.MaxToolCalls || tr.BudgetFull
		req.ToolChoice = opt.ToolChoice
		if forced {
			tr.CutOff = true
			req.ToolChoice = model.ToolChoiceNone
			p, n := opt.FinalPrompt, opt.MaxToolCalls
			if p == "" {
				p = DefaultFinalPrompt
			}
			if tr.BudgetFull {
				p, n = DefaultBudgetPrompt, opt.Budget
			}
			if strings.Contains(p, "%d") {
				p = fmt.Sprintf(p, n)
			}
			req.Messages = append(req.Messages, model.Message{Role: "user", Content: p})
		}
		resp, err := chat.Complete(ctx, req)
		if err != nil {
			return tr, fmt.Errorf("agent: turn %d: %w", len(tr.Steps)+1, err)
		}
		step := Step{Content: resp.Content, Reasoning: resp.Reasoning, FinishReason: resp.FinishReason,
			Usage: resp.Usage, PromptTokens: base + messageTokens(req.Messages[first:]...), Cached: resp.Cached, ReplyCut: resp.Cut, Forced: forced}
		tr.Usage = tr.Usage.Add(resp.Usage)
		tr.PromptTokens += step.PromptTokens
		if len(resp.ToolCalls) == 0 || forced {
			// A server that calls tools despite "none" still has its text
			// taken as the answer; the calls are recorded, not run.
			for _, c := range resp.ToolCalls {
				step.Calls = append(step.Calls, skipped(c, "not run: the answer was forced with tool_choice none"))
			}
			tr.Steps = append(tr.Steps, step)
			tr.Answer, tr.Reasoning, tr.FinishReason = resp.Content, resp.Reasoning, resp.FinishReason
			return tr, nil
		}
		reply := model.Message{Role: "assistant", Content: resp.Content, ToolCalls: resp.ToolCalls}
		req.Messages = append(req.Messages, reply)
		if resp.Usage.PromptTokens > 0 {
			used = resp.Usage.PromptTokens
		} else {
			used = messageTokens(req.Messages[:len(req.Messages)-1]...)
		}
		used += messageTokens(reply)
		for _, c := range resp.ToolCalls {
			var call Call
			switch {
			case tr.ToolCalls >= opt.MaxToolCalls:
				// Every call must be answered, or the next request is invalid.
				call = skipped(c, fmt.Sprintf("not run: the limit of %d tool calls is reached", opt.MaxToolCalls))
			case tr.BudgetFull:
				call = skipped(c, fmt.Sprintf("not run: the context budget of %d tokens is reached", opt.Budget))
			default:
				call, err = st.call(ctx, c)
				if err != nil {
					step.Calls = append(step.Calls, call)
					tr.Steps = append(tr.Steps, step)
					return tr, fmt.Errorf("agent: turn %d: tool %s: %w", len(tr.Steps), c.Function.Name, err)
				}
				tr.ToolCalls++
				if opt.Budget > 0 {
					call, tr.BudgetFull = fit(call, opt.Budget-used)
				}
			}
			step.Calls = append(step.Calls, call)
			// No "name": OpenAI's tool message has none, and strict
			// servers refuse members they do not know.
			msg := model.Message{Role: "tool", ToolCallID: c.ID, Content: call.Result.Text}
			req.Messages = append(req.Messages, msg)
			used += messageTokens(msg)
		}
		tr.Steps = append(tr.Steps, step)
	}
}

// messageTokens estimates the prompt tokens of msgs: cl100k_base over
// each text and call, and 4 for each message's framing, as OpenAI counts.
func messageTokens(msgs ...model.Message) int {
	n := 0
	for _, m := range msgs {
		n += 4 + tokens.Count(m.Content)
		for _, c := range m.ToolCalls {
			n += 4 + tokens.Count(c.Function.Name) + tokens.Count(c.Function.Arguments)
		}
	}
	return n
}

// fit cuts a call's result to room tokens (the note included), keeping
// only the passages whose text still shows; full reports that the budget
// is used up, so that the next turn forces the answer.
func fit(c Call, room int) (Call, bool) {
	const note = "\n[cut: the context budget is reached]"
	if 4+tokens.Count(c.Result.Text) <= room {
		return c, room-4-tokens.Count(c.Result.Text) < minRoom
	}
	r := c.Result
	if room < minRoom {
		r = Result{Status: "refused", Text: "not shown: the context budget is reached"}
	} else {
		r.Text = tokens.Head(r.Text, room-4-tokens.Count(note)) + note
		var kept []string
		for _, p := range r.Passages {
			if strings.Contains(r.Text, "["+p+"]") {
				kept = append(kept, p)
			}
		}
		r.Passages = kept
	}
	c.Result, c.Hash = r, ResultHash(r)
	return c, true
}

func skipped(c model.ToolCall, why string) Call {
	r := Result{Status: "refused", Text: why}
	return Call{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments, Result: r, Hash: ResultHash(r), Skipped: true}
}

// state is what Run keeps between calls of one question.
type state struct {
	opt    Options
	byName map[string]Tool
	names  []string
	// history holds, per stateful tool, the arguments of its calls so far;
	// unrun counts how many of them (a prefix) were served from the cache
	// and never ran in this process.
	history map[string][]json.RawMessage
	unrun   map[string]int
}

func (s *state) call(ctx context.Context, c model.ToolCall) (Call, error) {
	out := Call{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments}
	done := func(r Result) Call {
		out.Result, out.Hash = r, ResultHash(r)
		return out
	}
	t, ok := s.byName[c.Function.Name]
	if !ok {
		return done(Result{Status: "bad arguments", Text: fmt.Sprintf("There is no tool named %q. The tools are: %s.", c.Function.Name, strings.Join(s.names, ", "))}), nil
	}
	args := json.RawMessage(strings.TrimSpace(c.Function.Arguments))
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil || obj == nil {
		return done(Result{Status: "bad arguments", Text: fmt.Sprintf("The arguments of %s must be a JSON object matching its parameters; got %q.", c.Function.Name, clip(c.Function.Arguments, 200))}), nil
	}
	// python keeps its state between cells even if its tool does not say
	// so: replaying a cell out of its sequence would give a wrong result.
	stateful := t.Name() == ToolPython
	if sf, ok := t.(Stateful); ok {
		stateful = sf.Stateful()
	}
	var prior []json.RawMessage
	if stateful {
		prior = s.history[t.Name()]
		s.history[t.Name()] = append(prior, args)
	}
	var key string
	if s.opt.Cache != nil {
		key = CallKey(s.opt.Key, t.Name(), args, prior)
		r, hit, err := s.opt.Cache.Get(ctx, key)
		if err != nil {
			return out, fmt.Errorf("tool cache: %w", err)
		}
		if hit {
			if stateful {
				s.unrun[t.Name()]++
			}
			out.Cached = true
			return done(r), nil
		}
	}
	if stateful && s.unrun[t.Name()] > 0 {
		// The session lacks the cells replayed from the cache: run them
		// first, their output unused, so this one sees their state.
		for _, p := range prior[len(prior)-s.unrun[t.Name()]:] {
			if _, err := t.Call(ctx, p); err != nil {
				return out, fmt.Errorf("re-running a cached call: %w", err)
			}
		}
		s.unrun[t.Name()] = 0
	}
	r, err := t.Call(ctx, args)
	if err != nil {
		return out, err
	}
	if s.opt.Cache != nil {
		if err := s.opt.Cache.Put(ctx, key, r); err != nil {
			return done(r), fmt.Errorf("tool cache: %w", err)
		}
	}
	return done(r), nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Dedup takes the tool results out of t, leaving each call's Hash, and
// returns them by hash: a store keeps each distinct result once (the same
// passages shown to many questions, the same page opened twice) beside
// transcripts that name them. Restore puts them back.
func (t *Transcript) Dedup() map[string]Result {
	out := map[string]Result{}
	for i := range t.Steps {
		for j := range t.Steps[i].Calls {
			c := &t.Steps[i].Calls[j]
			if c.Hash == "" {
				c.Hash = ResultHash(c.Result)
			}
			out[c.Hash] = c.Result
			c.Result = Result{}
		}
	}
	return out
}

// Restore fills the results Dedup took out from results, by hash.
func (t *Transcript) Restore(results map[string]Result) error {
	for i := range t.Steps {
		for j := range t.Steps[i].Calls {
			c := &t.Steps[i].Calls[j]
			r, ok := results[c.Hash]
			if !ok {
				return fmt.Errorf("agent: transcript names tool result %.12s, which is not stored", c.Hash)
			}
			c.Result = r
		}
	}
	return nil
}
