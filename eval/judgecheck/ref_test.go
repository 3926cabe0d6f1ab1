package judgecheck_test

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/paperlens/paperlens/eval/judgecheck"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// This file is the tests' own reading of LFQA-E and their own
// computation of every figure, written apart from the package, the
// straightforward way: the package's figures must equal these.

// lfqae is the Chinese subset of LFQA-E in ../shared.
func lfqae(t *testing.T) string {
	t.Helper()
	return testcorpus.Path(t, "external", "lfqae", "unified_benchmark_zh.json")
}

// refItem is one comparison as the test reads it.
type refItem struct {
	ID          string `json:"id"`
	Question    string `json:"question"`
	Reference   string `json:"reference"`
	ResponseA   string `json:"response_a"`
	ResponseB   string `json:"response_b"`
	CompareType string `json:"compare_type"`
	Label       string `json:"label"`
}

// verdict is the label as A, B or TIE.
func (r refItem) verdict() string {
	return map[string]string{"response_a": "A", "response_b": "B", "same": "TIE"}[r.Label]
}

func readRef(t *testing.T, path string, limit int) []refItem {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var items []refItem
	if err := json.Unmarshal(b, &items); err != nil {
		t.Fatal(err)
	}
	if limit > 0 && len(items) > limit {
		items = items[:limit]
	}
	return items
}

// refFigures are accuracy, macro-F1 over A, B and TIE (every class
// averaged, an empty one counting 0) and the accuracy on the items
// labelled TIE (NaN without any); a verdict "" is unparsed and wrong.
func refFigures(labels, verdicts []string) (acc, macroF1, tieAcc float64) {
	correct, ties, tieRight := 0, 0, 0
	for i := range labels {
		if labels[i] == verdicts[i] {
			correct++
		}
		if labels[i] == "TIE" {
			ties++
			if verdicts[i] == "TIE" {
				tieRight++
			}
		}
	}
	sum := 0.0
	for _, c := range []string{"A", "B", "TIE"} {
		tp, fp, fn := 0, 0, 0
		for i := range labels {
			switch {
			case labels[i] == c && verdicts[i] == c:
				tp++
			case labels[i] != c && verdicts[i] == c:
				fp++
			case labels[i] == c && verdicts[i] != c:
				fn++
			}
		}
		p, r := 0.0, 0.0
		if tp+fp > 0 {
			p = float64(tp) / float64(tp+fp)
		}
		if tp+fn > 0 {
			r = float64(tp) / float64(tp+fn)
		}
		if p+r > 0 {
			sum += 2 * p * r / (p + r)
		}
	}
	tieAcc = math.NaN()
	if ties > 0 {
		tieAcc = float64(tieRight) / float64(ties)
	}
	return float64(correct) / float64(len(labels)), sum / 3, tieAcc
}

// refKappa is Cohen's κ of two raters' labels.
func refKappa(x, y []string) float64 {
	n := float64(len(x))
	agree := 0.0
	cx, cy := map[string]float64{}, map[string]float64{}
	for i := range x {
		if x[i] == y[i] {
			agree++
		}
		cx[x[i]]++
		cy[y[i]]++
	}
	pe := 0.0
	for k := range cx {
		pe += cx[k] / n * cy[k] / n
	}
	po := agree / n
	return (po - pe) / (1 - pe)
}

// refTokens splits text as the test understands LFQA-E's Chinese should
// be for ROUGE: NFKC, lower case, each Han or kana character a token, each
// run of other letters and digits a token, the rest separators.
func refTokens(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = nil
		}
	}
	for _, r := range norm.NFKC.String(s) {
		r = unicode.ToLower(r)
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
			flush()
			out = append(out, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) && len(cur) > 0:
			cur = append(cur, r)
		default:
			flush()
		}
	}
	flush()
	return out
}

// refRougeL is ROUGE-L F1 by the textbook dynamic programme.
func refRougeL(cand, ref string) float64 {
	a, b := refTokens(cand), refTokens(ref)
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
			} else {
				cur[j] = max(prev[j], cur[j-1])
			}
		}
		prev, cur = cur, prev
	}
	l := float64(prev[len(b)])
	if l == 0 {
		return 0
	}
	p, r := l/float64(len(a)), l/float64(len(b))
	return 2 * p * r / (p + r)
}

// wins is A when a > b, B when b > a, TIE when equal.
func wins(a, b float64) string {
	switch {
	case a > b:
		return "A"
	case b > a:
		return "B"
	}
	return "TIE"
}

// near says two figures are equal but for rounding.
func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// checkFigures compares the package's figures with the test's.
func checkFigures(t *testing.T, what string, f judgecheck.Figures, labels, verdicts []string) {
	t.Helper()
	acc, macro, tie := refFigures(labels, verdicts)
	unparsed := 0
	for _, v := range verdicts {
		if v == "" {
			unparsed++
		}
	}
	if f.N != len(labels) || !near(f.Accuracy, acc) || !near(f.MacroF1, macro) || f.Unparsed != unparsed {
		t.Errorf("%s: n %d, accuracy %v, macro-F1 %v, unparsed %d; want %d, %v, %v, %d", what, f.N, f.Accuracy, f.MacroF1, f.Unparsed, len(labels), acc, macro, unparsed)
	}
	switch {
	case math.IsNaN(tie) && f.TieAccuracy != nil:
		t.Errorf("%s: tie accuracy %v over no tie", what, *f.TieAccuracy)
	case !math.IsNaN(tie) && (f.TieAccuracy == nil || !near(*f.TieAccuracy, tie)):
		t.Errorf("%s: tie accuracy %v, want %v", what, f.TieAccuracy, tie)
	}
}

// byCompare splits labels and verdicts by compare_type.
func byCompare(items []refItem, verdicts []string) map[string][2][]string {
	out := map[string][2][]string{}
	for i, it := range items {
		g := out[it.CompareType]
		g[0], g[1] = append(g[0], it.verdict()), append(g[1], verdicts[i])
		out[it.CompareType] = g
	}
	return out
}

func labelsOf(items []refItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.verdict()
	}
	return out
}

// trimmed is s as the prompt shows it.
func trimmed(s string) string { return strings.TrimSpace(s) }
