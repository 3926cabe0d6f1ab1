package run

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/model"
)

// goldenRecords builds every record of a run: each mode × run × question,
// with correctness, errors, truncation, misses, usage, reasoning, evidence
// recall, routes, rerank usage and breakdowns varying by a fixed rule, and
// short answers scored by ROUGE-L, or by a judge (sometimes unreadable)
// when judged.
func goldenRecords(cfg Config, qs []bench.Question, judged bool) []Record {
	var out []Record
	for mi, m := range cfg.Modes {
		for run := 1; run <= cfg.Runs; run++ {
			for qi, q := range qs {
				h := (mi*7 + run*5 + qi*3) % 11
				r := Record{QuestionID: q.ID, Mode: m, Run: run, QuestionType: q.Type,
					Correct: h%3 != 0, PromptTokens: 100 + 10*qi + mi, ScoreKind: "exact",
					Usage:     model.Usage{PromptTokens: 120 + qi, CompletionTokens: 8 + h, ReasoningTokens: h % 4, CachedTokens: qi % 2 * 50},
					Breakdown: map[string]string{"difficulty": []string{"easy", "hard"}[qi%2], "field": q.PaperID}}
				if h == 4 {
					r.Error, r.Correct = "model call failed: 500", false
				}
				if h == 7 {
					r.Truncated, r.Correct, r.Miss = true, false, true
				}
				if h == 9 {
					r.Miss = true
				}
				if h%5 == 1 {
					r.TruncatedTokens = 40
				}
				if mi > 0 && h%2 == 0 {
					r.Reasoning = fmt.Sprintf("thinking %d", h)
				}
				if m == ModeHybrid || m == mode.SelfRoute {
					v := float64(h) / 10
					r.Recall = &v
					r.RerankUsage = &model.Usage{PromptTokens: 30, CompletionTokens: 2}
				}
				if m == mode.SelfRoute {
					r.Route = []string{"rag", "full"}[h%2]
				}
				if q.Type == "short" {
					s := float64(h) / 10
					r.Score = &s
					if judged {
						r.ScoreKind = "judge"
						r.Correct = s >= 0.5
						r.JudgeUnreadable = h == 3
					} else {
						r.ScoreKind, r.Correct = "rouge_l", false
					}
				}
				out = append(out, r)
			}
		}
	}
	return out
}

func goldenQuestions() []bench.Question {
	var qs []bench.Question
	for i, t := range []string{"SA-MCQ", "MA-MCQ", "SA-MCQ", "short", "MA-MCQ", "short", "SA-MCQ"} {
		qs = append(qs, bench.Question{ID: fmt.Sprintf("q%d", i), PaperID: fmt.Sprintf("p%d", i%3), Type: t})
	}
	return qs
}

// TestSummaryGolden pins summary.json (and so the protocol block) of runs
// covering every kind of mode and record: ElaipBench over closed-book,
// full, hybrid and self-route, two runs, priced; LPFQA without a judge (no
// accuracy, ROUGE-L for short answers) and with one (judge scores, some
// unreadable); a CoT run with user flags, dropped parameters, web and tool
// modes for the protocol's settings. Regenerate with RUN_WRITE_GOLDEN=1
// only for a deliberate change.
func TestSummaryGolden(t *testing.T) {
	cached := 0.5
	temp := 0.3
	type named struct {
		Name    string  `json:"name"`
		Summary Summary `json:"summary"`
	}
	var got []named
	qs := goldenQuestions()
	for _, tc := range []struct {
		name   string
		cfg    Config
		judged bool
	}{
		{"elaipbench priced", Config{Bench: "elaipbench", Model: "m", Runs: 2, Seed: 3,
			Modes: []string{ClosedBook, Full, ModeHybrid, mode.SelfRoute}, Price: &Price{In: 2, Out: 8, Cached: &cached}}, false},
		{"lpfqa without a judge", Config{Bench: "lpfqa", Model: "m", Runs: 2, Seed: 4, Modes: []string{ClosedBook, Full}}, false},
		{"lpfqa judged", Config{Bench: "lpfqa", Model: "m", Runs: 3, Seed: 5, Modes: []string{Full, ClosedBook}, JudgeModel: "judge-m"}, true},
		{"cot with flags", Config{Bench: "elaipbench", Model: "m", Runs: 1, Seed: 6, Paradigm: CoT, CoTPrompt: CoTAnswerLine,
			Modes:    []string{Full, ModeDense, Web, mode.Agent},
			Sampling: Sampling{Temperature: &temp}, FlagsSet: []string{"temperature", "k", "embedder"},
			Dropped: []Dropped{{Param: "top_p", Why: "the server refused top_p"}}, Embedder: "BAAI/bge-m3@x",
			SharePrompts: true, ExtractFromReasoning: true}, false},
		{"jsonl with a prompt dir", Config{Bench: "jsonl", Model: "m", Runs: 1, Seed: 7, PromptDir: "prompts",
			Modes: []string{FullBM25, FullDense}, BM25: "", Embedder: "lsa-256@abc"}, false},
	} {
		cfg := tc.cfg
		cfg.Defaults(nil)
		if tc.name == "jsonl with a prompt dir" {
			cfg.BM25 = "" // a folder from before --bm25
		}
		got = append(got, named{tc.name, Summarize(cfg, qs, goldenRecords(cfg, qs, tc.judged))})
	}
	js, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	js = append(js, '\n')
	const golden = "testdata/summary-golden.json"
	if os.Getenv("RUN_WRITE_GOLDEN") != "" {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, js, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(js) != string(want) {
		t.Errorf("summaries changed from %s (diff them with RUN_WRITE_GOLDEN=1 and git diff)", golden)
	}
}
