package dataset_test

import (
	"fmt"
	"path/filepath"

	"github.com/paperlens/paperlens/ingest/dataset"
)

func ExamplePapers() {
	path := filepath.Join("testdata", "elaip-sample.jsonl")
	papers, err := dataset.Papers(path, "paper_id", "paper_content", func(line int, err error) {
		fmt.Println("skipped:", err)
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range papers {
		fmt.Printf("%s (line %d): %.40s\n", p.ID, p.Line, p.Content)
	}
	// Output:
	// skipped: testdata/elaip-sample.jsonl:4: invalid JSON: unexpected EOF
	// skipped: testdata/elaip-sample.jsonl:5: not a JSON object: found a JSON array
	// skipped: testdata/elaip-sample.jsonl:7: conflicting paper content: paper "2401.00001" has a different paper_content than at line 1 (41 vs 95 chars); the first one is kept
	// skipped: testdata/elaip-sample.jsonl:8: missing field paper_id (or it is empty or not text); fields found: answer, question, question_type
	// 2401.00001 (line 1): A Convolutional Neural Network for Model
	// 2401.00002 (line 6): Why Momentum Really Works. We give gradi
	// 3 (line 9): Paper three.
	// crlf (line 10): windows line ending
}

func ExampleRead() {
	err := dataset.Read(filepath.Join("testdata", "rows.json"), func(r dataset.Row) error {
		q, _ := dataset.String(r, "question")
		a, _ := dataset.String(r, "answer")
		fmt.Printf("element %d: %s -> %s\n", r.Line, q, a)
		return nil
	}, func(line int, err error) {
		fmt.Println("bad:", err)
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// element 1: First question? -> A
	// element 2: Second question? -> BC
	// bad: testdata/rows.json: element 3 (line 13): not a JSON object: found a JSON string
	// element 4: Fourth element, third row? -> D
}
