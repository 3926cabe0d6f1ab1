package assemble

import (
	"fmt"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/chunk/tokens"
)

func sentences(prefix string, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%s sentence number %d says something useful. ", prefix, i)
	}
	return strings.TrimSpace(b.String())
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"cut off start. Whole one here. And another", "Whole one here."},
		{"  Spaced   out\n text. ", "Spaced out text."},
		{"only a fragment", "only a fragment"},
		{"First. Second.", "First. Second."},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFitWithinBudgetCutsNothing(t *testing.T) {
	in := Input{Paper: sentences("Paper", 20), Snippets: []Snippet{{ID: "p#2", Rank: 2, Ordinal: 2, Text: "Second. Hit."}, {ID: "p#0", Rank: 1, Ordinal: 9, Text: "First hit."}}, Available: 10000}
	out := Fit(in)
	if out.CutTokens != 0 || out.Paper != in.Paper || out.OverBudget || out.Snippets[0].ID != "p#0" {
		t.Fatalf("%+v", out)
	}
	in.Order = ByDocument
	if out := Fit(in); out.Snippets[0].ID != "p#2" {
		t.Fatalf("document order: %+v", out.Snippets)
	}
}

func TestFitTrimsSnippetsBeforePaper(t *testing.T) {
	paper := sentences("Paper", 50)
	snips := []Snippet{{ID: "a", Rank: 1, Text: sentences("Alpha", 10)}, {ID: "b", Rank: 2, Text: sentences("Beta", 10)}}
	full := tokens.Count(paper) + tokens.Count(snips[0].Text) + tokens.Count(snips[1].Text)

	// A little too long: only snippets lose sentences, round-robin.
	out := Fit(Input{Paper: paper, Snippets: snips, Available: full - 30})
	if out.Paper != paper || out.CutTokens < 30 || out.Tokens > full-30 {
		t.Fatalf("small overflow: %+v", out)
	}
	a, b := tokens.Count(out.Snippets[0].Text), tokens.Count(out.Snippets[1].Text)
	if a-b > 15 || b-a > 15 {
		t.Errorf("trimming not round-robin: %d vs %d tokens", a, b)
	}
	for _, s := range out.Snippets {
		if !strings.HasSuffix(s.Text, ".") {
			t.Errorf("snippet %s not cut at a sentence: %q", s.ID, s.Text)
		}
	}

	// Far too long: snippets keep one sentence each, then the paper is cut in the middle.
	avail := tokens.Count(paper) / 2
	out = Fit(Input{Paper: paper, Snippets: snips, Available: avail})
	if out.Tokens > avail || out.OverBudget {
		t.Fatalf("large overflow: %d tokens in %d available", out.Tokens, avail)
	}
	if len(out.Cuts) != 3 || out.Cuts[0].Where != "paper" {
		t.Fatalf("cuts %+v", out.Cuts)
	}
	for _, s := range out.Snippets {
		if strings.Count(s.Text, "sentence number") != 1 {
			t.Errorf("snippet %s not down to one sentence: %q", s.ID, s.Text)
		}
	}
	if !strings.HasPrefix(out.Paper, "Paper sentence number 0 ") || !strings.HasSuffix(out.Paper, "number 49 says something useful.") ||
		!strings.Contains(out.Paper, "tokens of the paper omitted") {
		t.Errorf("paper not cut in the middle: %q…%q", out.Paper[:60], out.Paper[len(out.Paper)-60:])
	}
	sum := 0
	for _, c := range out.Cuts {
		sum += c.Tokens
	}
	if sum != out.CutTokens {
		t.Errorf("cuts add to %d, CutTokens %d", sum, out.CutTokens)
	}
}

func TestFitImpossible(t *testing.T) {
	out := Fit(Input{Paper: sentences("P", 5), Available: 0})
	if !out.OverBudget && out.Tokens > 0 {
		t.Fatalf("%+v", out)
	}
	if out.CutTokens == 0 {
		t.Fatalf("nothing cut: %+v", out)
	}
}

// A passage keeps its last line when it has no final punctuation (a table
// row, a heading): the chunker cut it at a sentence boundary. Web text cut
// at a token budget loses its fragments.
func TestFitTrimsOnlyCutText(t *testing.T) {
	table := "Results are in the table below.\nmodel\tacc\nours\t91.2 |"
	in := Input{Snippets: []Snippet{
		{ID: "p#1", Rank: 1, Ordinal: 1, Text: table},
		{ID: "https://example.org/page", Rank: 2, Ordinal: -1, Cut: true, Text: "the end of a sentence. A whole one. And a cut"},
	}, Available: 1000}
	out := Fit(in)
	if got, want := out.Snippets[0].Text, "Results are in the table below. model acc ours 91.2 |"; got != want {
		t.Errorf("passage %q, want %q", got, want)
	}
	if got, want := out.Snippets[1].Text, "A whole one."; got != want {
		t.Errorf("web text %q, want %q", got, want)
	}
}
