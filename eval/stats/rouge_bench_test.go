package stats

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// longReply repeats pieces to about n bytes.
func longReply(n int, pieces ...string) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(pieces[i%len(pieces)])
	}
	return b.String()
}

// rougeRefEN is a short answer of the length LPFQA references have (a few
// sentences).
const rougeRefEN = "Retrieval barely helps expert reading: the model fails to integrate retrieved content, " +
	"and accuracy on ElaipBench stays near 40% whether or not the relevant passage is given. " +
	"The gain from a longer context is within the 95% confidence interval of the baseline."

// BenchmarkRougeL scores replies of 4 KiB and 4 MiB against a reference of
// a few sentences, in English and in Chinese; with the shared corpus, also
// LFQA-E's real Chinese answers (all 2,386 concatenated, 2.2 MiB) against
// one of its references. Reports ms/op and ns/byte:
//
//	go test -run '^$' -bench 'RougeL' -benchtime 5x ./eval/stats/
func BenchmarkRougeL(b *testing.B) {
	en := []string{"The model fails to integrate the retrieved web content; ", "accuracy stays near 40% on ElaipBench, ",
		"and retrieval barely helps expert reading of the paper. ", "Option (B) is plausible but the appendix contradicts it.\n"}
	zh := []string{"中国共产党团结带领中国人民，自力更生、发愤图强，", "创造了社会主义革命和建设的伟大成就。", "选项A不正确，因为语料库较小。"}
	refZH := "新中国成立后，中国共产党团结带领中国人民，自力更生、发愤图强，创造了社会主义革命和建设的伟大成就，为实现中华民族伟大复兴奠定了根本政治和制度基础。"
	type shape struct{ name, cand, ref string }
	shapes := []shape{
		{"en/4KiB", longReply(4<<10, en...), rougeRefEN},
		{"en/4MiB", longReply(4<<20, en...), rougeRefEN},
		{"zh/4KiB", longReply(4<<10, zh...), refZH},
		{"zh/4MiB", longReply(4<<20, zh...), refZH},
	}
	for _, sh := range shapes {
		b.Run(sh.name, func(b *testing.B) { benchRouge(b, sh.cand, sh.ref) })
	}
	b.Run("lfqae", func(b *testing.B) {
		data, err := os.ReadFile(testcorpus.Path(b, "external", "lfqae", "unified_benchmark_zh.json"))
		if err != nil {
			b.Fatal(err)
		}
		var rows []struct {
			Reference string `json:"reference"`
			ResponseA string `json:"response_a"`
			ResponseB string `json:"response_b"`
		}
		if err := json.Unmarshal(data, &rows); err != nil || len(rows) == 0 {
			b.Fatalf("lfqae: %d rows, %v", len(rows), err)
		}
		var c strings.Builder
		for _, r := range rows {
			c.WriteString(r.ResponseA)
			c.WriteString(r.ResponseB)
		}
		benchRouge(b, c.String(), rows[0].Reference)
	})
}

func benchRouge(b *testing.B, cand, ref string) {
	b.SetBytes(int64(len(cand)))
	for b.Loop() {
		RougeL(cand, ref)
	}
	perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(perOp/1e6, "ms/op")
	b.ReportMetric(perOp/float64(len(cand)), "ns/byte")
}
