package compose

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/paperlens/paperlens/eval/bench"
)

// Row is one line of a composed file: a question in paperlens's JSONL
// benchmark format (eval --bench jsonl reads every field it needs), plus
// the record of its composition, which the loader ignores (fixed JSON).
type Row struct {
	ID      string `json:"id"`
	PaperID string `json:"paper_id"`
	Type    string `json:"type"`
	// Question is the stem (template sentence, numbered statements,
	// "Options:") and the options, one a line ("A. I, IV").
	Question string `json:"question"`
	Answer   string `json:"answer"`
	// Evidence is the union of the statements' evidence, one excerpt a
	// line, as ElaipBench's relevant_passage.
	Evidence string `json:"evidence"`
	// Breakdown groups results by the number of statements and options.
	Breakdown map[string]string `json:"breakdown"`
	Compose   Composition       `json:"compose"`
	// PaperContent is the paper's text when the source carried it, so
	// that the file alone runs every mode; last, since it is long.
	PaperContent string `json:"paper_content,omitempty"`
}

// RowOf is q as a composed file holds it.
func RowOf(q Question) Row {
	return Row{ID: q.ID, PaperID: q.PaperID, Type: q.Type, Question: q.Text, Answer: q.Answer, Evidence: q.Evidence,
		Breakdown: q.Breakdown, Compose: q.Composition, PaperContent: q.PaperContent}
}

// WriteJSONL writes the questions, one Row a line. The bytes depend only
// on the questions, so the same source and seed give the same file.
func (s Set) WriteJSONL(w io.Writer) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, q := range s.Questions {
		if err := enc.Encode(RowOf(q)); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// ForRuns composes a fresh set for each of runs runs of eval --compose,
// run r with spec.ForRun(r), each question marked with its run
// (bench.Question.Run) so that the runner asks it in that run only. The
// skips are those of every run, each once.
func ForRuns(src []bench.Question, spec Spec, runs int) ([]bench.Question, []Skip, error) {
	var out []bench.Question
	var skips []Skip
	seen := map[string]bool{}
	for r := 1; r <= runs; r++ {
		set, err := Compose(src, spec.ForRun(r))
		for _, s := range set.Skipped {
			if k := s.String(); !seen[k] {
				seen[k] = true
				skips = append(skips, s)
			}
		}
		if err != nil {
			return nil, skips, err
		}
		for _, q := range set.Questions {
			q.Run = r
			out = append(out, q.Question)
		}
	}
	return out, skips, nil
}

// Summary is one line on what a set holds: "37 questions from 5
// papers (seed 7), 8-10 statements, ...".
func (s Set) Summary() string {
	papers := map[string]bool{}
	for _, q := range s.Questions {
		papers[q.PaperID] = true
	}
	var b strings.Builder
	b.WriteString(plural(len(s.Questions), "question") + " from " + plural(len(papers), "paper"))
	b.WriteString(" (seed " + itoa64(s.Spec.Seed) + "; " + s.Spec.String() + ")")
	if n := len(s.Skipped); n > 0 {
		b.WriteString("; " + plural(n, "note") + " above")
	}
	return b.String()
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
