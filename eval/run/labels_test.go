package run

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/model"
)

// The text hash is the documented one: its Python recipe, run once, gave
// this digest for this text (NFKC turns the full-width letters to ASCII).
func TestQuestionSHA256(t *testing.T) {
	text := "  Which model is  the MOST sensitive?\nA. OPT-1.3B\nB. ＯＰＴ-2.7B "
	const want = "5bf5dfe49564ee634e86178b58306b560d59fcb4a9f0839b61fc1af233a8c86e"
	if got := QuestionSHA256(text); got != want {
		t.Errorf("QuestionSHA256 = %s, want %s", got, want)
	}
	if QuestionSHA256("which model is the most sensitive?  a. opt-1.3b b. opt-2.7b") != want {
		t.Error("case and white space change the hash")
	}
}

func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func labelQuestions() []bench.Question {
	var qs []bench.Question
	for i, d := range []string{"easy", "", "hard"} {
		id := "q" + string(rune('1'+i))
		q := bench.Question{ID: id, Text: "Question " + id + "?\nA. yes\nB. no", Breakdown: map[string]string{}}
		if d != "" {
			q.Breakdown["difficulty"] = d
		}
		qs = append(qs, q)
	}
	return qs
}

// A labels file joins by id and by the hash of the text (or the text
// itself), in CSV, TSV and JSON Lines alike; a label overrides the
// dataset's field of the same name; a row that matches nothing, or
// labels a question again, is reported with its line.
func TestLabelsJoinByIDAndHash(t *testing.T) {
	qs := labelQuestions()
	files := map[string]string{
		"l.csv": "question_id,question_sha256,difficulty,discipline\n" +
			"q1,,moderate,NLP\n" +
			"," + QuestionSHA256("question Q2?  a. yes b. no") + ",hard,CV\n" +
			"q9,,easy,ML\n" +
			"q1,,hard,\n",
		"l.tsv": "question_id\tquestion_sha256\tdifficulty\tdiscipline\n" +
			"q1\t\tmoderate\tNLP\n" +
			"\t" + QuestionSHA256("question Q2?  a. yes b. no") + "\thard\tCV\n" +
			"q9\t\teasy\tML\n" +
			"q1\t\thard\t\n",
		"l.jsonl": `{"id": "q1", "difficulty": "moderate", "discipline": "NLP"}` + "\n" +
			`{"question": "Question q2?\nA. yes\nB. no", "difficulty": "hard", "discipline": "CV"}` + "\n" +
			"\n" +
			`{"question_id": "q9", "difficulty": "easy", "discipline": "ML"}` + "\n" +
			`{"question_id": "q1", "difficulty": "hard"}` + "\n",
	}
	for name, body := range files {
		l, err := ReadLabels(writeFile(t, name, body))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := slices.Clone(qs)
		misses := l.Apply(got)
		if b := got[0].Breakdown; b["difficulty"] != "moderate" || b["discipline"] != "NLP" {
			t.Errorf("%s: q1 by id: %v", name, b)
		}
		if b := got[1].Breakdown; b["difficulty"] != "hard" || b["discipline"] != "CV" {
			t.Errorf("%s: q2 by text: %v", name, b)
		}
		if b := got[2].Breakdown; len(b) != 1 || b["difficulty"] != "hard" {
			t.Errorf("%s: q3 unlabelled: %v", name, b)
		}
		if qs[0].Breakdown["difficulty"] != "easy" {
			t.Errorf("%s: the question's own map was changed", name)
		}
		// Lines count from the file's first: the CSV's header is line 1;
		// the JSON Lines file's blank line 3 counts too.
		firstQ1 := "labelled at line 2 already"
		if name == "l.jsonl" {
			firstQ1 = "labelled at line 1 already"
		}
		if len(misses) != 2 || misses[0].Line != 4 || !strings.Contains(misses[0].String(), "matches no question") ||
			!strings.Contains(misses[0].String(), `question_id "q9"`) || !strings.HasPrefix(misses[0].String(), l.Path+" line 4: ") ||
			misses[1].Line != 5 || !strings.Contains(misses[1].Msg, firstQ1) {
			t.Errorf("%s: misses %v", name, misses)
		}
	}
}

// A malformed labels file is an error that names the file and the line,
// and says what to do.
func TestReadLabelsErrors(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"k.csv", "difficulty,discipline\neasy,ML\n", "line 1: the header names no question_id"},
		{"r.csv", "question_id,difficulty\nq1,easy\n,hard\n", "line 3: no question_id, question_sha256 or question"},
		{"n.csv", "question_id,difficulty\nq1,\n", "line 2: no label"},
		{"j.jsonl", `{"id": "q1", "difficulty": "easy"}` + "\nnot json\n", "line 2: not a JSON object"},
		{"v.jsonl", `{"id": "q1", "difficulty": ["easy"]}` + "\n", `line 1: "difficulty" is not a string or a number`},
		{"e.jsonl", "\n\n", "no rows"},
	} {
		p := writeFile(t, tc.name, tc.body)
		_, err := ReadLabels(p)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %v, want %q naming the file", tc.name, err, tc.want)
		}
	}
	if _, err := ReadLabels(filepath.Join(t.TempDir(), "none.csv")); err == nil || !strings.Contains(err.Error(), "leave it out") {
		t.Errorf("missing file: %v", err)
	}
}

// eval --labels: the labels reach every record's breakdown, and the
// summary has accuracy and reasoning length by difficulty (summary.json
// and summary.md), for a dataset without difficulty, joined by id for one
// question and by text hash for the other; the row matching nothing is a
// problem of the labels file.
func TestRunWithLabelsHasByDifficulty(t *testing.T) {
	data := writeFile(t, "q.jsonl",
		`{"id": "a1", "question": "Which is first?\nA. one\nB. two", "answer": "A"}`+"\n"+
			`{"id": "a2", "question": "Which is second?\nA. one\nB. two", "answer": "B"}`+"\n")
	labels := writeFile(t, "labels.csv", "question_id,question,difficulty\n"+
		"a1,,easy\n"+
		",\"Which is SECOND?\nA. one B. two\",hard\n"+
		"zz,,hard\n")
	cfg := Config{Bench: "jsonl", Data: data, Labels: labels, Model: "thinker", Paradigm: Reasoning, Modes: []string{ClosedBook}, Runs: 1, Out: t.TempDir()}
	cfg.Defaults(nil)
	qs, problems, err := LoadQuestions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The quoted text of line 3 runs onto line 4: the unmatched row is
	// line 5 of the file.
	if len(problems) != 1 || problems[0].File != labels || problems[0].Line != 5 || !strings.Contains(problems[0].String(), "line 5: matches no question") {
		t.Fatalf("problems %v", problems)
	}
	srv := modeltest.NewServer(t, modeltest.Config{Answer: func(r modeltest.Request) (string, string) {
		if strings.Contains(r.Prompt(), "first") {
			return "Answer: A", "So the answer is A."
		}
		return "Answer: A", "The answer is B. Wait, let me re-verify this at length, then A."
	}})
	chat, err := model.NewOpenAI(model.Options{BaseURL: srv.BaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Options{Config: cfg, Chat: chat, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := ReadResults(filepath.Join(cfg.Out, ResultsFile))
	for _, r := range recs {
		if want := map[string]string{"a1": "easy", "a2": "hard"}[r.QuestionID]; r.Breakdown["difficulty"] != want {
			t.Errorf("%s: breakdown %v, want difficulty %s", r.QuestionID, r.Breakdown, want)
		}
	}
	ms := res.Summary.ByMode[ClosedBook]
	if a := ms.ByBreakdown["difficulty"]; a["easy"].N != 1 || a["easy"].Accuracy != 1 || a["hard"].N != 1 || a["hard"].Accuracy != 0 {
		t.Errorf("by difficulty: %+v", a)
	}
	if rb := ms.ReasoningBy["difficulty"]; rb["easy"].Chars != float64(len("So the answer is A.")) || rb["hard"].N != 1 {
		t.Errorf("reasoning by difficulty: %+v", rb)
	}
	md, _ := Dir(cfg.Out).SummaryMarkdown()
	for _, want := range []string{"## Accuracy (%) by difficulty", "| closed-book | 100.0 (n=1) | 0.0 (n=1) |", "## Reasoning length by difficulty"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("summary.md lacks %q:\n%s", want, md)
		}
	}
	// The hard question was answered B first, then A: harmful.
	if h := ms.HarmfulVerification; h == nil || h.Harmful != 1 || h.Wrong != 1 {
		t.Errorf("harmful: %+v", h)
	}
}
