package compose

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mcq"
)

// Question is one composed question: the benchmark question eval runs,
// and how it was composed.
type Question struct {
	bench.Question
	Composition Composition
}

// Composition records how a question was drawn (fixed JSON: the "compose"
// field of each row of a composed file).
type Composition struct {
	Seed     int64  `json:"seed"`     // the composition's seed
	Template int    `json:"template"` // index into QuestionTemplates (A.3)
	Accuracy string `json:"accuracy"` // what it asks for: correct or incorrect
	Word     string `json:"word"`     // the word of AccuracyWords it uses
	// Statements in the order the question numbers them.
	Statements []Used `json:"statements"`
	// Options are each option's statement numerals, options in letter
	// order (A first).
	Options [][]string `json:"options"`
}

// Used is one statement of a composed question.
type Used struct {
	Numeral string `json:"numeral"` // I, II, ...
	Source  string `json:"source"`  // the source question's id
	Letter  string `json:"letter"`  // the option's letter there
	True    bool   `json:"true"`
	// Evidence are the lines of the composed question's evidence that
	// came from the source question (0 is the first line).
	Evidence []int `json:"evidence"`
}

// Keys are the letters of the options whose statements all have the
// truth the question asks for (all true for correct, all false for
// incorrect): exactly one in a well-composed question, its answer.
func (c Composition) Keys() []string {
	truth := map[string]bool{}
	for _, u := range c.Statements {
		truth[u.Numeral] = u.True
	}
	var keys []string
	for i, opt := range c.Options {
		all := len(opt) > 0
		for _, n := range opt {
			all = all && truth[n] == (c.Accuracy == Correct)
		}
		if all {
			keys = append(keys, string(rune('A'+i)))
		}
	}
	return keys
}

// Set is a composition: its questions, and the papers and questions
// left out with why.
type Set struct {
	Spec      Spec
	Questions []Question
	Skipped   []Skip
}

// ErrNone is wrapped by Compose's error when no question could be
// composed.
var ErrNone = errors.New("no question could be composed")

// maxDraws bounds the redraws of one question.
const maxDraws = 200

// Compose draws questions in Encyclo-K's form from source questions with
// known option truths (see the package doc). Each question's statements
// come from one paper; papers get questions in proportion to their
// statements. A paper too small for the shape is skipped with a Skip
// naming what it lacks; when nothing can be composed the error wraps
// ErrNone and lists the skips.
func Compose(src []bench.Question, spec Spec) (Set, error) {
	spec.Defaults()
	if err := spec.Validate(); err != nil {
		return Set{Spec: spec}, err
	}
	banks, skips := Banks(src)
	set := Set{Spec: spec, Skipped: skips}
	var usable []*Bank
	for _, b := range banks {
		if why := lacks(b, spec); why != "" {
			set.Skipped = append(set.Skipped, Skip{Paper: b.Paper, Line: b.Line, Reason: why})
			continue
		}
		usable = append(usable, b)
	}
	r := newRNG(spec.Seed)
	for i, n := range allocate(usable, spec.Questions) {
		b := usable[i]
		for k := 0; k < n; k++ {
			q, err := draw(r, b, spec)
			if err != nil {
				set.Skipped = append(set.Skipped, Skip{Paper: b.Paper, Line: b.Line, Reason: err.Error()})
				break
			}
			q.ID = fmt.Sprintf("c%d-%03d", spec.Seed, len(set.Questions)+1)
			q.Line = len(set.Questions) + 1
			set.Questions = append(set.Questions, q)
		}
	}
	if len(set.Questions) == 0 {
		var why []string
		for _, s := range set.Skipped {
			why = append(why, s.String())
		}
		if len(why) == 0 {
			why = append(why, "the source has no questions")
		}
		return set, fmt.Errorf("%w: %s", ErrNone, strings.Join(why, "; "))
	}
	return set, nil
}

// supports says whether a paper can give a question asking for acc: an
// option of at least per-option's MIN statements with that truth, and a
// statement of the other truth for every other option to hold.
func supports(b *Bank, acc string, p Range) bool {
	t := b.count(acc == Correct)
	return t >= p.Min && len(b.Statements)-t >= 1
}

// lacks says what a paper lacks for the shape, or "".
func lacks(b *Bank, spec Spec) string {
	need := max(spec.Statements.Min, spec.PerOption.Min+1)
	if n := len(b.Statements); n < need {
		return fmt.Sprintf("it has %d statements (the options of its %d multiple-choice question(s)) and a question needs at least %d (--statements %s)",
			n, b.Questions, need, spec.Statements)
	}
	var why []string
	for _, acc := range []string{Correct, Incorrect} {
		if spec.Accuracy != Mixed && spec.Accuracy != acc || supports(b, acc, spec.PerOption) {
			continue
		}
		if acc == Correct {
			why = append(why, fmt.Sprintf("%d true and %d false statements, and an all-true option needs at least %d true ones (--per-option %s) beside a false one",
				b.count(true), b.count(false), spec.PerOption.Min, spec.PerOption))
		} else {
			why = append(why, fmt.Sprintf("%d false and %d true statements, and an all-false option needs at least %d false ones (--per-option %s) beside a true one",
				b.count(false), b.count(true), spec.PerOption.Min, spec.PerOption))
		}
	}
	if len(why) > 0 && (spec.Accuracy != Mixed || len(why) == 2) {
		return "it has " + strings.Join(why, "; it has ")
	}
	return ""
}

// allocate shares n questions among the banks in proportion to their
// statements (largest remainder, ties to the first paper); n = 0 gives
// each paper as many as it has source questions.
func allocate(banks []*Bank, n int) []int {
	out := make([]int, len(banks))
	if n == 0 {
		for i, b := range banks {
			out[i] = b.Questions
		}
		return out
	}
	total := 0
	for _, b := range banks {
		total += len(b.Statements)
	}
	if total == 0 {
		return out
	}
	rem := make([]int, len(banks))
	given := 0
	for i, b := range banks {
		out[i] = n * len(b.Statements) / total
		rem[i] = n * len(b.Statements) % total
		given += out[i]
	}
	order := make([]int, len(banks))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return rem[b] - rem[a] })
	for i := 0; given < n; i++ {
		out[order[i%len(order)]]++
		given++
	}
	return out
}

// draw composes one question from a paper's bank.
func draw(r *rng, b *Bank, spec Spec) (Question, error) {
	acc := spec.Accuracy
	if acc == Mixed {
		acc = Correct
		okC, okI := supports(b, Correct, spec.PerOption), supports(b, Incorrect, spec.PerOption)
		if !okC || (okI && r.intn(2) == 1) {
			acc = Incorrect
		}
	}
	for range maxDraws {
		if q, ok := try(r, b, spec, acc); ok {
			return q, nil
		}
	}
	return Question{}, fmt.Errorf("no question with exactly one all-%s option was found in %d draws; widen --options or --statements",
		map[string]string{Correct: "true", Incorrect: "false"}[acc], maxDraws)
}

// try is one draw: statements, then options, or false when the draw
// cannot give exactly one option of the asked truth (a redraw follows).
func try(r *rng, b *Bank, spec Spec, acc string) (Question, bool) {
	target := acc == Correct
	var tIdx, all []int
	for i, st := range b.Statements {
		all = append(all, i)
		if st.True == target {
			tIdx = append(tIdx, i)
		}
	}
	s := r.between(max(spec.Statements.Min, spec.PerOption.Min+1), min(spec.Statements.Max, len(b.Statements)))
	k := r.between(spec.PerOption.Min, min(spec.PerOption.Max, s-1, len(tIdx)))
	key := sample(r, tIdx, k)
	fill := sample(r, without(all, key), s-k)
	if !slices.ContainsFunc(fill, func(i int) bool { return b.Statements[i].True != target }) {
		return Question{}, false // every option would have the asked truth
	}
	chosen := append(append([]int(nil), key...), fill...)
	shuffle(r, chosen)
	isTarget := make([]bool, s)
	var keyPos []int
	for p, i := range chosen {
		isTarget[p] = b.Statements[i].True == target
		if slices.Contains(key, i) {
			keyPos = append(keyPos, p)
		}
	}
	opts, ok := options(r, spec, s, sorted(keyPos), isTarget)
	if !ok {
		return Question{}, false
	}
	q := build(r, b, spec, acc, chosen, opts)
	// The rule, checked on the result as well as built in: exactly one
	// option has the asked truth, else the draw is redone.
	return q, len(q.Composition.Keys()) == 1
}

// options draws an option count, then distractors: combinations of
// per-option statements, distinct, each holding a statement of the other
// truth so that the key stays the only option of the asked truth. The
// key is among them at a random place. False when too few distinct
// distractors exist.
func options(r *rng, spec Spec, s int, key []int, isTarget []bool) ([][]int, bool) {
	o := r.between(spec.Options.Min, spec.Options.Max)
	opts := [][]int{key}
	seen := map[string]bool{fmt.Sprint(key): true}
	positions := make([]int, s)
	for i := range positions {
		positions[i] = i
	}
	for tries := 0; len(opts) < o && tries < 100*o; tries++ {
		c := sorted(sample(r, positions, r.between(spec.PerOption.Min, min(spec.PerOption.Max, s))))
		if !slices.ContainsFunc(c, func(p int) bool { return !isTarget[p] }) || seen[fmt.Sprint(c)] {
			continue
		}
		seen[fmt.Sprint(c)] = true
		opts = append(opts, c)
	}
	if len(opts) < o {
		return nil, false
	}
	shuffle(r, opts)
	return opts, true
}

// build renders the drawn question: the template and its word, the
// numbered statements, the lettered options, the answer, the union of the
// statements' evidence, and the record of the composition.
func build(r *rng, b *Bank, spec Spec, acc string, chosen []int, opts [][]int) Question {
	comp := Composition{Seed: spec.Seed, Template: r.intn(len(QuestionTemplates)), Accuracy: acc}
	comp.Word = AccuracyWords[acc][r.intn(len(AccuracyWords[acc]))]
	var lines, evidence []string
	at := map[string]int{}
	for p, i := range chosen {
		st := b.Statements[i]
		u := Used{Numeral: Numeral(p + 1), Source: st.Source, Letter: st.Letter, True: st.True, Evidence: []int{}}
		for _, l := range st.Evidence {
			if _, ok := at[l]; !ok {
				at[l] = len(evidence)
				evidence = append(evidence, l)
			}
			u.Evidence = append(u.Evidence, at[l])
		}
		comp.Statements = append(comp.Statements, u)
		lines = append(lines, statementLine(u.Numeral, st))
	}
	m := mcq.Question{Stem: stem(comp.Template, comp.Word, lines)}
	for i, opt := range opts {
		var ns []string
		for _, p := range opt {
			ns = append(ns, Numeral(p+1))
		}
		comp.Options = append(comp.Options, ns)
		m.Options = append(m.Options, mcq.Option{Letter: string(rune('A' + i)), Text: strings.Join(ns, ", ")})
	}
	answer := ""
	if keys := comp.Keys(); len(keys) == 1 {
		answer = keys[0]
	}
	q := bench.Question{PaperID: b.Paper, Type: "SA-MCQ", MCQ: m, Answer: answer, Evidence: strings.Join(evidence, "\n"),
		PaperContent: b.Content, Text: strings.Join(append([]string{m.Stem}, m.OptionLines()...), "\n"),
		Breakdown: map[string]string{"statements": strconv.Itoa(len(chosen)), "options": strconv.Itoa(len(opts))}}
	return Question{Question: q, Composition: comp}
}

// without is xs less the elements of drop.
func without(xs, drop []int) []int {
	var out []int
	for _, x := range xs {
		if !slices.Contains(drop, x) {
			out = append(out, x)
		}
	}
	return out
}

// sorted is a sorted copy of xs.
func sorted(xs []int) []int {
	c := append([]int(nil), xs...)
	slices.Sort(c)
	return c
}
