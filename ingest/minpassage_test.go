package ingest

import (
	"slices"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// storedPassages reads a paper's passages, without their ids.
func storedPassages(t *testing.T, home, id string) []corpus.Passage {
	t.Helper()
	st, err := corpus.Open(home, true)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ps, err := st.Passages(id)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// A real two-column paper (ARES): by default its title, author lines,
// captions and figure labels under 32 tokens are merged into neighbours;
// the title opens the passage of its title block (authors, addresses),
// front matter, the longer part.
// A change of MinPassageTokens re-makes the passages from the stored text
// and its stored kinds, without extracting the PDF again, exactly as a
// fresh ingest with that setting makes them; the same setting again is
// skipped. Not parallel: it counts extractions, which other tests make.
func TestMinPassageTokensRechunks(t *testing.T) {
	pdf := testcorpus.Path(t, "corpus", "pdf", "ares-rag-eval.pdf")
	off := &Isolation{Off: true}
	home, fresh := t.TempDir(), t.TempDir()

	got, failed := ingestDir(t, home, Options{Isolation: off}, pdf)
	if r := got["ares-rag-eval|ares-rag-eval.pdf"]; failed != 0 || r.Status != StatusOK {
		t.Fatalf("ingest: %+v", got)
	}
	merged := storedPassages(t, home, "ares-rag-eval")
	for _, p := range merged {
		if p.Tokens < 32 {
			t.Errorf("passage %d is short (%d tokens): %q", p.Ordinal, p.Tokens, p.Text)
		}
	}
	const title = "ARES: An Automated Evaluation Framework for Retrieval-Augmented Generation Systems\n\n"
	if first := merged[0]; !strings.HasPrefix(first.Text, title) || !strings.Contains(first.Text, "Jon Saad-Falcon") || first.Kind != "front-matter" {
		t.Errorf("the title is not merged into its title block: first passage (%s) %q", first.Kind, first.Text)
	}

	before := extractions.Load()
	got, _ = ingestDir(t, home, Options{Isolation: off, MinPassageTokens: -1}, pdf)
	if r := got["ares-rag-eval|ares-rag-eval.pdf"]; r.Status != StatusOK || extractions.Load() != before {
		t.Fatalf("a new MinPassageTokens: %+v after %d extractions, want re-chunked without extracting", r, extractions.Load()-before)
	}
	packed := storedPassages(t, home, "ares-rag-eval")
	if len(packed) <= len(merged) {
		t.Errorf("%d passages as packed, %d merged", len(packed), len(merged))
	}
	ingestDir(t, fresh, Options{Isolation: off, MinPassageTokens: -1}, pdf)
	want := storedPassages(t, fresh, "ares-rag-eval")
	if !slices.Equal(packed, want) {
		t.Errorf("re-chunked from the store: %d passages, a fresh ingest %d; they differ", len(packed), len(want))
	}

	got, _ = ingestDir(t, home, Options{Isolation: off, MinPassageTokens: -1}, pdf)
	if r := got["ares-rag-eval|ares-rag-eval.pdf"]; r.Status != StatusSkipped {
		t.Errorf("the same setting again: %+v, want skipped", r)
	}
}
