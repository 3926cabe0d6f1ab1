package extract

import (
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/paperlens/paperlens/eval/mcq"
)

// FuzzExtract checks that Extract never panics and that what it returns is
// well formed: sorted unique letters from the valid set, Miss exactly when
// nothing was found, and a method always named. It also checks the two
// things issue 23's speed rests on: the hand-written think-tag pass and
// the piecewise pattern search give what the regular expressions give,
// and a reply repeated past 64 KiB reaches the rules as windows of bounded
// size (work counted in bytes, not timed).
//
//	go test -run '^$' -fuzz '^FuzzExtract$' -fuzztime 30s ./eval/extract/
func FuzzExtract(f *testing.F) {
	seeds := []struct {
		reply, letters string
		multi          bool
	}{
		{"The answer is: A", "ABCD", false},
		{"Answer: A, C", "ABCD", true},
		{"答案：B", "ABCD", false},
		{"Final answer: \\boxed{C}", "ABCD", false},
		{"<think>A</think>**C**", "ABCD", false},
		{"<think>unclosed", "ABCD", false},
		{"(A)(C)", "ABCDEF", true},
		{"A and C", "ABC", true},
		{"The answer is A. Wait, actually it is B.", "ABCD", false},
		{"A model is trained", "ABCD", false},
		{"I think (B).", "ABCDEFGHIJ", false},
		{"Answer: None of the above", "ABCD", false},
		{"OPT-13B", "ABCD", false},
		{"- A\n- C\n", "AC", true},
		{"\\boxed{\\text{", "ABCD", true},
		{"**Answer:**", "", false},
		{"选", "ABCD", false},
		{"(((((", "abcd", true},
		{"A, B, C, D, E, F, G, H, I, J, K", "ABCDEFGHIJ", true},
		{"\xff\xfeA", "A", false},
		{"La réponse est C non A", "ABCD", false},
		{"الإجابة: ب", "ABCD", false},
		{"উত্তর: বা", "ABCD", false},
		{"Answer:\u200bB", "ABCD", false},
		{"A和C都正确", "ABCD", true},
		{"Eliminated: (A), (C)", "ABCD", true},
		{"คำตอบคือ (A)", "ABCD", false},
	}
	for _, s := range seeds {
		f.Add(s.reply, s.letters, s.multi)
	}
	// Long and adversarial: a chain of thought with a cue in every clause,
	// runs of tags, a long line, Chinese without spaces.
	f.Add(adversarialReply(2<<10, "The answer is D."), "ABCD", true)
	f.Add(strings.Repeat("<think>", 200)+"A", "ABCD", false)
	f.Add(strings.Repeat("</thinking>(B) ", 100), "ABCD", false)
	f.Add(strings.Repeat("answer is ", 300)+"C", "ABCD", false)
	f.Add(chineseReply(1<<10), "ABCD", true)
	f.Add("<thin\u212a>A</THIN\u212aING>ſo the answer is B", "ABCD", false)
	f.Fuzz(func(t *testing.T, reply, letters string, multi bool) {
		checkResult(t, reply, letters, Extract(reply, letters, fuzzOptions, multi))
		if got, want := stripThink(reply), refStripThink(reply); got != want {
			t.Fatalf("stripThink(%q) = %q, regexps give %q", reply, got, want)
		}
		text := prepare(reply, replyWindows)
		for _, l := range cuePatterns() {
			checkFindAll(t, l, text)
		}
		// The windowed path, with windows shrunk from 64 KiB to 256 bytes
		// so that each input stays fast: the rules see at most the windows
		// and a well-formed result comes out. The reply is also repeated
		// past 64 KiB, for the real windows' bound.
		small := windows{whole: 256, head: 64, slack: 32}
		if n := len(small.window(stripThink(reply))); n > small.whole+len(windowSep) {
			t.Fatalf("a reply of %d bytes reaches the rules as %d bytes through 256-byte windows", len(reply), n)
		}
		checkResult(t, reply, letters, extract(reply, letters, fuzzOptions, multi, small))
		if len(reply) > 0 {
			big := strings.Repeat(reply+"\n", wholeLimit/(len(reply)+1)+2)
			if n := len(replyWindows.window(stripThink(big))); n > wholeLimit+len(windowSep) {
				t.Fatalf("a reply of %d bytes reaches the rules as %d bytes", len(big), n)
			}
		}
	})
}

var fuzzOptions = []mcq.Option{
	{Letter: "A", Text: "OPT-1.3B"}, {Letter: "B", Text: "OPT-2.7B"},
	{Letter: "C", Text: "None of the above"}, {Letter: "D", Text: "OPT-13B"},
	{Letter: "E", Text: "AC"}, {Letter: "Z", Text: "zzz"}, {Letter: "", Text: "orphan"},
}

// checkResult checks that r is well formed for a question with these
// letters and fuzzOptions.
func checkResult(t *testing.T, reply, letters string, r Result) {
	t.Helper()
	valid := letterMask(letters)
	if valid == 0 {
		for _, o := range fuzzOptions {
			valid |= letterMask(o.Letter)
		}
	}
	for _, c := range r.Letters {
		if c < 'A' || c > 'Z' || valid&(1<<(c-'A')) == 0 {
			t.Fatalf("Extract(%.200q, %q) = %+v: %q is not a valid letter", reply, letters, r, c)
		}
	}
	if !sort.StringsAreSorted(strings.Split(r.Letters, "")) || hasRepeat(r.Letters) {
		t.Fatalf("letters %q not sorted unique", r.Letters)
	}
	if r.Miss != (r.Letters == "") || r.Method == "" || !utf8.ValidString(r.Letters) {
		t.Fatalf("inconsistent result %+v", r)
	}
	if r.Miss && r.Method != MethodMiss && r.Method != MethodEmpty {
		t.Fatalf("miss with method %q", r.Method)
	}
}

func hasRepeat(s string) bool {
	for i := 1; i < len(s); i++ {
		if s[i] == s[i-1] {
			return true
		}
	}
	return false
}
