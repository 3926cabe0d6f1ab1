package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/corpus"
)

// search --json says what each hit is, as the corpus stored it, so that a
// script can tell a reference list from body text: every hit carries its
// kind, body included.
func TestSearchJSONHitsCarryKind(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	st, err := corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var ps []corpus.Passage
	want := map[string]string{}
	add := func(k kind.Kind, s string) {
		start := b.Len()
		b.WriteString(s + "\n\n")
		p := corpus.Passage{Start: start, End: b.Len(), Text: b.String()[start:], Kind: string(k), Tokens: len(strings.Fields(s))}
		ps = append(ps, p)
	}
	add(kind.References, "[1] A. Author. Reservoir saliency of parked tokens. Venue, 2021.")
	add(kind.Body, "Pruned tokens are restored from the reservoir when their saliency rises.")
	add(kind.Table, "Table 2: reservoir size | saliency | parked tokens restored")
	if err := st.Put(corpus.Document{PaperID: "pruning", SourceHash: "x", Extractor: "test", MaxTokens: 512}, b.String(), ps); err != nil {
		t.Fatal(err)
	}
	stored, err := st.Passages("pruning")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range stored {
		want[p.PassageID] = string(p.KindOf())
	}
	st.Close()
	out, errOut, code := paperlens(t, "search", "--json", "--home", home, "-k", "3", "reservoir saliency parked tokens")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var h struct {
			PassageID string `json:"passage_id"`
			Kind      string `json:"kind"`
		}
		if err := json.Unmarshal([]byte(l), &h); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if h.Kind != want[h.PassageID] {
			t.Errorf("hit %s: kind %q, the corpus says %q", h.PassageID, h.Kind, want[h.PassageID])
		}
		seen[h.Kind] = true
	}
	for _, k := range []string{"references", "body", "table"} {
		if !seen[k] {
			t.Errorf("no hit of kind %s among %s", k, out)
		}
	}
}
