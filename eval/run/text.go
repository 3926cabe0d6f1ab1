package run

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/paperlens/paperlens/model"
)

// WritePlan prints a dry run's plan: a table, or with asJSON the plan as
// indented JSON (eval --dry-run --json).
func WritePlan(w io.Writer, p Plan, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(p)
	}
	fmt.Fprintf(w, "Dry run: nothing sent.\n\n%d model calls (%d records already finished), %d prompt tokens (cl100k_base), answers at most %d tokens\n",
		p.Calls, p.Resumed, p.PromptTokens, p.CompletionTokensMax)
	if len(p.ToolModes) > 0 {
		fmt.Fprintf(w, "%s: the model decides how many tools to call; those counts are the first turns. At most %d calls and %d prompt tokens with --max-tool-calls used up and every result at its largest\n",
			strings.Join(p.ToolModes, ", "), p.CallsMax, p.PromptTokensMax)
	}
	if p.JudgeCalls > 0 {
		fmt.Fprintf(w, "plus up to %d judge calls (their prompts hold the answers, so they are not counted)\n", p.JudgeCalls)
	}
	if p.CostUSD != nil {
		fmt.Fprintf(w, "cost: US$ %.2f for the prompts, at most US$ %.2f with every answer at full length\n", *p.PromptCostUSD, *p.CostUSD)
	}
	if p.PythonSandbox != nil {
		fmt.Fprintf(w, "python tool: %s\n", p.PythonSandbox.Guarantee)
	}
	fmt.Fprintln(w)
	for _, m := range slices.Sorted(maps.Keys(p.ByMode)) {
		x := p.ByMode[m]
		fmt.Fprintf(w, "  %-12s %6d calls  %12d prompt tokens", m, x.Calls, x.PromptTokens)
		if x.CallsMax != x.Calls {
			fmt.Fprintf(w, "  (at most %d calls, %d tokens)", x.CallsMax, x.PromptTokensMax)
		}
		fmt.Fprintln(w)
	}
	if len(p.Estimated) > 0 {
		fmt.Fprintf(w, "\n%s: web results are not fetched in a dry run; counted as %s full results\n", strings.Join(p.Estimated, ", "), "--web-results ×  --web-tokens")
	}
	for i, pr := range p.Problems {
		if i == 10 {
			fmt.Fprintf(w, "… and %d more questions whose prompt cannot be built\n", len(p.Problems)-10)
			break
		}
		fmt.Fprintf(w, "cannot build: %s\n", pr)
	}
	return nil
}

// Failures says what a finished (or breaker-stopped) run left to do: why
// it stopped, how many records ended in an error (they count as wrong in
// accuracy) and the most frequent errors; "" when every record is
// error-free and the run was not stopped. The command exits 1 with it.
func (r Result) Failures(stopErr error) string {
	n := r.Failed()
	if n == 0 && stopErr == nil {
		return ""
	}
	var b strings.Builder
	if stopErr != nil {
		b.WriteString(stopErr.Error())
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%d record(s) ended in an error and count as wrong in accuracy; rerun the same command to retry them.", n)
	for i, e := range r.Errors {
		if i == 3 {
			fmt.Fprintf(&b, "\n  … %d more kinds", len(r.Errors)-3)
			break
		}
		msg := e.Error
		if rs := []rune(msg); len(rs) > 240 {
			msg = string(rs[:240]) + "…"
		}
		fmt.Fprintf(&b, "\n  %d× %s", e.N, msg)
	}
	return b.String()
}

// FindPrompt is the record of question id whose prompt prompt shows: in
// mode (the first recorded when ""), run n (the first when 0), with the
// messages it was sent, which the folder keeps with --log-prompts.
func (d Dir) FindPrompt(id, mode string, n int) (Record, []model.Message, error) {
	// The records are read one at a time, up to the one wanted: a folder
	// of many thousand is never held.
	var modes []string
	var found *Record
	_, err := EachResult(d.path(ResultsFile), func(r Record) error {
		if r.QuestionID != id || (n > 0 && r.Run != n) {
			return nil
		}
		modes = append(modes, r.Mode)
		if mode != "" && r.Mode != mode {
			return nil
		}
		found = &r
		return errFound
	})
	if err != nil && !errors.Is(err, errFound) {
		return Record{}, nil, err
	}
	if found != nil {
		r := *found
		if r.PromptSHA256 == "" {
			return r, nil, fmt.Errorf("%s [%s run %d] has no logged prompt: rerun eval with --log-prompts into a new --out", id, r.Mode, r.Run)
		}
		msgs, err := d.Prompt(r.PromptSHA256)
		return r, msgs, err
	}
	if len(modes) == 0 {
		return Record{}, nil, fmt.Errorf("no record of question %q in %s", id, string(d))
	}
	return Record{}, nil, fmt.Errorf("question %q has no record in mode %q; its modes: %v", id, mode, modes)
}

// errFound stops a reading of the records at the one wanted.
var errFound = errors.New("found")
