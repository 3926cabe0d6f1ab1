package bench_test

import (
	"fmt"
	"path/filepath"

	"github.com/paperlens/paperlens/eval/bench"
)

func ExampleLoadLPFQA() {
	// Field names come from a --fields flag; keys not given keep the names
	// reported for LPFQA-data.json.
	fields, err := bench.ParseFieldMap("domain=primary_domain")
	if err != nil {
		fmt.Println(err)
		return
	}
	qs, problems, err := bench.LoadLPFQA(filepath.Join("testdata", "lpfqa-sample.json"), fields)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, q := range qs[:4] {
		fmt.Printf("%s %s %q (%s)\n", q.ID, q.Type, q.Answer, q.Breakdown["domain"])
	}
	for _, p := range problems {
		fmt.Println(p)
	}
	// Output:
	// lpfqa-001 MCQ "C" (Applied Tech)
	// 2 MCQ "B" (Life Sci)
	// lpfqa-003 short "Create the dependency directly between the external milestone and the phase (the parent element) instead of the milestone nested inside the phase, which respects the hierarchical constraints." (CS)
	// lpfqa-004 short "约 2.98 A（I = P / (√3·U·cosφ·η)）" (EE)
	// line 5: missing reference (response_reference); fields found: primary_domain, prompt, prompt_id
	// line 8: prompt_id "lpfqa-001" already used at line 1 for a different question; row skipped
}

func ExampleLoadJSONL() {
	qs, _, err := bench.LoadJSONL(filepath.Join("testdata", "generic-example.jsonl"))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, q := range qs {
		fmt.Printf("%-16s %-6s %s options=%q\n", q.ID, q.Type, q.Answer, q.MCQ.Letters())
	}
	// Output:
	// ex-1             SA-MCQ C options="ABCD"
	// ex-2             MA-MCQ AC options="ABCD"
	// 3                SA-MCQ B options="ABC"
	// ex-4             short  The positional encoding was only trained up to 8k positions and does not extrapolate. options=""
	// q-5662c59ac5ac   SA-MCQ B options="ABC"
	// q-520b66aea896   short  2025 options=""
}
