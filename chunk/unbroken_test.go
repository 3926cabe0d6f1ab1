package chunk

import (
	"maps"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/internal/testkit/scaling"
)

// Issue 12: chunking was quadratic on long unbroken text (a 20 MB line took
// 71 s, a 50 MB one-word page did not finish in 200 s). These inputs are the
// shapes that were slow. The claim is that time and memory are linear in
// the text whatever its shape (doc.go), so the tests check that: the CPU
// time at 4 times the size against 1 time (internal/testkit/scaling; about 4 now,
// 16 for the quadratic runs of blanks before the fix), and the bytes
// allocated per byte of text (about 35 at most now, 95-125 before, when a
// long piece was merged whole). Neither depends on how busy the machine
// is, unlike the 20 s bound these tests had, which loaded machines broke.

// unbrokenAlloc is the most bytes Split may allocate per byte of these
// texts: 20 MB of letters once needed 1.8 GB.
const unbrokenAlloc = 64

// randomLetters is n lower-case letters with no other byte: one
// pre-tokenisation piece, and no repeated block for the merge memo to find.
func randomLetters(n int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 12))
	b := make([]byte, n)
	for i := 0; i < n; {
		for x := r.Uint64(); x != 0 && i < n; x >>= 5 {
			b[i] = 'a' + byte(x%32%26)
			i++
		}
	}
	return string(b)
}

// checkHuge is checkPassages for inputs too large to re-count whole: the
// passages tile the text, each holds at most limit tokens as reported, and
// the reported count is re-checked on a sample.
func checkHuge(t *testing.T, text string, ps []Passage, limit int) {
	t.Helper()
	if len(ps) == 0 || ps[0].Start != 0 || ps[len(ps)-1].End != len(text) {
		t.Fatalf("%d passages do not cover the %d bytes", len(ps), len(text))
	}
	for i, p := range ps {
		if i > 0 && ps[i-1].End != p.Start || p.Start >= p.End || p.Ordinal != i {
			t.Fatalf("passage %d: [%d,%d) ordinal %d after one ending at %d", i, p.Start, p.End, p.Ordinal, ps[max(i-1, 0)].End)
		}
		if p.Tokens > limit || p.Tokens <= 0 {
			t.Fatalf("passage %d has %d tokens, limit %d", i, p.Tokens, limit)
		}
		if i%97 == 0 || i == len(ps)-1 {
			if n := tokens.Count(p.Text); n != p.Tokens {
				t.Fatalf("passage %d: Tokens %d, recount %d", i, p.Tokens, n)
			}
		}
	}
}

func TestSplitUnbrokenText(t *testing.T) {
	// 256 KiB against 1 MiB: far past MaxPiece and a passage's worth of
	// tokens, so every path of the long-text code runs, and large enough
	// for a quadratic cost to show (a 256 KiB run of blanks took 15 s).
	n := 1 << 18
	if raceEnabled {
		// The race detector slows this code tenfold; the shapes still
		// matter, the sizes do not.
		n = 1 << 15
	}
	cases := []struct {
		name string
		text func(n int) string
	}{
		{"letters, no space", func(n int) string { return randomLetters(n, 1) }},
		{"one word and spaces, no sentence end", func(n int) string { return strings.Repeat("word ", n/5) }},
		{"one-word page", func(n int) string { return strings.Repeat("Hostile", n/7) }},
		{"spaces", func(n int) string { return "Start. " + strings.Repeat(" ", n) + " End." }},
	}
	Split("Load the models. Then measure.", Options{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			small, large := c.text(n), c.text(4*n)
			var ps []Passage
			scaling.Linear(t, "Split", 4, func() { Split(small, Options{}) }, func() { ps = Split(large, Options{}) })
			checkHuge(t, large, ps, DefaultMaxTokens)
			if a := scaling.Allocated(func() { Split(large, Options{}) }); a > unbrokenAlloc*uint64(len(large)) {
				t.Errorf("%d bytes allocated for %d bytes of text: over %d a byte", a, len(large), unbrokenAlloc)
			}
		})
	}
}

func TestSentencesUnbroken(t *testing.T) {
	n := 1 << 18
	if raceEnabled {
		n = 1 << 14
	}
	cases := map[string]struct {
		text  func(n int) string
		spans int
	}{
		// The wrapped-line rule reaches across blank lines, and each blank
		// line used to rescan all the blanks after it.
		"blank lines":             {func(n int) string { return "a wrapped\n" + strings.Repeat("\n", n) + "line." }, 1},
		"blank lines with spaces": {func(n int) string { return "a wrapped\n" + strings.Repeat(" \n", n) + "line." }, 1},
		// Punkt re-trimmed a run of blanks at each of its characters.
		"spaces inside a line":           {func(n int) string { return "One. " + strings.Repeat(" ", 8*n) + "Two." }, 2},
		"spaces and a sentence per line": {func(n int) string { return strings.Repeat("It is. "+strings.Repeat(" ", 1000)+"so\n", n/1000) }, 0},
	}
	for name, c := range cases {
		small, large := c.text(n), c.text(4*n)
		var spans []Span
		scaling.Linear(t, name, 4, func() { Sentences(small) }, func() { spans = Sentences(large) })
		if c.spans != 0 && len(spans) != c.spans {
			t.Errorf("%s: %d sentences, want %d", name, len(spans), c.spans)
		}
	}
}

// TestSqueezedSpaceSamePunkt checks that shortening long blank runs before
// punkt changes none of its sentence ends, on random text made of words,
// sentence ends, abbreviations and blank runs of every kind.
func TestSqueezedSpaceSamePunkt(t *testing.T) {
	tok := sentenceTokenizer()
	words := []string{"The", "model", "e.g.", "Fig.", "3.", "A.", "end.", "why?", "no!", "et", "al.", "It", "(see", "x).", "。", "“Yes.”", "J.", "Smith"}
	blanks := []string{" ", "\n", "\t", "\u00a0", "\u3000", "\r\n"}
	r := rand.New(rand.NewPCG(7, 7))
	for trial := range 300 {
		var b strings.Builder
		for range 1 + r.IntN(30) {
			b.WriteString(words[r.IntN(len(words))])
			k := 1 + r.IntN(3)
			if r.IntN(3) == 0 {
				k = longSpace - 2 + r.IntN(300)
			}
			for range k {
				b.WriteString(blanks[r.IntN(len(blanks))])
			}
		}
		seg := b.String()
		if trial%2 == 0 {
			seg = strings.TrimRight(seg, " \n\t\r\u00a0\u3000")
		}
		want := map[int]bool{}
		for _, s := range tok.Tokenize(seg) {
			if s.End < len(seg) {
				want[s.End] = true
			}
		}
		if got := punktBreaks(tok, seg); !maps.Equal(got, want) {
			t.Fatalf("%q: punkt ends %v after squeezing, %v before", seg, got, want)
		}
	}
}

// TestHardBreaksSkipBlankRuns compares nextHardBreak with the line-by-line
// loop it replaced on random lines.
func TestHardBreaksSkipBlankRuns(t *testing.T) {
	stepping := func(text string, from int, forced map[int]bool) int {
		for i := from; i < len(text); {
			nl := strings.IndexByte(text[i:], '\n')
			if nl < 0 {
				return len(text)
			}
			i += nl + 1
			next := skipSpace(text, i)
			if next >= len(text) || forced[next] || forced[from] || !continues(text[from:i], text[next:]) {
				return i
			}
		}
		return len(text)
	}
	lines := []string{"", " ", "  \t", "a wrapped", "lower case", "Upper", "ends.", "comma,", "(paren", "3", "- dash", "| a | b |"}
	r := rand.New(rand.NewPCG(3, 3))
	for range 2000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(lines[r.IntN(len(lines))])
			b.WriteByte('\n')
		}
		text := b.String()
		if r.IntN(2) == 0 {
			text = strings.TrimSuffix(text, "\n")
		}
		forced := map[int]bool{}
		for i := range text {
			if r.IntN(40) == 0 {
				forced[i] = true
			}
		}
		for from := skipSpace(text, 0); from < len(text); from = skipSpace(text, stepping(text, from, forced)) {
			if got, want := nextHardBreak(text, from, forced), stepping(text, from, forced); got != want {
				t.Fatalf("%q from %d: break at %d, want %d", text, from, got, want)
			}
		}
	}
}

// BenchmarkSplitUnbroken reports, as ratio-20MB/1MB, the time per megabyte of
// splitting 20 MB of unbroken text over that of 1 MB, both measured in the
// same run: about 1 for a linear path (it was over 20 before issue 12).
//
//	go test ./chunk -run '^$' -bench SplitUnbroken -benchtime 3x
func BenchmarkSplitUnbroken(b *testing.B) {
	shapes := map[string]func(n int) string{
		"letters": func(n int) string { return randomLetters(n, 2) },
		"words":   func(n int) string { return strings.Repeat("word ", n/5) },
	}
	for name, shape := range shapes {
		b.Run(name, func(b *testing.B) {
			small, large := shape(1<<20), shape(20<<20)
			Split(small, Options{}) // load punkt and the BPE ranks
			var tSmall, tLarge time.Duration
			for b.Loop() {
				start := time.Now()
				for range 4 {
					Split(small, Options{})
				}
				tSmall += time.Since(start) / 4
				start = time.Now()
				Split(large, Options{})
				tLarge += time.Since(start)
			}
			b.ReportMetric(float64(tLarge)/20/float64(tSmall), "ratio-20MB/1MB")
			b.ReportMetric(tLarge.Seconds()/float64(b.N)/20, "s/MB-at-20MB")
		})
	}
}
