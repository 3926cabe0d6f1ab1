package retrieval

import (
	"context"
	"fmt"
	"testing"

	"github.com/paperlens/paperlens/internal/testkit/sampletest"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/evidence"
	"github.com/paperlens/paperlens/retrieve/index"
)

// On the sample, the qrels judge every passage of each question's paper,
// and passage recall agrees with the measures it shares a rule with: a
// question has a gold passage in its top k exactly when hit@k is 1,
// passage recall never falls as k grows, and a question's gold passages
// are its rel-1 judgments.
func TestQrelsAndPassageRecall(t *testing.T) {
	qs := sampletest.Questions(t)
	st, ix := sampletest.Home(t, qs, 128)
	js, err := Qrels(qs, st.Passages, evidence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rel := map[string][]string{}
	lines := map[string]int{}
	for _, j := range js {
		lines[j.QuestionID]++
		if j.Rel == 1 {
			rel[j.QuestionID] = append(rel[j.QuestionID], j.PassageID)
		}
	}
	want := 0
	for _, q := range qs {
		ps, _ := st.Passages(q.PaperID)
		if lines[q.ID] != len(ps) {
			t.Errorf("%s: %d judgments, want one per passage of %s (%d)", q.ID, lines[q.ID], q.PaperID, len(ps))
		}
		want += len(ps)
	}
	if len(js) != want || len(rel) < len(qs)*3/4 {
		t.Errorf("%d judgments (want %d), %d of %d questions with a gold passage", len(js), want, len(rel), len(qs))
	}
	var got []QuestionResult
	sum, err := Run(context.Background(), ix, qs, Config{Retrievers: []string{index.BM25}, Forms: []retrieve.QueryForm{retrieve.FormFull},
		Ks: []int{1, 3, 5}, Passages: st.Passages}, func(r QuestionResult) { got = append(got, r) })
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range got {
		if fmt.Sprint(r.GoldPassages) != fmt.Sprint(rel[r.QuestionID]) && !(len(r.GoldPassages) == 0 && rel[r.QuestionID] == nil) {
			t.Errorf("%s: gold passages %v, qrels %v", r.QuestionID, r.GoldPassages, rel[r.QuestionID])
		}
		prev := 0.0
		for _, k := range []int{1, 3, 5} {
			pr := r.PassageRecall[fmt.Sprintf("passage_recall@%d", k)]
			if (pr > 0) != (r.Hit[fmt.Sprintf("hit@%d", k)] == 1) || pr < prev || pr > 1 {
				t.Errorf("%s: passage_recall@%d %v after %v, hit@%d %v", r.QuestionID, k, pr, prev, k, r.Hit[fmt.Sprintf("hit@%d", k)])
			}
			prev = pr
		}
	}
	row := sum.Retrievers["bm25+full"]
	t.Logf("bm25+full: passage_recall@1 %.3f @5 %.3f, hit@5 %.3f, recall@5 %.3f", row["passage_recall@1"], row["passage_recall@5"], row["hit@5"], row["recall@5"])
	if row["passage_recall@5"] <= row["passage_recall@1"] || row["passage_recall@5"] > row["hit@5"] {
		t.Errorf("bm25+full: passage_recall@1 %.3f, @5 %.3f, hit@5 %.3f", row["passage_recall@1"], row["passage_recall@5"], row["hit@5"])
	}
}
