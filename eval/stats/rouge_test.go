package stats

import (
	"reflect"
	"testing"
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
