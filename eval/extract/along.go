package extract

import (
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/paperlens/paperlens/eval/mcq"
)

// Along returns the answers a reasoning text commits to, in the order it
// states them: "So the answer is B. … Wait … Answer: C. … I'll go with B"
// gives ["B", "C", "B"]. Each answer is sorted unique letters, as
// Result.Letters. It is how a run tells harmful verification (ElaipBench
// §4.3: the reasoning reached the right answer, then verified it away).
//
// A commitment is what Extract's cues read, anywhere in the text, not
// only at its end (see the package documentation for each):
//
//   - group 1: "answer-is" ("the answer is B", "the correct options are
//     A and C"), "is-correct" ("B is correct", "A is correct. C is also
//     correct." with multi), "boxed" (\boxed{B}) and "weak-cue" ("so B.",
//     "I'll go with D.", "I think it's C.", "Therefore, A and C.");
//   - group 2: "answer-colon" ("Answer: C", "Final answer: A, C");
//   - of group 3, a line that holds nothing but a letter list ("B",
//     "**B**", "(A), (C)"; consecutive such lines merged with multi).
//
// What is not a commitment: a bare mention of a letter ("let's look at
// option B", "B. OPT-2.7B …"), the letter lists Extract reads as a last
// resort (a marked letter in prose, a reply's leading label, an option's
// text), and every cue Extract skips as negated ("whether the answer is
// B", "the answer is not B", "not B."). Three more kinds are skipped
// here, where Extract keeps them, because a reasoning text weighs answers
// before it commits:
//
//   - a negated "is-correct" or letter line: a negator of Extract's (if,
//     whether, suppose, not, …) within the three words before the letters
//     ("If C is correct, …", "whether B is right");
//   - a hedged cue: one of "maybe", "perhaps", "possibly", "could",
//     "might", "consider", "considering", "try" or "trying" within the
//     four words before it, in its clause ("Maybe the answer is B",
//     "perhaps B is correct", "It could be that the answer is C");
//   - a question: the letters are followed by "?" ("So the answer is
//     B?", "Is it B? It is B?").
//
// Commitments that end at the same place are one (two cues read the same
// letters), and a commitment equal to the one before it is dropped: the
// result is the sequence of answers the text moved through, each change
// kept, repeats of the current one not. The text is read whole, <think>
// blocks included (reasoning is what it reads), after the normalisation
// Extract applies (NFKC, straight quotes); no window is taken (a change
// of mind in the middle of a long trace is the point). The time is
// linear in the text: about 100 ns a byte on prose (0.4 s for a trace of
// 4 MiB, the reply cap), up to 500 ns on text dense with cues
// (BenchmarkAlong).
//
// Along's rules are part of Version: a change that can change its result
// bumps Version as a change of Extract does.
func Along(text, letters string, options []mcq.Option, multi bool) []string {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	x := newExtractor(letters, options, multi)
	s := quotes.Replace(norm.NFKC.String(text))
	var ms []match
	keep := func(m match, cue int) {
		if negated(s, cue) || hedged(s, cue) || asked(s, m.end) {
			return
		}
		ms = append(ms, m)
	}
	v := newView(s)
	x.eachStandard(v, keep)
	x.eachSimplified(v, keep)
	x.eachLetterLine(s, keep)
	// By where each ends; at one end, the first rule's letters.
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].end < ms[j].end })
	var out []string
	lastEnd := -1
	for _, m := range ms {
		if m.end == lastEnd {
			continue
		}
		lastEnd = m.end
		if l := maskString(m.mask); len(out) == 0 || out[len(out)-1] != l {
			out = append(out, l)
		}
	}
	return out
}

// eachLetterLine calls visit with every line that holds nothing but a
// letter list; with multi, consecutive such lines are one list ("- A" /
// "- C" is AC), visited once, at its last line.
func (x *extractor) eachLetterLine(s string, visit func(m match, cue int)) {
	var run match
	runStart, off := 0, 0
	flush := func() {
		if run.method != "" {
			visit(run, runStart)
		}
		run = match{}
	}
	for _, line := range strings.Split(s, "\n") {
		mask, bold, ok := x.lineOnly(line)
		if !ok || !x.multi {
			flush()
		}
		if ok {
			if run.method == "" {
				runStart = off
			}
			run.mask |= mask
			run.end = off + len(line)
			run.method = MethodIsolated
			if bold {
				run.method = MethodMarkdown
			}
		}
		off += len(line) + 1
	}
	flush()
}

// hedges make a following cue a consideration, not a commitment.
var hedges = map[string]bool{
	"maybe": true, "perhaps": true, "possibly": true, "could": true, "might": true,
	"consider": true, "considering": true, "try": true, "trying": true,
}

// hedged reports whether one of the four words before i (in its clause:
// punctuation ends the look back) is a hedge.
func hedged(s string, i int) bool {
	j := i
	for w := 0; w < 4; w++ {
		for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t' || s[j-1] == '*') {
			j--
		}
		k := j
		for k > 0 && (isASCIIAlnum(s[k-1]) || s[k-1] == '\'') {
			k--
		}
		if k == j {
			return false
		}
		if hedges[strings.ToLower(s[k:j])] {
			return true
		}
		j = k
	}
	return false
}

// asked reports whether the letters ending at i are asked, not stated:
// a question mark follows them.
func asked(s string, i int) bool {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r == '?' || r == '？'
}
