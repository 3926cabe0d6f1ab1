package run

import (
	"encoding/json"
	"fmt"
	"io"
)

// Write prints what a rescore did, as `paperlens rescore` does: with
// asJSON the result as one indented JSON object on out (changes [] when
// none); else the new summary (summary.md) on out and, on log, each
// record whose verdict changed and a last line of counts. log reaches a
// terminal: the caller escapes it.
func (r RescoreResult) Write(out, log io.Writer, asJSON bool) error {
	if asJSON {
		if r.Changes == nil {
			r.Changes = []Change{}
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	if _, err := io.WriteString(out, Markdown(r.Summary)); err != nil {
		return err
	}
	for _, c := range r.Changes {
		fmt.Fprintf(log, "%s %s run %d: %s -> %s\n", c.QuestionID, c.Mode, c.Run, c.Was, c.Now)
	}
	_, err := fmt.Fprintf(log, "\n%d records rescored, %d changed, %d re-judged; run folder %s\n", r.Rescored, len(r.Changes), r.Rejudged, r.Dir)
	return err
}

// String is a verdict in a few words: right or wrong, the judge's score
// or ROUGE-L, and the answer read from the reply.
func (v Verdict) String() string {
	s := "wrong"
	if v.Correct {
		s = "right"
	}
	if v.Score != nil {
		s += fmt.Sprintf(" (%s %.2f)", v.ScoreKind, *v.Score)
	}
	if v.Extracted != "" {
		s += fmt.Sprintf(" %q", v.Extracted)
	}
	return s
}
