package run

import (
	"reflect"
	"testing"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/model"
)

func TestCountRecord(t *testing.T) {
	for _, tc := range []struct {
		name string
		recs []Record
		want ModeStats
	}{
		{"nothing", nil, ModeStats{}},
		{"errors, truncation, unreadable judge", []Record{{Error: "x"}, {Truncated: true}, {JudgeUnreadable: true}},
			ModeStats{Errors: 1, Truncated: 1, JudgeUnreadable: 1, Records: 3}},
		{"tokens", []Record{{Usage: model.Usage{PromptTokens: 10, CompletionTokens: 3, ReasoningTokens: 1, CachedTokens: 4}}, {Usage: model.Usage{PromptTokens: 5}}},
			ModeStats{Tokens: Tokens{Prompt: 15, Completion: 3, Reasoning: 1, Cached: 4}, Records: 2}},
		{"rerank tokens only when reranked", []Record{{RerankUsage: &model.Usage{PromptTokens: 7}}, {}},
			ModeStats{RerankTokens: &Tokens{Prompt: 7}, Records: 2}},
		{"routes", []Record{{Route: "rag"}, {Route: "full"}, {Route: "rag"}, {}},
			ModeStats{Routes: map[string]int{"rag": 2, "full": 1}, Records: 4}},
	} {
		var ms ModeStats
		for _, r := range tc.recs {
			countRecord(&ms, r)
		}
		if !reflect.DeepEqual(ms, tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.name, ms, tc.want)
		}
	}
}

func TestModeTally(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	recs := []Record{
		{Run: 1, QuestionType: "SA-MCQ", Miss: true, PromptTokens: 100, Reasoning: "abcd", Recall: f(0.5), Breakdown: map[string]string{"d": "easy"}, Usage: model.Usage{ReasoningTokens: 6}},
		{Run: 1, QuestionType: "short", TruncatedTokens: 3, PromptTokens: 200, ScoreKind: "rouge_l", Score: f(0.25), Breakdown: map[string]string{"d": "hard"}},
		{Run: 1, QuestionType: "short", ScoreKind: "judge", Score: f(1), Error: "failed", Reasoning: "xx", Breakdown: map[string]string{"d": "hard"}},
	}
	tl := newModeTally(1)
	for _, r := range recs {
		tl.add(r)
	}
	var ms ModeStats
	tl.fill(&ms, len(recs))
	if ms.MissRate != 1.0/3 || ms.PromptTokens != 100 || ms.TruncatedShare != 1.0/3 || ms.ReasoningChars != 2 {
		t.Errorf("rates %+v", ms)
	}
	if ms.EvidenceRecall == nil || *ms.EvidenceRecall != 0.5 || ms.RougeL == nil || *ms.RougeL != 0.25 {
		t.Errorf("recall %v rouge %v, want 0.5 and 0.25 (the judge score is not ROUGE-L)", ms.EvidenceRecall, ms.RougeL)
	}
	// Groups count their scored records (the ROUGE-L one is not).
	if len(tl.byType) != 2 || tl.byType["short"].n[0] != 1 || tl.byType["SA-MCQ"].n[0] != 1 || tl.byField["d"]["hard"].n[0] != 1 || len(tl.byType["short"].qs) != 1 {
		t.Errorf("groups: %d types, %v fields", len(tl.byType), tl.byField)
	}
	// The failed record's reasoning is left out of reasoning by value.
	if x := tl.reasonBy["d"]["hard"]; x.N != 1 || x.Chars != 0 {
		t.Errorf("reasoning of hard: %+v, want one record without reasoning", *x)
	}
	var empty ModeStats
	newModeTally(1).fill(&empty, 0)
	if !reflect.DeepEqual(empty, ModeStats{}) {
		t.Errorf("no records: %+v", empty)
	}
}

func TestReasoningBy(t *testing.T) {
	for _, tc := range []struct {
		name string
		sums map[string]map[string]*ReasoningLen
		cot  bool
		want map[string]map[string]ReasoningLen
	}{
		{"none", nil, false, nil},
		{"a model that does not think", map[string]map[string]*ReasoningLen{"d": {"easy": {N: 3}}}, false, nil},
		{"means per value", map[string]map[string]*ReasoningLen{
			"d": {"easy": {Tokens: 10, Chars: 40, Completion: 60, N: 2}, "hard": {N: 1}},
			"f": {"x": {N: 4}},
		}, false, map[string]map[string]ReasoningLen{"d": {"easy": {Tokens: 5, Chars: 20, Completion: 30, N: 2}, "hard": {N: 1}}}},
		// A base run's letters are completions too, not reasoning.
		{"base completions", map[string]map[string]*ReasoningLen{"d": {"easy": {Completion: 4, N: 2}}}, false, nil},
		// A cot run reasons in its answer: its completion is its reasoning.
		{"cot completions", map[string]map[string]*ReasoningLen{"d": {"easy": {Completion: 800, N: 2}, "hard": {Completion: 600, N: 1}}}, true,
			map[string]map[string]ReasoningLen{"d": {"easy": {Completion: 400, N: 2}, "hard": {Completion: 600, N: 1}}}},
	} {
		if got := reasoningBy(tc.sums, tc.cot); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestPairedEffect(t *testing.T) {
	qs := []bench.Question{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}}
	for _, tc := range []struct {
		name        string
		base, other map[string]float64
		n, b01, b10 int
		diff        float64
	}{
		{"no shared questions", map[string]float64{"a": 1}, map[string]float64{"b": 1}, 0, 0, 0, 0},
		{"all gained", map[string]float64{"a": 0, "b": 0, "c": 0}, map[string]float64{"a": 1, "b": 1, "c": 1}, 3, 3, 0, 1},
		{"one lost, majority by half", map[string]float64{"a": 1, "b": 0.5, "d": 1}, map[string]float64{"a": 0, "b": 0.5, "d": 1}, 3, 0, 1, -1.0 / 3},
	} {
		e := pairedEffect(qs, tc.base, tc.other, 2)
		if e.N != tc.n || e.B01 != tc.b01 || e.B10 != tc.b10 || e.Diff-tc.diff > 1e-12 || tc.diff-e.Diff > 1e-12 {
			t.Errorf("%s: %+v", tc.name, e)
		}
		if e.N > 0 && (e.Lo > e.Diff || e.Hi < e.Diff) {
			t.Errorf("%s: interval %v..%v misses %v", tc.name, e.Lo, e.Hi, e.Diff)
		}
	}
}

func TestSummarizeModeCost(t *testing.T) {
	cfg := Config{Runs: 1, Price: &Price{In: 1, Out: 2}}
	rs := []Record{{Run: 1, QuestionType: "SA-MCQ", Correct: true, Usage: model.Usage{PromptTokens: 1e6, CompletionTokens: 1e6}, RerankUsage: &model.Usage{PromptTokens: 1e6}}}
	ms := summarizeMode(cfg, rs)
	if ms.CostUSD == nil || *ms.CostUSD != 4 || ms.Accuracy != 1 || len(ms.ByType) != 1 {
		t.Errorf("cost %v accuracy %v types %v", ms.CostUSD, ms.Accuracy, ms.ByType)
	}
	if ms := summarizeMode(Config{Runs: 1}, rs); ms.CostUSD != nil {
		t.Errorf("unpriced: cost %v", *ms.CostUSD)
	}
}
