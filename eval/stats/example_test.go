package stats_test

import (
	"fmt"

	"github.com/paperlens/paperlens/eval/stats"
)

func ExampleMeanStd() {
	// Accuracy of three runs of one model.
	m, s := stats.MeanStd([]float64{0.3871, 0.3548, 0.3623})
	fmt.Printf("%.2f ± %.2f %%\n", 100*m, 100*s)
	// Output: 36.81 ± 1.69 %
}

func ExampleMcNemar() {
	// Closed-book (a) against RAG (b): RAG fixes 10 questions and breaks 2.
	a := []bool{false, false, false, false, false, false, false, false, false, false, true, true, true}
	b := []bool{true, true, true, true, true, true, true, true, true, true, false, false, true}
	b01, b10, p := stats.McNemar(a, b)
	fmt.Printf("b01=%d b10=%d p=%.4f\n", b01, b10, p)
	// Output: b01=10 b10=2 p=0.0386
}

func ExampleCompare() {
	a := make([]bool, 100) // baseline right on the first 40
	b := make([]bool, 100) // treatment right on the first 40 and 5 more
	for i := range 40 {
		a[i], b[i] = true, true
	}
	for i := 40; i < 45; i++ {
		b[i] = true
	}
	p := stats.Compare(a, b, 0, 1)
	fmt.Printf("diff %+.2f, b01=%d b10=%d, p=%.4f, CI contains diff: %v\n", p.Diff, p.B01, p.B10, p.PValue, p.Lo <= p.Diff && p.Diff <= p.Hi)
	// Output: diff +0.05, b01=5 b10=0, p=0.0625, CI contains diff: true
}

func ExampleRougeL() {
	fmt.Printf("%.3f\n", stats.RougeL("the cat sat on the mat", "the cat is on the mat"))
	fmt.Printf("%.3f\n", stats.RougeL("我爱北京", "我爱上海"))
	// Output:
	// 0.833
	// 0.500
}
