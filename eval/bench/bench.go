// Package bench loads benchmark questions: ElaipBench in its published
// schema, LPFQA with configurable field names, and a generic JSONL format.
package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/paperlens/paperlens/eval/mcq"
	"github.com/paperlens/paperlens/ingest/dataset"
)

// Question is one benchmark item, whatever its source format.
type Question struct {
	ID           string            `json:"question_id"`
	PaperID      string            `json:"paper_id,omitempty"`
	Type         string            `json:"question_type"` // SA-MCQ, MA-MCQ, MCQ, short
	Text         string            `json:"question"`      // as published, options inline
	MCQ          mcq.Question      `json:"-"`
	Answer       string            `json:"answer"`    // normalised letters for MCQs; reference text for short answers
	Evidence     string            `json:"evidence"`  // gold evidence (ElaipBench relevant_passage)
	PaperContent string            `json:"-"`         // full text when the dataset carries it
	Breakdown    map[string]string `json:"breakdown"` // optional fields to group results by (difficulty, domain, ...)
	Line         int               `json:"line"`      // where it came from
	Warnings     []string          `json:"warnings,omitempty"`

	// Run, when set, is the one run that asks the question: eval
	// --compose draws each run's questions afresh (eval/compose). 0: every
	// run asks it.
	Run int `json:"run,omitempty"`

	// Fields for LLM-judged answers (LPFQA, generic short answers).
	Reference string `json:"reference,omitempty"`  // the reference as published (LPFQA response_reference: answer and evaluation points), for a judge template that wants it whole
	KeyPoints string `json:"key_points,omitempty"` // evaluation points the judge must check (LPFQA <评估要点>)
	// The dataset's own judge prompt and system prompt. Not serialised: LPFQA
	// repeats the same long text on every row, as ElaipBench does its papers.
	JudgeTemplate string `json:"-"`
	JudgeSystem   string `json:"-"`
}

// Problem is a row that could not be loaded, or loaded with a quirk.
type Problem struct {
	// File is the file the line is in when it is not the dataset (a
	// --labels file); "" for the dataset's own rows.
	File  string
	Line  int
	ID    string // the question's id when the row was kept, so a report can be matched to results
	Fatal bool   // the row was skipped
	Msg   string
}

func (p Problem) String() string {
	if p.Line == 0 {
		return p.Msg // about the file as a whole
	}
	if p.ID != "" {
		return fmt.Sprintf("line %d (%s): %s", p.Line, p.ID, p.Msg)
	}
	return fmt.Sprintf("line %d: %s", p.Line, p.Msg)
}

// splitWarnings turns the option parser's doubts into row warnings. A wrong
// cut between stem and options changes what every model is asked, and
// nothing downstream can notice it, so each doubt is reported.
func splitWarnings(q mcq.Question) []string {
	var ws []string
	for _, d := range q.Doubts {
		ws = append(ws, "the options may be cut wrongly: "+d)
	}
	return ws
}

// everyOption is the warning for an answer that names every option: a reply
// that picks all the letters is right whatever the question says, so the
// row cannot tell models apart. The row is kept, like an MA-MCQ with one
// letter: dropping published rows would make scores incomparable with other
// evaluations of the same file.
func everyOption(q mcq.Question, ans string) (string, bool) {
	if len(q.Options) < 2 || len(ans) != len(q.Options) {
		return "", false
	}
	for _, o := range q.Options {
		if !strings.Contains(ans, o.Letter) {
			return "", false
		}
	}
	return fmt.Sprintf("the answer %s names every option, so a reply that picks all the letters is right without reading the question; "+
		"kept and scored as set equality, but it cannot tell models apart: check the row against the paper, or drop it", ans), true
}

// StableID derives a question id from its paper and text: ElaipBench rows
// carry none, and an id must survive reordering of the file.
func StableID(prefix, paperID, text string) string {
	sum := sha256.Sum256([]byte(paperID + "\x00" + strings.TrimSpace(text)))
	return prefix + hex.EncodeToString(sum[:6])
}

// breakdownFields are used to group results when a dataset has them.
var breakdownFields = []string{"difficulty", "level", "discipline", "domain", "primary_domain", "category", "subject"}

// LoadElaipBench reads ElaipBench rows (paper_id, question_type, question,
// answer, relevant_passage, paper_content) from JSON, JSONL or parquet.
// Malformed rows are reported with their line and skipped; quirks (an
// MA-MCQ with one letter, an answer naming every option, options whose cut
// from the stem is doubtful, a duplicated row) are reported and kept, except
// the duplicate, which is kept once.
func LoadElaipBench(path string) ([]Question, []Problem, error) {
	var qs []Question
	var problems []Problem
	seen := map[string]int{}
	bad := func(line int, err error) {
		var re *dataset.RowError
		msg := err.Error()
		if errors.As(err, &re) {
			msg = re.Err.Error()
		}
		problems = append(problems, Problem{Line: line, Fatal: true, Msg: msg})
	}
	err := dataset.Read(path, func(r dataset.Row) error {
		get := func(f string) string { s, _ := dataset.String(r, f); return s }
		var missing []string
		for _, f := range []string{"paper_id", "question", "answer"} {
			if strings.TrimSpace(get(f)) == "" {
				missing = append(missing, f)
			}
		}
		if len(missing) > 0 {
			problems = append(problems, Problem{Line: r.Line, Fatal: true,
				Msg: fmt.Sprintf("missing %s; fields found: %s", strings.Join(missing, ", "), fieldList(r))})
			return nil
		}
		q := Question{
			PaperID: get("paper_id"), Type: strings.ToUpper(strings.TrimSpace(get("question_type"))),
			Text: get("question"), Evidence: get("relevant_passage"), PaperContent: get("paper_content"),
			Line: r.Line, Breakdown: map[string]string{},
		}
		q.MCQ = mcq.Parse(q.Text)
		q.Warnings = append(q.Warnings, splitWarnings(q.MCQ)...)
		ans, ok := mcq.NormalizeAnswer(get("answer"))
		if !ok {
			problems = append(problems, Problem{Line: r.Line, Fatal: true,
				Msg: fmt.Sprintf("answer %q is not a set of option letters", get("answer"))})
			return nil
		}
		q.Answer = ans
		if len(q.MCQ.Options) < 2 {
			problems = append(problems, Problem{Line: r.Line, Fatal: true, Msg: "no options A., B., ... found in the question text"})
			return nil
		}
		for _, l := range ans {
			if !strings.ContainsRune(q.MCQ.Letters(), l) {
				msg := fmt.Sprintf("answer %s names option %c, which the question does not have (options %s)", ans, l, q.MCQ.Letters())
				if len(q.Warnings) > 0 { // the split's doubts may explain the missing option
					msg += "; " + strings.Join(q.Warnings, "; ")
				}
				problems = append(problems, Problem{Line: r.Line, Fatal: true, Msg: msg})
				return nil
			}
		}
		if n := len(q.MCQ.Options); n != 4 {
			// ElaipBench publishes options A–D on every row; another count
			// means a letter-dot in the text was taken for a label ("Table
			// E."), or a label was missed.
			q.Warnings = append(q.Warnings, fmt.Sprintf("the question parsed into %d options (%s) where ElaipBench has four (A–D); a letter-dot in the text may have been taken for an option label, or a label missed: check the row", n, q.MCQ.Letters()))
		}
		switch {
		case q.Type == "MA-MCQ" && len(ans) == 1:
			q.Warnings = append(q.Warnings, "MA-MCQ with a single answer letter; scored as set equality like any other")
		case q.Type == "SA-MCQ" && len(ans) > 1:
			q.Warnings = append(q.Warnings, "SA-MCQ with several answer letters; scored as set equality")
		case q.Type == "":
			q.Type = "SA-MCQ"
			if len(ans) > 1 {
				q.Type = "MA-MCQ"
			}
		}
		if w, ok := everyOption(q.MCQ, ans); ok {
			q.Warnings = append(q.Warnings, w)
		}
		for _, f := range breakdownFields {
			if v := strings.TrimSpace(get(f)); v != "" {
				q.Breakdown[f] = v
			}
		}
		q.ID = StableID("eb-", q.PaperID, q.Text)
		if first, dup := seen[q.ID]; dup {
			problems = append(problems, Problem{Line: r.Line,
				Msg: fmt.Sprintf("duplicate of the row at line %d (same paper and question); kept once", first)})
			return nil
		}
		seen[q.ID] = r.Line
		for _, w := range q.Warnings {
			problems = append(problems, Problem{Line: r.Line, ID: q.ID, Msg: w})
		}
		qs = append(qs, q)
		return nil
	}, bad)
	if err != nil {
		return qs, problems, fmt.Errorf("load ElaipBench %s: %w", path, err)
	}
	if len(qs) == 0 {
		return nil, problems, fmt.Errorf("load ElaipBench %s: no usable rows (%d problems)", path, len(problems))
	}
	return qs, problems, nil
}

func fieldList(r dataset.Row) string {
	var fs []string
	for k := range r.Fields {
		fs = append(fs, k)
	}
	if len(fs) == 0 {
		return "(none)"
	}
	sort.Strings(fs)
	return strings.Join(fs, ", ")
}
