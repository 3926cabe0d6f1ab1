// Package tokens counts, encodes and truncates text in OpenAI's cl100k_base
// encoding, the tokenizer ElaipBench uses to size its 512-token passages.
//
// The merge ranks come from tiktoken-go-loader's offline loader, which embeds
// the BPE file in the binary: nothing is downloaded or cached on disk, so the
// package works without network access, without HOME and inside sandboxes.
//
// Encoding is done by a native port of tiktoken rather than by tiktoken-go's
// encoder: tiktoken-go runs the cl100k pre-tokenisation pattern through
// regexp2, a backtracking engine, and manages about 3 MB/s, a tenth of this
// port, which would make token counting the bottleneck of chunking and prompt
// budgeting. The port hand-codes that pattern (see split.go) and is tested
// token for token against tiktoken-go on real papers and under fuzzing.
//
// Text is tokenised as ordinary text: special-token strings such as
// "<|endoftext|>" in a paper are counted as the characters they are, never as
// control tokens. Every function is safe for concurrent use.
//
// One deliberate difference from tiktoken bounds the cost of hostile input:
// a pre-tokenisation piece longer than [MaxPiece] bytes (no word is; a
// megabyte of letters without a space, digits or punctuation is one piece) is
// byte-pair merged in consecutive blocks of MaxPiece bytes, each cut back to
// a UTF-8 character start, instead of as a whole. Its tokens are then the
// blocks' tokens, so text[:Ends(text)[k-1]] still spells the first k tokens
// and Count, Encode, Ends and Head agree with one another; against tiktoken
// the count may differ near each block seam, by at most a token or so per
// block (measured: 0.03% more on random letters, no difference on a run of
// one letter or of blanks). Merging a piece
// whole takes time n log n and tens of bytes of memory per byte of the
// piece, which made a 20 MB run of letters cost a minute and gigabytes; in
// blocks every piece costs the same per byte. All text up to MaxPiece bytes
// a piece, which is all real text, is encoded exactly as tiktoken does.
package tokens

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"hash/maphash"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	tiktoken_assets "github.com/pkoukk/tiktoken-go-loader/assets"
)

// Encoding is the name of the encoding this package implements.
const Encoding = "cl100k_base"

// codec holds the merge table. It is built once and only read afterwards,
// which is what makes concurrent use safe without locks.
//
// The table holds no pointers: every token is a span of one string and the
// lookup is an open-addressing hash table of ranks. A Go map of 100k string
// keys plus a [][]byte decoder took about 10 MiB, which each extraction
// worker process faulted in page by page at start (on this virtual machine
// about 15% of a worker's page faults) and the collector scanned in every
// cycle; these tables take 4 MiB and are never scanned.
type codec struct {
	all   string   // every token's bytes, concatenated
	spans []uint32 // token of rank r: all[spans[2r]:spans[2r+1]]
	slots []uint32 // rank+1 at the hash of its token; 0: empty
	seed  maphash.Seed
	pairs []int32 // rank of every two-byte string (b0<<8 | b1), or noRank
	maybe tokenFilter
	memo  [memoSlots]atomic.Pointer[memoEntry]
}

// token returns the bytes of rank r ("" for a rank with no token).
func (c *codec) token(r int) string { return c.all[c.spans[2*r]:c.spans[2*r+1]] }

// lookup returns the rank of the token spelled by s.
func (c *codec) lookup(s string) (int, bool) {
	return c.lookupHash(s, maphash.String(c.seed, s))
}

func (c *codec) lookupHash(s string, h uint64) (int, bool) {
	mask := uint64(len(c.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := c.slots[i]
		if e == 0 {
			return 0, false
		}
		if c.token(int(e-1)) == s {
			return int(e - 1), true
		}
	}
}

var (
	loadOnce sync.Once
	loaded   *codec
	loadErr  error
)

// Load builds the cl100k_base tables if that has not happened yet. Calling it
// is optional; it exists so that a program can pay the start-up cost (about
// 20 ms)
// and see a load error at a time of its choosing instead of panicking on
// first use.
func Load() error {
	loadOnce.Do(func() {
		c, err := parseRanks()
		if err != nil {
			loadErr = fmt.Errorf("tokens: load %s ranks: %w", Encoding, err)
			return
		}
		loaded = c
	})
	return loadErr
}

// parseRanks reads the BPE file that tiktoken-go-loader embeds (the same
// bytes its OfflineLoader parses; a test checks the two tables agree) in one
// pass. The loader's own parse allocates a string per line and per token
// and grows a map; every extraction worker process pays the load at start,
// so it is done here streaming, into one buffer for all tokens and flat
// tables (see codec and BenchmarkLoad).
func parseRanks() (*codec, error) {
	// The offline loader resolves the file by base name inside its
	// embedded assets, so no URL is ever fetched.
	f, err := tiktoken_assets.Assets.Open(Encoding + ".tiktoken")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	// Decoded tokens are shorter than their base64, so one buffer of the
	// file's size holds them all without moving.
	buf := make([]byte, 0, info.Size())
	type entry struct{ start, end, rank uint32 }
	entries := make([]entry, 0, 1<<17)
	maxRank := 0
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		b := sc.Bytes()
		if len(b) == 0 {
			continue
		}
		sp := bytes.IndexByte(b, ' ')
		if sp < 0 {
			return nil, fmt.Errorf("line %d: no space between token and rank", line)
		}
		start := len(buf)
		m, err := base64.StdEncoding.Decode(buf[start:cap(buf)], b[:sp])
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		buf = buf[:start+m]
		rank, err := strconv.Atoi(string(b[sp+1:]))
		if err != nil || rank < 0 || rank >= 1<<30 || m == 0 {
			return nil, fmt.Errorf("line %d: bad token or rank %q", line, b)
		}
		entries = append(entries, entry{uint32(start), uint32(start + m), uint32(rank)})
		maxRank = max(maxRank, rank)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	c := &codec{
		// buf is never written again, so the string can share it.
		all:   unsafe.String(unsafe.SliceData(buf), len(buf)),
		spans: make([]uint32, 2*(maxRank+1)),
		slots: make([]uint32, tableSize(len(entries))),
		seed:  maphash.MakeSeed(),
		pairs: make([]int32, 1<<16),
		maybe: tokenFilter{bits: make([]uint64, filterBits/64)},
	}
	for i := range c.pairs {
		c.pairs[i] = noRank
	}
	mask := uint64(len(c.slots) - 1)
	for _, e := range entries {
		r := int(e.rank)
		if c.spans[2*r+1] != 0 {
			return nil, fmt.Errorf("rank %d appears twice", r)
		}
		c.spans[2*r], c.spans[2*r+1] = e.start, e.end
		tok := c.all[e.start:e.end]
		h := maphash.String(c.seed, tok)
		if _, dup := c.lookupHash(tok, h); dup {
			return nil, fmt.Errorf("token %q appears twice", tok)
		}
		i := h & mask
		for c.slots[i] != 0 {
			i = (i + 1) & mask
		}
		c.slots[i] = uint32(r + 1)
		switch {
		case len(tok) == 2:
			c.pairs[int(tok[0])<<8|int(tok[1])] = int32(r)
		case len(tok) > 2:
			c.maybe.add(h)
		}
	}
	return c, nil
}

// tableSize is the power of two at least 2.5 times n: linear probing stays
// short at a load of 0.4 or less.
func tableSize(n int) int {
	size := 1
	for size < n*5/2 {
		size <<= 1
	}
	return size
}

func get() *codec {
	if err := Load(); err != nil {
		// The ranks are embedded in the binary, so failing to parse them is
		// a build defect, not a runtime condition callers could handle.
		panic(err)
	}
	return loaded
}

// Count returns the number of cl100k_base tokens in text.
func Count(text string) int {
	c := get()
	n := 0
	forEachPart(text, func(start, end int) {
		n += c.countPiece(text[start:end])
	})
	return n
}

// Encode returns the cl100k_base token ids of text.
func Encode(text string) []int {
	c := get()
	ids := make([]int, 0, len(text)/4+1)
	forEachPart(text, func(start, end int) {
		ids = c.encodePiece(text[start:end], ids)
	})
	return ids
}

// Ends returns, for each token of text, the byte offset just past it, so
// text[:Ends(text)[k-1]] is the text of the first k tokens. A token may end
// inside a multi-byte UTF-8 character.
func Ends(text string) []int {
	c := get()
	ends := make([]int, 0, len(text)/4+1)
	forEachPart(text, func(start, end int) {
		ends = c.encodePieceEnds(text[start:end], start, ends)
	})
	return ends
}

// Decode returns the text of token ids; ids outside the vocabulary are
// skipped. Decoding the ids of a prefix may end in a partial UTF-8 character.
func Decode(ids []int) string {
	c := get()
	var b []byte
	for _, id := range ids {
		if id >= 0 && 2*id < len(c.spans) {
			b = append(b, c.token(id)...)
		}
	}
	return string(b)
}

// Head returns the longest prefix of text that holds at most n tokens and
// ends on a token boundary and a UTF-8 character boundary.
//
// Re-tokenising a prefix can merge bytes differently from the full text, so
// the candidate is re-counted and shortened until it really fits: callers use
// Head for hard budgets.
func Head(text string, n int) string {
	if n <= 0 {
		return ""
	}
	ends := Ends(text)
	if len(ends) <= n {
		return text
	}
	for k := n; k > 0; k-- {
		cut := ends[k-1]
		for cut > 0 && cut < len(text) && !utf8.RuneStart(text[cut]) {
			cut--
		}
		if cut > 0 && Count(text[:cut]) <= n {
			return text[:cut]
		}
	}
	return ""
}

// countPiece is encodePiece without materialising ids, because Count is the
// hot path of chunking.
func (c *codec) countPiece(p string) int {
	if _, ok := c.lookup(p); ok {
		return 1
	}
	if len(p) <= smallPiece {
		var buf [smallPiece + 1]int
		return len(c.mergeSmall(p, buf[:0])) - 1
	}
	if len(p) >= memoMin {
		return len(c.mergeMemo(p)) - 1
	}
	s := largePool.Get().(*largeScratch)
	defer largePool.Put(s)
	s.bounds = c.mergeLarge(p, s.bounds[:0])
	return len(s.bounds) - 1
}

func (c *codec) encodePiece(p string, ids []int) []int {
	if r, ok := c.lookup(p); ok {
		return append(ids, r)
	}
	bounds := c.merge(p)
	for i := 0; i+1 < len(bounds); i++ {
		r, _ := c.lookup(p[bounds[i]:bounds[i+1]])
		ids = append(ids, r)
	}
	return ids
}

func (c *codec) encodePieceEnds(p string, base int, ends []int) []int {
	if _, ok := c.lookup(p); ok {
		return append(ends, base+len(p))
	}
	for _, b := range c.merge(p)[1:] {
		ends = append(ends, base+b)
	}
	return ends
}

// merge returns the token boundaries of a piece that is not a single token.
func (c *codec) merge(p string) []int {
	if len(p) <= smallPiece {
		return c.mergeSmall(p, make([]int, 0, len(p)+1))
	}
	if len(p) >= memoMin {
		return c.mergeMemo(p)
	}
	return c.mergeLarge(p, make([]int, 0, len(p)/3+2))
}

// memoMin is the piece length from which merges are memoised: far longer
// than any word, so only hostile runs and their blocks reach the memo.
const memoMin = 256

const memoSlots = 64

type memoEntry struct {
	piece  string
	bounds []int // shared: callers only read it
}

// mergeMemo is mergeLarge with a small direct-mapped memo of recent pieces.
// Hostile input is usually one pattern repeated ("AAAA...", a word without
// spaces, base64 of zeros), whose MaxPiece blocks come in a few distinct
// shapes only; merging each block again costs about 100 µs per KiB.
func (c *codec) mergeMemo(p string) []int {
	slot := &c.memo[maphash.String(c.seed, p)%memoSlots]
	if e := slot.Load(); e != nil && e.piece == p {
		return e.bounds
	}
	b := c.mergeLarge(p, make([]int, 0, len(p)/2+2))
	// Cloned so that the memo does not keep a whole input document alive.
	slot.Store(&memoEntry{piece: strings.Clone(p), bounds: b})
	return b
}
