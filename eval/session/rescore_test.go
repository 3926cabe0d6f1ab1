package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/extract"
	"github.com/paperlens/paperlens/eval/mcq"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// replyShapes are the ways the test model writes its answer, each read by
// another extraction rule: answer-is, weak-cue, answer-colon, markdown,
// and none at all (a miss).
const (
	shapeAnswerIs = iota
	shapeWeakCue
	shapeColon
	shapeBold
	shapeNone
	shapes
)

// sampleReplies answers each sample question in one shape (by its place
// in the file), wrong on every third; shape maps question ids to theirs.
type sampleReplies struct {
	qs    []bench.Question
	shape map[string]int
	reply map[string]string
}

func newSampleReplies(t *testing.T) sampleReplies {
	qs := loadSample(t)
	s := sampleReplies{qs: qs, shape: map[string]int{}, reply: map[string]string{}}
	for i, q := range qs {
		letters := q.Answer
		if i%3 == 1 {
			for _, l := range q.MCQ.Letters() {
				if !strings.ContainsRune(q.Answer, l) {
					letters = string(l)
					break
				}
			}
		}
		ls := strings.Split(letters, "")
		var reply string
		switch i % shapes {
		case shapeAnswerIs:
			reply = "The answer is " + strings.Join(ls, ", ") + "."
		case shapeWeakCue:
			reply = "I think (" + strings.Join(ls, ") and (") + ")."
		case shapeColon:
			reply = "Answer: " + strings.Join(ls, ", ")
		case shapeBold:
			reply = "**" + strings.Join(ls, ", ") + "**"
		default:
			reply = "I am not sure."
		}
		s.shape[q.ID], s.reply[q.ID] = i%shapes, reply
	}
	return s
}

// answer is the model double's answer: the reply of the question whose
// stem the prompt holds (the longest, should one stem hold another).
func (s sampleReplies) answer(r modeltest.Request) (string, string) {
	p := r.Messages[len(r.Messages)-1].Content
	best, bestLen := "", 0
	for _, q := range s.qs {
		if stem := strings.TrimSpace(q.MCQ.Stem); stem != "" && strings.Contains(p, stem) && len(stem) > bestLen {
			best, bestLen = q.ID, len(stem)
		}
	}
	if best == "" {
		return "OK", "" // the preflight
	}
	return s.reply[best], ""
}

// sampleEval is an eval of the ElaipBench sample at the double, as the
// command builds it: a key in the environment, a header, a protocol
// setting given as a flag.
func sampleEval(home, out, baseURL string, modes []string) Request {
	temp := 0.3
	tp := &temp
	return Request{
		Config: run.Config{Bench: "elaipbench", Data: sample, Home: home, Model: "vendor/m", BaseURL: baseURL,
			APIKeyEnv: "OPENAI_API_KEY", Modes: modes, Runs: 1, Concurrency: 2, Out: out,
			Sampling: run.Sampling{HeaderNames: []string{"X-Route"}}, FlagsSet: []string{"temperature"}},
		Overrides: run.Overrides{Answer: run.RequestOverrides{Temperature: &tp}},
		Command:   []string{"paperlens", "eval", "--temperature", "0.3"},
		Clients: Clients{MaxAttempts: 2, AttemptTimeout: time.Minute,
			Header: map[string][]string{"X-Route": {"route-token-77"}}},
		Env: map[string]string{"OPENAI_API_KEY": "sk-test-secret-key", "OPENAI_BASE_URL": ""},
	}
}

// folderFiles reads a run folder's files that a rescore may write.
func folderFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, name := range []string{"results.jsonl", "summary.json", "summary.md", "config.json"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = b
	}
	return out
}

func recordKey(qid, mode string, run int) string { return fmt.Sprintf("%s|%s|%d", qid, mode, run) }

// A rescore reads the saved replies again without asking the model: of
// an untouched run it writes the very summary the eval wrote and leaves
// the records alone; with an extraction rule changed it changes exactly
// the records whose reply that rule reads, and only their verdicts; with
// the rules restored it gives the first summary back.
func TestRescoreElaipBench(t *testing.T) {
	ctx := context.Background()
	replies := newSampleReplies(t)
	srv := modeltest.NewServer(t, modeltest.Config{Answer: replies.answer})
	out := filepath.Join(t.TempDir(), "run")
	modes := []string{run.ClosedBook, run.Full}
	res, _, err := Eval(ctx, sampleEval(t.TempDir(), out, srv.BaseURL(), modes))
	if err != nil {
		t.Fatal(err)
	}
	if want := len(replies.qs) * len(modes); res.Done != want || res.Failed() != 0 {
		t.Fatalf("eval: %d records, %d failed; want %d, 0", res.Done, res.Failed(), want)
	}
	before := folderFiles(t, out)
	calls := srv.Count()

	// (a) The current rules on an untouched run: the same files.
	rs, err := Rescore(ctx, RescoreRequest{Dir: out})
	if err != nil {
		t.Fatal(err)
	}
	if rs.Records != res.Done || rs.Rescored != res.Done || len(rs.Changes) != 0 || rs.Rewrote || rs.Rejudged != 0 {
		t.Errorf("rescore of an untouched run: %+v; want every record rescored, none changed, nothing rewritten", rs)
	}
	for name, b := range folderFiles(t, out) {
		if !bytes.Equal(b, before[name]) {
			t.Errorf("%s after a rescore by the same rules differs from the eval's:\n%s\nwant\n%s", name, b, before[name])
		}
	}

	// (b) A rule changed: weak cues ("I think (B).") no longer count.
	rs, err = Rescore(ctx, RescoreRequest{Dir: out, Extractor: noWeakCue()})
	if err != nil {
		t.Fatal(err)
	}
	changed, wantCorrectLost := checkOnlyWeakCuesRescored(t, out, before, replies, rs)
	checkAccuracyFellByLost(t, out, before, modes, len(replies.qs), changed, wantCorrectLost)

	// The current rules again: the first files back.
	if _, err := Rescore(ctx, RescoreRequest{Dir: out}); err != nil {
		t.Fatal(err)
	}
	for name, b := range folderFiles(t, out) {
		if !bytes.Equal(b, before[name]) {
			t.Errorf("%s after rescoring with the rules restored differs from the eval's", name)
		}
	}
	if srv.Count() != calls {
		t.Errorf("rescoring made %d model calls, want none", srv.Count()-calls)
	}
}

// noWeakCue is the extraction rules with weak cues ("I think (B).") no
// longer counted: they are misses.
func noWeakCue() extract.Extractor {
	return extract.Extractor{Version: "test-no-weak-cue", Extract: func(reply, letters string, opts []mcq.Option, multi bool) extract.Result {
		r := extract.Extract(reply, letters, opts, multi)
		if r.Method == extract.MethodWeakCue {
			return extract.Result{Method: extract.MethodMiss, Miss: true}
		}
		return r
	}}
}

// checkOnlyWeakCuesRescored checks a rescore of the run in out by
// noWeakCue against its files before: exactly the weak-cue replies'
// records changed, each a weak cue become a miss, and only in their
// verdicts and stamps; results.jsonl rewritten. It returns how many
// records changed and how many of them had been right.
func checkOnlyWeakCuesRescored(t *testing.T, out string, before map[string][]byte, replies sampleReplies, rs run.RescoreResult) (changed, wantCorrectLost int) {
	t.Helper()
	var want, got []string
	recs, err := run.Dir(out).Records()
	if err != nil {
		t.Fatal(err)
	}
	beforeRecs, err := run.ReadResults(writeTemp(t, before["results.jsonl"]))
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range beforeRecs {
		if replies.shape[r.QuestionID] == shapeWeakCue {
			want = append(want, recordKey(r.QuestionID, r.Mode, r.Run))
			if r.Correct {
				wantCorrectLost++
			}
		}
		checkOnlyVerdictRescored(t, r, recs[i])
	}
	for _, c := range rs.Changes {
		got = append(got, recordKey(c.QuestionID, c.Mode, c.Run))
		if !c.Now.Miss || c.Now.Method != extract.MethodMiss || c.Now.Correct || c.Was.Method != extract.MethodWeakCue {
			t.Errorf("%s [%s]: %+v → %+v; want a weak cue become a miss", c.QuestionID, c.Mode, c.Was, c.Now)
		}
	}
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("changed records %v,\nwant exactly the weak-cue replies %v", got, want)
	}
	if !rs.Rewrote {
		t.Error("results.jsonl was not rewritten")
	}
	return len(got), wantCorrectLost
}

// checkOnlyVerdictRescored checks record now, rescored by noWeakCue from
// r: stamped with the rules' version (r with the eval's), and everything
// but the verdict and the stamp the same.
func checkOnlyVerdictRescored(t *testing.T, r, now run.Record) {
	t.Helper()
	if now.Extractor != "test-no-weak-cue" {
		t.Errorf("%s [%s]: extractor %q, want the rules' version", r.QuestionID, r.Mode, now.Extractor)
	}
	if r.Extractor != extract.Version {
		t.Errorf("%s [%s]: the eval stamped extractor %q, want %q", r.QuestionID, r.Mode, r.Extractor, extract.Version)
	}
	// Everything but the verdict and the stamp stays.
	a, b := r, now
	a.Extracted, a.Method, a.Miss, a.Correct, a.Extractor = "", "", false, false, ""
	b.Extracted, b.Method, b.Miss, b.Correct, b.Extractor = "", "", false, false, ""
	if !reflect.DeepEqual(a, b) {
		t.Errorf("%s [%s]: rescoring changed more than the verdict:\n%+v\n%+v", r.QuestionID, r.Mode, a, b)
	}
}

// checkAccuracyFellByLost checks the summary the rescore wrote in out
// against the one before: over the modes, accuracy over the nq questions
// fell by the wantCorrectLost right answers that became misses.
func checkAccuracyFellByLost(t *testing.T, out string, before map[string][]byte, modes []string, nq, changed, wantCorrectLost int) {
	t.Helper()
	s, err := run.Dir(out).ReadSummary()
	if err != nil {
		t.Fatal(err)
	}
	var was run.Summary
	if err := jsonUnmarshal(before["summary.json"], &was); err != nil {
		t.Fatal(err)
	}
	n := float64(nq)
	lost := 0.0
	for _, m := range modes {
		lost += (was.ByMode[m].Accuracy - s.ByMode[m].Accuracy) * n
	}
	t.Logf("%d records changed, %d right answers lost", changed, wantCorrectLost)
	if int(lost+0.5) != wantCorrectLost || wantCorrectLost == 0 {
		t.Errorf("accuracy fell by %.2f answers over the modes, want the %d right weak-cue answers", lost, wantCorrectLost)
	}
}

// A rescore of an offline baseline's run writes its summary again, and
// one of a folder whose dataset changed is refused, naming the file.
func TestRescoreOfflineAndChangedData(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	data := filepath.Join(dir, "sample.jsonl")
	b, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(data, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	req := Request{Config: run.Config{Bench: "elaipbench", Data: data, Home: filepath.Join(dir, "home"), Model: "random",
		Modes: []string{run.ClosedBook}, Runs: 2, Out: out}}
	if _, _, err := Eval(ctx, req); err != nil {
		t.Fatal(err)
	}
	before := folderFiles(t, out)
	rs, err := Rescore(ctx, RescoreRequest{Dir: out})
	if err != nil || len(rs.Changes) != 0 || rs.Rescored != 2*len(loadSample(t)) {
		t.Fatalf("rescore of the random baseline: %+v, %v", rs, err)
	}
	for name, b := range folderFiles(t, out) {
		if !bytes.Equal(b, before[name]) {
			t.Errorf("%s differs after the rescore", name)
		}
	}
	if err := os.WriteFile(data, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Rescore(ctx, RescoreRequest{Dir: out})
	if err == nil || !strings.Contains(err.Error(), data) || !strings.Contains(err.Error(), "pass --data FILE") {
		t.Errorf("rescore against a changed dataset: %v; want a refusal naming %s", err, data)
	}
}

// LPFQA: without a judge the saved judge scores stay; with the run's own
// judge they are judged again from its cache (same verdicts, the same
// summary, no call to the answering model); with another judge they
// change where its verdicts differ, and config.json names it.
func TestRescoreLPFQAJudge(t *testing.T) {
	ctx := context.Background()
	qs, _, err := bench.LoadLPFQA("../../testdata/lpfqa/sample.json", bench.DefaultFieldMap())
	if err != nil {
		t.Fatal(err)
	}
	srv := modeltest.NewServer(t, modeltest.Config{Answer: lpfqaRescoreModels(qs)})
	out := filepath.Join(t.TempDir(), "run")
	_, _, err = Eval(ctx, Request{
		Config: run.Config{Bench: "lpfqa", Data: "../../testdata/lpfqa/sample.json", Home: t.TempDir(), Model: "answerer",
			BaseURL: srv.BaseURL(), APIKeyEnv: "OPENAI_API_KEY", JudgeModel: "judge-a", Runs: 1, Concurrency: 2, Out: out},
		Clients: Clients{MaxAttempts: 2, AttemptTimeout: time.Minute},
		Env:     map[string]string{"OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""},
	})
	if err != nil {
		t.Fatal(err)
	}
	before := folderFiles(t, out)
	answerCalls := func() (n int) {
		for _, r := range srv.Requests() {
			if r.Model == "answerer" {
				n++
			}
		}
		return n
	}
	asked := answerCalls()
	judgeReq := func(m string) RescoreRequest {
		return RescoreRequest{Dir: out, Judge: run.Judge{Model: m}, Clients: Clients{MaxAttempts: 2, AttemptTimeout: time.Minute},
			Env: map[string]string{"OPENAI_API_KEY": ""}}
	}

	rs, err := Rescore(ctx, RescoreRequest{Dir: out})
	if err != nil || rs.Kept != len(qs) || rs.Rescored != 0 || len(rs.Changes) != 0 {
		t.Fatalf("without a judge: %+v, %v; want every judge score kept", rs, err)
	}
	rs, err = Rescore(ctx, judgeReq("judge-a"))
	if err != nil || rs.Rejudged != len(qs) || len(rs.Changes) != 0 {
		t.Fatalf("with the run's judge: %+v, %v; want every row judged again, none changed", rs, err)
	}
	for name, b := range folderFiles(t, out) {
		if !bytes.Equal(b, before[name]) {
			t.Errorf("%s differs after a rescore by the run's own judge:\n%s\nwant\n%s", name, b, before[name])
		}
	}

	rs, err = Rescore(ctx, judgeReq("judge-b"))
	if err != nil {
		t.Fatal(err)
	}
	checkJudgeBChanges(t, qs, rs)
	checkJudgeBWritten(t, out)
	if n := answerCalls(); n != asked {
		t.Errorf("rescoring asked the answering model %d times, want none", n-asked)
	}
}

// lpfqaRescoreModels answers as the three models of TestRescoreLPFQAJudge:
// judge-a, right unless the answer gave up; judge-b, wrong everywhere;
// and the answering model, which gives up on every other question.
func lpfqaRescoreModels(qs []bench.Question) func(r modeltest.Request) (string, string) {
	return func(r modeltest.Request) (string, string) {
		p := r.Messages[len(r.Messages)-1].Content
		switch r.Model {
		case "judge-a": // right unless the answer gave up
			if strings.Contains(p, "no idea") {
				return `{"answer_score": 0}`, ""
			}
			return `{"answer_score": 1}`, ""
		case "judge-b": // wrong everywhere
			return `{"answer_score": 0}`, ""
		}
		for i, q := range qs {
			if strings.Contains(p, q.Text) {
				if i%2 == 1 {
					return "I have no idea.", ""
				}
				return "The answer is C. " + q.Answer, ""
			}
		}
		return "OK", ""
	}
}

// checkJudgeBChanges checks judge-b's rescore changed exactly the rows
// judge-a passed, each from 1 to 0.
func checkJudgeBChanges(t *testing.T, qs []bench.Question, rs run.RescoreResult) {
	t.Helper()
	var wantChanged []string
	for i, q := range qs {
		if i%2 == 0 {
			wantChanged = append(wantChanged, q.ID)
		}
	}
	var changed []string
	for _, c := range rs.Changes {
		changed = append(changed, c.QuestionID)
		if c.Was.Score == nil || *c.Was.Score != 1 || c.Now.Score == nil || *c.Now.Score != 0 || c.Now.Correct {
			t.Errorf("%s: %+v → %+v; want 1 → 0", c.QuestionID, c.Was, c.Now)
		}
	}
	// Changes come in results.jsonl's order, which is the order records
	// finished in: compare as sets.
	slices.Sort(changed)
	slices.Sort(wantChanged)
	if !slices.Equal(changed, wantChanged) {
		t.Errorf("changed %v, want the rows judge-a passed %v", changed, wantChanged)
	}
}

// checkJudgeBWritten checks the run folder out after judge-b's rescore:
// config.json names judge-b, and the summary's accuracy is 0.
func checkJudgeBWritten(t *testing.T, out string) {
	t.Helper()
	cfg, err := run.Dir(out).ReadConfig()
	if err != nil || cfg.JudgeModel != "judge-b" || cfg.Judge.MaxTokens != 1024 {
		t.Errorf("config.json after judge-b: judge %q, %d tokens, %v", cfg.JudgeModel, cfg.Judge.MaxTokens, err)
	}
	if s, err := run.Dir(out).ReadSummary(); err != nil || s.ByMode[run.ClosedBook].Accuracy != 0 {
		t.Errorf("summary after judge-b: %+v, %v; want accuracy 0", s.ByMode[run.ClosedBook], err)
	}
}

// writeTemp writes b to a file of its own and returns its path.
func writeTemp(t *testing.T, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "results.jsonl")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
