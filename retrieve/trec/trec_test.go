package trec_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/internal/testkit/sampletest"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/index"
	"github.com/paperlens/paperlens/retrieve/trec"
)

// Every malformed line is refused with the file's name and the line's
// number, and says what is wrong.
func TestParseRunErrors(t *testing.T) {
	ok := "q1 Q0 p#0 1 3.5 t\n"
	for _, c := range []struct{ text, want string }{
		{ok + "q1 Q0 p#1 2 3.5\n", "run.trec line 2: 5 fields, want 6"},
		{ok + "q1 Q0 p#1 two 3 t\n", `run.trec line 2: rank "two" is not a whole number`},
		{ok + "q1 Q0 p#1 -1 3 t\n", `run.trec line 2: rank "-1" is not a whole number`},
		{ok + "q1 Q0 p#1 2 NaN t\n", `run.trec line 2: score "NaN" is not a finite number`},
		{ok + "q1 Q0 p#1 2 high t\n", `run.trec line 2: score "high" is not a finite number`},
		{ok + "q1 Q0 p#1 2 3 other\n", `run.trec line 2: tag "other", but line 1 has "t"`},
		{ok + "\nq1 Q0 p#0 2 3 t\n", "run.trec line 3: question q1 ranks passage p#0 twice (first on line 1)"},
		{ok + "q1 Q0 p#1 1 3 t\n", "run.trec line 2: question q1 has rank 1 twice (also line 1)"},
		{ok + "q1 Q0 p#1 2 4 t\n", "run.trec line 2: question q1: rank 2 scores 4, above rank 1's 3.5 (line 1)"},
	} {
		_, err := trec.ParseRun(strings.NewReader(c.text), "run.trec")
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, trec.ErrFormat) {
			t.Errorf("%q: error %v, want %q wrapping ErrFormat", c.text, err, c.want)
		}
	}
	// Ranks out of order, tabs, blank lines and a rank from 0 are read.
	run, err := trec.ParseRun(strings.NewReader("q1\tQ0\tp#3\t1\t2.5\tt\n\nq2 Q0 p#9 0 1 t\nq1 Q0 p#2 0 7 t\n"), "run.trec")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%v %v %d %s", run.Questions(), run.Ranking("q1"), run.Len(), run.Tag); got != "[q1 q2] [{q1 p#2 0 7 4} {q1 p#3 1 2.5 1}] 3 t" {
		t.Errorf("read %s", got)
	}
	for _, c := range []struct{ text, want string }{
		{"q1 0 p#1\n", "qrels line 1: 3 fields, want 4"},
		{"q1 0 p#1 yes\n", `qrels line 1: relevance "yes" is not a whole number`},
		{"q1 0 p#1 1\nq1 0 p#1 0\n", "qrels line 2: question q1 judges passage p#1 twice (first on line 1)"},
	} {
		if _, err := trec.ParseQrels(strings.NewReader(c.text), "qrels"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
	// An id with a space cannot be written.
	var b bytes.Buffer
	if err := trec.WriteRun(&b, "t", []trec.Ranking{{QuestionID: "q 1", Hits: []trec.Hit{{PassageID: "p#0"}}}}); err == nil || !strings.Contains(err.Error(), `question id "q 1" holds white space`) {
		t.Errorf("a question id with a space: %v", err)
	}
	if err := trec.WriteQrels(&b, []trec.Judgment{{QuestionID: "q1", PassageID: "a paper#0"}}); err == nil || !strings.Contains(err.Error(), `question q1: passage id "a paper#0" holds white space`) {
		t.Errorf("a passage id with a space: %v", err)
	}
}

// sample is the ElaipBench sample ingested and indexed, with bm25's top
// k for every question.
func sample(t *testing.T, k int) ([]bench.Question, *index.Index, trec.Passages, map[string][]retrieve.Hit) {
	t.Helper()
	qs := sampletest.Questions(t)
	st, ix := sampletest.Home(t, qs, 128)
	r, err := ix.Retriever(index.BM25)
	if err != nil {
		t.Fatal(err)
	}
	hits := map[string][]retrieve.Hit{}
	for _, q := range qs {
		texts, _ := retrieve.QueryTexts(retrieve.FormFull, q.MCQ.Stem, q.MCQ.OptionLines())
		hs, err := r.Search(context.Background(), retrieve.Query{Text: texts[0], PaperID: q.PaperID, K: k})
		if err != nil {
			t.Fatal(err)
		}
		hits[q.ID] = hs
	}
	return qs, ix, st, hits
}

func ids(qs []bench.Question) []string {
	var out []string
	for _, q := range qs {
		out = append(out, q.ID)
	}
	return out
}

func questions(qs []bench.Question) []trec.Question {
	var out []trec.Question
	for _, q := range qs {
		out = append(out, trec.Question{ID: q.ID, PaperID: q.PaperID})
	}
	return out
}

// A bm25 retrieval written as a run file and served back by the file's
// retriever gives every question bm25's passages, texts and order, and
// bm25's scores (bar the tied ones, lowered by the least step); with
// kinds excluded, the K best of the other kinds in the file's order.
func TestRunFileServesTheRetrieval(t *testing.T) {
	const k = 20
	qs, _, st, hits := sample(t, k)
	var b bytes.Buffer
	if err := trec.WriteRun(&b, "bm25", trec.Rankings(ids(qs), hits)); err != nil {
		t.Fatal(err)
	}
	run, err := trec.ParseRun(bytes.NewReader(b.Bytes()), "bm25.trec")
	if err != nil {
		t.Fatal(err)
	}
	// The sample's papers are plain text, all body: odd passages are
	// marked as references, so that exclusion has something to leave out.
	st = oddReferences{st}
	r, err := trec.Open("run:bm25", run, st, questions(qs))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := any(r).(retrieve.Precomputed); !ok {
		t.Fatal("a run file's retriever is not Precomputed")
	}
	nudged, others := 0, 0
	for _, q := range qs {
		got, err := r.Search(context.Background(), retrieve.Query{Text: "not read", PaperID: q.PaperID, K: 5, QuestionID: q.ID})
		if err != nil {
			t.Fatal(err)
		}
		want := hits[q.ID][:min(5, len(hits[q.ID]))]
		if len(got) != len(want) {
			t.Fatalf("%s: %d hits, want %d", q.ID, len(got), len(want))
		}
		for i, h := range got {
			w := want[i]
			if h.PassageID != w.PassageID || h.Text != w.Text || h.Rank != i+1 || h.PaperID != q.PaperID || h.Retriever != "run:bm25" {
				t.Fatalf("%s hit %d: %+v, want %+v", q.ID, i, h, w)
			}
			switch {
			case h.Score == w.Score:
			case i > 0 && w.Score >= want[i-1].Score && h.Score < got[i-1].Score && h.Score > w.Score-1e-9:
				nudged++
			default:
				t.Errorf("%s hit %d: score %v, want %v", q.ID, i, h.Score, w.Score)
			}
		}
		// Excluding kinds keeps the file's order over the other kinds.
		ex := []kind.Kind{kind.References}
		got, err = r.Search(context.Background(), retrieve.Query{PaperID: q.PaperID, K: 3, QuestionID: q.ID, Exclude: ex})
		if err != nil {
			t.Fatal(err)
		}
		var keep []string
		for _, h := range hits[q.ID] {
			if p, _ := passage(st, h.PassageID); p != kind.References && len(keep) < 3 {
				keep = append(keep, h.PassageID)
			}
		}
		if fmt.Sprint(pids(got)) != fmt.Sprint(keep) {
			t.Errorf("%s without body passages: %v, want %v", q.ID, pids(got), keep)
		}
		if len(got) > 0 && got[0].PassageID != hits[q.ID][0].PassageID {
			others++
		}
	}
	if others == 0 {
		t.Error("no question's first passage was left out: exclusion went untested")
	}
	t.Logf("%d tied scores lowered; %d questions lost their first passage to exclusion", nudged, others)
}

// oddReferences marks the passages of odd ordinal as references.
type oddReferences struct{ src trec.Passages }

func (o oddReferences) Passages(paper string) ([]corpus.Passage, error) {
	ps, err := o.src.Passages(paper)
	for i := range ps {
		if ps[i].Ordinal%2 == 1 {
			ps[i].Kind = string(kind.References)
		}
	}
	return ps, err
}

func pids(hs []retrieve.Hit) []string {
	out := []string{}
	for _, h := range hs {
		out = append(out, h.PassageID)
	}
	return out
}

func passage(st trec.Passages, id string) (kind.Kind, error) {
	paper := id[:strings.LastIndexByte(id, '#')]
	ps, err := st.Passages(paper)
	for _, p := range ps {
		if p.PassageID == id {
			return p.KindOf(), nil
		}
	}
	return "", err
}

// The file's scores strictly fall with the rank, as trec_eval needs
// them to rank as paperlens does; a score that does not is lowered to
// the next float below the one before it, and no other changes.
func TestWriteRunScoresFall(t *testing.T) {
	var b bytes.Buffer
	in := []trec.Hit{{"p#1", 3}, {"p#2", 3}, {"p#3", 3}, {"p#4", 5}, {"p#5", 0.5}, {"p#6", 0}, {"p#7", 0}}
	if err := trec.WriteRun(&b, "t", []trec.Ranking{{QuestionID: "q", Hits: in}}); err != nil {
		t.Fatal(err)
	}
	run, err := trec.ParseRun(&b, "t")
	if err != nil {
		t.Fatal(err)
	}
	got := run.Ranking("q")
	want := []float64{3, math.Nextafter(3, 0), math.Nextafter(math.Nextafter(3, 0), 0), math.Nextafter(math.Nextafter(math.Nextafter(3, 0), 0), 0), 0.5, 0, -math.SmallestNonzeroFloat64}
	for i, e := range got {
		if e.Score != want[i] || e.PassageID != in[i].PassageID || e.Rank != i+1 {
			t.Errorf("line %d: %+v, want %s at %v", i+1, e, in[i].PassageID, want[i])
		}
	}
}

// Opening a run file checks it against the corpus and the questions,
// naming the file, the line and what is wrong.
func TestOpenRefusesWhatDoesNotFit(t *testing.T) {
	qs, _, st, hits := sample(t, 3)
	q0, q1 := qs[0], qs[len(qs)-1]
	if q0.PaperID == q1.PaperID {
		t.Fatal("the sample's first and last questions share a paper")
	}
	good := fmt.Sprintf("%s Q0 %s 1 9 x\n", q0.ID, hits[q0.ID][0].PassageID)
	for _, c := range []struct{ text, want string }{
		{good + q1.ID + " Q0 " + q1.PaperID + "#9999 1 1 x\n", "f.trec line 2: question " + q1.ID + ": passage " + q1.PaperID + "#9999: the corpus has no such passage"},
		{good + q1.ID + " Q0 nosuchpaper#0 1 1 x\n", "f.trec line 2: question " + q1.ID + ": passage nosuchpaper#0: the corpus has no paper nosuchpaper"},
		{good + q1.ID + " Q0 passage-7 1 1 x\n", `f.trec line 2: question ` + q1.ID + `: passage id "passage-7" is not a paperlens passage id`},
		{good + q1.ID + " Q0 " + hits[q0.ID][0].PassageID + " 1 1 x\n", "f.trec line 2: passage " + hits[q0.ID][0].PassageID + " is of paper " + q0.PaperID + ", but question " + q1.ID + " is about paper " + q1.PaperID},
		{good, "f.trec has no lines for 1 of the 2 questions (" + q1.ID + ")"},
	} {
		run, err := trec.ParseRun(strings.NewReader(c.text), "f.trec")
		if err != nil {
			t.Fatal(err)
		}
		_, err = trec.Open("run:x", run, st, questions([]bench.Question{q0, q1}))
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, trec.ErrUnknown) {
			t.Errorf("%q: error %v, want %q wrapping ErrUnknown", c.text, err, c.want)
		}
	}
	// Lines of questions not asked are not read.
	run, _ := trec.ParseRun(strings.NewReader(good+"other Q0 junk 1 1 x\n"), "f.trec")
	r, err := trec.Open("run:x", run, st, questions(qs[:1]))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Search(context.Background(), retrieve.Query{K: 1, QuestionID: "other"}); err == nil || !strings.Contains(err.Error(), "question other was not among the questions f.trec was opened for") {
		t.Errorf("a question not opened for: %v", err)
	}
	if _, err := r.Search(context.Background(), retrieve.Query{K: 1}); err == nil || !strings.Contains(err.Error(), "names no question") {
		t.Errorf("a search without a question: %v", err)
	}
}
