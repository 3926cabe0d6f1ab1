package cliflags

import (
	"bytes"
	"fmt"
	"io"

	"github.com/google/renameio/v2"
	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/eval/compose"
	"github.com/paperlens/paperlens/eval/run"
)

// Compose is the flag set of `paperlens compose` (fixed names).
type Compose struct {
	Data  string // --data: the source benchmark
	Bench string // --bench: its format
	Out   string // --out: the composed file; "-": standard output
	// Spec is the shape (--statements, --options, --per-option),
	// --questions, --accuracy and --seed.
	Spec compose.Spec
}

// Add declares compose's flags, the shape's defaults the paper's.
func (f *Compose) Add(fl *pflag.FlagSet) {
	f.Spec.Defaults()
	fl.StringVar(&f.Data, "data", "", "the source benchmark (.jsonl, .json or .parquet) whose options have known truth")
	fl.StringVar(&f.Bench, "bench", "elaipbench", "the source's format: elaipbench, or jsonl (paperlens's own)")
	fl.Var(&f.Spec.Statements, "statements", "statements per question (Encyclo-K §4.1)")
	fl.Var(&f.Spec.Options, "options", "options per question, lettered A, B, … (at most 10; Encyclo-K §4.1)")
	fl.Var(&f.Spec.PerOption, "per-option", "statements combined in each option (Encyclo-K §4.1)")
	fl.IntVar(&f.Spec.Questions, "questions", 0, "questions to compose, shared among the papers in proportion to their statements (0: as many as the source has on the papers that can be composed)")
	fl.StringVar(&f.Spec.Accuracy, "accuracy", compose.Mixed, "what a question asks for: correct (the one option whose statements are all true), incorrect (all false), or mixed (each question draws one)")
	fl.Int64Var(&f.Spec.Seed, "seed", 1, "seed of every draw: the same source and seed give the same file, byte for byte")
	fl.StringVar(&f.Out, "out", "", "the composed benchmark (JSONL for eval --bench jsonl), written whole or not at all; - for standard output")
}

// Run composes as the flags ask: it reads --data, composes, writes --out,
// and says on log each row the loader reported, each paper or question
// left out and why, and what was written. Nothing is written when no
// question can be composed (the error says why).
func (f *Compose) Run(stdout, log io.Writer) error {
	if f.Data == "" {
		return fmt.Errorf("--data FILE is required: an ElaipBench file, or paperlens JSONL with --bench jsonl")
	}
	if f.Out == "" {
		return fmt.Errorf("--out FILE is required (- writes to standard output)")
	}
	if f.Bench != "elaipbench" && f.Bench != "jsonl" {
		return fmt.Errorf("--bench %q: use elaipbench or jsonl (a source whose questions have papers and options of known truth)", f.Bench)
	}
	if err := f.Spec.Validate(); err != nil {
		return err
	}
	qs, problems, err := run.LoadQuestions(run.Config{Bench: f.Bench, Data: f.Data})
	for _, p := range problems {
		fmt.Fprintf(log, "%s:%s\n", f.Data, p)
	}
	if err != nil {
		return err
	}
	set, err := compose.Compose(qs, f.Spec)
	for _, s := range set.Skipped {
		fmt.Fprintf(log, "%s:%s\n", f.Data, s)
	}
	if err != nil {
		return fmt.Errorf("compose %s: %w", f.Data, err)
	}
	var buf bytes.Buffer
	if err := set.WriteJSONL(&buf); err != nil {
		return err
	}
	if f.Out == "-" {
		_, err = stdout.Write(buf.Bytes())
		return err
	}
	if err := renameio.WriteFile(f.Out, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", f.Out, err)
	}
	fmt.Fprintf(log, "wrote %s: %s\nevaluate it: paperlens eval --bench jsonl --data %s --model NAME\n", f.Out, set.Summary(), f.Out)
	return nil
}

// AddCompose declares eval's --compose (fixed name): the questions are
// composed from --data for each run instead of read from it.
func (f *Eval) AddCompose(fl *pflag.FlagSet) {
	fl.StringVar(&f.compose, "compose", "", "evaluate questions composed from --data in Encyclo-K's form, drawn afresh for each run (run r from seed --seed + r; the run folder's default name ends in -composed): default (the paper's shape) or the compose command's settings as key=value, e.g. options=4-8,questions=40,accuracy=correct (see paperlens compose --help)")
}

// composeSpec is --compose as a session asks for it; nil when not given.
func (f *Eval) composeSpec(changed func(string) bool) (*compose.Spec, error) {
	if !changed("compose") {
		return nil, nil
	}
	sp, err := compose.ParseSpec(f.compose)
	if err != nil {
		return nil, err
	}
	return &sp, nil
}
