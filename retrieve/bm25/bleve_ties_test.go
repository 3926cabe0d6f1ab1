package bm25

import (
	"math"
	"testing"

	"github.com/paperlens/paperlens/retrieve"
)

// Two passages with the same terms can score a few ulps apart, depending on
// the order Bleve summed their clauses in; they must still come out in id
// order, while a real difference in score still wins.
func TestSortHitsTiesWithinRounding(t *testing.T) {
	s := 7.318927361
	hits := []retrieve.Hit{
		{PassageID: "p#9", Score: math.Nextafter(s, 10)},
		{PassageID: "p#2", Score: s},
		{PassageID: "p#5", Score: math.Nextafter(math.Nextafter(s, 0), 0)},
		{PassageID: "p#1", Score: s * 0.999},
		{PassageID: "p#7", Score: s * 1.001},
	}
	sortHits(hits)
	var got []string
	for _, h := range hits {
		got = append(got, h.PassageID)
	}
	want := []string{"p#7", "p#2", "p#5", "p#9", "p#1"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("order %v, want %v", got, want)
		}
	}
}
