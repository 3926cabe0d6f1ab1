package mcq

import (
	"strings"
	"testing"
)

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

// TestParseDoubtfulSplit covers label look-alikes inside the text, in the
// layout ElaipBench prints (stem, then the options inline on one line) and
// with options on their own lines. Each case says which cut is right; the
// parser must either make it and say so, or keep the old cut and say that.
func TestParseDoubtfulSplit(t *testing.T) {
	tests := []struct {
		name, in string
		stem     string
		options  []string // texts, lettered A, B, ...
		doubt    string   // substring of the only doubt; "" for none
	}{
		{
			name:    "stem cites Fig. A.",
			in:      "How does accuracy change at the narrowest point, as in Fig. A. The method keeps fewer patches there. Which reading is right?\nA. It drops sharply B. It stays flat C. It rises D. It oscillates",
			stem:    "How does accuracy change at the narrowest point, as in Fig. A. The method keeps fewer patches there. Which reading is right?",
			options: []string{"It drops sharply", "It stays flat", "It rises", "It oscillates"},
			doubt:   `label "A." could start option A at two places ("…owest point, as in Fig. A. The method keeps fewe…" and "…Which reading is right? A. It drops sharply B. I…"); kept the labels that do not follow a reference word (Fig., Table, Method...), so the stem ends "…patches there. Which reading is right?"; check the row against the published question`,
		},
		{
			name:    "stem names Method A. and Method B.",
			in:      "Method A. uses a learned schedule while Method B. uses a fixed one. Which statement is supported?\nA. A is faster B. B is faster C. Both match D. Neither finishes",
			stem:    "Method A. uses a learned schedule while Method B. uses a fixed one. Which statement is supported?",
			options: []string{"A is faster", "B is faster", "Both match", "Neither finishes"},
			doubt:   "kept the labels that do not follow a reference word",
		},
		{
			name:    "option cites Appendix B.",
			in:      "Which holds?\nA. The bound is proved in Appendix B. for all rates B. It holds only asymptotically C. It is conjectured D. It fails",
			stem:    "Which holds?",
			options: []string{"The bound is proved in Appendix B. for all rates", "It holds only asymptotically", "It is conjectured", "It fails"},
			doubt:   `so option A reads "The bound is proved in Appendix B. for…"`,
		},
		{
			name:    "last option cites Table D.",
			in:      "Which holds?\nA. x B. y C. z D. the gap in Table D. closes",
			stem:    "Which holds?",
			options: []string{"x", "y", "z", "the gap in Table D. closes"},
			doubt:   `option C reads "z"`,
		},
		{
			// No reference word, but the options form one unbroken run
			// after the stray label.
			name:    "stem has an unknown letter-dot",
			in:      "Our baseline A. keeps more patches. Which holds?\nA. x B. y C. z D. w",
			stem:    "Our baseline A. keeps more patches. Which holds?",
			options: []string{"x", "y", "z", "w"},
			doubt:   `kept the only unbroken run A–D, so the stem ends "…A. keeps more patches. Which holds?"`,
		},
		{
			// A sub-list in the stem, then the options: the last run.
			name:    "stem lists its own A. and B.",
			in:      "Two settings are compared:\nA. full data\nB. half data\nWhich is better?\nA. the first\nB. the second",
			stem:    "Two settings are compared:\nA. full data\nB. half data\nWhich is better?",
			options: []string{"the first", "the second"},
			doubt:   "the text holds 2 unbroken runs A–B and the last was kept",
		},
		{
			// Nothing settles it: the old cut is kept and said to be doubtful.
			name:    "option has a bare B.",
			in:      "Which holds?\nA. x B. Our B. variant wins C. z D. w",
			stem:    "Which holds?",
			options: []string{"x", "Our B. variant wins", "z", "w"},
			doubt:   `no reading is clearly right, so the first was kept and option A reads "x"; check the row against the published question, and fix its text`,
		},
		{
			// A unique run, but its last label follows "Table".
			name:    "Table E. read as option E",
			in:      "Which holds?\nA. x B. y C. z D. as shown in Table E. below",
			stem:    "Which holds?",
			options: []string{"x", "y", "z", "as shown in Table", "below"},
			doubt:   `label "E." ("…z D. as shown in Table E. below") follows "Table", so it may be a reference inside the text rather than option E`,
		},
		{
			name:    "paper Table 9 inline options",
			in:      "Under the Domain-Specific Fine-Tuning framework, which model in the OPT series is the most sensitive?\nA. OPT-1.3B B. OPT-2.7B C. OPT-6.7B D. OPT-13B",
			stem:    "Under the Domain-Specific Fine-Tuning framework, which model in the OPT series is the most sensitive?",
			options: []string{"OPT-1.3B", "OPT-2.7B", "OPT-6.7B", "OPT-13B"},
		},
		{
			// A sentence ending in a reference word before a real label is
			// not a reference ("...the model. B.").
			name:    "sentence ends with a reference word",
			in:      "Which holds?\nA. It fine-tunes the model. B. It freezes the table. C. Neither",
			stem:    "Which holds?",
			options: []string{"It fine-tunes the model.", "It freezes the table.", "Neither"},
		},
		{
			// Options ending in a plain noun: not references.
			name:    "options end in model",
			in:      "Which is cheapest?\nA. the base model B. the large model C. the merged model D. no model",
			stem:    "Which is cheapest?",
			options: []string{"the base model", "the large model", "the merged model", "no model"},
		},
		{
			// The real B follows a plain "model", so it must not be taken
			// for a reference and lose to the stray "Our B.".
			name:    "real label after a plain noun, stray after another",
			in:      "Which variant is fastest?\nA. The unpruned model B. Our B. variant with refresh C. The merging baseline D. The cyclic default",
			stem:    "Which variant is fastest?",
			options: []string{"The unpruned model", "Our B. variant with refresh", "The merging baseline", "The cyclic default"},
			doubt:   "no reading is clearly right, so the first was kept",
		},
		{
			name:    "stray letter that does not compete",
			in:      "Which holds?\nA. x B. y C. unlike B. it is z D. w",
			stem:    "Which holds?",
			options: []string{"x", "y", "unlike B. it is z", "w"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := Parse(tt.in)
			if q.Stem != tt.stem {
				t.Errorf("stem %q, want %q", q.Stem, tt.stem)
			}
			var got []string
			for i, o := range q.Options {
				if o.Letter != string(rune('A'+i)) {
					t.Errorf("option %d lettered %s", i, o.Letter)
				}
				got = append(got, o.Text)
			}
			if strings.Join(got, "|") != strings.Join(tt.options, "|") {
				t.Errorf("options %q, want %q", got, tt.options)
			}
			switch {
			case tt.doubt == "" && len(q.Doubts) > 0:
				t.Errorf("clean split reported doubtful: %q", q.Doubts)
			case tt.doubt != "" && (len(q.Doubts) != 1 || !strings.Contains(q.Doubts[0], tt.doubt)):
				t.Errorf("doubts %q, want one containing %q", q.Doubts, tt.doubt)
			}
		})
	}
}
