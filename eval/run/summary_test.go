package run

import (
	"fmt"
	"math"
	"testing"
)

// Two runs' per-question scores pair on the questions both answered, in
// id order; the difference is the treatment's accuracy minus the
// baseline's on those questions.
func TestPairedDiff(t *testing.T) {
	recs := func(mode string, right ...bool) []Record {
		var out []Record
		for i, ok := range right {
			out = append(out, Record{QuestionID: fmt.Sprintf("q%d", i), Mode: mode, Run: 1, Correct: ok, ScoreKind: "exact"})
		}
		return out
	}
	full := PerQuestion(recs("full", true, true, true, true), "full")
	cases := []struct {
		name   string
		b      map[string]float64
		n      int
		diff   float64
		within bool
	}{
		{"same answers", PerQuestion(recs("bm25", true, true, true, true), "bm25"), 4, 0, true},
		{"one lost of four", PerQuestion(recs("bm25", true, false, true, true), "bm25"), 4, -0.25, true},
		{"all lost", PerQuestion(recs("bm25", false, false, false, false), "bm25"), 4, -1, false},
		{"other questions", map[string]float64{"x": 1}, 0, 0, false},
		{"another mode's records", PerQuestion(recs("dense", true), "bm25"), 0, 0, false},
	}
	for _, c := range cases {
		n, d, _, hi := PairedDiff(full, c.b, 8)
		if n != c.n || math.Abs(d-c.diff) > 1e-12 || (n > 0 && (hi >= -1e-9) != c.within) {
			t.Errorf("%s: n %d diff %v hi %v; want n %d diff %v within %v", c.name, n, d, hi, c.n, c.diff, c.within)
		}
	}
}
