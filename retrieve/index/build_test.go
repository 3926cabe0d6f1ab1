package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/retrieve"
)

// freshSearch builds a new home from the corpus of home (the same papers,
// ingested the same way) and returns every retriever's hits on it.
func freshSearch(t *testing.T, files []string, opts ...ingest.Options) map[string][][]retrieve.Hit {
	t.Helper()
	home := t.TempDir()
	st, err := corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	for i, o := range opts {
		if failed, err := ingest.Run(ctx, st, files[i:i+1], o, func(ingest.Result) {}); err != nil || failed > 0 {
			t.Fatalf("ingest: %d failed, %v", failed, err)
		}
	}
	if len(opts) == 0 {
		if failed, err := ingest.Run(ctx, st, files, ingest.Options{MaxTokens: 128}, func(ingest.Result) {}); err != nil || failed > 0 {
			t.Fatalf("ingest: %d failed, %v", failed, err)
		}
	}
	ix, err := Open(ctx, Config{Home: home}, st)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Update(ctx, nil); err != nil {
		t.Fatal(err)
	}
	return hitsOf(t, ix)
}

func hitsOf(t *testing.T, ix *Index) map[string][][]retrieve.Hit {
	t.Helper()
	return searchAll(t, ix)
}

// counts is what each index holds: it must be the corpus's passages, none
// twice and none left over from an earlier chunking.
func counts(t *testing.T, ix *Index) [3]int {
	t.Helper()
	b, err := ix.bleve.Count()
	if err != nil {
		t.Fatal(err)
	}
	v := 0
	if ix.vec != nil {
		if v, err = ix.vec.Count(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	return [3]int{b, ix.okapi.Count(), v}
}

func corpusPassages(t *testing.T, st *corpus.Store) int {
	t.Helper()
	docs, err := st.Docs()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range docs {
		n += d.Passages
	}
	return n
}

// A build cancelled part-way keeps what it marked, and the next Update
// finishes it: every index then holds each passage once and searches as a
// build that was never interrupted.
func TestCancelledBuildResumes(t *testing.T) {
	files := samplePapers(t)
	want := freshSearch(t, files)
	for _, stop := range []string{"bm25", "okapi", "lsa", "dense"} {
		t.Run(stop, func(t *testing.T) {
			home := t.TempDir()
			st, err := corpus.Open(home, false)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if failed, err := ingest.Run(context.Background(), st, files, ingest.Options{MaxTokens: 128}, func(ingest.Result) {}); err != nil || failed > 0 {
				t.Fatalf("ingest: %d failed, %v", failed, err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			ix, err := Open(ctx, Config{Home: home}, st)
			if err != nil {
				t.Fatal(err)
			}
			_, err = ix.Update(ctx, func(format string, _ ...any) {
				if strings.HasPrefix(format, stop) {
					cancel()
				}
			})
			if stop != "dense" && !errors.Is(err, context.Canceled) {
				// The last dense batch may finish before the next check.
				t.Fatalf("update cancelled at %s: %v", stop, err)
			}
			ix.Close()
			cancel()

			ix, err = Open(context.Background(), Config{Home: home}, st)
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			rep, err := ix.Update(context.Background(), nil)
			if err != nil {
				t.Fatalf("resumed update: %v", err)
			}
			if stop == "bm25" && rep.Passages != 0 {
				t.Errorf("the resumed update indexed %d passages in Bleve again; the first marked them", rep.Passages)
			}
			n := corpusPassages(t, st)
			if got := counts(t, ix); got != [3]int{n, n, n} {
				t.Errorf("Bleve, Okapi and vectors hold %v passages, the corpus %d", got, n)
			}
			if got := hitsOf(t, ix); !reflect.DeepEqual(got, want) {
				t.Errorf("hits after a resumed build differ from an uninterrupted one's\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

// A paper ingested again with another chunking replaces its passages in
// every index, and the home then searches as one built from scratch.
func TestRechunkedPaperReplaced(t *testing.T) {
	files := samplePapers(t)
	home := t.TempDir()
	st, ix, _ := build(t, home, files...)
	defer st.Close()
	ix.Close()
	if failed, err := ingest.Run(context.Background(), st, files[:1], ingest.Options{MaxTokens: 64}, func(ingest.Result) {}); err != nil || failed > 0 {
		t.Fatalf("re-ingest: %d failed, %v", failed, err)
	}
	ix, err := Open(context.Background(), Config{Home: home}, st)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	rep, err := ix.Update(context.Background(), nil)
	if err != nil || rep.Removed != 0 {
		t.Fatalf("update after re-chunking: %+v %v", rep, err)
	}
	n := corpusPassages(t, st)
	if got := counts(t, ix); got != [3]int{n, n, n} {
		t.Errorf("Bleve, Okapi and vectors hold %v passages, the corpus %d", got, n)
	}
	opts := make([]ingest.Options, len(files))
	for i := range opts {
		opts[i] = ingest.Options{MaxTokens: 128}
	}
	opts[0].MaxTokens = 64
	if got, want := hitsOf(t, ix), freshSearch(t, files, opts...); !reflect.DeepEqual(got, want) {
		t.Errorf("hits after re-chunking differ from a fresh build's\n got %+v\nwant %+v", got, want)
	}
}

// A read-only open for bm25 reads neither the LSA model nor the vectors,
// and with BM25 bleve a one-paper bm25 search does not read the Okapi file
// either: with each of them unreadable, the retrievers that do not need it
// still search, and only those that need the damaged file fail, saying
// which file and what to do.
func TestReadOnlyLoadsOnlyWhatIsSearched(t *testing.T) {
	home := t.TempDir()
	st, ix, _ := build(t, home, samplePapers(t)...)
	want := searchAll(t, ix)
	ix.Close()
	st.Close()
	for _, tc := range []damagedFile{
		{"lsa.model", []string{Dense, Hybrid}},
		{filepath.Join("vectors", "vectors.db"), []string{Dense, Hybrid}},
		// bm25 (and hybrid's bm25 part) is Okapi: corpus-wide always
		// (DefaultCorpusBM25), within one paper by default (DefaultBM25).
		// Within one paper with BM25 bleve it is Bleve, checked below.
		{"okapi.idx", []string{Okapi, BM25, Hybrid}},
	} {
		t.Run(tc.file, func(t *testing.T) { checkSearchWithDamagedFile(t, home, tc, want) })
	}
	// bm25 within one paper loads Okapi by default and nothing else; with
	// BM25 bleve it loads nothing, and over the corpus it then loads Okapi,
	// still not the embedder or the vectors.
	checkOnePaperBM25LoadsOnlyOkapi(t, home)
	checkBleveBM25LoadsOkapiOnlyOverTheCorpus(t, home)
}

// damagedFile is a file of the index made unreadable, and the retrievers
// that must then fail.
type damagedFile struct {
	file   string
	broken []string // retrievers that must fail
}

// checkSearchWithDamagedFile damages tc.file in the index at home (put
// back afterwards) and checks, read-only, that the retrievers in
// tc.broken fail naming it and the command that rebuilds it, while the
// others search as before damage (want).
func checkSearchWithDamagedFile(t *testing.T, home string, tc damagedFile, want map[string][][]retrieve.Hit) {
	path := filepath.Join(Dir(home), tc.file)
	if _, err := os.Stat(path); err != nil {
		entries, _ := os.ReadDir(filepath.Dir(path))
		t.Fatalf("%s: %v (the folder holds %v)", tc.file, err, entries)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Garbage of the same size, put back afterwards.
	if err := os.WriteFile(path, []byte(strings.Repeat("x", len(good))), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.WriteFile(path, good, 0o644)
	st, ro := openReadOnly(t, home)
	defer st.Close()
	defer ro.Close()
	for i, name := range Names() {
		r, err := ro.Retriever(name)
		if slices.Contains(tc.broken, name) {
			checkDamageReported(t, r, err, name, tc.file)
			continue
		}
		if err != nil {
			t.Fatalf("%s with %s damaged: %v", name, tc.file, err)
		}
		checkSearchesAsBefore(t, r, name, tc.file, want[Names()[i]])
	}
	if tc.file == "okapi.idx" {
		checkOnePaperBleveBM25WithoutOkapi(t, home, want)
	}
	if !slices.Contains(tc.broken, Dense) && ro.loadedEmbedder() == nil {
		t.Error("dense search did not load the embedder")
	}
}

// checkDamageReported checks retriever name, got as r with err, fails
// (on asking or on its first search) naming the damaged file and the
// command that rebuilds it.
func checkDamageReported(t *testing.T, r retrieve.Retriever, err error, name, file string) {
	t.Helper()
	if err == nil {
		_, err = r.Search(context.Background(), readOnlyQueries[0])
	}
	if err == nil || !strings.Contains(err.Error(), filepath.Base(file)) || !strings.Contains(err.Error(), "paperlens index") {
		t.Errorf("%s with %s damaged: %v; want an error naming the file and the command that rebuilds it", name, file, err)
	}
}

// checkSearchesAsBefore checks retriever name, with file damaged, gives
// the hits it gave before (want, by query).
func checkSearchesAsBefore(t *testing.T, r retrieve.Retriever, name, file string, want [][]retrieve.Hit) {
	t.Helper()
	for j, q := range readOnlyQueries {
		hits, err := r.Search(context.Background(), q)
		if err != nil {
			t.Fatalf("%s with %s damaged: %v", name, file, err)
		}
		if !reflect.DeepEqual(hits, want[j]) {
			t.Errorf("%s %q with %s damaged: hits differ", name, q.Text, file)
		}
	}
}

// checkOnePaperBleveBM25WithoutOkapi checks, with okapi.idx damaged, that
// a one-paper bm25 search with BM25 bleve still searches, as bleve.
func checkOnePaperBleveBM25WithoutOkapi(t *testing.T, home string, want map[string][][]retrieve.Hit) {
	t.Helper()
	stb, rob := openReadOnlyBleve(t, home)
	defer stb.Close()
	defer rob.Close()
	r, err := rob.Retriever(BM25)
	if err != nil {
		t.Fatal(err)
	}
	hits, err := r.Search(context.Background(), readOnlyQueries[1])
	if err != nil || !reflect.DeepEqual(hits, want[Bleve][1]) {
		t.Errorf("one-paper bm25 (bleve) with okapi.idx damaged: %v (hits equal bleve's: %v)", err, reflect.DeepEqual(hits, want[Bleve][1]))
	}
}

// checkOnePaperBM25LoadsOnlyOkapi checks bm25 within one paper loads
// Okapi by default, on its first search, and nothing else; and the
// summary names the vectors' embedder without loading it.
func checkOnePaperBM25LoadsOnlyOkapi(t *testing.T, home string) {
	t.Helper()
	st2, ro := openReadOnly(t, home)
	defer st2.Close()
	defer ro.Close()
	r, err := ro.Retriever(BM25)
	if err != nil {
		t.Fatal(err)
	}
	if ro.okapi != nil {
		t.Error("asking for the bm25 retriever loaded Okapi before any search")
	}
	if _, err := r.Search(context.Background(), readOnlyQueries[1]); err != nil {
		t.Fatal(err)
	}
	if ro.loadedEmbedder() != nil || ro.vec != nil || ro.okapi == nil {
		t.Error("a one-paper bm25 search (okapi) should load Okapi and nothing else")
	}
	if got := ro.Summary(); got.Embedder == "lsa" || !strings.HasPrefix(got.Embedder, "lsa-") {
		t.Errorf("Summary before the model is loaded names the embedder %q; want the vectors' lsa-DIM@HASH", got.Embedder)
	}
}

// checkBleveBM25LoadsOkapiOnlyOverTheCorpus checks bm25 with BM25 bleve
// loads nothing within one paper, and over the corpus Okapi alone.
func checkBleveBM25LoadsOkapiOnlyOverTheCorpus(t *testing.T, home string) {
	t.Helper()
	st3, rob := openReadOnlyBleve(t, home)
	defer st3.Close()
	defer rob.Close()
	r, err := rob.Retriever(BM25)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Search(context.Background(), readOnlyQueries[1]); err != nil {
		t.Fatal(err)
	}
	if rob.loadedEmbedder() != nil || rob.vec != nil || rob.okapi != nil {
		t.Error("a one-paper bm25 search (bleve) loaded the embedder, the vectors or Okapi")
	}
	if _, err := r.Search(context.Background(), readOnlyQueries[0]); err != nil {
		t.Fatal(err)
	}
	if rob.loadedEmbedder() != nil || rob.vec != nil || rob.okapi == nil {
		t.Error("a corpus-wide bm25 search should load Okapi and nothing else")
	}
}

// A passage with no word in it (a rule of asterisks between sections)
// embeds to the zero vector: the build leaves it out of the vector store
// instead of failing, and the paper's other passages are searched.
func TestWordlessPassageBuilds(t *testing.T) {
	home := t.TempDir()
	st, ix, _ := build(t, home, samplePapers(t)...)
	ix.Close()
	defer st.Close()
	rule, body := "* * *\n\n", "Reservoir sampling keeps parked tokens for later restoration."
	doc := corpus.Document{PaperID: "wordless-rule", Title: "A rule", Source: "test", Kind: "text", SourceHash: "rule", Extractor: ingest.ExtractorVersion, MaxTokens: 128}
	if err := st.Put(doc, rule+body, []corpus.Passage{{Start: 0, End: len(rule), Text: rule}, {Start: len(rule), End: len(rule) + len(body), Text: body}}); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(context.Background(), Config{Home: home}, st)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Update(context.Background(), nil); err != nil {
		t.Fatalf("update with a wordless passage: %v", err)
	}
	r, err := ix.Retriever(Dense)
	if err != nil {
		t.Fatal(err)
	}
	hits, err := r.Search(context.Background(), retrieve.Query{Text: "reservoir parked tokens restoration", PaperID: "wordless-rule", K: 5})
	if err != nil || len(hits) != 1 || hits[0].PassageID != "wordless-rule#1" {
		t.Fatalf("dense search of the paper: %+v %v", hits, err)
	}
}
