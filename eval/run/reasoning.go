package run

import (
	"fmt"
	"slices"
	"strings"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/extract"
)

// markReasoning sets a scored record's ReasoningAnswers and
// HarmfulVerification (see Record). Only records scored by extraction
// (score_kind "exact") get them: the others have no letters to follow.
// Scoring calls it last, so that Correct and Miss are final (a reply cut
// by the token limit is wrong whatever it extracted).
func markReasoning(q bench.Question, r *Record) {
	if r.ScoreKind != "exact" || r.Error != "" {
		return
	}
	letters, multi := q.MCQ.Letters(), q.Type == "MA-MCQ"
	seq := extract.Along(r.Reasoning, letters, q.MCQ.Options, multi)
	for _, a := range extract.Along(r.Output, letters, q.MCQ.Options, multi) {
		if len(seq) == 0 || seq[len(seq)-1] != a {
			seq = append(seq, a)
		}
	}
	r.ReasoningAnswers = seq
	r.HarmfulVerification = harmful(*r)
}

// harmful reports harmful verification (ElaipBench §4.3): the answer
// extracted is wrong, and the reasoning had committed to the gold answer
// before it. The final answer is the reply's last commitment (extraction
// takes the last), so a gold answer among the commitments of a wrong
// record was reached and left. A miss is wrong without an answer to have
// changed to, and is never flagged.
func harmful(r Record) bool {
	if r.ScoreKind != "exact" || r.Error != "" || r.Correct || r.Miss || r.Extracted == "" {
		return false
	}
	gold := sortedLetters(r.Gold)
	return gold != "" && slices.Contains(r.ReasoningAnswers, gold)
}

// sortedLetters is s's letters A–Z, upper-cased, sorted and unique: the
// form extraction writes answers in ("ca" and "AC" are both "AC").
func sortedLetters(s string) string {
	var seen [26]bool
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z':
			seen[c-'a'] = true
		case c >= 'A' && c <= 'Z':
			seen[c-'A'] = true
		}
	}
	var b []byte
	for i, ok := range seen {
		if ok {
			b = append(b, byte('A'+i))
		}
	}
	return string(b)
}

// Harmful is one mode's harmful-verification rate, as ElaipBench's
// Figure 3 counts it over error cases (fixed JSON:
// by_mode.<mode>.harmful_verification). Counts are over records, every
// run pooled: those scored by extraction that ended without an error.
type Harmful struct {
	// Records are the mode's records scored by extraction without an
	// error; Wrong of them are wrong (a miss included); Harmful of those
	// had committed to the gold answer along the way (Record's
	// harmful_verification).
	Records int `json:"records"`
	Wrong   int `json:"wrong"`
	Harmful int `json:"harmful"`
	// ShareOfWrong is Harmful / Wrong (0 when nothing is wrong): the
	// share of errors harmful verification explains, Figure 3's measure.
	// ShareOfRecords is Harmful / Records.
	ShareOfWrong   float64 `json:"share_of_wrong"`
	ShareOfRecords float64 `json:"share_of_records"`
}

// harmfulTally counts one mode's records for Harmful.
type harmfulTally struct {
	h        Harmful
	reasoned bool // some counted record carries reasoning text
}

func (t *harmfulTally) add(r Record) {
	if r.ScoreKind != "exact" || r.Error != "" {
		return
	}
	t.h.Records++
	t.reasoned = t.reasoned || r.Reasoning != ""
	if !r.Correct {
		t.h.Wrong++
	}
	if r.HarmfulVerification {
		t.h.Harmful++
	}
}

// result is the mode's Harmful: nil when no record was scored by
// extraction, or when the run neither prompted for reasoning (paradigm
// base) nor got any reasoning text, where there is no reasoning to have
// verified anything.
func (t *harmfulTally) result(paradigm string) *Harmful {
	if t.h.Records == 0 || (!t.reasoned && (paradigm == "" || paradigm == Base)) {
		return nil
	}
	h := t.h
	if h.Wrong > 0 {
		h.ShareOfWrong = float64(h.Harmful) / float64(h.Wrong)
	}
	h.ShareOfRecords = float64(h.Harmful) / float64(h.Records)
	return &h
}

// HarmfulText is a mode's harmful-verification rate as the report and
// summary.md show it: "2 of 5 wrong (40.0%); 2 of 9 records (22.2%)", or
// "–" without one.
func HarmfulText(h *Harmful) (ofWrong, ofRecords string) {
	if h == nil {
		return "–", "–"
	}
	ofWrong = fmt.Sprintf("%d of %d wrong", h.Harmful, h.Wrong)
	if h.Wrong > 0 {
		ofWrong += " (" + Percent(h.ShareOfWrong) + "%)"
	}
	return ofWrong, fmt.Sprintf("%d of %d records (%s%%)", h.Harmful, h.Records, Percent(h.ShareOfRecords))
}

// HarmfulNote says how harmful verification is counted; summary.md and
// the report print it under the rates.
const HarmfulNote = "Harmful verification (ElaipBench §4.3): a wrong answer whose reasoning had committed to the gold answer before settling on another (\"the answer is B … wait … Answer: C\"). " +
	"Commitments are the answer cues extraction reads (\"the answer is\", \"Answer:\", \"so B.\", \"B is correct\", \\boxed{}), not a letter merely weighed: hedged (\"maybe the answer is B\") or asked (\"is it B?\") ones do not count. " +
	"Counted over records scored by extraction without an error, every run pooled; a miss is wrong but never harmful."

// markdownHarmful writes summary.md's harmful-verification table, for
// the modes that have a rate.
func markdownHarmful(b *strings.Builder, s Summary) {
	var rows strings.Builder
	for _, m := range s.Modes {
		h := s.ByMode[m].HarmfulVerification
		if h == nil {
			continue
		}
		w, r := HarmfulText(h)
		MarkdownRow(&rows, m, w, r)
	}
	if rows.Len() == 0 {
		return
	}
	b.WriteString("\n## Harmful verification\n\n")
	MarkdownHead(b, "mode", "harmful / wrong", "harmful / records")
	b.WriteString(rows.String())
	b.WriteString("\n" + HarmfulNote + "\n")
}
