package extract_test

import (
	"fmt"

	"github.com/paperlens/paperlens/eval/extract"
	"github.com/paperlens/paperlens/eval/mcq"
)

func ExampleExtract() {
	replies := []string{
		"Option A is wrong because the corpus is smaller, so the answer is C",
		"A is incorrect. B is also wrong. Therefore, the correct options are C and D.",
		"<think>Maybe A?</think>\n**Answer:** B",
		"The answer is A. Wait, actually it is B.",
		"A model is trained on the pooled data.",
	}
	for _, r := range replies {
		res := extract.Extract(r, "ABCD", nil, true)
		fmt.Printf("%-3s %s\n", res.Letters, res.Method)
	}
	// Output:
	// C   answer-is
	// CD  answer-is
	// B   answer-colon
	// B   weak-cue
	//     miss
}

// The option-text fallback recognises a reply that quotes an option instead
// of naming its letter.
func ExampleExtract_optionText() {
	q := mcq.Parse("Which OPT model is the most sensitive?\nA. OPT-1.3B\nB. OPT-2.7B\nC. OPT-6.7B\nD. OPT-13B")
	res := extract.Extract("It is clearly opt-13b.", q.Letters(), q.Options, false)
	fmt.Println(res.Letters, res.Method)
	// Output: D option-text
}
