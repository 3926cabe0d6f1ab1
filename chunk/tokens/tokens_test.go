package tokens

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

var (
	refOnce sync.Once
	refEnc  *tiktoken.Tiktoken
	refErr  error
)

// reference is tiktoken-go itself, the implementation this package must agree
// with token for token.
func reference(tb testing.TB) *tiktoken.Tiktoken {
	tb.Helper()
	refOnce.Do(func() {
		tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
		refEnc, refErr = tiktoken.GetEncoding(Encoding)
	})
	if refErr != nil {
		tb.Fatalf("tiktoken-go: %v", refErr)
	}
	return refEnc
}

func seeds(tb testing.TB) map[string]string {
	tb.Helper()
	out := map[string]string{}
	for _, f := range testcorpus.Glob(tb, "seeds", "*.txt") {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		out[f] = string(b)
	}
	return out
}

func checkSame(t *testing.T, name, text string) {
	t.Helper()
	want := reference(t).EncodeOrdinary(text)
	got := Encode(text)
	if !slices.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Errorf("%s: Encode differs from tiktoken-go at token %d (got %d tokens, want %d); context %q",
			name, i, len(got), len(want), Decode(want[max(0, i-5):min(len(want), i+5)]))
		return
	}
	if n := Count(text); n != len(want) {
		t.Errorf("%s: Count = %d, want %d", name, n, len(want))
	}
}

func TestKnownIDs(t *testing.T) {
	tests := []struct {
		text string
		want []int
	}{
		{"hello world", []int{15339, 1917}},
		{"", []int{}},
		{" ", []int{220}},
	}
	for _, tt := range tests {
		if got := Encode(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("Encode(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestMatchesTiktokenGo(t *testing.T) {
	tests := []string{
		"I'm sure they'll say it's John's, we've seen THEY'RE and I'D and 'LL and 'Ve.",
		"don't 'sdf 'xyz '' ''s",
		"a  b   c    \n\n  d\t\te \r\n f   ",
		"   leading and trailing   ",
		"\n\n\n",
		" \n \n x",
		"12345 1234567 3.14159 1,000,000 ٣٤٥٦ ²³",
		"naïve café résumé — “quoted” ‘single’ … →",
		"中文测试，分词。日本語のテキスト。한국어 텍스트",
		"emoji 👍🏽 family 👨‍👩‍👧 flags 🇫🇷",
		"nbsp\u00a0here\u2003em\u3000ideographic\u0085nel",
		"<|endoftext|> is text here <|fim_prefix|>",
		"$$\\frac{a}{b}$$ and $x_i^2$ {code: [1, 2]} ((nested))",
		"URL https://example.com/a/b?c=d&e=f#g and e-mail a.b@c.de",
		"\tTabbed\tcolumns\t42\t3.5%\n",
		"ALLCAPS and MiXeD CaSe and snake_case and kebab-case",
		"!!!???...---___===+++",
		" !!! ??? ...\n\n",
		strings.Repeat("a", 300) + " " + strings.Repeat("ab", 200),
		strings.Repeat("=", 1000),
		strings.Repeat("🙂", 100),
		"Ω≈ç√∫˜µ≤≥÷ åß∂ƒ©˙∆˚¬…æ",
		"case folding 'ſ '\u212a 'İ 'Ｓ 'ǅ",
	}
	for i, s := range tests {
		checkSame(t, "case "+string(rune('A'+i)), s)
	}
}

func TestMatchesTiktokenGoOnSeeds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for name, text := range seeds(t) {
		checkSame(t, name, text)
		// Random windows start and end in places the whole-file test never
		// exercises (mid-word, mid-whitespace run).
		for range 50 {
			a := rng.IntN(len(text))
			b := min(len(text), a+rng.IntN(2000))
			for a > 0 && !utf8.RuneStart(text[a]) {
				a--
			}
			for b < len(text) && !utf8.RuneStart(text[b]) {
				b++
			}
			checkSame(t, name+" window", text[a:b])
		}
	}
}

func TestRoundTripAndEnds(t *testing.T) {
	tests := []string{
		"plain text",
		"\xff\xfe invalid \xc3 utf8 \xe2\x82",
		"multi-byte é 中 👍 split across tokens",
		"",
	}
	for _, s := range tests {
		ids := Encode(s)
		if got := Decode(ids); got != s {
			t.Errorf("Decode(Encode(%q)) = %q", s, got)
		}
		ends := Ends(s)
		if len(ends) != len(ids) || len(ids) != Count(s) {
			t.Errorf("%q: %d ends, %d ids, Count %d", s, len(ends), len(ids), Count(s))
		}
		prev := 0
		for k, e := range ends {
			if e <= prev && !(k == 0 && e > 0) {
				t.Errorf("%q: ends not increasing: %v", s, ends)
				break
			}
			if got := Decode(ids[k : k+1]); got != s[prev:e] {
				t.Errorf("%q: token %d decodes to %q, ends give %q", s, k, got, s[prev:e])
			}
			prev = e
		}
		if len(s) > 0 && prev != len(s) {
			t.Errorf("%q: last end %d, want %d", s, prev, len(s))
		}
	}
}

func TestHead(t *testing.T) {
	text := "The quick brown fox jumps over the lazy dog. Ünïcödé 中文 👍🏽 text follows here."
	total := Count(text)
	for n := 0; n <= total+2; n++ {
		h := Head(text, n)
		if !strings.HasPrefix(text, h) {
			t.Fatalf("Head(%d) = %q is not a prefix", n, h)
		}
		if !utf8.ValidString(h) {
			t.Errorf("Head(%d) = %q is not valid UTF-8", n, h)
		}
		if c := Count(h); c > n {
			t.Errorf("Head(%d) has %d tokens", n, c)
		}
		if n >= total && h != text {
			t.Errorf("Head(%d) = %q, want whole text (%d tokens)", n, h, total)
		}
	}
	if got := Head(text, 4); got != "The quick brown fox" {
		t.Errorf("Head(4) = %q", got)
	}
	if got := Head(text, -1); got != "" {
		t.Errorf("Head(-1) = %q", got)
	}
}

func TestConcurrent(t *testing.T) {
	text := strings.Repeat("Concurrent counting must agree. ", 200)
	want := Count(text)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				if got := Count(text); got != want {
					t.Errorf("Count = %d, want %d", got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestOfflineWithoutHome re-runs this test binary with HOME unset, caches
// pointed nowhere and every proxy pointing at a closed port: loading must
// still succeed because the ranks are embedded.
func TestOfflineWithoutHome(t *testing.T) {
	if os.Getenv("TOKENS_OFFLINE_CHILD") == "1" {
		if err := Load(); err != nil {
			t.Fatal(err)
		}
		if got := Count("offline counting works"); got != 3 {
			t.Fatalf("Count = %d, want 3", got)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestOfflineWithoutHome$", "-test.count=1")
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch strings.ToUpper(k) {
		case "HOME", "XDG_CACHE_HOME", "TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY":
			continue
		}
		env = append(env, kv)
	}
	cmd.Env = append(env,
		"TOKENS_OFFLINE_CHILD=1",
		"TIKTOKEN_CACHE_DIR=/nonexistent/tiktoken",
		"HTTP_PROXY=http://127.0.0.1:9", "HTTPS_PROXY=http://127.0.0.1:9",
		"http_proxy=http://127.0.0.1:9", "https_proxy=http://127.0.0.1:9",
	)
	// The child's verdict is its exit status: Load and Count work. How
	// long it took is no part of the claim (a busy machine decides that).
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("offline child failed: %v\n%s", err, out)
	}
}

func FuzzMatchesTiktokenGo(f *testing.F) {
	for _, s := range []string{"hello world", "I'm 'LL", "a  \n\n b", "12345", "中文👍", "\u00a0x", "  !!\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if Decode(Encode(s)) != s {
			t.Fatalf("round trip failed for %q", s)
		}
		// tiktoken-go replaces invalid UTF-8 with U+FFFD before encoding, so
		// only valid text is comparable.
		if !utf8.ValidString(s) {
			return
		}
		want := reference(t).EncodeOrdinary(s)
		if got := Encode(s); !slices.Equal(got, want) {
			t.Fatalf("Encode(%q) = %v, tiktoken-go %v", s, got, want)
		}
	})
}

func BenchmarkCount(b *testing.B) {
	for name, text := range seeds(b) {
		if !strings.Contains(name, "004_") {
			continue
		}
		n := Count(text)
		b.SetBytes(int64(len(text)))
		b.ResetTimer()
		for b.Loop() {
			Count(text)
		}
		b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
	}
}

// BenchmarkCountTiktokenGo measures the encoder this package replaces.
func BenchmarkCountTiktokenGo(b *testing.B) {
	enc := reference(b)
	for name, text := range seeds(b) {
		if !strings.Contains(name, "004_") {
			continue
		}
		n := len(enc.EncodeOrdinary(text))
		b.SetBytes(int64(len(text)))
		b.ResetTimer()
		for b.Loop() {
			enc.EncodeOrdinary(text)
		}
		b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
	}
}
