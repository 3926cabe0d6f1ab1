package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/internal/testkit/qdranttest"
)

func TestIndexSearchAndEvalRetrievalJSON(t *testing.T) {
	t.Parallel()
	home := papersHome(t, false) // the sample papers ingested
	out, errOut, code := paperlens(t, "index", "--json", "--home", home)
	var rep map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || rep["papers"].(float64) != 5 {
		t.Fatalf("index: exit %d %q %s", code, out, errOut)
	}
	// A second run is a no-op.
	out, _, _ = paperlens(t, "index", "--json", "--home", home)
	if json.Unmarshal([]byte(out), &rep) != nil || rep["indexed"].(float64) != 0 {
		t.Fatalf("second index: %q", out)
	}

	for _, r := range []string{"bm25", "dense", "hybrid"} {
		out, errOut, code = paperlens(t, "search", "--json", "--home", home, "--retriever", r, "-k", "3",
			"--paper", "lagged-replay-curriculum", "how", "stale", "transitions", "are", "replayed")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != 0 || len(lines) != 3 {
			t.Fatalf("search %s: exit %d, %d lines: %s %s", r, code, len(lines), out, errOut)
		}
		for i, l := range lines {
			var h map[string]any
			if err := json.Unmarshal([]byte(l), &h); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{"rank", "score", "paper_id", "passage_id", "text"} {
				if _, ok := h[f]; !ok {
					t.Fatalf("search hit lacks %q: %v", f, h)
				}
			}
			if h["rank"].(float64) != float64(i+1) || h["paper_id"] != "lagged-replay-curriculum" {
				t.Errorf("hit %d: %v", i, h)
			}
		}
	}
	for _, bad := range [][]string{
		{"search", "--home", home, "--paper", "nope", "x"},
		{"search", "--home", home, "-k", "0", "x"},
		{"search", "--home", home, "--retriever", "tfidf", "x"},
	} {
		if _, errOut, code := paperlens(t, bad...); code != 2 || errOut == "" {
			t.Errorf("%v: exit %d, %q", bad, code, errOut)
		}
	}

	data := filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")
	out, errOut, code = paperlens(t, "eval", "retrieval", "--json", "--home", home, "--bench", "elaipbench", "--data", data,
		"--retriever", "bm25,dense,hybrid", "-k", "1,5", "--query", "stem,options")
	if code != 0 {
		t.Fatalf("eval retrieval: exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var sum struct {
		N          int                           `json:"n"`
		Retrievers map[string]map[string]float64 `json:"retrievers"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		t.Fatalf("last line %q: %v", lines[len(lines)-1], err)
	}
	if sum.N != 37 || len(lines) != 37*6+1 {
		t.Fatalf("n=%d with %d lines", sum.N, len(lines))
	}
	for _, l := range []string{"bm25", "dense", "hybrid", "hybrid+options"} {
		m := sum.Retrievers[l]
		if m == nil || m["recall@5"] <= 0 || m["hit@5"] <= 0 || m["mrr"] <= 0 {
			t.Errorf("%s: %v", l, m)
		}
	}
	// The sample's HTML and PDF papers were ingested from their files; the
	// rows' paper_content must not have replaced them.
	out, _, _ = paperlens(t, "papers", "--json", "--home", home)
	if !strings.Contains(out, `"kind":"pdf"`) || !strings.Contains(out, `"kind":"html"`) {
		t.Errorf("file-ingested papers were replaced by dataset text: %s", out)
	}
	if !strings.Contains(errOut, "line 38: duplicate") {
		t.Errorf("the duplicated sample row was not reported: %s", errOut)
	}
}

// The same commands against Qdrant: here a loopback fake built from the
// client package's own gRPC server stubs stands in for a Qdrant server.
func TestIndexQdrantStore(t *testing.T) {
	t.Parallel()
	srv := qdranttest.Start(t)
	home := papersHome(t, false) // the sample papers ingested
	out, errOut, code := paperlens(t, "search", "--json", "--home", home, "--store", "qdrant", "--qdrant", srv.URL,
		"--retriever", "dense", "-k", "2", "--paper", "tidal-token-pruning", "restoring parked tokens")
	if code != 0 || len(strings.Split(strings.TrimSpace(out), "\n")) != 2 {
		t.Fatalf("qdrant search: exit %d %s %s", code, out, errOut)
	}
	out, errOut, code = paperlens(t, "index", "--home", t.TempDir(), "--store", "qdrant", "--qdrant", "http://127.0.0.1:1")
	if code != 0 || !strings.Contains(out, "0 papers") {
		t.Fatalf("index of an empty corpus: exit %d %q %q", code, out, errOut)
	}
	// An empty corpus never needs the store; with papers it must name the URL.
	home2 := t.TempDir()
	paperlens(t, "ingest", "--home", home2, filepath.Join("..", "..", "testdata", "papers", "tidal-token-pruning.md"))
	_, errOut, code = paperlens(t, "index", "--home", home2, "--store", "qdrant", "--qdrant", "http://127.0.0.1:1")
	if code != 2 || !strings.Contains(errOut, "http://127.0.0.1:1") {
		t.Fatalf("unreachable Qdrant: exit %d, %q", code, errOut)
	}
}
