package extract

import (
	"slices"
	"strings"
	"testing"
)

// Along reads the commitments of a reasoning text in order; cases for
// each rule of its documentation.
func TestAlong(t *testing.T) {
	cases := []struct {
		name, text string
		multi      bool
		want       []string
	}{
		{"empty", "  \n", false, nil},
		{"no cue", "Option B is about training. Let's look at option C.", false, nil},
		{"order and changes", "So the answer is B. Wait. Answer: C\nHmm, I'll go with B.", false, []string{"B", "C", "B"}},
		{"repeats collapse", "The answer is B. Yes, the answer is B. So B.", false, []string{"B"}},
		{"one place, two cues", "Therefore, the answer is: A.", false, []string{"A"}},
		{"hedged", "Maybe the answer is A. Perhaps B is correct. It could be that the answer is C. The answer is D.", false, []string{"D"}},
		{"asked", "So the answer is A? Is it B? It is B? The answer is C.", false, []string{"C"}},
		{"negated", "Let me check whether the answer is A. If B is correct, the gap grows. The answer is not C. So D.", false, []string{"D"}},
		{"is-correct", "A is correct. Wait, B is correct.", false, []string{"A", "B"}},
		{"boxed", `First \boxed{A}, then \boxed{C}`, false, []string{"A", "C"}},
		{"letter lines", "Thinking...\nB\nmore thinking\n**C**", false, []string{"B", "C"}},
		{"multi letter lines merge", "The answer is A.\n- A\n- C\n", true, []string{"A", "AC"}},
		{"multi list", "The correct options are B and D. Then only B is correct.", true, []string{"BD", "B"}},
		{"think tags are read", "<think>So the answer is A.</think>The answer is C.", false, []string{"A", "C"}},
		{"invalid letter", "The answer is E. The answer is B.", false, []string{"B"}},
		{"chinese", "答案是B。再检查一下……所以答案是C", false, []string{"B", "C"}},
		{"full-width", "Ａｎｓｗｅｒ：Ｃ", false, []string{"C"}},
	}
	for _, c := range cases {
		got := Along(c.text, "ABCD", nil, c.multi)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: Along(%q) = %q, want %q", c.name, c.text, got, c.want)
		}
	}
}

// Along ends with what Extract reads when the text's last commitment is
// its final answer (no hedge, no question), on the extractor's own
// pieces.
func TestAlongEndsWithExtract(t *testing.T) {
	for _, p := range goldenPieces {
		if strings.ContainsAny(p, "<?") {
			continue // think blocks: Extract drops them, Along reads them
		}
		res := Extract(p, "ABCD", nil, false)
		along := Along(p, "ABCD", nil, false)
		if res.Miss || len(along) == 0 {
			continue
		}
		switch res.Method {
		case MethodAnswerIs, MethodAnswerColon, MethodBoxed, MethodWeakCue:
			if last := along[len(along)-1]; last != res.Letters {
				t.Errorf("%q: Extract %s (%s), Along ends with %s (%q)", p, res.Letters, res.Method, last, along)
			}
		}
	}
}

// A long trace is read whole: a change of mind in its middle counts.
func TestAlongReadsLongTraceWhole(t *testing.T) {
	filler := strings.Repeat("The table lists scores for each model and method. ", 4000) // ~200 KB
	text := filler + "So the answer is B.\n" + filler + "Wait. The answer is C.\n" + filler
	if got := Along(text, "ABCD", nil, false); !slices.Equal(got, []string{"B", "C"}) {
		t.Errorf("Along over %d bytes = %q, want [B C]", len(text), got)
	}
}

func BenchmarkAlong(b *testing.B) {
	text := strings.Repeat("Let me verify this again: the second table is the one that matters, so the answer is B. Wait, is it? ", 10000) // ~1 MiB
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Along(text, "ABCD", nil, false)
	}
}

// Along never fails on any text: every answer it returns is valid letters
// in order, none equal to the one before it.
func FuzzAlong(f *testing.F) {
	for _, p := range goldenPieces {
		f.Add(p, false)
	}
	f.Add("So the answer is A.\n- A\n- C\nMaybe B? The answer is D", true)
	f.Fuzz(func(t *testing.T, text string, multi bool) {
		got := Along(text, "ABCD", nil, multi)
		for i, a := range got {
			if a == "" || strings.Trim(a, "ABCD") != "" {
				t.Fatalf("Along(%q) = %q: answer %q", text, got, a)
			}
			if i > 0 && got[i-1] == a {
				t.Fatalf("Along(%q) = %q: a repeat", text, got)
			}
		}
	})
}
