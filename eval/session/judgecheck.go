package session

import (
	"context"
	"errors"
	"io"

	"github.com/paperlens/paperlens/eval/judgecheck"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/progress"
	"github.com/paperlens/paperlens/model"
)

// JudgeCheckRequest is `paperlens judge-check FILE` (fixed name): a judge
// checked against LFQA-E's expert labels, beside the static baselines.
type JudgeCheckRequest struct {
	// Options are the check's; Judge, Preflight and Progress are filled
	// here from the fields below.
	Options judgecheck.Options
	// Judge, when Judge.Model is set, is the judge to check (--judge-model
	// and the --judge-* flags), built as eval builds its judge: response
	// cache in OUT/judge, retries, rate limits, concurrency, preflight. Its
	// defaults are the eval judge's (temperature 0, 1,024 tokens); its
	// endpoint is Judge.BaseURL, else $OPENAI_BASE_URL, else OpenAI's.
	Judge run.Judge
	// Clients are the judge client's settings: JudgeKeyEnv (""
	// OPENAI_API_KEY), JudgeHeader, AttemptTimeout, MaxAttempts,
	// MaxReplyBytes, ReadIdleTimeout.
	Clients Clients
	// RPM and TPM limit the judge's requests and tokens per minute (0:
	// none).
	RPM, TPM int
	// Env overrides the process's environment (the key, the default URL);
	// nil: none.
	Env map[string]string
	// Log receives notes and failed judgments; nil: discarded.
	Log      io.Writer
	Progress Progress
}

// JudgeCheck runs judgecheck.Run with the judge's client built here: the
// output folder locked, the key checked, one preflight call when there is
// work left. Without a judge it computes the static baselines only.
func JudgeCheck(ctx context.Context, req JudgeCheckRequest) (judgecheck.Summary, error) {
	o := req.Options
	o.Log = req.Log
	if req.Judge.Model == "" {
		return judgecheck.Run(ctx, o)
	}
	if o.Out == "" {
		return judgecheck.Summary{}, errors.New("judge-check: a judge's check needs an output folder (--out DIR)")
	}
	cfg, err := run.Config{}.WithJudge(req.Judge)
	if err != nil {
		return judgecheck.Summary{}, err
	}
	cfg.Out, cfg.APIKeyEnv, cfg.Concurrency, cfg.RPM, cfg.TPM = o.Out, "OPENAI_API_KEY", max(o.Concurrency, 1), req.RPM, req.TPM
	cfg.BaseURL = lookup(req.Env, "OPENAI_BASE_URL")
	s := &Session{req: Request{Config: cfg, Clients: req.Clients, Env: req.Env, Log: req.Log}, cfg: cfg, flights: &model.Flights{}}
	defer s.Close()
	if err := s.lock(); err != nil {
		return judgecheck.Summary{}, err
	}
	check, err := s.openJudge()
	if err != nil {
		return judgecheck.Summary{}, err
	}
	url := cfg.JudgeURL
	if url == "" {
		url = cfg.BaseURL
	}
	o.Judge = &judgecheck.Judge{Chat: s.opt.Judge, Model: cfg.JudgeModel, URL: model.NormalizeEndpoint(url), Sampling: cfg.Judge, Header: req.Clients.JudgeHeader}
	o.Preflight = func(ctx context.Context) error { return check(ctx, run.Sampling{}) }
	if w := req.Progress.W; w != nil {
		rep := progress.NewEval(w, req.Progress.Terminal, req.Progress.Every).Named("judge-check")
		rep.Watch(s.flights.InFlight)
		defer rep.Close()
		o.Progress = func(p judgecheck.Progress) {
			rep.Update(run.Progress{Done: p.Done, Total: p.Total,
				Errors: p.Errors, Retries: p.Retries, Tokens: p.Tokens, Started: p.Started, Resumed: p.Resumed})
		}
	}
	return judgecheck.Run(ctx, o)
}
