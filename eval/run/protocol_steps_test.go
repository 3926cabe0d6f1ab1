package run

import (
	"testing"

	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/protocol"
)

func TestUsesOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want uses
	}{
		{"closed-book", Config{Modes: []string{ClosedBook}}, uses{}},
		{"full", Config{Modes: []string{Full}}, uses{paper: true}},
		{"hybrid", Config{Modes: []string{ModeHybrid}}, uses{retrieval: true, dense: true, bm25: true}},
		{"bm25 and dense", Config{Modes: []string{ModeBM25, FullDense}}, uses{paper: true, retrieval: true, dense: true, bm25: true}},
		{"self-route ranks with its retriever", Config{Modes: []string{mode.SelfRoute}, RouteRetriever: "dense"}, uses{paper: true, retrieval: true, dense: true}},
		{"agent ranks with the tool retriever", Config{Modes: []string{mode.Agent}, ToolRetriever: "bm25"}, uses{retrieval: true, bm25: true}},
		{"web", Config{Modes: []string{Web}}, uses{web: true}},
		{"unknown mode", Config{Modes: []string{"nope"}}, uses{}},
	} {
		if got := usesOf(tc.cfg); got != tc.want {
			t.Errorf("%s: usesOf = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestPromptObserved(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want protocol.Observed
	}{
		{"elaipbench base", Config{Bench: "elaipbench", Paradigm: Base}, protocol.Observed{Value: protocol.PromptBase}},
		{"elaipbench cot", Config{Bench: "elaipbench", Paradigm: CoT}, protocol.Observed{Value: protocol.PromptStep}},
		{"cot answer line", Config{Bench: "elaipbench", Paradigm: CoT, CoTPrompt: CoTAnswerLine},
			protocol.Observed{Value: protocol.PromptAnswerLine, Why: "--cot-prompt answer-line given"}},
		{"lpfqa", Config{Bench: "lpfqa", Paradigm: Base}, protocol.Observed{Value: protocol.PromptLPFQA}},
		{"lpfqa with the answer-line prompt", Config{Bench: "lpfqa", Paradigm: CoT, CoTPrompt: CoTAnswerLine},
			protocol.Observed{Value: protocol.PromptAnswerLine, Why: "--cot-prompt answer-line given"}},
		{"a prompt folder wins", Config{Bench: "lpfqa", Paradigm: CoT, CoTPrompt: CoTAnswerLine, PromptDir: "p"},
			protocol.Observed{Value: protocol.PromptCustom, Why: "--prompt-dir p given"}},
	} {
		if got := promptObserved(tc.cfg); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestObserverGroups(t *testing.T) {
	half := 0.5
	for _, tc := range []struct {
		name    string
		cfg     Config
		observe func(o observer)
		setting string
		want    protocol.Observed
	}{
		{"temperature given", Config{Sampling: Sampling{Temperature: &half}, FlagsSet: []string{"temperature"}}, observer.sampling,
			protocol.Temperature, protocol.Observed{Value: "0.5", Why: "--temperature given"}},
		{"top_p dropped", Config{Dropped: []Dropped{{Param: protocol.TopP, Why: "refused"}}}, observer.sampling,
			protocol.TopP, protocol.Observed{Value: protocol.None, Why: "refused"}},
		{"max completion tokens given", Config{Sampling: Sampling{MaxTokens: 64}, FlagsSet: []string{"max-completion-tokens"}}, observer.sampling,
			protocol.MaxTokens, protocol.Observed{Value: "64", Why: "--max-completion-tokens given"}},
		{"bleve before --bm25", Config{}, observer.bm25,
			protocol.BM25, protocol.Observed{Value: protocol.BleveScorer, Why: "the run predates --bm25, when bm25 within a paper was Bleve's"}},
		{"bm25 named", Config{BM25: "okapi"}, observer.bm25, protocol.BM25, protocol.Observed{Value: "okapi"}},
		{"bge-m3 by any name", Config{Embedder: "BAAI/BGE-M3@v1", FlagsSet: []string{"embedder"}}, func(o observer) { o.dense(protocol.For("elaipbench")) },
			protocol.DenseEncoder, protocol.Observed{Value: protocol.BGEM3, Why: "--embedder given"}},
		{"no embedder", Config{}, func(o observer) { o.dense(protocol.For("elaipbench")) },
			protocol.DenseEncoder, protocol.Observed{Value: "unknown"}},
		{"web query default elsewhere", Config{Bench: "lpfqa"}, observer.web, protocol.WebQuery, protocol.Observed{Value: "question"}},
		{"web query default for elaipbench", Config{Bench: "elaipbench"}, observer.web, protocol.WebQuery, protocol.Observed{Value: protocol.QuestionTitle}},
		{"exact match", Config{Bench: "elaipbench"}, observer.scoring, protocol.Judge, protocol.Observed{Value: protocol.ExactMatch}},
		{"no judge", Config{Bench: "lpfqa"}, observer.scoring, protocol.Judge, protocol.Observed{Value: protocol.None, Why: "no --judge-model: no accuracy is reported"}},
		{"a judge", Config{Bench: "lpfqa", JudgeModel: "j"}, observer.scoring, protocol.Judge, protocol.Observed{Value: protocol.JudgeLLM, Why: "judge j"}},
		{"mcq extracted without a judge", Config{Bench: "lpfqa", LPFQAMCQ: protocol.MCQJudged}, observer.scoring,
			protocol.LPFQAMCQ, protocol.Observed{Value: protocol.MCQExtract, Why: "no --judge-model: multiple-choice letters are extracted, reported apart"}},
		{"mcq judged", Config{Bench: "lpfqa", LPFQAMCQ: protocol.MCQJudged, JudgeModel: "j"}, observer.scoring,
			protocol.LPFQAMCQ, protocol.Observed{Value: protocol.MCQJudged}},
		{"shared prompts", Config{SharePrompts: true}, observer.scoring, protocol.CacheSharing, protocol.Observed{Value: protocol.ShareIdentical}},
	} {
		o := observer{cfg: tc.cfg, obs: map[string]protocol.Observed{}}
		tc.observe(o)
		if got := o.obs[tc.setting]; got != tc.want {
			t.Errorf("%s: %s = %+v, want %+v", tc.name, tc.setting, got, tc.want)
		}
	}
}

// TestStoresInProtocol: a run served from Qdrant says so where it departs
// (BM25 with Qdrant's IDF, HNSW across papers), and a run on the embedded
// stores, or with --qdrant-ef 0, matches the paper.
func TestStoresInProtocol(t *testing.T) {
	find := func(rec protocol.Record, name string) protocol.Check {
		for _, c := range rec.Settings {
			if c.Name == name {
				return c
			}
		}
		t.Fatalf("no %s in the protocol block", name)
		return protocol.Check{}
	}
	for _, tc := range []struct {
		name             string
		stores           map[string]string
		bm25OK, denseOK  bool
		bm25Run, denseRn string
	}{
		{"before the stores were recorded", nil, true, true, "embedded", "exact"},
		{"embedded", map[string]string{"vector_store": "embedded", "bm25_store": "embedded"}, true, true, "embedded", "exact"},
		{"qdrant dense, exact", map[string]string{"vector_store": "qdrant", "bm25_store": "embedded", "qdrant_ef": "0"}, true, true, "embedded", "exact"},
		{"qdrant both, hnsw", map[string]string{"vector_store": "qdrant", "bm25_store": "qdrant", "qdrant_ef": "128"}, false, false, "qdrant", "hnsw ef=128 across papers"},
	} {
		cfg := Config{Bench: "elaipbench", Paradigm: Base, Modes: []string{ModeHybrid}, IndexStores: tc.stores}
		rec := Protocol(cfg)
		b, d := find(rec, protocol.BM25Store), find(rec, protocol.DenseSearch)
		if b.Match != tc.bm25OK || b.Run != tc.bm25Run || d.Match != tc.denseOK || d.Run != tc.denseRn {
			t.Errorf("%s: bm25_store %+v, dense_search %+v", tc.name, b, d)
		}
		if !b.Match && b.Why == "" || !d.Match && d.Why == "" {
			t.Errorf("%s: a departure without a reason: %+v %+v", tc.name, b, d)
		}
	}
	// A closed-book run uses neither store.
	rec := Protocol(Config{Bench: "elaipbench", Paradigm: Base, Modes: []string{ClosedBook}, IndexStores: map[string]string{"bm25_store": "qdrant"}})
	if c := find(rec, protocol.BM25Store); c.Run != protocol.NotUsed || !c.Match {
		t.Errorf("closed-book: bm25_store %+v", c)
	}
}
