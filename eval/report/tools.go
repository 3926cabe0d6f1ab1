package report

import (
	"fmt"
	"slices"
)

const hTools = "Tool use"

// callBuckets group records by how many tool calls the model made.
var callBuckets = []string{"0", "1", "2–3", "4+"}

func callBucket(n int) int {
	switch {
	case n <= 0:
		return 0
	case n == 1:
		return 1
	case n <= 3:
		return 2
	}
	return 3
}

// toolRow is one run's tool mode: its mean calls per question, the share
// of questions answered without a tool, and accuracy by number of calls.
type toolRow struct {
	Model, Mode string
	N           int
	MeanCalls   string
	NoTool      string   // percent, as every share in the report
	ByCalls     []string // per callBuckets: accuracy % and records, "62.5 (8)", or "–"
}

// buildTools counts the records that carry a transcript (the tool
// modes'); a record without one (an error before the loop) is left out.
func buildTools(runs []Run, labs []string) []toolRow {
	var out []toolRow
	for i, r := range runs {
		byMode := map[string][]int{} // mode → calls per record
		right := map[string][]bool{}
		var order []string
		for _, rec := range r.Records {
			if rec.Transcript == nil {
				continue
			}
			if _, ok := byMode[rec.Mode]; !ok {
				order = append(order, rec.Mode)
			}
			byMode[rec.Mode] = append(byMode[rec.Mode], rec.Transcript.ToolCalls)
			right[rec.Mode] = append(right[rec.Mode], rec.Correct)
		}
		slices.Sort(order)
		for _, m := range order {
			calls, ok := byMode[m], right[m]
			row := toolRow{Model: labs[i], Mode: m, N: len(calls)}
			sum, none := 0, 0
			var n, c [4]int
			for j, k := range calls {
				sum += k
				if k == 0 {
					none++
				}
				b := callBucket(k)
				n[b]++
				if ok[j] {
					c[b]++
				}
			}
			row.MeanCalls = fmt.Sprintf("%.2f", float64(sum)/float64(len(calls)))
			row.NoTool = pct(float64(none) / float64(len(calls)))
			for b := range callBuckets {
				if n[b] == 0 {
					row.ByCalls = append(row.ByCalls, "–")
					continue
				}
				row.ByCalls = append(row.ByCalls, fmt.Sprintf("%s (%d)", pct(float64(c[b])/float64(n[b])), n[b]))
			}
			out = append(out, row)
		}
	}
	return out
}
