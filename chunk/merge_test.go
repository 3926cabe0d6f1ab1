package chunk

import (
	"strings"
	"testing"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/chunk/tokens"
)

// checkMerged verifies that merged is packed (Split with MinTokens -1)
// with its short passages merged: each merged passage is a run of
// consecutive packed passages, of which at most one has minTokens or more
// and gives the run its kind; and a passage still under minTokens is one
// no neighbour had room for.
func checkMerged(t *testing.T, text string, packed, merged []Passage, minTokens, limit int) {
	t.Helper()
	j := 0
	for i, m := range merged {
		if j >= len(packed) || packed[j].Start != m.Start {
			t.Fatalf("merged passage %d starts at %d, where no packed passage does", i, m.Start)
		}
		var long []Passage
		first := j
		for ; j < len(packed) && packed[j].End <= m.End; j++ {
			if packed[j].Tokens >= minTokens {
				long = append(long, packed[j])
			}
		}
		if packed[j-1].End != m.End {
			t.Fatalf("merged passage %d ends at %d, where no packed passage does", i, m.End)
		}
		if len(long) > 1 {
			t.Errorf("merged passage %d joins %d passages of %d tokens or more", i, len(long), minTokens)
		}
		if len(long) == 1 && m.Kind != long[0].Kind {
			t.Errorf("merged passage %d has kind %s, its long part %s", i, m.Kind, long[0].Kind)
		}
		if m.Section != packed[first].Section {
			t.Errorf("merged passage %d has section %q, its first part %q", i, m.Section, packed[first].Section)
		}
		if m.Tokens >= minTokens {
			continue
		}
		if i+1 < len(merged) && tokens.Count(text[m.Start:merged[i+1].End]) <= limit {
			t.Errorf("passage %d (%d tokens) is short, yet the next had room: %q", i, m.Tokens, m.Text)
		}
		if i > 0 && tokens.Count(text[merged[i-1].Start:m.End]) <= limit {
			t.Errorf("passage %d (%d tokens) is short, yet the previous had room: %q", i, m.Tokens, m.Text)
		}
	}
	if j != len(packed) {
		t.Errorf("merged passages end at packed passage %d of %d", j, len(packed))
	}
}

// A title, a caption and a last line short of MinTokens are no passages of
// their own: the title and the author line (still short together) open
// the abstract's passage, the caption joins the text after it, the last
// line joins the passage before it, each merged passage being body, its
// longer part. Without merging (MinTokens -1) each stands alone.
func TestSplitMergesShortPassages(t *testing.T) {
	d := new(doc).
		add(kind.Body, "Trust Region Policy Optimization\n\n").
		add(kind.FrontMatter, "John Schulman, Sergey Levine, Philipp Moritz\n\n").
		add(kind.Body, "Abstract\n\n"+sentencesOf(12, 3)+"\n\n").
		add(kind.Caption, "Figure 1: Returns over training.\n\n").
		add(kind.Body, sentencesOf(18, 40)+"\n\n").
		add(kind.References, "[1] A. Author. A title, 2020.")
	text := d.b.String()
	packed := Split(text, Options{Spans: d.spans, MinTokens: -1})
	merged := Split(text, Options{Spans: d.spans})
	checkPassages(t, text, merged, DefaultMaxTokens)
	checkMerged(t, text, packed, merged, DefaultMinTokens, DefaultMaxTokens)
	type want struct {
		kind   kind.Kind
		prefix string
	}
	for name, c := range map[string]struct {
		ps   []Passage
		want []want
	}{
		"packed": {packed, []want{{kind.Body, "Trust Region"}, {kind.FrontMatter, "John"}, {kind.Body, "Abstract"},
			{kind.Caption, "Figure 1"}, {kind.Body, sentencesOf(1, 40)[:20]}, {kind.References, "[1]"}}},
		"merged": {merged, []want{{kind.Body, "Trust Region"}, {kind.Body, "Figure 1"}}},
	} {
		if len(c.ps) != len(c.want) {
			var got []string
			for _, p := range c.ps {
				got = append(got, string(p.Kind)+" "+p.Text[:min(20, len(p.Text))])
			}
			t.Fatalf("%s: %d passages %q, want %d", name, len(c.ps), got, len(c.want))
		}
		for i, w := range c.want {
			if c.ps[i].Kind != w.kind || !strings.HasPrefix(c.ps[i].Text, w.prefix) {
				t.Errorf("%s passage %d: %s %q, want %s %q", name, i, c.ps[i].Kind, c.ps[i].Text[:min(20, len(c.ps[i].Text))], w.kind, w.prefix)
			}
		}
	}
	for _, p := range merged {
		if p.Tokens < DefaultMinTokens {
			t.Errorf("passage %d has %d tokens: %q", p.Ordinal, p.Tokens, p.Text)
		}
	}
}
