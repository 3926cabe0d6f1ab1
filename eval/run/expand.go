package run

import (
	"fmt"
	"sort"
	"strings"

	"github.com/paperlens/paperlens/retrieve"
)

// group is one block of the prompt's passages: a retrieved passage alone,
// or (--expand) retrieved passages with their neighbours, merged where
// they touch.
type group struct {
	id      string // the passage id, or "paper#3-5" for passages 3 to 5
	rank    int    // the best rank of its hits
	score   float64
	ordinal int // its first passage's place in the paper; -1 when unknown
	text    string
	texts   []string      // each passage's text, for evidence recall
	items   []ContextItem // each passage, in the paper's order
}

// expand adds the n passages before and after each hit (same paper, by
// ordinal) and merges hits and neighbours that touch or overlap into one
// block, so that the text reads on across passage boundaries, as
// order-preserving RAG (Yu et al. 2024) keeps it. Neighbours are added
// nearest first (ties: the better hit's first) while their tokens fit in
// room, the prompt's space left once the hits are in; the first that does
// not fit ends the expansion, so no block has a hole. Hits the paper as
// stored does not hold stay alone. Blocks come best hit first.
func expand(hits []retrieve.Hit, p paperInfo, n, room int) []group {
	if n <= 0 || len(p.passages) == 0 {
		var out []group
		for _, h := range hits {
			out = append(out, singleGroup(h, p))
		}
		return out
	}
	hitAt, out, room := placeHits(hits, p, room)
	keep := map[int]bool{}
	for o := range hitAt {
		keep[o] = true
	}
	for _, c := range neighbours(hitAt, n, len(p.passages)) {
		t := p.passages[c.ord].Tokens
		if t > room {
			break
		}
		keep[c.ord] = true
		room -= t
	}
	out = append(out, mergeRuns(keep, hitAt, p)...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].rank < out[j].rank })
	return out
}

// singleGroup is hit h alone as a group.
func singleGroup(h retrieve.Hit, p paperInfo) group {
	ord := -1
	if o, ok := p.ordinals[h.PassageID]; ok {
		ord = o
	}
	return group{id: h.PassageID, rank: h.Rank, score: h.Score, ordinal: ord, text: h.Text, texts: []string{h.Text},
		items: []ContextItem{{PassageID: h.PassageID, Rank: h.Rank, Score: h.Score}}}
}

// placeHits finds each hit's passage in the paper as stored: hitAt maps
// an ordinal to its (first) hit. Hits the paper does not hold come back
// alone, as groups. room is what is left once the placed hits are in.
func placeHits(hits []retrieve.Hit, p paperInfo, room int) (hitAt map[int]retrieve.Hit, alone []group, left int) {
	hitAt = map[int]retrieve.Hit{}
	for _, h := range hits {
		o, ok := p.ordinals[h.PassageID]
		if !ok || o < 0 || o >= len(p.passages) || p.passages[o].PassageID != h.PassageID {
			alone = append(alone, singleGroup(h, p))
			continue
		}
		if _, dup := hitAt[o]; !dup {
			hitAt[o] = h
			room -= p.passages[o].Tokens
		}
	}
	return hitAt, alone, room
}

// neighbour is a passage next to a hit: its ordinal, its distance from
// the nearest hit and that hit's rank.
type neighbour struct{ ord, dist, rank int }

// neighbours lists the passages within n of a hit (of a paper of size
// passages), each by its nearest hit (ties: the better hit), in the order
// they are added: nearest first, then by the hit's rank, then in the
// paper's order.
func neighbours(hitAt map[int]retrieve.Hit, n, size int) []neighbour {
	near := map[int]neighbour{}
	for o, h := range hitAt {
		for d := 1; d <= n; d++ {
			for _, x := range []int{o - d, o + d} {
				if _, isHit := hitAt[x]; isHit || x < 0 || x >= size {
					continue
				}
				if c, seen := near[x]; !seen || d < c.dist || d == c.dist && h.Rank < c.rank {
					near[x] = neighbour{x, d, h.Rank}
				}
			}
		}
	}
	cands := make([]neighbour, 0, len(near))
	for _, c := range near {
		cands = append(cands, c)
	}
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.dist != b.dist {
			return a.dist < b.dist
		}
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		return a.ord < b.ord
	})
	return cands
}

// mergeRuns turns the kept ordinals into blocks of consecutive passages,
// in the paper's order.
func mergeRuns(keep map[int]bool, hitAt map[int]retrieve.Hit, p paperInfo) []group {
	ords := make([]int, 0, len(keep))
	for o := range keep {
		ords = append(ords, o)
	}
	sort.Ints(ords)
	var out []group
	for i := 0; i < len(ords); {
		j := i + 1
		for j < len(ords) && ords[j] == ords[j-1]+1 {
			j++
		}
		out = append(out, block(ords[i:j], hitAt, p))
		i = j
	}
	return out
}

// block is consecutive passages ords of paper p as one group.
func block(ords []int, hitAt map[int]retrieve.Hit, p paperInfo) group {
	first, last := p.passages[ords[0]], p.passages[ords[len(ords)-1]]
	g := group{id: first.PassageID, rank: -1, ordinal: first.Ordinal}
	if len(ords) > 1 {
		g.id = fmt.Sprintf("%s-%d", first.PassageID, last.Ordinal)
	}
	for _, o := range ords {
		if h, ok := hitAt[o]; ok && (g.rank < 0 || h.Rank < g.rank) {
			g.rank, g.score = h.Rank, h.Score
		}
	}
	var parts []string
	for _, o := range ords {
		ps := p.passages[o]
		it := ContextItem{PassageID: ps.PassageID, Rank: g.rank, Expanded: true}
		if h, ok := hitAt[o]; ok {
			it = ContextItem{PassageID: ps.PassageID, Rank: h.Rank, Score: h.Score}
		}
		g.items = append(g.items, it)
		g.texts = append(g.texts, ps.Text)
		parts = append(parts, ps.Text)
	}
	// Passages tile the paper's text, so the span from the first to the
	// last is the text as written, boundaries included.
	if first.Start >= 0 && last.End <= len(p.text) && first.Start <= last.End && p.text != "" {
		g.text = p.text[first.Start:last.End]
	} else {
		g.text = strings.Join(parts, "\n")
	}
	return g
}
