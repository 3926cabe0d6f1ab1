package run

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mcq"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/model"
)

func mcqQuestions(stems ...string) []bench.Question {
	var qs []bench.Question
	for _, stem := range stems {
		text := "Which is the " + stem + "?\nA. x\nB. y"
		qs = append(qs, bench.Question{ID: stem, Text: text, Type: "SA-MCQ", Answer: "B", MCQ: mcq.Parse(text)})
	}
	return qs
}

// A 30 MB answer from a loopback model server, through the real client and
// stack (cache included): the run writes its record, scored on what was
// kept and marked reply_cut, instead of stalling on it or retrying it; a
// rerun served from the cache says reply_cut too. The other question is
// answered normally. The cap is 256 KiB rather than the default 4 MiB only
// to keep the test's scoring short.
func TestRunRecordsCutReply(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Config{Answer: func(r modeltest.Request) (string, string) {
		if strings.Contains(r.Prompt(), "runaway") {
			return "Answer: B. " + strings.Repeat("And again, B. ", 30<<20/14), ""
		}
		return "Answer: A", ""
	}})
	qs := mcqQuestions("runaway", "plain")
	cfg := Config{Bench: "jsonl", Data: "x.jsonl", Model: "m", Modes: []string{ClosedBook}, Runs: 1, Concurrency: 2, Out: t.TempDir()}
	cfg.Defaults(nil)
	const limit = 256 << 10
	run := func() map[string]map[string]any {
		t.Helper()
		base, err := model.NewOpenAI(model.Options{BaseURL: srv.BaseURL(), MaxReplyBytes: limit})
		if err != nil {
			t.Fatal(err)
		}
		chat, closer, err := model.Stack(base, model.StackOptions{CachePath: filepath.Join(cfg.Out, "cache.db")})
		if err != nil {
			t.Fatal(err)
		}
		defer closer.Close()
		if _, err := Run(context.Background(), Options{Config: cfg, Chat: chat, Questions: qs}); err != nil {
			t.Fatal(err)
		}
		return rawRecords(t, cfg.Out)
	}
	check := func(recs map[string]map[string]any) {
		t.Helper()
		cut, plain := recs["runaway"], recs["plain"]
		if cut == nil || cut["reply_cut"] != true || cut["correct"] != true || cut["error"] != "" {
			t.Errorf("runaway record: reply_cut %v, correct %v, error %q", cut["reply_cut"], cut["correct"], cut["error"])
		}
		if out, _ := cut["output"].(string); len(out) > limit || len(out) < limit/2 || !strings.HasPrefix(out, "Answer: B. And again") {
			t.Errorf("runaway output: %d bytes", len(out))
		}
		if _, ok := plain["reply_cut"]; ok || plain["correct"] != false {
			t.Errorf("plain record: reply_cut %v, correct %v", plain["reply_cut"], plain["correct"])
		}
	}
	check(run())
	if n := srv.Count(); n != 2 {
		t.Errorf("%d calls, want 2 (a cut reply is not retried)", n)
	}
	// A fresh folder over the same cache: every answer comes from it.
	os.Remove(filepath.Join(cfg.Out, ResultsFile))
	recs := run()
	check(recs)
	if srv.Count() != 2 || recs["runaway"]["cached"] != true {
		t.Errorf("rerun: %d calls, cached %v", srv.Count(), recs["runaway"]["cached"])
	}
}

// rawRecords reads results.jsonl as JSON objects by question id, to see
// which fields are written, not only what they decode to.
func rawRecords(t *testing.T, dir string) map[string]map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		out[m["question_id"].(string)] = m
	}
	return out
}

// A judge reply that was cut is recorded as such, and scored on what came
// before the cut.
func TestRunRecordsCutJudgeReply(t *testing.T) {
	q := bench.Question{ID: "s1", Text: "Why?", Type: "short", Answer: "Because."}
	judge := model.ChatFunc(func(context.Context, model.Request) (model.Response, error) {
		return model.Response{Content: `{"answer_score": 1, "reason": "it goes on`, Cut: true}, nil
	})
	chat := model.ChatFunc(func(context.Context, model.Request) (model.Response, error) {
		return model.Response{Content: "Because."}, nil
	})
	cfg := Config{Bench: "jsonl", Data: "x.jsonl", Model: "m", JudgeModel: "j", Modes: []string{ClosedBook}, Runs: 1, Out: t.TempDir()}
	cfg.Defaults(nil)
	if _, err := Run(context.Background(), Options{Config: cfg, Chat: chat, Judge: judge, Questions: []bench.Question{q}}); err != nil {
		t.Fatal(err)
	}
	r := rawRecords(t, cfg.Out)["s1"]
	if r["judge_reply_cut"] != true || r["score"] != 1.0 {
		t.Errorf("judge_reply_cut %v, score %v", r["judge_reply_cut"], r["score"])
	}
	if _, ok := r["reply_cut"]; ok {
		t.Error("reply_cut written for an answer that was not cut")
	}
}

// The reporter hears the totals before the first call, so that a run whose
// first answers take minutes does not read "0/0 done".
func TestProgressTotalsBeforeTheFirstCall(t *testing.T) {
	qs := mcqQuestions("first", "second", "third")
	var mu sync.Mutex
	var seen []Progress
	calls := 0
	chat := model.ChatFunc(func(context.Context, model.Request) (model.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		if calls == 0 && (len(seen) == 0 || seen[0].Total != 6 || seen[0].Done != 0) {
			t.Errorf("first call after progress %+v, want the totals first", seen)
		}
		calls++
		return model.Response{Content: "Answer: B"}, nil
	})
	cfg := Config{Bench: "jsonl", Data: "x.jsonl", Model: "m", Modes: []string{ClosedBook}, Runs: 2, Concurrency: 1, Out: t.TempDir()}
	cfg.Defaults(nil)
	_, err := Run(context.Background(), Options{Config: cfg, Chat: chat, Questions: qs, Progress: func(p Progress) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, p)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 7 || seen[6].Done != 6 || seen[6].Total != 6 {
		t.Errorf("%d reports, last %+v", len(seen), seen[len(seen)-1])
	}
}
