package run

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
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
