package bench

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/mcq"
	"github.com/paperlens/paperlens/ingest/dataset"
)

func TestLoadLPFQASample(t *testing.T) {
	qs, problems, err := LoadLPFQA(filepath.Join("testdata", "lpfqa-sample.json"), DefaultFieldMap())
	if err != nil {
		t.Fatal(err)
	}
	byLine := map[int]Question{}
	for _, q := range qs {
		byLine[q.Line] = q
	}
	if len(qs) != 6 {
		t.Fatalf("%d questions, want 6 (8 elements, one missing its reference, one reusing an id): %+v", len(qs), problems)
	}
	tests := []struct {
		line                int
		id, typ, answer     string
		domain, keyPointsIn string
		judge               bool
	}{
		{1, "lpfqa-001", "MCQ", "C", "Applied Tech", "option C", true},
		{2, "2", "MCQ", "B", "Life Sci", "必须选择 B", true}, // numeric id, full-width colon and dots
		{3, "lpfqa-003", "short", "Create the dependency directly", "CS", "2. The answer must attribute", false},
		{4, "lpfqa-004", "short", "约 2.98 A", "EE", "2.9–3.1 A", true},
		{6, "", "MCQ", "C", "Maths", "three elements", false}, // letter followed by the option's text
		{7, "lpfqa-007", "short", "B", "Maths", "batch size 64", false},
	}
	for _, tt := range tests {
		q, ok := byLine[tt.line]
		if !ok {
			t.Errorf("element %d not loaded", tt.line)
			continue
		}
		if tt.id != "" && q.ID != tt.id {
			t.Errorf("element %d: id %q, want %q", tt.line, q.ID, tt.id)
		}
		if tt.id == "" && !strings.HasPrefix(q.ID, "lp-") {
			t.Errorf("element %d: derived id %q lacks the lp- prefix", tt.line, q.ID)
		}
		if q.Type != tt.typ || !strings.HasPrefix(q.Answer, tt.answer) {
			t.Errorf("element %d: %s %q, want %s %q...", tt.line, q.Type, q.Answer, tt.typ, tt.answer)
		}
		if q.Breakdown["domain"] != tt.domain || !strings.Contains(q.KeyPoints, tt.keyPointsIn) {
			t.Errorf("element %d: domain %q, key points %q", tt.line, q.Breakdown["domain"], q.KeyPoints)
		}
		if (q.JudgeTemplate != "") != tt.judge || (q.JudgeSystem != "") != tt.judge {
			t.Errorf("element %d: judge template %q / system %q", tt.line, q.JudgeTemplate, q.JudgeSystem)
		}
		if !strings.Contains(q.Reference, "<参考答案>") {
			t.Errorf("element %d: reference not kept as published: %q", tt.line, q.Reference)
		}
		if q.Type == "MCQ" && len(q.MCQ.Options) != 6 {
			t.Errorf("element %d: %d options parsed, want 6", tt.line, len(q.MCQ.Options))
		}
	}
	if strings.Contains(byLine[3].Answer, "<评估要点>") || strings.Contains(byLine[3].Answer, "<参考答案>") {
		t.Errorf("labels left in the answer: %q", byLine[3].Answer)
	}

	want := map[int]string{
		5: "missing reference (response_reference); fields found: primary_domain, prompt, prompt_id",
		8: `prompt_id "lpfqa-001" already used at line 1`,
	}
	for _, p := range problems {
		if w, ok := want[p.Line]; ok && p.Fatal && strings.Contains(p.Msg, w) {
			delete(want, p.Line)
		}
	}
	if len(want) > 0 {
		t.Errorf("problems not reported as expected %v; got %v", want, problems)
	}
}

// The same rows as JSON Lines load the same way, with line numbers.
func TestLoadLPFQAJSONL(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "lpfqa-sample.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []json.RawMessage
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, r := range rows[:4] {
		var v any
		json.Unmarshal(r, &v)
		line, _ := json.Marshal(v)
		b.Write(line)
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "lpfqa.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	qs, problems, err := LoadLPFQA(path, DefaultFieldMap())
	if err != nil || len(qs) != 4 || len(problems) != 0 {
		t.Fatalf("qs %d, problems %v, err %v", len(qs), problems, err)
	}
	if qs[1].Line != 2 || qs[1].Answer != "B" {
		t.Errorf("second line: %+v", qs[1])
	}
}

func TestLoadLPFQAFieldNotFound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "renamed.jsonl")
	rows := `{"qid": "a", "question": "What is 2+2?", "response_reference": "<参考答案>: 4", "primary_domain": "Maths"}
{"qid": "b", "question": "Name the capital of France.", "response_reference": "<参考答案>: Paris"}
`
	if err := os.WriteFile(path, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := LoadLPFQA(path, DefaultFieldMap())
	const want = `field prompt ("prompt") not found; fields found: primary_domain, qid, question, response_reference; map it with --fields prompt=NAME`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v\nwant it to contain %s", err, want)
	}
	var fe *FieldError
	if !errors.As(err, &fe) || !errors.Is(err, dataset.ErrMissingField) || fe.Keys[0] != "prompt" {
		t.Errorf("error not a *FieldError wrapping ErrMissingField: %#v", err)
	}

	m, err := ParseFieldMap("id=qid,prompt=question")
	if err != nil {
		t.Fatal(err)
	}
	qs, problems, err := LoadLPFQA(path, m)
	if err != nil || len(qs) != 2 || qs[0].ID != "a" || qs[1].Answer != "Paris" || qs[0].Breakdown["domain"] != "Maths" {
		t.Fatalf("mapped load: %+v %v %v", qs, problems, err)
	}
	// The file has no judge fields: said once, for the file, not per row.
	var notes int
	for _, p := range problems {
		if p.Line == 0 && strings.Contains(p.Msg, "judge_prompt_template") {
			notes++
		}
	}
	if notes != 1 {
		t.Errorf("missing optional field not reported once: %v", problems)
	}

	// Both required fields missing: one message naming both.
	_, _, err = LoadLPFQA(path, FieldMap{Prompt: "prompt", Reference: "answer"})
	if err == nil || !strings.Contains(err.Error(), `fields prompt ("prompt") and reference ("answer") not found`) ||
		!strings.Contains(err.Error(), "map them with --fields prompt=NAME,reference=NAME") {
		t.Errorf("two missing fields: %v", err)
	}
}

func TestParseFieldMap(t *testing.T) {
	m, err := ParseFieldMap(" id = qid , prompt=question,judge-template=,domain=area ")
	if err != nil {
		t.Fatal(err)
	}
	want := FieldMap{ID: "qid", Prompt: "question", Reference: "response_reference", JudgeTemplate: "",
		JudgeSystem: "judge_system_prompt", Domain: "area"}
	if m != want {
		t.Fatalf("got %+v\nwant %+v", m, want)
	}
	if back, err := ParseFieldMap(m.String()); err != nil || back != m {
		t.Errorf("String does not round-trip: %q -> %+v, %v", m.String(), back, err)
	}
	if d, err := ParseFieldMap(""); err != nil || d != DefaultFieldMap() {
		t.Errorf("empty flag: %+v %v", d, err)
	}
	for in, msg := range map[string]string{
		"question":            "is not KEY=FIELD",
		"answer=ref":          `unknown key "answer" (keys: id, prompt, reference, judge_template, judge_system, domain)`,
		"prompt=":             "prompt is required",
		"id=a,id=b":           `key "id" given twice`,
		"prompt=q,reference=": "reference is required",
	} {
		if _, err := ParseFieldMap(in); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("ParseFieldMap(%q) = %v, want an error containing %q", in, err, msg)
		}
	}
}

func TestSplitReference(t *testing.T) {
	tests := []struct{ in, answer, points string }{
		{"<参考答案>: C\n<评估要点>: pick C", "C", "pick C"},
		{"<参考答案>：约 3 A <评估要点>：2.9–3.1", "约 3 A", "2.9–3.1"},
		{"<Reference Answer>: Paris\n<Evaluation Points>: the city", "Paris", "the city"},
		{"plain text", "plain text", ""},
		{"<评估要点>: points first <参考答案>: then answer", "then answer", "points first"},
		{"answer only <评估要点>: points", "answer only", "points"},
	}
	for _, tt := range tests {
		a, p := SplitReference(tt.in)
		if a != tt.answer || p != tt.points {
			t.Errorf("SplitReference(%q) = %q, %q; want %q, %q", tt.in, a, p, tt.answer, tt.points)
		}
	}
}

func TestOptionLetter(t *testing.T) {
	q := mcq.Parse("Q?\nA. one\nB. two\nC. three")
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"B", "B", true}, {"(B)", "B", true}, {"B.", "B", true}, {"**B**", "B", true}, {"答案：C", "C", true},
		{"B. two", "B", true}, {"two", "B", true}, {"Two.", "B", true},
		{"B. three", "", false}, {"D", "", false}, {"AB", "", false}, {"b", "", false}, {"Because two", "", false},
	}
	for _, tt := range tests {
		got, ok := optionLetter(tt.in, q)
		if got != tt.want || ok != tt.ok {
			t.Errorf("optionLetter(%q) = %q %v, want %q %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// TestLoadLPFQADoubtfulSplit: an MCQ with inline options whose stem cites
// "Fig. A." is cut at the real options and reported by line and id. With
// options on their own lines only line starts are labels, so the same stem
// is clean; a short answer's text is posed whole, so it is not reported.
func TestLoadLPFQADoubtfulSplit(t *testing.T) {
	rows := `{"prompt_id": "lp-fig", "prompt": "The transfer curve in Fig. A. flattens after 40 epochs. Which explanation fits? A. Overfitting B. Learning-rate decay C. Label noise D. Data exhaustion E. Weight decay F. None of these", "response_reference": "<参考答案>: B\n<评估要点>: Must choose B."}
{"prompt_id": "lp-clean", "prompt": "Which gas is inert?\nA. Oxygen\nB. Argon\nC. Hydrogen\nD. Chlorine\nE. Fluorine", "response_reference": "<参考答案>: B"}
{"prompt_id": "lp-lines", "prompt": "The curve in Fig. A. flattens. Which explanation fits?\nA. Overfitting\nB. Decay\nC. Noise", "response_reference": "<参考答案>: C"}
{"prompt_id": "lp-short", "prompt": "Explain the trend in Fig. A. and in Fig. B. of the report.", "response_reference": "<参考答案>: The curve flattens."}
`
	path := filepath.Join(t.TempDir(), "lpfqa.jsonl")
	if err := os.WriteFile(path, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	qs, problems, err := LoadLPFQA(path, DefaultFieldMap())
	if err != nil || len(qs) != 4 {
		t.Fatalf("qs %d, problems %v, err %v", len(qs), problems, err)
	}
	var rowReports []Problem
	for _, p := range problems {
		if p.Line != 0 { // line 0 notes the file's missing optional fields
			rowReports = append(rowReports, p)
		}
	}
	if len(rowReports) != 1 || rowReports[0].Line != 1 || rowReports[0].Fatal ||
		!strings.HasPrefix(rowReports[0].String(), `line 1 (lp-fig): the options may be cut wrongly: label "A." could start option A at two places`) {
		t.Fatalf("reports %v, want one for line 1", rowReports)
	}
	if q := qs[0]; q.Type != "MCQ" || q.Answer != "B" || q.MCQ.Letters() != "ABCDEF" || !strings.HasPrefix(q.MCQ.Stem, "The transfer curve in Fig. A. flattens") {
		t.Errorf("lp-fig loaded as %s %q, options %q, stem %q", q.Type, q.Answer, q.MCQ.Letters(), q.MCQ.Stem)
	}
	if q := qs[2]; q.Type != "MCQ" || q.MCQ.Stem != "The curve in Fig. A. flattens. Which explanation fits?" {
		t.Errorf("lp-lines loaded as %s, stem %q", q.Type, q.MCQ.Stem)
	}
	if qs[3].Type != "short" {
		t.Errorf("lp-short loaded as %s", qs[3].Type)
	}
}
