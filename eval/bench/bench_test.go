package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadElaipBenchSample(t *testing.T) {
	for _, f := range []string{"sample.jsonl", "sample.json"} {
		t.Run(f, func(t *testing.T) {
			qs, problems, err := LoadElaipBench(filepath.Join("..", "..", "testdata", "elaipbench", f))
			if err != nil {
				t.Fatal(err)
			}
			// 38 rows: row 38 duplicates row 19, so 37 questions; row 37 is an MA-MCQ with one letter.
			if len(qs) != 37 {
				t.Fatalf("%d questions, want 37", len(qs))
			}
			var dup, single bool
			for _, p := range problems {
				if p.Fatal {
					t.Errorf("unexpected fatal problem %s", p)
				}
				dup = dup || (p.Line == 38 && strings.Contains(p.Msg, "duplicate of the row at line 19"))
				single = single || (p.Line == 37 && strings.Contains(p.Msg, "single answer letter"))
			}
			if !dup || !single {
				t.Errorf("quirks not reported (dup %v, single %v): %v", dup, single, problems)
			}
			ids := map[string]bool{}
			for _, q := range qs {
				if ids[q.ID] || !strings.HasPrefix(q.ID, "eb-") {
					t.Errorf("bad or repeated id %q", q.ID)
				}
				ids[q.ID] = true
				if len(q.MCQ.Options) != 4 || q.Evidence == "" || q.PaperContent == "" || q.MCQ.Stem == "" {
					t.Errorf("line %d parsed badly: %d options, stem %q", q.Line, len(q.MCQ.Options), q.MCQ.Stem)
				}
			}
		})
	}
}

func TestLoadElaipBenchBadRows(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.jsonl")
	rows := `{"paper_id":"p","question_type":"SA-MCQ","question":"Q?\nA. x\nB. y","answer":"B","relevant_passage":"e","paper_content":"c"}
{"paper_id":"p","question":"Q2?\nA. x\nB. y","answer":"maybe"}
{broken
{"paper_id":"p","question":"Q3?\nA. x\nB. y","answer":"C"}
{"question":"Q4?\nA. x\nB. y","answer":"A"}
{"paper_id":"p","question":"No options here","answer":"A"}
`
	if err := os.WriteFile(path, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	qs, problems, err := LoadElaipBench(path)
	if err != nil || len(qs) != 1 || qs[0].Answer != "B" {
		t.Fatalf("qs=%v err=%v", qs, err)
	}
	want := map[int]string{2: "not a set of option letters", 3: "invalid JSON", 4: "does not have", 5: "missing paper_id; fields found: answer, question", 6: "no options"}
	for _, p := range problems {
		if w, ok := want[p.Line]; ok && p.Fatal && strings.Contains(p.Msg, w) {
			delete(want, p.Line)
		}
	}
	if len(want) > 0 {
		t.Errorf("problems not reported as expected %v; got %v", want, problems)
	}
}
