package run

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/model"
)

// LPFQA closed-book: with a judge every row is judged, multiple choice
// included, and an unreadable verdict is a 0 that stays in the
// denominator; --lpfqa-mcq extract reads the letters instead. Without a
// judge there is no overall accuracy: short answers get ROUGE-L and
// multiple-choice rows their letters, reported apart. The ChatFuncs
// stand in for the model under test and the judge model.
func TestLPFQAJudgeAndLexical(t *testing.T) {
	qs, mcqN, shortN := loadLPFQASample(t)
	const unreadable = "(a reply the judge cannot grade)"
	chat := lpfqaAnswerer(qs, unreadable)
	var judged atomic.Int64
	judge := lpfqaJudge(t, &judged, unreadable)
	cfg := Config{Bench: "lpfqa", Data: "lpfqa-sample.json", Model: "m", JudgeModel: "j", Runs: 1, Concurrency: 1, Out: t.TempDir()}
	cfg.Defaults(nil)
	if *cfg.Temperature != 1 || *cfg.TopP != 1 || cfg.Modes[0] != ClosedBook {
		t.Fatalf("LPFQA defaults: %+v", cfg)
	}
	res, err := Run(context.Background(), Options{Config: cfg, Chat: chat, Judge: judge, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	checkLPFQAJudged(t, res, int(judged.Load()), len(qs))

	// --lpfqa-mcq extract: the multiple-choice rows are not judged.
	judged.Store(0)
	cfg.Out, cfg.LPFQAMCQ = t.TempDir(), "extract"
	res, err = Run(context.Background(), Options{Config: cfg, Chat: chat, Judge: judge, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	if int(judged.Load()) != shortN || res.Summary.ByMode[ClosedBook].Accuracy != 1 {
		t.Fatalf("--lpfqa-mcq extract: judged %d, want the %d short rows; accuracy %v", judged.Load(), shortN, res.Summary.ByMode[ClosedBook].Accuracy)
	}
	if !hasDeparture(res.Summary, "lpfqa_mcq") {
		t.Errorf("--lpfqa-mcq extract is not stated as a departure: %+v", res.Summary.Protocol)
	}
	cfg.LPFQAMCQ = ""

	cfg.Out, cfg.JudgeModel = t.TempDir(), ""
	res, err = Run(context.Background(), Options{Config: cfg, Chat: chat, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	checkLPFQAWithoutJudge(t, res, mcqN)
}

// loadLPFQASample loads the LPFQA sample and counts its multiple-choice
// and short questions; it must have both.
func loadLPFQASample(t *testing.T) (qs []bench.Question, mcqN, shortN int) {
	t.Helper()
	qs, _, err := bench.LoadLPFQA(filepath.Join("..", "bench", "testdata", "lpfqa-sample.json"), bench.DefaultFieldMap())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		if q.Type == "short" {
			shortN++
		} else {
			mcqN++
		}
	}
	if mcqN == 0 || shortN == 0 {
		t.Fatalf("fixture has %d MCQ and %d short questions; want both", mcqN, shortN)
	}
	return qs, mcqN, shortN
}

// lpfqaAnswerer is the model under test: it answers every MCQ right and
// every short question with the reference, and adds unreadable to its
// answer to the first multiple-choice question, which the judge then
// cannot grade.
func lpfqaAnswerer(qs []bench.Question, unreadable string) model.Chat {
	answers := map[string]string{}
	for _, q := range qs {
		if q.Type == "short" {
			answers[q.Text] = q.Answer
		} else {
			answers[q.Text] = "The answer is " + q.Answer + "."
		}
	}
	for _, q := range qs {
		if q.Type != "short" {
			answers[q.Text] += " " + unreadable
			break
		}
	}
	return model.ChatFunc(func(_ context.Context, req model.Request) (model.Response, error) {
		p := req.Messages[len(req.Messages)-1].Content
		for text, a := range answers {
			if strings.Contains(p, text) {
				return model.Response{Content: a}, nil
			}
		}
		return model.Response{Content: "?"}, nil
	})
}

// lpfqaJudge is the judge model: it reads every row, multiple choice
// included (LPFQA §4), counting them in judged, and rambles without a
// verdict on the reply that holds unreadable.
func lpfqaJudge(t *testing.T, judged *atomic.Int64, unreadable string) model.Chat {
	return model.ChatFunc(func(_ context.Context, req model.Request) (model.Response, error) {
		judged.Add(1)
		p := req.Messages[len(req.Messages)-1].Content
		if !strings.Contains(p, "answer_score") {
			t.Errorf("judge prompt lacks the answer_score instruction: %q", p)
		}
		if strings.Contains(p, unreadable) {
			return model.Response{Content: "The reply seems right, I think."}, nil
		}
		return model.Response{Content: `Reasoning... {"answer_score": 1}`}, nil
	})
}

// checkLPFQAJudged checks a judged run of the n rows: every row judged,
// and the unreadable verdict a 0 that stays in the denominator.
func checkLPFQAJudged(t *testing.T, res Result, judged, nq int) {
	t.Helper()
	cb := res.Summary.ByMode[ClosedBook]
	n := float64(nq)
	if judged != nq || cb.N != nq || cb.RougeL != nil || res.Summary.NoAccuracy != "" {
		t.Fatalf("with judge: %+v, judged %d of %d rows", cb, judged, nq)
	}
	// The unreadable verdict is a 0 that stays in the denominator.
	if cb.JudgeUnreadable != 1 || math.Abs(cb.Accuracy-(n-1)/n) > 1e-9 || cb.Errors != 0 {
		t.Fatalf("unreadable verdict: accuracy %.3f over %d, %d unreadable, %d errors; want %.3f, 1, 0", cb.Accuracy, cb.N, cb.JudgeUnreadable, cb.Errors, (n-1)/n)
	}
	if !strings.Contains(Markdown(res.Summary), "had no readable answer_score") {
		t.Error("summary.md does not count the unreadable verdict")
	}
}

// checkLPFQAWithoutJudge checks a run without a judge: no overall
// accuracy; the multiple-choice rows' letters and the short answers'
// ROUGE-L are shown apart.
func checkLPFQAWithoutJudge(t *testing.T, res Result, mcqN int) {
	t.Helper()
	cb := res.Summary.ByMode[ClosedBook]
	if res.Summary.NoAccuracy == "" || cb.N != 0 || cb.ByType["MCQ"].N != mcqN || cb.ByType["MCQ"].Accuracy != 1 || cb.RougeL == nil || *cb.RougeL < 0.99 {
		t.Fatalf("without judge: %+v; want no overall accuracy, the %d MCQs' letters and ROUGE-L 1 apart", cb, mcqN)
	}
	md := Markdown(res.Summary)
	if !strings.Contains(md, "No overall accuracy") || !strings.Contains(md, "--judge-model") || strings.Contains(md, "**100.0") {
		t.Errorf("summary.md without a judge:\n%s", md)
	}
}

// hasDeparture reports whether the summary's protocol states name as a
// departure from the paper.
func hasDeparture(s Summary, name string) bool {
	if s.Protocol == nil {
		return false
	}
	for _, c := range s.Protocol.Departures() {
		if c.Name == name {
			return true
		}
	}
	return false
}
