package textquality

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestRatioHandWorked(t *testing.T) {
	tests := []struct {
		name, a, b string
		want       float64
	}{
		{"both empty", "", "", 1},
		{"one empty", "abc", "", 0},
		{"identical", "abc", "abc", 1},
		// LCS "ittn" = 4 of 6+7: rapidfuzz's Indel.distance is 5, 1 − 5/13.
		{"kitten", "kitten", "sitting", 8.0 / 13},
		// rapidfuzz's docs: Indel.distance("lewenstein", "levenshtein") = 3.
		{"lewenstein", "lewenstein", "levenshtein", 1 - 3.0/21},
		// rapidfuzz's docs: fuzz.ratio = 96.55171966552734.
		{"test!", "this is a test", "this is a test!", 28.0 / 29},
		// Code points, not bytes: γ is 2 bytes and y shares none of them.
		{"greek against ascii", "γ", "y", 0},
		{"greek kept", "γ ∈ [0, 1)", "γ ∈ [0, 1)", 1},
		// "γ", "∈" lost of 10 code points each side: LCS 8.
		{"greek lost", "γ ∈ [0, 1)", "g 2 [0, 1)", 16.0 / 20},
		// Python's open() reads "\r\n" as "\n": the benchmark never sees \r.
		{"crlf", "a\r\nb", "a\nb", 1},
		{"lone cr", "a\rb", "a\nb", 1},
		{"newline is a character", "a b", "a\nb", 4.0 / 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Ratio(tt.a, tt.b); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Ratio(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
			if got := Ratio(tt.b, tt.a); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Ratio is not symmetric: Ratio(%q, %q) = %v, want %v", tt.b, tt.a, got, tt.want)
			}
		})
	}
}

func TestRatioWS(t *testing.T) {
	tests := []struct {
		name, a, b string
		want       float64
	}{
		{"breaks and tabs are spaces", "a  b\n\nc\td", "a b c d", 1},
		{"ends trimmed", "\n a b \n", "a b", 1},
		{"missing space still counts", "a b", "ab", 4.0 / 5},
		{"form feed between pages", "end.\fNext", "end. Next", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RatioWS(tt.a, tt.b); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("RatioWS(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

func TestSymbolRecall(t *testing.T) {
	tests := []struct {
		name, truth, got string
		want             Symbols
	}{
		{"no symbols", "plain words", "plain", Symbols{0, 0, 1}},
		// The unmapped-font failure: → as "!", | as "j"; one γ of two kept.
		{"cmsy unmapped", "γ → |x| ≤ γ", "γ ! jxj ≤", Symbols{6, 2, 2.0 / 6}},
		{"all kept, extra ignored", "α ∑ β", "β α ∑ ∑ ∫ ×", Symbols{3, 3, 1}},
		{"ascii letters are not symbols", "v in S", "", Symbols{0, 0, 1}},
		{"letter-like and alphanumerics are not symbols", "ℝ ℓ 𝒮 𝔼", "", Symbols{0, 0, 1}},
		{"operators block", "x ≠ y ⊆ ∞ − ∂", "x ≠ y ⊆ ∞ - ∂", Symbols{5, 4, 4.0 / 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SymbolRecall(tt.truth, tt.got); got != tt.want {
				t.Errorf("SymbolRecall(%q, %q) = %+v, want %+v", tt.truth, tt.got, got, tt.want)
			}
		})
	}
}

func TestParagraphs(t *testing.T) {
	got := Paragraphs("Title\n\nfirst line\nsecond\tline\n \n\n\nlast\r\n")
	want := []string{"Title", "first line second line", "last"}
	if len(got) != len(want) {
		t.Fatalf("Paragraphs = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("paragraph %d = %q, want %q", i, got[i], want[i])
		}
	}
}

func TestParagraphOrder(t *testing.T) {
	const (
		a = "The agent observes a state and chooses an action."
		b = "Rewards are bounded by a constant for all steps."
		c = "Value iteration converges from any starting point."
	)
	tests := []struct {
		name, truth, got string
		want             Order
	}{
		{"same order", a + "\n\n" + b + "\n\n" + c, a + "\n" + b + "\n" + c,
			Order{Paragraphs: 3, Located: 3, Pairs: 3, InOrder: 3, Score: 1}},
		{"reversed", a + "\n\n" + b + "\n\n" + c, c + " " + b + " " + a,
			Order{Paragraphs: 3, Located: 3, Pairs: 3, InOrder: 0, Score: 0}},
		// c before a and b: pairs (a,b) in order, (a,c) and (b,c) not.
		{"one moved to the front", a + "\n\n" + b + "\n\n" + c, c + " " + a + " " + b,
			Order{Paragraphs: 3, Located: 3, Pairs: 3, InOrder: 1, Score: 1.0 / 3}},
		// Broken words and a lost symbol still locate the paragraph.
		{"close enough", a + "\n\n" + b, "The ag ent observes a st ate and chooses an act ion. Rewards are bounded by a constant for all steps.",
			Order{Paragraphs: 2, Located: 2, Pairs: 1, InOrder: 1, Score: 1}},
		{"missing paragraph", a + "\n\n" + b + "\n\n" + c, a + " " + c,
			Order{Paragraphs: 3, Located: 2, Pairs: 1, InOrder: 1, Score: 1}},
		// b at two places equally well: not scored, not counted as located.
		{"duplicated", a + "\n\n" + b + "\n\n" + c, b + " " + a + " " + b + " " + c,
			Order{Paragraphs: 3, Located: 2, Ambiguous: 1, Pairs: 1, InOrder: 1, Score: 1}},
		{"nothing located", a + "\n\n" + b, "Completely different words here, nothing alike at all in it.",
			Order{Paragraphs: 2, Score: 0}},
		{"single paragraph", a, a, Order{Paragraphs: 1, Located: 1, Score: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ParagraphOrder(tt.truth, tt.got); got != tt.want {
				t.Errorf("ParagraphOrder = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// slowLCS is the textbook O(n·m) table.
func slowLCS(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			switch {
			case a[i-1] == b[j-1]:
				cur[j] = prev[j-1] + 1
			case prev[j] >= cur[j-1]:
				cur[j] = prev[j]
			default:
				cur[j] = cur[j-1]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// slowWindows is Sellers' O(n·m) recurrence: D[0][j] = 0, D[i][0] = i.
func slowWindows(p, t []rune) (int, []int) {
	if len(p) == 0 {
		return 0, nil
	}
	col := make([]int, len(p)+1)
	for i := range col {
		col[i] = i
	}
	best := len(p)
	var ends []int
	for j := 1; j <= len(t); j++ {
		diag := col[0] // D[0][j-1]
		col[0] = 0
		for i := 1; i <= len(p); i++ {
			up := col[i] // D[i][j-1]
			d := diag
			if p[i-1] != t[j-1] {
				d++
			}
			d = min(d, up+1, col[i-1]+1)
			diag = up
			col[i] = d
		}
		switch {
		case col[len(p)] < best:
			best = col[len(p)]
			ends = append(ends[:0], j)
		case col[len(p)] == best:
			ends = append(ends, j)
		}
	}
	return best, ends
}

func randRunes(r *rand.Rand, n int, alphabet []rune) []rune {
	s := make([]rune, n)
	for i := range s {
		s[i] = alphabet[r.IntN(len(alphabet))]
	}
	return s
}

// The bit-parallel algorithms agree with the tables on random strings whose
// lengths cross word boundaries (63, 64, 65, 128, ...), over a small
// alphabet (many matches) and a larger one with non-ASCII runes.
func TestBitParallelAgainstTables(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 1))
	alphabets := [][]rune{[]rune("ab"), []rune("abcγ∑ →|")}
	lengths := []int{0, 1, 2, 63, 64, 65, 127, 128, 129, 200}
	for _, alpha := range alphabets {
		for trial := 0; trial < 60; trial++ {
			a := randRunes(r, lengths[r.IntN(len(lengths))]+r.IntN(3), alpha)
			b := randRunes(r, lengths[r.IntN(len(lengths))]+r.IntN(3), alpha)
			if got, want := LCS(a, b), slowLCS(a, b); got != want {
				t.Fatalf("LCS(%q, %q) = %d, table says %d", string(a), string(b), got, want)
			}
			gd, ge := bestWindows(a, b)
			wd, we := slowWindows(a, b)
			if gd != wd || len(ge) != len(we) {
				t.Fatalf("bestWindows(%q, %q) = %d %v, table says %d %v", string(a), string(b), gd, ge, wd, we)
			}
			for i := range we {
				if ge[i] != we[i] {
					t.Fatalf("bestWindows(%q, %q) ends %v, table says %v", string(a), string(b), ge, we)
				}
			}
		}
	}
}
