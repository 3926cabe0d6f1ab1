package run

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mcq"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/internal/testkit/reranktest"
	"github.com/paperlens/paperlens/internal/testkit/sampletest"
	"github.com/paperlens/paperlens/model"
	"github.com/paperlens/paperlens/retrieve/evidence"
	"github.com/paperlens/paperlens/retrieve/index"
	"github.com/paperlens/paperlens/retrieve/rerank"
)

// Replies as models write them: the detector must send the declines on to
// the paper and keep every reply that answers.
func TestUnanswerableDetection(t *testing.T) {
	text := "Which schedule does the paper use?\nA. Linear\nB. Cosine\nC. Step\nD. Constant"
	mc := bench.Question{Text: text, MCQ: mcq.Parse(text), Type: "SA-MCQ"}
	free := bench.Question{Text: "How are parked tokens restored?", Type: "short"}
	cases := []struct {
		name              string
		q                 bench.Question
		output, reasoning string
		want              bool
	}{
		{"bare word", mc, "unanswerable", "", true},
		{"capitalised with period", mc, "Unanswerable.", "", true},
		{"upper case", mc, "UNANSWERABLE", "", true},
		{"double quotes", mc, `"unanswerable"`, "", true},
		{"typographic quotes", mc, "“Unanswerable”", "", true},
		{"markdown bold", mc, "**Unanswerable**", "", true},
		{"answer label", mc, "Answer: unanswerable", "", true},
		{"final answer label, bold", mc, "**Final answer:** Unanswerable", "", true},
		{"sentence", mc, "The question is unanswerable from the passages.", "", true},
		{"sentence with reason", mc, "Unanswerable: the passages describe the optimiser but not the learning-rate schedule.", "", true},
		{"based on the passages", mc, "Based on the provided passages, this question is unanswerable.", "", true},
		{"hyphenated", mc, "Un-answerable.", "", true},
		{"trailing newline and spaces", mc, "  unanswerable \n", "", true},
		{"free-form question", free, "Unanswerable.", "", true},
		{"inline reasoning then the word", mc, "<think>The passages cover the optimiser; the schedule is not mentioned. Option B is tempting but unsupported.</think>\n\nUnanswerable", "", true},
		{"reasoning field, content says it", mc, "unanswerable", "Passage 2 talks about warm-up. Nothing on the schedule. B? No evidence.", true},
		{"CoT ending in the word", mc, "Let's look at the passages. Passage 1 describes the model. Passage 2 describes the data. " +
			"Passage 3 lists hyperparameters but never the learning-rate schedule. None of them says which schedule is used, " +
			"and guessing between the options would not be grounded in the text.\n\nTherefore the question is unanswerable from the passages.", "", true},
		{"reasoning only, ends with the word", mc, "", "The schedule is not in any passage.\nunanswerable", true},

		{"a letter", mc, "B", "", false},
		{"answer line", mc, "Answer: B", "", false},
		{"word and a letter", mc, "Unanswerable from passage 1 alone, but passage 3 settles it. Answer: B", "", false},
		{"mention then an answer", mc, "It might look unanswerable, but the answer is C.", "", false},
		{"negated", mc, "The question is not unanswerable: passage 2 names the cosine schedule. B", "", false},
		{"negated without a letter", mc, "This is not unanswerable.", "", false},
		{"boxed letter", mc, "Some would call this unanswerable. \\boxed{B}", "", false},
		{"empty", mc, "", "", false},
		{"inline reasoning mentions it, answer is a letter", mc, "<think>Is it unanswerable? Passage 3 says cosine.</think>\nB", "", false},
		{"free-form answer mentioning the word mid-way", free, "Parked tokens are restored by score, highest first [p4]. " +
			"An earlier draft called the restoration order unanswerable, but the method section settles it: a residual " +
			"network refreshes each token before it re-enters the sequence, so no token comes back stale, and the " +
			"schedule decides how many return at each layer [p5].", "", false},
		{"reasoning only, the word mid-way", mc, "", "Could be unanswerable. Actually passage 3 names it.\nAnswer: B", false},
		{"answerable", mc, "Answerable. B", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := unanswerable(c.output, c.reasoning, c.q); got != c.want {
				t.Errorf("unanswerable(%q, %q) = %v, want %v", c.output, c.reasoning, got, c.want)
			}
		})
	}
}

// The acceptance of issue 16 for self-route, under the evidence reader
// (right exactly when all gold evidence is in its context, "unanswerable"
// when asked to say so and it is not): self-route is as accurate as the
// whole paper, a question goes on to the paper exactly when its passages
// lack some gold evidence, and the run's prompt tokens are the passages'
// plus the paper's for those questions. The settings are self-route's
// defaults (bm25, k 5, the question as stored, 512-token passages), the
// sample's scale (128-token passages, ~25 a paper, as a real paper has at
// 512) and the cheapest setting found (64-token passages, k 15, --expand
// 1). The sample's papers are ~3,100 tokens, so with bm25 alone none
// reaches the 60% of full's tokens (74-88%). With a reranker that
// knows the evidence (the gold-first cross-encoder double, what a strong
// reranker approaches) over 128-token passages, self-route costs about 30%
// of full's tokens.
func TestSelfRouteUnderEvidenceReader(t *testing.T) {
	cases := []selfRouteCase{
		{"defaults", 512, 5, 0, false, 1},
		{"sample scale", 128, 5, 0, false, 1},
		{"cheapest found", 64, 15, 1, false, 1},
		{"reranked", 128, 5, 0, true, 0.60},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkSelfRouteCase(t, c) })
	}
}

// selfRouteCase is a setting TestSelfRouteUnderEvidenceReader runs
// self-route and full under.
type selfRouteCase struct {
	name                  string
	passageTokens, k, exp int
	// rerank puts a cross-encoder double that scores passages by the
	// gold evidence they hold (what a strong reranker approaches)
	// over bm25's top 40, which is every passage of a sample paper at
	// 128 tokens; maxShare is then the aim, 60% of full.
	rerank   bool
	maxShare float64
}

// checkSelfRouteCase runs full and self-route under the evidence reader
// in setting c and checks each self-route record and the summary.
func checkSelfRouteCase(t *testing.T, c selfRouteCase) {
	qs, st, ix := fixtureSized(t, c.passageTokens)
	opt := selfRouteOptions(t, c, qs, st, ix)
	res, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := ReadResults(filepath.Join(opt.Config.Out, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	toFull, ragTokens := checkSelfRouteRecords(t, st, qs, recs, c.exp)
	checkSelfRouteSummary(t, c, res, len(qs), toFull, ragTokens)
}

// selfRouteOptions are the run's options in setting c: self-route's
// defaults (checked), c's passages, k and expansion, and the gold-first
// reranker when c asks for it.
func selfRouteOptions(t *testing.T, c selfRouteCase, qs []bench.Question, st *corpus.Store, ix *index.Index) Options {
	t.Helper()
	cfg := sampleConfig(t, "reader", Full, mode.SelfRoute)
	cfg.Runs, cfg.K, cfg.MaxPassageTokens, cfg.Expand = 1, c.k, c.passageTokens, c.exp
	if cfg.RouteRetriever != "bm25" || cfg.QueryForm != "full" {
		t.Fatalf("self-route defaults: retriever %q, query %q", cfg.RouteRetriever, cfg.QueryForm)
	}
	opt := Options{Config: cfg, Chat: evidenceReader(qs), Corpus: st, Index: ix, Questions: qs}
	if c.rerank {
		srv := reranktest.NewServer(t, reranktest.Config{Protocol: reranktest.TEI, Score: sampletest.GoldFirst(qs)})
		rr, err := rerank.NewAPI(rerank.APIOptions{BaseURL: srv.BaseURL()})
		if err != nil {
			t.Fatal(err)
		}
		opt.Config.Rerank, opt.Config.RerankBaseURL, opt.Config.RerankProtocol, opt.Config.RerankDepth = "api", srv.BaseURL(), rr.Protocol(), 40
		opt.Rerank = rr
	}
	return opt
}

// checkSelfRouteRecords checks every self-route record (checkSelfRouteRecord)
// and returns how many went on to the paper and their first calls'
// prompt tokens, summed.
func checkSelfRouteRecords(t *testing.T, st *corpus.Store, qs []bench.Question, recs []Record, exp int) (toFull, ragTokens int) {
	t.Helper()
	byQ := map[string]Record{}
	for _, r := range recs {
		if r.Mode == Full {
			byQ[r.QuestionID] = r
		}
	}
	gold := map[string]*evidence.Gold{}
	for _, q := range qs {
		gold[q.ID] = evidence.ParseGold(q.Evidence, evidence.Options{})
	}
	for _, r := range recs {
		if r.Mode != mode.SelfRoute {
			continue
		}
		if checkSelfRouteRecord(t, st, r, gold[r.QuestionID], byQ[r.QuestionID], exp) {
			toFull++
		}
		ragTokens += r.RouteCalls[0].PromptTokens
	}
	return toFull, ragTokens
}

// checkSelfRouteRecord checks self-route record r, of gold evidence g,
// against the full record of its question: the route follows the
// reader's reply, and so the evidence, and the prompt tokens are the
// calls'. It reports whether r went on to the paper.
func checkSelfRouteRecord(t *testing.T, st *corpus.Store, r Record, g *evidence.Gold, full Record, exp int) bool {
	t.Helper()
	if r.Error != "" {
		t.Fatalf("%s: %s", r.QuestionID, r.Error)
	}
	first := r.RouteCalls[0]
	// The route follows the reader's reply, and so the evidence:
	// on to the paper exactly when the passages lack some. (With
	// --expand the reader sees merged blocks, which can hold a
	// sentence that straddles two passages.)
	complete := first.Output != "Unanswerable."
	if exp == 0 {
		if pc := g.Score(passageTexts(t, st, r)).CompleteAt(len(r.Context)) == 1; pc != complete {
			t.Errorf("%s: evidence complete in the passages %v, the reader replied %q", r.QuestionID, pc, first.Output)
		}
	}
	wantRoute := RouteRAG
	if !complete {
		wantRoute = RouteFull
	}
	if r.Route != wantRoute || first.Route != RouteRAG || first.Unanswerable != !complete {
		t.Errorf("%s: route %q (first call %+v), evidence complete %v", r.QuestionID, r.Route, first, complete)
	}
	want := first.PromptTokens
	if r.Route == RouteFull {
		if len(r.RouteCalls) != 2 || r.RouteCalls[1].Route != RouteFull || r.RouteCalls[1].PromptTokens != full.PromptTokens {
			t.Fatalf("%s: calls %+v, full's prompt %d tokens", r.QuestionID, r.RouteCalls, full.PromptTokens)
		}
		want += r.RouteCalls[1].PromptTokens
	} else if len(r.RouteCalls) != 1 {
		t.Errorf("%s: %d calls on the rag route", r.QuestionID, len(r.RouteCalls))
	}
	if r.PromptTokens != want {
		t.Errorf("%s: prompt tokens %d, want the calls' sum %d", r.QuestionID, r.PromptTokens, want)
	}
	return !complete
}

// checkSelfRouteSummary checks the summary of setting c's run over nq
// questions, toFull of which went on to the paper: self-route as
// accurate as full, the routes counted and said, its cost under
// c.maxShare of full's, its effect against full zero.
func checkSelfRouteSummary(t *testing.T, c selfRouteCase, res Result, nq, toFull, ragTokens int) {
	t.Helper()
	full, sr := res.Summary.ByMode[Full], res.Summary.ByMode[mode.SelfRoute]
	ratio := sr.PromptTokens / full.PromptTokens
	t.Logf("%s (passages %d tokens, k %d, expand %d): full accuracy %.3f, %.0f prompt tokens; self-route accuracy %.3f, %.0f prompt tokens (%.0f%% of full); %d of %d questions went on to the paper; first call %.0f tokens",
		c.name, c.passageTokens, c.k, c.exp, full.Accuracy, full.PromptTokens, sr.Accuracy, sr.PromptTokens, 100*ratio, toFull, nq, float64(ragTokens)/float64(nq))
	if full.Accuracy != 1 || sr.Accuracy != full.Accuracy {
		t.Errorf("accuracy: self-route %.3f, full %.3f", sr.Accuracy, full.Accuracy)
	}
	if sr.Routes[RouteFull] != toFull || sr.Routes[RouteRAG] != nq-toFull {
		t.Errorf("summary routes %v, want %d to the paper", sr.Routes, toFull)
	}
	if md := Markdown(res.Summary); !strings.Contains(md, fmt.Sprintf("self-route: %d of %d answers came from the passages; %d went on to the whole paper", nq-toFull, nq, toFull)) {
		t.Errorf("summary.md does not say how self-route went:\n%s", md)
	}
	if toFull == 0 || toFull == nq {
		t.Errorf("%d of %d questions went on to the paper: the route tells nothing", toFull, nq)
	}
	if ratio >= c.maxShare {
		t.Errorf("self-route costs %.0f%% of full's prompt tokens, want under %.0f%%", 100*ratio, 100*c.maxShare)
	}
	// The summary's RAG-effect table measures self-route against
	// its baseline, full.
	found := false
	for _, e := range res.Summary.Effects {
		if e.Mode == mode.SelfRoute {
			found = e.Baseline == Full && e.Diff == 0
		}
	}
	if !found {
		t.Errorf("no zero effect of self-route against full in %+v", res.Summary.Effects)
	}
}

// passageTexts are the texts of the passages a record's first prompt held.
func passageTexts(t *testing.T, st *corpus.Store, r Record) []string {
	t.Helper()
	ps, err := st.Passages(r.PaperID)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]string{}
	for _, p := range ps {
		byID[p.PassageID] = p.Text
	}
	var out []string
	for _, c := range r.Context {
		out = append(out, byID[c.PassageID])
	}
	return out
}

// Both calls of a self-route question come back from the response cache
// when a run is redone: a resume after a crash pays for neither again, and
// the record is the same.
func TestSelfRouteReplaysFromCache(t *testing.T) {
	qs, st, ix := fixtureSized(t, 128)
	var calls atomic.Int64
	inner := evidenceReader(qs)
	counting := model.ChatFunc(func(ctx context.Context, req model.Request) (model.Response, error) {
		calls.Add(1)
		resp, err := inner.Complete(ctx, req)
		resp.Usage = model.Usage{PromptTokens: len(req.Messages[0].Content) / 4, CompletionTokens: 3}
		return resp, err
	})
	cache, err := model.WithCache(counting, filepath.Join(t.TempDir(), "cache.db"), "http://test/v1")
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	cfg := sampleConfig(t, "reader", mode.SelfRoute)
	cfg.Runs = 1
	if _, err := Run(context.Background(), Options{Config: cfg, Chat: cache, Corpus: st, Index: ix, Questions: qs}); err != nil {
		t.Fatal(err)
	}
	first, _ := ReadResults(filepath.Join(cfg.Out, ResultsFile))
	paid := calls.Load()
	var full int
	for _, r := range first {
		if r.Route == RouteFull {
			full++
			if r.Usage.PromptTokens != r.RouteCalls[0].Usage.PromptTokens+r.RouteCalls[1].Usage.PromptTokens || r.Usage.CompletionTokens != 6 {
				t.Errorf("%s: usage %+v is not the sum of %+v", r.QuestionID, r.Usage, r.RouteCalls)
			}
		}
	}
	if full == 0 || paid != int64(len(qs)+full) {
		t.Fatalf("%d calls for %d questions, %d of them routed to the paper", paid, len(qs), full)
	}
	// The records are lost (a crash before they were written); the calls
	// were made.
	if err := os.Remove(filepath.Join(cfg.Out, ResultsFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), Options{Config: cfg, Chat: cache, Corpus: st, Index: ix, Questions: qs}); err != nil {
		t.Fatal(err)
	}
	if n := calls.Load() - paid; n != 0 {
		t.Errorf("the redone run made %d calls", n)
	}
	again, _ := ReadResults(filepath.Join(cfg.Out, ResultsFile))
	if len(again) != len(first) {
		t.Fatalf("%d records, then %d", len(first), len(again))
	}
	byQ := map[string]Record{}
	for _, r := range first {
		byQ[r.QuestionID] = r
	}
	for _, r := range again {
		f := byQ[r.QuestionID]
		if r.Route != f.Route || r.PromptTokens != f.PromptTokens || r.Usage != f.Usage || !r.Cached || len(r.RouteCalls) != len(f.RouteCalls) {
			t.Fatalf("%s: replayed %q %d %+v cached %v, first %q %d %+v", r.QuestionID, r.Route, r.PromptTokens, r.Usage, r.Cached, f.Route, f.PromptTokens, f.Usage)
		}
		for j := range r.RouteCalls {
			if !r.RouteCalls[j].Cached || r.RouteCalls[j].Output != f.RouteCalls[j].Output {
				t.Errorf("%s call %d: %+v", r.QuestionID, j, r.RouteCalls[j])
			}
		}
	}
}

// The dry run counts self-route's first call, and bounds the run by both.
func TestSelfRouteDryRun(t *testing.T) {
	qs, st, ix := fixtureSized(t, 128)
	cfg := sampleConfig(t, "m", Full, mode.SelfRoute)
	cfg.Runs = 1
	p, err := DryRun(context.Background(), Options{Config: cfg, Corpus: st, Index: ix, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	full, sr := p.ByMode[Full], p.ByMode[mode.SelfRoute]
	if sr.Calls != len(qs) || sr.CallsMax != 2*len(qs) || sr.PromptTokens >= full.PromptTokens || sr.PromptTokensMax != sr.PromptTokens+full.PromptTokens {
		t.Errorf("self-route plan %+v, full %+v", sr, full)
	}
}

// The settings searched for a cheaper self-route on the sample (passage
// size × k × --expand × retriever); set PAPERLENS_ROUTE_GRID=1 to run it
// (under a minute). At every setting self-route must match full's accuracy under
// the evidence reader; the log gives each setting's share of full's
// prompt tokens.
func TestSelfRouteSettingsGrid(t *testing.T) {
	if os.Getenv("PAPERLENS_ROUTE_GRID") == "" {
		t.Skip("set PAPERLENS_ROUTE_GRID=1 to search the settings")
	}
	best, bestAt := 2.0, ""
	for _, size := range []int{32, 64, 128} {
		qs, st, ix := fixtureSized(t, size)
		for _, k := range []int{5, 10, 15} {
			for _, exp := range []int{0, 1, 2} {
				for _, retr := range []string{"bm25", "hybrid"} {
					cfg := sampleConfig(t, "reader", Full, mode.SelfRoute)
					cfg.Runs, cfg.K, cfg.MaxPassageTokens, cfg.Expand, cfg.RouteRetriever = 1, k, size, exp, retr
					res, err := Run(context.Background(), Options{Config: cfg, Chat: evidenceReader(qs), Corpus: st, Index: ix, Questions: qs})
					if err != nil {
						t.Fatal(err)
					}
					full, sr := res.Summary.ByMode[Full], res.Summary.ByMode[mode.SelfRoute]
					if sr.Accuracy != full.Accuracy {
						t.Errorf("passages %d k %d expand %d %s: self-route %.3f, full %.3f", size, k, exp, retr, sr.Accuracy, full.Accuracy)
					}
					ratio := sr.PromptTokens / full.PromptTokens
					at := fmt.Sprintf("passages %d, k %d, expand %d, %s", size, k, exp, retr)
					t.Logf("%-36s %5.0f tokens, %3.0f%% of full, %2d of %d to the paper", at, sr.PromptTokens, 100*ratio, sr.Routes[RouteFull], len(qs))
					if ratio < best {
						best, bestAt = ratio, at
					}
				}
			}
		}
	}
	t.Logf("cheapest: %s, %.0f%% of full's prompt tokens", bestAt, 100*best)
}
