package extract

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
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
// (every rule and the option-text fallback run to the end), and of a 4 MiB
// reply on one line and one in Chinese. Each reports ms/op and ns/byte:
//
//	go test -run '^$' -bench 'Extract' -benchtime 5x ./eval/extract/
func BenchmarkExtract(b *testing.B) {
	type shape struct{ name, reply string }
	var shapes []shape
	for _, tail := range []struct{ name, text string }{
		{"answer", "The answer is D."},
		{"miss", "I cannot decide."},
	} {
		for _, sz := range benchSizes {
			shapes = append(shapes, shape{tail.name + "/" + sz.name, adversarialReply(sz.n, tail.text)})
		}
	}
	shapes = append(shapes,
		shape{"oneline/4MiB", strings.ReplaceAll(adversarialReply(4<<20, "so the answer is D"), "\n", " ")},
		shape{"chinese/4MiB", chineseReply(4 << 20)},
	)
	for _, sh := range shapes {
		b.Run(sh.name, func(b *testing.B) {
			b.SetBytes(int64(len(sh.reply)))
			for b.Loop() {
				Extract(sh.reply, "ABCD", opts4, true)
			}
			perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(perOp/1e6, "ms/op")
			b.ReportMetric(perOp/float64(len(sh.reply)), "ns/byte")
		})
	}
}

// chineseReply is about n bytes of Chinese reasoning without spaces or line
// breaks, full of option letters and cues (答案, 选项, 因此, 正确).
func chineseReply(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(cotPieces[7+i%2])
	}
	b.WriteString("答案是C")
	return b.String()
}

// BenchmarkExtract4MiB is issue 23's measure: a 4 MiB chain of thought
// that never commits to an answer, the worst case for the rules. Besides
// ms/op it reports per-byte-ratio, the cost per byte of the 4 MiB reply
// over that of a 4 KiB reply of the same kind timed alongside (best of
// five rounds): about 1 or below is linear, 1024 would be quadratic.
//
//	go test -run '^$' -bench 'Extract4MiB' ./eval/extract/
func BenchmarkExtract4MiB(b *testing.B) {
	small := adversarialReply(4<<10, "I cannot decide.")
	big := adversarialReply(4<<20, "I cannot decide.")
	ref := time.Duration(1<<63 - 1)
	for range 5 {
		start := time.Now()
		for range 50 {
			Extract(small, "ABCD", opts4, true)
		}
		ref = min(ref, time.Since(start)/50)
	}
	b.SetBytes(int64(len(big)))
	for b.Loop() {
		Extract(big, "ABCD", opts4, true)
	}
	perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(perOp/1e6, "ms/op")
	b.ReportMetric(float64(ref.Nanoseconds())/1e6, "ref-4KiB-ms/op")
	b.ReportMetric((perOp/float64(len(big)))/(float64(ref.Nanoseconds())/float64(len(small))), "per-byte-ratio")
}
