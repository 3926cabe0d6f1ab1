package extract

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/mcq"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// The golden file pins what Extract returns on a few thousand replies, so
// that work on its speed cannot change its answers. It was written by the
// extractor as it stood before issue 23 (regular expressions over the whole
// reply), and must only be rewritten for a deliberate change of behaviour:
//
//	EXTRACT_WRITE_GOLDEN=1 go test ./eval/extract -run Golden
//
// The replies are generated from a fixed seed (goldenReplies), so the file
// holds only the answers. Replies built from the shared corpus's papers are
// checked when the corpus is present.
const goldenPath = "testdata/golden.txt"

// goldenPieces are reply fragments that exercise every rule: cues of each
// group, negations, think tags (in odd case, with a Kelvin sign K for
// the k, unclosed, orphaned), option text, lists, Chinese and other
// languages, and prose that must not count.
var goldenPieces = []string{
	"The answer is: A", "the correct answer is (B).", "so the answer is C",
	"Therefore, the correct options are C and D.", "The answer is A. Wait, actually it is B.",
	"The correct answers are A, B, and D.", "The answer is A or B.", "The answer is B/D",
	"The final answer is **D** because of Table 3.", "The answer is C because A is contradicted.",
	"the answer is d.", "The answer is a bit subtle here.", "The answer is A Bayesian treatment",
	"Let me check whether the answer is A. It is not.", "The answer is not A; the correct answer is C.",
	"The wrong answers are A and B. The right one is C.", "Final answer: \\boxed{C}", "$$\\boxed{\\text{B}}$$",
	"Thus $\\boxed{A, C}$", "Both A and C are correct.", "Options C and D are correct, while A overstates it.",
	"B is the correct answer.", "A is correct. C is also correct.", "(A) is right. Wait, no: (B) is right.",
	"Option B is the best choice.", "The answer is A, B is wrong.", "Answer: A\nConfidence: 80%",
	"ANSWER: ab", "Option A is incorrect.", "I think (B).", "I'd go with C.", "Therefore, A and C.",
	"It is A good idea to read the appendix.", "Hmm, hard one. I think A", "D", "(B).", "A, C", "(A)(C)",
	"**C**", ": B", "B选项", "- A\n- C", "My pick is **C**.", "so option B.", "rules out (B).",
	"B. Llama1 is designed with a greater number of specialized tokens.", "(C) the larger corpus",
	"A, C: both hold", "C Cecile", "A Peter went home", "答案：B", "答案是B", "正确选项为A、C", "故选C",
	"说法错误的是D", "B是正确的", "选项C正确", "只有选项A是对的", "A和C都正确", "A不正确", "因此A。",
	"因此A选项不对", "显然B", "所以答D", "La réponse est C non A", "Die Antwort ist (D)", "La respuesta es B",
	"Ответ - C", "الإجابة: ج", "উত্তর: ব", "答えは (D) です", "답은 (A)입니다", "คำตอบคือ (A)",
	"Answer:\u200b\u200bB", "Eliminated: (A), (C), (D).", "Conclusion: (B).", `{"answer": "C"}`,
	"OPT-13B", "It is clearly opt-2.7b.", "The training corpus for Chinese is significantly larger than that for Finnish.",
	"<think>A</think>", "<THINK>maybe C</think>", "<thinking>B?</Thinking>", "</think>", "<think>",
	"<thin\u212a>A</think>", "</thinking>", "<think>open", "A model is trained", "OPT-1.3B and OPT-2.7B",
	"（Ｂ）", "Ａｎｓｗｅｒ：Ｃ", "\u201cB\u201d is the answer", "Answer:\r\nB", "\n\n", "\n", " ", "**Answer:**",
	"A.I. is", "Plan B's", "vitamin C is", "A-based", "because (A)(B)(C)(D) all appear", "选", "Answer: E",
	"Answer: None of the above", "\\boxed{AC}", "so, C.", "The answer is ACD.", "Answer: (A) and (C)",
}

var goldenOpts = [][]mcq.Option{
	nil,
	{{Letter: "A", Text: "OPT-1.3B"}, {Letter: "B", Text: "OPT-2.7B"}, {Letter: "C", Text: "OPT-6.7B"}, {Letter: "D", Text: "OPT-13B"}},
	{
		{Letter: "A", Text: "The training corpus for Chinese is significantly larger than that for Finnish."},
		{Letter: "B", Text: "Llama1 is designed with a greater number of specialized tokens for Chinese."},
		{Letter: "C", Text: "English and Finnish share greater similarities in expression."},
		{Letter: "D", Text: "None of the above"},
	},
}

var goldenLetters = []string{"ABCD", "ABCDEFGHIJ", "", "AB"}

// goldenCase is one reply and the question it answers.
type goldenCase struct {
	name, reply, letters string
	options              []mcq.Option
	multi                bool
}

// goldenReplies are the generated cases: short replies of a few pieces,
// chains of thought of up to 60 KiB (adversarialReply, under the 64 KiB
// below which the whole reply is read), and pieces joined with and without
// line breaks.
func goldenReplies() []goldenCase {
	rng := rand.New(rand.NewPCG(2023, 7))
	seps := []string{"", " ", "\n", "\n\n", ". ", "\r\n", "  \t"}
	var out []goldenCase
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		n := 1 + rng.IntN(12)
		if i%10 == 0 {
			n = 40 + rng.IntN(200)
		}
		for k := 0; k < n; k++ {
			if k > 0 {
				b.WriteString(seps[rng.IntN(len(seps))])
			}
			if rng.IntN(4) == 0 {
				b.WriteString(cotPieces[rng.IntN(len(cotPieces))])
			} else {
				b.WriteString(goldenPieces[rng.IntN(len(goldenPieces))])
			}
		}
		out = append(out, goldenCase{
			name: fmt.Sprintf("gen-%04d", i), reply: b.String(),
			letters: goldenLetters[rng.IntN(len(goldenLetters))],
			options: goldenOpts[rng.IntN(len(goldenOpts))], multi: rng.IntN(2) == 0,
		})
	}
	for _, size := range []int{8 << 10, 16 << 10, 32 << 10, 60 << 10} {
		for j, tail := range []string{"The answer is D.", "I cannot decide.", "**B**", "Answer: A, C", "OPT-13B"} {
			out = append(out, goldenCase{
				name: fmt.Sprintf("cot-%dK-%d", size>>10, j), reply: adversarialReply(size, tail),
				letters: "ABCD", options: goldenOpts[1], multi: j%2 == 0,
			})
		}
	}
	return out
}

// corpusReplies are the shared corpus's papers used as replies, whole and
// cut to 60 KiB, with and without a final answer: real long text full of
// letters, brackets and the word "answer" (the papers are about answering
// multiple-choice questions).
func corpusReplies(t *testing.T) []goldenCase {
	var out []goldenCase
	for _, path := range testcorpus.Glob(t, "seeds", "*.txt") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(path)
		texts := []struct{ part, text string }{{"whole", string(data)}}
		if len(data) > 60<<10 {
			texts = append(texts, struct{ part, text string }{"60K", string(data[:60<<10])})
		}
		for _, pt := range texts {
			part, text := pt.part, pt.text
			for j, tail := range []string{"", "\n\nThe answer is C.", "\n\nAnswer: A"} {
				for _, multi := range []bool{false, true} {
					out = append(out, goldenCase{
						name:  fmt.Sprintf("corpus-%s-%s-%d-%v", base, part, j, multi),
						reply: text + tail, letters: "ABCD", options: goldenOpts[1], multi: multi,
					})
				}
			}
		}
	}
	return out
}

// TestGolden checks Extract against the golden file. Every generated case
// must be there; corpus cases are checked when the corpus is present.
func TestGolden(t *testing.T) {
	cases := goldenReplies()
	var corpus []goldenCase
	t.Run("corpus", func(t *testing.T) { corpus = corpusReplies(t) })
	cases = append(cases, corpus...)
	got := map[string]string{}
	var names []string
	for _, c := range cases {
		r := Extract(c.reply, c.letters, c.options, c.multi)
		got[c.name] = r.Letters + "\t" + r.Method
		names = append(names, c.name)
	}
	if os.Getenv("EXTRACT_WRITE_GOLDEN") != "" {
		var b strings.Builder
		for _, n := range names {
			fmt.Fprintf(&b, "%s\t%s\n", n, got[n])
		}
		if err := os.WriteFile(goldenPath, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := readGolden(t)
	generated := 0
	for _, n := range names {
		w, ok := want[n]
		if !ok {
			t.Errorf("%s: not in %s", n, goldenPath)
			continue
		}
		if got[n] != w {
			t.Errorf("%s: got %q, golden %q", n, got[n], w)
		}
		if strings.HasPrefix(n, "gen-") || strings.HasPrefix(n, "cot-") {
			generated++
		}
	}
	if generated < 3000 {
		t.Fatalf("only %d generated cases checked", generated)
	}
}

// goldenVersionPath pins Version to the golden file: the version, a tab,
// and the SHA-256 of golden.txt.
const goldenVersionPath = "testdata/golden.version"

// TestGoldenPinsVersion holds Version to its rule (see version.go): the
// golden file may change only with a bumped Version, since the records of
// every run name the rules that read their answers by it. Rewriting the
// golden file (EXTRACT_WRITE_GOLDEN=1, which runs this after TestGolden)
// rewrites the pin too, and refuses while Version is the one pinned to
// other answers.
func TestGoldenPinsVersion(t *testing.T) {
	b, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	hash := hex.EncodeToString(sum[:])
	pin, err := os.ReadFile(goldenVersionPath)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	pinned, pinnedHash, _ := strings.Cut(strings.TrimSpace(string(pin)), "\t")
	changed := pinnedHash != "" && pinnedHash != hash
	if changed && pinned == Version {
		t.Fatalf("%s changed since extract.Version %q was pinned to it (%s): answers changed, so bump Version in version.go, then EXTRACT_WRITE_GOLDEN=1 go test ./eval/extract -run Golden",
			goldenPath, Version, goldenVersionPath)
	}
	if os.Getenv("EXTRACT_WRITE_GOLDEN") != "" {
		if err := os.WriteFile(goldenVersionPath, []byte(Version+"\t"+hash+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if pinned != Version || pinnedHash != hash {
		t.Fatalf("%s pins version %q to %.12s…, now %q and %.12s…: EXTRACT_WRITE_GOLDEN=1 go test ./eval/extract -run Golden rewrites it",
			goldenVersionPath, pinned, pinnedHash, Version, hash)
	}
}

func readGolden(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			t.Fatalf("%s: malformed line %q", goldenPath, sc.Text())
		}
		want[name] = rest
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return want
}
