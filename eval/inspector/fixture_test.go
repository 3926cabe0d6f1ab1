package inspector

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/run"
)

// The fixture is a run folder written by hand, as paperlens eval would
// write it, so every field a page shows has a known value: a paper and
// questions carrying markup that must come out as text, a retrieval mode
// that loses one question and gains another against full, and a web mode
// with a javascript: URL and an error.

type fxPaper struct {
	id, title string
	passages  [][2]string    // section, text
	kinds     map[int]string // passage kinds by ordinal; body when absent
}

var evilPaper = fxPaper{"evil", "Evil <b>Paper</b>", [][2]string{
	{"1 Introduction", "Intro text. <script>document.title='pwned'</script> The model uses a <img src=x onerror=alert(1)> tag. See javascript:alert(2) for details."},
	{"3.2 Method", "We train the retriever on twelve thousand labelled question passage pairs. The reranker improves accuracy by four points on the held out set."},
	{"4 Results", "Results show the hybrid retriever finds the evidence more often than BM25 alone in every setting we tried."},
}, map[int]string{1: "references"}}

var plainPaper = fxPaper{"plain", "A plain paper", [][2]string{
	{"Abstract", "Gradient clipping stabilises training of recurrent networks on long sequences of characters."},
	{"2 Setup", "We clip the global norm at one and train for ten epochs with a cosine schedule."},
}, nil}

var fxQuestions = []map[string]any{
	{"id": "q1", "paper_id": "evil", "question": "What does <script>alert('q')</script> train on?", "options": []string{"twelve thousand pairs", "<img src=x onerror=alert(3)>", "nothing", "the test set"}, "answer": "A",
		"evidence": "We train the retriever on twelve thousand labelled question passage pairs. Results show the hybrid retriever finds the evidence more often than BM25 alone in every setting we tried.", "difficulty": "easy"},
	{"id": "q2", "paper_id": "evil", "question": "What does the reranker do?", "options": []string{"improves accuracy", "adds four points", "slows training", "nothing"}, "answer": "AB",
		"evidence": "The reranker improves accuracy by four points on the held out set.", "difficulty": "hard"},
	{"id": "q3", "paper_id": "plain", "question": "At what norm are gradients clipped?", "options": []string{"one", "two", "ten", "none"}, "answer": "A",
		"evidence": "We clip the global norm at one and train for ten epochs with a cosine schedule.", "difficulty": "easy"},
}

type fxRec = run.Record

func ctx(ids ...string) []run.ContextItem {
	var out []run.ContextItem
	for i, id := range ids {
		out = append(out, run.ContextItem{PassageID: id, Rank: i + 1, Score: 2.5 / float64(i+1), Retriever: "bm25"})
	}
	return out
}

func fxRecords() []fxRec {
	var out []fxRec
	add := func(q, mode string, runN int, correct bool, extracted string, r fxRec) {
		r.QuestionID, r.Mode, r.Run, r.Correct, r.Extracted, r.Model, r.Paradigm = q, mode, runN, correct, extracted, "fixture-model", "base"
		for _, fq := range fxQuestions {
			if fq["id"] == q {
				r.PaperID, r.Gold = fq["paper_id"].(string), fq["answer"].(string)
			}
		}
		r.QuestionType = "SA-MCQ"
		if len(r.Gold) > 1 {
			r.QuestionType = "MA-MCQ"
		}
		r.ScoreKind = "exact"
		if extracted != "" {
			r.Method = "answer-colon"
		} else if r.Error == "" {
			r.Miss = true
		}
		if r.Output == "" {
			r.Output = "Answer: " + extracted
		}
		out = append(out, r)
	}
	for _, n := range []int{1, 2} {
		add("q1", "full", n, true, "A", fxRec{PromptTokens: 900, TruncatedTokens: 120, Cuts: nil})
		add("q1", "bm25", n, false, "B", fxRec{Context: ctx("evil#0", "evil#1"), PromptTokens: 300,
			Output: "<script>alert('out')</script> Answer: B", Reasoning: "thinking <b>bold</b> about it"})
		add("q1", "web", n, false, "C", fxRec{Web: []run.WebItem{
			{URL: "javascript:alert(4)", Title: "<img src=x onerror=alert(5)>", Rank: 1, Tokens: 40, Status: "ok"},
			{URL: "https://example.org/a", Title: "Example page", Rank: 2, Status: "http 404"}},
			Context: []run.ContextItem{{PassageID: "javascript:alert(4)", Rank: 1, Retriever: "web"}}})
		add("q2", "full", n, false, "A", fxRec{})
		add("q2", "bm25", n, true, "AB", fxRec{Context: ctx("evil#1")})
		add("q2", "web", n, false, "C", fxRec{})
		add("q3", "full", n, true, "A", fxRec{})
		add("q3", "bm25", n, true, "A", fxRec{Context: ctx("plain#1", "plain#0")})
		add("q3", "web", n, false, "", fxRec{Error: "web search: timeout after 3 attempts"})
	}
	return out
}

// writeFixture writes the corpus, the dataset and the run folder, and
// returns the run folder and the corpus home.
func writeFixture(t testing.TB, cfg run.Config) (dir, home string) {
	t.Helper()
	root := t.TempDir()
	home, dir = filepath.Join(root, "home"), filepath.Join(root, "runs", "fixture")
	st, err := corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []fxPaper{evilPaper, plainPaper} {
		var ps []corpus.Passage
		text, tokens := "", 0
		for i, x := range p.passages {
			start := len(text)
			text += x[1] + "\n\n"
			ps = append(ps, corpus.Passage{Section: x[0], Kind: p.kinds[i], Text: x[1], Start: start, End: start + len(x[1]), Tokens: len(x[1]) / 5})
			tokens += len(x[1]) / 5
		}
		if err := st.Put(corpus.Document{PaperID: p.id, Title: p.title, Source: "/somewhere/" + p.id + ".md", Kind: "text", Tokens: tokens}, text, ps); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	data := filepath.Join(root, "questions.jsonl")
	var lines []byte
	for _, q := range fxQuestions {
		b, _ := json.Marshal(q)
		lines = append(append(lines, b...), '\n')
	}
	must(t, os.WriteFile(data, lines, 0o644))
	must(t, os.MkdirAll(dir, 0o755))
	cfg.Bench, cfg.Data, cfg.Home, cfg.Model, cfg.Paradigm, cfg.Runs = "jsonl", data, home, "fixture-model", "base", 2
	cfg.Modes = []string{"full", "bm25", "web"}
	b, _ := json.MarshalIndent(cfg, "", "  ")
	must(t, os.WriteFile(filepath.Join(dir, "config.json"), b, 0o644))
	var rl []byte
	for _, r := range fxRecords() {
		b, _ := json.Marshal(r)
		rl = append(append(rl, b...), '\n')
	}
	must(t, os.WriteFile(filepath.Join(dir, run.ResultsFile), rl, 0o644))
	return dir, home
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
