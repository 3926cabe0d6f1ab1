package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A JSONL row's breakdown object adds fields to group results by (a
// composed file's statements and options), beside the named fields; a
// breakdown that is not an object of strings is refused with the line.
func TestJSONLBreakdownObject(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.jsonl")
	rows := `{"id": "a", "question": "Q?\nA. x\nB. y", "answer": "A", "breakdown": {"statements": "9", "options": 4, "empty": " "}, "difficulty": "hard"}
{"id": "b", "question": "Q?\nA. x\nB. y", "answer": "B", "breakdown": ["9"]}
{"id": "c", "question": "Q?\nA. x\nB. y", "answer": "B", "breakdown": {"statements": {"n": 9}}}
`
	if err := os.WriteFile(path, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	qs, problems, err := LoadJSONL(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 1 || len(qs[0].Breakdown) != 3 || qs[0].Breakdown["statements"] != "9" || qs[0].Breakdown["options"] != "4" || qs[0].Breakdown["difficulty"] != "hard" {
		t.Fatalf("breakdown %v", qs)
	}
	if len(problems) != 2 || problems[0].Line != 2 || !strings.Contains(problems[0].Msg, "breakdown must be an object of strings") ||
		problems[1].Line != 3 || !strings.Contains(problems[1].Msg, `breakdown["statements"] is not text`) {
		t.Errorf("problems %v", problems)
	}
}
