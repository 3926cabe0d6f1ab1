package extract

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// The regular expressions stripThink replaces, applied in this order.
var (
	refThinkBlock = regexp.MustCompile(`(?is)<(think|thinking)>.*?</(?:think|thinking)>`)
	refThinkClose = regexp.MustCompile(`(?is)^.*</(?:think|thinking)>`)
	refThinkOpen  = regexp.MustCompile(`(?is)<(?:think|thinking)>.*$`)
)

func refStripThink(s string) string {
	s = refThinkBlock.ReplaceAllString(s, "")
	s = refThinkClose.ReplaceAllString(s, "")
	return refThinkOpen.ReplaceAllString(s, "")
}

// thinkCases are tag shapes: nested, unclosed, orphaned, in odd case, with
// the Kelvin sign K (which (?i) takes for k) and the long s, near misses.
var thinkCases = []string{
	"", "plain", "<think>a</think>b", "<THINK>a</Think>b", "<thinking>a</thinking>b", "<thinking>a</think>b",
	"<think>a</thinking>b", "<think>a", "a</think>b", "a</think>b</think>c", "<think>a</think>b<think>c",
	"<think><think>a</think>b</think>c", "<thin\u212a>a</thin\u212a>b", "<think>a</thin\u212aing>b",
	"<thinkin>a</think>b", "<think >a</think>b", "< think>a</think>b", "<think>a</ think>b", "<think>a<//think>b",
	"<<think>>a</think>>b", "x<think>\n\nA\n</think>\n**C**", "<think>a</think>b<think>c</think>d</think>e",
	"\xff<think>\xfe</think>\xfd", "<thinking", "</think", "<think>", "</think>", "</thinking>", "<THINKING>x",
	"<tHiNkInG>a</ThInK>b<think>c", "<ſ>", "<think>A</think>\u212a", strings.Repeat("<think>", 50) + "a",
	strings.Repeat("</think>x", 50), strings.Repeat("<think>a</think>", 50) + "end",
}

// TestStripThink checks stripThink against the three regular expressions
// it replaces.
func TestStripThink(t *testing.T) {
	cases := append([]string(nil), thinkCases...)
	for _, c := range goldenReplies() {
		cases = append(cases, c.reply)
	}
	for _, s := range cases {
		if got, want := stripThink(s), refStripThink(s); got != want {
			t.Errorf("stripThink(%.120q) = %.120q, regexps give %.120q", s, got, want)
		}
	}
}

// TestWindow checks the windows of a long reply: short replies are left
// alone, long ones keep their first and last stretches, cut at line ends,
// and an answer at either end is still found.
func TestWindow(t *testing.T) {
	short := adversarialReply(wholeLimit-100, "The answer is D.")
	if replyWindows.window(short) != short {
		t.Fatalf("a reply of %d bytes was windowed", len(short))
	}
	long := adversarialReply(1<<20, "The answer is D.")
	w := replyWindows.window(long)
	if len(w) > wholeLimit+len(windowSep) {
		t.Fatalf("windows of %d bytes", len(w))
	}
	head, tail, ok := strings.Cut(w, windowSep)
	if !ok || !strings.HasPrefix(long, head) || !strings.HasSuffix(long, tail) {
		t.Fatalf("windows are not the reply's head and tail")
	}
	if !strings.HasSuffix(head, "\n") || !strings.HasPrefix(long[len(long)-len(tail)-1:], "\n") {
		t.Errorf("windows not cut at line ends: head ends %q, tail starts %q", head[len(head)-20:], tail[:20])
	}
	if len(head) < headWindow/2 || len(tail) < (wholeLimit-headWindow)/2 {
		t.Errorf("windows of %d and %d bytes", len(head), len(tail))
	}

	// One line of 1 MiB: cut at spaces. Chinese without spaces: after a
	// sentence mark. Neither cut splits a character.
	line := strings.TrimSpace(strings.Repeat("Option A is weighed against (B) here ", 1<<20/37))
	head, tail, _ = strings.Cut(replyWindows.window(line), windowSep)
	if !strings.HasSuffix(head, " ") || line[len(line)-len(tail)-1] != ' ' {
		t.Errorf("one long line cut mid-word: head ends %q, tail starts %q", head[len(head)-10:], tail[:10])
	}
	zh := strings.Repeat("选项A不正确因为语料较小所以答案是什么还不确定。", 1<<20/60)
	head, tail, _ = strings.Cut(replyWindows.window(zh), windowSep)
	if !strings.HasSuffix(head, "。") || !strings.HasPrefix(tail, "选项") {
		t.Errorf("Chinese cut mid-sentence: head ends %q, tail starts %q", head[len(head)-9:], tail[:9])
	}
	nospace := strings.Repeat("选项甲乙丙丁", 1<<20/18)
	head, tail, _ = strings.Cut(replyWindows.window(nospace), windowSep)
	if !utf8.ValidString(head) || !utf8.ValidString(tail) {
		t.Errorf("a cut split a character")
	}

	// Blank space around a reply does not count towards its length.
	padded := strings.Repeat("\n", 1<<20) + short + strings.Repeat(" \u200b\n", 1<<18)
	if got := replyWindows.window(padded); got != strings.TrimSpace(short) {
		t.Errorf("padded reply windowed to %d bytes, want the %d of the reply", len(got), len(short))
	}

	// The answer at the end or at the start is found; in the middle of a
	// long reply it is not read.
	body := adversarialReply(1<<20, "")
	prose := strings.Repeat("The tokenizer splits rare words into pieces that the model then embeds.\n", 1<<20/72)
	for _, c := range []struct {
		name, reply, want string
	}{
		{"at the end", body + "\nThe answer is D.", "D"},
		{"at the start", "Answer: B\n\n" + prose, "B"},
		{"letter line at the end", body + "\n**C**", "C"},
		{"in the middle", prose + "Answer: B\n" + prose, ""},
	} {
		if got := Extract(c.reply, "ABCD", opts4, false); got.Letters != c.want {
			t.Errorf("%s: got %+v, want %s", c.name, got, c.want)
		}
	}
}

// TestRulesReadBoundedText counts the work on replies of 4 MiB: every rule
// reads the prepared text, and however the reply is shaped that text is
// the two windows, not the reply. The passes over the whole reply
// (stripThink, window) each read it once, by construction.
func TestRulesReadBoundedText(t *testing.T) {
	const n = 4 << 20
	shapes := map[string]string{
		"chain of thought": adversarialReply(n, "The answer is D."),
		"one line":         strings.ReplaceAll(adversarialReply(n, "so D"), "\n", " "),
		"chinese":          chineseReply(n),
		"think tags":       strings.Repeat("<think>a</think>b</think>c<thinking>", n/36),
		"padded":           strings.Repeat(" \n", n/4) + adversarialReply(n/2, "D") + strings.Repeat("\u200b\n", n/8),
		"no spaces":        strings.Repeat("x", n),
	}
	for name, reply := range shapes {
		if len(reply) < n/2 {
			t.Fatalf("%s: only %d bytes", name, len(reply))
		}
		if got := len(prepare(reply, replyWindows)); got > wholeLimit+len(windowSep) {
			t.Errorf("%s: the rules read %d bytes of a %d-byte reply", name, got, len(reply))
		}
	}
}
