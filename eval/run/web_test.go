package run

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/prompts"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/index"
)

// webFixture is the sample with its papers cut into passages of at most
// maxTokens, indexed; keep chooses the papers (and so the questions).
func webFixture(t testing.TB, maxTokens int, keep func(paperID string) bool) ([]bench.Question, *corpus.Store, *index.Index) {
	t.Helper()
	all, _, err := bench.LoadElaipBench(filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	st, err := corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var qs []bench.Question
	var texts []ingest.Text
	seen := map[string]bool{}
	for _, q := range all {
		if !keep(q.PaperID) {
			continue
		}
		qs = append(qs, q)
		if !seen[q.PaperID] {
			seen[q.PaperID] = true
			texts = append(texts, ingest.Text{ID: q.PaperID, Source: "sample", Content: q.PaperContent})
		}
	}
	if _, err := ingest.RunTexts(context.Background(), st, texts, ingest.Options{MaxTokens: maxTokens}, func(ingest.Result) {}); err != nil {
		t.Fatal(err)
	}
	ix, err := index.Open(context.Background(), index.Config{Home: home}, st)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Update(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return qs, st, ix
}

// With short passages a paper's own passages fill the top of the
// corpus-wide ranking for its questions: the corpus provider must still give
// every question the best five passages of other papers, exactly (checked
// against the whole ranking), and web and full+web keep every question.
func TestCorpusWebLeavesOutOwnPaperBeforeTheCut(t *testing.T) {
	qs, st, ix := webFixture(t, 32, func(string) bool { return true })
	const n = 5
	search := CorpusWeb(ix, st, n, 200)
	r, err := ix.Retriever("bm25")
	if err != nil {
		t.Fatal(err)
	}
	total := passageCount(st)
	crowded := 0 // questions whose first n others come after more than 20 of their own passages
	for _, q := range qs {
		d, _ := st.Doc(q.PaperID)
		query := q.MCQ.Stem + " " + d.Title
		docs, err := search(context.Background(), query, q.PaperID)
		if err != nil {
			t.Fatal(err)
		}
		all, err := r.Search(context.Background(), retrieve.Query{Text: query, K: total})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		ownBefore := 0
		for _, h := range all {
			if h.PaperID == q.PaperID {
				if len(want) < n {
					ownBefore++
				}
				continue
			}
			if len(want) < n {
				want = append(want, "corpus://"+h.PassageID)
			}
		}
		if ownBefore > 20 {
			crowded++
		}
		var got []string
		for i, d := range docs {
			got = append(got, d.URL)
			if d.Rank != i+1 || d.Status != "ok" || d.Tokens == 0 {
				t.Errorf("%s: doc %+v", q.ID, d)
			}
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: got %q, want %q", q.ID, got, want)
		}
	}
	if crowded == 0 {
		t.Error("no question has its own paper crowding the ranking: the test does not test the cut")
	}
	t.Logf("%d of %d questions have over 20 own passages before their first %d others", crowded, len(qs), n)

	cfg := sampleConfig(t, "reader", Web, FullWeb)
	cfg.Runs, cfg.WebResults = 1, n
	res, err := Run(context.Background(), Options{Config: cfg, Chat: reader(qs), Corpus: st, Index: ix, Questions: qs, Web: search})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{Web, FullWeb} {
		if s := res.Summary.ByMode[m]; s.N != len(qs) || s.Errors != 0 {
			t.Errorf("%s: n %d, errors %d, want n %d and no error", m, s.N, s.Errors, len(qs))
		}
	}
}

// A corpus of one paper leaves the corpus provider nothing to give: every
// question is still answered, web with the question alone (the closed-book
// prompt) and full+web with the paper alone (the full prompt), recorded
// without error and with an empty web list.
func TestWebWithNoResults(t *testing.T) {
	qs, st, ix := webFixture(t, 256, func(id string) bool { return id == "tidal-token-pruning" })
	if len(qs) == 0 {
		t.Fatal("no question on the paper")
	}
	cfg := sampleConfig(t, "reader", ClosedBook, Full, Web, FullWeb)
	cfg.Runs = 1
	search := CorpusWeb(ix, st, 5, 200)
	res, err := Run(context.Background(), Options{Config: cfg, Chat: reader(qs), Corpus: st, Index: ix, Questions: qs, Web: search})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := ReadResults(filepath.Join(cfg.Out, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if (r.Mode == Web || r.Mode == FullWeb) && (r.Error != "" || len(r.Web) != 0 || len(r.Context) != 0) {
			t.Errorf("%s %s: error %q, web %+v, context %+v", r.QuestionID, r.Mode, r.Error, r.Web, r.Context)
		}
	}
	for _, m := range []string{Web, FullWeb} {
		if s := res.Summary.ByMode[m]; s.N != len(qs) || s.Errors != 0 {
			t.Errorf("%s: n %d, errors %d", m, s.N, s.Errors)
		}
	}
	// The paper is what answers full+web, as it answers full.
	if a := res.Summary.ByMode[FullWeb].Accuracy; a != res.Summary.ByMode[Full].Accuracy || a != 1 {
		t.Errorf("full+web %.2f, full %.2f", a, res.Summary.ByMode[Full].Accuracy)
	}
	ps, err := prompts.Load("")
	if err != nil {
		t.Fatal(err)
	}
	b := newBuilder(Options{Config: cfg, Corpus: st, Index: ix, Web: search}, ps)
	for _, q := range qs {
		for mode, same := range map[string]string{Web: ClosedBook, FullWeb: Full} {
			got, err := b.build(context.Background(), q, mode)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := b.build(context.Background(), q, same)
			p := got.messages[0].Content
			if p != want.messages[0].Content || strings.Contains(p, "web") || got.web == nil {
				t.Errorf("%s %s: prompt differs from %s's or speaks of the web: %.300q", q.ID, mode, same, p)
			}
		}
	}
}
