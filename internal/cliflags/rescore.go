package cliflags

import (
	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
)

// Rescore is the flag set of `paperlens rescore RUN` (fixed names): the
// judge flags and call limits of eval, the same names and help, and where
// the run's dataset is now.
type Rescore struct {
	Data string // --data
	JSON bool   // --json

	judge       run.Judge
	judgeReq    requestFlags
	judgeKeyEnv string
	clients     session.Clients
}

// Add declares rescore's flags.
func (f *Rescore) Add(fl *pflag.FlagSet) {
	fl.StringVar(&f.Data, "data", "", "the run's dataset, when config.json's path no longer finds it (it must be the file the run was made with)")
	fl.BoolVar(&f.JSON, "json", false, "print what the rescore did as JSON (counts, the records whose verdict changed, the new summary)")
	addJudgeFlags(fl, judgeTargets{&f.judge.Model, &f.judge.BaseURL, &f.judgeKeyEnv, &f.judge.Sampling, &f.judgeReq},
		judgeHelp{"judge the short answers again with this model, and record it in config.json (without it the saved judge scores stay)",
			"the run's judge_base_url for the same judge, else its base_url", "the run's api_key_env"})
	addClientFlags(fl, &f.clients)
}

// Request is the rescore of the run folder dir the flags ask for (changed
// says which flags were given): home is the corpus home when --home was
// given ("" finds the run's); the environment and log are the
// invocation's. A malformed judge flag is a usage error, before anything
// is read.
func (f *Rescore) Request(dir, home string, inv Invocation, changed func(string) bool) (session.RescoreRequest, error) {
	j := f.judge
	o, header, err := f.judgeReq.apply(&j.Sampling, changed, 0)
	if err != nil {
		return session.RescoreRequest{}, err
	}
	j.Overrides = o
	cl := f.clients
	if err := checkClients(cl); err != nil {
		return session.RescoreRequest{}, err
	}
	cl.JudgeKeyEnv, cl.JudgeHeader = f.judgeKeyEnv, header
	return session.RescoreRequest{Dir: dir, Data: f.Data, Home: home, Judge: j, Clients: cl, Env: inv.Env, Log: inv.Log}, nil
}
