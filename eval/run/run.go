package run

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/extract"
	"github.com/paperlens/paperlens/eval/prompts"
	"github.com/paperlens/paperlens/eval/stats"
	"github.com/paperlens/paperlens/ingest/corpus"
	"github.com/paperlens/paperlens/model"
	"github.com/paperlens/paperlens/retrieve"
)

// Options carry what must not be written to config.json, and what the
// caller has opened.
type Options struct {
	Config    Config
	Chat      model.Chat    // the model under test (nil for the offline baselines)
	Judge     model.Chat    // the LPFQA judge (nil: short answers get ROUGE-L)
	Corpus    *corpus.Store // needed by paper and retrieval modes
	Index     Retrievers    // needed by retrieval modes and the ir baseline
	Web       WebSearch     // web modes: searches the web (or a stand-in) for a query
	Questions []bench.Question
	Log       io.Writer // per-question problems; nil = discard
	Progress  func(done, total int, r Record)
}

// Result is what a finished evaluation wrote.
type Result struct {
	Dir     string
	Summary Summary
	Done    int // records written by this invocation
	Resumed int // records already finished by an earlier invocation
}

// ResultsFile is the append-only record file inside a run folder.
const ResultsFile = "results.jsonl"

// Run evaluates the configured model on the questions in every mode and run,
// appending one record per question, mode and run to OUT/results.jsonl as
// each finishes, then writes summary.json and summary.md. Rerunning with the
// same Out resumes: finished records are kept and only the rest is done
// (calls that completed but were not recorded come from the response cache).
func Run(ctx context.Context, opt Options) (Result, error) {
	cfg := opt.Config
	logw := opt.Log
	if logw == nil {
		logw = io.Discard
	}
	if err := cfg.Validate(); err != nil {
		return Result{}, err
	}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return Result{}, fmt.Errorf("create run folder: %w", err)
	}
	if err := checkSameRun(cfg); err != nil {
		return Result{}, err
	}
	if err := writeConfig(cfg.Out, cfg); err != nil {
		return Result{}, err
	}
	ps, err := prompts.Load(cfg.PromptDir)
	if err != nil {
		return Result{}, err
	}
	sv, err := newSolver(opt)
	if err != nil {
		return Result{}, err
	}
	b := newBuilder(opt, ps)
	sc := scorer{cfg: cfg, judge: opt.Judge, prompts: ps}

	path := filepath.Join(cfg.Out, ResultsFile)
	prev, err := ReadResults(path)
	if err != nil {
		return Result{}, err
	}
	finished := map[key]bool{}
	for _, r := range prev {
		if r.Error == "" {
			finished[r.key()] = true
		}
	}
	type job struct {
		q    bench.Question
		mode string
		run  int
	}
	var jobs []job
	for run := 1; run <= cfg.Runs; run++ {
		for _, mode := range cfg.Modes {
			for _, q := range opt.Questions {
				if !finished[key{q.ID, mode, run}] {
					jobs = append(jobs, job{q, mode, run})
				}
			}
		}
	}
	res := Result{Dir: cfg.Out, Resumed: len(finished)}
	w, err := openWriter(path)
	if err != nil {
		return res, err
	}
	defer w.Close()

	total := len(jobs) + len(finished)
	var done atomic.Int64
	done.Store(int64(len(finished)))
	var writeErr error
	var wmu sync.Mutex
	ch := make(chan job)
	var wg sync.WaitGroup
	for i := 0; i < max(cfg.Concurrency, 1); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				r := evaluate(ctx, b, sv, sc, j.q, j.mode, j.run)
				if ctx.Err() != nil && r.Error != "" {
					continue // interrupted: leave it for the next invocation
				}
				if err := w.write(r); err != nil {
					wmu.Lock()
					writeErr = err
					wmu.Unlock()
				}
				if r.Error != "" {
					fmt.Fprintf(logw, "%s [%s run %d]: %s\n", r.QuestionID, r.Mode, r.Run, r.Error)
				}
				n := done.Add(1)
				if opt.Progress != nil {
					opt.Progress(int(n), total, r)
				}
			}
		}()
	}
feed:
	for _, j := range jobs {
		select {
		case ch <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(ch)
	wg.Wait()
	res.Done = int(done.Load()) - len(finished)
	if writeErr != nil {
		return res, fmt.Errorf("write %s: %w", path, writeErr)
	}
	if err := ctx.Err(); err != nil {
		return res, fmt.Errorf("interrupted after %d of %d records (rerun the same command to finish): %w", done.Load(), total, err)
	}
	all, err := ReadResults(path)
	if err != nil {
		return res, err
	}
	res.Summary = Summarize(cfg, opt.Questions, all)
	if err := WriteSummary(cfg.Out, res.Summary); err != nil {
		return res, err
	}
	return res, nil
}

// evaluate does one question under one mode and run. It never fails the
// run: every problem becomes the record's error.
func evaluate(ctx context.Context, b *builder, sv solver, sc scorer, q bench.Question, mode string, run int) (r Record) {
	r = Record{QuestionID: q.ID, PaperID: q.PaperID, Mode: mode, Run: run, Model: b.cfg.Model, Paradigm: b.cfg.Paradigm,
		Gold: q.Answer, QuestionType: q.Type, Breakdown: q.Breakdown, Context: []ContextItem{}}
	defer func() {
		if p := recover(); p != nil {
			r.Error = fmt.Sprintf("internal error (please report): %v", p)
		}
	}()
	bt, err := b.build(ctx, q, mode)
	r.Context, r.PromptTokens, r.TruncatedTokens, r.Cuts, r.Recall, r.Web = bt.context, bt.tokens, bt.truncated, bt.cuts, bt.recall, bt.web
	if r.Context == nil {
		r.Context = []ContextItem{}
	}
	if err != nil {
		r.Error = err.Error()
		return r
	}
	ans, err := sv.solve(ctx, q, mode, run, bt)
	r.Output, r.Reasoning, r.Usage, r.LatencyMS, r.Cached, r.Attempts = ans.output, ans.reasoning, ans.usage, ans.latency.Milliseconds(), ans.cached, ans.attempts
	if err != nil {
		r.Error = err.Error()
		return r
	}
	if strings.TrimSpace(ans.output) == "" && strings.TrimSpace(ans.reasoning) == "" {
		r.Error = "empty reply from the model"
		r.Miss = true
		return r
	}
	sc.score(ctx, q, &r)
	return r
}

// scorer turns a reply into a verdict.
type scorer struct {
	cfg     Config
	judge   model.Chat
	prompts *prompts.Set
}

var judgeScore = regexp.MustCompile(`"?answer_score"?\s*[:：]\s*"?(-?[0-9]+(?:\.[0-9]+)?)`)

func (s scorer) score(ctx context.Context, q bench.Question, r *Record) {
	if len(q.MCQ.Options) >= 2 && q.Type != "short" {
		reply := r.Output
		if strings.TrimSpace(reply) == "" {
			reply = r.Reasoning // a reasoning model that spent its budget thinking
		}
		res := extract.Extract(reply, q.MCQ.Letters(), q.MCQ.Options, q.Type == "MA-MCQ")
		r.Extracted, r.Method, r.Miss = res.Letters, res.Method, res.Miss
		r.Correct = !res.Miss && res.Letters == q.Answer
		r.ScoreKind = "exact"
		return
	}
	r.Extracted = strings.TrimSpace(r.Output)
	if s.judge == nil {
		v := stats.RougeL(r.Output, q.Answer)
		r.Score, r.ScoreKind = &v, "rouge_l"
		return
	}
	prompt, err := prompts.RenderJudge(s.prompts, q.JudgeTemplate, prompts.JudgeData{
		Question: q.Text, Reference: q.Answer, RawReference: q.Reference, KeyPoints: q.KeyPoints, Answer: r.Output})
	if err != nil {
		r.Error = fmt.Sprintf("judge prompt: %v", err)
		return
	}
	var msgs []model.Message
	if q.JudgeSystem != "" {
		msgs = append(msgs, model.Message{Role: "system", Content: q.JudgeSystem})
	}
	msgs = append(msgs, model.Message{Role: "user", Content: prompt})
	zero := 0.0
	resp, err := s.judge.Complete(ctx, model.Request{Model: s.cfg.JudgeModel, Messages: msgs, Temperature: &zero, MaxTokens: 1024, Run: r.Run})
	if err != nil {
		r.Error = fmt.Sprintf("judge: %v", err)
		return
	}
	m := judgeScore.FindAllStringSubmatch(resp.Content, -1)
	if len(m) == 0 {
		r.Error = fmt.Sprintf("judge reply has no {\"answer_score\": x}: %.120q", resp.Content)
		return
	}
	v, _ := strconv.ParseFloat(m[len(m)-1][1], 64)
	r.Score, r.ScoreKind, r.Correct = &v, "judge", v >= 0.5
}

// checkSameRun refuses to mix two different evaluations in one folder.
func checkSameRun(cfg Config) error {
	b, err := os.ReadFile(filepath.Join(cfg.Out, "config.json"))
	if err != nil {
		return nil
	}
	var old Config
	if json.Unmarshal(b, &old) != nil {
		return nil
	}
	if old.Model != cfg.Model || old.Bench != cfg.Bench || old.Paradigm != cfg.Paradigm || old.Data != cfg.Data {
		return fmt.Errorf("%s holds a run of %s on %s (%s); use another --out for %s on %s (%s)",
			cfg.Out, old.Model, old.Data, old.Paradigm, cfg.Model, cfg.Data, cfg.Paradigm)
	}
	return nil
}

// Ask answers one ad-hoc question under one mode, returning the record and
// the passages it was given.
func Ask(ctx context.Context, opt Options, q bench.Question, mode string) (Record, []retrieve.Hit, error) {
	cfg := opt.Config
	ps, err := prompts.Load(cfg.PromptDir)
	if err != nil {
		return Record{}, nil, err
	}
	sv, err := newSolver(opt)
	if err != nil {
		return Record{}, nil, err
	}
	b := newBuilder(opt, ps)
	r := evaluate(ctx, b, sv, scorer{cfg: cfg, judge: opt.Judge, prompts: ps}, q, mode, 1)
	return r, b.retrieved[q.ID+"\x00"+strings.TrimPrefix(mode, "full+")], nil
}

// newSolver picks the solver for the configured model: an offline baseline
// or the model client.
func newSolver(opt Options) (solver, error) {
	cfg := opt.Config
	switch cfg.Model {
	case "random":
		return randomSolver{seed: cfg.Seed}, nil
	case "ir":
		if opt.Index == nil {
			return nil, fmt.Errorf("the ir baseline needs the retrieval index")
		}
		return irSolver{ix: opt.Index, retriever: "bm25", threshold: cfg.IRThreshold}, nil
	}
	if opt.Chat == nil {
		return nil, fmt.Errorf("no model client for %s", cfg.Model)
	}
	return llmSolver{chat: opt.Chat, cfg: cfg}, nil
}
