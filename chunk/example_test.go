package chunk_test

import (
	"fmt"

	"github.com/paperlens/paperlens/chunk"
)

const paper = `ElaipBench: A Benchmark
1 Introduction
Large language models read papers, e.g. the one by Lála et al. (2023). They still fail on hard questions.
2 Method
We cut each paper into passages of whole sentences. A passage never exceeds its token budget, see Sec. 4.6 for details.
`

func ExampleSplit() {
	for _, p := range chunk.Split(paper, chunk.Options{MaxTokens: 32}) {
		fmt.Printf("%d [%d,%d) %d tokens, section %q: %q\n", p.Ordinal, p.Start, p.End, p.Tokens, p.Section, p.Text)
	}
	// Output:
	// 0 [0,24) 9 tokens, section "": "ElaipBench: A Benchmark\n"
	// 1 [24,146) 32 tokens, section "1 Introduction": "1 Introduction\nLarge language models read papers, e.g. the one by Lála et al. (2023). They still fail on hard questions.\n"
	// 2 [146,275) 31 tokens, section "2 Method": "2 Method\nWe cut each paper into passages of whole sentences. A passage never exceeds its token budget, see Sec. 4.6 for details.\n"
}

func ExampleSentences() {
	text := "Results in Fig. 3 improve by 3.5%, i.e. a lot. It was released in 2021. As expected, cf. Smith et al. (2020), it helps."
	for _, s := range chunk.Sentences(text) {
		fmt.Printf("%q\n", text[s.Start:s.End])
	}
	// Output:
	// "Results in Fig. 3 improve by 3.5%, i.e. a lot. "
	// "It was released in 2021. "
	// "As expected, cf. Smith et al. (2020), it helps."
}

func ExampleHeadings() {
	for _, h := range chunk.Headings(paper) {
		fmt.Printf("%d %d %q\n", h.Start, h.Level, h.Title)
	}
	// Output:
	// 24 1 "1 Introduction"
	// 146 1 "2 Method"
}
