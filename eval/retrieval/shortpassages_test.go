package retrieval

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/chunk"
	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/internal/testkit/sampletest"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/evidence"
	"github.com/paperlens/paperlens/retrieve/index"
)

// shortHome ingests the sample's papers (their paper_content) and the
// shared corpus (its PDFs, HTML pages and seed texts) into a fresh home in
// passages of at most maxTokens, short ones merged under minPassage
// (ingest.Options.MinPassageTokens; -1: as packed), and indexes it.
func shortHome(t testing.TB, qs []bench.Question, files []string, maxTokens, minPassage int) (*corpus.Store, *index.Index) {
	t.Helper()
	ctx := context.Background()
	home := t.TempDir()
	st, err := corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	opt := ingest.Options{MaxTokens: maxTokens, MinPassageTokens: minPassage, Workers: 1, Isolation: &ingest.Isolation{Off: true}}
	var texts []ingest.Text
	seen := map[string]bool{}
	for _, q := range qs {
		if !seen[q.PaperID] {
			seen[q.PaperID] = true
			texts = append(texts, ingest.Text{ID: q.PaperID, Source: "sample", Content: q.PaperContent})
		}
	}
	if failed, err := ingest.RunTexts(ctx, st, texts, opt, func(ingest.Result) {}); err != nil || failed > 0 {
		t.Fatalf("ingest the sample: %d failed: %v", failed, err)
	}
	if len(files) > 0 {
		if failed, err := ingest.Run(ctx, st, files, opt, func(ingest.Result) {}); err != nil || failed > 0 {
			t.Fatalf("ingest the shared corpus: %d failed: %v", failed, err)
		}
	}
	ix, err := index.Open(ctx, index.Config{Home: home}, st)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Update(ctx, nil); err != nil {
		t.Fatal(err)
	}
	return st, ix
}

// shortCounts is how many passages a home holds, and how many of them are
// under the merging threshold of its passage size (chunk.DefaultMinTokens,
// at most a quarter of it), for the sample's papers and for the rest.
type shortCounts struct{ sample, sampleShort, corpus, corpusShort int }

func countShort(t testing.TB, st *corpus.Store, sample map[string]bool, maxTokens int) shortCounts {
	t.Helper()
	docs, err := st.Docs()
	if err != nil {
		t.Fatal(err)
	}
	var c shortCounts
	threshold := min(chunk.DefaultMinTokens, maxTokens/4)
	for _, d := range docs {
		ps, err := st.Passages(d.PaperID)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range ps {
			short := p.Tokens < threshold
			if sample[d.PaperID] {
				c.sample++
				if short {
					c.sampleShort++
				}
			} else {
				c.corpus++
				if short {
					c.corpusShort++
				}
			}
			if !short || d.MinPassageTokens < 0 {
				continue
			}
			// A short passage left after merging is one no neighbour
			// had room for.
			for _, j := range []int{i - 1, i + 1} {
				if j < 0 || j >= len(ps) {
					continue
				}
				a, b := min(i, j), max(i, j)
				if tokens.Count(ps[a].Text+ps[b].Text) <= maxTokens {
					t.Errorf("%s passage %d (%d tokens) is short, yet passage %d had room: %q", d.PaperID, i, p.Tokens, j, p.Text)
				}
			}
		}
	}
	return c
}

// corpusWide searches the whole corpus with each question (its stem and
// options, ElaipBench's query) by the corpus-wide BM25 and reports, over
// the top 5 of every question, the share of hits under
// chunk.DefaultMinTokens, the share from the question's own paper, and the
// mean recall@5 of the gold evidence.
func corpusWide(t testing.TB, ix *index.Index, qs []bench.Question) (shortShare, ownShare, recall5 float64) {
	t.Helper()
	r, err := ix.Retriever(index.BM25)
	if err != nil {
		t.Fatal(err)
	}
	hits, short, own, n := 0, 0, 0, 0
	for _, q := range qs {
		texts, err := retrieve.QueryTexts(retrieve.FormFull, q.MCQ.Stem, q.MCQ.OptionLines())
		if err != nil {
			t.Fatal(err)
		}
		hs, err := r.Search(context.Background(), retrieve.Query{Text: texts[0], K: 5})
		if err != nil {
			t.Fatal(err)
		}
		var passages []string
		for _, h := range hs {
			hits++
			passages = append(passages, h.Text)
			if tokens.Count(h.Text) < chunk.DefaultMinTokens {
				short++
			}
			if h.PaperID == q.PaperID {
				own++
			}
		}
		if g := evidence.ParseGold(q.Evidence, evidence.Options{}); !g.Empty() {
			recall5 += g.Score(passages).RecallAt(5)
			n++
		}
	}
	return float64(short) / float64(hits), float64(own) / float64(hits), recall5 / float64(n)
}

// titleQueries searches the whole corpus by the corpus-wide BM25 with
// each shared-corpus paper's title, as an agent or the corpus web provider
// looking for a paper does, and reports the share of top-1 hits under
// chunk.DefaultMinTokens (a title alone answers nothing) and the share of
// top-1 hits from the paper itself.
func titleQueries(t testing.TB, st *corpus.Store, ix *index.Index, sample map[string]bool) (shortTop1, ownTop1 float64) {
	t.Helper()
	docs, err := st.Docs()
	if err != nil {
		t.Fatal(err)
	}
	r, err := ix.Retriever(index.BM25)
	if err != nil {
		t.Fatal(err)
	}
	n, short, own := 0, 0, 0
	for _, d := range docs {
		if sample[d.PaperID] || d.Title == "" {
			continue
		}
		hs, err := r.Search(context.Background(), retrieve.Query{Text: d.Title, K: 1})
		if err != nil {
			t.Fatal(err)
		}
		n++
		if len(hs) > 0 && tokens.Count(hs[0].Text) < chunk.DefaultMinTokens {
			short++
		}
		if len(hs) > 0 && hs[0].PaperID == d.PaperID {
			own++
		}
	}
	return float64(short) / float64(n), float64(own) / float64(n)
}

// Merging passages under chunk.DefaultMinTokens (issue 25), measured
// against the passages as packed (MinPassageTokens -1):
//
//   - the ElaipBench sample with the shared corpus (its PDFs, HTML pages
//     and seed texts) at 512-token passages: how many passages are short,
//     what corpus-wide BM25 returns for the sample's questions and for each
//     paper's title, and evidence recall@5 within each question's paper;
//   - the sample alone at 128-token passages (where a 3,000-token sample
//     paper has as many passages as a real paper at 512);
//   - the sample's papers from their files (testdata/papers: PDF, HTML,
//     Markdown, text), as eval --papers reads them, at 512 and 128;
//   - the ground-truth PDFs and their 17 questions at 64-token passages
//     (testdata/groundtruth-qa), real PDF extraction whose titles,
//     captions and table rows do make short passages.
//
// Run with go test -bench ShortPassages -run '^$' ./eval/retrieval to read the table.
func BenchmarkShortPassages(b *testing.B) {
	// One measurement, not a timing: it ingests the shared corpus twice
	// (about 13 s of CPU), too much for every go test ./... run. The
	// merge itself is tested in package chunk and on real papers in
	// package ingest.
	for b.Loop() {
		shortPassagesTable(b)
	}
}

func shortPassagesTable(t testing.TB) {
	qs := sampletest.Questions(t)
	sample := map[string]bool{}
	for _, q := range qs {
		sample[q.PaperID] = true
	}
	var files []string
	for _, pattern := range [][]string{{"corpus", "pdf", "*.pdf"}, {"corpus", "html", "*"}, {"seeds", "*.txt"}} {
		files = append(files, testcorpus.Glob(t, pattern...)...)
	}
	gtQs, _, err := bench.LoadElaipBench(filepath.Join("..", "..", "testdata", "groundtruth-qa", "questions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	papers, err := filepath.Glob(filepath.Join("..", "..", "testdata", "papers", "*"))
	if err != nil || len(papers) != 5 {
		t.Fatalf("the sample's papers as files: %d, %v", len(papers), err)
	}
	gtFiles, err := filepath.Glob(filepath.Join("..", "..", "testdata", "groundtruth", "*.pdf"))
	if err != nil || len(gtFiles) != 6 {
		t.Fatalf("ground-truth PDFs: %d, %v", len(gtFiles), err)
	}
	retrievers := []string{index.Okapi, index.Bleve, index.Dense, index.Hybrid}
	type row struct {
		counts                    shortCounts
		shortTop5, ownTop5, wideR float64
		titleShort, titleOwn      float64
		recall5, mrr              map[string]float64
	}
	results := map[string]row{}
	var table strings.Builder
	for _, set := range []struct {
		name      string
		qs        []bench.Question
		withText  bool // ingest the questions' paper_content
		files     []string
		maxTokens int
	}{
		{"sample+corpus", qs, true, files, 512},
		{"sample", qs, true, nil, 128},
		{"sample-files", qs, false, papers, 512},
		{"sample-files", qs, false, papers, 128},
		{"groundtruth", gtQs, false, gtFiles, 64},
	} {
		for _, minPassage := range []int{-1, 0} {
			texts := set.qs
			if !set.withText {
				texts = nil
			}
			st, ix := shortHome(t, texts, set.files, set.maxTokens, minPassage)
			var r row
			r.counts = countShort(t, st, sample, set.maxTokens)
			if set.name == "sample+corpus" {
				r.shortTop5, r.ownTop5, r.wideR = corpusWide(t, ix, set.qs)
				r.titleShort, r.titleOwn = titleQueries(t, st, ix, sample)
			}
			sum, err := Run(context.Background(), ix, set.qs, Config{Retrievers: retrievers, Forms: []retrieve.QueryForm{retrieve.FormFull}, Ks: []int{5}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			r.recall5, r.mrr = map[string]float64{}, map[string]float64{}
			for _, name := range retrievers {
				r.recall5[name] = sum.Retrievers[Label(name, retrieve.FormFull)]["recall@5"]
				r.mrr[name] = sum.Retrievers[Label(name, retrieve.FormFull)]["mrr"]
			}
			setting := "merged"
			if minPassage < 0 {
				setting = "packed"
			}
			key := fmt.Sprintf("%s@%d %s", set.name, set.maxTokens, setting)
			results[key] = r
			fmt.Fprintf(&table, "%-24s sample %3d passages, %2d short | others %4d passages, %3d short (under %d)",
				key, r.counts.sample, r.counts.sampleShort, r.counts.corpus, r.counts.corpusShort, min(chunk.DefaultMinTokens, set.maxTokens/4))
			names := append([]string(nil), retrievers...)
			sort.Strings(names)
			table.WriteString(" | recall@5")
			for _, name := range names {
				fmt.Fprintf(&table, " %s %.3f", name, r.recall5[name])
			}
			table.WriteString(" | mrr")
			for _, name := range names {
				fmt.Fprintf(&table, " %s %.3f", name, r.mrr[name])
			}
			if set.name == "sample+corpus" {
				fmt.Fprintf(&table, " | corpus-wide bm25: questions' top 5 %.3f short, %.3f own paper, recall@5 %.3f; titles' top 1 %.3f short, %.3f own paper",
					r.shortTop5, r.ownTop5, r.wideR, r.titleShort, r.titleOwn)
			}
			table.WriteString("\n")
		}
	}
	t.Logf("short passages (under %d tokens, or a quarter of a smaller passage size) and evidence recall@5 (query: full) by retriever, packed vs merged:\n%s",
		chunk.DefaultMinTokens, table.String())

	// Okapi and Bleve score within the question's paper, on passages the
	// merge changes only where they were short: no loss. Dense is left
	// out: LSA is fitted on the whole home, so a change in the corpus's
	// passages moves every paper's vectors (the sample's own passages are
	// the same either way at 512 tokens: none is short).
	for _, set := range []string{"sample+corpus@512", "sample@128", "sample-files@512", "sample-files@128", "groundtruth@64"} {
		for _, name := range []string{index.Okapi, index.Bleve} {
			if m, p := results[set+" merged"].recall5[name], results[set+" packed"].recall5[name]; m < p {
				t.Errorf("%s %s: recall@5 %.3f merged, %.3f packed", set, name, m, p)
			}
		}
	}
	packed, merged := results["sample+corpus@512 packed"], results["sample+corpus@512 merged"]
	if merged.counts.corpusShort >= packed.counts.corpusShort {
		t.Errorf("merging left %d short passages in the shared corpus, packing %d", merged.counts.corpusShort, packed.counts.corpusShort)
	}
	if merged.shortTop5 > packed.shortTop5 || merged.titleShort >= packed.titleShort {
		t.Errorf("corpus-wide, short passages are %.3f of the questions' top 5 and %.3f of the titles' top 1 after merging, %.3f and %.3f before",
			merged.shortTop5, merged.titleShort, packed.shortTop5, packed.titleShort)
	}
	if merged.titleOwn < packed.titleOwn {
		t.Errorf("a paper's title finds the paper first %.3f of the time after merging, %.3f before", merged.titleOwn, packed.titleOwn)
	}
}
