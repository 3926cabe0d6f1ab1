package pdftext

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

func corpusPDFs(t testing.TB) []string {
	t.Helper()
	return testcorpus.Glob(t, "corpus", "pdf", "*.pdf")
}

// needPdftotext skips the test when poppler's pdftotext is not installed,
// except under CI where a missing reference tool is a setup error.
func needPdftotext(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("pdftotext not found (install poppler-utils): %v", err)
		}
		t.Skip("pdftotext not found; install poppler-utils to run this test")
	}
}

type result struct {
	doc *Document
	err error
}

// Extraction and pdftotext runs are shared between tests: every test reads
// the same corpus, and doing the work once keeps the package under budget.
var (
	extractOnce sync.Map // path -> func() result
	popplerOnce sync.Map // mode+path -> func() (string, error)
)

func extracted(t testing.TB, path string) *Document {
	t.Helper()
	f, _ := extractOnce.LoadOrStore(path, sync.OnceValue(func() result {
		d, err := ExtractFile(context.Background(), path)
		return result{d, err}
	}))
	r := f.(func() result)()
	if r.err != nil {
		t.Fatalf("Extract(%s): %v", filepath.Base(path), r.err)
	}
	return r.doc
}

func pdftotext(t testing.TB, path string, args ...string) string {
	t.Helper()
	key := strings.Join(args, " ") + "|" + path
	f, _ := popplerOnce.LoadOrStore(key, sync.OnceValues(func() (string, error) {
		out, err := exec.Command("pdftotext", append(append(args, path), "-")...).Output()
		return string(out), err
	}))
	out, err := f.(func() (string, error))()
	if err != nil {
		t.Fatalf("pdftotext %s: %v", filepath.Base(path), err)
	}
	return out
}

var lineHyphenRE = regexp.MustCompile(`(\p{L})-[ \t]*\r?\n[ \t]*(\p{Ll})`)

// normWords is the comparison normalisation shared by the tests: NFKC,
// words hyphenated across a line break rejoined, lower case, split on
// anything that is not a letter or digit, empty pieces dropped.
func normWords(s string) []string {
	s = norm.NFKC.String(s)
	s = lineHyphenRE.ReplaceAllString(s, "$1$2")
	s = strings.ToLower(s)
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// wordF1 is the F1 of the two word multisets.
func wordF1(got, want []string) (f1, precision, recall float64) {
	count := map[string]int{}
	for _, w := range want {
		count[w]++
	}
	common := 0
	for _, w := range got {
		if count[w] > 0 {
			count[w]--
			common++
		}
	}
	if len(got) == 0 || len(want) == 0 || common == 0 {
		return 0, 0, 0
	}
	precision = float64(common) / float64(len(got))
	recall = float64(common) / float64(len(want))
	return 2 * precision * recall / (precision + recall), precision, recall
}

// sentences splits raw pdftotext output into sentences: lines are joined
// (rejoining hyphenated words) and the text is cut after . ? ! followed by
// a space and a capital letter.
func sentences(raw string) []string {
	raw = norm.NFKC.String(raw)
	raw = lineHyphenRE.ReplaceAllString(raw, "$1$2")
	raw = strings.Join(strings.Fields(raw), " ")
	var out []string
	start := 0
	rs := []rune(raw)
	for i := 0; i+2 < len(rs); i++ {
		if (rs[i] == '.' || rs[i] == '?' || rs[i] == '!') && rs[i+1] == ' ' && unicode.IsUpper(rs[i+2]) {
			out = append(out, string(rs[start:i+1]))
			start = i + 2
		}
	}
	return append(out, string(rs[start:]))
}

// kendallTau is tau-a of the sequence against its sorted order.
func kendallTau(xs []int) float64 {
	n := len(xs)
	if n < 2 {
		return 1
	}
	conc, disc := 0, 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			switch {
			case xs[i] < xs[j]:
				conc++
			case xs[i] > xs[j]:
				disc++
			}
		}
	}
	return float64(conc-disc) / float64(n*(n-1)/2)
}

// ngramIndex maps each n-gram of words to its start positions.
func ngramIndex(words []string, n int) map[string][]int {
	idx := map[string][]int{}
	for i := 0; i+n <= len(words); i++ {
		k := strings.Join(words[i:i+n], " ")
		idx[k] = append(idx[k], i)
	}
	return idx
}

func filepathJoin(t testing.TB, elem ...string) string {
	t.Helper()
	return testcorpus.Path(t, elem...)
}

func bytesReaderAt(b []byte) *bytes.Reader { return bytes.NewReader(b) }

// prose is the fraction of words made of two or more letters.
func prose(ws []string) float64 {
	n := 0
	for _, w := range ws {
		letters := 0
		for _, r := range w {
			if unicode.IsLetter(r) {
				letters++
			}
		}
		if letters >= 2 && letters == len([]rune(w)) {
			n++
		}
	}
	return float64(n) / float64(len(ws))
}

// distinctive lists the 6-word runs of a sentence that are prose and occur
// exactly once in the reference text.
func distinctive(ws []string, refIdx map[string][]int) []string {
	var out []string
	for j := 0; j+6 <= len(ws); j++ {
		if prose(ws[j:j+6]) < 1 {
			continue
		}
		if k := strings.Join(ws[j:j+6], " "); len(refIdx[k]) == 1 {
			out = append(out, k)
		}
	}
	return out
}

// longestIncreasing is the length of the longest strictly increasing
// subsequence of xs (patience sorting, O(n log n)).
func longestIncreasing(xs []int) int {
	var tails []int
	for _, x := range xs {
		i := sort.SearchInts(tails, x)
		if i == len(tails) {
			tails = append(tails, x)
		} else {
			tails[i] = x
		}
	}
	return len(tails)
}
