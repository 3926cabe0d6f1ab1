package tokens

import (
	"hash/maphash"
	"math"
	"sync"
)

// smallPiece is the piece length (bytes) up to which the quadratic merge loop
// of tiktoken is used: for ordinary words it beats a heap, and it runs on
// stack buffers without allocating.
const smallPiece = 64

const noRank = math.MaxInt32

// rank returns the rank of the token spelled by b, or noRank. Two-byte
// strings, which make up every first round of merging, come from a flat
// table instead of the map: hashing them was a third of the merge time.
func (c *codec) rank(b string) int {
	if len(b) == 2 {
		return int(c.pairs[int(b[0])<<8|int(b[1])])
	}
	// One hash serves the filter and the table.
	h := maphash.String(c.seed, b)
	if !c.maybe.has(h) {
		return noRank
	}
	if r, ok := c.lookupHash(b, h); ok {
		return r
	}
	return noRank
}

// tokenFilter is a one-hash Bloom filter of the tokens longer than two
// bytes. Most pairs looked up while merging a long run of letters are not
// tokens, and on text that does not stay in cache each map lookup is a
// cache miss or two; the filter (256 KiB, about 5% of its bits set) answers
// most of them from the L2 cache.
type tokenFilter struct {
	bits []uint64
}

const filterBits = 1 << 21

// The filter takes the token's table hash; it uses the high bits, the table
// the low ones, so the two stay independent.
func (f *tokenFilter) add(h uint64) {
	h = (h >> 32) % filterBits
	f.bits[h/64] |= 1 << (h % 64)
}

func (f *tokenFilter) has(h uint64) bool {
	h = (h >> 32) % filterBits
	return f.bits[h/64]&(1<<(h%64)) != 0
}

// pairRank is the rank of merging the part starting at bounds[i] with the one
// after it, or noRank when the merged bytes are not a token.
func (c *codec) pairRank(p string, bounds []int, i int) int {
	if i+2 < len(bounds) {
		return c.rank(p[bounds[i]:bounds[i+2]])
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

// largeScratch is the working memory of mergeLarge, pooled because Count
// runs it once per long piece and the allocations cost as much as the merge.
type largeScratch struct {
	next, prev []int32
	tree       []uint64
	bounds     []int // countPiece's result buffer
}

var largePool = sync.Pool{New: func() any { return new(largeScratch) }}

func grown[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

const noPair = math.MaxUint64

// mergeLarge is mergeSmall for longer pieces (up to MaxPiece bytes: a URL, a
// table rule, a run of letters from a PDF that lost its spaces), where the
// quadratic loop would stall. Parts form a linked list, and the candidate
// pair of each part sits, keyed rank<<32 | start, at the leaves of a
// tournament tree whose root is the leftmost lowest-ranked pair: the merge
// order of tiktoken. A merge changes three leaves (the merged part's pair,
// the absorbed part's, now none, and the previous part's) and each update
// walks one path to the root; a heap instead accumulated stale entries and
// spent a third of the time sifting them.
func (c *codec) mergeLarge(p string, bounds []int) []int {
	n := len(p)
	s := largePool.Get().(*largeScratch)
	defer largePool.Put(s)
	size := 1
	for size < n {
		size *= 2
	}
	next, prev, tree := grown(s.next, n), grown(s.prev, n), grown(s.tree, 2*size)
	s.next, s.prev, s.tree = next, prev, tree
	for i := range n {
		next[i], prev[i] = int32(i+1), int32(i-1)
	}
	// key is the leaf of the pair starting at part i.
	key := func(i int32) uint64 {
		j := next[i]
		if int(j) >= n {
			return noPair
		}
		e := n
		if int(next[j]) < n {
			e = int(next[j])
		}
		if r := c.rank(p[i:e]); r != noRank {
			return uint64(r)<<32 | uint64(i)
		}
		return noPair
	}
	for i := range size {
		tree[size+i] = noPair
		if i < n {
			tree[size+i] = key(int32(i))
		}
	}
	for k := size - 1; k > 0; k-- {
		tree[k] = min(tree[2*k], tree[2*k+1])
	}
	set := func(i int32, v uint64) {
		k := size + int(i)
		tree[k] = v
		for k > 1 {
			k /= 2
			tree[k] = min(tree[2*k], tree[2*k+1])
		}
	}
	for tree[1] != noPair {
		i := int32(uint32(tree[1]))
		j := next[i]
		next[i] = next[j]
		if int(next[j]) < n {
			prev[next[j]] = i
		}
		set(j, noPair)
		set(i, key(i))
		if k := prev[i]; k >= 0 {
			set(k, key(k))
		}
	}
	for i := 0; i < n; i = int(next[i]) {
		bounds = append(bounds, i)
	}
	return append(bounds, n)
}
