package compose_test

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/compose"
)

// Compose three questions of 8 statements and 4 options from the sample
// benchmark, and write them as a benchmark file eval reads.
func Example() {
	src, _, err := bench.LoadElaipBench(filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl"))
	if err != nil {
		fmt.Println(err)
		return
	}
	spec := compose.Spec{Statements: compose.Range{Min: 8, Max: 8}, Options: compose.Range{Min: 4, Max: 4}, Questions: 3, Seed: 7}
	set, err := compose.Compose(src, spec)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, q := range set.Questions {
		fmt.Printf("%s %s: %s statements, %s options, asks for the %s ones, answer %s\n",
			q.ID, q.PaperID, q.Breakdown["statements"], q.Breakdown["options"], q.Composition.Accuracy, q.Answer)
	}
	lines := strings.Split(set.Questions[2].Text, "\n")
	fmt.Println(lines[0])
	fmt.Println(lines[1][:80] + "…")
	fmt.Println(strings.Join(lines[len(lines)-5:], "\n"))
	// The file eval reads: one question a line, its composition under
	// "compose" (the seed, the template, each statement's source and
	// truth).
	var file strings.Builder
	if err := set.WriteJSONL(&file); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Count(file.String(), "\n"), "lines")
	// Output:
	// c7-001 claim-anchored-verification: 8 statements, 4 options, asks for the incorrect ones, answer D
	// c7-002 concord-adapter-merging: 8 statements, 4 options, asks for the incorrect ones, answer B
	// c7-003 tidal-token-pruning: 8 statements, 4 options, asks for the correct ones, answer D
	// From the options below, select all valid statements:
	// I. In answer to "When the schedule calls for a larger set of active patches at t…
	// Options:
	// A. III, IV, VII, VIII
	// B. II, III, VII
	// C. I, II, VI, VIII
	// D. III, V, VI, VIII
	// 3 lines
}
