package evidence

import (
	"math"
	"testing"
)

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"User-facing  systems", "userfacing systems"},
		{"classi- fication", "classi fication"}, // a line-break hyphen left with a space: both sides keep the split the same way
		{"Eﬃcient ﬁne-tuning (Fig. 3).", "efficient finetuning fig 3"},
		{"ACCURACY: 39.95%", "accuracy 39 95"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestScore(t *testing.T) {
	gold := ParseGold("The retriever fails to find the evidence in most academic papers.\n"+
		"Accuracy drops by 4.2 points when noisy passages are added. Ok.", Options{})
	if len(gold.Sentences) != 2 {
		t.Fatalf("gold sentences = %d (%v), want 2 (the 1-word one is dropped)", len(gold.Sentences), gold.Sentences)
	}
	passages := []string{
		"Unrelated text about convolutional networks and images.",
		// Extraction artefacts: ligature, hyphen, different spacing and case.
		"We saw that ACCURACY drops by 4.2 points when noisy pas-sages are added to the prompt.",
		"In short, the retriever fails to find the evidence in most academic papers, as Sec. 4 shows.",
	}
	m := gold.Score(passages)
	if m.FirstRank[0] != 3 || m.FirstRank[1] != 2 || m.FirstHit != 2 {
		t.Fatalf("first ranks %v, first hit %d; want [3 2] and 2", m.FirstRank, m.FirstHit)
	}
	tests := []struct {
		k           int
		recall, hit float64
	}{
		{1, 0, 0},
		{2, 0.4, 1}, // the second sentence has 10 of the 21 gold words... checked below by ratio
		{3, 1, 1},
	}
	total := len(gold.Sentences[0].Words) + len(gold.Sentences[1].Words)
	tests[1].recall = float64(len(gold.Sentences[1].Words)) / float64(total)
	for _, tt := range tests {
		if got := m.RecallAt(tt.k); math.Abs(got-tt.recall) > 1e-9 {
			t.Errorf("recall@%d = %v, want %v", tt.k, got, tt.recall)
		}
		if got := m.HitAt(tt.k); got != tt.hit {
			t.Errorf("hit@%d = %v, want %v", tt.k, got, tt.hit)
		}
	}
	if m.RR() != 0.5 {
		t.Errorf("RR = %v, want 0.5", m.RR())
	}
	if got := m.RecallAt(50); got != 1 {
		t.Errorf("recall@50 past the list = %v, want the full-list value 1", got)
	}
	// Holds is the hit rule on one passage: the second and third hold
	// a gold sentence each, the first none.
	for i, want := range []bool{false, true, true} {
		if got := gold.Holds(passages[i]); got != want {
			t.Errorf("Holds(passage %d) = %v, want %v", i+1, got, want)
		}
	}
}

func TestPartialOverlapBelowThreshold(t *testing.T) {
	gold := ParseGold("Dense retrieval with BGE-m3 lowers the accuracy of every model we tested.", Options{})
	// Shares some words and one trigram but not most of the sentence.
	m := gold.Score([]string{"Dense retrieval with sparse features is a common baseline in question answering."})
	if m.FirstHit != 0 || m.RecallAt(1) <= 0 || m.RecallAt(1) >= 0.6 {
		t.Fatalf("partial overlap: first hit %d, recall %v; want not found with some coverage", m.FirstHit, m.RecallAt(1))
	}
	if gold.Holds("Dense retrieval with sparse features is a common baseline in question answering.") {
		t.Error("a passage below the threshold holds the evidence")
	}
}

func TestLocate(t *testing.T) {
	gold := ParseGold("Game-theoretic annotation pits question writers against solvers.\nThis sentence appears nowhere in the paper at all.", Options{})
	locs := gold.Locate([]string{"p#0", "p#1"}, []string{
		"Introduction text.",
		"Our game theoretic annotation pits question writers against solvers in rounds.",
	})
	if locs[0].PassageID != "p#1" || locs[0].Ordinal != 1 || locs[1].PassageID != "" || locs[1].Ordinal != -1 {
		t.Fatalf("locations = %+v", locs)
	}
}

func TestEmptyGold(t *testing.T) {
	g := ParseGold("  \n Too short. \n", Options{})
	if !g.Empty() {
		t.Fatalf("gold %v should be empty", g.Sentences)
	}
	m := g.Score([]string{"anything at all here"})
	if m.RecallAt(1) != 0 || m.HitAt(1) != 0 {
		t.Fatalf("empty gold scored %+v", m)
	}
}
