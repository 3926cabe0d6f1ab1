package run

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/internal/lazyregexp"
	"github.com/paperlens/paperlens/model"
)

// citeOffer finds the labels a prompt offers: "(passage x#3, cite as [p3])".
var citeOffer = lazyregexp.MustCompile(`, cite as \[(p[0-9]+(?:-p[0-9]+)?)\]\)`)

func TestParseCited(t *testing.T) {
	ctx := []ContextItem{{PassageID: "tidal#3"}, {PassageID: "tidal#4", Expanded: true}, {PassageID: "tidal#5", Expanded: true}, {PassageID: "tidal#12"}}
	cases := []struct {
		reply string
		want  []string
	}{
		{"Tokens are restored by score [p3].", []string{"tidal#3"}},
		{"See [p12] and [P3].", []string{"tidal#12", "tidal#3"}},
		{"Both hold [p3, p12]; again [p3].", []string{"tidal#3", "tidal#12"}},
		{"[p3; p4 and p5]", []string{"tidal#3", "tidal#4", "tidal#5"}},
		{"A range [p3-p5].", []string{"tidal#3", "tidal#4", "tidal#5"}},
		{"An en dash range [p4–5].", []string{"tidal#4", "tidal#5"}},
		{"By id [tidal#12], short [#4].", []string{"tidal#12", "tidal#4"}},
		{"[p 12]", []string{"tidal#12"}},
		// Not in the context, not a passage label, or ranks.
		{"[p7] and [p99]", nil},
		{"As in [3] and [12].", nil},
		{"The set [a, b] and [x]", nil},
		{"No citations.", nil},
	}
	for _, c := range cases {
		if got := parseCited(c.reply, ctx); !slices.Equal(got, c.want) {
			t.Errorf("parseCited(%q) = %v, want %v", c.reply, got, c.want)
		}
	}
	if got := parseCited("[p1]", []ContextItem{{PassageID: "https://example.org/a"}}); got != nil {
		t.Errorf("web context: %v", got)
	}
	for id, want := range map[string]string{"tidal#3": "p3", "tidal#3-5": "p3-p5", "https://x.org": "", "gold": ""} {
		if got := citeLabel(id); got != want {
			t.Errorf("citeLabel(%q) = %q, want %q", id, got, want)
		}
	}
}

// Ask with Cite tells the model to cite passage labels and records the
// cited passages that were in its context.
func TestAskCites(t *testing.T) {
	qs, st, ix := fixtureSized(t, 128)
	q := qs[0]
	q.Type, q.Answer = "short", ""
	var prompt string
	chat := model.ChatFunc(func(_ context.Context, req model.Request) (model.Response, error) {
		prompt = req.Messages[0].Content
		// Cite the first and last passage labels the prompt offers, and
		// one it does not.
		labels := citeOffer.FindAllStringSubmatch(prompt, -1)
		if len(labels) < 2 {
			return model.Response{Content: "No labels."}, nil
		}
		return model.Response{Content: "Parked tokens come back by score [" + labels[0][1] + "], refreshed first [" + labels[len(labels)-1][1] + ", p999]."}, nil
	})
	cfg := Config{Bench: "jsonl", Data: "(ask)", Model: "m", Runs: 1, Out: t.TempDir(), MaxPassageTokens: 128}
	cfg.Defaults(nil)
	rec, hits, err := Ask(context.Background(), Options{Config: cfg, Chat: chat, Corpus: st, Index: ix, Cite: true}, bench.Question{ID: "ask-1", PaperID: q.PaperID, Text: q.MCQ.Stem, Type: "short"}, ModeHybrid)
	if err != nil || rec.Error != "" {
		t.Fatalf("ask: %v %s", err, rec.Error)
	}
	if !strings.Contains(prompt, "Cite the passages your answer uses by their labels in square brackets") {
		t.Fatalf("the prompt does not ask for citations:\n%s", prompt)
	}
	want := []string{hits[0].PassageID, hits[len(hits)-1].PassageID}
	if !slices.Equal(rec.Cited, want) {
		t.Errorf("cited %v, want %v (output %q)", rec.Cited, want, rec.Output)
	}
	// Without Cite (eval), the prompt is the benchmark's.
	if _, _, err := Ask(context.Background(), Options{Config: cfg, Chat: chat, Corpus: st, Index: ix}, bench.Question{ID: "ask-1", PaperID: q.PaperID, Text: q.MCQ.Stem, Type: "short"}, ModeHybrid); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(prompt, "cite as") || strings.Contains(prompt, "Cite the passages") {
		t.Errorf("an evaluation prompt asks for citations:\n%s", prompt)
	}
}
