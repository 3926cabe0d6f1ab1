package extract

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// cotPieces are sentences of the kind a long chain of thought repeats: each
// mentions letters, brackets, bold marks or cue words that the extractor's
// rules look for, so that every rule has work to do at every line.
var cotPieces = []string{
	"Option A says the corpus is larger, but (B) and **C** need checking against Table 3; it is A good start. ",
	"Let me check whether the answer is A. If the answer were B, the ablation would show it. ",
	"The answer is not C, since the appendix contradicts it, and option D overstates the gain. ",
	"Hmm, so A? Or maybe (B)... I think the key is the tokenizer. Answer: unclear for now. ",
	"Eliminated: (A), (C). Still weighing B and D; the correct option is hard to pin down. ",
	"$\\boxed{\\text{ perhaps }}$ is not an answer yet; \\boxed{ is unclosed here. ",
	"选项A不正确，因为语料库较小。选项B也许对？所以答案是什么还不确定，因此需要再看表格。",
	"B是正确的吗？不一定。A和C都不正确的说法也未必成立，综上所述还要核对附录。",
	"OPT-1.3B and OPT-2.7B behave alike, whereas OPT-13B diverges on Finnish. ",
	"Therefore, considering all of A, B, C and D together, we go on. ",
	"**Answer:** to be determined after reading section 4.6 again. ",
}

// adversarialReply builds a reply of about n bytes: a long chain of thought
// made of cotPieces in a fixed pseudo-random order, with short lines, lines
// of 64 KiB without a newline, and runs of Chinese, followed by tail (the
// final answer, or nothing for a reply that never commits).
func adversarialReply(n int, tail string) string {
	rng := rand.New(rand.NewPCG(23, 2))
	var b strings.Builder
	b.Grow(n + len(tail))
	line := 0
	for b.Len() < n-len(tail) {
		p := cotPieces[rng.IntN(len(cotPieces))]
		b.WriteString(p)
		line += len(p)
		// Mostly paragraphs of a few hundred bytes; now and then a line of
		// 64 KiB, as models that never break lines write.
		limit := 400
		if b.Len()/(1<<16)%3 == 1 {
			limit = 1 << 16
		}
		if line >= limit {
			b.WriteString("\n")
			line = 0
		}
	}
	b.WriteString("\n")
	b.WriteString(tail)
	return b.String()
}

// benchSizes are the reply sizes the benchmarks run: 4 KiB as the
// reference a normal reply is, and the 2 MiB and 4 MiB of issue 23 (4 MiB is
// the --max-reply-bytes cap).
var benchSizes = []struct {
	name string
	n    int
}{{"4KiB", 4 << 10}, {"2MiB", 2 << 20}, {"4MiB", 4 << 20}}

// BenchmarkExtract times extraction of adversarial replies of 4 KiB, 2 MiB
// and 4 MiB, once ending in an answer and once never committing to one
// (every rule and the option-text fallback run to the end). Each reports
// ms/op and ns/byte; compare ns/byte across sizes to see that the cost per
// byte stays flat:
//
//	go test -run '^$' -bench 'Extract' -benchtime 5x ./eval/extract/
func BenchmarkExtract(b *testing.B) {
	for _, tail := range []struct{ name, text string }{
		{"answer", "The answer is D."},
		{"miss", "I cannot decide."},
	} {
		for _, sz := range benchSizes {
			reply := adversarialReply(sz.n, tail.text)
			b.Run(fmt.Sprintf("%s/%s", tail.name, sz.name), func(b *testing.B) {
				b.SetBytes(int64(len(reply)))
				for b.Loop() {
					Extract(reply, "ABCD", opts4, true)
				}
				perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
				b.ReportMetric(perOp/1e6, "ms/op")
				b.ReportMetric(perOp/float64(len(reply)), "ns/byte")
			})
		}
	}
}
