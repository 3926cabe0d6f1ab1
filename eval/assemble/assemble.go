// Package assemble fits a question's context (the paper, retrieved snippets,
// web text) into a prompt token budget, as the ElaipBench paper's appendix
// A.7.2 describes: snippets are normalised and trimmed to sentence
// boundaries, ordered by score (or by their place in the paper), and when the
// whole prompt would exceed the budget, snippets are trimmed round-robin
// first (one sentence at a time from the end, never below their first
// sentence) and only then is the paper cut in the middle, keeping its head
// and tail. Every cut is recorded, so a run can say how many tokens each
// question lost and where.
package assemble

import (
	"fmt"
	"sort"
	"strings"

	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/internal/lazyregexp"
)

// Snippet is one retrieved passage or web text.
type Snippet struct {
	ID      string  `json:"id"`
	Rank    int     `json:"rank"`
	Score   float64 `json:"score"`
	Ordinal int     `json:"ordinal"` // place in the paper, for document order; -1 when not from it
	Text    string  `json:"text"`
	// Cut marks text cut at a token budget (a web page), which may start
	// or end mid-sentence: Fit drops such fragments. A passage is whole
	// sentences by construction, and its last line may be a table row or
	// a heading with no final punctuation, which must stay.
	Cut bool `json:"cut,omitempty"`
}

// Order of snippets in the prompt.
const (
	ByScore    = "score"    // best first (ElaipBench)
	ByDocument = "document" // in paper order (LongBench)
)

// Input is what a question's prompt holds besides its fixed parts.
type Input struct {
	Paper    string
	Snippets []Snippet
	Order    string
	// Available is the token room for paper and snippets: the budget minus
	// the answer's reserved tokens minus the rest of the prompt.
	Available int
	// PaperTokens is the paper's token count when the caller knows it
	// (counting a whole paper costs milliseconds); 0 means count it.
	PaperTokens int
}

// Cut records tokens removed from one place.
type Cut struct {
	Where  string `json:"where"` // "paper" or a snippet id
	Tokens int    `json:"tokens"`
}

// Output is the fitted context.
type Output struct {
	Paper      string    `json:"-"`
	Snippets   []Snippet `json:"-"`
	Tokens     int       `json:"tokens"`
	CutTokens  int       `json:"cut_tokens"`
	Cuts       []Cut     `json:"cuts,omitempty"`
	OverBudget bool      `json:"over_budget"` // even fully cut it does not fit (the fixed prompt alone is too long)
}

// sentenceEnd finds where a sentence ends: terminal punctuation, optional
// closing quotes or brackets, then space before a capital, digit or opening
// mark. Snippets come from the sentence-bounded chunker or from web pages,
// so this light rule (microseconds, where the full splitter takes
// milliseconds per question) only has to find safe places to trim.
var sentenceEnd = lazyregexp.MustCompile(`[.!?]["'”’)\]]*\s+[A-Z0-9("“\[]`)

type span struct{ Start, End int }

// splitSentences splits s at sentence ends; the spans tile s.
func splitSentences(s string) []span {
	var out []span
	at := 0
	for _, m := range sentenceEnd.FindAllStringIndex(s, -1) {
		end := m[1] - 1 // keep the next sentence's first character
		for end > m[0] && s[end-1] != ' ' && s[end-1] != '\n' && s[end-1] != '\t' {
			end--
		}
		if end > at {
			out = append(out, span{at, end})
			at = end
		}
	}
	if at < len(s) {
		out = append(out, span{at, len(s)})
	}
	return out
}

// Normalize collapses whitespace and trims a snippet to whole sentences: a
// leading fragment (starting mid-sentence in lower case) and a trailing one
// without final punctuation are dropped when whole sentences remain. Fit
// trims only snippets marked Cut.
func Normalize(s string) string {
	s = collapse(s)
	spans := splitSentences(s)
	if len(spans) <= 1 {
		return s
	}
	first, last := 0, len(spans)
	if r := s[spans[0].Start:]; r != "" && r[0] >= 'a' && r[0] <= 'z' {
		first = 1
	}
	tail := strings.TrimSpace(s[spans[last-1].Start:spans[last-1].End])
	if tail != "" && !strings.ContainsAny(tail[len(tail)-1:], ".!?:;)\"'”") {
		last--
	}
	if first >= last {
		return s
	}
	return strings.TrimSpace(s[spans[first].Start:spans[last-1].End])
}

// Fit orders, trims and cuts the context to fit Available tokens.
func Fit(in Input) Output {
	snips := make([]Snippet, len(in.Snippets))
	copy(snips, in.Snippets)
	for i := range snips {
		if snips[i].Cut {
			snips[i].Text = Normalize(snips[i].Text)
		} else {
			snips[i].Text = collapse(snips[i].Text)
		}
	}
	if in.Order == ByDocument {
		sort.SliceStable(snips, func(i, j int) bool { return snips[i].Ordinal < snips[j].Ordinal })
	} else {
		sort.SliceStable(snips, func(i, j int) bool { return snips[i].Rank < snips[j].Rank })
	}
	paperTok := in.PaperTokens
	if paperTok <= 0 {
		paperTok = tokens.Count(in.Paper)
	}
	snipTok := make([]int, len(snips))
	total := paperTok
	for i, s := range snips {
		snipTok[i] = tokens.Count(s.Text)
		total += snipTok[i]
	}
	out := Output{Paper: in.Paper, Snippets: snips}
	cut := map[string]int{}
	// Snippets first, round-robin, one sentence at a time from the end.
	for total > in.Available {
		progress := false
		for i := range snips {
			if total <= in.Available {
				break
			}
			spans := splitSentences(snips[i].Text)
			if len(spans) <= 1 {
				continue
			}
			kept := strings.TrimSpace(snips[i].Text[:spans[len(spans)-2].End])
			n := tokens.Count(kept)
			cut[snips[i].ID] += snipTok[i] - n
			total -= snipTok[i] - n
			snipTok[i], snips[i].Text = n, kept
			progress = true
		}
		if !progress {
			break
		}
	}
	// Then the paper, in the middle.
	if total > in.Available && paperTok > 0 {
		room := max(in.Available-(total-paperTok), 0)
		head, tail, removed := cutMiddle(in.Paper, paperTok, room)
		if removed > 0 {
			out.Paper = head + fmt.Sprintf("\n\n[... %d tokens of the paper omitted to fit the context budget ...]\n\n", removed) + tail
			cut["paper"] += removed
			total -= paperTok - tokens.Count(out.Paper)
		}
	}
	for _, where := range append([]string{"paper"}, ids(snips)...) {
		if n := cut[where]; n > 0 {
			out.Cuts = append(out.Cuts, Cut{Where: where, Tokens: n})
			out.CutTokens += n
		}
	}
	out.Tokens = total
	out.OverBudget = total > in.Available
	return out
}

func ids(s []Snippet) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = x.ID
	}
	return out
}

// cutMiddle keeps about room tokens of text, half from the head and half
// from the tail, cut at whitespace; it returns the parts and the number of
// tokens removed.
func cutMiddle(text string, n, room int) (head, tail string, removed int) {
	if room >= n {
		return text, "", 0
	}
	marker := 24 // tokens of the omission note
	keep := max(room-marker, 0)
	ends := tokens.Ends(text)
	h := keep / 2
	t := keep - h
	headEnd := 0
	if h > 0 {
		headEnd = ends[h-1]
	}
	tailStart := len(text)
	if t > 0 {
		tailStart = ends[len(ends)-t-1]
	}
	// Move the cuts to whitespace so no word is split.
	if i := strings.LastIndexAny(text[:headEnd], " \n"); i > 0 {
		headEnd = i
	}
	if i := strings.IndexAny(text[tailStart:], " \n"); i >= 0 {
		tailStart += i
	}
	if tailStart < headEnd {
		tailStart = headEnd
	}
	head, tail = strings.TrimSpace(text[:headEnd]), strings.TrimSpace(text[tailStart:])
	return head, tail, n - tokens.Count(head) - tokens.Count(tail)
}

// collapse joins a text's words with single spaces.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }
