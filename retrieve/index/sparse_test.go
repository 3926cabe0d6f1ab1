package index

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/internal/testkit/qdranttest"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/vector"
	"github.com/paperlens/paperlens/retrieve/vector/qdrant"
)

// The sparse store is tested against qdranttest's fake, a loopback gRPC
// server that scores sparse vectors with Qdrant's IDF formula over each
// shard; a real Qdrant is covered by the contract suites of
// retrieve/vector/qdrant (QDRANT_URL).

// sampleHome ingests the ElaipBench sample's papers into a fresh home and
// opens its indexes with BM25 in a sparse collection of the fake, with
// shards shard keys; it returns the questions too.
func sampleHome(t *testing.T, url, collection string, shards int) (*corpus.Store, *Index, []bench.Question) {
	t.Helper()
	qs, _, err := bench.LoadElaipBench(filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	st, err := corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var texts []ingest.Text
	seen := map[string]bool{}
	for _, q := range qs {
		if !seen[q.PaperID] {
			seen[q.PaperID] = true
			texts = append(texts, ingest.Text{ID: q.PaperID, Source: "sample", Content: q.PaperContent})
		}
	}
	if failed, err := ingest.RunTexts(context.Background(), st, texts, ingest.Options{}, func(ingest.Result) {}); err != nil || failed > 0 {
		t.Fatalf("ingest: %d failed: %v", failed, err)
	}
	ix := openSparseIndex(t, home, st, url, collection, shards)
	if _, err := ix.Update(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return st, ix, qs
}

func openSparseIndex(t *testing.T, home string, st *corpus.Store, url, collection string, shards int) *Index {
	t.Helper()
	cfg := Config{Home: home, BM25Store: BM25StoreQdrant, OpenSparse: func(ctx context.Context) (vector.SparseStore, error) {
		return qdrant.OpenSparse(ctx, url, collection, qdrant.Options{Shards: shards})
	}}
	ix, err := Open(context.Background(), cfg, st)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close(); ix.closeSparse() })
	return ix
}

// push runs the sparse store's update step as Update does once index.go
// calls it (then, right after an Update, it has nothing left to write).
func push(t *testing.T, ix *Index) int {
	t.Helper()
	docs, err := ix.corpus.Docs()
	if err != nil {
		t.Fatal(err)
	}
	saver := ix.newSaver()
	n, err := ix.pushSparse(context.Background(), docs, &passageSource{corpus: ix.corpus}, saver, func(string, ...any) {}, map[string]bool{})
	if err != nil {
		t.Fatal(err)
	}
	if err := saver.flush(); err != nil {
		t.Fatal(err)
	}
	return n
}

// refPassage is a passage as the reference sees it: its analysed terms by
// string, not by hash.
type refPassage struct {
	id, paper string
	tf        map[string]float64
	dl        float64
}

// reference scores the corpus's passages for query terms the textbook way,
// in float64 over term strings: BM25 with k1 1.5, b 0.75, avgdl over every
// passage with a term, and Qdrant's idf ln((N − n + 0.5)/(n + 0.5) + 1)
// with N and n counted over the passages of the scope (the shard) of the
// passage scored.
func reference(t *testing.T, st *corpus.Store, scope func(paper string) string) (score func(q []string, paper string) []vector.Match) {
	t.Helper()
	docs, err := st.Docs()
	if err != nil {
		t.Fatal(err)
	}
	var all []refPassage
	var total float64
	for _, d := range docs {
		ps, err := st.Passages(d.PaperID)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			ts, err := AnalyzeBM25(p.Text)
			if err != nil {
				t.Fatal(err)
			}
			total += float64(len(ts))
			if len(ts) == 0 {
				continue
			}
			rp := refPassage{id: p.PassageID, paper: p.PaperID, tf: map[string]float64{}, dl: float64(len(ts))}
			for _, x := range ts {
				rp.tf[x]++
			}
			all = append(all, rp)
		}
	}
	// avgdl as the build measures it: every passage, empty ones included.
	n := 0
	for _, d := range docs {
		n += d.Passages
	}
	avgdl := total / float64(n)
	return func(q []string, paper string) []vector.Match {
		qc := map[string]float64{}
		for _, x := range q {
			qc[x]++
		}
		N := map[string]float64{}
		df := map[string]map[string]float64{}
		for _, p := range all {
			sc := scope(p.paper)
			N[sc]++
			if df[sc] == nil {
				df[sc] = map[string]float64{}
			}
			for x := range qc {
				if p.tf[x] > 0 {
					df[sc][x]++
				}
			}
		}
		var out []vector.Match
		for _, p := range all {
			if paper != "" && p.paper != paper {
				continue
			}
			sc := scope(p.paper)
			var s float64
			hit := false
			for x, c := range qc {
				tf := p.tf[x]
				if tf == 0 {
					continue
				}
				hit = true
				idf := math.Log((N[sc]-df[sc][x]+0.5)/(df[sc][x]+0.5) + 1)
				s += c * idf * tf * (1.5 + 1) / (tf + 1.5*(1-0.75+0.75*p.dl/avgdl))
			}
			if hit {
				out = append(out, vector.Match{ID: p.id, PaperID: p.paper, Score: s})
			}
		}
		slices.SortFunc(out, func(a, b vector.Match) int {
			if c := cmp.Compare(b.Score, a.Score); c != 0 {
				return c
			}
			return cmp.Compare(a.ID, b.ID)
		})
		return out
	}
}

// compare checks hits against the reference's top k: same passages in the
// same order, where reference scores are not within float32 noise of each
// other, and the same scores.
func compare(t *testing.T, what string, hits []retrieve.Hit, want []vector.Match, k int) {
	t.Helper()
	want = want[:min(k, len(want))]
	if len(hits) != len(want) {
		t.Fatalf("%s: %d hits, reference has %d", what, len(hits), len(want))
	}
	for i, h := range hits {
		w := want[i]
		tol := 1e-4 * math.Max(1, w.Score)
		if math.Abs(h.Score-w.Score) > tol {
			t.Fatalf("%s: rank %d is %s %.6f, reference %s %.6f", what, i+1, h.PassageID, h.Score, w.ID, w.Score)
		}
		if h.Text == "" || h.PaperID == "" {
			t.Fatalf("%s: rank %d has no text or paper: %+v", what, i+1, h)
		}
	}
}

func queryTerms(t *testing.T, text string) []string {
	t.Helper()
	ts, err := AnalyzeBM25(text)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// On the sample corpus the sparse store ranks as BM25 with Qdrant's IDF
// computed independently here, corpus-wide and within each question's
// paper, unsharded (one IDF scope) and with shard keys (IDF per shard).
func TestSparseStoreMatchesReference(t *testing.T) {
	for _, shards := range []int{0, 3} {
		t.Run(fmt.Sprintf("shards=%d", shards), func(t *testing.T) {
			srv := qdranttest.Start(t)
			st, ix, qs := sampleHome(t, srv.URL, "bm25", shards)
			push(t, ix)
			if info, _ := srv.Collection("bm25"); info.Points == 0 {
				t.Fatal("the collection is empty after the push")
			}
			for id, p := range ix.st.Papers {
				if !p.Sparse {
					t.Errorf("paper %s not marked Sparse after the push", id)
				}
			}
			scope := func(string) string { return "" }
			if shards > 0 {
				scope = func(p string) string { return strconv.FormatUint(qdrant.ShardKeyOf(p, shards), 10) }
			}
			ref := reference(t, st, scope)
			r, err := ix.SparseRetriever()
			if err != nil {
				t.Fatal(err)
			}
			for i, q := range qs {
				for _, paper := range []string{"", q.PaperID} {
					hits, err := r.Search(context.Background(), retrieve.Query{Text: q.MCQ.Stem, PaperID: paper, K: 10})
					if err != nil {
						t.Fatal(err)
					}
					compare(t, fmt.Sprintf("question %d (paper %q)", i, paper), hits, ref(queryTerms(t, q.MCQ.Stem), paper), 10)
				}
			}
		})
	}
}

// The update step resumes: a paper not marked (a build killed after
// writing part of it, or a paper re-chunked) loses whatever the store held
// for it before its passages are written again; a paper that left the
// corpus is deleted; and a home without sparse.json (a rebuild) empties the
// collection before filling it.
func TestSparseStoreResumesAndForgets(t *testing.T) {
	srv := qdranttest.Start(t)
	st, ix, qs := sampleHome(t, srv.URL, "bm25", 2)
	ctx := context.Background()
	push(t, ix)
	info, _ := srv.Collection("bm25")
	n := info.Points
	paper := qs[0].PaperID
	s, err := ix.openSparse(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stray := vector.SparseDoc{ID: paper + "#9999", PaperID: paper, Indices: []uint32{TermID("zzstray")}, Values: []float32{1}}
	if err := s.UpsertSparse(ctx, []vector.SparseDoc{stray}); err != nil {
		t.Fatal(err)
	}
	ix.mark(paper, func(p *paperState) { p.Sparse = false })
	if again := push(t, ix); again == 0 || again >= n {
		t.Errorf("resumed push wrote %d passages, want only the unmarked paper's (fewer than %d)", again, n)
	}
	if ms, _ := s.SearchSparse(ctx, []uint32{TermID("zzstray")}, []float32{1}, "", 5); len(ms) != 0 {
		t.Errorf("the unmarked paper's stray vector survived its re-push: %v", ms)
	}
	if info, _ := srv.Collection("bm25"); info.Points != n {
		t.Errorf("after the resumed push the collection holds %d points, want %d", info.Points, n)
	}
	if reason := ix.sparseStale(paper, ix.st.Papers[paper]); reason != "" {
		t.Errorf("after the push: stale %q", reason)
	}

	// A paper leaving the corpus.
	if err := ix.forgetSparse(ctx, paper); err != nil {
		t.Fatal(err)
	}
	if ms, _ := s.SearchSparse(ctx, []uint32{TermID("the")}, []float32{1}, paper, 5); len(ms) != 0 {
		t.Errorf("forgotten paper %s still in the store: %v", paper, ms)
	}

	// A new home on the same collection (a rebuild): a first fill empties
	// it, so nothing of papers it does not know survives.
	if err := s.UpsertSparse(ctx, []vector.SparseDoc{{ID: "gone#0", PaperID: "gone", Indices: []uint32{1}, Values: []float32{1}}}); err != nil {
		t.Fatal(err)
	}
	ix2 := openSparseIndex(t, t.TempDir(), st, srv.URL, "bm25", 2)
	ix2.st.Papers = map[string]paperState{}
	for id, p := range ix.st.Papers {
		ix2.st.Papers[id] = paperState{Fingerprint: p.Fingerprint}
	}
	if m := push(t, ix2); m != n {
		t.Errorf("first fill of a new home wrote %d passages, want %d", m, n)
	}
	s2, _ := ix2.openSparse(ctx)
	if ms, _ := s2.SearchSparse(ctx, []uint32{1}, []float32{1}, "gone", 5); len(ms) != 0 {
		t.Errorf("a first fill left a paper of no home in the collection: %v", ms)
	}
}

func TestSparseTerms(t *testing.T) {
	ids, counts := SparseTerms([]string{"token", "prune", "token", "token"})
	if len(ids) != 2 || ids[0] != TermID("token") || counts[0] != 3 || counts[1] != 1 {
		t.Errorf("SparseTerms = %v %v", ids, counts)
	}
	// FNV-1a 32, pinned by values computed outside Go: a change orphans
	// every stored vector.
	for term, want := range map[string]uint32{"": 2166136261, "token": 0x9479ea32} {
		if got := TermID(term); got != want {
			t.Errorf("TermID(%q) = %#x, want %#x", term, got, want)
		}
	}
	// tf 2 in a passage of average length: 2·2.5/(2 + 1.5) = 1.428571.
	w := []float32{2, 1, 1}
	SparseWeights(w, 4)
	if math.Abs(float64(w[0])-2*2.5/3.5) > 1e-6 {
		t.Errorf("SparseWeights: tf 2 at dl = avgdl gives %v, want %v", w[0], 2*2.5/3.5)
	}
	if err := CheckBM25Store("elastic"); err == nil {
		t.Error("CheckBM25Store accepted elastic")
	}
}

// With BM25Store qdrant, Update fills the sparse store, corpus-wide bm25
// is served from it (within a paper, --bm25's scorer keeps the paper's own
// statistics), a read-only open finds the index up to date, and a paper
// leaving the corpus leaves the store: index.go's calls into sparse.go
// (pushSparse in Update, forgetSparse in removePaper, the router, ready,
// Stale and Close).
func TestUpdateServesCorpusBM25FromSparseStore(t *testing.T) {
	srv := qdranttest.Start(t)
	st, ix, qs := sampleHome(t, srv.URL, "bm25", 2)
	info, _ := srv.Collection("bm25")
	if info.Points == 0 {
		t.Fatal("Update wrote no point to the sparse collection")
	}
	ctx := context.Background()
	if reason, err := ix.Stale(); err != nil || reason != "" {
		t.Fatalf("after Update: stale %q, %v", reason, err)
	}
	ref := reference(t, st, func(p string) string { return strconv.FormatUint(qdrant.ShardKeyOf(p, 2), 10) })
	r, err := ix.Retriever(BM25)
	if err != nil {
		t.Fatal(err)
	}
	for i, q := range qs[:10] {
		hits, err := r.Search(ctx, retrieve.Query{Text: q.MCQ.Stem, K: 10})
		if err != nil {
			t.Fatal(err)
		}
		compare(t, fmt.Sprintf("question %d corpus-wide", i), hits, ref(queryTerms(t, q.MCQ.Stem), ""), 10)
		// Within a paper: the Okapi scorer, as without a sparse store.
		okapi, _ := ix.Retriever(Okapi)
		want, err := okapi.Search(ctx, retrieve.Query{Text: q.MCQ.Stem, PaperID: q.PaperID, K: 5})
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.Search(ctx, retrieve.Query{Text: q.MCQ.Stem, PaperID: q.PaperID, K: 5})
		if err != nil {
			t.Fatal(err)
		}
		for j := range got {
			if got[j].PassageID != want[j].PassageID {
				t.Fatalf("question %d within its paper: bm25 rank %d is %s, okapi's is %s", i, j+1, got[j].PassageID, want[j].PassageID)
			}
		}
	}
	home := ix.cfg.Home
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	st.Close()
	ro, err := corpus.Open(home, true)
	if err != nil {
		t.Fatal(err)
	}
	cfg := ix.cfg
	cfg.ReadOnly = true
	rix, err := Open(ctx, cfg, ro)
	if err != nil {
		t.Fatalf("read-only open after Update: %v", err)
	}
	rr, _ := rix.Retriever(BM25)
	if hits, err := rr.Search(ctx, retrieve.Query{Text: qs[0].MCQ.Stem, K: 3}); err != nil || len(hits) == 0 {
		t.Fatalf("read-only corpus-wide bm25: %v, %v", hits, err)
	}
	rix.Close()
	ro.Close()

	// A paper leaving the corpus leaves the store.
	w, err := corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	gone := qs[0].PaperID
	if err := w.Delete(gone); err != nil {
		t.Fatal(err)
	}
	wix := openSparseIndex(t, home, w, srv.URL, "bm25", 2)
	if _, err := wix.Update(ctx, nil); err != nil {
		t.Fatal(err)
	}
	s, _ := wix.openSparse(ctx)
	if ms, err := s.SearchSparse(ctx, []uint32{TermID("the")}, []float32{1}, gone, 3); err != nil || len(ms) != 0 {
		t.Errorf("paper %s left the corpus but the store still has %v (%v)", gone, ms, err)
	}
}

// BenchmarkSparseEncode is the client's work per passage for the BM25 store
// (analysis, hashing, weights) on the ElaipBench sample's passages; it
// reports passages/s and the mean number of distinct terms per passage,
// from which docs/scale.md sizes the sparse collection:
//
//	go test -run '^$' -bench SparseEncode ./retrieve/index/
func BenchmarkSparseEncode(b *testing.B) {
	qs, _, err := bench.LoadElaipBench(filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	st, err := corpus.Open(b.TempDir(), false)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	var texts []ingest.Text
	seen := map[string]bool{}
	for _, q := range qs {
		if !seen[q.PaperID] {
			seen[q.PaperID] = true
			texts = append(texts, ingest.Text{ID: q.PaperID, Source: "sample", Content: q.PaperContent})
		}
	}
	if _, err := ingest.RunTexts(context.Background(), st, texts, ingest.Options{}, func(ingest.Result) {}); err != nil {
		b.Fatal(err)
	}
	docs, _ := st.Docs()
	var ps []corpus.Passage
	for _, d := range docs {
		got, _ := st.Passages(d.PaperID)
		ps = append(ps, got...)
	}
	var terms int
	for b.Loop() {
		sd, err := sparseDocs(ps, 300)
		if err != nil {
			b.Fatal(err)
		}
		terms = 0
		for _, d := range sd {
			terms += len(d.Indices)
		}
	}
	b.ReportMetric(float64(b.N*len(ps))/b.Elapsed().Seconds(), "passages/s")
	b.ReportMetric(float64(terms)/float64(len(ps)), "terms/passage")
}

// TestSparseAgreement measures, on the ElaipBench sample, how far the
// sparse store's corpus-wide bm25 is from the embedded Okapi's (rank_bm25's
// idf with its epsilon floor, against Qdrant's always-positive one) and
// from itself with IDF counted per shard (3 shard keys) instead of over the
// corpus: the mean share of top-10 passages in common. docs/scale.md quotes
// it:
//
//	go test -run SparseAgreement -v ./retrieve/index/
func TestSparseAgreement(t *testing.T) {
	srv := qdranttest.Start(t)
	_, one, qs := sampleHome(t, srv.URL, "one", 0)
	_, three, _ := sampleHome(t, srv.URL, "three", 3)
	push(t, one)
	push(t, three)
	okapi, err := one.Retriever(Okapi)
	if err != nil {
		t.Fatal(err)
	}
	r1, _ := one.SparseRetriever()
	r3, _ := three.SparseRetriever()
	ids := func(r retrieve.Retriever, text string) map[string]bool {
		hits, err := r.Search(context.Background(), retrieve.Query{Text: text, K: 10})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, h := range hits {
			out[h.PassageID] = true
		}
		return out
	}
	overlap := func(a, b map[string]bool) float64 {
		n := 0
		for id := range a {
			if b[id] {
				n++
			}
		}
		return float64(n) / float64(max(len(a), 1))
	}
	var vsOkapi, vsShards float64
	for _, q := range qs {
		s1 := ids(r1, q.MCQ.Stem)
		vsOkapi += overlap(s1, ids(okapi, q.MCQ.Stem))
		vsShards += overlap(s1, ids(r3, q.MCQ.Stem))
	}
	vsOkapi /= float64(len(qs))
	vsShards /= float64(len(qs))
	t.Logf("%d questions, corpus-wide top-10 in common: sparse store vs embedded Okapi %.3f; IDF over the corpus vs per shard (3 keys) %.3f", len(qs), vsOkapi, vsShards)
	if vsOkapi == 0 || vsShards == 0 {
		t.Errorf("no passage in common (okapi %.3f, shards %.3f): the sparse store does not rank by BM25", vsOkapi, vsShards)
	}
}
