package stats

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

func TestRougeL(t *testing.T) {
	tests := []struct {
		name, cand, ref string
		want            float64
	}{
		{"identical", "Retrieval barely helps expert reading.", "retrieval barely helps EXPERT reading", 1},
		{"disjoint", "alpha beta", "gamma delta", 0},
		// LCS "the cat on the mat" = 5 of 6 tokens on both sides.
		{"one substitution", "the cat sat on the mat", "the cat is on the mat", 5.0 / 6},
		// Lin (2004): LCS "police the gunman" = 3; P = R = 3/4.
		{"lin example", "police killed the gunman", "police kill the gunman", 0.75},
		// LCS 2 ("a c"): P = 2/3, R = 2/4, F = 2·(2/3)(1/2)/(2/3+1/2) = 4/7.
		{"unequal lengths", "a b c", "a x c y", 4.0 / 7},
		{"order matters", "b a", "a b", 0.5},
		// 我 爱 北 京 vs 我 爱 上 海: LCS 2 of 4 each.
		{"chinese", "我爱北京", "我爱上海", 0.5},
		{"chinese identical with punctuation", "答案是：电阻增大。", "答案是电阻增大", 1},
		// 温度 升高 vs 温度 降低: tokens 温 度 升 高 / 温 度 降 低, LCS 2.
		{"chinese mixed", "GPT-5 温度升高", "gpt 5 温度降低", 4.0 / 6},
		{"full-width digits", "ＧＰＴ５", "gpt5", 1},
		{"empty candidate", "", "something", 0},
		{"empty both", "", "", 0},
		{"punctuation only", "...", "!!!", 0},
	}
	for _, tt := range tests {
		if got := RougeL(tt.cand, tt.ref); !near(got, tt.want, 1e-12) {
			t.Errorf("%s: RougeL(%q, %q) = %v, want %v", tt.name, tt.cand, tt.ref, got, tt.want)
		}
	}
}

func TestRougeLSymmetric(t *testing.T) {
	// With β = 1, F is symmetric in candidate and reference.
	a, b := "the model fails to integrate retrieved content", "models fail to integrate the retrieved web content"
	if RougeL(a, b) != RougeL(b, a) {
		t.Fatalf("not symmetric: %v vs %v", RougeL(a, b), RougeL(b, a))
	}
}

func TestTokens(t *testing.T) {
	got := Tokens("LPFQA（长尾）has 430 Q&A items, naïve café")
	want := []string{"lpfqa", "长", "尾", "has", "430", "q", "a", "items", "naïve", "café"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Tokens = %q, want %q", got, want)
	}
}

// refTokens and refLCS are RougeL's tokens and LCS as first written: the
// definition the streaming, bit-parallel version must agree with.
func refTokens(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for _, r := range strings.ToLower(norm.NFKC.String(s)) {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
			flush()
			out = append(out, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || (unicode.Is(unicode.Mn, r) && cur.Len() > 0):
			cur.WriteRune(r)
		default:
			flush()
		}
	}
	flush()
	return out
}

func refRougeL(candidate, reference string) float64 {
	c, r := refTokens(candidate), refTokens(reference)
	if len(c) == 0 || len(r) == 0 {
		return 0
	}
	prev := make([]int, len(r)+1)
	cur := make([]int, len(r)+1)
	for i := range c {
		for j := range r {
			if c[i] == r[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev, cur = cur, prev
	}
	l := prev[len(r)]
	if l == 0 {
		return 0
	}
	p := float64(l) / float64(len(c))
	rec := float64(l) / float64(len(r))
	return 2 * p * rec / (p + rec)
}

// checkRouge compares RougeL and Tokens with the reference versions: the
// same tokens, and the same score to the last bit.
func checkRouge(t *testing.T, a, b string) {
	t.Helper()
	if got, want := Tokens(a), refTokens(a); !reflect.DeepEqual(got, want) {
		t.Fatalf("Tokens(%.100q) = %.20q…, first version %.20q…", a, got, want)
	}
	if got, want := RougeL(a, b), refRougeL(a, b); got != want {
		t.Fatalf("RougeL(%.100q, %.100q) = %v, first version %v", a, b, got, want)
	}
}

// TestRougeLAgreesWithDP checks the bit-parallel LCS against the string DP
// on reference lengths around the 64-bit word edges, on text with every
// token class, and on LFQA-E's real Chinese answers and references.
func TestRougeLAgreesWithDP(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 7))
	vocab := []string{"the", "model", "A", "(B)", "答", "案", "是", "ｇｐｔ５", "naïve", "café", "ひら", "カタ", "42", "—", "\xff", "e\u0301", "Ǆ", "ß", "İ"}
	text := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(vocab[rng.IntN(len(vocab))])
			if rng.IntN(3) > 0 {
				b.WriteByte(' ')
			}
		}
		return b.String()
	}
	for _, n := range []int{0, 1, 2, 63, 64, 65, 127, 128, 129, 300} {
		for k := 0; k < 5; k++ {
			a, b := text(n), text(rng.IntN(400))
			checkRouge(t, a, b)
			checkRouge(t, b, a)
		}
	}
	t.Run("lfqae", func(t *testing.T) {
		data, err := os.ReadFile(testcorpus.Path(t, "external", "lfqae", "unified_benchmark_zh.json"))
		if err != nil {
			t.Fatal(err)
		}
		var rows []struct {
			Reference string `json:"reference"`
			ResponseA string `json:"response_a"`
			ResponseB string `json:"response_b"`
		}
		if err := json.Unmarshal(data, &rows); err != nil || len(rows) < 1000 {
			t.Fatalf("lfqae: %d rows, %v", len(rows), err)
		}
		for i := 0; i < len(rows); i += 20 {
			checkRouge(t, rows[i].ResponseA, rows[i].Reference)
			checkRouge(t, rows[i].Reference, rows[i].ResponseB)
		}
	})
}

// TestCJKBlock checks what the tokenizer's fast path assumes of
// U+4E00–U+9FFF.
func TestCJKBlock(t *testing.T) {
	for r := rune(cjkFirst); r <= cjkLast; r++ {
		if !unicode.Is(unicode.Han, r) || !unicode.IsLetter(r) || unicode.ToLower(r) != r {
			t.Fatalf("%U is not a caseless Han letter", r)
		}
	}
}

// FuzzRougeL checks RougeL and Tokens against the first, string-DP version
// on any pair of texts.
//
//	go test -run '^$' -fuzz '^FuzzRougeL$' -fuzztime 30s ./eval/stats/
func FuzzRougeL(f *testing.F) {
	f.Add("the cat sat on the mat", "the cat is on the mat")
	f.Add("答案是：电阻增大。", "答案是电阻增大")
	f.Add("ＧＰＴ５ naïve e\u0301 \xff\xfe", "gpt5 naive")
	f.Add(strings.Repeat("a b ", 40), strings.Repeat("b a ", 33))
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > 4<<10 || len(b) > 4<<10 {
			return // the DP it is compared with is quadratic
		}
		checkRouge(t, a, b)
	})
}
