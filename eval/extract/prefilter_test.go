package extract

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// cuePatterns are the patterns Extract runs over whole texts, which go
// through findAll.
func cuePatterns() []*lazyRegexp {
	var all []*lazyRegexp
	all = append(all, answerIsRes...)
	all = append(all, isCorrectRe, isCorrectCJKRe, boxedRe)
	all = append(all, weakCueRes...)
	all = append(all, answerColonRes...)
	return all
}

// TestPrefilterCoversEveryPattern checks that every cue pattern can be run
// piecewise: one that cannot would silently fall back to the whole text
// and bring back the cost issue 23 measured.
func TestPrefilterCoversEveryPattern(t *testing.T) {
	for _, l := range cuePatterns() {
		l.get()
		if !l.pre.ok {
			t.Errorf("%s: no prefilter (%s)", l.expr, l.pre.note)
			continue
		}
		for _, w := range l.pre.words {
			if len(w) < 2 {
				t.Errorf("%s: word %q is too short to filter on", l.expr, w)
			}
		}
	}
	// What the analysis finds, on patterns whose answer is known.
	for _, c := range []struct {
		expr  string
		words []string
		lead  bool
		ok    bool
	}{
		{`(?i)\bans\s*[:.]`, []string{"ANS"}, false, true},
		{`(?i)\b[iì]dahun`, []string{"IDAHUN", "ÌDAHUN"}, false, true},
		{`(?:^|[^A-Za-z0-9])(A|B)\s+(?i:is)\s+correct`, []string{"CORRECT"}, true, true},
		{`\\(?:boxed|fbox)\s*\{`, []string{"BOXED", "FBOX"}, false, true},
		{`(?i)a.*b`, nil, false, false},     // "." matches anything: no cuts
		{`[A-Z]\s*[:=]`, nil, false, false}, // no word to look for
		{`选择?\s*:?`, []string{"选"}, false, true},
	} {
		p := newPrefilter(c.expr)
		if p.ok != c.ok || (p.ok && p.lead != c.lead) || !reflect.DeepEqual(p.words, c.words) {
			t.Errorf("newPrefilter(%q) = ok %v lead %v words %q; want %v %v %q", c.expr, p.ok, p.lead, p.words, c.ok, c.lead, c.words)
		}
	}
}

// prefilterTexts are texts to compare findAll with FindAllStringIndex on:
// the golden replies, the adversarial chain of thought, text with letters
// the fold cannot handle in place, edge cases at the ends of the text.
func prefilterTexts(t *testing.T) []string {
	// Some of the golden replies: the regexp side of the comparison runs
	// every pattern over every byte, two seconds a megabyte; the fuzz
	// target (FuzzExtract) keeps comparing on new text.
	var texts []string
	long := 0
	for i, c := range goldenReplies() {
		if i%3 == 0 && (len(c.reply) < 4<<10 || long < 10) {
			texts = append(texts, c.reply)
			long += len(c.reply) >> 12
		}
	}
	texts = append(texts,
		adversarialReply(64<<10, "The answer is D."),
		"", "answer", "answer is", "The answer is", "xanswer is B", "answer is\n\nB", "(A) is correct", "A is correct",
		"The ANSWER is C", "the ans: b", "the \u212a answer is C", "ſo the answer is B", "答案是B", "因此A。",
		"\\boxed{C}", "\\\\boxed{C}", "x\\boxed{C}", "La RÉPONSE est C", "ОТВЕТ: B", "\xff answer is \xfe A",
		strings.Repeat("answer is A. ", 500), strings.Repeat("答案是", 300)+"B",
	)
	t.Run("corpus", func(t *testing.T) {
		for _, path := range testcorpus.Glob(t, "seeds", "00[04]_*.txt") {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			texts = append(texts, prepare(string(data), replyWindows))
		}
	})
	return texts
}

// TestFindAllMatchesRegexp checks findAll against FindAllStringIndex on
// every cue pattern: running a pattern piecewise must give exactly the
// matches it gives on the whole text.
func TestFindAllMatchesRegexp(t *testing.T) {
	texts := prefilterTexts(t)
	for _, l := range cuePatterns() {
		for _, s := range texts {
			checkFindAll(t, l, s)
		}
	}
}

func checkFindAll(t *testing.T, l *lazyRegexp, s string) {
	t.Helper()
	v := newView(s)
	cases := []struct {
		name      string
		got, want [][]int
	}{{"findAll", l.findAll(v), l.get().FindAllStringIndex(s, -1)}}
	if l == isCorrectRe || l == isCorrectCJKRe { // the two Extract reads groups from
		cases = append(cases, struct {
			name      string
			got, want [][]int
		}{"findAllSubmatch", l.findAllSubmatch(v), l.get().FindAllStringSubmatchIndex(s, -1)})
	}
	for _, c := range cases {
		if len(c.want) == 0 && len(c.got) == 0 {
			continue
		}
		if !reflect.DeepEqual(c.got, c.want) {
			t.Fatalf("%s on %.200q:\n %s %v\n regexp %v", l.expr, s, c.name, c.got, c.want)
		}
	}
}
