package mcq

import (
	"strings"
	"testing"
)

// FuzzParse feeds any question text to Parse, which every loader runs on
// every row of a dataset file: the options it finds must be lettered A, B,
// C, ... in order, with trimmed texts taken from the question, and without
// options the stem is the whole text. NormalizeAnswer must give sorted
// unique letters or refuse.
//
//	go test -run '^$' -fuzz '^FuzzParse$' -fuzztime 30s ./eval/mcq/
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"Which OPT model?\nA. OPT-1.3B\nB. OPT-2.7B\nC. OPT-6.7B\nD. OPT-13B",
		"Inline: A. one B. two C. three D. four",
		"As in Fig. A. the method works.\nA. first\nB. second\nC. third",
		"Table E. lists it.\nA. a\nB. b\nC. c\nD. d\nE. e",
		"**A.** bold\n**B.** bold too", "(A) x\r\n(B) y", "A、甲\nB、乙\nC、丙", "A．全角\nB．全角",
		"no options here", "", "A.\nB.\nA.\nB.\nC.", strings.Repeat("A. B. ", 300),
	} {
		f.Add(s, "A, C")
	}
	f.Add("Q\nA. x\nB. y", "(b)")
	f.Add("Q", "ca;、，\t")
	f.Add("Q", "K")
	f.Fuzz(func(t *testing.T, text, answer string) {
		q := Parse(text)
		norm := strings.ReplaceAll(text, "\r\n", "\n")
		if len(q.Options) == 1 {
			t.Fatalf("one option: %+v", q)
		}
		if len(q.Options) == 0 && (q.Stem != strings.TrimSpace(norm) || len(q.Doubts) > 0) {
			t.Fatalf("no options, but stem %q and doubts %q", q.Stem, q.Doubts)
		}
		if q.Stem != strings.TrimSpace(q.Stem) || !strings.Contains(norm, q.Stem) {
			t.Fatalf("stem %q is not trimmed text of the question", q.Stem)
		}
		for i, o := range q.Options {
			if o.Letter != string(rune('A'+i)) {
				t.Fatalf("option %d lettered %q: %+v", i, o.Letter, q.Options)
			}
			if o.Text != strings.TrimSpace(o.Text) || !strings.Contains(norm, o.Text) {
				t.Fatalf("option %s text %q is not trimmed text of the question", o.Letter, o.Text)
			}
		}
		for _, d := range q.Doubts {
			if d == "" {
				t.Fatalf("empty doubt")
			}
		}
		if got, ok := NormalizeAnswer(answer); ok {
			if got == "" || len(got) > 10 {
				t.Fatalf("NormalizeAnswer(%q) = %q", answer, got)
			}
			for i := 0; i < len(got); i++ {
				if got[i] < 'A' || got[i] > 'J' || (i > 0 && got[i] <= got[i-1]) {
					t.Fatalf("NormalizeAnswer(%q) = %q: not sorted unique A-J", answer, got)
				}
			}
		}
	})
}
