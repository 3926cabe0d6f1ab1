package session

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/progress"
	"github.com/paperlens/paperlens/model"
)

// Session is one run's resources, open: the corpus and its index, the web
// search, the model clients and the run folder's lock. Close releases them
// in the reverse order of their opening.
type Session struct {
	req     Request
	cfg     run.Config
	opt     run.Options
	flights *model.Flights // every model call of the run, for the progress line
	closers []func() error
}

func (s *Session) onClose(f func() error) { s.closers = append(s.closers, f) }

// Close releases what the session opened, last first.
func (s *Session) Close() error {
	var first error
	for i := len(s.closers) - 1; i >= 0; i-- {
		if err := s.closers[i](); err != nil && first == nil {
			first = err
		}
	}
	s.closers = nil
	return first
}

// Prepare resolves a request's config as config.json will record it: the
// protocol's defaults under the user's overrides, the default run folder,
// the endpoint from the environment, the reranker, the checks and the
// provenance (absolute paths, the dataset's hash, the build, the command).
func Prepare(req Request) (run.Config, error) {
	c := req.Config
	// The scorer behind bm25, recorded in config.json: the index settings
	// own it.
	c.BM25 = req.Index.Scorer()
	c.IndexStores = req.Index.Recorded()
	c.Defaults(&req.Overrides)
	composeRuns(&c, req.Compose)
	if c.Out == "" {
		c.Out = DefaultFolder(c)
	}
	if c.BaseURL == "" {
		c.BaseURL = req.Getenv("OPENAI_BASE_URL")
	}
	if err := req.Rerank.apply(&c, envOf(req.Env)); err != nil {
		return c, err
	}
	if len(req.Retrieved) > 0 {
		files, err := retrievedFiles(req.Retrieved)
		if err != nil {
			return c, err
		}
		c.Retrieved = files
	}
	if err := c.Validate(); err != nil {
		return c, err
	}
	return c, describe(&c, req.Command)
}

// Questions reads a benchmark file in the config's format, logging each
// bad row with its line number.
func Questions(c run.Config, logw io.Writer) ([]bench.Question, error) {
	qs, problems, err := run.LoadQuestions(c)
	for _, p := range problems {
		fmt.Fprintf(logOf(logw), "%s:%s\n", cmp.Or(p.File, c.Data), p)
	}
	return qs, err
}

// Eval runs one evaluation: the config resolved, the questions loaded,
// what the modes need opened, the folder locked, the clients built and
// checked, then run.Run. A dry run returns the plan instead and sends
// nothing.
func Eval(ctx context.Context, req Request) (run.Result, *run.Plan, error) {
	c, err := Prepare(req)
	if err != nil {
		return run.Result{}, nil, err
	}
	s := &Session{req: req, cfg: c}
	defer s.Close()
	if !c.Offline() && !req.DryRun {
		if err := s.checkKey(c.BaseURL, c.APIKeyEnv, ""); err != nil {
			return run.Result{}, nil, err
		}
	}
	qs, err := Questions(c, req.Log)
	if err != nil {
		return run.Result{}, nil, err
	}
	if c.Limit > 0 && len(qs) > c.Limit {
		qs = qs[:c.Limit]
	}
	if err := s.openData(ctx, qs); err != nil {
		return run.Result{}, nil, err
	}
	if err := s.openSearch(); err != nil {
		return run.Result{}, nil, err
	}
	if req.DryRun {
		dryRunNote(s.cfg, req.log())
		p, err := run.DryRun(ctx, s.opt)
		if err != nil {
			return run.Result{}, nil, err
		}
		return run.Result{Dir: s.cfg.Out}, &p, nil
	}
	if err := s.lock(); err != nil {
		return run.Result{}, nil, err
	}
	if err := s.openModels(); err != nil {
		return run.Result{}, nil, err
	}
	res, err := s.run(ctx)
	return res, nil, err
}

// openData ingests the papers and opens the corpus and index when the
// modes need them: a paper in the prompt, retrieval, the ir baseline
// (which ranks options by retrieval) or the corpus web provider (which
// searches the index).
func (s *Session) openData(ctx context.Context, qs []bench.Question) error {
	c := s.cfg
	s.opt = run.Options{Config: c, Questions: qs, Log: s.req.log(), Header: s.req.Clients.Header, JudgeHeader: s.req.Clients.JudgeHeader}
	n := mode.NeedsOf(c.Modes)
	needIndex := n.Index || c.Model == "ir" || (n.Web && c.WebProvider == "corpus")
	if !n.Corpus && !needIndex {
		return nil
	}
	qs, err := EnsurePapers(ctx, s.papers(c.Home, c.MaxPassageTokens), qs)
	if err != nil {
		return err
	}
	s.opt.Questions = qs
	if !needIndex {
		st, err := corpus.Open(c.Home, true)
		if err != nil {
			return err
		}
		s.onClose(st.Close)
		s.opt.Corpus = st
		return nil
	}
	st, ix, rep, err := OpenIndex(ctx, c.Home, s.index(), s.req.Log)
	if err != nil {
		return err
	}
	s.onClose(st.Close)
	s.onClose(ix.Close)
	s.opt.Corpus, s.opt.Index = st, ix
	if len(c.Retrieved) > 0 {
		runs, err := openRuns(c.Retrieved, st, qs)
		if err != nil {
			return err
		}
		s.opt.Index = withRuns{base: ix, runs: runs}
	}
	s.cfg.Embedder, s.cfg.VectorDim = rep.Embedder, rep.Dim
	s.opt.Config = s.cfg
	return nil
}

// papers is where the run's papers come from and go.
func (s *Session) papers(home string, maxTokens int) Papers {
	return Papers{Home: home, Data: s.cfg.Data, Dir: s.cfg.Papers, MaxTokens: maxTokens, Log: s.req.Log, Isolation: s.isolation()}
}

// index is the request's index settings, with its environment.
func (s *Session) index() Index {
	x := s.req.Index
	if x.Env == nil {
		x.Env = s.req.Env
	}
	return x
}

// openSearch builds the web search of the web modes and the engine
// tool-search's tools call. A dry run fetches web results only where that
// costs nothing (the offline corpus provider, replay from the web cache)
// and builds no tools.
func (s *Session) openSearch() error {
	c, dry := s.cfg, s.req.DryRun
	n := mode.NeedsOf(c.Modes)
	if n.Web && (!dry || c.WebProvider == "corpus" || c.WebReplay) {
		ws, err := s.openWeb()
		if err != nil {
			return err
		}
		s.opt.Web = ws
	}
	if n.WebTools && !dry && !c.Offline() {
		wt, err := s.openWebTools()
		if err != nil {
			return err
		}
		s.opt.WebTools = wt
	}
	return nil
}

// lock takes the run folder's writer lock. It comes before the clients:
// the response cache inside the folder would otherwise report a second
// eval as a busy cache file.
func (s *Session) lock() error {
	unlock, err := run.Dir(s.cfg.Out).Lock()
	if err != nil {
		return err
	}
	s.onClose(func() error { unlock(); return nil })
	s.opt.FolderLocked = true
	return nil
}

// openModels builds the answer, reranker and judge clients and the
// preflight: one cheap call per endpoint before the first real one
// (run.Run makes it only when there is work left, so a finished run sends
// nothing).
func (s *Session) openModels() error {
	c, cl := s.cfg, s.req.Clients
	s.flights = &model.Flights{}
	var checks []func(context.Context, run.Sampling) error
	if !c.Offline() {
		chat, err := s.newChat(c.Out, c.BaseURL, c.APIKeyEnv, c.Concurrency)
		if err != nil {
			return err
		}
		s.opt.Chat = chat
		// The run passes its request fields, less any paper setting a
		// refusal made it leave out.
		checks = append(checks, func(ctx context.Context, sm run.Sampling) error {
			return s.preflight(ctx, c.BaseURL, c.APIKeyEnv, c.Model, sm, cl.Header, "")
		})
	}
	rr, err := s.forRun(s.opt.Chat, c.Out)
	if err != nil {
		return err
	}
	s.opt.Rerank = rr
	if p, ok := rr.(interface{ Probe(context.Context) error }); ok {
		checks = append(checks, func(ctx context.Context, _ run.Sampling) error { return p.Probe(ctx) })
	}
	if c.JudgeModel != "" {
		check, err := s.openJudge()
		if err != nil {
			return err
		}
		checks = append(checks, check)
	}
	s.opt.Preflight = func(ctx context.Context, sm run.Sampling) error {
		for _, check := range checks {
			if err := check(ctx, sm); err != nil {
				return err
			}
		}
		return nil
	}
	return nil
}

// openJudge builds the LPFQA judge's client (at the judge's URL, else the
// model's, with its own key variable, else the model's) and returns its
// preflight.
func (s *Session) openJudge() (func(context.Context, run.Sampling) error, error) {
	c, cl := s.cfg, s.req.Clients
	base := c.JudgeURL
	if base == "" {
		base = c.BaseURL
	}
	keyEnv := cl.JudgeKeyEnv
	if keyEnv == "" {
		keyEnv = c.APIKeyEnv
	}
	if err := s.checkKey(base, keyEnv, "judge-"); err != nil {
		return nil, err
	}
	judge, err := s.newChat(filepath.Join(c.Out, "judge"), base, keyEnv, c.Concurrency)
	if err != nil {
		return nil, err
	}
	s.opt.Judge = judge
	return func(ctx context.Context, _ run.Sampling) error {
		return s.preflight(ctx, base, keyEnv, c.JudgeModel, c.Judge, cl.JudgeHeader, "judge-")
	}, nil
}

// run runs the evaluation with its progress reported.
func (s *Session) run(ctx context.Context) (run.Result, error) {
	p := s.req.Progress
	w := p.W
	if w == nil {
		w = io.Discard
	}
	rep := progress.NewEval(w, p.Terminal, p.Every)
	rep.Watch(s.flights.InFlight)
	s.opt.Progress = rep.Update
	res, err := run.Run(ctx, s.opt)
	rep.Close()
	return res, err
}
