package rerank

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/paperlens/paperlens/model"
	"github.com/paperlens/paperlens/retrieve"
)

// RankGPT's sliding window (Sun et al. 2023, "Is ChatGPT Good at Search?"):
// 20 passages per prompt, moved 10 at a time from the back of the list to
// the front, so a passage can climb from rank 30 to rank 1 in two windows
// while each prompt stays short enough for any chat model.
const (
	DefaultWindow = 20
	DefaultStep   = 10
	// DefaultPassageWords is where RankGPT cuts each passage (max_length
	// 300 words): about 400 tokens, so a window of 20 is about 8k tokens.
	DefaultPassageWords = 300
	// DefaultReplyTokens is room for "[20] > [3] > …" over 20 passages
	// (about 130 tokens) with some to spare.
	DefaultReplyTokens = 512
)

// LLMOptions configure an LLM reranker. Chat and Model are required.
type LLMOptions struct {
	// Chat sends the requests: give it the same stack as the answering
	// model (model.Stack: cache, retry, rate limit, concurrency), so that
	// a repeated rerank is served from the cache and counts against the
	// same limits.
	Chat  model.Chat
	Model string
	// Window and Step are the sliding window (DefaultWindow,
	// DefaultStep); Step must be below Window.
	Window, Step int
	// PassageWords cuts each passage to this many words in the prompt
	// (DefaultPassageWords); negative keeps them whole.
	PassageWords int
	// Request is the template of every call: its sampling fields
	// (Temperature: give 0 for a repeatable order, nil for reasoning
	// models that refuse it; zero MaxTokens means DefaultReplyTokens),
	// ExtraBody and Header are kept; Model, Messages and Run are set here.
	Request model.Request
	// Warn, when set, is told about replies that could not be read in
	// full (see Rerank); nil says nothing.
	Warn func(msg string)
}

// LLMReranker orders passages listwise with a chat model, as RankGPT does.
// It is safe for concurrent use.
type LLMReranker struct {
	o     LLMOptions
	stats struct{ windows, calls, unparsed, partial atomic.Int64 }
}

var _ Reranker = (*LLMReranker)(nil)

// NewLLM checks the options and returns a reranker.
func NewLLM(o LLMOptions) (*LLMReranker, error) {
	if o.Chat == nil {
		return nil, errors.New("rerank llm: no chat client")
	}
	if strings.TrimSpace(o.Model) == "" {
		return nil, errors.New("rerank llm: a model name is required")
	}
	if o.Window <= 0 {
		o.Window = DefaultWindow
	}
	if o.Step <= 0 {
		o.Step = DefaultStep
	}
	if o.Step >= o.Window {
		return nil, fmt.Errorf("rerank llm: step %d must be below the window %d, or passages would never move between windows", o.Step, o.Window)
	}
	if o.PassageWords == 0 {
		o.PassageWords = DefaultPassageWords
	}
	if o.Request.MaxTokens == 0 {
		o.Request.MaxTokens = DefaultReplyTokens
	}
	return &LLMReranker{o: o}, nil
}

// Name is "llm".
func (r *LLMReranker) Name() string { return LLM }

// LLMStats counts what an LLMReranker did.
type LLMStats struct {
	Windows  int64 // windows ranked
	Calls    int64 // of them, answered by the server (not the cache)
	Unparsed int64 // replies naming no passage: the window kept its order
	Partial  int64 // replies naming some passages: the rest kept their order after them
}

// Stats is what r has done so far.
func (r *LLMReranker) Stats() LLMStats {
	return LLMStats{r.stats.windows.Load(), r.stats.calls.Load(), r.stats.unparsed.Load(), r.stats.partial.Load()}
}

// Rerank orders hits by sliding a window of Window passages from the back
// of the list to the front, Step at a time, asking the model to order each
// window. A reply is read as RankGPT reads it: the passage numbers in
// order, "[3] > [1] > [2]"; numbers out of range and repeats are ignored,
// and passages the reply leaves out follow in their previous order, so a
// short or unreadable reply never loses a passage. Scores are 1/rank.
func (r *LLMReranker) Rerank(ctx context.Context, query string, hits []retrieve.Hit) ([]retrieve.Hit, error) {
	out := append([]retrieve.Hit(nil), hits...)
	for _, w := range Windows(len(out), r.o.Window, r.o.Step) {
		perm, err := r.window(ctx, query, out[w[0]:w[1]])
		if err != nil {
			return nil, fmt.Errorf("window of passages %d–%d: %w", w[0]+1, w[1], err)
		}
		win := make([]retrieve.Hit, len(perm))
		for i, p := range perm {
			win[i] = out[w[0]+p]
		}
		copy(out[w[0]:], win)
	}
	for i := range out {
		out[i].Score = 1 / float64(i+1)
	}
	return out, nil
}

// Windows lists the [start, end) windows RankGPT ranks over n passages, in
// the order it ranks them: from the back, moving step at a time, the last
// one starting at 0. n ≤ window gives one window over all.
func Windows(n, window, step int) [][2]int {
	var out [][2]int
	for end := n; end > 0; end -= step {
		start := max(end-window, 0)
		out = append(out, [2]int{start, end})
		if start == 0 {
			break
		}
	}
	return out
}

// window asks for the order of one window and returns it as a permutation
// of 0..len(hits)-1.
func (r *LLMReranker) window(ctx context.Context, query string, hits []retrieve.Hit) ([]int, error) {
	r.stats.windows.Add(1)
	req := r.o.Request
	req.Model = r.o.Model
	req.Messages = Prompt(query, hits, r.o.PassageWords)
	req.Run = 0 // one order per window, whatever run asks for it
	resp, err := r.o.Chat.Complete(ctx, req)
	if err != nil {
		return nil, err
	}
	if !resp.Cached {
		r.stats.calls.Add(1)
	}
	countUsage(ctx, resp.Usage)
	perm, named := ParseOrder(resp.Content, len(hits))
	switch {
	case named == 0:
		r.stats.unparsed.Add(1)
		r.warn(fmt.Sprintf("rerank llm: the reply names no passage of 1–%d, so the window keeps its order: %q", len(hits), excerpt(resp.Content)))
	case named < len(hits):
		r.stats.partial.Add(1)
	}
	return perm, nil
}

func (r *LLMReranker) warn(msg string) {
	if r.o.Warn != nil {
		r.o.Warn(msg)
	}
}

func excerpt(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if rs := []rune(s); len(rs) > 120 {
		s = string(rs[:120]) + "…"
	}
	return s
}

// Prompt is RankGPT's conversation for a window: a system turn, the
// passages one per turn as "[i] text" (each acknowledged), and the
// instruction to answer "[2] > [1] > …" only.
func Prompt(query string, hits []retrieve.Hit, words int) []model.Message {
	n := len(hits)
	msgs := []model.Message{
		{Role: "system", Content: "You are RankGPT, an intelligent assistant that can rank passages based on their relevancy to the query."},
		{Role: "user", Content: fmt.Sprintf("I will provide you with %d passages, each indicated by number identifier []. \nRank the passages based on their relevance to query: %s.", n, query)},
		{Role: "assistant", Content: "Okay, please provide the passages."},
	}
	for i, h := range hits {
		text := strings.Fields(h.Text)
		if words > 0 && len(text) > words {
			text = text[:words]
		}
		msgs = append(msgs,
			model.Message{Role: "user", Content: fmt.Sprintf("[%d] %s", i+1, strings.Join(text, " "))},
			model.Message{Role: "assistant", Content: fmt.Sprintf("Received passage [%d].", i+1)})
	}
	msgs = append(msgs, model.Message{Role: "user", Content: fmt.Sprintf("Search Query: %s. \nRank the %d passages above based on their relevance to the search query. The passages should be listed in descending order using identifiers. The most relevant passages should be listed first. The output format should be [] > [], e.g., [1] > [2]. Only respond with the ranking results, do not say any word or explain.", query, n)})
	return msgs
}

var (
	bracketed = regexp.MustCompile(`\[\s*(\d+)\s*\]`)
	bare      = regexp.MustCompile(`\d+`)
)

// ParseOrder reads a reply naming passages 1..n in order: "[3] > [1] >
// [2]", or bare numbers ("3 > 1 > 2", "3, 1, 2") when no number is in
// brackets. Numbers outside 1..n and repeats are ignored; passages the
// reply leaves out follow in their old order. It returns the permutation
// of 0..n-1 and how many passages the reply named.
func ParseOrder(reply string, n int) (perm []int, named int) {
	re := bracketed
	if !re.MatchString(reply) {
		re = bare
	}
	seen := make([]bool, n)
	for _, m := range re.FindAllStringSubmatch(reply, -1) {
		s := m[len(m)-1]
		id, err := strconv.Atoi(s)
		if err != nil || id < 1 || id > n || seen[id-1] {
			continue
		}
		seen[id-1] = true
		perm = append(perm, id-1)
	}
	named = len(perm)
	for i := range n {
		if !seen[i] {
			perm = append(perm, i)
		}
	}
	return perm, named
}
