package main

import (
	"reflect"
	"strings"
	"testing"
)

// search --bm25 okapi|bleve puts that scorer behind bm25 and hybrid within a
// paper: --retriever bm25 prints exactly what --retriever okapi or bleve
// does, label included, one query or a --queries file; without the flag it
// is okapi (ElaipBench A.7.1's rank_bm25 BM25Okapi).
func TestSearchBM25Flag(t *testing.T) {
	t.Parallel()
	home := searchHome(t)
	search := func(args ...string) string {
		t.Helper()
		args = append([]string{"search", "--json", "--home", home, "-k", "5"}, args...)
		out, errOut, code := paperlens(t, args...)
		if code != 0 || strings.TrimSpace(out) == "" {
			t.Fatalf("%v: exit %d, %q %s", args, code, out, errOut)
		}
		return out
	}
	var batch []string
	for _, q := range batchQueries {
		if q.paper != "" {
			batch = append(batch, queryLine(t, q.id, q.query, q.paper))
		}
	}
	file := writeLines(t, batch...)
	rankings := map[string]string{}
	for _, s := range []string{"okapi", "bleve"} {
		for _, q := range batchQueries {
			if q.paper == "" {
				continue
			}
			want := search("--retriever", s, "--paper", q.paper, q.query)
			rankings[s] += want
			if got := search("--retriever", "bm25", "--bm25", s, "--paper", q.paper, q.query); got != want {
				t.Errorf("--bm25 %s %q: bm25 printed\n%s\nwant %s's\n%s", s, q.query, got, s, want)
			}
			if s == "okapi" {
				if got := search("--retriever", "bm25", "--paper", q.paper, q.query); got != want {
					t.Errorf("no --bm25, %q: bm25 printed\n%s\nwant okapi's\n%s", q.query, got, want)
				}
			}
		}
		got := jsonLines(t, search("--retriever", "bm25", "--bm25", s, "--queries", file))
		want := jsonLines(t, search("--retriever", s, "--queries", file))
		if len(got) != len(batch) || !reflect.DeepEqual(got, want) {
			t.Errorf("--bm25 %s --queries: %d lines, differ from --retriever %s's: %v", s, len(got), s, !reflect.DeepEqual(got, want))
		}
	}
	if rankings["okapi"] == rankings["bleve"] {
		t.Fatal("okapi and bleve rank the queries alike: the test shows nothing")
	}
	// hybrid follows: its bm25 part is the flag's scorer.
	q := batchQueries[0]
	okapi := search("--retriever", "hybrid", "--paper", q.paper, q.query)
	if got := search("--retriever", "hybrid", "--bm25", "okapi", "--paper", q.paper, q.query); got != okapi {
		t.Errorf("hybrid --bm25 okapi differs from hybrid's default")
	}
	if got := search("--retriever", "hybrid", "--bm25", "bleve", "--paper", q.paper, q.query); got == okapi {
		t.Errorf("hybrid --bm25 bleve ranks like okapi's: the flag did not reach hybrid")
	}
}

// Every command that opens the index takes --bm25 from the one definition
// in cliflags.Index, and refuses another scorer before it does anything.
func TestBM25FlagOnEveryIndexCommand(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	for _, cmd := range [][]string{{"search"}, {"eval"}, {"eval", "retrieval"}, {"study"}, {"ask"}} {
		out, errOut, code := paperlens(t, append(cmd, "--help")...)
		if code != 0 || !strings.Contains(out, "--bm25 okapi|bleve") || !strings.Contains(out, "rank_bm25's BM25Okapi, as ElaipBench A.7.1; default") {
			t.Errorf("%v --help: exit %d, no --bm25 okapi|bleve with its help: %s", cmd, code, errOut)
		}
		args := append(append([]string{}, cmd...), "--home", home, "--bm25", "bm25", "question")
		_, errOut, code = paperlens(t, args...)
		if code != 2 || !strings.Contains(errOut, `invalid argument "bm25" for "--bm25" flag: use okapi (rank_bm25's BM25Okapi, ElaipBench A.7.1) or bleve`) {
			t.Errorf("%v: exit %d, %q; want 2 and what --bm25 accepts", args, code, errOut)
		}
	}
}
