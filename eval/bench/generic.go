package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/paperlens/paperlens/eval/mcq"
	"github.com/paperlens/paperlens/ingest/dataset"
	"github.com/paperlens/paperlens/internal/lazyregexp"
)

// Question types LoadJSONL accepts in its type field (any case).
var genericTypes = map[string]string{
	"sa-mcq": "SA-MCQ", "ma-mcq": "MA-MCQ", "mcq": "MCQ", "short": "short",
}

// upperLetters is an answer that is plainly option letters: upper case, with
// separators. Inference from the answer alone needs this strictness, since
// mcq.NormalizeAnswer would read the short answer "bad" as options ABD.
var upperLetters = lazyregexp.MustCompile(`^[\s(（]*[A-J](?:[\s,;、，()（）]*[A-J])*[\s)）]*$`)

// LoadJSONL reads a custom benchmark, one JSON object per line (a .json
// array of the same objects, or parquet with the same columns, also works:
// the file goes through dataset.Read). testdata/generic-example.jsonl shows
// every form. Fields:
//
//	id             optional, string or number; default StableID("q-", paper_id, question)
//	question       required; options inline ("A. ...\nB. ...") unless given in options
//	options        optional: ["first", "second", ...], lettered A, B, ... in order,
//	               or {"A": "first", "B": "second"}; at most ten (A–J)
//	answer         required: option letters for an MCQ ("B", "AC", "A, C" or ["A", "C"]),
//	               the reference text for a short answer
//	type           optional: SA-MCQ, MA-MCQ, MCQ or short. Without it a question is an
//	               MCQ when it has at least two options and the answer is upper-case
//	               letters among them (SA-MCQ for one letter, MA-MCQ for more), else short
//	paper_id       optional: the paper the question is about
//	evidence       optional: gold evidence, a string or an array of strings
//	               (joined with blank lines)
//	paper_content  optional: the paper's full text
//	key_points     optional: evaluation points for a judge of short answers
//	difficulty, level, discipline, domain, primary_domain, category, subject:
//	               optional strings, kept in Breakdown to group results by
//	breakdown      optional object of strings, e.g. {"statements": "9"}: more
//	               fields to group results by (a composed file's; eval/compose)
//
// Other fields are ignored. Malformed rows are reported with their line and
// skipped, as with LoadElaipBench.
func LoadJSONL(path string) ([]Question, []Problem, error) {
	var qs []Question
	var problems []Problem
	d := newDedup("id")
	err := dataset.Read(path, func(r dataset.Row) error {
		q, explicit, err := genericRow(r)
		if err != nil {
			problems = append(problems, Problem{Line: r.Line, Fatal: true, Msg: err.Error()})
			return nil
		}
		if p, ok := d.check(q, r.Line, explicit); !ok {
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
		return qs, problems, fmt.Errorf("load %s: %w", path, err)
	}
	if len(qs) == 0 {
		return nil, problems, fmt.Errorf("load %s: no usable rows (%d problems)", path, len(problems))
	}
	return qs, problems, nil
}

// genericRow turns one row into a question; explicit says the id came from
// the row.
func genericRow(r dataset.Row) (Question, bool, error) {
	get := func(f string) string { s, _ := dataset.String(r, f); return strings.TrimSpace(s) }
	text, _ := dataset.String(r, "question")
	if strings.TrimSpace(text) == "" {
		return Question{}, false, fmt.Errorf("missing question; fields found: %s", fieldList(r))
	}
	answer, err := genericAnswer(r.Fields["answer"])
	if err != nil {
		return Question{}, false, err
	}
	if answer == "" {
		return Question{}, false, fmt.Errorf("missing answer; fields found: %s", fieldList(r))
	}
	evidence, err := joinedText(r.Fields["evidence"], "evidence")
	if err != nil {
		return Question{}, false, err
	}
	q := Question{
		PaperID: get("paper_id"), Text: text, Evidence: evidence, KeyPoints: get("key_points"),
		Line: r.Line, Breakdown: map[string]string{},
	}
	q.PaperContent, _ = dataset.String(r, "paper_content")

	q.MCQ = mcq.Parse(text)
	if raw, ok := r.Fields["options"]; ok && raw != nil {
		opts, err := genericOptions(raw)
		if err != nil {
			return Question{}, false, err
		}
		if len(q.MCQ.Options) > 0 {
			q.Warnings = append(q.Warnings, "options are both inline in the question and in the options field; the options field is used")
		}
		q.MCQ.Options = opts
		q.MCQ.Doubts = nil // the inline cut is not used
		q.Text = strings.Join(append([]string{q.MCQ.Stem}, q.MCQ.OptionLines()...), "\n")
	}

	typ := get("type")
	if typ != "" {
		t, ok := genericTypes[strings.ToLower(typ)]
		if !ok {
			return Question{}, false, fmt.Errorf("type %q is not one of SA-MCQ, MA-MCQ, MCQ, short", typ)
		}
		q.Type = t
	} else if len(q.MCQ.Options) >= 2 && upperLetters.MatchString(answer) && hasLetters(q.MCQ, answer) {
		q.Type = "SA-MCQ"
		if l, _ := mcq.NormalizeAnswer(answer); len(l) > 1 {
			q.Type = "MA-MCQ"
		}
	} else {
		q.Type = "short"
	}

	if q.Type == "short" {
		q.Answer = answer
	} else {
		if len(q.MCQ.Options) < 2 {
			return Question{}, false, fmt.Errorf("type %s but no options: give them inline (A. ..., B. ...) or in an options field", q.Type)
		}
		letters, ok := mcq.NormalizeAnswer(answer)
		if !ok {
			return Question{}, false, fmt.Errorf("answer %q is not a set of option letters", answer)
		}
		if !hasLetters(q.MCQ, letters) {
			msg := fmt.Sprintf("answer %s names an option the question does not have (options %s)", letters, q.MCQ.Letters())
			if ws := splitWarnings(q.MCQ); len(ws) > 0 { // the split's doubts may explain the missing option
				msg += "; " + strings.Join(ws, "; ")
			}
			return Question{}, false, errors.New(msg)
		}
		q.Answer = letters
		q.Warnings = append(q.Warnings, splitWarnings(q.MCQ)...)
		if q.Type == "SA-MCQ" && len(letters) > 1 {
			q.Warnings = append(q.Warnings, "SA-MCQ with several answer letters; scored as set equality")
		}
		if w, ok := everyOption(q.MCQ, letters); ok {
			q.Warnings = append(q.Warnings, w)
		}
	}

	if err := breakdownObject(r.Fields["breakdown"], q.Breakdown); err != nil {
		return Question{}, false, err
	}
	for _, f := range breakdownFields {
		if v := get(f); v != "" {
			q.Breakdown[f] = v
		}
	}
	q.ID = get("id")
	explicit := q.ID != ""
	if !explicit {
		q.ID = StableID("q-", q.PaperID, q.Text)
	}
	return q, explicit, nil
}

// breakdownObject adds the breakdown field's object of strings to into.
func breakdownObject(v any, into map[string]string) error {
	if v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("breakdown must be an object of strings, e.g. {\"statements\": \"9\"}")
	}
	for k, e := range m {
		s, ok := scalar(e)
		if !ok {
			return fmt.Errorf("breakdown[%q] is not text", k)
		}
		if k, s = strings.TrimSpace(k), strings.TrimSpace(s); k != "" && s != "" {
			into[k] = s
		}
	}
	return nil
}

// hasLetters reports whether every letter of ans (as normalised) is one of
// q's options.
func hasLetters(q mcq.Question, ans string) bool {
	l, ok := mcq.NormalizeAnswer(ans)
	if !ok {
		return false
	}
	for _, c := range l {
		if !strings.ContainsRune(q.Letters(), c) {
			return false
		}
	}
	return true
}

// scalar formats a JSON scalar as text.
func scalar(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case bool:
		return fmt.Sprint(x), true
	}
	return "", false
}

// genericAnswer reads answer: a scalar, or an array of option letters.
func genericAnswer(v any) (string, error) {
	if v == nil {
		return "", nil
	}
	if s, ok := scalar(v); ok {
		return strings.TrimSpace(s), nil
	}
	arr, ok := v.([]any)
	if !ok {
		return "", fmt.Errorf("answer is a JSON object; give letters (\"AC\" or [\"A\", \"C\"]) or the reference text")
	}
	var b strings.Builder
	for _, e := range arr {
		s, ok := scalar(e)
		if !ok || !upperLetters.MatchString(s) {
			return "", fmt.Errorf("answer array holds %v; an array may only list option letters", e)
		}
		b.WriteString(strings.TrimSpace(s))
	}
	return b.String(), nil
}

// joinedText reads a string or an array of strings, joined by blank lines.
func joinedText(v any, field string) (string, error) {
	if v == nil {
		return "", nil
	}
	if s, ok := scalar(v); ok {
		return s, nil
	}
	arr, ok := v.([]any)
	if !ok {
		return "", fmt.Errorf("%s must be a string or an array of strings", field)
	}
	parts := make([]string, 0, len(arr))
	for _, e := range arr {
		s, ok := scalar(e)
		if !ok {
			return "", fmt.Errorf("%s array holds a non-string %v", field, e)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "\n\n"), nil
}

// genericOptions reads options as an array (lettered in order) or an object
// keyed by letter.
func genericOptions(v any) ([]mcq.Option, error) {
	var opts []mcq.Option
	switch x := v.(type) {
	case []any:
		if len(x) > 10 {
			return nil, fmt.Errorf("options has %d entries; at most ten (A–J) are supported", len(x))
		}
		for i, e := range x {
			s, ok := scalar(e)
			if !ok {
				return nil, fmt.Errorf("options[%d] is not text", i)
			}
			opts = append(opts, mcq.Option{Letter: string(rune('A' + i)), Text: strings.TrimSpace(s)})
		}
	case map[string]any:
		for k, e := range x {
			l := strings.ToUpper(strings.TrimSpace(k))
			if len(l) != 1 || l[0] < 'A' || l[0] > 'J' {
				return nil, fmt.Errorf("options key %q is not an option letter A–J", k)
			}
			s, ok := scalar(e)
			if !ok {
				return nil, fmt.Errorf("options[%q] is not text", k)
			}
			opts = append(opts, mcq.Option{Letter: l, Text: strings.TrimSpace(s)})
		}
		sort.Slice(opts, func(i, j int) bool { return opts[i].Letter < opts[j].Letter })
		for i := 1; i < len(opts); i++ {
			if opts[i].Letter == opts[i-1].Letter {
				return nil, fmt.Errorf("options has letter %s twice (keys differ only in case)", opts[i].Letter)
			}
		}
	default:
		return nil, fmt.Errorf("options must be an array of strings or an object {\"A\": \"...\"}")
	}
	if len(opts) == 0 {
		return nil, fmt.Errorf("options is empty")
	}
	return opts, nil
}
