package lsa_test

import (
	"testing"

	"github.com/paperlens/paperlens/retrieve/embed/lsa"
)

func TestFitPassages(t *testing.T) {
	const budget = 512 << 20
	opts := lsa.Options{}
	// Small corpora are fitted whole.
	for _, n := range []int{0, 1, 162, 5000} {
		if got := lsa.FitPassages(n, int64(n)*1000, opts, budget); got != n {
			t.Errorf("%d passages within %d MiB: fit on %d", n, budget>>20, got)
		}
	}
	// Large ones on a sample whose estimate is within the budget, the same
	// size whatever the corpus's size at one passage length.
	prev := -1
	for _, n := range []int{100_000, 1_000_000, 10_000_000} {
		got := lsa.FitPassages(n, int64(n)*1000, opts, budget)
		if got >= n || got < lsa.MinFitPassages || lsa.FitBytes(got, int64(got)*1000, opts) > budget {
			t.Errorf("%d passages: fit on %d (estimate %d MiB)", n, got, lsa.FitBytes(got, int64(got)*1000, opts)>>20)
		}
		if prev >= 0 && got != prev {
			t.Errorf("%d passages: sample of %d, %d for a smaller corpus", n, got, prev)
		}
		prev = got
	}
	// Longer passages, a smaller sample; a budget below the vocabulary's
	// share, the floor.
	if long, short := lsa.FitPassages(1_000_000, 2000_000_000, opts, budget), prev; long >= short {
		t.Errorf("2,000-character passages: sample of %d, 1,000-character %d", long, short)
	}
	if got := lsa.FitPassages(1_000_000, 1000_000_000, opts, 1<<20); got != lsa.MinFitPassages {
		t.Errorf("1 MiB budget: sample of %d, want the floor %d", got, lsa.MinFitPassages)
	}
}
