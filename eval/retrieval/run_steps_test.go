package retrieval

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mcq"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/evidence"
)

// fixedRetriever returns the same hits to every query, and err with them,
// and remembers the last query.
type fixedRetriever struct {
	hits []retrieve.Hit
	err  error
	last *retrieve.Query
}

func (f fixedRetriever) Name() string { return "fixed" }

func (f fixedRetriever) Search(_ context.Context, q retrieve.Query) ([]retrieve.Hit, error) {
	if f.last != nil {
		*f.last = q
	}
	return f.hits[:min(q.K, len(f.hits))], f.err
}

// keepOrder is a reranker that keeps the candidates' order.
type keepOrder struct{}

func (keepOrder) Name() string { return "keep" }

func (keepOrder) Rerank(_ context.Context, _ string, hits []retrieve.Hit) ([]retrieve.Hit, error) {
	return hits, nil
}

const stepGold = "The sweep scores every configuration of the grid at every budget it is given."

func stepQuestion() bench.Question {
	return bench.Question{ID: "q1", PaperID: "p1", Type: "SA-MCQ", Evidence: stepGold,
		MCQ: mcq.Question{Stem: "What does the sweep score?", Options: []mcq.Option{{Letter: "A", Text: "grids"}, {Letter: "B", Text: "budgets"}}}}
}

func TestWithRunDefaults(t *testing.T) {
	got := withRunDefaults(Config{})
	if !reflect.DeepEqual(got.Ks, []int{1, 3, 5, 10}) || !reflect.DeepEqual(got.Forms, []retrieve.QueryForm{retrieve.FormFull}) {
		t.Errorf("defaults: ks %v forms %v", got.Ks, got.Forms)
	}
	set := Config{Ks: []int{2}, Forms: []retrieve.QueryForm{retrieve.FormStem}}
	if got := withRunDefaults(set); !reflect.DeepEqual(got, set) {
		t.Errorf("given ks and forms changed: %+v", got)
	}
}

func TestDeepestCutoff(t *testing.T) {
	for _, c := range []struct {
		ks   []int
		want int
		err  string
	}{
		{[]int{1, 3, 5, 10}, 10, ""},
		{[]int{7, 2}, 7, ""},
		{nil, 0, ""},
		{[]int{3, 0}, 0, "k must be positive, got 0"},
		{[]int{-2, 5}, 0, "k must be positive, got -2"},
	} {
		got, err := deepestCutoff(c.ks)
		if got != c.want || (err == nil) != (c.err == "") || (err != nil && err.Error() != c.err) {
			t.Errorf("deepestCutoff(%v) = %d, %v; want %d, %q", c.ks, got, err, c.want, c.err)
		}
	}
}

func TestParseGoldsAndCountNoGold(t *testing.T) {
	qs := []bench.Question{{Evidence: stepGold}, {Evidence: "too short"}, {Evidence: ""}}
	golds := parseGolds(qs, evidence.Options{})
	if len(golds) != 3 || golds[0].Empty() || !golds[1].Empty() || !golds[2].Empty() {
		t.Fatalf("golds %v", golds)
	}
	if n := countNoGold(golds); n != 2 {
		t.Errorf("%d questions without locatable gold, want 2", n)
	}
}

func TestQuestionSearch(t *testing.T) {
	q := stepQuestion()
	r := &fixedRetriever{}
	search, query, err := questionSearch(r, retrieve.FormStem, "fixed", q, Config{})
	if err != nil || search != retrieve.Retriever(r) || query != q.MCQ.Stem {
		t.Errorf("stem: %v %q %v, want the retriever itself asked the stem", search, query, err)
	}
	search, query, err = questionSearch(r, retrieve.FormFull, "fixed+full", q, Config{})
	if want := q.MCQ.Stem + "\nA. grids\nB. budgets"; err != nil || search != retrieve.Retriever(r) || query != want {
		t.Errorf("full: %v %q %v, want the retriever itself asked %q", search, query, err, want)
	}
	search, query, err = questionSearch(r, retrieve.FormOptions, "fixed+options", q, Config{RRFK: 7})
	fused, ok := search.(retrieve.Fused)
	if err != nil || !ok || fused.Label != "fixed+options" || fused.RRFK != 7 || len(fused.Texts) != 3 {
		t.Errorf("options: %#v %v, want the fusion of the stem and each option", search, err)
	}
	if want := q.MCQ.Stem + "\nA. grids\nB. budgets"; query != want {
		t.Errorf("options: query %q, want the question whole %q", query, want)
	}
	search, _, err = questionSearch(r, retrieve.FormStem, "fixed", q, Config{Rerank: keepOrder{}})
	if err != nil || search.Name() != "fixed>keep" {
		t.Errorf("rerank: %v %v, want fixed>keep", search, err)
	}
	if _, _, err := questionSearch(r, "bogus", "fixed", q, Config{}); err == nil {
		t.Error("an unknown query form is accepted")
	}
}

func TestScoreQuestion(t *testing.T) {
	q := stepQuestion()
	gold := evidence.ParseGold(q.Evidence, evidence.Options{})
	var last retrieve.Query
	r := fixedRetriever{last: &last, hits: []retrieve.Hit{
		{PassageID: "p1#1", Text: "Nothing to see here at all.", Score: 3},
		{PassageID: "p1#2", Text: "As said, " + stepGold, Score: 2},
		{PassageID: "p1#3", Text: "More filler.", Score: 1},
	}}
	cfg := Config{Ks: []int{1, 2}}
	res, failed, err := scoreQuestion(context.Background(), r, retrieve.FormStem, "fixed", q, gold, nil, 0, cfg, 2)
	if err != nil || failed || res.Error != "" {
		t.Fatalf("failed %v err %v error %q", failed, err, res.Error)
	}
	checkScoredStemSearch(t, q, last, res)
	if res.GoldPassages != nil || res.PassageRecall != nil {
		t.Errorf("passage recall without passages: %v %v", res.GoldPassages, res.PassageRecall)
	}

	gp := [][]string{nil, {"p1#2", "p1#9"}}
	res, _, err = scoreQuestion(context.Background(), r, retrieve.FormStem, "fixed", q, gold, gp, 1, cfg, 2)
	if err != nil || !reflect.DeepEqual(res.GoldPassages, gp[1]) ||
		!reflect.DeepEqual(res.PassageRecall, map[string]float64{"passage_recall@1": 0, "passage_recall@2": 0.5}) {
		t.Errorf("gold passages %v passage recall %v err %v", res.GoldPassages, res.PassageRecall, err)
	}

	r.err = errors.New("index gone")
	res, failed, err = scoreQuestion(context.Background(), r, retrieve.FormStem, "fixed", q, gold, nil, 0, cfg, 2)
	if err != nil || !failed || res.Error != "index gone" || len(res.Hits) != 2 || res.RR != 0.5 {
		t.Errorf("a failed search: failed %v err %v error %q hits %d rr %v; want it recorded and its hits scored", failed, err, res.Error, len(res.Hits), res.RR)
	}

	if _, _, err := scoreQuestion(context.Background(), r, "bogus", "fixed", q, gold, nil, 0, cfg, 2); err == nil {
		t.Error("an unknown query form is scored")
	}
}

// checkScoredStemSearch checks the query that asked q's stem at depth 2,
// and res, the scoring of stepGold found in the second of the hits.
func checkScoredStemSearch(t *testing.T, q bench.Question, last retrieve.Query, res QuestionResult) {
	t.Helper()
	if last.K != 2 || last.PaperID != "p1" || last.QuestionID != "q1" || last.Text != q.MCQ.Stem {
		t.Errorf("query %+v", last)
	}
	if res.QuestionID != "q1" || res.PaperID != "p1" || res.Type != "SA-MCQ" || res.Retriever != "fixed" {
		t.Errorf("result names %+v", res)
	}
	if want := []Ranked{{1, "p1#1", 3}, {2, "p1#2", 2}}; !reflect.DeepEqual(res.Hits, want) {
		t.Errorf("hits %v, want %v", res.Hits, want)
	}
	if !reflect.DeepEqual(res.FirstRank, []int{2}) || res.RR != 0.5 {
		t.Errorf("first rank %v rr %v, want [2] 0.5", res.FirstRank, res.RR)
	}
	if res.Hit["hit@1"] != 0 || res.Hit["hit@2"] != 1 || res.Complete["complete@2"] != 1 || res.Recall["recall@1"] != 0 || res.Recall["recall@2"] != 1 {
		t.Errorf("measures hit %v complete %v recall %v", res.Hit, res.Complete, res.Recall)
	}
}

func TestRunMeans(t *testing.T) {
	m := newRunMeans()
	m.start("a")
	m.start("b")
	m.add("SA", "a", QuestionResult{Recall: map[string]float64{"recall@1": 1}, Hit: map[string]float64{"hit@1": 1},
		Complete: map[string]float64{"complete@1": 1}, PassageRecall: map[string]float64{"passage_recall@1": 0.5}, RR: 1})
	m.add("MA", "a", QuestionResult{Recall: map[string]float64{"recall@1": 0.5}, Hit: map[string]float64{"hit@1": 0},
		Complete: map[string]float64{"complete@1": 0}, PassageRecall: map[string]float64{"passage_recall@1": 0}, RR: 0.25})
	sum := Summary{Retrievers: map[string]map[string]float64{}, ByType: map[string]map[string]map[string]float64{}}
	m.fill(&sum)
	want := map[string]map[string]float64{
		"a": {"n": 2, "recall@1": 0.75, "hit@1": 0.5, "complete@1": 0.5, "passage_recall@1": 0.25, "mrr": 0.625},
		"b": {"n": 0},
	}
	if !reflect.DeepEqual(sum.Retrievers, want) {
		t.Errorf("overall %v, want %v", sum.Retrievers, want)
	}
	if got := sum.ByType["SA"]["a"]; got["n"] != 1 || got["recall@1"] != 1 || got["mrr"] != 1 || len(sum.ByType["SA"]) != 1 {
		t.Errorf("SA %v", sum.ByType["SA"])
	}
	if got := sum.ByType["MA"]["a"]; got["n"] != 1 || got["recall@1"] != 0.5 || got["mrr"] != 0.25 {
		t.Errorf("MA %v", sum.ByType["MA"])
	}
}
