package judgecheck

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/paperlens/paperlens/eval/prompts"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/model"
)

// Options are one judge-check.
type Options struct {
	// File holds the comparisons (see ReadFile); Limit > 0 keeps its
	// first Limit.
	File  string
	Limit int
	// Out is the output folder. A judge's run needs one; without a judge
	// it is optional (summary.json only).
	Out string
	// Judge is the judge to check; nil computes the static baselines only,
	// with no model and no network.
	Judge *Judge
	// Swap judges each comparison a second time with the answers swapped,
	// for position consistency.
	Swap bool
	// Vs is another judge-check folder on the same file: Cohen's κ
	// between its judge and this one.
	Vs string
	// PromptDir overrides the built-in prompt templates (lfqae_judge.tmpl).
	PromptDir string
	// Concurrency is how many judgments are in flight (default 8).
	Concurrency int
	// StopAfter stops the run when this many judge calls in a row have
	// failed (default 20): the endpoint is down, or refuses every call.
	StopAfter int
	// Preflight, when set, is called once before the first judgment (not
	// when every judgment is in results.jsonl already).
	Preflight func(context.Context) error
	// Progress, when set, is told after each judgment.
	Progress func(Progress)
	// Log receives notes and each failed judgment; nil: discarded.
	Log io.Writer
}

// Judge is the model under check and how it is asked.
type Judge struct {
	Chat     model.Chat // the stacked client (cache, retries, limits)
	Model    string
	URL      string // as config.json records it (no user info, no query)
	Sampling run.Sampling
	Header   http.Header // extra headers; only their names are written
}

// Progress is the state after a judgment.
type Progress struct {
	Done, Total int // judgments, those of earlier runs included
	Resumed     int // judgments done before this run
	Errors      int // failed judgments of this run
	Retries     int // attempts beyond the first, this run
	Tokens      int // tokens the server reported, this run
	Started     time.Time
}

// FailedError says some judgments failed: they are left out of the
// figures, and running the same check again retries them.
type FailedError struct {
	Failed int
	Dir    string
}

func (e *FailedError) Error() string {
	return fmt.Sprintf("%d judgment(s) failed and are left out of the figures (each is in %s with its error): run the same command again to retry them",
		e.Failed, filepath.Join(e.Dir, ResultsFile))
}

// job is one judgment to make.
type job struct {
	it    Item
	order string
}

// Run checks the judge (and the static baselines) on the comparisons of
// o.File: each comparison judged once in its file's order, and once
// swapped with o.Swap; every judgment appended to OUT/results.jsonl as it
// ends, so that a run stopped by Ctrl-C or a kill loses nothing and the
// next one resumes. It writes OUT/summary.json and returns the summary.
// Judgments that failed make the error a *FailedError, returned with the
// summary of the others.
func Run(ctx context.Context, o Options) (Summary, error) {
	items, err := ReadFile(o.File)
	if err != nil {
		return Summary{}, err
	}
	if o.Limit > 0 && len(items) > o.Limit {
		items = items[:o.Limit]
	}
	sha, err := fileSHA(o.File)
	if err != nil {
		return Summary{}, err
	}
	abs, err := filepath.Abs(o.File)
	if err != nil {
		return Summary{}, err
	}
	s := newSummary(abs, sha, items)
	var failed int
	if o.Judge != nil {
		if o.Out == "" {
			return Summary{}, errors.New("judge-check: a judge's run needs an output folder (--out DIR)")
		}
		recs, n, err := judge(ctx, o, items, Config{Kind: Kind, Schema: SchemaVersion, File: abs, FileSHA256: sha,
			JudgeModel: o.Judge.Model, JudgeURL: o.Judge.URL, Judge: o.Judge.Sampling})
		if errors.Is(err, context.Canceled) {
			return Summary{}, fmt.Errorf("judge-check stopped (%w): the judgments made are kept in %s; run the same command again to resume", err, filepath.Join(o.Out, ResultsFile))
		}
		if err != nil {
			return Summary{}, err
		}
		failed = n
		s.setJudge(o.Judge.Model, items, recs, o.Swap)
		if o.Vs != "" {
			if s.Vs, err = vs(o.Vs, sha, items, recs); err != nil {
				return Summary{}, err
			}
		}
	} else if o.Vs != "" {
		return Summary{}, errors.New("--vs compares two judges: give this run's judge too (--judge-model), or the folder of one as --out with its --judge-model")
	}
	if o.Out != "" {
		if o.Judge == nil {
			if c, err := Folder(o.Out).ReadConfig(); err == nil {
				return Summary{}, fmt.Errorf("%s holds the check of judge %s, whose summary.json the static baselines alone would replace: give another --out, or none to print them, or --judge-model %s to read that check again", o.Out, c.JudgeModel, c.JudgeModel)
			}
		}
		if err := os.MkdirAll(o.Out, 0o755); err != nil {
			return Summary{}, err
		}
		if err := Folder(o.Out).writeJSON(SummaryFile, s); err != nil {
			return s, err
		}
		s.Dir = o.Out
	}
	if failed > 0 {
		return s, &FailedError{Failed: failed, Dir: o.Out}
	}
	return s, nil
}

// judge makes the judgments results.jsonl lacks and returns them all, with
// how many failed in this run.
func judge(ctx context.Context, o Options, items []Item, cfg Config) ([]Record, int, error) {
	ps, err := prompts.Load(o.PromptDir)
	if err != nil {
		return nil, 0, err
	}
	cfg.Prompt = ps.Source(prompts.LFQAEJudge)
	if cfg.PromptSHA256, err = promptSHA(cfg.Prompt); err != nil {
		return nil, 0, err
	}
	dir := Folder(o.Out)
	if err := dir.checkResume(cfg); err != nil {
		return nil, 0, err
	}
	recs, err := dir.Records()
	if err != nil {
		return nil, 0, err
	}
	done := map[recordKey]Record{}
	for _, r := range recs {
		if r.Error == "" {
			done[r.key()] = r
		}
	}
	var todo []job
	total := 0
	for _, it := range items {
		for _, order := range orders(o.Swap) {
			total++
			if _, ok := done[recordKey{it.ID, order}]; !ok {
				todo = append(todo, job{it, order})
			}
		}
	}
	failed := 0
	if len(todo) > 0 {
		if o.Preflight != nil {
			if err := o.Preflight(ctx); err != nil {
				return nil, 0, err
			}
		}
		w := &worker{o: o, ps: ps, done: done, p: Progress{Total: total, Done: total - len(todo), Resumed: total - len(todo), Started: time.Now()}}
		if failed, err = w.run(ctx, dir, todo); err != nil {
			return nil, 0, err
		}
	}
	out := make([]Record, 0, len(done))
	for _, r := range done {
		out = append(out, r)
	}
	return out, failed, nil
}

func orders(swap bool) []string {
	if swap {
		return []string{OrderAB, OrderBA}
	}
	return []string{OrderAB}
}

// worker makes the judgments of one run.
type worker struct {
	o  Options
	ps *prompts.Set

	mu     sync.Mutex
	done   map[recordKey]Record
	p      Progress
	streak int    // failed calls in a row
	last   string // the last failure
	failed int
}

// run judges todo with o.Concurrency judgments in flight.
func (w *worker) run(ctx context.Context, dir Folder, todo []job) (int, error) {
	ap, err := dir.openAppender()
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	jobs := make(chan job)
	var wg sync.WaitGroup
	for range max(w.o.Concurrency, 1) {
		wg.Go(func() {
			for j := range jobs {
				r := w.one(ctx, j)
				if ctx.Err() != nil && r.Error != "" {
					continue // stopped: the judgment is made next time
				}
				if err := ap.write(r); err != nil {
					cancel(err)
					continue
				}
				if stop := w.note(r); stop != nil {
					cancel(stop)
				}
			}
		})
	}
feed:
	for _, j := range todo {
		select {
		case jobs <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	cerr := ap.close()
	if err := context.Cause(ctx); err != nil {
		return w.failed, err
	}
	return w.failed, cerr
}

// note counts a finished judgment; it returns why the run must stop, if
// it must.
func (w *worker) note(r Record) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.p.Done++
	w.p.Retries += max(r.Attempts-1, 0)
	w.p.Tokens += r.Usage.TotalTokens
	if r.Error == "" {
		w.done[r.key()] = r
		w.streak = 0
	} else {
		w.p.Errors++
		w.failed++
		w.streak++
		w.last = r.Error
		if w.o.Log != nil {
			fmt.Fprintf(w.o.Log, "judge-check: %s (row %d, order %s): %s\n", r.ID, r.Row, r.Order, r.Error)
		}
	}
	if w.o.Progress != nil {
		w.o.Progress(w.p)
	}
	stopAfter := w.o.StopAfter
	if stopAfter <= 0 {
		stopAfter = 20
	}
	if w.streak >= stopAfter {
		return fmt.Errorf("judge-check stopped: the last %d judge calls failed (last: %s); the judgments made are kept in %s: fix the endpoint and run the same command again",
			w.streak, w.last, ResultsFile)
	}
	return nil
}

// one makes one judgment; a failure is the record's error.
func (w *worker) one(ctx context.Context, j job) Record {
	it := j.it
	r := Record{ID: it.ID, Row: it.Row, Order: j.order, Label: it.Label, CompareType: it.CompareType, Type: it.Type}
	d := prompts.PairData{Question: it.Question, Context: it.Context, Reference: it.Reference, ResponseA: it.ResponseA, ResponseB: it.ResponseB}
	if j.order == OrderBA {
		d.ResponseA, d.ResponseB = it.ResponseB, it.ResponseA
	}
	prompt, err := w.ps.Render(prompts.LFQAEJudge, d)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	jd := w.o.Judge
	resp, err := jd.Chat.Complete(ctx, jd.Sampling.Request(jd.Model, []model.Message{{Role: "user", Content: prompt}}, 0, jd.Header))
	r.Reply, r.Reasoning, r.ReplyCut, r.FinishReason = resp.Content, resp.Reasoning, resp.Cut, resp.FinishReason
	r.Usage, r.Cached, r.LatencyMS, r.Attempts = resp.Usage, resp.Cached, resp.Latency.Milliseconds(), resp.Attempts
	if err != nil {
		r.Error = "judge: " + err.Error()
		return r
	}
	v, ok := ParseVerdict(resp.Content)
	if !ok {
		r.Unparsed = true
		return r
	}
	r.Said, r.Verdict = v, v
	if j.order == OrderBA {
		r.Verdict = v.Swapped()
	}
	return r
}

// fileSHA is the hex SHA-256 of the file at path.
func fileSHA(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// promptSHA hashes the text of lfqae_judge from where it came.
func promptSHA(source string) (string, error) {
	text := prompts.Builtin(prompts.LFQAEJudge)
	if source != "builtin" {
		b, err := os.ReadFile(source)
		if err != nil {
			return "", err
		}
		text = string(b)
	}
	h := sha256.Sum256([]byte(strings.TrimSpace(text)))
	return hex.EncodeToString(h[:]), nil
}
