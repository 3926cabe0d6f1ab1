package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/agent"
	"github.com/paperlens/paperlens/eval/assemble"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/extract"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/prompts"
	"github.com/paperlens/paperlens/eval/protocol"
	"github.com/paperlens/paperlens/eval/stats"
	"github.com/paperlens/paperlens/internal/lazyregexp"
	"github.com/paperlens/paperlens/model"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/rerank"
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
	WebTools  *WebTools     // tool-search: the engine and fetcher its tools call
	Questions []bench.Question
	Log       io.Writer      // per-question problems; nil = discard
	Progress  func(Progress) // called once with the totals before any call, then after each record, from the workers

	// Header and JudgeHeader are extra HTTP headers for the model and the
	// judge (--header, --judge-header). They are here, not in Config,
	// because their values are never written.
	Header, JudgeHeader http.Header
	// Preflight, when set, is called once before the first call of a run
	// that has work left (see the package function Preflight); its error
	// ends the run before any record is written.
	// It gets the answering model's request fields, which a refused paper
	// setting may have changed (see preflight).
	Preflight func(context.Context, Sampling) error
	// FolderLocked says the caller holds LockFolder(Config.Out) already
	// (it opened the response cache inside the folder under it).
	FolderLocked bool
	// Cite asks the model to cite the passages it uses ([p3]); paperlens
	// ask sets it. Evaluations leave it off, so that their prompts stay
	// the benchmark's.
	Cite bool

	// Rerank reorders the retrieval modes' candidates when Config.Rerank
	// is set (see package rerank); a run without it refuses to start.
	Rerank rerank.Reranker
}

// Result is what a finished evaluation wrote.
type Result struct {
	Dir     string
	Summary Summary
	Done    int // records written by this invocation
	Resumed int // records already finished by an earlier invocation
	// Errors counts the records of the whole run folder that ended in an
	// error, by their message without question-specific detail, most
	// frequent first: what the exit status and the closing line report.
	Errors []ErrorCount
}

// ErrorCount is how many records failed with one kind of error.
type ErrorCount struct {
	Error string `json:"error"`
	N     int    `json:"n"`
}

// Failed is the number of records that ended in an error.
func (r Result) Failed() int {
	n := 0
	for _, e := range r.Errors {
		n += e.N
	}
	return n
}

// Progress is the state of a run after each record, for progress bars
// and lines.
type Progress struct {
	Done, Total int // records, those resumed included
	Mode        string
	Run         int
	// ModeDone and ModeTotal count the records of Mode and Run.
	ModeDone, ModeTotal int
	Errors, Retries     int // of this invocation
	Tokens              int // prompt + completion tokens the server reported, this invocation
	Started             time.Time
	Resumed             int // records finished before this invocation
	Record              Record
}

// DefaultStopAfter is Config.StopAfter when zero: a run stops when this many
// model calls in a row have failed the same way.
const DefaultStopAfter = 20

// ResultsFile is the append-only record file inside a run folder.
const ResultsFile = "results.jsonl"

// job is a unit of work: one question under one mode and run.
type job struct {
	q    *bench.Question // into Options.Questions: a copy per job cost O(jobs) questions
	mode string
	run  int
}

// pending lists the jobs a run folder has not finished, in run, mode,
// question order, and how many it has.
func pending(cfg Config, qs []bench.Question) (jobs []job, finished map[key]bool, err error) {
	// Only the keys of the records are kept, not the records: the last
	// record of a question, mode and run says whether it is finished.
	finished = map[key]bool{}
	err = eachLine(Dir(cfg.Out).path(ResultsFile), func(r Record) error {
		if r.Error == "" {
			finished[r.key()] = true
		} else {
			delete(finished, r.key())
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	for run := 1; run <= cfg.Runs; run++ {
		for _, mode := range cfg.Modes {
			for i := range qs {
				q := &qs[i]
				if q.Run != 0 && q.Run != run {
					continue // a composed question of another run
				}
				if !finished[key{q.ID, mode, run}] {
					jobs = append(jobs, job{q, mode, run})
				}
			}
		}
	}
	return jobs, finished, nil
}

// PerRun is how many questions one run asks: all of them, or with eval
// --compose (questions marked with their run) the most any run's own
// set holds. Summary.Questions counts it, so that questions × modes ×
// runs is the records of a finished run.
func PerRun(qs []bench.Question) int {
	n := map[int]int{}
	for _, q := range qs {
		n[q.Run]++
	}
	most := n[0]
	for r, c := range n {
		if r != 0 {
			most = max(most, n[0]+c)
		}
	}
	return most
}

// Run evaluates the configured model on the questions in every mode and run,
// appending one record per question, mode and run to OUT/results.jsonl as
// each finishes, then writes summary.json and summary.md. Rerunning with the
// same Out resumes: finished records are kept and only the rest is done
// (calls that completed but were not recorded come from the response cache).
//
// The run stops early, keeping what it did, when a request parameter is
// refused (a *RequestError) or when StopAfter calls in a row failed the same
// way (a *BreakerError). Records that end in an error are kept and counted
// in Result.Errors; a rerun retries them.
func Run(ctx context.Context, opt Options) (Result, error) {
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	r, release, err := openRun(opt)
	defer release()
	if err != nil {
		return Result{}, err
	}
	if err := r.start(ctx); err != nil {
		return r.res, err
	}
	closeTools, err := r.prepareTasks(ctx)
	defer closeTools()
	if err != nil {
		return r.res, err
	}
	r.work(ctx)
	return r.finish(ctx)
}

// runner is one invocation of Run: the folder, the jobs left, and the
// state its tasks share.
type runner struct {
	opt      Options
	cfg      Config
	dir      Dir
	ps       *prompts.Set
	jobs     []job
	finished map[key]bool
	res      Result

	// Set by prepareTasks.
	b  *builder
	sv solver
	sc scorer
	w  *writer

	mu       sync.Mutex // guards the fields below, which the tasks share
	prog     Progress
	modeDone map[[2]string]int
	brk      breaker
	writeErr error
	stopErr  error
}

// openRun checks the config, takes the folder (unless the caller holds
// it), repairs its records and lists the jobs left. release undoes what
// was taken, also on error.
func openRun(opt Options) (r *runner, release func(), err error) {
	release = func() {}
	cfg := opt.Config
	if err := cfg.Validate(); err != nil {
		return nil, release, err
	}
	if cfg.Rerank != "" && opt.Rerank == nil {
		return nil, release, fmt.Errorf("--rerank %s is set but no reranker was built (run.Options.Rerank)", cfg.Rerank)
	}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return nil, release, fmt.Errorf("create run folder: %w", err)
	}
	dir := Dir(cfg.Out)
	if !opt.FolderLocked {
		unlock, err := dir.Lock()
		if err != nil {
			return nil, release, err
		}
		release = unlock
	}
	// A folder whose server refused a paper setting keeps leaving it out.
	cfg = adoptDropped(cfg)
	opt.Config = cfg
	if err := checkSameRun(cfg); err != nil {
		return nil, release, err
	}
	// Templates are checked before any call: a typo in --prompt-dir costs
	// nothing.
	ps, err := prompts.Load(cfg.PromptDir)
	if err != nil {
		return nil, release, err
	}
	if err := dir.repairRecords(); err != nil {
		return nil, release, err
	}
	jobs, finished, err := pending(cfg, opt.Questions)
	if err != nil {
		return nil, release, err
	}
	r = &runner{opt: opt, cfg: cfg, dir: dir, ps: ps, jobs: jobs, finished: finished, res: Result{Dir: cfg.Out, Resumed: len(finished)}}
	return r, release, nil
}

// start reports the totals, makes the preflight when there is work left,
// and writes config.json.
func (r *runner) start(ctx context.Context) error {
	done := len(r.finished)
	if r.opt.Progress != nil {
		// The totals are known now, before the preflight and the first
		// answer, which can each take minutes: a reporter that heard
		// nothing until a record finished would say "0/0 done".
		r.opt.Progress(Progress{Done: done, Total: len(r.jobs) + done, ModeTotal: PerRun(r.opt.Questions), Resumed: done})
	}
	if r.opt.Preflight != nil && len(r.jobs) > 0 {
		cfg, err := preflight(ctx, r.cfg, r.opt.Preflight, r.opt.Log)
		if err != nil {
			return err
		}
		r.cfg, r.opt.Config = cfg, cfg
	}
	return r.dir.WriteConfig(r.cfg)
}

// prepareTasks builds what every task uses: the tool cache, the solver,
// the prompt builder, the scorer and its prompt log, and the record
// writer. closeAll closes what it opened, also on error.
func (r *runner) prepareTasks(ctx context.Context) (closeAll func(), _ error) {
	var closers []func() error
	closeAll = func() {
		for i := len(closers) - 1; i >= 0; i-- {
			_ = closers[i]()
		}
	}
	ps := r.ps
	var tc agent.ToolCache // nil: no tool mode
	if len(toolModes(r.cfg.Modes)) > 0 && !r.cfg.Offline() {
		fc, err := agent.OpenFileCache(r.dir.path(ToolsFile))
		if err != nil {
			return closeAll, fmt.Errorf("open the tool cache: %w", err)
		}
		closers = append(closers, fc.Close)
		tc = fc
	}
	var err error
	if r.sv, err = newSolver(r.opt, tc); err != nil {
		return closeAll, err
	}
	r.b = newBuilder(r.opt, ps)
	r.sc = scorer{cfg: r.cfg, judge: r.opt.Judge, prompts: ps, header: r.opt.JudgeHeader}
	if r.cfg.LogPrompts {
		pl, err := r.dir.openPromptLog()
		if err != nil {
			return closeAll, err
		}
		closers = append(closers, pl.Close)
		r.sc.log = pl
	}
	if err := checkToolModes(ctx, r.opt, r.jobs); err != nil {
		return closeAll, err
	}
	if r.w, err = r.dir.appendRecords(); err != nil {
		return closeAll, err
	}
	// Closed again by finish; a second Close is harmless.
	closers = append(closers, r.w.Close)
	return closeAll, nil
}

// work runs one task per record, at most Concurrency at a time. A request
// the server will refuse every time (a parameter the model does not
// take), or a run of identical failures, stops the run instead of failing
// every question: the tasks' context ends the calls in flight, stopErr
// says what to change, and a stopped run feeds no more.
func (r *runner) work(ctx context.Context) {
	// Progress per mode and run starts from what earlier invocations did.
	r.modeDone = map[[2]string]int{}
	for k := range r.finished {
		r.modeDone[[2]string{k.mode, fmt.Sprint(k.run)}]++
	}
	done := len(r.finished)
	r.prog = Progress{Done: done, Total: len(r.jobs) + done, ModeTotal: PerRun(r.opt.Questions), Started: time.Now(), Resumed: done}
	stopAfter := r.cfg.StopAfter
	if stopAfter == 0 {
		stopAfter = DefaultStopAfter
	}
	r.brk = breaker{limit: stopAfter}
	wctx, stopRun := context.WithCancel(ctx)
	defer stopRun()
	stop := func(err error) {
		r.mu.Lock()
		if r.stopErr == nil {
			r.stopErr = err
		}
		r.mu.Unlock()
		stopRun()
	}
	var g errgroup.Group
	g.SetLimit(max(r.cfg.Concurrency, 1))
	for _, j := range r.jobs {
		if wctx.Err() != nil {
			break
		}
		g.Go(func() error {
			r.task(wctx, j, stop, stopRun)
			return nil
		})
	}
	_ = g.Wait() // every task reports through stop, writeErr and the records
}

// task evaluates one job and records it: written, counted, reported, and
// fed to the breaker.
func (r *runner) task(ctx context.Context, j job, stop func(error), stopWrites func()) {
	rec, fatal, callErr := evaluate(ctx, r.b, r.sv, r.sc, *j.q, j.mode, j.run)
	if fatal != nil {
		r.mu.Lock()
		n := r.prog.Done - r.prog.Resumed
		r.mu.Unlock()
		stop(fmt.Errorf("stopped after %d of %d records: %w", n, len(r.jobs), fatal))
		return
	}
	if ctx.Err() != nil && rec.Error != "" {
		return // interrupted: leave it for the next invocation
	}
	if err := r.w.write(rec); err != nil {
		r.mu.Lock()
		r.writeErr = err
		r.mu.Unlock()
		stopWrites()
		return
	}
	if rec.Error != "" {
		fmt.Fprintf(r.opt.Log, "%s [%s run %d]: %s\n", rec.QuestionID, rec.Mode, rec.Run, rec.Error)
	}
	r.mu.Lock()
	p := &r.prog
	p.Done++
	mk := [2]string{rec.Mode, fmt.Sprint(rec.Run)}
	r.modeDone[mk]++
	p.Mode, p.Run, p.ModeDone, p.Record = rec.Mode, rec.Run, r.modeDone[mk], rec
	if rec.Error != "" {
		p.Errors++
	}
	p.Retries += max(rec.Attempts-1, 0)
	p.Tokens += rec.Usage.PromptTokens + rec.Usage.CompletionTokens
	snapshot := *p
	tripped := r.brk.add(callErr)
	r.mu.Unlock()
	if r.opt.Progress != nil {
		r.opt.Progress(snapshot)
	}
	if tripped != nil {
		stop(tripped)
	}
}

// finish closes the records, rewrites them one line per record, and
// writes the summary, also when the run stopped early, so that what was
// done can be read and reported.
func (r *runner) finish(ctx context.Context) (Result, error) {
	res, dir := r.res, r.dir
	res.Done = r.prog.Done - len(r.finished)
	writeErr := r.writeErr
	if closeErr := r.w.Close(); writeErr == nil && closeErr != nil {
		writeErr = closeErr
	}
	if writeErr != nil {
		return res, fmt.Errorf("write %s: %w (the records before it are kept; free space and rerun the same command to finish)", dir.path(ResultsFile), writeErr)
	}
	// A rerun appends a redone record after the error it replaces; the
	// file is rewritten with one line per record, so that a script reading
	// it line by line never counts a question twice.
	_, cerr := compactResults(dir.path(ResultsFile))
	if cerr != nil {
		fmt.Fprintf(r.opt.Log, "note: %v; the superseded lines stay (readers keep the last record of each question)\n", cerr)
	}
	if r.stopErr == nil {
		if err := ctx.Err(); err != nil {
			return res, fmt.Errorf("interrupted after %d of %d records (rerun the same command to finish): %w", r.prog.Done, r.prog.Total, err)
		}
	}
	// The summary is made as the records are read, one at a time: a run
	// of 10,000 questions held whole took gigabytes.
	var err error
	if res.Summary, res.Errors, err = summarizeResults(dir.path(ResultsFile), cerr == nil, r.cfg, r.opt.Questions); err != nil {
		return res, err
	}
	if err := dir.WriteSummary(res.Summary); err != nil {
		return res, err
	}
	return res, r.stopErr
}

// preflight runs the endpoints' checks once. A paper setting the server
// refuses (temperature or top_p on a model that takes none, as OpenAI's
// o-series refuse temperature other than 1) is left out of every request
// and recorded in cfg.Dropped, so the run goes on with the departure
// stated; a field the user gave with a flag still stops the run, since the
// user asked for it.
func preflight(ctx context.Context, cfg Config, check func(context.Context, Sampling) error, logw io.Writer) (Config, error) {
	for range 3 { // temperature, top_p, then the verdict
		err := check(ctx, cfg.Sampling)
		var re *RequestError
		if !errors.As(err, &re) || re.Prefix != "" || !cfg.droppable(re.Param) {
			return cfg, err
		}
		why := fmt.Sprintf("the server refused %s in the preflight (%v), so it is left out of every request", re.Param, re.Err)
		cfg = cfg.drop(Dropped{Param: re.Param, Why: why})
		fmt.Fprintf(logw, "note: %s: the run departs from the paper's setting; see the Protocol block of the summary\n", why)
	}
	return cfg, check(ctx, cfg.Sampling)
}

// droppable reports whether a refused request field is a paper default
// the run may leave out: temperature or top_p that no flag asked for.
func (c Config) droppable(param string) bool {
	switch param {
	case "temperature":
		return c.Temperature != nil && !c.setByUser("temperature")
	case "top_p":
		return c.TopP != nil && !c.setByUser("top-p")
	}
	return false
}

// drop leaves a field out of the answering model's requests.
func (c Config) drop(d Dropped) Config {
	switch d.Param {
	case "temperature":
		c.Temperature = nil
	case "top_p":
		c.TopP = nil
	}
	c.Dropped = append(slices.Clone(c.Dropped), d)
	return c
}

// WithDropped is c with the answering model's request leaving out what
// the server refused (as a preflight records it).
func (c Config) WithDropped(d Dropped) Config { return c.drop(d) }

// adoptDropped applies the fields a folder's earlier run left out after a
// refusal, so that a resume asks the same and sends no refused request.
func adoptDropped(cfg Config) Config {
	old, err := Dir(cfg.Out).ReadConfig()
	if err != nil || old.Model != cfg.Model {
		return cfg
	}
	for _, d := range old.Dropped {
		if cfg.droppable(d.Param) {
			cfg = cfg.drop(d)
		}
	}
	return cfg
}

// breaker trips when limit model calls in a row failed the same way: a
// dead endpoint, a revoked key or an exhausted account would otherwise fail
// every remaining question, each after its retries.
type breaker struct {
	limit int
	sig   string
	n     int
	last  error
}

// add records one finished record's call error (nil for a good call) and
// returns a *BreakerError when the breaker trips.
func (b *breaker) add(err error) error {
	if b.limit < 0 {
		return nil
	}
	if err == nil {
		b.n, b.sig = 0, ""
		return nil
	}
	sig := errorKind(err.Error())
	if sig != b.sig {
		b.sig, b.n = sig, 0
	}
	b.n++
	b.last = err
	if b.n >= b.limit {
		return &BreakerError{N: b.n, Err: b.last}
	}
	return nil
}

// BreakerError stops a run whose last N calls all failed the same way.
type BreakerError struct {
	N   int
	Err error
}

func (e *BreakerError) Error() string {
	return fmt.Sprintf("stopped: the last %d model calls all failed the same way (%v); what finished is kept: fix the cause and rerun the same command to resume (--stop-after-failures sets how many)", e.N, e.Err)
}

func (e *BreakerError) Unwrap() error { return e.Err }

var digits = lazyregexp.MustCompile(`[0-9]+(\.[0-9]+)?(ms|s|m)?`)

// errorKind is an error message with its numbers (ports, attempts,
// durations, ids) blanked, so that the same failure on two questions
// compares equal.
func errorKind(msg string) string {
	msg = digits.ReplaceAllString(msg, "#")
	if len(msg) > 160 {
		msg = msg[:160]
	}
	return msg
}

// errorTally groups the error records by kind, one record at a time: a
// count and the first message of each kind.
type errorTally struct {
	byKind  map[string]int
	example map[string]string
}

func (t *errorTally) add(r Record) {
	if r.Error == "" {
		return
	}
	if t.byKind == nil {
		t.byKind, t.example = map[string]int{}, map[string]string{}
	}
	k := errorKind(r.Error)
	t.byKind[k]++
	if _, ok := t.example[k]; !ok {
		t.example[k] = r.Error
	}
}

// counts are the kinds of error, most frequent first.
func (t *errorTally) counts() []ErrorCount {
	var out []ErrorCount
	for k, n := range t.byKind {
		out = append(out, ErrorCount{Error: t.example[k], N: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].N != out[j].N {
			return out[i].N > out[j].N
		}
		return out[i].Error < out[j].Error
	})
	return out
}

// evaluate does one question under one mode and run. It never fails the
// run: every problem becomes the record's error, except a request the
// server refuses as such (see RequestError), which is returned as fatal.
//
// callErr is the model call's error, nil when the call succeeded or none
// was made, for the breaker.
func evaluate(ctx context.Context, b *builder, sv solver, sc scorer, q bench.Question, name string, run int) (r Record, fatal, callErr error) {
	// ScoreKind is set before anything can fail, so that a record that
	// ends in an error still says how it would have been scored: it counts
	// as wrong in accuracy (as the papers count every question) unless it
	// is a ROUGE-L case.
	r = Record{QuestionID: q.ID, PaperID: q.PaperID, Mode: name, Run: run, Model: b.cfg.Model, Paradigm: b.cfg.Paradigm,
		Gold: q.Answer, QuestionType: q.Type, Breakdown: q.Breakdown, Context: []ContextItem{}, ScoreKind: sc.kind(q)}
	defer func() {
		if p := recover(); p != nil {
			r.Error = fmt.Sprintf("internal error (please report): %v", p)
		}
	}()
	bt, err := b.build(ctx, q, name)
	r.Context, r.PromptTokens, r.TruncatedTokens, r.Cuts, r.Recall, r.Web = bt.context, bt.tokens, bt.truncated, bt.cuts, bt.recall, bt.web
	if u := bt.rerank; u != (model.Usage{}) && run == 1 {
		r.RerankUsage = &u
	}
	if r.Context == nil {
		r.Context = []ContextItem{}
	}
	if m, _ := mode.Lookup(name); m.Web && err == nil {
		n := 0
		for _, w := range r.Web {
			if w.Status == "ok" {
				n++
			}
		}
		r.WebResults = &n
	}
	if err != nil {
		r.Error = err.Error()
		return r, nil, nil
	}
	if sc.log != nil {
		if r.PromptSHA256, err = sc.log.put(bt.messages); err != nil {
			r.Error = err.Error()
			return r, nil, nil
		}
	}
	ans, err := sv.solve(ctx, q, name, run, bt)
	r.Output, r.Reasoning, r.Usage, r.LatencyMS, r.Cached, r.Attempts = ans.output, ans.reasoning, ans.usage, ans.latency.Milliseconds(), ans.cached, ans.attempts
	r.FinishReason, r.ReplyCut = ans.finish, ans.cut
	if ans.transcript != nil {
		r.Transcript = ans.transcript
		if ans.transcript.PromptTokens > 0 {
			// Every turn's prompt, not the first's alone (bt.tokens).
			r.PromptTokens = ans.transcript.PromptTokens
		}
		b.toolEvidence(q, ans.transcript, &r)
	}
	if m, _ := mode.Lookup(name); m.Route {
		// The offline baselines never decline: they answer on the passages.
		r.Route, r.RouteCalls = ans.route, ans.calls
		if r.Route == "" {
			r.Route = RouteRAG
		}
		if r.Route == RouteFull && bt.full != nil {
			r.PromptTokens += bt.full.tokens
			r.TruncatedTokens += bt.full.truncated
			r.Cuts = append(append([]assemble.Cut{}, r.Cuts...), bt.full.cuts...)
		}
	}
	r.Cited = parseCited(ans.output, r.Context)
	if err != nil {
		r.Error = err.Error()
		return r, refused(err, ""), err
	}
	fatal, callErr = sc.verdict(ctx, q, &r)
	return r, fatal, callErr
}

// verdict scores a record whose reply is in (Output, Reasoning,
// FinishReason, ReplyCut; ScoreKind says how): the one scoring path of an
// evaluation and of Rescore. In a tool mode or self-route, Output is the
// final answer, the one scored. It clears the verdict first, so that
// scoring a record again gives what scoring it fresh gives. An empty
// reply becomes the record's error; a judge call that fails is returned
// as callErr (and as fatal when the server refuses the request as such,
// see RequestError).
func (s scorer) verdict(ctx context.Context, q bench.Question, r *Record) (fatal, callErr error) {
	r.Extracted, r.Method, r.Extractor, r.Score = "", "", "", nil
	r.Miss, r.Correct, r.Truncated, r.JudgeReplyCut, r.JudgeUnreadable = false, false, false, false, false
	r.ReasoningAnswers, r.HarmfulVerification = nil, false
	if strings.TrimSpace(r.Output) == "" && strings.TrimSpace(r.Reasoning) == "" && r.FinishReason != "length" {
		r.Error = "empty reply from the model"
		if r.ReplyCut {
			r.Error = "the reply was longer than --max-reply-bytes and held no answer before the cut"
		}
		r.Miss = true
		return nil, nil
	}
	if err := s.score(ctx, q, r); err != nil {
		return refused(err, "judge-"), err
	}
	if r.FinishReason == "length" && (r.Miss || strings.TrimSpace(r.Output) == "") {
		r.Truncated, r.Correct = true, false
	}
	markReasoning(q, r)
	return nil, nil
}

// RequestError stops a run: the server refuses a request parameter, so
// every further call would fail the same way. It names the flag to change.
type RequestError struct {
	Param  string // the refused request parameter
	Flag   string // what to pass instead
	Prefix string // "" for the model under test, "judge-" for the judge
	Err    error
}

func (e *RequestError) Error() string {
	return fmt.Sprintf("the server refuses the request parameter %q: %s (%v)", e.Param, e.Flag, e.Err)
}

func (e *RequestError) Unwrap() error { return e.Err }

// refused turns an error naming a refused parameter into a RequestError
// that says which flag (with prefix "" or "judge-") changes it; other
// errors give nil.
func refused(err error, prefix string) error {
	p, ok := model.UnsupportedParam(err)
	if !ok {
		return nil
	}
	var hint string
	switch p {
	case "temperature":
		hint = "pass --" + prefix + "temperature none"
	case "top_p":
		hint = "pass --" + prefix + "top-p none"
	case "max_tokens":
		hint = "pass --" + prefix + "max-completion-tokens N (this model takes max_completion_tokens, not max_tokens)"
	case "max_completion_tokens":
		hint = "pass --" + prefix + "max-tokens N (this server takes max_tokens, not max_completion_tokens)"
	case "reasoning_effort":
		hint = "leave out --" + prefix + "reasoning-effort (this model has no reasoning effort setting)"
	case "seed":
		hint = "leave out --" + prefix + "seed"
	default:
		hint = "remove \"" + p + "\" from --" + prefix + "extra-body, or check the model name"
	}
	return &RequestError{Param: p, Flag: hint, Prefix: prefix, Err: err}
}

// scorer turns a reply into a verdict.
type scorer struct {
	cfg     Config
	judge   model.Chat
	prompts *prompts.Set
	header  http.Header // the judge's extra headers
	log     *promptLog  // --log-prompts: where each prompt is kept as sent
	// extract reads the letters of multiple-choice replies; the zero
	// value is extract.Current (tests give other rules).
	extract extract.Extractor
}

// kind is how a question is scored: "exact" (letters), "judge" or
// "rouge_l" (a short answer without a judge, which is not accuracy).
// LPFQA judges every task, multiple-choice ones included (§4);
// --lpfqa-mcq extract reads their letters instead, as do the runs without
// a judge (which report no overall accuracy; see Summary).
func (s scorer) kind(q bench.Question) string {
	judged := s.cfg.Bench == "lpfqa" && s.judge != nil && s.cfg.LPFQAMCQ != protocol.MCQExtract
	switch {
	case len(q.MCQ.Options) >= 2 && q.Type != "short" && !judged:
		return "exact"
	case s.judge == nil:
		return "rouge_l"
	}
	return "judge"
}

// score sets the verdict of the kind r.ScoreKind names (which evaluate
// sets from kind before the question is asked). Problems become r.Error;
// the judge's error is also returned, for the caller to tell a refused
// request from the rest.
func (s scorer) score(ctx context.Context, q bench.Question, r *Record) error {
	// LPFQA judges every task, multiple-choice ones included (§4);
	// --lpfqa-mcq extract reads their letters instead, as do the runs
	// without a judge (which report no overall accuracy; see Summary).
	switch r.ScoreKind {
	case "exact":
		reply := r.Output
		if strings.TrimSpace(reply) == "" && s.cfg.ExtractFromReasoning {
			// --extract-from-reasoning: a reasoning model that spent its
			// budget thinking is read from its thoughts, a departure from
			// the papers, which read the answer.
			reply = r.Reasoning
		}
		x := s.extract.OrCurrent()
		res := x.Extract(reply, q.MCQ.Letters(), q.MCQ.Options, q.Type == "MA-MCQ")
		r.Extracted, r.Method, r.Miss, r.Extractor = res.Letters, res.Method, res.Miss, x.Version
		r.Correct = !res.Miss && res.Letters == q.Answer
		return nil
	case "rouge_l":
		r.Extracted = strings.TrimSpace(r.Output)
		v := stats.RougeL(r.Output, q.Answer)
		r.Score = &v
		return nil
	case "judge":
	default:
		r.Error = fmt.Sprintf("internal error (please report): score kind %q", r.ScoreKind)
		return nil
	}
	r.Extracted = strings.TrimSpace(r.Output)
	if s.judge == nil {
		r.Error = "judge: no judge model to score a short answer (give --judge-model)"
		return nil
	}
	prompt, err := prompts.RenderJudge(s.prompts, q.JudgeTemplate, prompts.JudgeData{
		Question: q.Text, Reference: q.Answer, RawReference: q.Reference, KeyPoints: q.KeyPoints, Answer: r.Output})
	if err != nil {
		r.Error = fmt.Sprintf("judge prompt: %v", err)
		return nil
	}
	var msgs []model.Message
	if q.JudgeSystem != "" {
		msgs = append(msgs, model.Message{Role: "system", Content: q.JudgeSystem})
	}
	msgs = append(msgs, model.Message{Role: "user", Content: prompt})
	req := s.cfg.Judge.Request(s.cfg.JudgeModel, msgs, r.Run, s.header)
	if !s.cfg.SharePrompts {
		req.Scope = r.Mode
	}
	resp, err := s.judge.Complete(ctx, req)
	if err != nil {
		r.Error = fmt.Sprintf("judge: %v", err)
		return err
	}
	r.JudgeReplyCut = resp.Cut
	// The judge may think inline too; its verdict is in the answer.
	v, ok := parseVerdict(resp.Content)
	if !ok {
		// LPFQA's score is the mean over all tasks: a verdict that
		// cannot be read is a 0 that stays in the denominator, counted
		// apart so that a judge that rambles shows.
		zero := 0.0
		r.Score, r.Correct, r.JudgeUnreadable = &zero, false, true
		return nil
	}
	r.Score, r.Correct = &v, v >= 0.5
	return nil
}

// checkSameRun refuses to mix two different evaluations in one folder.
func checkSameRun(cfg Config) error {
	old, err := Dir(cfg.Out).ReadConfig()
	if err != nil {
		return nil // no earlier run, or one whose config cannot be read
	}
	// Folders written before paths were absolute hold the data path as
	// typed, relative to where eval ran: resolve it the same way.
	oldData, newData := old.Data, cfg.Data
	if a, err := filepath.Abs(oldData); err == nil {
		oldData = a
	}
	if a, err := filepath.Abs(newData); err == nil {
		newData = a
	}
	if old.DataSHA256 != "" && cfg.DataSHA256 != "" && old.DataSHA256 != cfg.DataSHA256 {
		return fmt.Errorf("%s holds a run on another version of %s (SHA-256 %.12s…, now %.12s…): use another --out, or restore the dataset to resume",
			cfg.Out, cfg.Data, old.DataSHA256, cfg.DataSHA256)
	}
	if old.Model != cfg.Model || old.Bench != cfg.Bench || old.Paradigm != cfg.Paradigm || oldData != newData {
		return fmt.Errorf("%s holds a run of %s on %s (%s); use another --out for %s on %s (%s)",
			cfg.Out, old.Model, old.Data, old.Paradigm, cfg.Model, cfg.Data, cfg.Paradigm)
	}
	if d := composeDiff(old.Compose, cfg.Compose); d != "" {
		return fmt.Errorf("%s holds a run on %s; finished answers would be mixed with new ones: use another --out, or the same --compose and --seed to resume", cfg.Out, d)
	}
	if d := contextDiff(old, cfg); d != "" {
		return fmt.Errorf("%s holds a run whose prompts were built differently (%s); finished answers would be mixed with new ones: use another --out, or the same flags to resume", cfg.Out, d)
	}
	if d := samplingDiff(old.Sampling, cfg.Sampling, ""); d != "" {
		return fmt.Errorf("%s holds a run with other request fields (%s); finished answers would be mixed with new ones: use another --out, or the same flags to resume", cfg.Out, d)
	}
	if old.JudgeModel != "" && old.Judge.MaxTokens > 0 {
		// (Runs from before the judge's fields were recorded have none.)
		if d := samplingDiff(old.Judge, cfg.Judge, "judge "); d != "" {
			return fmt.Errorf("%s holds a run with other judge request fields (%s): use another --out, or the same flags to resume", cfg.Out, d)
		}
	}
	return nil
}

// contextDiff names the settings that shape the prompts and differ between
// a folder's run and this one, with the flag that sets each. Settings an
// older config.json does not record are not compared.
func contextDiff(old, cur Config) string {
	var diffs []string
	str := func(flag, a, b string) {
		if a != "" && a != b {
			diffs = append(diffs, fmt.Sprintf("--%s %s, now %s", flag, a, orNone(b)))
		}
	}
	num := func(flag string, a, b int) {
		if a != 0 && a != b {
			diffs = append(diffs, fmt.Sprintf("--%s %d, now %d", flag, a, b))
		}
	}
	str("query", old.QueryForm, cur.QueryForm)
	// Unlike the settings above, "" is a value here: a run from before
	// the flag existed excluded nothing.
	if old.ExcludeKinds != cur.ExcludeKinds {
		diffs = append(diffs, fmt.Sprintf("--exclude-kinds %s, now %s", orNone(old.ExcludeKinds), orNone(cur.ExcludeKinds)))
	}
	str("order", old.Order, cur.Order)
	num("k", old.K, cur.K)
	num("budget", old.Budget, cur.Budget)
	num("passage-tokens", old.MaxPassageTokens, cur.MaxPassageTokens)
	absOf := func(p string) string {
		if a, err := filepath.Abs(p); err == nil && p != "" {
			return a
		}
		return p
	}
	if absOf(old.PromptDir) != absOf(cur.PromptDir) {
		diffs = append(diffs, fmt.Sprintf("--prompt-dir %s, now %s", orNone(old.PromptDir), orNone(cur.PromptDir)))
	}
	str("web-provider", old.WebProvider, cur.WebProvider)
	num("web-results", old.WebResults, cur.WebResults)
	num("web-tokens", old.WebTokens, cur.WebTokens)
	str("web-query", old.WebQuery, cur.WebQuery)
	num("max-tool-calls", old.MaxToolCalls, cur.MaxToolCalls)
	str("tool-retriever", old.ToolRetriever, cur.ToolRetriever)
	// Reranking: "" is a value (none), as for --exclude-kinds.
	if old.Rerank != cur.Rerank {
		diffs = append(diffs, fmt.Sprintf("--rerank %s, now %s", orNone(old.Rerank), orNone(cur.Rerank)))
	} else if old.Rerank != "" {
		num("rerank-depth", old.RerankDepth, cur.RerankDepth)
		str("rerank-model", old.RerankModel, cur.RerankModel)
		str("rerank-base-url", model.NormalizeEndpoint(old.RerankBaseURL), model.NormalizeEndpoint(cur.RerankBaseURL))
		str("rerank-protocol", old.RerankProtocol, cur.RerankProtocol)
	}
	// 0 is a value: a run from before --expand added no neighbours.
	if old.Expand != cur.Expand {
		diffs = append(diffs, fmt.Sprintf("--expand %d, now %d", old.Expand, cur.Expand))
	}
	str("route-retriever", old.RouteRetriever, cur.RouteRetriever)
	for _, f := range old.Retrieved {
		if g, ok := cur.RetrievedFile(mode.RunMode(f.Name)); ok && g.SHA256 != f.SHA256 {
			diffs = append(diffs, fmt.Sprintf("--retrieved %s: %s (SHA-256 %.12s…), now %s (SHA-256 %.12s…)", f.Name, f.Path, f.SHA256, g.Path, g.SHA256))
		}
	}
	str("bm25", old.BM25, cur.BM25)
	str("cot-prompt", old.CoTPrompt, cur.CoTPrompt)
	str("lpfqa-mcq", old.LPFQAMCQ, cur.LPFQAMCQ)
	// false is a value: sharing answers across modes changes which calls
	// are made, and extraction from reasoning changes the scores.
	if old.SharePrompts != cur.SharePrompts {
		diffs = append(diffs, fmt.Sprintf("--share-identical-prompts %t, now %t", old.SharePrompts, cur.SharePrompts))
	}
	if old.ExtractFromReasoning != cur.ExtractFromReasoning {
		diffs = append(diffs, fmt.Sprintf("--extract-from-reasoning %t, now %t", old.ExtractFromReasoning, cur.ExtractFromReasoning))
	}
	return strings.Join(diffs, "; ")
}

// samplingDiff names the request fields that differ between a and b, or
// gives "" when they ask the same. A folder written before max_tokens_param
// was recorded sent max_tokens.
func samplingDiff(a, b Sampling, prefix string) string {
	if a.MaxTokensParam == "" {
		a.MaxTokensParam = "max_tokens"
	}
	if b.MaxTokensParam == "" {
		b.MaxTokensParam = "max_tokens"
	}
	var diffs []string
	show := func(p *float64) string {
		if p == nil {
			return "none"
		}
		return strconv.FormatFloat(*p, 'g', -1, 64)
	}
	add := func(name, x, y string) {
		if x != y {
			diffs = append(diffs, fmt.Sprintf("%s%s %s, now %s", prefix, name, x, y))
		}
	}
	add("temperature", show(a.Temperature), show(b.Temperature))
	add("top_p", show(a.TopP), show(b.TopP))
	add("answer length", a.MaxTokensParam+" "+strconv.Itoa(a.MaxTokens), b.MaxTokensParam+" "+strconv.Itoa(b.MaxTokens))
	add("reasoning_effort", orNone(a.ReasoningEffort), orNone(b.ReasoningEffort))
	add("extra body", orNone(string(model.CanonicalJSON(a.ExtraBody))), orNone(string(model.CanonicalJSON(b.ExtraBody))))
	add("headers", orNone(strings.Join(a.HeaderNames, ",")), orNone(strings.Join(b.HeaderNames, ",")))
	seed := func(p *int64) string {
		if p == nil {
			return "none"
		}
		return strconv.FormatInt(*p, 10)
	}
	add("seed", seed(a.Seed), seed(b.Seed))
	return strings.Join(diffs, "; ")
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// Ask answers one ad-hoc question under one mode, returning the record and
// the passages it was given.
func Ask(ctx context.Context, opt Options, q bench.Question, name string) (Record, []retrieve.Hit, error) {
	cfg := opt.Config
	if cfg.Rerank != "" && opt.Rerank == nil {
		return Record{}, nil, fmt.Errorf("--rerank %s is set but no reranker was built (run.Options.Rerank)", cfg.Rerank)
	}
	ps, err := prompts.Load(cfg.PromptDir)
	if err != nil {
		return Record{}, nil, err
	}
	sv, err := newSolver(opt, nil)
	if err != nil {
		return Record{}, nil, err
	}
	b := newBuilder(opt, ps)
	r, fatal, _ := evaluate(ctx, b, sv, scorer{cfg: cfg, judge: opt.Judge, prompts: ps, header: opt.JudgeHeader}, q, name, 1)
	if fatal != nil {
		return r, nil, fatal
	}
	m, _ := mode.Lookup(name)
	retr := m.Retriever
	if m.Route && cfg.RouteRetriever != "" {
		retr = cfg.RouteRetriever
	}
	return r, b.retrieved[q.ID+"\x00"+retr], nil
}

// newSolver picks the solver for the configured model: an offline baseline
// or the model client.
func newSolver(opt Options, tc agent.ToolCache) (solver, error) {
	cfg := opt.Config
	switch cfg.Model {
	case "random":
		return randomSolver{seed: cfg.Seed}, nil
	case "ir":
		if opt.Index == nil {
			return nil, fmt.Errorf("the ir baseline needs the retrieval index")
		}
		return irSolver{ix: opt.Index, retriever: "bm25", threshold: cfg.IRThreshold, exclude: cfg.Excluded()}, nil
	}
	if opt.Chat == nil {
		return nil, fmt.Errorf("no model client for %s", cfg.Model)
	}
	return llmSolver{chat: opt.Chat, cfg: cfg, header: opt.Header, ix: opt.Index, web: opt.WebTools, toolCache: tc}, nil
}
