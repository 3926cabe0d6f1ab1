package judgecheck_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paperlens/paperlens/eval/judgecheck"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// limit keeps the model-driven tests small: the first 30 comparisons hold
// 5 ties and both compare types.
const limit = 30

// standIns serves the stand-in judges, by model name (a modeltest mode),
// the random one with seed 7, on the first limit comparisons of file.
func standIns(t *testing.T, ref []refItem) (*modeltest.Server, func(mode string) modeltest.PairJudge) {
	pairs := make([]modeltest.Pair, len(ref))
	for i, it := range ref {
		pairs[i] = modeltest.Pair{First: trimmed(it.ResponseA), Second: trimmed(it.ResponseB), Truth: it.verdict()}
	}
	judge := func(mode string) modeltest.PairJudge { return modeltest.PairJudge{Mode: mode, Pairs: pairs, Seed: 7} }
	srv := modeltest.NewServer(t, modeltest.Config{Answer: func(r modeltest.Request) (string, string) { return judge(r.Model).Answer(r) }})
	return srv, judge
}

// expected are a stand-in's verdicts on each comparison, in the file's
// order and swapped (swapped back), as the test works them out.
func expected(j modeltest.PairJudge, ref []refItem) (first, swapped []string) {
	for _, it := range ref {
		a, b := trimmed(it.ResponseA), trimmed(it.ResponseB)
		first = append(first, j.Verdict(a, b, it.verdict()))
		said := j.Verdict(b, a, map[string]string{"A": "B", "B": "A", "TIE": "TIE"}[it.verdict()])
		swapped = append(swapped, map[string]string{"A": "B", "B": "A", "TIE": "TIE", "": ""}[said])
	}
	return first, swapped
}

func request(file, out, url, model string) session.JudgeCheckRequest {
	return session.JudgeCheckRequest{
		Options: judgecheck.Options{File: file, Limit: limit, Out: out, Swap: true, Concurrency: 3},
		Judge:   run.Judge{Model: model, BaseURL: url},
		Clients: session.Clients{MaxAttempts: 2, AttemptTimeout: time.Minute},
		Env:     map[string]string{"OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""},
	}
}

// Stand-in judges on a loopback server: accuracy, macro-F1, tie accuracy
// and position consistency equal the test's own figures, and κ between
// the true-label judge and the random one equals the test's κ.
func TestStandInJudges(t *testing.T) {
	file := lfqae(t)
	ref := readRef(t, file, limit)
	srv, judge := standIns(t, ref)
	labels := labelsOf(ref)
	dirs := map[string]string{}
	for _, mode := range []string{modeltest.JudgeAlwaysA, modeltest.JudgeAlwaysTie, modeltest.JudgeTruth, modeltest.JudgeRandom, modeltest.JudgeMute} {
		dirs[mode] = filepath.Join(t.TempDir(), mode)
		checkStandInMode(t, file, dirs[mode], srv, judge, ref, labels, mode)
	}

	// κ between the true-label judge and the random one.
	checkStandInVs(t, file, dirs, srv, judge, ref)

	// A folder of another file is refused.
	checkStandInVsOtherFile(t, srv, dirs)
}

// checkStandInMode runs the stand-in judge mode into dir and checks its
// figures, position consistency and summary.json.
func checkStandInMode(t *testing.T, file, dir string, srv *modeltest.Server, judge func(mode string) modeltest.PairJudge, ref []refItem, labels []string, mode string) {
	t.Helper()
	s, err := session.JudgeCheck(context.Background(), request(file, dir, srv.BaseURL(), mode))
	if err != nil {
		t.Fatalf("%s: %v", mode, err)
	}
	first, swapped := expected(judge(mode), ref)
	j := s.Judge
	if j == nil || j.Model != mode || j.Missing != 0 || j.Swapped == nil || j.Consistency == nil {
		t.Fatalf("%s: judge figures %+v", mode, j)
	}
	checkFigures(t, mode, j.Figures, labels, first)
	checkFigures(t, mode+" swapped", j.Swapped.Figures, labels, swapped)
	for ct, lv := range byCompare(ref, first) {
		checkFigures(t, mode+" "+ct, j.ByCompareType[ct], lv[0], lv[1])
	}
	checkStandInConsistency(t, mode, j.Consistency, first, swapped)
	// Always A chooses the answer shown first, whichever it is.
	c := j.Consistency
	if mode == modeltest.JudgeAlwaysA && (c.Consistent != 0 || c.FirstShown != limit) {
		t.Errorf("always-A: consistency %+v; want no comparison consistent, all %d for the answer shown first", c, limit)
	}
	if mode == modeltest.JudgeMute && (j.Unparsed != limit || j.Accuracy != 0) {
		t.Errorf("mute: %d unparsed, accuracy %v; want all %d unparsed and counted wrong", j.Unparsed, j.Accuracy, limit)
	}
	if got, err := judgecheck.Folder(dir).ReadSummary(); err != nil || got.Judge == nil || got.Judge.Accuracy != j.Accuracy {
		t.Errorf("%s: summary.json %+v, %v", mode, got.Judge, err)
	}
}

// checkStandInConsistency checks c against the consistency of the
// expected verdicts in both orders.
func checkStandInConsistency(t *testing.T, mode string, c *judgecheck.Consistency, first, swapped []string) {
	t.Helper()
	n, same, unparsed := 0, 0, 0
	for i := range first {
		if first[i] == "" || swapped[i] == "" {
			unparsed++
			continue
		}
		n++
		if first[i] == swapped[i] {
			same++
		}
	}
	if c.N != n || c.Consistent != same || c.Unparsed != unparsed || n > 0 && !near(c.Rate, float64(same)/float64(n)) {
		t.Errorf("%s: consistency %+v, want %d of %d (%d unparsed)", mode, c, same, n, unparsed)
	}
}

// checkStandInVs checks --vs between the true-label judge's folder and
// the random one's: no call is sent, and κ is the test's.
func checkStandInVs(t *testing.T, file string, dirs map[string]string, srv *modeltest.Server, judge func(mode string) modeltest.PairJudge, ref []refItem) {
	t.Helper()
	req := request(file, dirs[modeltest.JudgeTruth], srv.BaseURL(), modeltest.JudgeTruth)
	req.Options.Vs = dirs[modeltest.JudgeRandom]
	before := srv.Count()
	s, err := session.JudgeCheck(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if srv.Count() != before {
		t.Errorf("a finished check read again sent %d calls; want none (not even the preflight)", srv.Count()-before)
	}
	truth, _ := expected(judge(modeltest.JudgeTruth), ref)
	random, _ := expected(judge(modeltest.JudgeRandom), ref)
	agree := 0
	for i := range truth {
		if truth[i] == random[i] {
			agree++
		}
	}
	a := s.Vs
	if a == nil || a.N != limit || a.Agree != agree || a.Kappa == nil || !near(*a.Kappa, refKappa(truth, random)) || a.JudgeModel != modeltest.JudgeRandom {
		t.Fatalf("--vs: %+v; want κ %v over %d, %d agreeing", a, refKappa(truth, random), limit, agree)
	}
	t.Logf("κ(truth, random) = %.4f", *a.Kappa)
}

// checkStandInVsOtherFile checks that --vs refuses a folder of another file.
func checkStandInVsOtherFile(t *testing.T, srv *modeltest.Server, dirs map[string]string) {
	t.Helper()
	other := filepath.Join(t.TempDir(), "other.jsonl")
	if err := os.WriteFile(other, []byte(`{"question":"q","reference":"r","response_a":"a","response_b":"b","label":"same"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	req := request(other, filepath.Join(t.TempDir(), "x"), srv.BaseURL(), modeltest.JudgeTruth)
	req.Options.Vs = dirs[modeltest.JudgeRandom]
	if _, err := session.JudgeCheck(context.Background(), req); err == nil || !strings.Contains(err.Error(), "another file") {
		t.Errorf("--vs on another file: %v", err)
	}
}

// A check stopped half-way (Ctrl-C, or a kill that leaves half a line)
// loses nothing: the next run makes only the judgments missing, each
// judgment is in results.jsonl once, and the figures are those of a check
// never stopped.
func TestStoppedCheckResumes(t *testing.T) {
	file := lfqae(t)
	ref := readRef(t, file, limit)
	srv, _ := standIns(t, ref)
	out := filepath.Join(t.TempDir(), "check")
	ctx, cancel := context.WithCancel(context.Background())
	var done atomic.Int32
	req := request(file, out, srv.BaseURL(), modeltest.JudgeRandom)
	req.Options.Progress = func(p judgecheck.Progress) {
		if done.Add(1) == 11 {
			cancel()
		}
	}
	if _, err := session.JudgeCheck(ctx, req); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped check: %v", err)
	}
	recs, err := judgecheck.Folder(out).Records()
	if err != nil || len(recs) < 11 || len(recs) >= 2*limit {
		t.Fatalf("after the stop: %d records, %v; want some, not all", len(recs), err)
	}
	// A kill mid-write leaves a partial line.
	f, err := os.OpenFile(filepath.Join(out, judgecheck.ResultsFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"schema":1,"id":"half`)
	f.Close()

	got, err := session.JudgeCheck(context.Background(), request(file, out, srv.BaseURL(), modeltest.JudgeRandom))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(out, judgecheck.ResultsFile))
	if lines := bytes.Count(b, []byte("\n")); lines != 2*limit || bytes.Contains(b, []byte(`"half`)) {
		t.Errorf("results.jsonl has %d lines (partial line kept: %v); want each of the %d judgments once", lines, bytes.Contains(b, []byte(`"half`)), 2*limit)
	}
	whole, err := session.JudgeCheck(context.Background(), request(file, filepath.Join(t.TempDir(), "whole"), srv.BaseURL(), modeltest.JudgeRandom))
	if err != nil {
		t.Fatal(err)
	}
	if got.Judge.Accuracy != whole.Judge.Accuracy || got.Judge.MacroF1 != whole.Judge.MacroF1 || *got.Judge.Consistency != *whole.Judge.Consistency {
		t.Errorf("resumed check %+v, uninterrupted %+v", got.Judge, whole.Judge)
	}

	// The folder is this judge's: another is refused, as are other settings.
	if _, err := session.JudgeCheck(context.Background(), request(file, out, srv.BaseURL(), modeltest.JudgeTruth)); err == nil || !strings.Contains(err.Error(), "use another --out") {
		t.Errorf("another judge in the folder: %v", err)
	}
	req = request(file, out, srv.BaseURL(), modeltest.JudgeRandom)
	temp := 0.7
	pt := &temp
	req.Judge.Overrides.Temperature = &pt
	if _, err := session.JudgeCheck(context.Background(), req); err == nil || !strings.Contains(err.Error(), "other request settings") {
		t.Errorf("another temperature in the folder: %v", err)
	}
	// Without a judge, the folder's summary is not replaced.
	req = request(file, out, "", "")
	if _, err := session.JudgeCheck(context.Background(), req); err == nil || !strings.Contains(err.Error(), "holds the check of judge random") {
		t.Errorf("static baselines into a judge's folder: %v", err)
	}
}

// Judgments whose calls fail are left out, counted, reported as a
// FailedError, and made by the next run.
func TestFailedJudgmentsAreRetried(t *testing.T) {
	file := lfqae(t)
	ref := readRef(t, file, limit)
	pairs := make([]modeltest.Pair, len(ref))
	for i, it := range ref {
		pairs[i] = modeltest.Pair{First: trimmed(it.ResponseA), Second: trimmed(it.ResponseB), Truth: it.verdict()}
	}
	j := modeltest.PairJudge{Mode: modeltest.JudgeTruth, Pairs: pairs}
	badA, badB := trimmed(ref[4].ResponseA), trimmed(ref[4].ResponseB) // comparison 5, both orders
	var failing atomic.Bool
	failing.Store(true)
	srv := modeltest.NewServer(t, modeltest.Config{Answer: j.Answer, Inject: func(r modeltest.Request) *modeltest.Fault {
		if failing.Load() && strings.Contains(r.Prompt(), badA) && strings.Contains(r.Prompt(), badB) {
			return &modeltest.Fault{Kind: modeltest.Status, Status: 500}
		}
		return nil
	}})
	out := filepath.Join(t.TempDir(), "check")
	var log strings.Builder
	req := request(file, out, srv.BaseURL(), "judge")
	req.Log = &log
	s, err := session.JudgeCheck(context.Background(), req)
	var fe *judgecheck.FailedError
	if !errors.As(err, &fe) || fe.Failed != 2 || s.Judge == nil || s.Judge.Missing != 2 || s.Judge.N != limit-1 || s.Judge.Accuracy != 1 {
		t.Fatalf("with comparison 5 failing: %v, %+v", err, s.Judge)
	}
	if !strings.Contains(log.String(), "(row 5, order ab)") || !strings.Contains(err.Error(), "run the same command again") {
		t.Errorf("log %q, error %v: want the failed judgments named and a retry suggested", log.String(), err)
	}
	failing.Store(false)
	s, err = session.JudgeCheck(context.Background(), request(file, out, srv.BaseURL(), "judge"))
	if err != nil || s.Judge.Missing != 0 || s.Judge.N != limit || s.Judge.Accuracy != 1 || s.Judge.Consistency.Rate != 1 {
		t.Fatalf("the retry: %v, %+v", err, s.Judge)
	}
}
