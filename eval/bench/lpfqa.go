package bench

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/paperlens/paperlens/eval/mcq"
	"github.com/paperlens/paperlens/ingest/dataset"
	"github.com/paperlens/paperlens/internal/lazyregexp"
)

// FieldMap names the fields of an LPFQA file. LPFQA's field names are not
// confirmed (only a third-party harness reports them), so they are
// configuration: DefaultFieldMap holds the reported names and ParseFieldMap
// reads overrides from a --fields flag. An empty name means the file has no
// such field; only the optional ones may be empty.
type FieldMap struct {
	ID            string // optional; without it ids are derived from the prompt
	Prompt        string // required: the question as posed, options inline for MCQs
	Reference     string // required: "<参考答案>: answer <评估要点>: evaluation points"
	JudgeTemplate string // optional: the row's own judge prompt
	JudgeSystem   string // optional: the row's judge system prompt
	Domain        string // optional: grouped on as Breakdown["domain"]
}

// DefaultFieldMap returns the field names reported for LPFQA-data.json.
func DefaultFieldMap() FieldMap {
	return FieldMap{
		ID:            "prompt_id",
		Prompt:        "prompt",
		Reference:     "response_reference",
		JudgeTemplate: "judge_prompt_template",
		JudgeSystem:   "judge_system_prompt",
		Domain:        "primary_domain",
	}
}

// fieldKeys are the keys ParseFieldMap accepts, in the order messages list
// them.
var fieldKeys = []string{"id", "prompt", "reference", "judge_template", "judge_system", "domain"}

func (m *FieldMap) slot(key string) *string {
	switch key {
	case "id":
		return &m.ID
	case "prompt":
		return &m.Prompt
	case "reference":
		return &m.Reference
	case "judge_template":
		return &m.JudgeTemplate
	case "judge_system":
		return &m.JudgeSystem
	case "domain":
		return &m.Domain
	}
	return nil
}

// ParseFieldMap reads a --fields flag value such as
// "id=prompt_id,prompt=question" on top of DefaultFieldMap: keys not given
// keep their default. Keys are id, prompt, reference, judge_template,
// judge_system and domain ("-" may stand for "_"); an empty value
// ("domain=") says the file has no such field, which only optional keys
// allow. An empty string returns the defaults.
func ParseFieldMap(s string) (FieldMap, error) {
	m := DefaultFieldMap()
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		key, val, ok := strings.Cut(part, "=")
		if !ok {
			return m, fmt.Errorf("--fields: %q is not KEY=FIELD (keys: %s)", part, strings.Join(fieldKeys, ", "))
		}
		key = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(key)), "-", "_")
		val = strings.TrimSpace(val)
		p := m.slot(key)
		if p == nil {
			return m, fmt.Errorf("--fields: unknown key %q (keys: %s)", key, strings.Join(fieldKeys, ", "))
		}
		if seen[key] {
			return m, fmt.Errorf("--fields: key %q given twice", key)
		}
		seen[key] = true
		if val == "" && (key == "prompt" || key == "reference") {
			return m, fmt.Errorf("--fields: %s is required and cannot be mapped to nothing", key)
		}
		*p = val
	}
	return m, nil
}

// String renders the map in the form ParseFieldMap reads, for logs and run
// records.
func (m FieldMap) String() string {
	parts := make([]string, len(fieldKeys))
	for i, k := range fieldKeys {
		parts[i] = k + "=" + *m.slot(k)
	}
	return strings.Join(parts, ",")
}

// Reference labels in LPFQA's response_reference. The data is reported with
// the Chinese labels; the paper's judge prompt (appendix B) uses the English
// ones, so both are accepted, with an ASCII or full-width colon.
var (
	refLabel    = lazyregexp.MustCompile(`(?i)<\s*(?:参考答案|reference answer)\s*>\s*[:：]?`)
	pointsLabel = lazyregexp.MustCompile(`(?i)<\s*(?:评估要点|evaluation points)\s*>\s*[:：]?`)
)

// SplitReference splits an LPFQA reference "<参考答案>: answer <评估要点>:
// points" into the answer and the evaluation points. Text without labels is
// all answer.
func SplitReference(s string) (answer, points string) {
	r := refLabel.FindStringIndex(s)
	p := pointsLabel.FindStringIndex(s)
	switch {
	case r == nil && p == nil:
		return strings.TrimSpace(s), ""
	case r == nil:
		return strings.TrimSpace(s[:p[0]]), strings.TrimSpace(s[p[1]:])
	case p == nil:
		return strings.TrimSpace(s[r[1]:]), ""
	case r[0] < p[0]:
		return strings.TrimSpace(s[r[1]:p[0]]), strings.TrimSpace(s[p[1]:])
	default: // points first, then the answer
		return strings.TrimSpace(s[r[1]:]), strings.TrimSpace(s[p[1]:r[0]])
	}
}

// LoadLPFQA reads LPFQA questions (LPFQA-data.json: a JSON array, or JSON
// Lines) with the field names of m.
//
// A question is a multiple-choice question (Type "MCQ", Answer the letter)
// when its prompt parses into at least three options and the reference
// answer names exactly one of them: a bare letter ("C", "(C)", "C."), a
// letter with that option's text, or that option's text alone. LPFQA's MCQs
// have 5–7 options and one correct; the threshold of three keeps a short
// answer that happens to mention "A." from being read as options. Anything
// else is Type "short", Answer the reference answer text, graded by a judge.
// Either way KeyPoints holds the evaluation points, Reference the reference
// as published, and JudgeTemplate/JudgeSystem the row's judge prompts when
// the file has them.
//
// A required field (prompt, reference) absent from every row is an error
// that lists the fields the file does have, since the names are unconfirmed;
// a row lacking one is a fatal Problem. Optional fields absent from every row
// are reported as a Problem at line 0 (the file), since a mistyped --fields
// name would otherwise go unnoticed.
func LoadLPFQA(path string, m FieldMap) ([]Question, []Problem, error) {
	if m.Prompt == "" || m.Reference == "" {
		return nil, nil, fmt.Errorf("load LPFQA %s: the field map names no prompt or reference field (%s)", path, m)
	}
	var qs []Question
	var problems []Problem
	present := map[string]bool{} // mapped fields seen with a value in some row
	all := map[string]bool{}     // every field name in the file, for messages
	rows := 0
	d := newDedup("prompt_id")
	err := dataset.Read(path, func(r dataset.Row) error {
		rows++
		for k := range r.Fields {
			all[k] = true
		}
		get := func(f string) string {
			if f == "" {
				return ""
			}
			s, _ := dataset.String(r, f)
			if strings.TrimSpace(s) != "" {
				present[f] = true
			}
			return s
		}
		prompt, ref := get(m.Prompt), get(m.Reference)
		id := strings.TrimSpace(get(m.ID))
		jt, js, dom := get(m.JudgeTemplate), get(m.JudgeSystem), strings.TrimSpace(get(m.Domain))
		var missing []string
		if strings.TrimSpace(prompt) == "" {
			missing = append(missing, "prompt ("+m.Prompt+")")
		}
		if strings.TrimSpace(ref) == "" {
			missing = append(missing, "reference ("+m.Reference+")")
		}
		if len(missing) > 0 {
			problems = append(problems, Problem{Line: r.Line, Fatal: true,
				Msg: fmt.Sprintf("missing %s; fields found: %s", strings.Join(missing, ", "), fieldList(r))})
			return nil
		}
		answer, points := SplitReference(ref)
		if answer == "" && points == "" {
			problems = append(problems, Problem{Line: r.Line, Fatal: true,
				Msg: fmt.Sprintf("reference %q holds neither an answer nor evaluation points", ref)})
			return nil
		}
		q := Question{
			Text: prompt, Line: r.Line, Breakdown: map[string]string{},
			Reference: ref, KeyPoints: points, JudgeTemplate: jt, JudgeSystem: js,
		}
		q.MCQ = mcq.Parse(prompt)
		if letter, ok := optionLetter(answer, q.MCQ); ok && len(q.MCQ.Options) >= 3 {
			q.Type, q.Answer = "MCQ", letter
			// A short answer's text is posed whole, so only an MCQ's cut
			// matters. Its answer is one letter of three or more, so it
			// never names every option.
			q.Warnings = append(q.Warnings, splitWarnings(q.MCQ)...)
		} else {
			q.Type, q.Answer = "short", answer
			if answer == "" {
				// The judge prompt falls back on the evaluation points alone
				// ("if no <Evaluation Points> are provided..." works both ways).
				q.Warnings = append(q.Warnings, "reference has evaluation points but no answer")
			}
		}
		if dom != "" {
			q.Breakdown["domain"] = dom
		}
		q.ID = id
		if q.ID == "" {
			q.ID = StableID("lp-", "", prompt)
		}
		if p, ok := d.check(q, r.Line, id != ""); !ok {
			problems = append(problems, p)
			return nil
		}
		for _, w := range q.Warnings {
			problems = append(problems, Problem{Line: r.Line, ID: q.ID, Msg: w})
		}
		qs = append(qs, q)
		return nil
	}, badRow(&problems))
	if err != nil {
		return qs, problems, fmt.Errorf("load LPFQA %s: %w", path, err)
	}
	if rows > 0 {
		if err := requireFields(m, present, all); err != nil {
			return nil, problems, fmt.Errorf("load LPFQA %s: %w", path, err)
		}
		for _, f := range []struct{ key, name, why string }{
			{"id", m.ID, "ids are derived from the prompt text"},
			{"judge_template", m.JudgeTemplate, "the built-in judge prompt applies"},
			{"judge_system", m.JudgeSystem, "the judge gets no system prompt"},
			{"domain", m.Domain, "no per-domain breakdown"},
		} {
			if f.name != "" && !present[f.name] {
				problems = append(problems, Problem{Line: 0,
					Msg: fmt.Sprintf("optional field %s (%q) is in no row, so %s; map it with --fields %s=NAME if the file names it otherwise", f.key, f.name, f.why, f.key)})
			}
		}
	}
	if len(qs) == 0 {
		return nil, problems, fmt.Errorf("load LPFQA %s: no usable rows (%d problems)", path, len(problems))
	}
	return qs, problems, nil
}

// FieldError says that no row of a file has a required field. It lists the
// fields the file does have, since LPFQA's names are unconfirmed and the fix
// is a --fields mapping. It unwraps to dataset.ErrMissingField.
type FieldError struct {
	Keys  []string // FieldMap keys not found: "prompt", "reference"
	Names []string // the field names looked for, one per key
	Found []string // every field name in the file, sorted
}

func (e *FieldError) Error() string {
	found := strings.Join(e.Found, ", ")
	if found == "" {
		found = "(none)"
	}
	var what, fix []string
	for i, k := range e.Keys {
		what = append(what, fmt.Sprintf("%s (%q)", k, e.Names[i]))
		fix = append(fix, k+"=NAME")
	}
	noun, pron := "field", "it"
	if len(e.Keys) > 1 {
		noun, pron = "fields", "them"
	}
	return fmt.Sprintf("%s %s not found; fields found: %s; map %s with --fields %s",
		noun, strings.Join(what, " and "), found, pron, strings.Join(fix, ","))
}

func (e *FieldError) Unwrap() error { return dataset.ErrMissingField }

// requireFields reports required fields that no row has.
func requireFields(m FieldMap, present, all map[string]bool) error {
	e := &FieldError{}
	for _, f := range []struct{ key, name string }{{"prompt", m.Prompt}, {"reference", m.Reference}} {
		if !present[f.name] {
			e.Keys = append(e.Keys, f.key)
			e.Names = append(e.Names, f.name)
		}
	}
	if len(e.Keys) == 0 {
		return nil
	}
	for k := range all {
		e.Found = append(e.Found, k)
	}
	sort.Strings(e.Found)
	return e
}

var (
	answerPrefix = lazyregexp.MustCompile(`(?i)^(?:answer|correct answer|答案|正确答案)\s*[:：]\s*`)
	letterLabel  = lazyregexp.MustCompile(`^[(（]?([A-J])[)）]?(?:[.)．、:：]\s*|\s+|$)`)
)

// optionLetter reports which option a reference answer names: a bare letter,
// a letter followed by that option's text, or the text of exactly one
// option. Anything looser (a letter with other text, several letters) is not
// a single option, and the question is judged as a short answer instead.
func optionLetter(answer string, q mcq.Question) (string, bool) {
	s := strings.TrimSpace(strings.ReplaceAll(answer, "**", ""))
	s = answerPrefix.ReplaceAllString(s, "")
	s = strings.TrimRight(s, " \t\n.。．")
	if s == "" || len(q.Options) == 0 {
		return "", false
	}
	if m := letterLabel.FindStringSubmatchIndex(s); m != nil {
		letter, rest := s[m[2]:m[3]], strings.TrimSpace(s[m[1]:])
		for _, o := range q.Options {
			if o.Letter == letter && (rest == "" || sameText(rest, o.Text)) {
				return letter, true
			}
		}
		if rest == "" {
			return "", false // a letter the question does not have
		}
	}
	found := ""
	for _, o := range q.Options {
		if sameText(s, o.Text) {
			if found != "" {
				return "", false // two options read the same: ambiguous
			}
			found = o.Letter
		}
	}
	return found, found != ""
}

func sameText(a, b string) bool {
	norm := func(s string) string {
		return strings.ToLower(strings.TrimRight(strings.Join(strings.Fields(s), " "), ".。．;；"))
	}
	return norm(a) == norm(b)
}

// dedup drops repeated questions. Two rows with the same explicit id but
// different text are a data error (results keyed by id would mix them), so
// the second is fatal; a row repeating another exactly is dropped quietly,
// as LoadElaipBench does.
type dedup struct {
	idField string
	seen    map[string]seenRow
}

type seenRow struct {
	line int
	text string
}

func newDedup(idField string) *dedup { return &dedup{idField: idField, seen: map[string]seenRow{}} }

func (d *dedup) check(q Question, line int, explicit bool) (Problem, bool) {
	first, dup := d.seen[q.ID]
	if !dup {
		d.seen[q.ID] = seenRow{line, q.Text}
		return Problem{}, true
	}
	if explicit && strings.TrimSpace(first.text) != strings.TrimSpace(q.Text) {
		return Problem{Line: line, Fatal: true,
			Msg: fmt.Sprintf("%s %q already used at line %d for a different question; row skipped", d.idField, q.ID, first.line)}, false
	}
	return Problem{Line: line,
		Msg: fmt.Sprintf("duplicate of the row at line %d (same id and question); kept once", first.line)}, false
}

// badRow records rows the reader could not decode as fatal problems, with
// the reader's message minus the file name (a Problem already has a line).
func badRow(problems *[]Problem) func(int, error) {
	return func(line int, err error) {
		var re *dataset.RowError
		msg := err.Error()
		if errors.As(err, &re) {
			msg = re.Err.Error()
		}
		*problems = append(*problems, Problem{Line: line, Fatal: true, Msg: msg})
	}
}
