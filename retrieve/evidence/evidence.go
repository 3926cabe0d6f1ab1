// Package evidence measures whether retrieval found the gold evidence.
//
// Gold evidence (ElaipBench's relevant_passage) seldom matches passage text
// byte for byte after PDF extraction: hyphenation, ligatures, spacing and
// line breaks differ. So both sides are normalised (NFKC, lower case, every
// run of non-letters/digits a single space, hyphens dropped so "user-facing"
// and "userfacing" agree) and compared as word n-grams:
//
//   - the gold text is split into excerpts (one per line) and sentences;
//     sentences under MinWords words are ignored as too short to locate;
//   - a gold word is covered by a passage when it lies inside a word n-gram
//     (default 3) that also occurs in the passage;
//   - a gold sentence is found in a passage when at least Threshold (default
//     0.6) of its words are covered by that passage alone;
//   - recall@k is the share of all gold words covered by the union of the top
//     k passages; hit@k is 1 when some gold sentence is found in the top k;
//     MRR is 1/rank of the first passage in which some gold sentence is found.
package evidence

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/paperlens/paperlens/chunk"
)

// DefaultThreshold is the share of a gold sentence's words one passage
// must cover for the sentence to count as found in it: Options.Threshold
// when not given, and the default of the --threshold flags (eval
// retrieval, export).
const DefaultThreshold = 0.6

// Options tune the matching rule.
type Options struct {
	N         int     // n-gram length (default 3)
	Threshold float64 // share of a sentence's words a single passage must cover (default DefaultThreshold)
	MinWords  int     // gold sentences shorter than this are ignored (default 4)
}

func (o *Options) defaults() {
	if o.N <= 0 {
		o.N = 3
	}
	if o.Threshold <= 0 {
		o.Threshold = DefaultThreshold
	}
	if o.MinWords <= 0 {
		o.MinWords = 4
	}
}

// Normalize maps text to the comparison form: NFKC, lower case, hyphens
// dropped, every other run of non-letters/digits one space.
func Normalize(s string) string {
	s = norm.NFKC.String(s)
	var b strings.Builder
	b.Grow(len(s))
	space := true
	for _, r := range s {
		switch {
		case r == '-' || r == '\u00AD' || r == '\u2010' || r == '\u2011':
			// "classi- fication" and "user-facing" both lose the hyphen; the
			// space left by a line break after one is dropped below.
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
			space = false
		default:
			if !space {
				b.WriteByte(' ')
				space = true
			}
		}
	}
	return strings.TrimSpace(b.String())
}

// Words is Normalize split into words.
func Words(s string) []string { return strings.Fields(Normalize(s)) }

// Sentence is one gold sentence in comparison form.
type Sentence struct {
	Text  string   // as given
	Words []string // normalised
}

// Gold is the evidence of one question, split into sentences.
type Gold struct {
	Sentences []Sentence
	words     int
	opt       Options
}

// ParseGold splits a relevant_passage string into sentences. Excerpts are
// separated by line breaks; each is split into sentences.
func ParseGold(relevant string, opt Options) *Gold {
	opt.defaults()
	g := &Gold{opt: opt}
	for _, excerpt := range strings.Split(relevant, "\n") {
		excerpt = strings.TrimSpace(excerpt)
		if excerpt == "" {
			continue
		}
		for _, sp := range chunk.Sentences(excerpt) {
			s := excerpt[sp.Start:sp.End]
			w := Words(s)
			if len(w) < opt.MinWords {
				continue
			}
			g.Sentences = append(g.Sentences, Sentence{Text: strings.TrimSpace(s), Words: w})
			g.words += len(w)
		}
	}
	return g
}

// Empty reports whether the gold text had nothing long enough to match.
func (g *Gold) Empty() bool { return len(g.Sentences) == 0 }

// grams is the set of word n-grams of a text.
type grams map[string]struct{}

func ngramSet(words []string, n int) grams {
	set := grams{}
	if len(words) < n {
		if len(words) > 0 {
			set[strings.Join(words, " ")] = struct{}{}
		}
		return set
	}
	for i := 0; i+n <= len(words); i++ {
		set[strings.Join(words[i:i+n], " ")] = struct{}{}
	}
	return set
}

// covered marks the words of w that lie inside an n-gram present in any of sets.
func covered(w []string, n int, mark []bool, sets ...grams) {
	if len(w) < n {
		key := strings.Join(w, " ")
		for _, s := range sets {
			if _, ok := s[key]; ok {
				for i := range mark {
					mark[i] = true
				}
			}
		}
		return
	}
	for i := 0; i+n <= len(w); i++ {
		key := strings.Join(w[i:i+n], " ")
		for _, s := range sets {
			if _, ok := s[key]; ok {
				for j := i; j < i+n; j++ {
					mark[j] = true
				}
				break
			}
		}
	}
}

func share(mark []bool) float64 {
	if len(mark) == 0 {
		return 0
	}
	c := 0
	for _, m := range mark {
		if m {
			c++
		}
	}
	return float64(c) / float64(len(mark))
}

// Match is how one ranked list of passages fares against the gold.
type Match struct {
	// FirstRank[i] is the 1-based rank of the first passage in which gold
	// sentence i is found, 0 when no passage holds it.
	FirstRank []int `json:"first_rank"`
	// Coverage[k-1] is recall@k: the share of gold words covered by the top k passages.
	Coverage []float64 `json:"coverage"`
	// FirstHit is the rank of the first passage holding any gold sentence (0: none).
	FirstHit int `json:"first_hit"`
	// CompleteRank is the smallest k whose top k passages together cover
	// every gold sentence (each to the threshold, words counted from any of
	// them, as a reader sees them side by side); 0 when no k does.
	CompleteRank int `json:"complete_rank"`
}

// Score compares ranked passage texts (best first) with the gold.
func (g *Gold) Score(passages []string) Match {
	n := g.opt.N
	m := Match{FirstRank: make([]int, len(g.Sentences)), Coverage: make([]float64, len(passages))}
	union := make([][]bool, len(g.Sentences))
	for i, s := range g.Sentences {
		union[i] = make([]bool, len(s.Words))
	}
	for r, p := range passages {
		set := ngramSet(Words(p), n)
		for i, s := range g.Sentences {
			mark := make([]bool, len(s.Words))
			covered(s.Words, n, mark, set)
			if m.FirstRank[i] == 0 && share(mark) >= g.opt.Threshold {
				m.FirstRank[i] = r + 1
				if m.FirstHit == 0 {
					m.FirstHit = r + 1
				}
			}
			for j, v := range mark {
				union[i][j] = union[i][j] || v
			}
		}
		total, got := 0, 0
		for _, u := range union {
			for _, v := range u {
				total++
				if v {
					got++
				}
			}
		}
		if total > 0 {
			m.Coverage[r] = float64(got) / float64(total)
		}
		if m.CompleteRank == 0 && len(union) > 0 {
			all := true
			for _, u := range union {
				all = all && share(u) >= g.opt.Threshold
			}
			if all {
				m.CompleteRank = r + 1
			}
		}
	}
	return m
}

// Holds reports whether the passage text holds gold evidence: some gold
// sentence is found in it alone (Threshold of its words covered). It is
// the rule behind FirstRank, hit@k and MRR, applied to one passage: a
// ranking's first passage that Holds is its FirstHit.
func (g *Gold) Holds(text string) bool {
	return g.Score([]string{text}).FirstHit == 1
}

// RecallAt is recall@k: the gold share covered by the top k passages.
func (m Match) RecallAt(k int) float64 {
	if len(m.Coverage) == 0 || k <= 0 {
		return 0
	}
	if k > len(m.Coverage) {
		k = len(m.Coverage)
	}
	return m.Coverage[k-1]
}

// HitAt is 1 when some gold sentence is found within the top k passages.
func (m Match) HitAt(k int) float64 {
	if m.FirstHit > 0 && m.FirstHit <= k {
		return 1
	}
	return 0
}

// CompleteAt is 1 when the top k passages together hold every gold
// sentence (see CompleteRank): what a reader needs to answer from them
// alone, so the share of questions with complete evidence bounds RAG
// accuracy.
func (m Match) CompleteAt(k int) float64 {
	if m.CompleteRank > 0 && m.CompleteRank <= k {
		return 1
	}
	return 0
}

// RR is the reciprocal rank of the first passage holding gold evidence.
func (m Match) RR() float64 {
	if m.FirstHit == 0 {
		return 0
	}
	return 1 / float64(m.FirstHit)
}

// Location is where a gold sentence sits in a paper's passages.
type Location struct {
	Sentence  string  `json:"sentence"`
	PassageID string  `json:"passage_id,omitempty"` // "" when not found in the paper at all
	Ordinal   int     `json:"ordinal"`
	Coverage  float64 `json:"coverage"`
}

// Locate finds, for each gold sentence, the passage of the paper that covers
// it best; the inspector uses it to show where unretrieved evidence was.
func (g *Gold) Locate(ids, texts []string) []Location {
	n := g.opt.N
	sets := make([]grams, len(texts))
	for i, t := range texts {
		sets[i] = ngramSet(Words(t), n)
	}
	out := make([]Location, len(g.Sentences))
	for i, s := range g.Sentences {
		out[i] = Location{Sentence: s.Text, Ordinal: -1}
		for p, set := range sets {
			mark := make([]bool, len(s.Words))
			covered(s.Words, n, mark, set)
			if c := share(mark); c > out[i].Coverage {
				out[i].Coverage, out[i].Ordinal, out[i].PassageID = c, p, ids[p]
			}
		}
		if out[i].Coverage < g.opt.Threshold {
			out[i].PassageID, out[i].Ordinal = "", -1
		}
	}
	return out
}
