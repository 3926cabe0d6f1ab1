package judgecheck_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/paperlens/paperlens/eval/judgecheck"
)

// Without a judge, Run computes the static baselines, offline. Here two
// comparisons in LFQA-E's format: in the first the experts preferred the
// longer answer, which also shares more characters with the reference; in
// the second they saw a tie, where both baselines prefer B. Macro-F1 is
// then the mean of A's F1 (1), B's and TIE's (0).
func Example() {
	dir, _ := os.MkdirTemp("", "judgecheck")
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "pairs.jsonl")
	os.WriteFile(file, []byte(`{"id":"p1","question":"光合作用的产物是什么？","reference":"光合作用产生葡萄糖和氧气。","response_a":"光合作用产生葡萄糖和氧气，能量储存在葡萄糖中。","response_b":"产生氧气。","compare_type":"model_vs_model","label":"response_a"}
{"id":"p2","question":"水的沸点是多少？","reference":"在标准大气压下，水的沸点是100摄氏度。","response_a":"100摄氏度。","response_b":"标准大气压下约为100°C。","compare_type":"human_vs_model","label":"same"}
`), 0o644)

	s, err := judgecheck.Run(context.Background(), judgecheck.Options{File: file})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range []struct {
		name string
		g    judgecheck.Group
	}{{"length", s.Static.Length}, {"ROUGE-L", s.Static.RougeL}} {
		fmt.Printf("%s: accuracy %.2f, macro-F1 %.2f, tie accuracy %.2f\n", b.name, b.g.Accuracy, b.g.MacroF1, *b.g.TieAccuracy)
	}
	v, ok := judgecheck.ParseVerdict("Answer A covers both products; answer B only one.\nVerdict: A")
	fmt.Println(v, ok)
	// Output:
	// length: accuracy 0.50, macro-F1 0.33, tie accuracy 0.00
	// ROUGE-L: accuracy 0.50, macro-F1 0.33, tie accuracy 0.00
	// A true
}
