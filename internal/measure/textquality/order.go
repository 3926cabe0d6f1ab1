package textquality

import "strings"

// Order says how well the output keeps the ground truth's paragraphs in
// their order.
type Order struct {
	Paragraphs int     `json:"paragraphs"` // in the ground truth
	Located    int     `json:"located"`    // found in the output at one place, closely enough
	Ambiguous  int     `json:"ambiguous"`  // found equally well at two or more places (a heading also on the contents page), so not scored
	Pairs      int     `json:"pairs"`      // pairs of located paragraphs
	InOrder    int     `json:"in_order"`   // of those, in the ground truth's order
	Score      float64 `json:"score"`      // InOrder/Pairs; 1 with one paragraph in all, 0 when fewer than two of several are located
}

// maxLocateDist is the largest edit distance, as a fraction of a
// paragraph's length, at which its best window in the output still counts
// as the paragraph: a third leaves room for lost maths symbols and broken
// words while a paragraph of other words stays far above it.
const maxLocateDist = 1.0 / 3

// Paragraphs splits text at blank lines (lines holding only white space)
// and returns the non-empty paragraphs with their white space collapsed.
func Paragraphs(text string) []string {
	var out []string
	var cur []string
	flush := func() {
		if p := CollapseSpace(strings.Join(cur, " ")); p != "" {
			out = append(out, p)
		}
		cur = cur[:0]
	}
	for _, l := range strings.Split(universalNewlines(text), "\n") {
		if strings.TrimSpace(l) == "" {
			flush()
			continue
		}
		cur = append(cur, l)
	}
	flush()
	return out
}

// ParagraphOrder locates each ground-truth paragraph in the output and
// scores the order of the located ones. Both texts have their white space
// collapsed first, so line and page breaks do not matter. A paragraph's
// place is the end of its best-matching window: the substring of the
// output at the least edit distance from the paragraph (approximate string
// matching, Sellers' recurrence computed bit-parallel after Myers). It is
// located when that distance is at most a third of its length and the best
// windows all lie at one place; windows ending within half the paragraph's
// length of each other are one place. The score is the fraction of pairs
// of located paragraphs whose places are in the ground truth's order
// (a Kendall-tau agreement).
func ParagraphOrder(truth, got string) Order {
	paras := Paragraphs(truth)
	text := []rune(CollapseSpace(got))
	o := Order{Paragraphs: len(paras)}
	var pos []int
	for _, p := range paras {
		pr := []rune(p)
		d, ends := bestWindows(pr, text)
		if len(ends) == 0 || float64(d) > maxLocateDist*float64(len(pr)) {
			continue
		}
		if places(ends, len(pr)/2) > 1 {
			o.Ambiguous++
			continue
		}
		o.Located++
		pos = append(pos, ends[0])
	}
	for i := range pos {
		for j := i + 1; j < len(pos); j++ {
			o.Pairs++
			if pos[i] < pos[j] {
				o.InOrder++
			}
		}
	}
	switch {
	case o.Pairs > 0:
		o.Score = float64(o.InOrder) / float64(o.Pairs)
	case o.Paragraphs == 1 && o.Located == 1:
		o.Score = 1
	}
	return o
}

// places counts the groups of sorted end positions in which each is within
// gap of the one before.
func places(ends []int, gap int) int {
	n := 1
	for i := 1; i < len(ends); i++ {
		if ends[i]-ends[i-1] > gap {
			n++
		}
	}
	return n
}

// bestWindows returns the least edit distance between p and any substring
// of t, and the (exclusive) end offsets in t of the substrings that reach
// it, ascending. With p empty it returns 0 and no ends.
//
// It is Myers' bit-vector algorithm in blocks of 64 rows (as in edlib's
// calculateBlock), with the first row all zeros so a match may start
// anywhere: O(⌈len(p)/64⌉·len(t)).
func bestWindows(p, t []rune) (int, []int) {
	m := len(p)
	if m == 0 {
		return 0, nil
	}
	words := (m + 63) / 64
	peq := make(map[rune][]uint64)
	for i, r := range p {
		x := peq[r]
		if x == nil {
			x = make([]uint64, words)
			peq[r] = x
		}
		x[i/64] |= 1 << (i % 64)
	}
	zero := make([]uint64, words)
	pv := make([]uint64, words)
	mv := make([]uint64, words)
	for i := range pv {
		pv[i] = ^uint64(0)
	}
	last := uint((m - 1) % 64)
	score := m // D[m][0]: the pattern against the empty prefix
	best := m
	var ends []int
	for j, r := range t {
		eq := peq[r]
		if eq == nil {
			eq = zero
		}
		hin := 0 // row 0 is all zeros: no horizontal change enters the top block
		for w := 0; w < words; w++ {
			Pv, Mv, Eq := pv[w], mv[w], eq[w]
			xv := Eq | Mv
			if hin < 0 {
				Eq |= 1
			}
			xh := (((Eq & Pv) + Pv) ^ Pv) | Eq
			ph := Mv | ^(xh | Pv)
			mh := Pv & xh
			if w == words-1 {
				score += int(ph>>last&1) - int(mh>>last&1)
			}
			hout := int(ph>>63&1) - int(mh>>63&1)
			ph <<= 1
			mh <<= 1
			if hin < 0 {
				mh |= 1
			} else if hin > 0 {
				ph |= 1
			}
			pv[w] = mh | ^(xv | ph)
			mv[w] = ph & xv
			hin = hout
		}
		switch {
		case score < best:
			best = score
			ends = append(ends[:0], j+1)
		case score == best:
			ends = append(ends, j+1)
		}
	}
	return best, ends
}
