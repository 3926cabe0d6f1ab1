package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/agent"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/extract"
	"github.com/paperlens/paperlens/eval/mcq"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/model"
)

// noWeakCue is the extraction rules with one rule changed: weak cues ("I
// think (B).") no longer count.
var noWeakCue = extract.Extractor{Version: "test-no-weak-cue", Extract: func(reply, letters string, opts []mcq.Option, multi bool) extract.Result {
	r := extract.Extract(reply, letters, opts, multi)
	if r.Method == extract.MethodWeakCue {
		return extract.Result{Method: extract.MethodMiss, Miss: true}
	}
	return r
}}

// routingReader is a tool-calling model for agent and self-route whose
// final answers differ in shape from its first ones: under agent it
// searches the paper once, then answers with a weak cue; under self-route
// it declines the passages of every other question ("unanswerable") and
// answers those from the paper with a weak cue, the others from the
// passages with "Answer: X".
func routingReader(qs []bench.Question) modeltest.Config {
	index := map[string]int{}
	for i, q := range qs {
		index[q.ID] = i
	}
	return modeltest.Config{
		ToolCalls: func(r modeltest.Request) []modeltest.ToolCall {
			if c := pingCall(r); c != nil {
				return c
			}
			q, ok := askedQuestion(qs, r)
			if !ok || len(toolMessages(r)) > 0 || !toolsOffered(r, agent.ToolSearchPaper) {
				return nil
			}
			args, _ := json.Marshal(map[string]string{"query": q.MCQ.Stem})
			return []modeltest.ToolCall{modeltest.Call("call_1", agent.ToolSearchPaper, string(args))}
		},
		Answer: func(r modeltest.Request) (string, string) {
			q, ok := askedQuestion(qs, r)
			if !ok {
				return "OK", ""
			}
			p := r.Messages[len(r.Messages)-1].Content
			weak := "I think (" + strings.Join(strings.Split(q.Answer, ""), ") and (") + ")."
			switch {
			case len(toolMessages(r)) > 0:
				return weak, ""
			case strings.Contains(p, `write "unanswerable"`) && index[q.ID]%2 == 0:
				return "unanswerable", ""
			case strings.Contains(p, `write "unanswerable"`):
				return "Answer: " + q.Answer, ""
			}
			return weak, ""
		},
	}
}

// Tool-mode and self-route records are scored again on their final
// answer, as the eval scored them: by the same rules nothing changes (a
// rescore that read self-route's first reply, "unanswerable", would turn
// the routed answers into misses); with weak cues dropped, exactly the
// records whose final answer is a weak cue change (every agent answer,
// the self-route answers the paper gave), and only in their verdicts:
// transcripts, route calls, usage and the schema version stay.
func TestRescoreScoresTheFinalAnswer(t *testing.T) {
	qs, st, ix := fixture(t)
	qs = qs[:8]
	srv := modeltest.NewServer(t, routingReader(qs))
	cfg := sampleConfig(t, "fake-model", mode.Agent, mode.SelfRoute)
	cfg.Runs = 1
	chat := toolChat(t, srv, filepath.Join(t.TempDir(), "cache.db"))
	if _, err := Run(context.Background(), Options{Config: cfg, Chat: chat, Corpus: st, Index: ix, Questions: qs}); err != nil {
		t.Fatal(err)
	}
	before := mustRecords(t, cfg.Out, 2*len(qs))
	var routed, rag int
	for _, r := range before {
		if r.Error != "" || !r.Correct || r.Extractor != extract.Version {
			t.Fatalf("%s [%s]: %q scored %v (%s), error %q, extractor %q; want every answer right", r.QuestionID, r.Mode, r.Output, r.Correct, r.Method, r.Error, r.Extractor)
		}
		switch r.Route {
		case RouteFull:
			routed++
		case RouteRAG:
			rag++
		}
	}
	if routed == 0 || rag == 0 {
		t.Fatalf("self-route sent %d questions to the paper and kept %d on the passages; want both", routed, rag)
	}
	summary, err := os.ReadFile(filepath.Join(cfg.Out, summaryFile))
	if err != nil {
		t.Fatal(err)
	}
	calls := srv.Count()
	opt := RescoreOptions{Dir: cfg.Out, Config: cfg, Questions: qs}

	res, err := Rescore(context.Background(), opt)
	if err != nil || len(res.Changes) != 0 || res.Rescored != len(before) || res.Rewrote {
		t.Fatalf("rescore by the same rules: %+v, %v; want nothing changed", res, err)
	}
	if b, _ := os.ReadFile(filepath.Join(cfg.Out, summaryFile)); string(b) != string(summary) {
		t.Errorf("summary.json after a rescore by the same rules:\n%s\nwant\n%s", b, summary)
	}

	opt.Extractor = noWeakCue
	res, err = Rescore(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	var want, got []string
	for _, r := range before {
		if r.Mode == mode.Agent || r.Route == RouteFull {
			want = append(want, fmt.Sprintf("%s %s", r.QuestionID, r.Mode))
		}
	}
	for _, c := range res.Changes {
		got = append(got, fmt.Sprintf("%s %s", c.QuestionID, c.Mode))
	}
	if !slices.Equal(got, want) {
		t.Errorf("changed %v,\nwant the weak-cue final answers %v", got, want)
	}
	after := mustRecords(t, cfg.Out, len(before))
	for i, r := range after {
		a, b := before[i], r
		for _, x := range []*Record{&a, &b} {
			x.Extracted, x.Method, x.Miss, x.Correct, x.Extractor = "", "", false, false, ""
		}
		if !reflect.DeepEqual(a, b) || r.Schema != SchemaVersion || r.Extractor != noWeakCue.Version {
			t.Errorf("%s [%s]: more than the verdict changed, or the stamp is wrong (%q)", r.QuestionID, r.Mode, r.Extractor)
		}
	}
	if srv.Count() != calls {
		t.Errorf("rescoring made %d model calls", srv.Count()-calls)
	}
}

// Records that ended in an error stay as they are, and a version-1 record
// keeps its version when it is rescored; a record of a question the
// dataset lacks stops the rescore before anything is written, naming the
// question and the file.
func TestRescoreKeepsErrorsAndVersions(t *testing.T) {
	d := Dir(t.TempDir())
	v1, err := os.ReadFile(schemaDir("v1").path(ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(d.path(ResultsFile), v1, 0o644); err != nil {
		t.Fatal(err)
	}
	recs, err := d.Records()
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Bench: "elaipbench", Data: "schema.jsonl", Model: "m", Modes: []string{ClosedBook, Oracle}, Runs: 1, Out: string(d)}
	cfg.Defaults(nil)
	text := "Which one?\nA. one\nB. two\nC. three\nD. four"
	qs := []bench.Question{
		{ID: "q1", PaperID: "p1", Type: "SA-MCQ", Text: text, MCQ: mcq.Parse(text), Answer: "B"},
		{ID: "q2", PaperID: "p1", Type: "MA-MCQ", Text: text, MCQ: mcq.Parse(text), Answer: "AC"},
	}
	res, err := Rescore(context.Background(), RescoreOptions{Dir: string(d), Config: cfg, Questions: qs[:1]})
	if err == nil || !strings.Contains(err.Error(), `question "q2"`) || !strings.Contains(err.Error(), d.path(ResultsFile)) {
		t.Fatalf("a record of a question the dataset lacks: %+v, %v", res, err)
	}
	if b, _ := os.ReadFile(d.path(ResultsFile)); string(b) != string(v1) {
		t.Fatal("a refused rescore wrote the records")
	}

	res, err = Rescore(context.Background(), RescoreOptions{Dir: string(d), Config: cfg, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	after, err := d.Records()
	if err != nil {
		t.Fatal(err)
	}
	errs := 0
	for i, r := range after {
		if r.Schema != 1 {
			t.Errorf("record %d: schema %d, want its version 1 kept", i, r.Schema)
		}
		if recs[i].Error != "" {
			errs++
			if !reflect.DeepEqual(r, recs[i]) {
				t.Errorf("record %d ended in an error and was changed:\n%+v\n%+v", i, recs[i], r)
			}
		} else if r.Extractor != extract.Version {
			t.Errorf("record %d: extractor %q", i, r.Extractor)
		}
	}
	if errs == 0 || res.Skipped != errs || res.Rescored != len(recs)-errs || !res.Rewrote {
		t.Errorf("rescore of the v1 fixture: %d skipped, %d rescored, rewrote %v; want %d errors skipped, the rest rescored and stamped",
			res.Skipped, res.Rescored, res.Rewrote, errs)
	}
	// The fixture's miss names no rule, as records before the rule's name
	// was kept; the current rules name it, and that is the one change.
	if len(res.Changes) != 1 || res.Changes[0].QuestionID != "q2" || res.Changes[0].Mode != Oracle ||
		res.Changes[0].Was.Method != "" || res.Changes[0].Now.Method != extract.MethodMiss || !res.Changes[0].Now.Miss {
		t.Errorf("changes %+v; want the unnamed miss of q2 under oracle named", res.Changes)
	}
}

// A judge that fails on some rows leaves them with their earlier scores
// and says how many failed; one that refuses its request as such stops the
// rescore before anything is written, naming the flag; a folder without
// records has nothing to rescore.
func TestRescoreJudgeFailures(t *testing.T) {
	qs, _, err := bench.LoadLPFQA(filepath.Join("..", "bench", "testdata", "lpfqa-sample.json"), bench.DefaultFieldMap())
	if err != nil {
		t.Fatal(err)
	}
	chat := model.ChatFunc(func(_ context.Context, req model.Request) (model.Response, error) {
		return model.Response{Content: "The answer is C."}, nil
	})
	judgeScoring := func(score string, fail func(prompt string) error) model.Chat {
		return model.ChatFunc(func(_ context.Context, req model.Request) (model.Response, error) {
			if err := fail(req.Messages[len(req.Messages)-1].Content); err != nil {
				return model.Response{}, err
			}
			return model.Response{Content: `{"answer_score": ` + score + `}`}, nil
		})
	}
	never := func(string) error { return nil }
	cfg := Config{Bench: "lpfqa", Data: "lpfqa-sample.json", Model: "m", JudgeModel: "j", Runs: 1, Concurrency: 2, Out: t.TempDir()}
	cfg.Defaults(nil)
	if _, err := Run(context.Background(), Options{Config: cfg, Chat: chat, Judge: judgeScoring("1", never), Questions: qs}); err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(cfg.Out, ResultsFile)
	before, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	opt := RescoreOptions{Dir: cfg.Out, Config: cfg, Questions: qs}

	opt.Judge = judgeScoring("0", func(string) error {
		return &model.HTTPError{StatusCode: 400, Param: "temperature", Body: "temperature is not supported with this model"}
	})
	_, err = Rescore(context.Background(), opt)
	var re *RequestError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "--judge-temperature none") || !strings.Contains(err.Error(), "nothing written") {
		t.Errorf("a judge refusing temperature: %v; want a RequestError naming --judge-temperature", err)
	}
	if b, _ := os.ReadFile(results); string(b) != string(before) {
		t.Error("a stopped rescore wrote the records")
	}

	failing := qs[0].Reference // the dataset's judge template quotes it, not the question
	opt.Judge = judgeScoring("0", func(p string) error {
		if strings.Contains(p, failing) {
			return errors.New("503 Service Unavailable")
		}
		return nil
	})
	var log strings.Builder
	opt.Log = &log
	opt.Config.JudgeModel = "j2" // a new judge, which fails on one row
	res, err := Rescore(context.Background(), opt)
	if err == nil || !strings.Contains(err.Error(), "1 of") || !strings.Contains(err.Error(), "run rescore again") {
		t.Errorf("one judge call failed: %v", err)
	}
	if res.Failed != 1 || res.Rejudged != len(qs)-1 || len(res.Changes) != len(qs)-1 || !strings.Contains(log.String(), qs[0].ID) {
		t.Errorf("failed %d, rejudged %d, changed %d of %d; log %q", res.Failed, res.Rejudged, len(res.Changes), len(qs), log.String())
	}
	recs := mustRecords(t, cfg.Out, len(qs))
	for _, r := range recs {
		if want := r.QuestionID == qs[0].ID; r.Correct != want || r.Error != "" {
			t.Errorf("%s: correct %v, error %q; want only the row whose judge failed to keep its earlier 1", r.QuestionID, r.Correct, r.Error)
		}
	}
	// One record still holds the earlier judge's score: the folder keeps
	// naming that judge.
	if got, err := Dir(cfg.Out).ReadConfig(); err != nil || got.JudgeModel != "j" {
		t.Errorf("config.json after a rescore whose new judge failed on a row names judge %q (%v); want the earlier j", got.JudgeModel, err)
	}

	if _, err := Rescore(context.Background(), RescoreOptions{Dir: t.TempDir(), Config: cfg, Questions: qs}); err == nil || !strings.Contains(err.Error(), "nothing to rescore") {
		t.Errorf("a folder without records: %v", err)
	}
}
