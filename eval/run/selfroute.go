package run

import (
	"context"
	"strings"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/extract"
	"github.com/paperlens/paperlens/internal/lazyregexp"
	"github.com/paperlens/paperlens/model"
)

// Self-Route (Li et al. 2024, "Retrieval Augmented Generation or
// Long-Context LLMs? A Comprehensive Study and Hybrid Approach"): the
// model first gets the retrieved passages and is told to write
// "unanswerable" when they do not suffice; only then is it asked again
// with the whole paper. Most questions stop at the passages, so the run
// costs a fraction of the paper's tokens.

// Routes (Record.Route; fixed names).
const (
	RouteRAG  = "rag"  // the passages sufficed
	RouteFull = "full" // the model replied unanswerable; the paper answered
)

// solveRoute makes self-route's calls: the passages (b.messages), then the
// paper (b.full) when the reply says the passages do not suffice. Each
// call goes through the chat stack, response cache included, so a resumed
// run replays both.
func (s llmSolver) solveRoute(ctx context.Context, q bench.Question, run int, b built) (answer, error) {
	first, err := s.call(ctx, b.messages, run)
	rc := routeCall(RouteRAG, b.tokens, first, err)
	if err != nil {
		first.route, first.calls = RouteRAG, []RouteCall{rc}
		return first, err
	}
	rc.Unanswerable = unanswerable(first.output, first.reasoning, q)
	if !rc.Unanswerable || b.full == nil {
		first.route, first.calls = RouteRAG, []RouteCall{rc}
		return first, nil
	}
	second, err := s.call(ctx, b.full.messages, run)
	ans := second
	ans.route, ans.calls = RouteFull, []RouteCall{rc, routeCall(RouteFull, b.full.tokens, second, err)}
	// Both calls' usage, total_tokens included (a second call that
	// failed reported none).
	ans.usage = first.usage.Add(second.usage)
	ans.latency = first.latency + second.latency
	ans.cached = first.cached && second.cached
	ans.attempts = first.attempts + second.attempts
	ans.cut = first.cut || second.cut
	return ans, err
}

// call sends one prompt.
func (s llmSolver) call(ctx context.Context, msgs []model.Message, run int) (answer, error) {
	resp, err := s.chat.Complete(ctx, s.cfg.Sampling.Request(s.cfg.Model, msgs, run, s.header))
	if err != nil {
		return answer{attempts: resp.Attempts}, err
	}
	return answer{output: resp.Content, reasoning: resp.Reasoning, usage: resp.Usage, latency: resp.Latency,
		cached: resp.Cached, attempts: resp.Attempts, finish: resp.FinishReason, cut: resp.Cut}, nil
}

func routeCall(route string, promptTokens int, a answer, err error) RouteCall {
	rc := RouteCall{Route: route, PromptTokens: promptTokens, Usage: a.usage, Output: a.output, Reasoning: a.reasoning,
		LatencyMS: a.latency.Milliseconds(), Cached: a.cached, Attempts: a.attempts, FinishReason: a.finish, ReplyCut: a.cut}
	if err != nil {
		rc.Error = err.Error()
	}
	return rc
}

var (
	// Reasoning inline in the content: a closed block, a block whose
	// opening tag the server dropped, and one cut off before it closed.
	thinkClosed = lazyregexp.MustCompile(`(?is)<think(?:ing)?>.*?</think(?:ing)?>`)
	thinkTail   = lazyregexp.MustCompile(`(?is)^.*</think(?:ing)?>`)
	thinkOpen   = lazyregexp.MustCompile(`(?is)<think(?:ing)?>.*$`)
	unansWord   = lazyregexp.MustCompile(`(?i)\bun-?answerable\b`)
	// "not unanswerable", "isn't unanswerable", "is by no means unanswerable".
	unansNegated = lazyregexp.MustCompile(`(?i)\b(?:not|n't|never|no\s+means|hardly)\s+(?:\w+\s+){0,2}un-?answerable\b`)
	// A label before the final answer: "Answer:", "**Final answer:**".
	answerLabel = lazyregexp.MustCompile(`(?i)^(?:\W*)(?:final\s+)?(?:answer|response|reply|verdict)\s*(?:\*\*|__)?\s*[:：]\s*`)
	sentenceCut = lazyregexp.MustCompile(`[.!?]["'”’)\]*_]*\s+`)
	unansFirst  = lazyregexp.MustCompile(`(?i)^\W*un-?answerable\b`)
	clauseCut   = lazyregexp.MustCompile(`(?i)[,;:]|\bbut\b`)
)

// shortReply is the most words a reply may have for a mention of
// "unanswerable" anywhere in it to count: a sentence or two saying so.
const shortReply = 40

// unanswerable reports whether a self-route reply says the passages do not
// answer the question: "unanswerable" as the reply, its final line or the
// last sentence ("Unanswerable.", "\"unanswerable\"", "Answer: unanswerable",
// "The question is unanswerable from the passages."), or anywhere in a
// reply of a sentence or two. A negated mention ("not unanswerable") does
// not count, nor does a reply that also gives an option letter by a clear
// cue ("… Answer: B"): the model answered. Inline reasoning (<think>) is
// left out; a reply with no content is read from the end of its
// reasoning.
func unanswerable(output, reasoning string, q bench.Question) bool {
	text := thinkClosed.ReplaceAllString(output, "")
	text = thinkTail.ReplaceAllString(text, "")
	text = thinkOpen.ReplaceAllString(text, "")
	text = strings.TrimSpace(text)
	fromReasoning := false
	if text == "" {
		text, fromReasoning = strings.TrimSpace(reasoning), true
	}
	if text == "" || !mentionsUnanswerable(text) {
		return false
	}
	if len(q.MCQ.Options) >= 2 {
		r := extract.Extract(strings.NewReplacer("unanswerable", "", "Unanswerable", "", "UNANSWERABLE", "").Replace(text),
			q.MCQ.Letters(), nil, q.Type == "MA-MCQ")
		switch r.Method {
		case extract.MethodAnswerIs, extract.MethodAnswerColon, extract.MethodBoxed, extract.MethodIsCorrect, extract.MethodMarkdown:
			return false
		}
		// A reply that is only a letter on its last line answers too.
		if r.Method == extract.MethodIsolated || r.Method == extract.MethodLeading {
			if l := lastLine(text); !mentionsUnanswerable(l) {
				return false
			}
		}
	}
	// The last sentence says so: it opens with the word, or its last
	// clause holds it ("Therefore, the question is unanswerable from the
	// passages."), not a clause before a "but".
	last := lastSentence(answerLabel.ReplaceAllString(lastLine(text), ""))
	if unansFirst.MatchString(last) {
		return true
	}
	if clauses := clauseCut.Split(last, -1); mentionsUnanswerable(clauses[len(clauses)-1]) {
		return true
	}
	return !fromReasoning && len(strings.Fields(text)) <= shortReply
}

func mentionsUnanswerable(s string) bool {
	n := len(unansWord.FindAllStringIndex(s, -1))
	return n > len(unansNegated.FindAllStringIndex(s, -1))
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

func lastSentence(s string) string {
	parts := sentenceCut.Split(strings.TrimSpace(s), -1)
	for i := len(parts) - 1; i >= 0; i-- {
		if strings.TrimSpace(parts[i]) != "" {
			return parts[i]
		}
	}
	return s
}
