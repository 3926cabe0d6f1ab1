package vector

import "strings"

// cand is a scored row waiting in the top-k heap.
type cand struct {
	score float32
	id    string
	paper string
	// seg and row locate a row of a mapped segment; id then points into
	// the mapping, and the paper is looked up only for the k results.
	seg *mapping
	row int32
}

// worse is the heap order: lower score, or on a tie the larger ID, so that
// the heap keeps exactly the rows the final ordering (score desc, ID asc)
// puts first, whatever order the papers are scanned in.
func worse(a, b *cand) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	return a.id > b.id
}

// topK is a bounded min-heap: the root is the worst kept candidate, so a row
// that cannot enter costs one float comparison, and the heap never grows
// past k however many rows are scanned.
type topK struct {
	k     int
	items []cand
}

func newTopK(k int) *topK {
	// k can be huge ("everything in the paper"); the heap only ever holds
	// what was scanned, so capacity grows on demand past a small start.
	return &topK{k: k, items: make([]cand, 0, min(k, 64))}
}

// floor is the score a row must reach to be considered: rows below it are
// skipped without a call, which is the common case once the heap is full.
func (h *topK) floor() (float32, bool) {
	if len(h.items) < h.k {
		return 0, false
	}
	return h.items[0].score, true
}

func (h *topK) push(c cand) {
	if len(h.items) < h.k {
		h.items = append(h.items, c)
		h.up(len(h.items) - 1)
		return
	}
	if !worse(&h.items[0], &c) {
		return
	}
	h.items[0] = c
	h.down(0)
}

func (h *topK) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !worse(&h.items[i], &h.items[p]) {
			return
		}
		h.items[i], h.items[p] = h.items[p], h.items[i]
		i = p
	}
}

func (h *topK) down(i int) {
	n := len(h.items)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && worse(&h.items[r], &h.items[l]) {
			m = r
		}
		if !worse(&h.items[m], &h.items[i]) {
			return
		}
		h.items[i], h.items[m] = h.items[m], h.items[i]
		i = m
	}
}

// matches empties the heap into results, best first.
func (h *topK) matches() []Match {
	out := make([]Match, len(h.items))
	for i := len(h.items) - 1; i >= 0; i-- {
		c := h.items[0]
		if c.seg != nil {
			// Results outlive the mapping: copy the strings out of it.
			c.id, c.paper = strings.Clone(c.id), strings.Clone(c.seg.paperName(c.seg.paperOf(int(c.row))))
		}
		out[i] = Match{ID: c.id, PaperID: c.paper, Score: float64(c.score)}
		last := len(h.items) - 1
		h.items[0] = h.items[last]
		h.items = h.items[:last]
		h.down(0)
	}
	return out
}
