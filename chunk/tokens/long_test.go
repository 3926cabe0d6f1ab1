package tokens

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/paperlens/paperlens/internal/testkit/scaling"
)

func letters(r *rand.Rand, n int, alphabet string) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

// TestLongPiecesExact checks the merge of pieces between smallPiece and
// MaxPiece bytes, where the tournament tree, the two-byte table, the filter
// and the memo all take part, against tiktoken-go.
func TestLongPiecesExact(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	var texts []string
	for _, n := range []int{smallPiece + 1, 100, 255, memoMin, 700, MaxPiece} {
		texts = append(texts,
			letters(r, n, "abcdefghijklmnopqrstuvwxyz"),
			letters(r, n, "ab"),
			strings.Repeat("a", n),
			strings.Repeat(" ", n-1)+"x",
			strings.Repeat("=", n),
			strings.Repeat("é", n/2),
			"x"+strings.Repeat("\n", n-1),
		)
	}
	for _, s := range texts {
		// Twice: the second time a long piece comes from the memo.
		for range 2 {
			checkSame(t, s[:min(len(s), 12)], s)
		}
	}
}

// TestPiecesOverMaxPiece pins down what a piece longer than MaxPiece
// becomes: the concatenation of its blocks, each encoded on its own.
func TestPiecesOverMaxPiece(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	for _, s := range []string{
		letters(r, 5*MaxPiece+17, "abcdefghijklmnopqrstuvwxyz"),
		strings.Repeat("a", 3*MaxPiece),
		strings.Repeat(" ", 3*MaxPiece) + "x",
		strings.Repeat("é", 2*MaxPiece+1), // blocks end before a whole character
	} {
		var want []int
		for a := 0; a < len(s); {
			b := a + MaxPiece
			if rest := pieceEnd(s, a); rest-a <= MaxPiece {
				b = rest
			}
			for b < len(s) && !utf8.RuneStart(s[b]) {
				b--
			}
			want = append(want, Encode(s[a:b])...)
			a = b
		}
		if got := Encode(s); !slices.Equal(got, want) {
			t.Errorf("%.12q...: %d tokens, the blocks give %d", s, len(got), len(want))
		}
		if Count(s) != len(want) || len(Ends(s)) != len(want) || Decode(Encode(s)) != s {
			t.Errorf("%.12q...: Count %d, Ends %d, blocks %d", s, Count(s), len(Ends(s)), len(want))
		}
		// Against tiktoken the difference is a token or so per block.
		ref := len(reference(t).EncodeOrdinary(s))
		if d := len(want) - ref; d < -len(s)/MaxPiece-1 || d > 2*(len(s)/MaxPiece+1) {
			t.Errorf("%.12q...: %d tokens, tiktoken %d", s, len(want), ref)
		}
	}
}

func TestStreamIsEnds(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	texts := []string{"", "x", letters(r, 3*MaxPiece, "abc d.\n"), "word " + letters(r, 4*MaxPiece+3, "xyz") + " tail."}
	for _, s := range seeds(t) {
		texts = append(texts, s)
	}
	for _, s := range texts {
		st := NewStream(s)
		var got []int
		for ok := true; ok; {
			n := len(got)
			got, ok = st.Next(got)
			if len(got)-n > MaxPiece {
				t.Errorf("one Next gave %d ends", len(got)-n)
			}
		}
		if want := Ends(s); !slices.Equal(got, want) {
			t.Errorf("%.20q: stream gave %d ends, Ends %d", s, len(got), len(want))
		}
	}
}

// TestCountUnbrokenLinear counts letters without a space, one
// pre-tokenisation piece: before pieces were bounded, 20 MB took about 28 s
// and several GB. Cost and memory must be linear (internal/testkit/scaling): the
// CPU time at 4 times the size against 1 time, and the bytes allocated per
// byte of text (about 12 now, 56 before), neither of which depends on how
// busy the machine is, unlike the 20 s bound this test had.
func TestCountUnbrokenLinear(t *testing.T) {
	n := 1 << 18
	r := rand.New(rand.NewPCG(9, 9))
	small, large := letters(r, n, "abcdefghijklmnopqrstuvwxyz"), letters(r, 4*n, "abcdefghijklmnopqrstuvwxyz")
	Count("load the ranks")
	var c int
	scaling.Linear(t, "Count", 4, func() { Count(small) }, func() { c = Count(large) })
	if c < len(large)/3 || c > len(large) {
		t.Errorf("Count of %d letters = %d", len(large), c)
	}
	if a := scaling.Allocated(func() { Count(large) }); a > 32*uint64(len(large)) {
		t.Errorf("Count of %d letters allocated %d bytes: over 32 a byte", len(large), a)
	}
}
