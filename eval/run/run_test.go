package run

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mcq"
	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/internal/testkit/sampletest"
	"github.com/paperlens/paperlens/model"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/evidence"
	"github.com/paperlens/paperlens/retrieve/index"
)

// fixture ingests the sample benchmark's papers and opens the indexes.
func fixture(t testing.TB) ([]bench.Question, *corpus.Store, *index.Index) {
	t.Helper()
	return fixtureSized(t, 256)
}

// fixtureSized is fixture with passages of at most passageTokens tokens.
func fixtureSized(t testing.TB, passageTokens int) ([]bench.Question, *corpus.Store, *index.Index) {
	t.Helper()
	qs := sampletest.Questions(t)
	st, ix := sampletest.Home(t, qs, passageTokens)
	return qs, st, ix
}

func sampleConfig(t testing.TB, modelName string, modes ...string) Config {
	c := Config{Bench: "elaipbench", Data: "sample.jsonl", Model: modelName, Modes: modes, Runs: 2, Concurrency: 4, Out: t.TempDir(), Seed: 7}
	c.Defaults(nil)
	return c
}

// reader stands in for a model that answers right exactly when its prompt
// holds the question's first gold sentence, and "A" otherwise: a reader
// that uses evidence when it gets it.
func reader(qs []bench.Question) model.Chat {
	return model.ChatFunc(func(_ context.Context, req model.Request) (model.Response, error) {
		p := req.Messages[len(req.Messages)-1].Content
		for _, q := range qs {
			if strings.Contains(p, q.MCQ.Stem) {
				first := strings.SplitN(q.Evidence, "\n", 2)[0]
				if len(first) > 40 {
					first = first[:40]
				}
				if strings.Contains(p, first) {
					return model.Response{Content: "The answer is " + q.Answer}, nil
				}
				return model.Response{Content: "Answer: A"}, nil
			}
		}
		return model.Response{Content: ""}, nil
	})
}

func TestRunModesAndSummary(t *testing.T) {
	qs, st, ix := fixture(t)
	modes := []string{ClosedBook, Full, ModeHybrid, FullHybrid, Oracle}
	cfg := sampleConfig(t, "reader", modes...)
	res, err := Run(context.Background(), Options{Config: cfg, Chat: reader(qs), Corpus: st, Index: ix, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := ReadResults(filepath.Join(cfg.Out, ResultsFile))
	if err != nil || len(recs) != len(qs)*len(modes)*2 || res.Done != len(recs) {
		t.Fatalf("%d records (done %d), want %d: %v", len(recs), res.Done, len(qs)*len(modes)*2, err)
	}
	checkModeRecords(t, cfg, recs)
	checkModeAccuracies(t, res.Summary)
	checkModeEffects(t, res.Summary, len(qs))
	checkSummaryAndConfigFiles(t, cfg.Out)
}

// checkModeRecords checks every record: no error, the retrieval modes' k
// passages and recall, closed-book's short prompt without context.
func checkModeRecords(t *testing.T, cfg Config, recs []Record) {
	t.Helper()
	for _, r := range recs {
		if r.Error != "" {
			t.Errorf("%s %s: %s", r.QuestionID, r.Mode, r.Error)
		}
		if (r.Mode == ModeHybrid || r.Mode == FullHybrid) && (len(r.Context) != cfg.K || r.Recall == nil) {
			t.Errorf("%s %s: context %v recall %v", r.QuestionID, r.Mode, r.Context, r.Recall)
		}
		if r.Mode == ClosedBook && (len(r.Context) != 0 || r.PromptTokens == 0 || r.PromptTokens > 1000) {
			t.Errorf("closed-book record: %+v", r)
		}
	}
}

// checkModeAccuracies checks the reader is right whenever it sees the
// evidence: always with the paper or the oracle, never closed-book
// (unless the answer is A), in between with hybrid's passages.
func checkModeAccuracies(t *testing.T, s Summary) {
	t.Helper()
	if s.ByMode[Full].Accuracy != 1 || s.ByMode[Oracle].Accuracy != 1 {
		t.Errorf("full %.3f oracle %.3f, want 1", s.ByMode[Full].Accuracy, s.ByMode[Oracle].Accuracy)
	}
	cb := s.ByMode[ClosedBook].Accuracy
	if cb > 0.3 {
		t.Errorf("closed-book accuracy %.3f, want only the questions whose answer is A", cb)
	}
	hy := s.ByMode[ModeHybrid].Accuracy
	if hy <= cb || hy >= 1 || *s.ByMode[ModeHybrid].EvidenceRecall <= 0 {
		t.Errorf("hybrid accuracy %.3f (closed-book %.3f), recall %v", hy, cb, s.ByMode[ModeHybrid].EvidenceRecall)
	}
}

// checkModeEffects checks the effects against full over the nq
// questions: one per other mode, closed-book's clearly negative, each
// interval holding its difference.
func checkModeEffects(t *testing.T, s Summary, nq int) {
	t.Helper()
	if s.Baseline != Full || len(s.Effects) != 4 {
		t.Fatalf("baseline %s, %d effects", s.Baseline, len(s.Effects))
	}
	for _, e := range s.Effects {
		if e.Mode == ClosedBook && (e.Diff >= 0 || e.Hi >= 0 || e.PValue > 0.001 || e.N != nq) {
			t.Errorf("closed-book effect %+v: want clearly negative", e)
		}
		if e.Lo > e.Diff || e.Hi < e.Diff {
			t.Errorf("interval does not hold the difference: %+v", e)
		}
	}
}

// checkSummaryAndConfigFiles checks summary.md's tables and config.json's
// paradigm in the run folder out.
func checkSummaryAndConfigFiles(t *testing.T, out string) {
	t.Helper()
	md, _ := os.ReadFile(filepath.Join(out, "summary.md"))
	for _, want := range []string{"| mode |", "SA-MCQ", "MA-MCQ", "Effect against full", "full+hybrid"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("summary.md lacks %q:\n%s", want, md)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(out, "config.json")); !strings.Contains(string(b), `"paradigm": "base"`) {
		t.Errorf("config.json: %s", b)
	}
}

func TestOfflineBaselines(t *testing.T) {
	qs, st, ix := fixture(t)
	for _, m := range []string{"random", "ir"} {
		cfg := sampleConfig(t, m, ClosedBook, Full)
		res, err := Run(context.Background(), Options{Config: cfg, Corpus: st, Index: ix, Questions: qs})
		if err != nil {
			t.Fatal(err)
		}
		acc := res.Summary.ByMode[Full].Accuracy
		t.Logf("%s: full %.3f ± %.3f, closed-book %.3f", m, acc, res.Summary.ByMode[Full].Std, res.Summary.ByMode[ClosedBook].Accuracy)
		if res.Summary.ByMode[Full].MissRate != 0 || res.Summary.ByMode[Full].Errors != 0 {
			t.Errorf("%s: misses or errors: %+v", m, res.Summary.ByMode[Full])
		}
		if m == "ir" && acc <= 0.25 {
			t.Errorf("ir baseline accuracy %.3f is no better than chance", acc)
		}
		if m == "random" && acc > 0.5 {
			t.Errorf("random baseline accuracy %.3f is implausibly high", acc)
		}
	}
}

func TestPerQuestionErrorsDoNotStopTheRun(t *testing.T) {
	qs, st, ix := fixture(t)
	qs = append([]bench.Question{}, qs...)
	lost := qs[0]
	lost.ID, lost.PaperID = "eb-lost", "no-such-paper"
	qs = append(qs, lost)
	var calls atomic.Int64
	empty := model.ChatFunc(func(ctx context.Context, req model.Request) (model.Response, error) {
		if calls.Add(1)%5 == 0 {
			return model.Response{Content: "  "}, nil
		}
		return reader(qs).Complete(ctx, req)
	})
	cfg := sampleConfig(t, "reader", Full)
	cfg.Runs, cfg.Concurrency = 1, 1
	res, err := Run(context.Background(), Options{Config: cfg, Chat: empty, Corpus: st, Index: ix, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := ReadResults(filepath.Join(cfg.Out, ResultsFile))
	var missing, emptyN int
	for _, r := range recs {
		switch {
		case strings.Contains(r.Error, `paper "no-such-paper" is not in the corpus`):
			missing++
		case r.Error == "empty reply from the model":
			emptyN++
		case r.Error != "":
			t.Errorf("unexpected error %q", r.Error)
		}
	}
	if len(recs) != len(qs) || missing != 1 || emptyN == 0 || res.Summary.ByMode[Full].Errors != missing+emptyN {
		t.Fatalf("%d records, %d missing-paper, %d empty; summary %+v", len(recs), missing, emptyN, res.Summary.ByMode[Full])
	}
}

func TestResumeSkipsFinishedRecords(t *testing.T) {
	qs, st, ix := fixture(t)
	cfg := sampleConfig(t, "reader", ClosedBook, Full)
	var calls atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	chat := model.ChatFunc(func(c context.Context, req model.Request) (model.Response, error) {
		if calls.Add(1) == 40 {
			cancel() // the run is interrupted part-way
		}
		return reader(qs).Complete(c, req)
	})
	_, err := Run(ctx, Options{Config: cfg, Chat: chat, Corpus: st, Index: ix, Questions: qs})
	if err == nil || !strings.Contains(err.Error(), "rerun the same command") {
		t.Fatalf("interrupted run: %v", err)
	}
	first, _ := ReadResults(filepath.Join(cfg.Out, ResultsFile))
	if len(first) == 0 || len(first) >= len(qs)*4 {
		t.Fatalf("%d records after the interruption", len(first))
	}
	before := calls.Load()
	res, err := Run(context.Background(), Options{Config: cfg, Chat: chat, Corpus: st, Index: ix, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	if res.Resumed != len(first) || res.Done != len(qs)*4-len(first) {
		t.Fatalf("resumed %d done %d, want %d and %d", res.Resumed, res.Done, len(first), len(qs)*4-len(first))
	}
	if got := calls.Load() - before; got != int64(res.Done) {
		t.Errorf("the rerun made %d calls for %d unfinished records", got, res.Done)
	}
	// The resumed summary equals an uninterrupted run's.
	fresh := cfg
	fresh.Out = t.TempDir()
	want, err := Run(context.Background(), Options{Config: fresh, Chat: reader(qs), Corpus: st, Index: ix, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range cfg.Modes {
		if res.Summary.ByMode[m].Accuracy != want.Summary.ByMode[m].Accuracy || res.Summary.ByMode[m].N != want.Summary.ByMode[m].N {
			t.Errorf("%s: resumed %+v, uninterrupted %+v", m, res.Summary.ByMode[m].Acc, want.Summary.ByMode[m].Acc)
		}
	}
	// Another model in the same folder is refused.
	other := cfg
	other.Model = "someone-else"
	if _, err := Run(context.Background(), Options{Config: other, Chat: chat, Questions: qs}); err == nil || !strings.Contains(err.Error(), "use another --out") {
		t.Errorf("mixing runs: %v", err)
	}
}

// The offline corpus provider gives web modes other papers' passages, never
// the question's own paper, and records them per question.
func TestWebModesWithCorpusProvider(t *testing.T) {
	qs, st, ix := fixture(t)
	cfg := sampleConfig(t, "reader", Web, FullWeb)
	cfg.Runs = 1
	res, err := Run(context.Background(), Options{Config: cfg, Chat: reader(qs), Corpus: st, Index: ix, Questions: qs,
		Web: CorpusWeb(ix, st, 3, 200)})
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := ReadResults(filepath.Join(cfg.Out, ResultsFile))
	if len(recs) != 2*len(qs) {
		t.Fatalf("%d records", len(recs))
	}
	for _, r := range recs {
		if r.Error != "" || len(r.Web) != 3 {
			t.Fatalf("%s %s: error %q, web %+v", r.QuestionID, r.Mode, r.Error, r.Web)
		}
		for _, w := range r.Web {
			if strings.HasPrefix(w.URL, "corpus://"+r.PaperID+"#") || w.Status != "ok" || w.Tokens == 0 || w.Tokens > 200 {
				t.Errorf("%s: web item %+v", r.QuestionID, w)
			}
		}
	}
	// Other papers' passages do not hold the evidence; the paper does.
	if res.Summary.ByMode[FullWeb].Accuracy != 1 || res.Summary.ByMode[Web].Accuracy > 0.5 {
		t.Errorf("web %.2f full+web %.2f", res.Summary.ByMode[Web].Accuracy, res.Summary.ByMode[FullWeb].Accuracy)
	}
}

// A reply cut by the token limit with no answer is counted truncated (and
// wrong), not as an error or a plain miss; one cut after the answer is
// scored as usual.
func TestTruncatedReplies(t *testing.T) {
	qs := []bench.Question{}
	for i, stem := range []string{"first", "second", "third", "fourth"} {
		qs = append(qs, bench.Question{ID: stem, Text: "Which is the " + stem + "?\nA. x\nB. y", Type: "SA-MCQ", Answer: "B",
			MCQ: mcq.Parse("Which is the " + stem + "?\nA. x\nB. y"), Breakdown: map[string]string{"difficulty": []string{"easy", "hard"}[i%2]}})
	}
	chat := model.ChatFunc(func(_ context.Context, req model.Request) (model.Response, error) {
		p := req.Messages[len(req.Messages)-1].Content
		u := model.Usage{PromptTokens: 10, CompletionTokens: 50, ReasoningTokens: 40}
		switch {
		case strings.Contains(p, "first"): // out of tokens while thinking
			return model.Response{Reasoning: "Let me weigh each", FinishReason: "length", Usage: u}, nil
		case strings.Contains(p, "second"): // out of tokens with nothing at all
			return model.Response{FinishReason: "length", Usage: u}, nil
		case strings.Contains(p, "third"): // cut after the answer
			return model.Response{Content: "Answer: B. Because", FinishReason: "length", Usage: u}, nil
		}
		return model.Response{Content: "Answer: B", FinishReason: "stop", Usage: u}, nil
	})
	cfg := Config{Bench: "jsonl", Data: "x.jsonl", Model: "m", Modes: []string{ClosedBook}, Runs: 1, Concurrency: 2, Out: t.TempDir(), Paradigm: Reasoning}
	cfg.Defaults(nil)
	p := 1.0
	cfg.Price = &Price{In: 1, Out: 2, Cached: &p}
	res, err := Run(context.Background(), Options{Config: cfg, Chat: chat, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := ReadResults(filepath.Join(cfg.Out, ResultsFile))
	got := map[string]bool{}
	for _, r := range recs {
		got[r.QuestionID] = r.Truncated
		if r.Error != "" {
			t.Errorf("%s: error %q", r.QuestionID, r.Error)
		}
		if r.FinishReason == "" {
			t.Errorf("%s: finish_reason not recorded", r.QuestionID)
		}
	}
	if !got["first"] || !got["second"] || got["third"] || got["fourth"] {
		t.Errorf("truncated: %v", got)
	}
	ms := res.Summary.ByMode[ClosedBook]
	if ms.Truncated != 2 || ms.Accuracy != 0.5 || ms.N != 4 {
		t.Errorf("summary: truncated %d, accuracy %v over %d", ms.Truncated, ms.Accuracy, ms.N)
	}
	if ms.Tokens != (Tokens{Prompt: 40, Completion: 200, Reasoning: 160}) || ms.CostUSD == nil || *ms.CostUSD != (40*1+200*2)/1e6 {
		t.Errorf("tokens %+v cost %v", ms.Tokens, ms.CostUSD)
	}
	if rb := ms.ReasoningBy["difficulty"]; rb["easy"].Tokens != 40 || rb["easy"].N != 2 {
		t.Errorf("reasoning by difficulty %+v", rb)
	}
	md := Markdown(res.Summary)
	for _, w := range []string{"| truncated |", "10 · 50 (40)", "| 0.0004 |", "Reasoning length by difficulty"} {
		if !strings.Contains(md, w) {
			t.Errorf("summary.md lacks %q:\n%s", w, md)
		}
	}
}

// The judge gets its own request fields.
func TestJudgeRequestFields(t *testing.T) {
	q := bench.Question{ID: "s1", Text: "Why?", Type: "short", Answer: "Because."}
	var got model.Request
	judge := model.ChatFunc(func(_ context.Context, req model.Request) (model.Response, error) {
		got = req
		return model.Response{Content: `{"answer_score": 1}`}, nil
	})
	chat := model.ChatFunc(func(context.Context, model.Request) (model.Response, error) {
		return model.Response{Content: "Because."}, nil
	})
	cfg := Config{Bench: "jsonl", Data: "x.jsonl", Model: "m", JudgeModel: "j", Modes: []string{ClosedBook}, Runs: 1, Out: t.TempDir()}
	cfg.Judge.ReasoningEffort = "low"
	cfg.Judge.ExtraBody = []byte(`{"chat_template_kwargs":{"enable_thinking":false}}`)
	cfg.Defaults(nil)
	if _, err := Run(context.Background(), Options{Config: cfg, Chat: chat, Judge: judge, Questions: []bench.Question{q},
		JudgeHeader: map[string][]string{"X-Route": {"judge"}}}); err != nil {
		t.Fatal(err)
	}
	if got.ReasoningEffort != "low" || string(got.ExtraBody) == "" || *got.Temperature != 0 || got.MaxTokens != 1024 ||
		got.MaxTokensParam != "max_tokens" || got.Header.Get("X-Route") != "judge" {
		t.Errorf("judge request %+v", got)
	}
}

// passageMark is the line that opens a passage in the RAG prompt templates.
var passageMark = regexp.MustCompile(`\n\[[0-9]+\] \(passage [^)\n]*\)\n`)

// evidenceReader stands in for a model that answers right exactly when its
// prompt's passages hold all of the question's gold evidence (by the
// evidence package's matching rule), and wrong otherwise; when the prompt
// asks it to write "unanswerable" if the passages do not suffice (self-
// route), it does so instead of a wrong letter.
func evidenceReader(qs []bench.Question) model.Chat {
	return model.ChatFunc(func(_ context.Context, req model.Request) (model.Response, error) {
		p := req.Messages[len(req.Messages)-1].Content
		for _, q := range qs {
			if strings.Contains(p, q.MCQ.Stem) {
				// Read only the context: the question and its options may
				// quote words of the evidence (a table's numbers, say).
				ctx := strings.Replace(p, q.MCQ.Stem, "", 1)
				for _, o := range q.MCQ.Options {
					ctx = strings.Replace(ctx, o.Text, "", 1)
				}
				// Passages are scored apart, as eval retrieval scores them.
				parts := passageMark.Split(ctx, -1)
				g := evidence.ParseGold(q.Evidence, evidence.Options{})
				if g.Score(parts).CompleteAt(len(parts)) == 1 {
					return model.Response{Content: "Answer: " + q.Answer}, nil
				}
				if strings.Contains(p, `write "unanswerable"`) {
					return model.Response{Content: "Unanswerable."}, nil
				}
				// Otherwise a letter that is surely wrong, so that no guess
				// blurs the comparison.
				for _, l := range q.MCQ.Letters() {
					if string(l) != q.Answer {
						return model.Response{Content: "Answer: " + string(l)}, nil
					}
				}
			}
		}
		return model.Response{}, nil
	})
}

// With the default query (the question as the dataset stores it), RAG
// accuracy under the evidence reader equals the share of questions whose
// gold evidence is complete in the top k, as eval retrieval reports it.
func TestDefaultQueryAccuracyEqualsCompleteAtK(t *testing.T) {
	qs, st, ix := fixture(t)
	cfg := sampleConfig(t, "reader", ModeBM25, ModeDense)
	cfg.Runs = 1
	if cfg.QueryForm != "full" {
		t.Fatalf("default query form %q, want full (ElaipBench's)", cfg.QueryForm)
	}
	res, err := Run(context.Background(), Options{Config: cfg, Chat: evidenceReader(qs), Corpus: st, Index: ix, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := retrieval.Run(context.Background(), ix, qs, retrieval.Config{Retrievers: []string{"bm25", "dense"}, Ks: []int{cfg.K}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{ModeBM25, ModeDense} {
		acc := res.Summary.ByMode[m].Accuracy
		complete := sum.Retrievers[retrieval.Label(m, retrieve.FormFull)][fmt.Sprintf("complete@%d", cfg.K)]
		t.Logf("%s: accuracy %.3f, complete@%d %.3f", m, acc, cfg.K, complete)
		if math.Abs(acc-complete) > 1e-9 {
			t.Errorf("%s: accuracy %.3f under the evidence reader, complete@%d %.3f", m, acc, cfg.K, complete)
		}
	}
}

// Nothing scored prints "–", not 0%; ROUGE-L gets its own column and a
// line saying accuracy on short answers needs a judge.
func TestMarkdownHonest(t *testing.T) {
	r := 0.42
	s := Summary{Model: "m", Bench: "lpfqa", Runs: 1, Modes: []string{ClosedBook, Full}, Baseline: ClosedBook,
		ByMode: map[string]ModeStats{
			ClosedBook: {Acc: Acc{N: 0}, Errors: 3, RougeL: &r},
			Full:       {Acc: Acc{N: 0}, Errors: 3},
		},
		Effects: []Effect{{Mode: Full, Baseline: ClosedBook}}}
	md := Markdown(s)
	for _, want := range []string{"| closed-book | – | 3 | – | 0 |", "| 0.420 |", "ROUGE-L (short answers)", "pass --judge-model", "| full | – | – | – | – | – |"} {
		if !strings.Contains(md, want) {
			t.Errorf("lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "0.0 ±") || strings.Contains(md, "| 0 | 0 | 0 |") {
		t.Errorf("prints a number for nothing:\n%s", md)
	}
}

// A folder refuses to resume with prompts built another way (another
// retrieval query, say): its answers would be mixed with the new ones.
func TestResumeRefusesOtherContext(t *testing.T) {
	qs, st, ix := fixture(t)
	cfg := sampleConfig(t, "random", ModeBM25)
	cfg.Runs = 1
	if _, err := Run(context.Background(), Options{Config: cfg, Corpus: st, Index: ix, Questions: qs[:3]}); err != nil {
		t.Fatal(err)
	}
	other := cfg
	other.QueryForm, other.K = "stem", 3
	_, err := Run(context.Background(), Options{Config: other, Corpus: st, Index: ix, Questions: qs[:3]})
	if err == nil || !strings.Contains(err.Error(), "--query full, now stem") || !strings.Contains(err.Error(), "--k 5, now 3") {
		t.Errorf("resume with another query: %v", err)
	}
	if _, err := Run(context.Background(), Options{Config: cfg, Corpus: st, Index: ix, Questions: qs[:3]}); err != nil {
		t.Errorf("resume with the same flags: %v", err)
	}
}

// --exclude-kinds shapes the retrieved passages, so a resume with another
// setting is refused, naming the flag; a folder from before the flag
// existed excluded nothing, and resumes only without it.
func TestResumeRefusesOtherExcludeKinds(t *testing.T) {
	qs, st, ix := fixture(t)
	cases := []struct {
		first, then string
		refused     string // "" when the resume is allowed
	}{
		{"references", "", "--exclude-kinds references, now none"},
		{"", "references", "--exclude-kinds none, now references"},
		{"references", "contents,references", "--exclude-kinds references, now references,contents"},
		{"front-matter,references", "references,front-matter", ""},
	}
	for _, c := range cases {
		t.Run(c.first+" then "+c.then, func(t *testing.T) {
			cfg := sampleConfig(t, "random", ModeBM25)
			cfg.Runs = 1
			var err error
			if cfg.ExcludeKinds, err = ParseExcludeKinds(c.first); err != nil {
				t.Fatal(err)
			}
			if _, err := Run(context.Background(), Options{Config: cfg, Corpus: st, Index: ix, Questions: qs[:2]}); err != nil {
				t.Fatal(err)
			}
			then := cfg
			if then.ExcludeKinds, err = ParseExcludeKinds(c.then); err != nil {
				t.Fatal(err)
			}
			_, err = Run(context.Background(), Options{Config: then, Corpus: st, Index: ix, Questions: qs[:2]})
			switch {
			case c.refused == "" && err != nil:
				t.Errorf("resume refused: %v", err)
			case c.refused != "" && (err == nil || !strings.Contains(err.Error(), c.refused)):
				t.Errorf("resume: %v, want a refusal saying %q", err, c.refused)
			}
		})
	}
	if _, err := ParseExcludeKinds("refs"); err == nil || !strings.Contains(err.Error(), "--exclude-kinds") {
		t.Errorf("bad kind: %v", err)
	}
}
