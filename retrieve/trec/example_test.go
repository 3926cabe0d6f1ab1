package trec_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/paperlens/paperlens/retrieve/trec"
)

func ExampleWriteRun() {
	// Two questions' retrieval; q2's two passages tie, so the second
	// score is lowered by the least step that keeps the order for
	// trec_eval.
	err := trec.WriteRun(os.Stdout, "bm25", []trec.Ranking{
		{QuestionID: "q1", Hits: []trec.Hit{{PassageID: "paper-a#3", Score: 7.25}, {PassageID: "paper-a#0", Score: 4.5}}},
		{QuestionID: "q2", Hits: []trec.Hit{{PassageID: "paper-b#1", Score: 2}, {PassageID: "paper-b#7", Score: 2}}},
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// q1 Q0 paper-a#3 1 7.25 bm25
	// q1 Q0 paper-a#0 2 4.5 bm25
	// q2 Q0 paper-b#1 1 2 bm25
	// q2 Q0 paper-b#7 2 1.9999999999999998 bm25
}

func ExampleParseRun() {
	run, err := trec.ParseRun(strings.NewReader(`q1 Q0 paper-a#0 2 4.5 mine
q1 Q0 paper-a#3 1 7.25 mine
`), "mine.trec")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range run.Ranking("q1") {
		fmt.Println(e.Rank, e.PassageID, e.Score)
	}
	// A score that rises with the rank is refused, with its line.
	_, err = trec.ParseRun(strings.NewReader("q1 Q0 p#0 1 1.0 x\nq1 Q0 p#1 2 3.0 x\n"), "bad.trec")
	fmt.Println(err)
	// Output:
	// 1 paper-a#3 7.25
	// 2 paper-a#0 4.5
	// bad.trec line 2: question q1: rank 2 scores 3, above rank 1's 1 (line 1); trec_eval ranks by score, so ranks and scores must agree: not a TREC file
}

func ExampleWriteQrels() {
	err := trec.WriteQrels(os.Stdout, []trec.Judgment{
		{QuestionID: "q1", PassageID: "paper-a#0", Rel: 0},
		{QuestionID: "q1", PassageID: "paper-a#3", Rel: 1},
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// q1 0 paper-a#0 0
	// q1 0 paper-a#3 1
}
