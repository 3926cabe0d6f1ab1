package compose

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Range is an inclusive count range, written "8-10" (or "8" for 8-8) in
// flags and JSON.
type Range struct{ Min, Max int }

// ParseRange reads "MIN-MAX" or "N".
func ParseRange(s string) (Range, error) {
	s = strings.TrimSpace(s)
	lo, hi, isRange := strings.Cut(s, "-")
	a, err := strconv.Atoi(strings.TrimSpace(lo))
	if err != nil {
		return Range{}, fmt.Errorf("%q is not a count or a range MIN-MAX (e.g. 8-10)", s)
	}
	b := a
	if isRange {
		if b, err = strconv.Atoi(strings.TrimSpace(hi)); err != nil {
			return Range{}, fmt.Errorf("%q is not a range MIN-MAX (e.g. 8-10)", s)
		}
	}
	if a < 1 || b < a {
		return Range{}, fmt.Errorf("range %q: want 1 <= MIN <= MAX", s)
	}
	return Range{a, b}, nil
}

// String is "8-10", or "8" when Min == Max.
func (r Range) String() string {
	if r.Min == r.Max {
		return strconv.Itoa(r.Min)
	}
	return fmt.Sprintf("%d-%d", r.Min, r.Max)
}

// Set and Type make a *Range a command-line flag value.
func (r *Range) Set(s string) error {
	v, err := ParseRange(s)
	if err == nil {
		*r = v
	}
	return err
}

// Type names the value in --help.
func (r *Range) Type() string { return "MIN-MAX" }

// MarshalText writes the range as String does.
func (r Range) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads what MarshalText writes.
func (r *Range) UnmarshalText(b []byte) error { return r.Set(string(b)) }

// The accuracy a question asks for (A.3's ACCURACY_TEMPLATES keys), and
// Mixed: each question draws one of the two.
const (
	Correct   = "correct"
	Incorrect = "incorrect"
	Mixed     = "mixed"
)

// Spec is the shape of a composition (fixed JSON: config.json records it
// for eval --compose). The zero value of a field means the paper's
// default (Defaults).
type Spec struct {
	// Statements per question, options per question, and statements per
	// option: Encyclo-K §4.1's 8-10, 4-8 and 2-4.
	Statements Range `json:"statements"`
	Options    Range `json:"options"`
	PerOption  Range `json:"per_option"`
	// Questions is how many to compose, shared among the papers in
	// proportion to their statements; 0: as many as the source has
	// multiple-choice questions on the papers that can be composed.
	Questions int `json:"questions,omitempty"`
	// Accuracy is what the questions ask for: correct (the option whose
	// statements are all true), incorrect (all false) or mixed (each
	// question draws one).
	Accuracy string `json:"accuracy"`
	// Seed decides every draw: the same source and seed give the same
	// questions, byte for byte.
	Seed int64 `json:"seed"`
	// RunSeeds are the seeds of eval --compose's runs (run r: Seed + r),
	// recorded in config.json; Compose itself reads only Seed.
	RunSeeds []int64 `json:"run_seeds,omitempty"`
}

// The paper's shape (Encyclo-K §4.1).
var (
	DefaultStatements = Range{8, 10}
	DefaultOptions    = Range{4, 8}
	DefaultPerOption  = Range{2, 4}
)

// maxOptions is the most options a question can have: letters A–J, as
// the loaders read them.
const maxOptions = 10

// Defaults fills the zero fields with the paper's values.
func (s *Spec) Defaults() {
	if s.Statements == (Range{}) {
		s.Statements = DefaultStatements
	}
	if s.Options == (Range{}) {
		s.Options = DefaultOptions
	}
	if s.PerOption == (Range{}) {
		s.PerOption = DefaultPerOption
	}
	if s.Accuracy == "" {
		s.Accuracy = Mixed
	}
}

// Validate says what is wrong with a shape, naming the flag to change.
func (s Spec) Validate() error {
	var errs []error
	for _, r := range []struct {
		name string
		r    Range
	}{{"statements", s.Statements}, {"options", s.Options}, {"per-option", s.PerOption}} {
		if r.r.Min < 1 || r.r.Max < r.r.Min {
			errs = append(errs, fmt.Errorf("--%s %s: want 1 <= MIN <= MAX", r.name, r.r))
		}
	}
	if s.Options.Min < 2 {
		errs = append(errs, fmt.Errorf("--options %s: a question needs at least 2 options", s.Options))
	}
	if s.Options.Max > maxOptions {
		errs = append(errs, fmt.Errorf("--options %s: at most %d options (letters A–J)", s.Options, maxOptions))
	}
	if s.PerOption.Min >= s.Statements.Max {
		errs = append(errs, fmt.Errorf("--per-option %s with --statements %s: the correct option must leave out at least one statement, so per-option's MIN must be below statements' MAX", s.PerOption, s.Statements))
	}
	if s.Questions < 0 {
		errs = append(errs, fmt.Errorf("--questions %d: want 0 (as many as the source has) or more", s.Questions))
	}
	switch s.Accuracy {
	case Correct, Incorrect, Mixed:
	default:
		errs = append(errs, fmt.Errorf("--accuracy %q: want correct, incorrect or mixed", s.Accuracy))
	}
	return errors.Join(errs...)
}

// ForRun is the spec of eval --compose's run r (from 1): its seed is
// Seed + r, so each run draws fresh questions and a rerun the same ones.
func (s Spec) ForRun(r int) Spec {
	s.Seed += int64(r)
	s.RunSeeds = nil
	return s
}

// WithRuns is s with RunSeeds filled for runs 1..n, as config.json
// records them.
func (s Spec) WithRuns(n int) Spec {
	s.RunSeeds = make([]int64, n)
	for r := 1; r <= n; r++ {
		s.RunSeeds[r-1] = s.ForRun(r).Seed
	}
	return s
}

// ParseSpec reads eval's --compose value: "default" (the paper's shape)
// or comma-separated settings, each named as the compose command's flag:
// statements=8-10, options=4-8, per-option=2-4, questions=N,
// accuracy=correct|incorrect|mixed. Settings left out keep the paper's
// values. The seed is not among them: eval's --seed is.
func ParseSpec(v string) (Spec, error) {
	var s Spec
	v = strings.TrimSpace(v)
	if v != "" && v != "default" {
		for _, kv := range strings.Split(v, ",") {
			if err := s.set(kv); err != nil {
				return Spec{}, fmt.Errorf("--compose %q: %w", v, err)
			}
		}
	}
	s.Defaults()
	return s, s.Validate()
}

// set applies one key=value of ParseSpec.
func (s *Spec) set(kv string) error {
	k, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
	if !ok {
		return fmt.Errorf("%q is not key=value; keys: statements, options, per-option, questions, accuracy", kv)
	}
	var err error
	switch strings.TrimSpace(k) {
	case "statements":
		err = s.Statements.Set(val)
	case "options":
		err = s.Options.Set(val)
	case "per-option":
		err = s.PerOption.Set(val)
	case "questions":
		s.Questions, err = strconv.Atoi(strings.TrimSpace(val))
	case "accuracy":
		s.Accuracy = strings.TrimSpace(val)
	default:
		return fmt.Errorf("unknown key %q; keys: statements, options, per-option, questions, accuracy", k)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", k, err)
	}
	return nil
}

// String is the spec as ParseSpec reads it.
func (s Spec) String() string {
	out := fmt.Sprintf("statements=%s,options=%s,per-option=%s,accuracy=%s", s.Statements, s.Options, s.PerOption, s.Accuracy)
	if s.Questions > 0 {
		out += fmt.Sprintf(",questions=%d", s.Questions)
	}
	return out
}
