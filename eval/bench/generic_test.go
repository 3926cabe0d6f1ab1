package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadJSONLExample(t *testing.T) {
	qs, problems, err := LoadJSONL(filepath.Join("testdata", "generic-example.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 6 || len(problems) != 0 {
		t.Fatalf("%d questions, problems %v", len(qs), problems)
	}
	tests := []struct {
		id, typ, answer, options string
		breakdown                map[string]string
	}{
		{"ex-1", "SA-MCQ", "C", "ABCD", map[string]string{"difficulty": "easy", "discipline": "ML"}},
		{"ex-2", "MA-MCQ", "AC", "ABCD", map[string]string{"difficulty": "hard"}},
		{"3", "SA-MCQ", "B", "ABC", map[string]string{"category": "results"}},
		{"ex-4", "short", "The positional encoding was only trained", "", map[string]string{"domain": "NLP"}},
		{"q-", "SA-MCQ", "B", "ABC", map[string]string{}},
		{"q-", "short", "2025", "", map[string]string{}},
	}
	for i, tt := range tests {
		q := qs[i]
		if !strings.HasPrefix(q.ID, tt.id) || q.Type != tt.typ || !strings.HasPrefix(q.Answer, tt.answer) || q.MCQ.Letters() != tt.options {
			t.Errorf("line %d: id %q type %s answer %q options %q; want %s %s %s %s", q.Line, q.ID, q.Type, q.Answer, q.MCQ.Letters(), tt.id, tt.typ, tt.answer, tt.options)
		}
		if len(q.Breakdown) != len(tt.breakdown) {
			t.Errorf("line %d: breakdown %v, want %v", q.Line, q.Breakdown, tt.breakdown)
		}
		for k, v := range tt.breakdown {
			if q.Breakdown[k] != v {
				t.Errorf("line %d: breakdown %v, want %v", q.Line, q.Breakdown, tt.breakdown)
			}
		}
	}
	// An options array becomes inline options, as ElaipBench publishes them.
	if want := "Which of the following ablations does the paper report?\nA. Removing the warm-up schedule\nB. Doubling the batch size"; !strings.HasPrefix(qs[1].Text, want) {
		t.Errorf("options not inlined: %q", qs[1].Text)
	}
	if qs[2].MCQ.Options[0].Text != "1.5x" {
		t.Errorf("options object not ordered by letter: %+v", qs[2].MCQ.Options)
	}
	if !strings.Contains(qs[1].Evidence, "diverges.\n\nTable 5") {
		t.Errorf("evidence array not joined: %q", qs[1].Evidence)
	}
	if qs[3].KeyPoints == "" || qs[4].PaperContent == "" || qs[0].PaperID != "2401.00001" {
		t.Errorf("fields lost: %+v", qs[3])
	}
}

func TestLoadJSONLBadRows(t *testing.T) {
	rows := `{"question": "Fine?\nA. yes\nB. no", "answer": "A"}
{"question": "No answer here"}
{"answer": "A"}
{"question": "Q?\nA. x\nB. y", "answer": "C", "type": "SA-MCQ"}
{"question": "Q?", "answer": "A", "type": "MA-MCQ"}
{"question": "Q?", "answer": "x", "type": "essay"}
{"question": "Q?", "options": {"A": "x", "AA": "y"}, "answer": "A"}
{"question": "Q?", "options": ["x", "y"], "answer": ["A", "maybe"]}
{"question": "What word?\nA. bad\nB. good\nC. fine", "answer": "bad"}
{"id": "same", "question": "One", "answer": "1"}
{"id": "same", "question": "Two", "answer": "2"}
{"question": "Fine?\nA. yes\nB. no", "answer": "A"}
{"question": "Q?", "answer": "ab", "type": "mcq", "options": ["x", "y"]}
`
	path := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(path, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	qs, problems, err := LoadJSONL(path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{
		2:  "missing answer; fields found: question",
		3:  "missing question",
		4:  "names an option the question does not have",
		5:  "type MA-MCQ but no options",
		6:  `type "essay" is not one of`,
		7:  `options key "AA" is not an option letter`,
		8:  "an array may only list option letters",
		11: `id "same" already used at line 10`,
	}
	for _, p := range problems {
		if w, ok := want[p.Line]; ok && p.Fatal && strings.Contains(p.Msg, w) {
			delete(want, p.Line)
		}
		if p.Line == 12 && (p.Fatal || !strings.Contains(p.Msg, "duplicate of the row at line 1")) {
			t.Errorf("exact duplicate: %s", p)
		}
	}
	if len(want) > 0 {
		t.Errorf("problems not reported as expected %v; got %v", want, problems)
	}
	types := map[int]string{}
	for _, q := range qs {
		types[q.Line] = q.Type + " " + q.Answer
	}
	// "bad" is text, not options ABD; an explicit MCQ type accepts lower-case letters.
	for line, w := range map[int]string{1: "SA-MCQ A", 9: "short bad", 10: "short 1", 13: "MCQ AB"} {
		if types[line] != w {
			t.Errorf("line %d loaded as %q, want %q", line, types[line], w)
		}
	}
}

// TestLoadJSONLQuirks checks the by-line reports of rows that load but
// cannot be trusted as they stand: an answer naming every option, and an
// inline split a letter-dot in the text made doubtful. Rows are kept.
func TestLoadJSONLQuirks(t *testing.T) {
	rows := `{"id": "g-1", "question": "Which optimiser is used?\nA. SGD B. Adam C. AdamW D. Adagrad", "answer": "C"}
{"id": "g-2", "question": "Which ablations are reported?", "options": ["warm-up", "batch size", "weight decay"], "answer": ["A", "B", "C"]}
{"id": "g-3", "question": "As in Fig. A. the loss plateaus early. Why?\nA. The rate decays B. The data repeat C. The model saturates", "answer": "B"}
{"id": "g-4", "type": "short", "question": "What does Fig. A. show? A. nothing B. something", "answer": "the loss"}
{"id": "g-5", "question": "As in Fig. A. the loss plateaus. Why?", "options": ["rate", "data"], "answer": "A"}
{"id": "g-6", "type": "MA-MCQ", "question": "Which hold?\nA. x\nB. y", "answer": "BA"}
{"id": "g-7", "question": "Which holds?\nA. x B. Our B. variant C. z", "answer": "C"}
`
	path := filepath.Join(t.TempDir(), "quirks.jsonl")
	if err := os.WriteFile(path, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	qs, problems, err := LoadJSONL(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 7 {
		t.Fatalf("%d questions, want all 7 kept: %v", len(qs), problems)
	}
	// g-4 is a short answer: its text is posed whole, so no split to doubt.
	// g-5's options come from its options field; the inline doubt does not
	// apply (only the existing both-given note would, and it has no inline
	// options).
	want := map[int]string{
		2: "line 2 (g-2): the answer ABC names every option",
		3: `line 3 (g-3): the options may be cut wrongly: label "A." could start option A at two places`,
		6: "line 6 (g-6): the answer AB names every option",
		7: "line 7 (g-7): the options may be cut wrongly: " + `label "B." could start option B at two places`,
	}
	for _, p := range problems {
		w, ok := want[p.Line]
		if !ok || p.Fatal || !strings.HasPrefix(p.String(), w) {
			t.Errorf("unexpected report %s", p)
			continue
		}
		delete(want, p.Line)
	}
	if len(want) > 0 {
		t.Errorf("not reported: %v", want)
	}
	if q := qs[2]; q.MCQ.Stem != "As in Fig. A. the loss plateaus early. Why?" || q.MCQ.Letters() != "ABC" {
		t.Errorf("g-3 cut as %q %q", q.MCQ.Stem, q.MCQ.Letters())
	}
}
