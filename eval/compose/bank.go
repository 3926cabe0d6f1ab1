package compose

import (
	"fmt"
	"sort"
	"strings"

	"github.com/paperlens/paperlens/eval/bench"
)

// Statement is one option of a source question, read as a claim: true
// when its letter is in the question's answer.
type Statement struct {
	Paper  string // the source question's paper
	Source string // the source question's id
	Letter string // the option's letter there
	// Context is the source question's stem, kept with the option: an
	// option answers its stem and is true or false only with it. Empty
	// when the source question has no stem (its options stand alone).
	Context string
	Text    string // the option, on one line
	True    bool
	// Evidence are the lines of the source question's gold evidence
	// (ElaipBench's relevant_passage excerpts): what decides the
	// statement, as it decided the question.
	Evidence []string
}

// Bank is one paper's statements.
type Bank struct {
	Paper      string
	Statements []Statement
	Questions  int    // source multiple-choice questions they came from
	Line       int    // the line of the paper's first source question
	Content    string // the paper's text when the source carries it
}

// count is how many statements have truth t.
func (b *Bank) count(t bool) int {
	n := 0
	for _, s := range b.Statements {
		if s.True == t {
			n++
		}
	}
	return n
}

// Skip is a paper or question left out of a composition, and why.
type Skip struct {
	Paper  string `json:"paper,omitempty"`
	Source string `json:"source,omitempty"` // a question's id, when one question was left out
	Line   int    `json:"line,omitempty"`   // its line in the source file
	Reason string `json:"reason"`
}

// String is Message after the line, when there is one.
func (s Skip) String() string {
	if s.Line > 0 {
		return fmt.Sprintf("line %d: %s", s.Line, s.Message())
	}
	return s.Message()
}

// Message says what was left out and why.
func (s Skip) Message() string {
	var b strings.Builder
	switch {
	case s.Source != "":
		fmt.Fprintf(&b, "question %s left out: ", s.Source)
	case s.Paper != "":
		fmt.Fprintf(&b, "paper %s skipped: ", s.Paper)
	}
	b.WriteString(s.Reason)
	return b.String()
}

// Banks reads the statement bank of each paper from source questions:
// every option of every multiple-choice question with a paper, true when
// its letter is in the answer. Questions that give no statements (a short
// answer, no paper) are returned as skips. Banks are in paper id order.
func Banks(qs []bench.Question) ([]*Bank, []Skip) {
	byPaper := map[string]*Bank{}
	seen := map[string]bool{} // paper, context and text: a statement once
	var skips []Skip
	for _, q := range qs {
		if why := unusable(q); why != "" {
			skips = append(skips, Skip{Paper: q.PaperID, Source: q.ID, Line: q.Line, Reason: why})
			continue
		}
		b := byPaper[q.PaperID]
		if b == nil {
			b = &Bank{Paper: q.PaperID, Line: q.Line}
			byPaper[q.PaperID] = b
		}
		b.Questions++
		if b.Content == "" {
			b.Content = q.PaperContent
		}
		ev := excerpts(q.Evidence)
		ctx := oneLine(q.MCQ.Stem)
		for _, o := range q.MCQ.Options {
			st := Statement{Paper: q.PaperID, Source: q.ID, Letter: o.Letter, Context: ctx, Text: oneLine(o.Text),
				True: strings.Contains(q.Answer, o.Letter), Evidence: ev}
			k := st.Paper + "\x00" + st.Context + "\x00" + st.Text
			if st.Text == "" || seen[k] {
				continue
			}
			seen[k] = true
			b.Statements = append(b.Statements, st)
		}
	}
	out := make([]*Bank, 0, len(byPaper))
	for _, b := range byPaper {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Paper < out[j].Paper })
	return out, skips
}

// unusable says why a question gives no statements, or "".
func unusable(q bench.Question) string {
	switch {
	case q.PaperID == "":
		return "it has no paper_id, and every composed question is drawn within one paper, which stays its context"
	case q.Type == "short" || len(q.MCQ.Options) < 2:
		return "it is not multiple-choice, so its answer gives no option a truth"
	case q.Answer == "":
		return "it has no answer key"
	}
	return ""
}

// excerpts are the non-empty lines of a gold evidence text.
func excerpts(evidence string) []string {
	var out []string
	for _, l := range strings.Split(evidence, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
