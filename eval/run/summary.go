package run

import (
	"maps"
	"slices"
	"sort"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/protocol"
	"github.com/paperlens/paperlens/eval/stats"
	"github.com/paperlens/paperlens/model"
)

// Acc is accuracy over runs: the mean of each run's accuracy, and the
// standard deviation across runs.
//
// Accuracy counts every question, a record that ended in an error as
// wrong, as the papers count every question; AccuracyAnswered leaves
// those records out (fixed JSON: by_mode.<mode>.accuracy and
// accuracy_answered).
type Acc struct {
	Accuracy         float64   `json:"accuracy"`
	AccuracyAnswered float64   `json:"accuracy_answered"`
	Std              float64   `json:"std"`
	N                int       `json:"n"`
	Runs             []float64 `json:"runs,omitempty"`
}

// Tokens are token totals as the server reported them (fixed JSON:
// by_mode.<mode>.tokens). Reasoning is part of Completion and Cached part
// of Prompt, as OpenAI counts them.
type Tokens struct {
	Prompt     int `json:"prompt"`
	Completion int `json:"completion"`
	Reasoning  int `json:"reasoning"`
	Cached     int `json:"cached"`
}

func (t *Tokens) add(u model.Usage) {
	t.Prompt += u.PromptTokens
	t.Completion += u.CompletionTokens
	t.Reasoning += u.ReasoningTokens
	t.Cached += u.CachedTokens
}

// ModeStats summarises one mode.
type ModeStats struct {
	Acc
	MissRate float64 `json:"miss_rate"`
	Errors   int     `json:"errors"`
	// Truncated counts replies cut by the token limit with no answer
	// (finish_reason "length"); they are wrong, and counted here too.
	Truncated int `json:"truncated"`
	// Tokens are the server's totals over every record of every run;
	// Records is how many records they are over (tokens per question is
	// Tokens / Records).
	Tokens  Tokens `json:"tokens"`
	Records int    `json:"records"`
	// RerankTokens are what the LLM reranker used for this mode's
	// questions (each question once, not once per run); absent without
	// --rerank llm.
	RerankTokens *Tokens `json:"rerank_tokens,omitempty"`
	// CostUSD is Tokens, plus RerankTokens, at --price (which prices the
	// reranker as the answering model); absent without a price.
	CostUSD *float64 `json:"cost_usd,omitempty"`
	// PromptTokens is the mean prompt size paperlens assembled
	// (cl100k_base), which exists for offline baselines too.
	PromptTokens   float64                   `json:"prompt_tokens"`
	TruncatedShare float64                   `json:"truncated_share"` // share of records whose context was cut to fit
	EvidenceRecall *float64                  `json:"evidence_recall,omitempty"`
	RougeL         *float64                  `json:"rouge_l,omitempty"`
	ReasoningChars float64                   `json:"reasoning_chars,omitempty"`
	ByType         map[string]Acc            `json:"by_type"`
	ByBreakdown    map[string]map[string]Acc `json:"by_breakdown,omitempty"`
	// ReasoningBy is the mean reasoning length per breakdown value (e.g.
	// by difficulty), as ElaipBench 4.4 relates thinking to difficulty.
	ReasoningBy map[string]map[string]ReasoningLen `json:"reasoning_by,omitempty"`
	// Routes counts self-route's records by the way they went ("rag",
	// "full"); absent for other modes.
	Routes map[string]int `json:"routes,omitempty"`
	// JudgeUnreadable counts judge replies without a readable
	// answer_score, scored 0 and kept in the accuracy.
	JudgeUnreadable int `json:"judge_unreadable,omitempty"`
	// HarmfulVerification is the share of wrong answers whose reasoning
	// had reached the gold answer (ElaipBench §4.3, Figure 3); absent
	// without records scored by extraction, or in a base run without
	// reasoning text.
	HarmfulVerification *Harmful `json:"harmful_verification,omitempty"`
}

// ReasoningLen is a mean reasoning length: tokens as the server counted
// them (0 when it does not say) and characters of reasoning text.
// Completion is the mean completion tokens, reasoning and answer
// together: a cot run's reasoning is its answer's text, which the server
// counts only there (ElaipBench's Figure 5 sets CoT lengths beside
// reasoning models').
type ReasoningLen struct {
	Tokens     float64 `json:"tokens"`
	Chars      float64 `json:"chars"`
	Completion float64 `json:"completion_tokens,omitempty"`
	N          int     `json:"n"`
}

// Effect is one mode against the baseline, paired over questions.
type Effect struct {
	Mode           string   `json:"mode"`
	Baseline       string   `json:"baseline"`
	N              int      `json:"n"`
	Diff           float64  `json:"diff"`
	Lo             float64  `json:"ci_lo"`
	Hi             float64  `json:"ci_hi"`
	PValue         float64  `json:"p_value"`
	B01            int      `json:"baseline_wrong_mode_right"`
	B10            int      `json:"baseline_right_mode_wrong"`
	EvidenceRecall *float64 `json:"evidence_recall,omitempty"`
}

// Summary is summary.json.
type Summary struct {
	// Schema is the version (see Record): 1 for a summary.json without
	// one; Summarize and WriteSummary set SchemaVersion.
	Schema    int                  `json:"schema"`
	Model     string               `json:"model"`
	Bench     string               `json:"bench"`
	Paradigm  string               `json:"paradigm"`
	Runs      int                  `json:"runs"`
	Questions int                  `json:"questions"` // asked in each run (PerRun)
	Modes     []string             `json:"modes"`
	Baseline  string               `json:"baseline"`
	ByMode    map[string]ModeStats `json:"by_mode"`
	Effects   []Effect             `json:"rag_effect"`
	Types     []string             `json:"types"`
	// Protocol states each setting against the benchmark's paper.
	Protocol *protocol.Record `json:"protocol,omitempty"`
	// NoAccuracy says why the summary reports no overall accuracy (LPFQA
	// without a judge); "" when it does.
	NoAccuracy string `json:"no_accuracy,omitempty"`
}

// NoJudgeLPFQA is NoAccuracy for an LPFQA run without a judge.
const NoJudgeLPFQA = "LPFQA is scored by an LLM judge over every task (§4, App. B): pass --judge-model for its accuracy; short answers get ROUGE-L and multiple-choice rows their extracted letters, shown apart"

// Baseline is the mode others are compared with: full for ElaipBench (the
// paper's base setting), closed-book otherwise (LPFQA's), or the first mode
// run when that one was not.
func Baseline(cfg Config) string {
	want := ClosedBook
	if cfg.Bench == "elaipbench" {
		want = Full
	}
	for _, m := range cfg.Modes {
		if m == want {
			return m
		}
	}
	if len(cfg.Modes) > 0 {
		return cfg.Modes[0]
	}
	return want
}

// Scored reports whether a record counts toward accuracy: every record
// but the ROUGE-L ones (a separate measure, never accuracy). A record that
// ended in an error (the question could not be put or answered) counts as
// wrong, as the papers count every question; Answered leaves it out.
func Scored(r Record) bool { return r.ScoreKind != "rouge_l" }

// Answered reports whether a scored record got an answer (no error).
func Answered(r Record) bool { return Scored(r) && r.Error == "" }

// accTally gathers a group's accuracy one record at a time: per run, the
// records counted and those right, over scored records (Scored) and over
// answered ones (Answered), and the questions the scored ones are of. It
// holds counts and question ids, never records, so that a summary of a
// run of any size is made in one pass over its results.
type accTally struct {
	runs                  int
	right, n              []int // scored records, per run
	rightAnswered, nAnswd []int // answered records, per run
	qs                    map[string]struct{}
}

func newAccTally(runs int) *accTally {
	return &accTally{runs: runs, right: make([]int, runs), n: make([]int, runs),
		rightAnswered: make([]int, runs), nAnswd: make([]int, runs), qs: map[string]struct{}{}}
}

// add counts one record.
func (t *accTally) add(r Record) {
	if !Scored(r) || r.Run < 1 || r.Run > t.runs {
		return
	}
	i := r.Run - 1
	t.qs[r.QuestionID] = struct{}{}
	t.n[i]++
	if r.Correct && r.Error == "" {
		t.right[i]++
	}
	if Answered(r) {
		t.nAnswd[i]++
		if r.Correct {
			t.rightAnswered[i]++
		}
	}
}

// acc is the mean over runs of each run's accuracy: over the scored
// records, and (AccuracyAnswered) over the answered ones.
func (t *accTally) acc() Acc {
	all := runShares(t.right, t.n)
	m, s := stats.MeanStd(all)
	answered, _ := stats.MeanStd(runShares(t.rightAnswered, t.nAnswd))
	return Acc{Accuracy: m, AccuracyAnswered: answered, Std: s, N: len(t.qs), Runs: all}
}

// runShares is right/n of each run that has records.
func runShares(right, n []int) []float64 {
	var vals []float64
	for i := range n {
		if n[i] > 0 {
			vals = append(vals, float64(right[i])/float64(n[i]))
		}
	}
	return vals
}

// Summarize computes accuracy per mode (mean and std over runs), by question
// type and breakdown field, and the paired effect of each mode against the
// baseline: the difference in per-question accuracy (averaged over runs)
// with a 95% bootstrap interval over questions, and McNemar's test on
// per-question majority correctness. recs are taken in order, as a
// Summarizer takes them.
func Summarize(cfg Config, qs []bench.Question, recs []Record) Summary {
	s := NewSummarizer(cfg, qs)
	for _, r := range recs {
		s.Add(r)
	}
	return s.Summary()
}

// Summarizer computes a Summary one record at a time, holding counts and
// sums rather than records: the records of a run are read from
// results.jsonl and summarised as they are read (SummarizeFile), however
// many there are. Records are added in the order ReadResults returns them
// (the order decides the last bits of floating-point sums); each question,
// mode and run once.
type Summarizer struct {
	cfg   Config
	qs    []bench.Question
	modes map[string]*modeSummary
}

// NewSummarizer starts the summary of a run configured as cfg over qs.
func NewSummarizer(cfg Config, qs []bench.Question) *Summarizer {
	return &Summarizer{cfg: cfg, qs: qs, modes: map[string]*modeSummary{}}
}

// Add takes one record into the summary.
func (s *Summarizer) Add(r Record) {
	m := s.modes[r.Mode]
	if m == nil {
		m = newModeSummary(s.cfg.Runs)
		s.modes[r.Mode] = m
	}
	m.add(r)
}

// Summary is the summary of the records added so far.
func (s *Summarizer) Summary() Summary {
	cfg := s.cfg
	p := Protocol(cfg)
	out := Summary{Schema: SchemaVersion, Model: cfg.Model, Bench: cfg.Bench, Paradigm: cfg.Paradigm, Runs: cfg.Runs, Questions: PerRun(s.qs),
		Modes: cfg.Modes, Baseline: Baseline(cfg), ByMode: map[string]ModeStats{}, Protocol: &p}
	if cfg.Bench == "lpfqa" && cfg.JudgeModel == "" {
		out.NoAccuracy = NoJudgeLPFQA
	}
	types := map[string]bool{}
	for _, mode := range cfg.Modes {
		m := s.modes[mode]
		if m == nil {
			m = newModeSummary(cfg.Runs)
		}
		ms := m.stats(cfg)
		for t := range ms.ByType {
			types[t] = true
		}
		if out.NoAccuracy != "" {
			// No overall accuracy without the paper's scoring: the
			// multiple-choice rows' letters stay in by_type, apart.
			ms.Acc = Acc{}
		}
		out.ByMode[mode] = ms
	}
	if out.NoAccuracy != "" {
		return out
	}
	for t := range types {
		out.Types = append(out.Types, t)
	}
	sort.Strings(out.Types)
	out.Effects = s.effects(out.Baseline, out.ByMode)
	return out
}

// modeSummary is one mode's part of a Summarizer.
type modeSummary struct {
	ms    ModeStats // the counters countRecord keeps
	acc   *accTally
	tally *modeTally
	h     harmfulTally
	n     int
	perQ  perQuestion
}

func newModeSummary(runs int) *modeSummary {
	return &modeSummary{acc: newAccTally(runs), tally: newModeTally(runs), perQ: perQuestion{}}
}

func (m *modeSummary) add(r Record) {
	m.acc.add(r)
	countRecord(&m.ms, r)
	m.tally.add(r)
	m.h.add(r)
	m.perQ.add(r)
	m.n++
}

// stats is the mode's ModeStats: accuracy overall, by question type and
// by breakdown value; the counts and means of its records (modeTally);
// cost; and reasoning length by breakdown value.
func (m *modeSummary) stats(cfg Config) ModeStats {
	ms := m.ms
	ms.Acc = m.acc.acc()
	ms.ByType, ms.ByBreakdown = map[string]Acc{}, map[string]map[string]Acc{}
	t := m.tally
	t.fill(&ms, m.n)
	ms.HarmfulVerification = m.h.result(cfg.Paradigm)
	for typ, a := range t.byType {
		ms.ByType[typ] = a.acc()
	}
	if cfg.Price != nil {
		v := cfg.Price.Cost(ms.Tokens)
		if ms.RerankTokens != nil {
			v += cfg.Price.Cost(*ms.RerankTokens)
		}
		ms.CostUSD = &v
	}
	ms.ReasoningBy = reasoningBy(t.reasonBy, cfg.Paradigm == CoT)
	for f, vals := range t.byField {
		ms.ByBreakdown[f] = map[string]Acc{}
		for v, a := range vals {
			ms.ByBreakdown[f][v] = a.acc()
		}
	}
	return ms
}

// summarizeMode computes one mode's statistics from its records (every
// run), as a Summarizer does.
func summarizeMode(cfg Config, rs []Record) ModeStats {
	m := newModeSummary(cfg.Runs)
	for _, r := range rs {
		m.add(r)
	}
	return m.stats(cfg)
}

// countRecord adds one record to the mode's counters: errors, truncated
// replies, unreadable judge replies, token totals (the answering model's
// and the reranker's), and self-route's routes.
func countRecord(ms *ModeStats, r Record) {
	if r.Error != "" {
		ms.Errors++
	}
	if r.Truncated {
		ms.Truncated++
	}
	if r.JudgeUnreadable {
		ms.JudgeUnreadable++
	}
	ms.Tokens.add(r.Usage)
	ms.Records++
	if r.RerankUsage != nil {
		if ms.RerankTokens == nil {
			ms.RerankTokens = &Tokens{}
		}
		ms.RerankTokens.add(*r.RerankUsage)
	}
	if r.Route != "" {
		if ms.Routes == nil {
			ms.Routes = map[string]int{}
		}
		ms.Routes[r.Route]++
	}
}

// modeTally gathers, in one pass over a mode's records, the sums behind
// its means and the accuracy of each question type and breakdown value.
type modeTally struct {
	runs                             int
	miss, truncated, recallN, rougeN int
	tok, recall, rouge, reasoning    float64
	byType                           map[string]*accTally
	byField                          map[string]map[string]*accTally
	// reasonBy sums reasoning length per breakdown value, over records
	// without an error.
	reasonBy map[string]map[string]*ReasoningLen
}

func newModeTally(runs int) *modeTally {
	return &modeTally{runs: runs, byType: map[string]*accTally{}, byField: map[string]map[string]*accTally{},
		reasonBy: map[string]map[string]*ReasoningLen{}}
}

// add takes one record into the tally.
func (t *modeTally) add(r Record) {
	if r.Error == "" {
		for f, v := range r.Breakdown {
			if t.reasonBy[f] == nil {
				t.reasonBy[f] = map[string]*ReasoningLen{}
			}
			x := t.reasonBy[f][v]
			if x == nil {
				x = &ReasoningLen{}
				t.reasonBy[f][v] = x
			}
			x.Tokens += float64(r.Usage.ReasoningTokens)
			x.Chars += float64(len(r.Reasoning))
			x.Completion += float64(r.Usage.CompletionTokens)
			x.N++
		}
	}
	if r.Miss {
		t.miss++
	}
	if r.TruncatedTokens > 0 {
		t.truncated++
	}
	t.tok += float64(r.PromptTokens)
	t.reasoning += float64(len(r.Reasoning))
	if r.Recall != nil {
		t.recall += *r.Recall
		t.recallN++
	}
	if r.ScoreKind == "rouge_l" && r.Score != nil {
		t.rouge += *r.Score
		t.rougeN++
	}
	a := t.byType[r.QuestionType]
	if a == nil {
		a = newAccTally(t.runs)
		t.byType[r.QuestionType] = a
	}
	a.add(r)
	for f, v := range r.Breakdown {
		if t.byField[f] == nil {
			t.byField[f] = map[string]*accTally{}
		}
		a := t.byField[f][v]
		if a == nil {
			a = newAccTally(t.runs)
			t.byField[f][v] = a
		}
		a.add(r)
	}
}

// fill sets the mode's rates and means over its n records; evidence
// recall and ROUGE-L only where some record has them.
func (t *modeTally) fill(ms *ModeStats, n int) {
	if n > 0 {
		ms.MissRate = float64(t.miss) / float64(n)
		ms.PromptTokens = t.tok / float64(n)
		ms.TruncatedShare = float64(t.truncated) / float64(n)
		ms.ReasoningChars = t.reasoning / float64(n)
	}
	if t.recallN > 0 {
		v := t.recall / float64(t.recallN)
		ms.EvidenceRecall = &v
	}
	if t.rougeN > 0 {
		v := t.rouge / float64(t.rougeN)
		ms.RougeL = &v
	}
}

// reasoningBy turns reasoning sums into means per breakdown value, for
// the fields where the model thought at all (in a cot run, wrote any
// completion: its reasoning is its answer); nil when it never did (a
// model that does not think: nothing to relate).
func reasoningBy(sums map[string]map[string]*ReasoningLen, cot bool) map[string]map[string]ReasoningLen {
	var out map[string]map[string]ReasoningLen
	for f, vals := range sums {
		thinks := false
		for _, x := range vals {
			thinks = thinks || x.Tokens > 0 || x.Chars > 0 || (cot && x.Completion > 0)
		}
		if !thinks {
			continue
		}
		if out == nil {
			out = map[string]map[string]ReasoningLen{}
		}
		out[f] = map[string]ReasoningLen{}
		for v, x := range vals {
			n := float64(x.N)
			out[f][v] = ReasoningLen{Tokens: x.Tokens / n, Chars: x.Chars / n, Completion: x.Completion / n, N: x.N}
		}
	}
	return out
}

// effects pairs every other mode with the baseline over the questions both
// scored, in question order: the bootstrapped difference of per-question
// accuracy and McNemar's test on per-question majority correctness.
func (s *Summarizer) effects(baseline string, modeStats map[string]ModeStats) []Effect {
	perQ := func(mode string) map[string]float64 {
		if m := s.modes[mode]; m != nil {
			return m.perQ.shares()
		}
		return map[string]float64{}
	}
	base := perQ(baseline)
	var out []Effect
	for _, mode := range s.cfg.Modes {
		if mode == baseline {
			continue
		}
		e := pairedEffect(s.qs, base, perQ(mode), uint64(s.cfg.Seed)+1)
		e.Mode, e.Baseline, e.EvidenceRecall = mode, baseline, modeStats[mode].EvidenceRecall
		out = append(out, e)
	}
	return out
}

// perQuestion counts, per question, a mode's scored records and the right
// ones among them: PerQuestion one record at a time.
type perQuestion map[string]*[2]float64

func (p perQuestion) add(r Record) {
	if !Scored(r) {
		return
	}
	c := p[r.QuestionID]
	if c == nil {
		c = &[2]float64{}
		p[r.QuestionID] = c
	}
	c[1]++
	if r.Correct {
		c[0]++
	}
}

// shares is each question's share of right answers.
func (p perQuestion) shares() map[string]float64 {
	out := make(map[string]float64, len(p))
	for q, c := range p {
		out[q] = c[0] / c[1]
	}
	return out
}

// pairedEffect compares per-question scores other against base on the
// questions both have, in the order of qs, bootstrapping with seed.
func pairedEffect(qs []bench.Question, base, other map[string]float64, seed uint64) Effect {
	var a, b []float64
	var ab, bb []bool
	for _, q := range qs {
		x, ok1 := base[q.ID]
		y, ok2 := other[q.ID]
		if !ok1 || !ok2 {
			continue
		}
		a, b = append(a, x), append(b, y)
		ab, bb = append(ab, x >= 0.5), append(bb, y >= 0.5)
	}
	e := Effect{N: len(a)}
	if len(a) > 0 {
		e.Diff, e.Lo, e.Hi = stats.PairedBootstrap(a, b, 10000, seed)
		e.B01, e.B10, e.PValue = stats.McNemar(ab, bb)
	}
	return e
}

// PerQuestion is each question's share of right answers over runs in one
// mode, over scored records: the per-question score the summary's paired
// bootstrap resamples.
func PerQuestion(recs []Record, mode string) map[string]float64 {
	p := perQuestion{}
	for _, r := range recs {
		if r.Mode == mode {
			p.add(r)
		}
	}
	return p.shares()
}

// PerQuestion is PerQuestion of the folder's records, read one at a time
// (EachResult): what pairing two runs needs, without holding either.
func (d Dir) PerQuestion(mode string) (map[string]float64, error) {
	p := perQuestion{}
	_, err := EachResult(d.path(ResultsFile), func(r Record) error {
		if r.Mode == mode {
			p.add(r)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return p.shares(), nil
}

// PairedDiff pairs per-question scores of a baseline a and a treatment b
// (PerQuestion, possibly of two runs over the same data) on the questions
// both answered, in id order, and bootstraps b − a as the summary does with
// seed (a run's Seed + 1). n is 0 when no question pairs.
func PairedDiff(a, b map[string]float64, seed uint64) (n int, diff, lo, hi float64) {
	var xa, xb []float64
	for _, q := range slices.Sorted(maps.Keys(a)) {
		if y, ok := b[q]; ok {
			xa, xb = append(xa, a[q]), append(xb, y)
		}
	}
	if len(xa) == 0 {
		return 0, 0, 0, 0
	}
	diff, lo, hi = stats.PairedBootstrap(xa, xb, stats.DefaultResamples, seed)
	return len(xa), diff, lo, hi
}
