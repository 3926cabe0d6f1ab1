package session

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/trec"
)

// readerServer answers right exactly when the prompt holds the start of
// the question's first gold sentence, and "A" otherwise: a model whose
// accuracy depends on the passages it is given.
func readerServer(t *testing.T, qs []bench.Question) *modeltest.Server {
	return modeltest.NewServer(t, modeltest.Config{Answer: func(r modeltest.Request) (string, string) {
		p := r.Messages[len(r.Messages)-1].Content
		for _, q := range qs {
			if !strings.Contains(p, q.MCQ.Stem) {
				continue
			}
			first := strings.SplitN(q.Evidence, "\n", 2)[0]
			if strings.Contains(p, first[:min(40, len(first))]) {
				return "Answer: " + strings.Join(strings.Split(q.Answer, ""), ", "), ""
			}
			return "Answer: A", ""
		}
		return "", ""
	}})
}

// bm25File writes bm25's own retrieval of every question (the eval's
// query form and k) as a run file, with the trec writer.
func bm25File(t *testing.T, home string, qs []bench.Question, k int) string {
	t.Helper()
	ctx := context.Background()
	r, closer, err := Searcher(ctx, Retrieval{Home: home}, "bm25", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	var rks []trec.Ranking
	for _, q := range qs {
		texts, err := retrieve.QueryTexts(retrieve.FormFull, q.MCQ.Stem, q.MCQ.OptionLines())
		if err != nil {
			t.Fatal(err)
		}
		hits, err := r.Search(ctx, retrieve.Query{Text: texts[0], PaperID: q.PaperID, K: k})
		if err != nil {
			t.Fatal(err)
		}
		rk := trec.Ranking{QuestionID: q.ID}
		for _, h := range hits {
			rk.Hits = append(rk.Hits, trec.Hit{PassageID: h.PassageID, Score: h.Score})
		}
		rks = append(rks, rk)
	}
	path := filepath.Join(t.TempDir(), "bm25.trec")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := trec.WriteRun(f, "bm25", rks); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// --retrieved with a run file equal to bm25's own output is bm25: in an
// evaluation, mode run:NAME gets every question the same passages, in
// the same order with the same scores, and so the same prompts, answers
// and accuracy, from a model that reads its passages; config.json names
// the file and its SHA-256; and eval retrieval scores it exactly as
// bm25.
func TestRetrievedRunFileIsBM25(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	qs := loadSample(t)
	home := t.TempDir()
	const passageTokens, k = 128, 5
	// The home, ingested and indexed as the evaluation will find it.
	if _, err := EnsurePapers(ctx, Papers{Home: home, Data: sample, MaxTokens: passageTokens}, qs); err != nil {
		t.Fatal(err)
	}
	file := bm25File(t, home, qs, k)
	srv := readerServer(t, qs)
	req := Request{
		Config: run.Config{Bench: "elaipbench", Data: sample, Home: home, Model: "reader", BaseURL: srv.BaseURL(), APIKeyEnv: "OPENAI_API_KEY",
			Modes: []string{"closed-book", "bm25", "run:bm25"}, Runs: 1, K: k, MaxPassageTokens: passageTokens, Concurrency: 2, Out: filepath.Join(t.TempDir(), "run")},
		Retrieved: map[string]string{"bm25": file},
		Clients:   Clients{MaxAttempts: 2, AttemptTimeout: time.Minute},
		Env:       map[string]string{"OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""},
	}
	res, _, err := Eval(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := run.Dir(res.Dir).Records()
	if err != nil {
		t.Fatal(err)
	}
	checkRunFileRecordsAreBM25(t, qs, recs, k)
	bm, fromFile, cb := res.Summary.ByMode["bm25"], res.Summary.ByMode["run:bm25"], res.Summary.ByMode["closed-book"]
	t.Logf("accuracy: closed-book %.3f, bm25 %.3f, run:bm25 %.3f", cb.Accuracy, bm.Accuracy, fromFile.Accuracy)
	if bm.Accuracy != fromFile.Accuracy || bm.N != len(qs) || fromFile.N != len(qs) || bm.Accuracy <= cb.Accuracy {
		t.Errorf("accuracy: bm25 %.4f (n %d), run:bm25 %.4f (n %d), closed-book %.4f", bm.Accuracy, bm.N, fromFile.Accuracy, fromFile.N, cb.Accuracy)
	}
	checkConfigNamesRunFile(t, res.Dir, file)
	checkRetrievalScoresRunFileAsBM25(t, home, file, qs)
	checkRunFileOfMissingPassageRefused(t, req, file, srv)
}

// checkRunFileRecordsAreBM25 checks that, question by question, mode
// run:bm25 got bm25's k passages, in the same order with the same scores,
// and so the same prompt, answer and recall; and no record failed.
func checkRunFileRecordsAreBM25(t *testing.T, qs []bench.Question, recs []run.Record, k int) {
	t.Helper()
	type key struct{ q, mode string }
	byKey := map[key]run.Record{}
	for _, r := range recs {
		if r.Error != "" {
			t.Fatalf("%s [%s]: %s", r.QuestionID, r.Mode, r.Error)
		}
		byKey[key{r.QuestionID, r.Mode}] = r
	}
	for _, q := range qs {
		a, b := byKey[key{q.ID, "bm25"}], byKey[key{q.ID, "run:bm25"}]
		if len(a.Context) != k || len(b.Context) != len(a.Context) {
			t.Fatalf("%s: %d bm25 passages, %d from the file, want %d", q.ID, len(a.Context), len(b.Context), k)
		}
		for i := range a.Context {
			x, y := a.Context[i], b.Context[i]
			if x.PassageID != y.PassageID || x.Rank != y.Rank || x.Score != y.Score || y.Retriever != "run:bm25" {
				t.Errorf("%s passage %d: bm25 %+v, file %+v", q.ID, i+1, x, y)
			}
		}
		if a.PromptTokens != b.PromptTokens || a.Output != b.Output || a.Correct != b.Correct || *a.Recall != *b.Recall {
			t.Errorf("%s: bm25 %d tokens %q correct %v recall %v; file %d tokens %q correct %v recall %v", q.ID,
				a.PromptTokens, a.Output, a.Correct, *a.Recall, b.PromptTokens, b.Output, b.Correct, *b.Recall)
		}
	}
}

// checkConfigNamesRunFile checks config.json in the run folder dir names
// the run file and its SHA-256.
func checkConfigNamesRunFile(t *testing.T, dir, file string) {
	t.Helper()
	var cfg struct {
		Retrieved []map[string]string `json:"retrieved"`
	}
	b, _ := os.ReadFile(filepath.Join(dir, "config.json"))
	sum, _ := run.DataSHA256(file)
	if err := json.Unmarshal(b, &cfg); err != nil || len(cfg.Retrieved) != 1 || cfg.Retrieved[0]["name"] != "bm25" ||
		cfg.Retrieved[0]["path"] != file || cfg.Retrieved[0]["sha256"] != sum {
		t.Errorf("config.json's retrieved: %+v (%v), want bm25 %s %s", cfg.Retrieved, err, file, sum)
	}
}

// checkRetrievalScoresRunFileAsBM25 checks eval retrieval scores the run
// file as bm25, measure for measure.
func checkRetrievalScoresRunFileAsBM25(t *testing.T, home, file string, qs []bench.Question) {
	t.Helper()
	var perQ []retrieval.QuestionResult
	s, err := ScoreRetrieval(context.Background(), Retrieval{Home: home, Retrieved: map[string]string{"bm25": file}}, qs,
		retrieval.Config{Retrievers: []string{"bm25"}, Forms: []retrieve.QueryForm{retrieve.FormFull}, Ks: []int{1, 3, 5}},
		func(r retrieval.QuestionResult) { perQ = append(perQ, r) })
	if err != nil {
		t.Fatal(err)
	}
	a, f := s.Retrievers["bm25+full"], s.Retrievers["run:bm25+full"]
	if len(a) == 0 || len(perQ) != 2*s.N || fmt.Sprint(a) != fmt.Sprint(f) || a["passage_recall@5"] == 0 {
		t.Errorf("eval retrieval: bm25 %v, run:bm25 %v (%d results, n %d)", a, f, len(perQ), s.N)
	}
}

// checkRunFileOfMissingPassageRefused checks the eval req, given a copy of
// the run file that ranks a passage the corpus lacks, is refused before
// any call to srv, naming the file, the line and the passage.
func checkRunFileOfMissingPassageRefused(t *testing.T, req Request, file string, srv *modeltest.Server) {
	t.Helper()
	bad := filepath.Join(t.TempDir(), "bad.trec")
	text, _ := os.ReadFile(file)
	lines := strings.SplitAfter(string(text), "\n")
	lines[3] = strings.Replace(lines[3], "#", "#9", 1)
	os.WriteFile(bad, []byte(strings.Join(lines, "")), 0o644)
	req.Retrieved = map[string]string{"bm25": bad}
	req.Config.Out = filepath.Join(t.TempDir(), "bad")
	before := srv.Count()
	if _, _, err := Eval(context.Background(), req); err == nil || !strings.Contains(err.Error(), "--retrieved bm25: "+bad+" line 4: question ") ||
		!strings.Contains(err.Error(), "the corpus has no such passage") || srv.Count() != before {
		t.Errorf("a passage the corpus lacks: %v (%d calls)", err, srv.Count()-before)
	}
}
