package retrieval

import (
	"strings"
	"testing"
)

// The text table has one row per retriever, sorted, with recall, hit and
// complete at each k and MRR, and a section per question type.
func TestWriteTable(t *testing.T) {
	sum := Summary{
		N: 3, NoGold: 1,
		Retrievers: map[string]map[string]float64{
			"okapi": {"n": 3, "recall@1": 0.5, "hit@1": 2.0 / 3, "complete@1": 0.25, "mrr": 0.75},
			"bleve": {"n": 3, "recall@1": 0.4, "hit@1": 1.0 / 3, "complete@1": 0, "mrr": 0.5},
		},
		ByType: map[string]map[string]map[string]float64{"Reasoning": {"okapi": {"n": 1, "recall@1": 1, "mrr": 1}}},
	}
	var b strings.Builder
	if err := sum.WriteTable(&b, []int{1}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"Evidence recall over 3 questions (1 without locatable gold left out, 0 retrieval errors)",
		"recall@1", "hit@1", "complete@1", "mrr",
		"0.667", "0.750", "\nReasoning\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Index(out, "bleve") > strings.Index(out, "okapi") {
		t.Errorf("retrievers not sorted:\n%s", out)
	}
}
