package cliflags

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/eval/judgecheck"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
)

// JudgeCheckOut is judge-check's default output folder for a judge, under
// which the model's name is appended.
const JudgeCheckOut = "runs/judge-check-"

// JudgeCheck is the flag set of `paperlens judge-check` (fixed names): the
// judge flags and call limits of eval and rescore, the same names and
// help, and the check's own.
type JudgeCheck struct {
	o          judgecheck.Options
	staticOnly bool
	lpfqa      string
	lpfqaData  string
	asJSON     bool
	rpm, tpm   int
	every      time.Duration

	judge       run.Judge
	judgeReq    requestFlags
	judgeKeyEnv string
	clients     session.Clients
}

// Add declares judge-check's flags.
func (f *JudgeCheck) Add(fl *pflag.FlagSet) {
	o := &f.o
	fl.StringVar(&o.Out, "out", "", "output folder: config.json, results.jsonl (one line per judgment, appended as each ends), summary.json and the judge's response cache; rerunning with the same folder resumes (default "+JudgeCheckOut+"MODEL with a judge, none without)")
	fl.IntVar(&o.Limit, "limit", 0, "check only the first N comparisons of the file (0: all); for trying a judge before paying for it")
	fl.IntVar(&o.Concurrency, "concurrency", 8, "judgments in flight")
	fl.BoolVar(&o.Swap, "swap", true, "judge each comparison a second time with the answers swapped, for position consistency (--swap=false: once)")
	fl.StringVar(&o.Vs, "vs", "", "another judge-check folder made on the same file: Cohen's κ between its judge and this one")
	fl.StringVar(&o.PromptDir, "prompt-dir", "", "folder of prompt templates overriding the built-in ones (see eval/prompts/templates; judge-check's is lfqae_judge.tmpl)")
	fl.BoolVar(&f.staticOnly, "static-only", false, "report only the static baselines (length, ROUGE-L), offline, even with --judge-model")
	fl.StringVar(&f.lpfqa, "lpfqa", "", "instead of FILE: an LPFQA eval run folder made with a judge; reports how the judge's verdicts on its multiple-choice rows agree with letter extraction")
	fl.StringVar(&f.lpfqaData, "lpfqa-data", "", "with --lpfqa: the run's dataset, when config.json's path no longer finds it (it must be the file the run was made with)")
	fl.BoolVar(&f.asJSON, "json", false, "print the summary as JSON (the figures summary.json holds)")
	fl.IntVar(&f.rpm, "rpm", 0, "requests per minute limit (0: none)")
	fl.IntVar(&f.tpm, "tpm", 0, "tokens per minute limit (0: none)")
	fl.DurationVar(&f.every, "progress-every", 10*time.Second, "on a non-terminal stderr, print a progress line at least this often")
	addJudgeFlags(fl, judgeTargets{&f.judge.Model, &f.judge.BaseURL, &f.judgeKeyEnv, &f.judge.Sampling, &f.judgeReq},
		judgeHelp{"the judge to check: any OpenAI-compatible model, asked to compare each pair three ways (without it, or with --static-only, only the static baselines are computed)",
			"$OPENAI_BASE_URL, else https://api.openai.com/v1", "OPENAI_API_KEY"})
	addClientFlags(fl, &f.clients)
}

// Request is the check the flags and args (FILE) ask for (changed says
// which flags were given). A malformed flag is a usage error, before
// anything is read.
func (f *JudgeCheck) Request(args []string, inv Invocation, changed func(string) bool) (session.JudgeCheckRequest, error) {
	if len(args) != 1 {
		return session.JudgeCheckRequest{}, errors.New("give the file of comparisons: paperlens judge-check FILE (LFQA-E's format), or --lpfqa RUN")
	}
	o := f.o
	o.File = args[0]
	if o.Limit < 0 || o.Concurrency < 1 {
		return session.JudgeCheckRequest{}, fmt.Errorf("--limit %d, --concurrency %d: give a limit of 0 (all) or more, and 1 or more judgments in flight", o.Limit, o.Concurrency)
	}
	j := f.judge
	if f.staticOnly {
		j = run.Judge{}
	}
	if j.Model == "" {
		if o.Vs != "" {
			return session.JudgeCheckRequest{}, errors.New("--vs compares two judges: give this run's --judge-model too (and the --out of its folder to read it again)")
		}
		return session.JudgeCheckRequest{Options: o, Env: inv.Env, Log: inv.Log}, nil
	}
	ov, header, err := f.judgeReq.apply(&j.Sampling, changed, 0)
	if err != nil {
		return session.JudgeCheckRequest{}, err
	}
	j.Overrides = ov
	cl := f.clients
	if err := checkClients(cl); err != nil {
		return session.JudgeCheckRequest{}, err
	}
	cl.JudgeKeyEnv, cl.JudgeHeader = f.judgeKeyEnv, header
	if o.Out == "" {
		o.Out = filepath.FromSlash(JudgeCheckOut + session.SafeName(j.Model))
	}
	return session.JudgeCheckRequest{Options: o, Judge: j, Clients: cl, RPM: f.rpm, TPM: f.tpm, Env: inv.Env, Log: inv.Log,
		Progress: session.Progress{W: inv.Progress, Terminal: inv.Terminal, Every: f.every}}, nil
}

// Run runs the check the flags ask for and prints its summary to stdout:
// JSON with --json (raw), else tables to out (escaped for a terminal).
// failed counts the judgments that failed (the error then says to run
// again); err alone is a failure of the command itself.
func (f *JudgeCheck) Run(ctx context.Context, args []string, inv Invocation, changed func(string) bool, stdout, out io.Writer) (failed int, err error) {
	if f.lpfqa != "" {
		if len(args) > 0 {
			return 0, fmt.Errorf("--lpfqa %s reads a run folder: give no FILE with it (got %s)", f.lpfqa, args[0])
		}
		a, err := judgecheck.LPFQA(f.lpfqa, f.lpfqaData)
		if err != nil {
			return 0, err
		}
		return 0, f.print(stdout, out, a, a.WriteText)
	}
	req, err := f.Request(args, inv, changed)
	if err != nil {
		return 0, err
	}
	s, err := session.JudgeCheck(ctx, req)
	var fe *judgecheck.FailedError
	if err != nil && !errors.As(err, &fe) {
		return 0, err
	}
	if perr := f.print(stdout, out, s, s.WriteText); perr != nil {
		return 0, perr
	}
	if fe != nil {
		return fe.Failed, fe
	}
	return 0, nil
}

// print writes v as JSON to stdout with --json, else text to out.
func (f *JudgeCheck) print(stdout, out io.Writer, v any, text func(io.Writer) error) error {
	if !f.asJSON {
		return text(out)
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = stdout.Write(append(b, '\n'))
	return err
}
