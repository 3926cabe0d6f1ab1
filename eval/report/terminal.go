package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/termsafe"
	"github.com/paperlens/paperlens/retrieve/evidence"
)

// The terminal views of paperlens inspect: a run's questions, and one
// question in every mode with its passages, gold evidence and output.

// mark is a record's outcome in one character.
func mark(r run.Record) string {
	switch {
	case r.Error != "":
		return "!"
	case r.Miss:
		return "?"
	case r.Correct:
		return "+"
	}
	return "-"
}

// WriteQuestionList lists a run's questions with a mark per mode and run
// (+ right, - wrong, ? miss, ! error): paperlens inspect RUN_DIR. Question
// ids and types come from the dataset: escaped.
func WriteQuestionList(w io.Writer, modes []string, recs []run.Record) error {
	byQ := map[string]map[string]string{}
	types := map[string]string{}
	var ids []string
	for _, r := range recs {
		if byQ[r.QuestionID] == nil {
			byQ[r.QuestionID] = map[string]string{}
			ids = append(ids, r.QuestionID)
		}
		byQ[r.QuestionID][r.Mode] += mark(r)
		types[r.QuestionID] = r.QuestionType
	}
	sort.Strings(ids)
	fmt.Fprintf(w, "%-18s %-8s", "question", "type")
	for _, m := range modes {
		fmt.Fprintf(w, " %-12s", m)
	}
	fmt.Fprintln(w)
	for _, id := range ids {
		fmt.Fprintf(w, "%-18s %-8s", termsafe.Line(id), termsafe.Line(types[id]))
		for _, m := range modes {
			fmt.Fprintf(w, " %-12s", byQ[id][m])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "\n+ right  - wrong  ? no answer extracted  ! error   (one mark per run)")
	return nil
}

// clip is s cut to n runes, with "…" when cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// highlight marks the gold evidence found in a passage: the words that
// matched it (as in the web inspector), not a literal search.
func highlight(text string, gold *evidence.Gold, color bool) string {
	text = strings.Join(strings.Fields(text), " ")
	if gold == nil {
		return termsafe.Line(text)
	}
	open, close := "»", "«"
	if color {
		open, close = "\x1b[1;33m", "\x1b[0m"
	}
	// The passage is escaped piece by piece, so that only the marks are
	// terminal codes.
	var b strings.Builder
	at := 0
	for _, sp := range gold.Spans(text) {
		b.WriteString(termsafe.Line(text[at:sp.Start]))
		b.WriteString(open + termsafe.Line(text[sp.Start:sp.End]) + close)
		at = sp.End
	}
	b.WriteString(termsafe.Line(text[at:]))
	return b.String()
}

// WriteQuestion prints one question and its records in every mode (only
// that mode when given): paperlens inspect RUN_DIR QUESTION_ID. st, when
// open, gives the passages' texts. Everything it prints
// from the dataset, the corpus or a reply goes through termsafe: a model
// that answers with ESC sequences cannot clear the screen, retitle the
// window or reorder the text of whoever inspects it.
func WriteQuestion(w io.Writer, q bench.Question, recs []run.Record, only string, st *corpus.Store, color bool) error {
	esc, line := termsafe.Escape, termsafe.Line
	fmt.Fprintf(w, "%s  [%s]  paper %s\n\n%s\n\nGold answer: %s\n", line(q.ID), line(q.Type), line(q.PaperID), esc(q.Text), line(q.Answer))
	var gold *evidence.Gold
	if strings.TrimSpace(q.Evidence) != "" {
		gold = evidence.ParseGold(q.Evidence, evidence.Options{})
		fmt.Fprintf(w, "Gold evidence: %s\n", line(strings.Join(strings.Fields(q.Evidence), " ")))
	}
	texts := map[string]string{}
	var ids, all []string
	if st != nil {
		if ps, err := st.Passages(q.PaperID); err == nil {
			for _, p := range ps {
				texts[p.PassageID] = p.Text
				ids, all = append(ids, p.PassageID), append(all, p.Text)
			}
		}
	}
	for _, r := range recs {
		if r.QuestionID != q.ID || (only != "" && r.Mode != only) {
			continue
		}
		fmt.Fprintf(w, "\n═══ %s  run %d  %s  extracted %q (%s)  %d prompt tokens", line(r.Mode), r.Run, map[bool]string{true: "RIGHT", false: "WRONG"}[r.Correct], r.Extracted, r.Method, r.PromptTokens)
		if r.TruncatedTokens > 0 {
			fmt.Fprintf(w, ", %d cut to fit", r.TruncatedTokens)
		}
		fmt.Fprintln(w)
		if r.Error != "" {
			fmt.Fprintf(w, "error: %s\n", esc(r.Error))
		}
		var got []string
		for _, c := range r.Context {
			t := texts[c.PassageID]
			got = append(got, t)
			fmt.Fprintf(w, "  %2d  %8.4f  %s\n      %s\n", c.Rank, c.Score, line(c.PassageID), clip(highlight(t, gold, color), 600))
		}
		for _, x := range r.Web {
			fmt.Fprintf(w, "  web %d  %-8s %s  %s (%d tokens)\n", x.Rank, line(x.Status), line(x.URL), line(x.Title), x.Tokens)
		}
		if gold != nil && len(r.Context) > 0 && st != nil {
			m := gold.Score(got)
			locs := gold.Locate(ids, all)
			for i, fr := range m.FirstRank {
				if fr == 0 {
					where := "not found in the paper's passages"
					if locs[i].PassageID != "" {
						where = fmt.Sprintf("in %s", line(locs[i].PassageID))
					}
					fmt.Fprintf(w, "  not retrieved: %q (%s)\n", clip(locs[i].Sentence, 120), where)
				}
			}
		}
		if r.Reasoning != "" {
			fmt.Fprintf(w, "reasoning (%d chars): %s\n", len(r.Reasoning), line(clip(strings.Join(strings.Fields(r.Reasoning), " "), 400)))
		}
		fmt.Fprintf(w, "output: %s\n", esc(clip(strings.TrimSpace(r.Output), 800)))
	}
	return nil
}
