package cliflags

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
)

// AddConfig declares eval's --config RUN/config.json (fixed name): the
// run recorded there is the starting point, and only the flags given now
// change it.
func (f *Eval) AddConfig(fl *pflag.FlagSet) {
	fl.StringVar(&f.rerun, "config", "", "start from the run recorded in RUN/config.json (or the folder RUN): its settings, changed only by the flags given now. Its --out is kept, so an unchanged rerun resumes that run; give --out DIR for a fresh one")
}

// rerunOf is f as a rerun applies it: without --config, f itself (and a
// nil Rerun); with it, a copy of f whose run settings (the config, the
// modes, the reranker, the BM25 scorer) are the recorded ones with the
// flags the user gave set again over them.
func (f *Eval) rerunOf() (*Eval, *session.Rerun, error) {
	if f.rerun == "" {
		return f, nil, nil
	}
	rr, err := session.ReadRerun(f.rerun)
	if err != nil {
		return nil, nil, err
	}
	// The recorded values go where a fresh flag set keeps its flags'
	// values, and the flags the user gave are set again on it: a flag
	// given now wins, a flag left out keeps the recorded value.
	var g Eval
	gfl := pflag.NewFlagSet("rerun", pflag.ContinueOnError)
	g.Add(gfl)
	g.AddLabels(gfl) // eval's: a --labels given now replaces the recorded one
	g.Config, g.Modes, g.rerank = rr.Config, strings.Join(rr.Config.Modes, ","), rr.Rerank
	g.Index.BM25 = rr.Index.BM25
	if f.fl != nil {
		f.fl.Visit(func(given *pflag.Flag) {
			to := gfl.Lookup(given.Name)
			if to == nil || err != nil {
				return // a flag of the command, not of the run (--home, --config)
			}
			for _, v := range flagValues(given) {
				if e := to.Value.Set(v); e != nil {
					err = fmt.Errorf("--%s %s over --config %s: %w", given.Name, v, f.rerun, e)
				}
			}
		})
	}
	out := *f
	out.Config, out.Modes, out.rerank = g.Config, g.Modes, g.rerank
	out.Index.BM25 = g.Index.BM25
	return &out, &rr, err
}

// exactValue is a flag value that shows itself for --help in words that
// would not parse back to the same value ("" for none, a rounded size):
// exactString does.
type exactValue interface{ exactString() string }

// flagValues are the values that, set in turn on a fresh flag of the same
// kind, give it fl's value.
func flagValues(fl *pflag.Flag) []string {
	switch v := fl.Value.(type) {
	case pflag.SliceValue:
		return v.GetSlice()
	case exactValue:
		return []string{v.exactString()}
	}
	return []string{fl.Value.String()}
}

// mergeOverrides is the recorded request fields under those given now.
func mergeOverrides(rec, now run.Overrides) run.Overrides {
	return run.Overrides{Answer: mergeRequest(rec.Answer, now.Answer), Judge: mergeRequest(rec.Judge, now.Judge)}
}

func mergeRequest(rec, now run.RequestOverrides) run.RequestOverrides {
	if now.Temperature != nil {
		rec.Temperature = now.Temperature
	}
	if now.TopP != nil {
		rec.TopP = now.TopP
	}
	// One answer length, in either field: a length given now replaces
	// the recorded one, whichever field each is in.
	if now.MaxTokens != nil || now.MaxCompletionTokens != nil {
		rec.MaxTokens, rec.MaxCompletionTokens = now.MaxTokens, now.MaxCompletionTokens
	}
	return rec
}

// mergeNames is rec, then the names of now it lacks.
func mergeNames(rec, now []string) []string {
	out := slices.Clone(rec)
	for _, n := range now {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}
