package mcq

import "testing"

func TestParse(t *testing.T) {
	tests := []struct {
		name, in, stem, letters, lastText string
	}{
		{"dot lines", "Which is right?\nA. one\nB. two\nC. three\nD. four", "Which is right?", "ABCD", "four"},
		{"paren lines", "Pick:\n(A) x y\n(B) z\n(C) w", "Pick:", "ABC", "w"},
		{"bold and colon", "Q?\n**A:** alpha\n**B:** beta", "Q?", "AB", "beta"},
		{"multi-line option", "Q?\nA. first line\ncontinued here\nB. second", "Q?", "AB", "second"},
		{"inline", "Which holds? A. the first B. the second C. the third", "Which holds?", "ABC", "the third"},
		{"stem mentions A. early", "Model A is used.\nA. yes\nB. no", "Model A is used.", "AB", "no"},
		{"no options", "What is the capital of France?", "What is the capital of France?", "", ""},
		{"full-width", "问题？\nA．甲\nB．乙", "问题？", "AB", "乙"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := Parse(tt.in)
			if q.Stem != tt.stem || q.Letters() != tt.letters {
				t.Fatalf("Parse = stem %q letters %q, want %q %q", q.Stem, q.Letters(), tt.stem, tt.letters)
			}
			if len(q.Options) > 0 && q.Options[len(q.Options)-1].Text != tt.lastText {
				t.Fatalf("last option %q, want %q", q.Options[len(q.Options)-1].Text, tt.lastText)
			}
		})
	}
}

func TestNormalizeAnswer(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"AC", "AC", true}, {"ca", "AC", true}, {"A, C", "AC", true}, {"(B)", "B", true},
		{"BB", "B", true}, {"", "", false}, {"yes", "", false}, {"A1", "", false},
	}
	for _, tt := range tests {
		got, ok := NormalizeAnswer(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("NormalizeAnswer(%q) = %q %v, want %q %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
