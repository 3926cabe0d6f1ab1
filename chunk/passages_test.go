package chunk

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// seedTexts reads the shared seed papers, keyed by file name.
func seedTexts(tb testing.TB) map[string]string {
	tb.Helper()
	out := map[string]string{}
	for _, f := range testcorpus.Glob(tb, "seeds", "*.txt") {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		out[filepath.Base(f)] = string(b)
	}
	return out
}

// checkPassages verifies the invariants every Split result must satisfy.
func checkPassages(t *testing.T, text string, ps []Passage, limit int) {
	t.Helper()
	if text == "" {
		if len(ps) != 0 {
			t.Fatalf("empty text gave %d passages", len(ps))
		}
		return
	}
	if len(ps) == 0 {
		t.Fatal("no passages for non-empty text")
	}
	var joined strings.Builder
	for i, p := range ps {
		if p.Ordinal != i {
			t.Errorf("passage %d has Ordinal %d", i, p.Ordinal)
		}
		if p.Start >= p.End || p.Text != text[p.Start:p.End] {
			t.Fatalf("passage %d: bad span [%d,%d) or Text", i, p.Start, p.End)
		}
		if i == 0 && p.Start != 0 {
			t.Errorf("first passage starts at %d", p.Start)
		}
		if i > 0 && ps[i-1].End != p.Start {
			t.Errorf("passage %d starts at %d, previous ends at %d", i, p.Start, ps[i-1].End)
		}
		if n := tokens.Count(p.Text); n != p.Tokens {
			t.Errorf("passage %d: Tokens = %d, recount %d", i, p.Tokens, n)
		}
		if p.Tokens > limit {
			t.Errorf("passage %d has %d tokens > %d", i, p.Tokens, limit)
		}
		joined.WriteString(p.Text)
	}
	if ps[len(ps)-1].End != len(text) {
		t.Errorf("last passage ends at %d, text has %d bytes", ps[len(ps)-1].End, len(text))
	}
	if joined.String() != text {
		t.Error("joined passages differ from the input")
	}
}

// checkSentenceBounded verifies that passages break only between sentences,
// except inside sentences longer than the limit.
func checkSentenceBounded(t *testing.T, text string, ps []Passage, limit int) {
	t.Helper()
	spans := Sentences(text)
	starts := map[int]bool{}
	var long []Span
	for _, s := range spans {
		starts[s.Start] = true
		if tokens.Count(text[s.Start:s.End]) > limit {
			long = append(long, s)
		}
	}
	for _, p := range ps[1:] {
		if starts[p.Start] {
			continue
		}
		inLong := slices.ContainsFunc(long, func(s Span) bool { return s.Start < p.Start && p.Start < s.End })
		if !inLong {
			t.Errorf("passage %d starts inside a sentence that fits the limit: %q", p.Ordinal, p.Text[:min(60, len(p.Text))])
		}
	}
}

func TestSplitSeeds(t *testing.T) {
	for name, text := range seedTexts(t) {
		for _, limit := range []int{512, 128, 64} {
			t.Run(fmt.Sprintf("%s/%d", name, limit), func(t *testing.T) {
				ps := Split(text, Options{MaxTokens: limit})
				checkPassages(t, text, ps, limit)
				checkSentenceBounded(t, text, ps, limit)
				total := tokens.Count(text)
				if min := total / limit; len(ps) < min {
					t.Errorf("%d passages for %d tokens at limit %d", len(ps), total, limit)
				}
				if limit != 512 || total < 20000 {
					return
				}
				// ElaipBench-sized passages: a long paper gives dozens of
				// them and most are well filled.
				full := 0
				for _, p := range ps {
					if p.Tokens > 300 {
						full++
					}
				}
				if len(ps) < 40 || full*2 <= len(ps) {
					t.Errorf("%d tokens -> %d passages, %d over 300 tokens", total, len(ps), full)
				}
			})
		}
	}
}

func TestSplitDefaultIs512(t *testing.T) {
	var text string
	for _, s := range seedTexts(t) {
		text = s
		break
	}
	a, b := Split(text, Options{}), Split(text, Options{MaxTokens: DefaultMaxTokens})
	if len(a) != len(b) {
		t.Fatalf("Options{} gave %d passages, MaxTokens 512 gave %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("passage %d differs", i)
		}
	}
}

func TestSplitElaipBenchSections(t *testing.T) {
	var text string
	for name, s := range seedTexts(t) {
		if strings.HasPrefix(name, "004_") {
			text = s
		}
	}
	if text == "" {
		t.Fatal("ElaipBench seed (004_*) missing")
	}
	ps := Split(text, Options{})
	sections := map[string]bool{}
	for _, p := range ps {
		sections[p.Section] = true
	}
	for _, want := range []string{"1 Introduction", "4.6 RAG Performance", "References"} {
		if !sections[want] {
			t.Errorf("no passage in section %q; sections: %q", want, keys(sections))
		}
	}
	if ps[0].Section != "" {
		t.Errorf("first passage (title and abstract before any heading) has section %q", ps[0].Section)
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// words returns n space-separated pseudo-words without sentence punctuation.
func words(n int, seed uint64) string {
	vocab := strings.Fields("model data token passage retrieval answer question paper benchmark expert " +
		"reasoning context window attention layer gradient loss training evaluation metric")
	rng := rand.New(rand.NewPCG(seed, seed))
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(vocab[rng.IntN(len(vocab))])
	}
	return b.String()
}

func TestSplitGiantSentence(t *testing.T) {
	giant := words(3000, 1) // one "sentence", about 3000 tokens, no period
	text := "A short sentence first. " + giant + ". A short sentence after."
	if n := tokens.Count(giant); n < 2900 {
		t.Fatalf("giant sentence has only %d tokens", n)
	}
	for _, limit := range []int{512, 128, 64} {
		ps := Split(text, Options{MaxTokens: limit})
		checkPassages(t, text, ps, limit)
		if len(ps) < tokens.Count(text)/limit {
			t.Errorf("limit %d: only %d passages", limit, len(ps))
		}
		// Pieces are cut after whitespace when there is any.
		for _, p := range ps[:len(ps)-1] {
			if r, _ := utf8.DecodeLastRuneInString(p.Text); r != ' ' {
				t.Errorf("limit %d: passage %d ends mid-word: %q", limit, p.Ordinal, p.Text[max(0, len(p.Text)-20):])
			}
		}
	}
	// The giant sentence fills the passage it starts in, and its last piece
	// shares a passage with the sentence after it.
	ps := Split(text, Options{})
	if !strings.HasPrefix(ps[0].Text, "A short sentence first. ") || ps[0].Tokens < 500 {
		t.Errorf("first passage has %d tokens: %q", ps[0].Tokens, ps[0].Text[:min(80, len(ps[0].Text))])
	}
	if last := ps[len(ps)-1]; !strings.HasSuffix(last.Text, ". A short sentence after.") {
		t.Errorf("last passage = %q", last.Text)
	}
}

func TestSplitHeadingBeforeGiantSentence(t *testing.T) {
	text := "Intro sentence.\n\n2 Method\n\n" + words(1500, 2) + "."
	ps := Split(text, Options{MaxTokens: 128, SectionFill: 2})
	checkPassages(t, text, ps, 128)
	for _, p := range ps {
		if strings.TrimSpace(p.Text) == "2 Method" {
			t.Errorf("heading left alone in passage %d", p.Ordinal)
		}
	}
}

func TestSplitNoWhitespace(t *testing.T) {
	tests := map[string]string{
		"letters": strings.Repeat("abcdefghij", 2000),
		"cjk":     strings.Repeat("这是一个没有标点的很长的句子", 500),
		"emoji":   strings.Repeat("👍🏽🇫🇷", 400),
		"digits":  strings.Repeat("0123456789", 1000),
	}
	for name, text := range tests {
		for _, limit := range []int{512, 64, 8} {
			ps := Split(text, Options{MaxTokens: limit})
			checkPassages(t, text, ps, limit)
			for _, p := range ps {
				if !utf8.ValidString(p.Text) {
					t.Errorf("%s/%d: passage %d cuts a character", name, limit, p.Ordinal)
					break
				}
			}
		}
	}
}

func TestSplitEdgeCases(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		opt   Options
		count int
	}{
		{"empty", "", Options{}, 0},
		{"whitespace", " \n\n \t", Options{}, 1},
		{"one sentence", "Just one sentence.", Options{}, 1},
		{"tiny limit raised to 8", "One two three four five six seven eight nine ten eleven twelve.", Options{MaxTokens: 1}, 2},
		{"invalid UTF-8", "Bad \xff\xfe bytes. " + strings.Repeat("\xc3", 50), Options{MaxTokens: 8}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := Split(tt.text, tt.opt)
			limit := max(tt.opt.withDefaults().MaxTokens, minMaxTokens)
			checkPassages(t, tt.text, ps, limit)
			if tt.count >= 0 && len(ps) != tt.count {
				t.Errorf("%d passages, want %d", len(ps), tt.count)
			}
		})
	}
}

func TestSplitSections(t *testing.T) {
	para := func(seed uint64, n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(strings.ToUpper(words(1, seed+uint64(i))[:1]) + words(12, seed+uint64(i))[1:] + ". ")
		}
		return strings.TrimSpace(b.String()) + "\n\n"
	}
	// Intro: ~150 tokens; Method: ~300 tokens; short Results.
	text := "1 Introduction\n\n" + para(1, 11) + "2 Method\n\n" + para(100, 22) + "3 Results\n\n" + para(200, 3)
	t.Run("section fill", func(t *testing.T) {
		ps := Split(text, Options{MaxTokens: 200})
		checkPassages(t, text, ps, 200)
		// A passage runs into a new section only while it is less than half
		// full (SectionFill 0.5 of 200 tokens).
		for _, p := range ps {
			for _, h := range Headings(p.Text) {
				if before := tokens.Count(p.Text[:h.Start]); h.Start > 0 && before >= 100 {
					t.Errorf("passage %d holds %d tokens before heading %q", p.Ordinal, before, h.Title)
				}
			}
		}
		var sections []string
		for _, p := range ps {
			sections = append(sections, p.Section)
		}
		if sections[0] != "1 Introduction" || !slices.Contains(sections, "2 Method") {
			t.Errorf("sections = %q", sections)
		}
		if len(ps) < 3 {
			t.Errorf("%d passages for ~480 tokens at limit 200", len(ps))
		}
	})
	t.Run("pure packing", func(t *testing.T) {
		ps := Split(text, Options{MaxTokens: 200, SectionFill: 2})
		checkPassages(t, text, ps, 200)
		dense := Split(text, Options{MaxTokens: 200})
		if len(ps) > len(dense) {
			t.Errorf("pure packing gave %d passages, section-aware %d", len(ps), len(dense))
		}
	})
	t.Run("no dangling heading", func(t *testing.T) {
		// Many short sections of random length, so that some heading falls
		// exactly where a passage fills up.
		var b strings.Builder
		for i := range 40 {
			fmt.Fprintf(&b, "%d Section Number %d\n\n", i+1, i+1)
			b.WriteString(para(uint64(1000+i), 1+i%5))
		}
		long := b.String()
		for _, limit := range []int{40, 64, 100, 128, 200} {
			ps := Split(long, Options{MaxTokens: limit, SectionFill: 2})
			checkPassages(t, long, ps, limit)
			for _, p := range ps {
				lines := strings.Split(strings.TrimSpace(p.Text), "\n")
				if last := lines[len(lines)-1]; len(lines) > 1 && len(Headings(last)) == 1 {
					t.Errorf("limit %d: passage %d ends with heading %q", limit, p.Ordinal, last)
				}
			}
		}
	})
	t.Run("negative fill closes at every heading", func(t *testing.T) {
		ps := Split(text, Options{MaxTokens: 512, SectionFill: -1})
		checkPassages(t, text, ps, 512)
		if len(ps) != 3 {
			t.Errorf("%d passages for 3 short sections", len(ps))
		}
		for _, p := range ps {
			if hs := Headings(p.Text); len(hs) != 1 || hs[0].Start != 0 {
				t.Errorf("passage %d has headings %+v", p.Ordinal, hs)
			}
		}
	})
	t.Run("section of a passage starting with blank lines", func(t *testing.T) {
		ps := Split("\n\n# Title\n\nBody text.", Options{})
		if len(ps) != 1 || ps[0].Section != "Title" {
			t.Errorf("got %+v", ps)
		}
	})
}

func TestSplitConcurrent(t *testing.T) {
	texts := seedTexts(t)
	want := map[string][]Passage{}
	for name, text := range texts {
		want[name] = Split(text, Options{})
	}
	var wg sync.WaitGroup
	for name, text := range texts {
		wg.Go(func() {
			if got := Split(text, Options{}); !slices.Equal(got, want[name]) {
				t.Errorf("%s: concurrent Split differs", name)
			}
		})
	}
	wg.Wait()
}

func FuzzSplit(f *testing.F) {
	for _, s := range []string{"A. B. C.", "1 Intro\nText. More text here.", "\n\n## x\n" + words(80, 3), "这是。", "\xff x"} {
		f.Add(s, 16)
	}
	f.Fuzz(func(t *testing.T, text string, limit int) {
		limit = 8 + abs(limit)%120
		checkPassages(t, text, Split(text, Options{MaxTokens: limit}), limit)
	})
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// BenchmarkSplit reports the speed of Split on a paper's text (MB/s). A
// test used to bound it (100 kB in under a second), which a busy machine
// could break without any change to the code; linearity is tested in
// unbroken_test.go.
func BenchmarkSplit(b *testing.B) {
	texts := seedTexts(b)
	text := texts["002_30a2cd83ba58627d.txt"]
	if text == "" {
		b.Fatal("seed 002 missing")
	}
	Split(text, Options{})
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		Split(text, Options{})
	}
}

func BenchmarkSentences(b *testing.B) {
	text := seedTexts(b)["002_30a2cd83ba58627d.txt"]
	Sentences(text)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		Sentences(text)
	}
}
