package prompts

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/template"

	"github.com/paperlens/paperlens/eval/mcq"
)

// Template names. The set is fixed: an override directory may replace these
// and nothing else.
const (
	MCQBase = "mcq_base"
	MCQCoT  = "mcq_cot"
	// MCQCoTAnswerLine is paperlens's CoT variant (--cot-prompt
	// answer-line): reason, then a final "Answer: X" line.
	MCQCoTAnswerLine = "mcq_cot_answer_line"
	MCQReasoning     = "mcq_reasoning"
	ContextFull      = "context_full"
	ContextRAG       = "context_rag"
	ContextFullRAG   = "context_full_rag"
	ContextWeb       = "context_web"
	ContextFullWeb   = "context_full_web"
	ContextOracle    = "context_oracle"
	LPFQAAnswer      = "lpfqa_answer"
	LPFQAJudge       = "lpfqa_judge"
	// RouteUnanswerable follows the question in self-route's first call.
	RouteUnanswerable = "route_unanswerable"
	// LFQAEJudge compares two long answers against a reference, three
	// ways (paperlens judge-check, LFQA-E's setting).
	LFQAEJudge = "lfqae_judge"
)

// kinds says which data type each template is rendered with, so that Load
// can try an override on sample data and catch a misspelt field before a
// run starts rather than at its first question.
var kinds = map[string]string{
	MCQBase: "mcq", MCQCoT: "mcq", MCQCoTAnswerLine: "mcq", MCQReasoning: "mcq", LPFQAAnswer: "mcq",
	ContextFull: "context", ContextRAG: "context", ContextFullRAG: "context",
	ContextWeb: "context", ContextFullWeb: "context", ContextOracle: "context",
	LPFQAJudge: "judge", RouteUnanswerable: "mcq", LFQAEJudge: "pair",
}

// Ext is the file extension of template files, built in or overriding.
const Ext = ".tmpl"

//go:embed templates/*.tmpl
var builtinFS embed.FS

// MCQData is what the mcq_* and lpfqa_answer templates are rendered with.
type MCQData struct {
	Question string       // the question as published, options inline
	Stem     string       // the question without its options
	Options  []mcq.Option // parsed options; when empty, templates show Question as is
	Type     string       // SA-MCQ, MA-MCQ, MCQ, short
	Multi    bool         // more than one option may be correct; templates also treat Type "MA-MCQ" so
	Context  string       // a rendered context_* template, or "" for closed-book
}

// NewMCQData fills MCQData from a question's text, its parsed form and its
// type; Multi follows the type, so that an MA-MCQ is always announced as
// one.
func NewMCQData(text string, q mcq.Question, qtype, context string) MCQData {
	return MCQData{Question: text, Stem: q.Stem, Options: q.Options, Type: qtype,
		Multi: strings.EqualFold(qtype, "MA-MCQ"), Context: context}
}

// ContextData is what the context_* templates are rendered with. Passages
// and Web are shown in the order given: sort them first (ElaipBench orders
// snippets by descending retrieval score, appendix A.7.2).
type ContextData struct {
	Paper    string
	Passages []Passage
	Web      []WebDoc
	Evidence string
	// Order is how Passages are ordered: "score" (best first, also when
	// "") or "document" (the paper's order), for the header to say.
	Order string
	// Cite asks the model to cite passages by their Cite labels
	// (paperlens ask).
	Cite bool
}

// Passage is a retrieved piece of the paper.
type Passage struct {
	ID    string
	Rank  int // 1-based; 0 means "number by position"
	Score float64
	Text  string
	// Cite is the label the model cites the passage by, e.g. "p3" for
	// passage paper#3; "" when not citing.
	Cite string
}

// WebDoc is a retrieved web page, as text.
type WebDoc struct {
	Rank  int // 1-based; 0 means "number by position"
	URL   string
	Title string
	Text  string
}

// JudgeData is what lpfqa_judge (and RenderJudge) is rendered with.
type JudgeData struct {
	Question  string // the question; the paper's judge prompt does not show it, a row template may ({prompt})
	Reference string // the reference answer, without its label
	KeyPoints string // the evaluation points, without their label
	Answer    string // the model's answer being graded
	// RawReference is the reference as published ("<参考答案>: … <评估要点>:
	// …"), for a row template's {response_reference}. When empty it is
	// rebuilt from Reference and KeyPoints.
	RawReference string
}

// PairData is what lfqae_judge is rendered with: one LFQA-E comparison,
// the answers in the order they are shown (judge-check shows each pair
// both ways).
type PairData struct {
	Question  string
	Context   string // material the question refers to; "" for none
	Reference string // the expert reference answer
	ResponseA string // shown first, as "Answer A"
	ResponseB string // shown second, as "Answer B"
}

// funcs are available to every template, built in or overriding.
var funcs = template.FuncMap{
	// add numbers list items from 1: {{add $i 1}}.
	"add": func(a, b int) int { return a + b },
	// trim removes surrounding blank space, so that data with stray
	// newlines does not break a template's layout.
	"trim": strings.TrimSpace,
	// unfence breaks up "<<<" and ">>>" in untrusted text, so that a web
	// page cannot close its block early and pose as the prompt's own text.
	"unfence": strings.NewReplacer("<<<", "<< <", ">>>", "> >>").Replace,
	// letters lists option letters for an instruction: "A, B, C, D".
	"letters": func(opts []mcq.Option) string {
		ls := make([]string, len(opts))
		for i, o := range opts {
			ls[i] = o.Letter
		}
		return strings.Join(ls, ", ")
	},
}

// Set is a loaded set of prompt templates: the built-ins, each possibly
// replaced by a file from an override directory. It is safe for concurrent
// use once loaded.
type Set struct {
	t      *template.Template
	source map[string]string // name -> "builtin" or the override's path
}

// Builtin returns the raw text of a built-in template, or "" if there is no
// such template.
func Builtin(name string) string {
	b, err := builtinFS.ReadFile("templates/" + name + Ext)
	if err != nil {
		return ""
	}
	return string(b)
}

// BuiltinNames lists the built-in template names, sorted.
func BuiltinNames() []string {
	names := make([]string, 0, len(kinds))
	for n := range kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Load returns the built-in templates, with those that dir has a file for
// (NAME.tmpl) replaced by that file. dir "" means built-ins only. Files in
// dir not ending in .tmpl are ignored, so notes can sit beside the
// templates; a .tmpl file that is not a known template name, does not
// parse, or fails on sample data is an error naming the file.
//
// Templates may call each other ({{template "context_full" .}}), and the
// call follows overrides: mcq_reasoning renders mcq_base, so overriding
// mcq_base changes both, as the paper uses one prompt for both.
func Load(dir string) (*Set, error) {
	s := &Set{t: template.New("").Funcs(funcs), source: map[string]string{}}
	for _, name := range BuiltinNames() {
		if err := s.add(name, Builtin(name), "builtin"); err != nil {
			return nil, fmt.Errorf("prompts: built-in %s%s: %w", name, Ext, err) // a bug, caught by the tests
		}
	}
	if dir == "" {
		return s, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("prompts: read override directory: %w", err)
	}
	var overridden []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), Ext) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		name := strings.TrimSuffix(e.Name(), Ext)
		if _, ok := kinds[name]; !ok {
			return nil, fmt.Errorf("prompts: %s: no template is named %q; the names are %s",
				path, name, strings.Join(BuiltinNames(), ", "))
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("prompts: %w", err)
		}
		if err := s.add(name, string(text), path); err != nil {
			return nil, fmt.Errorf("prompts: %s: %w", path, err)
		}
		overridden = append(overridden, name)
	}
	// Try every template once all overrides are in, since one may call
	// another: a broken override shows up under its own file name and under
	// the templates that use it.
	for _, name := range BuiltinNames() {
		if _, err := s.Render(name, sample(kinds[name])); err != nil {
			if src := s.source[name]; src != "builtin" {
				return nil, fmt.Errorf("prompts: %s fails on sample data: %w", src, err)
			}
			return nil, fmt.Errorf("prompts: template %s (built in) fails on sample data with overrides %s: %w",
				name, strings.Join(overridden, ", "), err)
		}
	}
	return s, nil
}

// add parses text as template name, replacing any earlier definition.
func (s *Set) add(name, text, source string) error {
	if _, err := s.t.New(name).Parse(text); err != nil {
		return err
	}
	s.source[name] = source
	return nil
}

// Render executes the named template with data (MCQData, ContextData or
// JudgeData, as the README lists). Surrounding blank space is trimmed, so
// files may end with a newline and context blocks nest cleanly.
func (s *Set) Render(name string, data any) (string, error) {
	if _, ok := kinds[name]; !ok {
		return "", fmt.Errorf("prompts: no template %q; the names are %s", name, strings.Join(BuiltinNames(), ", "))
	}
	var b bytes.Buffer
	if err := s.t.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("prompts: render %s (%s): %w", name, s.source[name], err)
	}
	return strings.TrimSpace(b.String()), nil
}

// Names lists the template names, sorted.
func (s *Set) Names() []string { return BuiltinNames() }

// Source says where a template came from: "builtin" or the override file's
// path, for a run's record of which prompts it used.
func (s *Set) Source(name string) string { return s.source[name] }

// sample returns data of a kind that exercises every branch a template is
// likely to take, for trying templates at load time.
func sample(kind string) any {
	switch kind {
	case "mcq":
		q := mcq.Parse("Which holds?\nA. one\nB. two\nC. three")
		return NewMCQData("Which holds?\nA. one\nB. two\nC. three", q, "MA-MCQ", "Paper text.")
	case "context":
		return ContextData{
			Paper:    "Paper text.",
			Passages: []Passage{{ID: "p#1", Rank: 1, Score: 0.9, Text: "First.", Cite: "p1"}, {ID: "p#2", Text: "Second.", Cite: "p2"}},
			Web:      []WebDoc{{Rank: 1, URL: "https://example.org", Title: "T", Text: "Web text."}, {Text: "More."}},
			Evidence: "Evidence.",
			Order:    "document",
			Cite:     true,
		}
	case "pair":
		return PairData{Question: "Q?", Context: "Material.", Reference: "4", ResponseA: "4", ResponseB: "5"}
	default:
		return JudgeData{Question: "Q?", Reference: "4", KeyPoints: "Must say 4.", Answer: "4"}
	}
}

// embedded checks that the fixed names and the embedded files agree; the
// tests call it.
func embedded() ([]string, error) {
	files, err := fs.Glob(builtinFS, "templates/*"+Ext)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), Ext))
	}
	sort.Strings(names)
	return names, nil
}
