package bm25

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/paperlens/paperlens/chunk"
	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
	"github.com/paperlens/paperlens/retrieve"
)

// seedPassages chunks the five seed papers into passages of at most
// maxTokens tokens.
func seedPassages(t testing.TB, maxTokens int) []corpus.Passage {
	t.Helper()
	var ps []corpus.Passage
	for _, path := range testcorpus.Glob(t, "seeds", "*.txt") {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		paper := strings.TrimSuffix(filepath.Base(path), ".txt")
		for _, c := range chunk.Split(string(raw), chunk.Options{MaxTokens: maxTokens}) {
			ps = append(ps, corpus.Passage{PaperID: paper, PassageID: corpus.PassageID(paper, c.Ordinal), Ordinal: c.Ordinal, Text: c.Text})
		}
	}
	return ps
}

// seedQueries are questions about the seed papers and pieces of their
// passages: rare and common words, repeated words, a term in most passages.
func seedQueries(ps []corpus.Passage) []string {
	qs := []string{
		"For the BM25-based retrieval, we utilize the rank_bm25 implementation with the default hyper-parameters",
		"How well do LLM judges agree with experts on long-form answers?",
		"answer extraction from model outputs with regular expressions",
		"the the the model model",
		"long-tail forum questions",
		"Encyclo-K statements composed into questions",
		"reasoning paralysis",
	}
	for i := 0; i < len(ps); i += 7 {
		w := strings.Fields(ps[i].Text)
		qs = append(qs, strings.Join(w[len(w)/3:min(len(w), len(w)/3+12)], " "))
	}
	return qs
}

// Corpus-wide postings give exactly the hits and scores of scoring paper by
// paper, for both tokenizers and any k, on the seed papers in small
// passages; and again after papers change, which must drop the postings.
func TestOkapiCorpusWideMatchesByPaper(t *testing.T) {
	ps := seedPassages(t, 128)
	queries := seedQueries(ps)
	ctx := context.Background()
	check := func(t *testing.T, o *Okapi) {
		t.Helper()
		n := 0
		for _, text := range queries {
			for _, k := range []int{1, 5, 50} {
				q := retrieve.Query{Text: text, K: k}
				got, err := o.Search(ctx, q)
				if err != nil {
					t.Fatalf("%q: %v", text, err)
				}
				want, err := o.search(ctx, q, o.scoreCorpusByPaper)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%q k=%d:\n got %v\nwant %v", text, k, scoresOf(got), scoresOf(want))
				}
				n += len(got)
			}
		}
		if n == 0 {
			t.Fatal("no query found anything")
		}
	}
	for _, tok := range []string{TokenizerAnalyzer, TokenizerWhitespace} {
		t.Run(tok, func(t *testing.T) {
			o := newOkapi(t, OkapiOptions{Tokenizer: tok}, ps)
			if o.Count() < 500 {
				t.Fatalf("only %d passages", o.Count())
			}
			check(t, o) // paper by paper until the background build is done
			waitCorpus(t, o)
			check(t, o)
			// Drop one paper, shrink another, add one: the next corpus-wide
			// search must see the new corpus.
			first, last := ps[0].PaperID, ps[len(ps)-1].PaperID
			if err := o.DeletePaper(first); err != nil {
				t.Fatal(err)
			}
			var shrunk []corpus.Passage
			for _, p := range ps {
				if p.PaperID == last && p.Ordinal%2 == 0 {
					shrunk = append(shrunk, p)
				}
			}
			if err := o.ReplacePapers(shrunk); err != nil {
				t.Fatal(err)
			}
			if err := o.Add(passages("extra", "BM25 retrieval of passages for reasoning models", "rank_bm25 default hyper-parameters")); err != nil {
				t.Fatal(err)
			}
			if corpusOf(o) != nil {
				t.Fatal("changes kept the old corpus-wide postings")
			}
			o.PrepareCorpus()
			if corpusOf(o) == nil {
				t.Fatal("PrepareCorpus built nothing")
			}
			check(t, o)
			hits := mustSearch(t, o, retrieve.Query{Text: "rank_bm25 default hyper-parameters", K: 100})
			for _, h := range hits {
				if h.PaperID == first {
					t.Fatalf("deleted paper %s still found: %v", first, h.PassageID)
				}
			}
			if !strings.Contains(strings.Join(hitIDs(hits), " "), "extra#1") {
				t.Errorf("added passage not found: %v", hitIDs(hits))
			}
		})
	}
}

func corpusOf(o *Okapi) *okCorpus {
	o.gmu.Lock()
	defer o.gmu.Unlock()
	return o.corpus
}

// waitCorpus waits for the postings a corpus-wide search started building.
// The deadline only keeps a broken build from hanging the test.
func waitCorpus(t *testing.T, o *Okapi) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); corpusOf(o) == nil; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the corpus-wide postings a search started were never built")
		}
	}
}

func scoresOf(hits []retrieve.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.PassageID + "=" + strings.TrimRight(strings.TrimRight(fmtFloat(h.Score), "0"), ".")
	}
	return out
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// Corpus-wide searches while papers change, each search starting or using
// a background build: every search succeeds, and once the changes stop the
// hits are those of a fresh build. Run with -race.
func TestOkapiCorpusWideWhileChanging(t *testing.T) {
	ps := seedPassages(t, 256)
	o := newOkapi(t, OkapiOptions{}, ps)
	ctx := context.Background()
	queries := seedQueries(ps)[:8]
	done := make(chan struct{})
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					errs <- nil
					return
				default:
				}
				if _, err := o.Search(ctx, retrieve.Query{Text: queries[i%len(queries)], K: 5}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for i := range 20 {
		if err := o.ReplacePapers(passages("moving", strings.Repeat("reasoning retrieval ", i+1), "rank_bm25")); err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 {
			if err := o.DeletePaper("moving"); err != nil {
				t.Fatal(err)
			}
		}
	}
	close(done)
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	fresh := newOkapi(t, OkapiOptions{}, ps, passages("moving", strings.Repeat("reasoning retrieval ", 20), "rank_bm25"))
	o.PrepareCorpus()
	fresh.PrepareCorpus()
	for _, text := range queries {
		q := retrieve.Query{Text: text, K: 10}
		if got, want := mustSearch(t, o, q), mustSearch(t, fresh, q); !reflect.DeepEqual(got, want) {
			t.Errorf("%q after the changes: %v, fresh build %v", text, scoresOf(got), scoresOf(want))
		}
	}
}
