package textquality

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// paperLike returns n code points of words from a small vocabulary with
// maths symbols, so that matches are as dense as in real text.
func paperLike(r *rand.Rand, n int) []rune {
	words := strings.Fields("the of and a to in is policy value γ ∈ → state action reward ∑ bound return discount |x| ≤ model")
	var b strings.Builder
	for b.Len() < 2*n {
		b.WriteString(words[r.IntN(len(words))])
		b.WriteByte(' ')
	}
	return []rune(b.String())[:n]
}

// BenchmarkLCS times the bit-parallel LCS against the O(n·m) table on the
// same pair of 20 000-code-point texts (a 10-page paper), and reports the
// table's time over ours as table/bitparallel. A 50 000-code-point paper
// costs 6.25 times either figure.
func BenchmarkLCS(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x, y := paperLike(r, 20000), paperLike(r, 20000)
	var fast, slow time.Duration
	n := 0
	for b.Loop() {
		t0 := time.Now()
		got := LCS(x, y)
		t1 := time.Now()
		want := slowLCS(x, y)
		fast += t1.Sub(t0)
		slow += time.Since(t1)
		n++
		if got != want {
			b.Fatalf("LCS %d, table %d", got, want)
		}
	}
	b.ReportMetric(fast.Seconds()*1000/float64(n), "bitparallel-ms")
	b.ReportMetric(slow.Seconds()*1000/float64(n), "table-ms")
	b.ReportMetric(float64(slow)/float64(fast), "table/bitparallel")
}
