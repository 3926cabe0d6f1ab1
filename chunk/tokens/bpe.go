package tokens

import "math"

// smallPiece is the piece length (bytes) up to which the quadratic merge loop
// of tiktoken is used: for ordinary words it beats a heap, and it runs on
// stack buffers without allocating.
const smallPiece = 64

const noRank = math.MaxInt

// pairRank is the rank of merging the part starting at bounds[i] with the one
// after it, or noRank when the merged bytes are not a token.
func (c *codec) pairRank(p string, bounds []int, i int) int {
	if i+2 < len(bounds) {
		if r, ok := c.ranks[p[bounds[i]:bounds[i+2]]]; ok {
			return r
		}
	}
	return noRank
}

// mergeSmall byte-pair-merges p (len(p) <= smallPiece) and returns the token
// boundaries: offsets 0 = b[0] < b[1] < ... < b[k] = len(p) for k tokens.
// It repeatedly merges the lowest-ranked adjacent pair, leftmost first on
// ties, exactly as tiktoken's byte_pair_merge does.
func (c *codec) mergeSmall(p string, bounds []int) []int {
	var rankBuf [smallPiece + 1]int
	for i := 0; i <= len(p); i++ {
		bounds = append(bounds, i)
	}
	ranks := rankBuf[:len(bounds)]
	for i := range ranks {
		ranks[i] = c.pairRank(p, bounds, i)
	}
	for len(bounds) > 2 {
		best, at := noRank, -1
		for i := 0; i+2 < len(bounds); i++ {
			if ranks[i] < best {
				best, at = ranks[i], i
			}
		}
		if at < 0 {
			break
		}
		bounds = append(bounds[:at+1], bounds[at+2:]...)
		ranks = append(ranks[:at+1], ranks[at+2:]...)
		ranks[at] = c.pairRank(p, bounds, at)
		if at > 0 {
			ranks[at-1] = c.pairRank(p, bounds, at-1)
		}
	}
	return bounds
}

// mergeLarge is mergeSmall for long pieces (a URL, a base64 blob, a run of
// letters from a PDF that lost its spaces), where the quadratic loop would
// stall. Parts form a linked list and candidate pairs sit in a min-heap
// ordered by (rank, start), which reproduces the leftmost-lowest merge order.
func (c *codec) mergeLarge(p string) []int {
	n := len(p)
	next := make([]int, n)
	prev := make([]int, n)
	alive := make([]bool, n)
	for i := range n {
		next[i], prev[i], alive[i] = i+1, i-1, true
	}
	// pairEnd is where the pair starting at part i ends, or -1 when part i is
	// the last part.
	pairEnd := func(i int) int {
		if next[i] >= n {
			return -1
		}
		if next[next[i]] >= n {
			return n
		}
		return next[next[i]]
	}
	h := make(pairHeap, 0, n)
	push := func(i int) {
		if e := pairEnd(i); e >= 0 {
			if r, ok := c.ranks[p[i:e]]; ok {
				h.push(pair{rank: r, start: i, end: e})
			}
		}
	}
	for i := range n {
		push(i)
	}
	for len(h) > 0 {
		top := h.pop()
		// A merge only ever lengthens parts, so a stale entry is one whose
		// recorded pair end no longer matches.
		if !alive[top.start] || pairEnd(top.start) != top.end {
			continue
		}
		i, j := top.start, next[top.start]
		alive[j] = false
		next[i] = next[j]
		if next[j] < n {
			prev[next[j]] = i
		}
		push(i)
		if prev[i] >= 0 {
			push(prev[i])
		}
	}
	bounds := make([]int, 0, n/3+2)
	for i := 0; i < n; i = next[i] {
		bounds = append(bounds, i)
	}
	return append(bounds, n)
}

type pair struct{ rank, start, end int }

func (a pair) less(b pair) bool {
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	return a.start < b.start
}

// pairHeap is a hand-rolled binary heap: container/heap's interface calls
// and boxing cost more than the merge work itself.
type pairHeap []pair

func (h *pairHeap) push(x pair) {
	*h = append(*h, x)
	s := *h
	for i := len(s) - 1; i > 0; {
		parent := (i - 1) / 2
		if !s[i].less(s[parent]) {
			break
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
}

func (h *pairHeap) pop() pair {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(s) && s[l].less(s[m]) {
			m = l
		}
		if r < len(s) && s[r].less(s[m]) {
			m = r
		}
		if m == i {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}
