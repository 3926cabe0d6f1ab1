package inspector

import (
	"slices"
	"testing"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/run"
)

func TestRunModes(t *testing.T) {
	for _, tc := range []struct {
		name       string
		configured []string
		seen       []string
		noRecords  bool
		want       []string
	}{
		{"config order, those with records", []string{"full", "bm25", "web"}, []string{"web", "full"}, false, []string{"full", "web"}},
		{"no records: every configured mode", []string{"full", "bm25"}, nil, true, []string{"full", "bm25"}},
		{"modes only the records know come last, in report order", []string{"full"}, []string{"full", "oracle", "closed-book"}, false, []string{"full", "closed-book", "oracle"}},
		{"a mode configured twice shows once", []string{"full", "full"}, []string{"full"}, false, []string{"full"}},
	} {
		seen := map[string]bool{}
		for _, m := range tc.seen {
			seen[m] = true
		}
		if got := runModes(tc.configured, seen, tc.noRecords); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
		if len(seen) != len(tc.seen) {
			t.Errorf("%s: the caller's modes were changed", tc.name)
		}
	}
}

func TestGatherQuestionsAndShares(t *testing.T) {
	r := &Run{byID: map[string]*Question{}, byPaper: map[string][]*Question{}}
	qs := []bench.Question{{ID: "q1", PaperID: "p", Type: "SA-MCQ", Breakdown: map[string]string{"d": "easy"}}, {ID: "q1", PaperID: "p"}, {ID: "q2", PaperID: "p"}}
	recs := []run.Record{
		{QuestionID: "q1", Mode: "full", Run: 2, Correct: true, ScoreKind: "exact"},
		{QuestionID: "q1", Mode: "full", Run: 1, Correct: false, ScoreKind: "exact"},
		{QuestionID: "q1", Mode: "bm25", Run: 1, Error: "timeout", ScoreKind: "exact"},
		{QuestionID: "q9", PaperID: "other", Mode: "web", Run: 1, Correct: true, Gold: "C", QuestionType: "MA-MCQ", ScoreKind: "exact"},
	}
	modes := r.gatherQuestions(qs, recs)
	r.scoreShares()
	var ids []string
	for _, q := range r.Questions {
		ids = append(ids, q.ID)
	}
	if !slices.Equal(ids, []string{"q1", "q2", "q9"}) || len(modes) != 3 || len(r.byPaper["p"]) != 2 || r.byID["q9"].Answer != "C" {
		t.Fatalf("questions %v modes %v", ids, modes)
	}
	q1 := r.byID["q1"]
	if q1.Records["full"][0].Run != 1 || q1.Share["full"] != 0.5 || q1.Share["bm25"] != -1 {
		t.Errorf("q1: records %v shares %v", q1.Records["full"], q1.Share)
	}
	if r.byID["q9"].Share["web"] != 1 || r.byID["q9"].Index != 2 {
		t.Errorf("q9: %+v", r.byID["q9"])
	}
	if !slices.Equal(r.Fields, []string{"d"}) || !slices.Equal(r.Types, []string{"MA-MCQ", "SA-MCQ"}) {
		t.Errorf("fields %v types %v", r.Fields, r.Types)
	}
}
