package bm25

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/retrieve"
)

// fileTermsBy returns up to n of the file's terms for which keep(df) holds,
// in term order, read from the term records.
func fileTermsBy(t *testing.T, f *OkapiFile, n int, keep func(df uint32) bool) []string {
	t.Helper()
	var out []string
	for i := uint64(0); i < f.v.h.terms && len(out) < n; i++ {
		r, err := f.v.term(i)
		if err != nil {
			t.Fatal(err)
		}
		s, err := f.v.bytesAt(r.strOff, r.strLen)
		if err != nil {
			t.Fatal(err)
		}
		if keep(r.df) {
			out = append(out, string(s))
		}
	}
	return out
}

// pruneQueries adds to queries the cases pruning must get right: a term
// repeated (its weight doubled), terms so common that their raw idf is
// negative and floored, a term the corpus lacks, and rare terms beside
// common ones (bounds far apart, so that pruning skips).
func pruneQueries(t *testing.T, f *OkapiFile, queries []string, floored bool) []string {
	t.Helper()
	common := fileTermsBy(t, f, 4, func(df uint32) bool { return uint64(df)*2 > f.v.h.docs })
	if floored && len(common) == 0 {
		t.Fatal("no term in more than half the passages: the floored idf goes untested")
	}
	if len(common) == 0 { // the most common the analyzer leaves
		common = fileTermsBy(t, f, 4, func(df uint32) bool { return uint64(df)*5 > f.v.h.docs })
	}
	rare := fileTermsBy(t, f, 6, func(df uint32) bool { return df >= 2 && uint64(df)*50 < f.v.h.docs })
	mid := fileTermsBy(t, f, 6, func(df uint32) bool { return uint64(df)*20 > f.v.h.docs && uint64(df)*3 < f.v.h.docs })
	out := append([]string{}, queries...)
	for i := range min(len(common), len(rare), len(mid)) {
		out = append(out,
			common[i]+" "+rare[i]+" "+mid[i]+" "+rare[i]+" "+common[i]+" "+common[i],
			strings.Join(common, " ")+" "+mid[i],
			rare[i]+" zzqxjvwk "+mid[i]+" "+mid[(i+1)%len(mid)],
		)
	}
	return append(out, strings.Join(mid, " "), strings.Join(common, " "), strings.Join(rare, " ")+" "+strings.Join(mid, " "))
}

// checkPruned runs every query corpus-wide at k 1, 5, 10 and 100 with
// pruning forced, and as Search chooses, and requires the exhaustive
// search's hits: same passages, order and score bits. It returns the
// passages the exhaustive and the forced pruned searches fully scored.
func checkPruned(t *testing.T, f *OkapiFile, queries []string) (exhaustive, pruned int) {
	t.Helper()
	ctx := context.Background()
	for _, text := range queries {
		for _, k := range []int{1, 5, 10, 100} {
			q := retrieve.Query{Text: text, K: k}
			want, werr := f.searchMode(ctx, q, scoreExhaustive, &exhaustive)
			for _, mode := range []scoreMode{scorePruned, scoreAuto} {
				scored := &pruned
				if mode == scoreAuto {
					scored = nil
				}
				got, gerr := f.searchMode(ctx, q, mode, scored)
				if (werr == nil) != (gerr == nil) {
					t.Fatalf("%+v mode %d: exhaustive error %v, pruned error %v", q, mode, werr, gerr)
				}
				if !reflect.DeepEqual(got, want) {
					for i := range min(len(got), len(want)) {
						if got[i] != want[i] || math.Float64bits(got[i].Score) != math.Float64bits(want[i].Score) {
							t.Fatalf("%+v mode %d: hit %d: pruned %+v, exhaustive %+v", q, mode, i, got[i], want[i])
						}
					}
					t.Fatalf("%+v mode %d: pruned %d hits, exhaustive %d", q, mode, len(got), len(want))
				}
			}
		}
	}
	return exhaustive, pruned
}

// Pruned corpus-wide searches of the Okapi file find what the exhaustive
// search finds, to the bit, on the sample papers and the shared seed
// papers, for both tokenizers (the whitespace one keeps stop words, whose
// idf is floored), and prune some passages.
func TestOkapiFilePrunedMatchesExhaustive(t *testing.T) {
	for _, c := range []struct {
		name string
		ps   []corpus.Passage
	}{
		{"sample", samplePassages(t, 64)},
		{"seeds", seedPassages(t, 128)},
	} {
		for _, opt := range []OkapiOptions{{}, {Tokenizer: TokenizerWhitespace, K1: 1.2, B: 0.6, Epsilon: 0.5}} {
			t.Run(c.name+"/"+opt.withDefaults().Tokenizer, func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "okapi.idx")
				writeOkapiFile(t, path, c.ps, opt, 1<<30, 1)
				f := openOkapiFile(t, path)
				floored := opt.Tokenizer == TokenizerWhitespace
				e, p := checkPruned(t, f, pruneQueries(t, f, seedQueries(c.ps), floored))
				t.Logf("%d passages: exhaustive scored %d, pruned %d", f.Count(), e, p)
				if p >= e {
					t.Errorf("pruning scored %d passages, exhaustive %d: nothing pruned", p, e)
				}
			})
		}
	}
}

// Passages whose scores tie at the k-th place: copies of one text in
// papers of increasing id, behind a few passages that score higher. The
// pruned search must keep the copies of the lowest passage numbers, as the
// exhaustive one does, and must not drop a copy whose bound only equals
// the k-th score.
func TestOkapiFilePrunedTies(t *testing.T) {
	var ps []corpus.Passage
	add := func(paper, text string) {
		ps = append(ps, corpus.Passage{PaperID: paper, PassageID: corpus.PassageID(paper, 0), Text: text})
	}
	filler := []string{"river", "stone", "cloud", "maple", "harbor", "violet", "copper", "meadow"}
	for i := range 40 {
		add(fmt.Sprintf("f%03d", i), filler[i%len(filler)]+" "+filler[(i+3)%len(filler)]+" lantern")
	}
	for i := range 3 {
		add(fmt.Sprintf("h%03d", i), "quartz quartz orbit")
	}
	for i := range 12 {
		add(fmt.Sprintf("t%03d", i), "quartz orbit")
	}
	for i := range 6 {
		add(fmt.Sprintf("u%03d", i), "orbit lantern")
	}
	path := filepath.Join(t.TempDir(), "ties.okapi")
	writeOkapiFile(t, path, ps, OkapiOptions{Tokenizer: TokenizerWhitespace}, 1<<30, 4)
	f := openOkapiFile(t, path)
	ctx := context.Background()
	for _, text := range []string{"quartz orbit", "orbit quartz", "lantern quartz orbit"} {
		all, err := f.searchMode(ctx, retrieve.Query{Text: text, K: 100}, scoreExhaustive, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k := 1; k <= 22; k++ {
			q := retrieve.Query{Text: text, K: k}
			want, _ := f.searchMode(ctx, q, scoreExhaustive, nil)
			var scored int
			got, err := f.searchMode(ctx, q, scorePruned, &scored)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%+v: pruned %v, exhaustive %v", q, hitIDs(got), hitIDs(want))
			}
			if k > 3 && k < 15 {
				// The k-th place is a tie between copies of "quartz orbit".
				if last := all[k-1]; last.Score != all[k].Score || !strings.HasPrefix(last.PaperID, "t") {
					t.Fatalf("%q: no tie at place %d: %v", text, k, hitIDs(all))
				}
				if scored == len(all) {
					t.Errorf("%+v: all %d passages scored: nothing pruned", q, scored)
				}
			}
		}
	}
}
