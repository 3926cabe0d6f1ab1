package run

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mcq"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/model"
)

// trace is one case of testdata/harmful-traces.txt (its header says the
// format).
type trace struct {
	name, typ, gold, letters, finish string
	harmful                          bool
	answers                          []string // nil: not checked
	checkAnswers                     bool
	reasoning, output                string
	line                             int
}

func readTraces(t *testing.T) []trace {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "harmful-traces.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []trace
	var cur *trace
	var body *strings.Builder
	var reasoning, output strings.Builder
	flush := func() {
		if cur != nil {
			cur.reasoning = strings.TrimSuffix(reasoning.String(), "\n")
			cur.output = strings.TrimSuffix(output.String(), "\n")
			out = append(out, *cur)
		}
		reasoning.Reset()
		output.Reset()
		body = nil
	}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "=== "):
			flush()
			cur = &trace{name: strings.TrimPrefix(line, "=== "), typ: "SA-MCQ", letters: "ABCD", finish: "stop", line: n}
		case cur == nil || (body == nil && (line == "" || strings.HasPrefix(line, "#"))):
		case line == "--- reasoning":
			body = &reasoning
		case line == "--- output":
			body = &output
		case body != nil:
			body.WriteString(line + "\n")
		default:
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				t.Fatalf("harmful-traces.txt line %d: want KEY: VALUE, got %q", n, line)
			}
			cur.set(t, n, strings.TrimSpace(k), strings.TrimSpace(v))
		}
	}
	flush()
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func (c *trace) set(t *testing.T, n int, k, v string) {
	switch k {
	case "type":
		c.typ = v
	case "gold":
		c.gold = v
	case "options":
		c.letters = v
	case "finish":
		c.finish = v
	case "harmful":
		c.harmful = v == "yes"
	case "answers":
		c.checkAnswers = true
		if v != "-" {
			c.answers = strings.Fields(v)
		}
	default:
		t.Fatalf("harmful-traces.txt line %d: unknown header %q", n, k)
	}
}

// question is the multiple-choice question a trace answers: its name in
// the stem (so a model double can tell which trace to serve), one option
// per letter.
func (c trace) question() bench.Question {
	text := "Which holds for case " + c.name + "?"
	for _, l := range c.letters {
		text += "\n" + string(l) + ". option text " + strings.ToLower(string(l)) + strings.Repeat("x", int(l-'A'))
	}
	return bench.Question{ID: c.name, Text: text, Type: c.typ, Answer: c.gold, MCQ: mcq.Parse(text)}
}

// Every hand-written trace is flagged exactly when it must be, through
// the scoring path of an evaluation and of rescore (scorer.verdict), and
// its commitments are the ones written down.
func TestHarmfulVerificationTraces(t *testing.T) {
	traces := readTraces(t)
	if len(traces) < 20 {
		t.Fatalf("%d traces, want at least 20", len(traces))
	}
	var flagged, clean int
	for _, c := range traces {
		t.Run(c.name, func(t *testing.T) {
			q := c.question()
			if len(q.MCQ.Options) != len(c.letters) {
				t.Fatalf("question parsed into %d options, want %d", len(q.MCQ.Options), len(c.letters))
			}
			sc := scorer{cfg: Config{Bench: "jsonl"}}
			r := Record{QuestionID: q.ID, Gold: q.Answer, ScoreKind: sc.kind(q), Reasoning: c.reasoning, Output: c.output, FinishReason: c.finish}
			if fatal, callErr := sc.verdict(context.Background(), q, &r); fatal != nil || callErr != nil || r.Error != "" {
				t.Fatalf("verdict: %v %v %q", fatal, callErr, r.Error)
			}
			if r.HarmfulVerification != c.harmful {
				t.Errorf("line %d: harmful_verification %v, want %v (extracted %q, gold %s, correct %v, along %q)",
					c.line, r.HarmfulVerification, c.harmful, r.Extracted, c.gold, r.Correct, r.ReasoningAnswers)
			}
			if c.checkAnswers && !slices.Equal(r.ReasoningAnswers, c.answers) {
				t.Errorf("line %d: reasoning_answers %q, want %q", c.line, r.ReasoningAnswers, c.answers)
			}
		})
		if c.harmful {
			flagged++
		} else {
			clean++
		}
	}
	if flagged < 5 || clean < 10 {
		t.Errorf("%d traces to flag and %d not to: want both kinds well covered", flagged, clean)
	}
}

// A record scored again is marked again: verdict clears what an earlier
// scoring set, so that a record that is no longer wrong loses its flag.
func TestVerdictClearsHarmfulVerification(t *testing.T) {
	c := traceNamed(t, "fig19-verification-overturns")
	q := c.question()
	sc := scorer{cfg: Config{Bench: "jsonl"}}
	r := Record{QuestionID: q.ID, Gold: q.Answer, ScoreKind: "exact", Reasoning: c.reasoning, Output: c.output, FinishReason: "stop"}
	sc.verdict(context.Background(), q, &r)
	if !r.HarmfulVerification {
		t.Fatal("not flagged")
	}
	r.Output = "Answer: A"
	sc.verdict(context.Background(), q, &r)
	if r.HarmfulVerification || !r.Correct || !slices.Equal(r.ReasoningAnswers, []string{"A", "C", "A"}) {
		t.Errorf("rescored right: harmful %v, correct %v, along %q", r.HarmfulVerification, r.Correct, r.ReasoningAnswers)
	}
	// Judged and ROUGE-L records have no letters to follow.
	r = Record{ScoreKind: "rouge_l", Reasoning: c.reasoning, Output: "C", Gold: "A"}
	sc.verdict(context.Background(), bench.Question{Type: "short", Answer: "A"}, &r)
	if r.ReasoningAnswers != nil || r.HarmfulVerification {
		t.Errorf("rouge_l record: along %q, harmful %v", r.ReasoningAnswers, r.HarmfulVerification)
	}
}

func traceNamed(t *testing.T, name string) trace {
	t.Helper()
	for _, c := range readTraces(t) {
		if c.name == name {
			return c
		}
	}
	t.Fatalf("no trace %s", name)
	return trace{}
}

// An in-process run of a reasoning model (a loopback server sending each
// trace's reasoning as reasoning_content and its output as the answer,
// the finish reason the trace names) reports, per mode, the harmful
// verification rate that an independent count gives: the records wrong
// as results.jsonl has them, harmful as the traces' own "harmful:" lines
// say, every run pooled. rescore then gives the same numbers.
func TestSummaryHarmfulRateInProcess(t *testing.T) {
	traces := readTraces(t)
	byName := map[string]trace{}
	var qs []bench.Question
	for _, c := range traces {
		byName[c.name] = c
		qs = append(qs, c.question())
	}
	find := func(r modeltest.Request) (trace, bool) {
		for name, c := range byName {
			if strings.Contains(r.Prompt(), "case "+name+"?") {
				return c, true
			}
		}
		return trace{}, false
	}
	srv := modeltest.NewServer(t, modeltest.Config{
		Answer: func(r modeltest.Request) (string, string) {
			c, _ := find(r)
			return c.output, c.reasoning
		},
		FinishReason: func(r modeltest.Request) string {
			c, _ := find(r)
			return c.finish
		},
	})
	cfg := Config{Bench: "jsonl", Data: "traces.jsonl", Model: "thinker", Paradigm: Reasoning, Modes: []string{ClosedBook}, Runs: 2, Concurrency: 2, Out: t.TempDir()}
	cfg.Defaults(nil)
	chat, err := model.NewOpenAI(model.Options{BaseURL: srv.BaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Options{Config: cfg, Chat: chat, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := ReadResults(filepath.Join(cfg.Out, ResultsFile))
	if err != nil || len(recs) != 2*len(traces) {
		t.Fatalf("%d records, want %d: %v", len(recs), 2*len(traces), err)
	}
	var want Harmful
	for _, r := range recs {
		if r.Error != "" {
			t.Fatalf("%s: %s", r.QuestionID, r.Error)
		}
		want.Records++
		if !r.Correct {
			want.Wrong++
		}
		if byName[r.QuestionID].harmful {
			if r.Correct {
				t.Errorf("%s: a trace to flag scored right", r.QuestionID)
			}
			want.Harmful++
		}
	}
	want.ShareOfWrong = float64(want.Harmful) / float64(want.Wrong)
	want.ShareOfRecords = float64(want.Harmful) / float64(want.Records)
	got := res.Summary.ByMode[ClosedBook].HarmfulVerification
	if got == nil || *got != want {
		t.Fatalf("summary harmful_verification %+v, want %+v", got, want)
	}
	// Written to summary.json, and shown in summary.md.
	s, err := Dir(cfg.Out).ReadSummary()
	if err != nil || s.ByMode[ClosedBook].HarmfulVerification == nil || *s.ByMode[ClosedBook].HarmfulVerification != want {
		t.Fatalf("summary.json: %+v, %v", s.ByMode[ClosedBook].HarmfulVerification, err)
	}
	md, _ := Dir(cfg.Out).SummaryMarkdown()
	w, rr := HarmfulText(&want)
	if !strings.Contains(string(md), "## Harmful verification") || !strings.Contains(string(md), "| closed-book | "+w+" | "+rr+" |") {
		t.Errorf("summary.md lacks the harmful verification row %q | %q:\n%s", w, rr, md)
	}

	// A folder whose records predate the fields: rescore fills them.
	for i := range recs {
		recs[i].ReasoningAnswers, recs[i].HarmfulVerification = nil, false
	}
	if err := rewriteResults(filepath.Join(cfg.Out, ResultsFile), recs); err != nil {
		t.Fatal(err)
	}
	rs, err := Rescore(context.Background(), RescoreOptions{Dir: cfg.Out, Config: cfg, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	if h := rs.Summary.ByMode[ClosedBook].HarmfulVerification; !rs.Rewrote || len(rs.Changes) != 0 || h == nil || *h != want {
		t.Errorf("rescore: rewrote %v, %d changes, harmful %+v, want %+v", rs.Rewrote, len(rs.Changes), h, want)
	}
}
