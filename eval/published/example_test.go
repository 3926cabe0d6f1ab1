package published_test

import (
	"fmt"

	"github.com/paperlens/paperlens/eval/published"
)

// A run of deepseek-ai/DeepSeek-V3 with --paradigm base in full mode sits
// beside ElaipBench Table 2's DeepSeek-V3 base row.
func Example() {
	row, table, ok := published.Lookup("elaipbench", "deepseek-ai/DeepSeek-V3", "base", "full")
	if !ok {
		return
	}
	fmt.Printf("%s (%s): %s %s, Total %.2f%%, SA-MCQ %.2f%%\n", table.Name, table.Section, row.Model, row.Paradigm, row.Values["Total"], row.Values["SA-MCQ"])
	_, _, ok = published.Lookup("elaipbench", "gpt-5", "reasoning", "full")
	fmt.Println("gpt-5 as a reasoning model:", ok)
	for _, t := range published.Tables() {
		fmt.Printf("%s, %s: %d rows\n", t.Name, t.Section, len(t.Rows))
	}
	// Output:
	// ElaipBench Table 2 (§4.2, Table 2): DeepSeek-V3 base, Total 39.95%, SA-MCQ 32.95%
	// gpt-5 as a reasoning model: false
	// ElaipBench Table 2, §4.2, Table 2: 22 rows
	// LPFQA Table 2, §4.1, Table 2: 12 rows
	// LPFQA Table 4, §4.3, Table 4: 6 rows
}
