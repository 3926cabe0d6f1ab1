package bench

import (
	"fmt"
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
			// The sample's options are clean A–D runs and no answer names
			// every option: nothing else may be reported.
			if len(problems) != 2 {
				t.Errorf("%d problems, want only the two quirks: %v", len(problems), problems)
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

// TestLoadElaipBenchQuirks loads rows in the published layout (options
// inline after the stem) that the loader must keep but report by line: an
// answer naming every option, and option labels the text repeats.
func TestLoadElaipBenchQuirks(t *testing.T) {
	qs, problems, err := LoadElaipBench(filepath.Join("testdata", "elaipbench-quirks.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	byLine := map[int]Question{}
	for _, q := range qs {
		byLine[q.Line] = q
	}
	if len(qs) != 8 {
		t.Fatalf("%d questions, want 8 (9 rows, the last a duplicate): %v", len(qs), problems)
	}
	const (
		every   = "the answer ABCD names every option"
		refKept = "kept the labels that do not follow a reference word"
		unset   = "no reading is clearly right, so the first was kept"
		tableE  = `label "E." ("…ers, as listed in Table E. of the appendix") follows "Table"`
		five    = "the question parsed into 5 options (ABCDE) where ElaipBench has four (A–D)"
		dup     = "duplicate of the row at line 2"
	)
	want := map[int][]string{
		2: {every},
		4: {"the options may be cut wrongly: " + `label "A." could start option A at two places`, refKept, `the stem ends "…block six. Which reading is right?"`},
		5: {refKept, `option A reads "It is proved in Appendix B. for all…"`},
		6: {unset},
		7: {tableE, five},
		8: {every},
		9: {dup},
	}
	got := map[int][]string{}
	for _, p := range problems {
		if p.Fatal {
			t.Errorf("fatal %s", p)
		}
		got[p.Line] = append(got[p.Line], p.String())
		if p.Line != 9 { // a kept row's report names its id; the dropped duplicate has none of its own
			if q, ok := byLine[p.Line]; !ok || p.ID != q.ID || !strings.HasPrefix(p.String(), fmt.Sprintf("line %d (%s): ", p.Line, q.ID)) {
				t.Errorf("report %q does not name line %d and its question id", p, p.Line)
			}
		}
	}
	for line := range got {
		if _, ok := want[line]; !ok {
			t.Errorf("line %d reported, want nothing: %q", line, got[line])
		}
	}
	for line, subs := range want {
		all := strings.Join(got[line], "\n")
		for _, sub := range subs {
			if !strings.Contains(all, sub) {
				t.Errorf("line %d: reports %q lack %q", line, got[line], sub)
			}
		}
	}
	if n := len(got[7]); n != 2 {
		t.Errorf("line 7: %d reports, want 2 (the reference, the count)", n)
	}

	// The row is kept and scored as published.
	if q := byLine[2]; q.Answer != "ABCD" || q.Type != "MA-MCQ" {
		t.Errorf("line 2 kept as %s %q", q.Type, q.Answer)
	}
	if q := byLine[8]; q.Answer != "ABCD" {
		t.Errorf("line 8 answer %q, want ABCD", q.Answer)
	}
	// Settled splits: the stem keeps its Fig. A., option A its Appendix B.
	if q := byLine[4]; !strings.HasSuffix(q.MCQ.Stem, "as in Fig. A. The curve is read at block six. Which reading is right?") || q.MCQ.Options[0].Text != "It drops sharply." {
		t.Errorf("line 4 cut as stem %q, options %q", q.MCQ.Stem, q.MCQ.OptionLines())
	}
	if q := byLine[5]; q.MCQ.Options[0].Text != "It is proved in Appendix B. for all rates." || q.MCQ.Options[1].Text != "It holds only asymptotically." {
		t.Errorf("line 5 options %q", q.MCQ.OptionLines())
	}
}
