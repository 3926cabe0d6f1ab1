package cliflags

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/model"
)

// judgeTargets are where the judge flags store what they parse: eval's
// into its run.Config, rescore's into its run.Judge.
type judgeTargets struct {
	model, baseURL, keyEnv *string
	sampling               *run.Sampling
	req                    *requestFlags
}

// judgeHelp is what the judge flags say that differs between commands:
// what the judge does, and where its endpoint and key come from when not
// given.
type judgeHelp struct{ model, baseURL, keyEnv string }

// addJudgeFlags declares the judge's flags (--judge-model,
// --judge-base-url, --judge-api-key-env and the --judge-* request
// fields): the same names in eval, study, ask and rescore, and the same
// help but for what h says.
func addJudgeFlags(fl *pflag.FlagSet, t judgeTargets, h judgeHelp) {
	addRequestFlags(fl, "judge-", t.sampling, t.req)
	fl.StringVar(t.model, "judge-model", "", h.model)
	fl.StringVar(t.baseURL, "judge-base-url", "", "judge API root (default: "+h.baseURL+")")
	fl.StringVar(t.keyEnv, "judge-api-key-env", "", "environment variable holding the judge's key (default: "+h.keyEnv+")")
}

// addClientFlags declares the limits of every API call (eval's, study's,
// ask's and rescore's judge).
func addClientFlags(fl *pflag.FlagSet, cl *session.Clients) {
	fl.DurationVar(&cl.AttemptTimeout, "attempt-timeout", 10*time.Minute, "give up on one API call after this long and retry")
	fl.IntVar(&cl.MaxAttempts, "max-attempts", 6, "tries per API call before the question is recorded with an error")
	fl.Int64Var(&cl.MaxReplyBytes, "max-reply-bytes", model.DefaultMaxReplyBytes,
		"read at most this many bytes of a model's reply: a longer one (a model repeating itself) is cut while read, scored on what came before the cut, and its record says reply_cut")
	fl.DurationVar(&cl.ReadIdleTimeout, "read-idle-timeout", model.DefaultReadIdleTimeout,
		"give up on a reply whose body has begun and then sent nothing for this long, and retry. Counted from the reply's headers, not before them: a reasoning model may think for minutes before its first byte, which --attempt-timeout bounds. 0: off")
}

// checkClients refuses limits no call could work under.
func checkClients(cl session.Clients) error {
	if cl.MaxReplyBytes <= 0 {
		return fmt.Errorf("--max-reply-bytes %d: give a positive number of bytes (default %d, 4 MiB)", cl.MaxReplyBytes, model.DefaultMaxReplyBytes)
	}
	if cl.ReadIdleTimeout < 0 {
		return fmt.Errorf("--read-idle-timeout %v: give a duration such as 60s, or 0 for none", cl.ReadIdleTimeout)
	}
	return nil
}
