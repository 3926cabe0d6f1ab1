package run

import (
	"fmt"
	"slices"
)

// Rerun is a recorded run as the input of a new one (eval --config
// RUN/config.json): the config and overrides that Defaults resolves back
// to the config.json recorded, so that a caller can apply them first and
// the settings the user gives now on top.
type Rerun struct {
	Config    Config
	Overrides Overrides
}

// RerunOf turns a config.json as recorded (Dir.ReadConfig; files of every
// paperlens read, fields a file lacks taking their defaults) into a
// Rerun:
//
//   - The request fields the run sent become overrides, so that the new
//     run asks what the recorded one asked even where the protocol table
//     has changed since. A field the server refused (Dropped) is left to
//     the protocol and the preflight, which drops it again on a server
//     that still refuses it, with its reason.
//   - The provenance (data hash, build, embedder, command line) is left
//     out: the new run records its own.
//   - Everything else, flags_set and out included, is kept: a rerun into
//     the same out resumes the run; give another out to run it again.
//
// Header values and key variables' contents were never recorded: the
// caller gives them again (Sampling.HeaderNames names the headers).
func RerunOf(rec Config) Rerun {
	c := rec
	c.DataSHA256, c.Version, c.Revision, c.Embedder, c.VectorDim, c.Command = "", "", "", "", 0, nil
	c.Dropped = nil
	o := Overrides{Answer: recordedRequest(rec.Sampling, rec.Dropped)}
	// Configs from before the judge's fields were recorded have none:
	// its defaults apply.
	if rec.Judge.MaxTokens > 0 {
		o.Judge = recordedRequest(rec.Judge, nil)
	}
	return Rerun{Config: c, Overrides: o}
}

// recordedRequest is the overrides that ask for s again, leaving the
// dropped fields to the protocol.
func recordedRequest(s Sampling, dropped []Dropped) RequestOverrides {
	was := func(p string) bool {
		return slices.ContainsFunc(dropped, func(d Dropped) bool { return d.Param == p })
	}
	var o RequestOverrides
	if !was("temperature") {
		t := s.Temperature
		o.Temperature = &t
	}
	if !was("top_p") {
		p := s.TopP
		o.TopP = &p
	}
	if s.MaxTokens > 0 {
		n := s.MaxTokens
		if s.MaxTokensParam == "max_completion_tokens" {
			o.MaxCompletionTokens = &n
		} else {
			o.MaxTokens = &n
		}
	}
	return o
}

// Judge is the judge a rescore asks for (rescore's --judge-* flags).
type Judge struct {
	Model   string // --judge-model
	BaseURL string // --judge-base-url; "": the recorded one for the same judge, else the answering model's
	// Sampling's non-zero fields (--judge-reasoning-effort,
	// --judge-extra-body, --judge-seed, the --judge-header names) replace
	// the judge's; Overrides are --judge-temperature, --judge-top-p,
	// --judge-max-tokens and --judge-max-completion-tokens.
	Sampling  Sampling
	Overrides RequestOverrides
}

// WithJudge is c scored by judge j. For the judge c records (the same
// model), its recorded request fields are the starting point, so that the
// same judge asks the same (and its cached replies answer); for another,
// the judge's defaults are (temperature 0, 1,024 tokens). What j gives
// replaces them.
func (c Config) WithJudge(j Judge) (Config, error) {
	if j.Model == "" {
		return c, fmt.Errorf("no judge model: give --judge-model NAME")
	}
	var o RequestOverrides
	if j.Model == c.JudgeModel {
		if c.Judge.MaxTokens > 0 {
			o = recordedRequest(c.Judge, nil)
		}
		if j.BaseURL == "" {
			j.BaseURL = c.JudgeURL
		}
	} else {
		c.Judge = Sampling{}
	}
	given := j.Overrides
	if given.Temperature != nil {
		o.Temperature = given.Temperature
	}
	if given.TopP != nil {
		o.TopP = given.TopP
	}
	if given.MaxTokens != nil || given.MaxCompletionTokens != nil {
		o.MaxTokens, o.MaxCompletionTokens = given.MaxTokens, given.MaxCompletionTokens
		c.Judge.MaxTokensParam = ""
	}
	s := j.Sampling
	if s.ReasoningEffort != "" {
		c.Judge.ReasoningEffort = s.ReasoningEffort
	}
	if s.ExtraBody != nil {
		c.Judge.ExtraBody = s.ExtraBody
	}
	if s.Seed != nil {
		c.Judge.Seed = s.Seed
	}
	if s.HeaderNames != nil {
		c.Judge.HeaderNames = s.HeaderNames
	}
	c.JudgeModel, c.JudgeURL = j.Model, j.BaseURL
	c.judgeDefaults(o)
	if err := c.Judge.Validate("judge-"); err != nil {
		return c, err
	}
	return c, nil
}
