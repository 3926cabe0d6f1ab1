package compose_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/compose"
	"github.com/paperlens/paperlens/eval/mcq"
)

// sample loads the ElaipBench sample, the source of most tests here.
func sample(t *testing.T) []bench.Question {
	t.Helper()
	qs, _, err := bench.LoadElaipBench(filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

func composeBytes(t *testing.T, src []bench.Question, spec compose.Spec) []byte {
	t.Helper()
	set, err := compose.Compose(src, spec)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := set.WriteJSONL(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The same source and seed give the same file, byte for byte; another
// seed another file.
func TestSameSeedSameBytes(t *testing.T) {
	src := sample(t)
	a := composeBytes(t, src, compose.Spec{Seed: 7})
	b := composeBytes(t, sample(t), compose.Spec{Seed: 7})
	if !bytes.Equal(a, b) {
		t.Fatal("seed 7 composed two different files")
	}
	if c := composeBytes(t, src, compose.Spec{Seed: 8}); bytes.Equal(a, c) {
		t.Fatal("seeds 7 and 8 composed the same file")
	}
}

// source indexes the source questions by id.
func source(src []bench.Question) map[string]bench.Question {
	m := map[string]bench.Question{}
	for _, q := range src {
		m[q.ID] = q
	}
	return m
}

// Every composed question, over many seeds and each accuracy, has the
// shape asked for and exactly one option whose statements all have the
// asked truth, as the source's answer keys decide it (computed here from
// the source, not from the composition's own record): its answer.
func TestExactlyOneCorrectOption(t *testing.T) {
	src := sample(t)
	byID := source(src)
	n := 0
	for _, acc := range []string{compose.Correct, compose.Incorrect, compose.Mixed} {
		for seed := int64(1); seed <= 15; seed++ {
			spec := compose.Spec{Seed: seed, Accuracy: acc}
			set, err := compose.Compose(src, spec)
			if err != nil {
				t.Fatal(err)
			}
			if len(set.Skipped) > 0 {
				t.Errorf("seed %d %s: skipped %v", seed, acc, set.Skipped)
			}
			for _, q := range set.Questions {
				n++
				checkQuestion(t, q, byID, acc)
			}
		}
	}
	t.Logf("%d questions checked", n)
}

// checkQuestion checks one question against its source.
func checkQuestion(t *testing.T, q compose.Question, byID map[string]bench.Question, acc string) {
	t.Helper()
	c := q.Composition
	if acc != compose.Mixed && c.Accuracy != acc {
		t.Errorf("%s asks for %s, want %s", q.ID, c.Accuracy, acc)
	}
	truth := sourceTruths(t, q, byID)
	ns, no := len(c.Statements), len(c.Options)
	if ns < 8 || ns > 10 || no < 4 || no > 8 || q.Breakdown["statements"] != strconv.Itoa(ns) || q.Breakdown["options"] != strconv.Itoa(no) {
		t.Errorf("%s: %d statements and %d options (breakdown %v), want 8-10 and 4-8", q.ID, ns, no, q.Breakdown)
	}
	var keys []string
	seen := map[string]bool{}
	for i, opt := range c.Options {
		if len(opt) < 2 || len(opt) > 4 || seen[fmt.Sprint(opt)] {
			t.Errorf("%s: option %c is %v: want 2-4 statements, each option different", q.ID, 'A'+i, opt)
		}
		seen[fmt.Sprint(opt)] = true
		all := true
		for _, num := range opt {
			all = all && truth[num] == (c.Accuracy == compose.Correct)
		}
		if all {
			keys = append(keys, string(rune('A'+i)))
		}
	}
	if len(keys) != 1 || keys[0] != q.Answer || q.Type != "SA-MCQ" {
		t.Errorf("%s (%s): options of the asked truth %v, answer %s (%s)", q.ID, c.Accuracy, keys, q.Answer, q.Type)
	}
	checkText(t, q)
}

// sourceTruths are the truths of a question's statements by numeral, as
// the source's answer keys give them; it checks that the numbering runs
// I, II, ..., that every statement comes from the question's paper, and
// that the composition records the same truths.
func sourceTruths(t *testing.T, q compose.Question, byID map[string]bench.Question) map[string]bool {
	t.Helper()
	truth := map[string]bool{}
	for i, u := range q.Composition.Statements {
		if u.Numeral != compose.Numeral(i+1) {
			t.Errorf("%s: statement %d numbered %s", q.ID, i+1, u.Numeral)
		}
		s, ok := byID[u.Source]
		if !ok || s.PaperID != q.PaperID {
			t.Fatalf("%s: statement %s from %q, not a question of paper %s", q.ID, u.Numeral, u.Source, q.PaperID)
		}
		truth[u.Numeral] = strings.Contains(s.Answer, u.Letter)
		if truth[u.Numeral] != u.True {
			t.Errorf("%s: statement %s recorded %v, but option %s of %s is %v", q.ID, u.Numeral, u.True, u.Letter, u.Source, !u.True)
		}
	}
	return truth
}

// checkText checks that the question lists what the composition records:
// the options it parses into, and the word of A.3's list it asks with.
func checkText(t *testing.T, q compose.Question) {
	t.Helper()
	c := q.Composition
	m := mcq.Parse(q.Text)
	if len(m.Options) != len(c.Options) || m.Stem != q.MCQ.Stem || len(m.Doubts) > 0 {
		t.Errorf("%s: the text parses into %d options (doubts %v), want %d", q.ID, len(m.Options), m.Doubts, len(c.Options))
	}
	for i, o := range m.Options {
		if i < len(c.Options) && o.Text != strings.Join(c.Options[i], ", ") {
			t.Errorf("%s: option %s reads %q, composed %v", q.ID, o.Letter, o.Text, c.Options[i])
		}
	}
	if !slices.Contains(compose.AccuracyWords[c.Accuracy], c.Word) || !strings.Contains(strings.SplitN(q.Text, "\n", 2)[0], c.Word) {
		t.Errorf("%s: word %q is not in A.3's %s list, or not in the question", q.ID, c.Word, c.Accuracy)
	}
}

// Each statement carries its source question's evidence, and the
// question's evidence is their union: every source excerpt is a line of
// it, at the lines the statement names, and no other line is.
func TestEvidenceIsTheUnion(t *testing.T) {
	src := sample(t)
	byID := source(src)
	set, err := compose.Compose(src, compose.Spec{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range set.Questions {
		lines := strings.Split(q.Evidence, "\n")
		used := map[int]bool{}
		for _, u := range q.Composition.Statements {
			var want []string
			for _, l := range strings.Split(byID[u.Source].Evidence, "\n") {
				if l = strings.TrimSpace(l); l != "" {
					want = append(want, l)
				}
			}
			var got []string
			for _, i := range u.Evidence {
				got = append(got, lines[i])
				used[i] = true
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s statement %s: evidence %q, its source %s has %q", q.ID, u.Numeral, got, u.Source, want)
			}
		}
		if len(used) != len(lines) || len(slices.Compact(slices.Sorted(slices.Values(lines)))) != len(lines) {
			t.Errorf("%s: %d evidence lines, %d of them a statement's (want all, each once)", q.ID, len(lines), len(used))
		}
	}
}

// The written file is a benchmark eval reads with full fidelity: the
// JSONL loader gives back every question as composed, with no problem
// reported.
func TestFileLoadsAsComposed(t *testing.T) {
	set, err := compose.Compose(sample(t), compose.Spec{Seed: 11, Options: compose.Range{Min: 8, Max: 10}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "composed.jsonl")
	var b bytes.Buffer
	if err := set.WriteJSONL(&b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, problems, err := bench.LoadJSONL(path)
	if err != nil || len(problems) > 0 {
		t.Fatalf("load: %v %v", err, problems)
	}
	if len(got) != len(set.Questions) {
		t.Fatalf("%d questions loaded, %d written", len(got), len(set.Questions))
	}
	for i, g := range got {
		w := set.Questions[i].Question
		if g.ID != w.ID || g.PaperID != w.PaperID || g.Type != w.Type || g.Text != w.Text || g.Answer != w.Answer ||
			g.Evidence != w.Evidence || g.PaperContent != w.PaperContent || g.MCQ.Stem != w.MCQ.Stem ||
			!slices.Equal(g.MCQ.Options, w.MCQ.Options) || fmt.Sprint(g.Breakdown) != fmt.Sprint(w.Breakdown) {
			t.Errorf("line %d: loaded %+v\nwritten %+v", i+1, g, w)
		}
	}
}

// q is a source question of paper with options texts and answer.
func q(id, paper, answer string, options ...string) bench.Question {
	m := mcq.Question{Stem: "Which hold for " + id + "?"}
	for i, o := range options {
		m.Options = append(m.Options, mcq.Option{Letter: string(rune('A' + i)), Text: o})
	}
	return bench.Question{ID: id, PaperID: paper, Type: "MA-MCQ", MCQ: m, Answer: answer, Evidence: "evidence of " + id, Line: len(id)}
}

// A paper too small for the shape is skipped with a note naming it and
// what it lacks; when no paper is left, the error says so, wrapping
// ErrNone.
func TestSkipsSayWhatIsMissing(t *testing.T) {
	src := []bench.Question{
		q("small1", "small", "A", "a", "b", "c", "d"),
		q("alltrue1", "alltrue", "ABCD", "a", "b", "c", "d"), q("alltrue2", "alltrue", "ABCD", "e", "f", "g", "h"),
		q("onetrue1", "onetrue", "A", "a", "b", "c", "d"), q("onetrue2", "onetrue", "", "e", "f", "g", "h"),
		{ID: "short1", PaperID: "small", Type: "short", Answer: "text", Line: 9},
	}
	src[4].Answer = "" // no key at all
	set, err := compose.Compose(src, compose.Spec{Seed: 1, Accuracy: compose.Correct})
	if !errors.Is(err, compose.ErrNone) {
		t.Fatalf("err %v, want ErrNone", err)
	}
	var notes []string
	for _, s := range set.Skipped {
		notes = append(notes, s.String())
	}
	all := strings.Join(notes, "\n")
	for _, want := range []string{
		"paper small skipped: it has 4 statements (the options of its 1 multiple-choice question(s)) and a question needs at least 8 (--statements 8-10)",
		"paper alltrue skipped: it has 8 true and 0 false statements, and an all-true option needs at least 2 true ones (--per-option 2-4) beside a false one",
		"question short1 left out: it is not multiple-choice",
		"question onetrue2 left out: it has no answer key",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no note %q in\n%s", want, all)
		}
	}
	if !strings.Contains(err.Error(), "paper small skipped") {
		t.Errorf("the error does not name the papers: %v", err)
	}
	// Asking for the incorrect ones, the all-true paper still lacks, and
	// says what for that question.
	_, err = compose.Compose(src[1:3], compose.Spec{Seed: 1, Accuracy: compose.Incorrect})
	if err == nil || !strings.Contains(err.Error(), "an all-false option needs at least 2 false ones") {
		t.Errorf("incorrect on an all-true paper: %v", err)
	}
	// Mixed: a paper that can give one of the two is used for that one.
	set, err = compose.Compose(src[1:3], compose.Spec{Seed: 1, Accuracy: compose.Mixed, Statements: compose.Range{Min: 8, Max: 8}})
	if !errors.Is(err, compose.ErrNone) {
		t.Errorf("mixed on an all-true paper composed %d questions (%v)", len(set.Questions), err)
	}
}

// --questions is the total exactly, shared among the papers in
// proportion to their statements; 0 gives each paper as many as it had.
func TestQuestionsAreShared(t *testing.T) {
	src := sample(t)
	per := func(set compose.Set) map[string]int {
		m := map[string]int{}
		for _, q := range set.Questions {
			m[q.PaperID]++
		}
		return m
	}
	all, err := compose.Compose(src, compose.Spec{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	sourced := map[string]int{}
	for _, q := range src {
		sourced[q.PaperID]++
	}
	if fmt.Sprint(per(all)) != fmt.Sprint(sourced) {
		t.Errorf("default: %v questions per paper, the source has %v", per(all), sourced)
	}
	for _, n := range []int{1, 5, 12, 100} {
		set, err := compose.Compose(src, compose.Spec{Seed: 1, Questions: n})
		if err != nil {
			t.Fatal(err)
		}
		if len(set.Questions) != n {
			t.Errorf("--questions %d gave %d", n, len(set.Questions))
		}
		if n == 100 {
			// 5 papers of 28-32 statements: 18 to 22 each.
			for p, k := range per(set) {
				if k < 18 || k > 22 {
					t.Errorf("--questions 100: %s got %d", p, k)
				}
			}
		}
	}
}

// Every template and every word of both lists of A.3 is used, and the
// question's first line is the template with its word.
func TestTemplatesAndWords(t *testing.T) {
	src := sample(t)
	templates, words := map[int]bool{}, map[string]bool{}
	for seed := int64(0); seed < 12; seed++ {
		set, err := compose.Compose(src, compose.Spec{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range set.Questions {
			c := q.Composition
			templates[c.Template], words[c.Word] = true, true
			first := strings.SplitN(q.Text, "\n", 2)[0]
			want := strings.TrimSpace(strings.NewReplacer("{accuracy}", c.Word, "{knowledge_list}", "").Replace(compose.QuestionTemplates[c.Template]))
			if first != want {
				t.Errorf("%s: first line %q, want %q", q.ID, first, want)
			}
		}
	}
	if len(templates) != len(compose.QuestionTemplates) || len(words) != 20 {
		t.Errorf("%d of %d templates and %d of 20 words used", len(templates), len(compose.QuestionTemplates), len(words))
	}
}

// eval --compose's questions: a fresh set per run, run r's the set of
// seed + r, each marked with its run.
func TestForRuns(t *testing.T) {
	src := sample(t)
	spec := compose.Spec{Seed: 4, Questions: 6}
	qs, skips, err := compose.ForRuns(src, spec, 3)
	if err != nil || len(skips) > 0 {
		t.Fatal(err, skips)
	}
	if len(qs) != 18 {
		t.Fatalf("%d questions over 3 runs, want 18", len(qs))
	}
	for r := 1; r <= 3; r++ {
		set, err := compose.Compose(src, spec.ForRun(r))
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range set.Questions {
			g := qs[(r-1)*6+i]
			if g.Run != r || g.ID != w.ID || g.Text != w.Text || !strings.HasPrefix(g.ID, fmt.Sprintf("c%d-", 4+r)) {
				t.Errorf("run %d question %d: %s (run %d), want %s", r, i, g.ID, g.Run, w.ID)
			}
		}
	}
	if got := spec.WithRuns(3).RunSeeds; !slices.Equal(got, []int64{5, 6, 7}) {
		t.Errorf("run seeds %v", got)
	}
}

func TestParseSpec(t *testing.T) {
	s, err := compose.ParseSpec("default")
	if err != nil || s.String() != "statements=8-10,options=4-8,per-option=2-4,accuracy=mixed" {
		t.Errorf("default: %v %v", s, err)
	}
	s, err = compose.ParseSpec("options=4, questions=40,accuracy=correct,statements=6-7,per-option=2-3")
	if err != nil || s.String() != "statements=6-7,options=4,per-option=2-3,accuracy=correct,questions=40" {
		t.Errorf("settings: %v %v", s, err)
	}
	for v, want := range map[string]string{
		"options":          "is not key=value",
		"colour=red":       `unknown key "colour"`,
		"options=9-4":      "want 1 <= MIN <= MAX",
		"options=12":       "at most 10 options",
		"options=1":        "at least 2 options",
		"accuracy=maybe":   "want correct, incorrect or mixed",
		"per-option=10":    "per-option's MIN must be below statements' MAX",
		"questions=-1":     "--questions -1",
		"statements=a-b":   "not a count or a range",
		"statements=8-ten": "is not a range",
	} {
		if _, err := compose.ParseSpec(v); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", v, err, want)
		}
	}
}

func TestNumeral(t *testing.T) {
	got := []string{}
	for _, n := range []int{1, 2, 3, 4, 5, 8, 9, 10, 14, 40, 90, 1994, 3999} {
		got = append(got, compose.Numeral(n))
	}
	if want := "I II III IV V VIII IX X XIV XL XC MCMXCIV MMMCMXCIX"; strings.Join(got, " ") != want {
		t.Errorf("numerals %v, want %s", got, want)
	}
}
