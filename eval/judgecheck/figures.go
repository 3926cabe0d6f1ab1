package judgecheck

import (
	"math"
	"sort"
)

// Tally counts verdicts against labels.
type Tally struct {
	// Confusion[label][verdict]: label A, B, TIE (Classes' order); verdict
	// A, B, TIE, then column 3 for an unparsed verdict.
	Confusion [3][4]int
}

// Add counts one comparison labelled label and given verdict v ("" for
// an unparsed one).
func (t *Tally) Add(label, v Verdict) {
	if i := label.index(); i < 3 {
		t.Confusion[i][v.index()]++
	}
}

// Figures are a judge's (or a baseline's) agreement with the experts'
// labels over a set of comparisons.
type Figures struct {
	// N counts the comparisons given a verdict, unparsed ones included.
	N int `json:"n"`
	// Correct counts the verdicts equal to the label.
	Correct int `json:"correct"`
	// Accuracy is Correct / N: an unparsed verdict is wrong, as in
	// LFQA-E's scoring script.
	Accuracy float64 `json:"accuracy"`
	// MacroF1 is the mean of the three classes' F1 (A, B, TIE), a class
	// absent from both labels and verdicts counting 0, as in LFQA-E's
	// scoring script. An unparsed verdict is a miss of its label's class.
	MacroF1 float64 `json:"macro_f1"`
	// Classes are each class's precision, recall and F1.
	Classes []ClassFigures `json:"classes"`
	// Ties counts the comparisons labelled same; TieAccuracy is the share
	// of them given TIE (nil when there are none).
	Ties        int      `json:"ties"`
	TieAccuracy *float64 `json:"tie_accuracy"`
	// Unparsed counts the verdicts that could not be read (in N, wrong).
	Unparsed int `json:"unparsed"`
	// Confusion: rows the labels A, B, TIE; columns the verdicts A, B,
	// TIE and unparsed.
	Confusion [3][4]int `json:"confusion"`
}

// ClassFigures are one class's precision, recall and F1; Support counts
// its labels.
type ClassFigures struct {
	Class     Verdict `json:"class"`
	Support   int     `json:"support"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
}

// Figures computes accuracy, macro-F1 and the tie subset's accuracy.
func (t Tally) Figures() Figures {
	f := Figures{Confusion: t.Confusion}
	var f1s float64
	for c, class := range Classes {
		tp, support, predicted := t.Confusion[c][c], 0, 0
		for v := range 4 {
			support += t.Confusion[c][v]
		}
		for l := range 3 {
			predicted += t.Confusion[l][c]
		}
		f.N += support
		f.Correct += tp
		f.Unparsed += t.Confusion[c][3]
		cf := ClassFigures{Class: class, Support: support, Precision: ratio(tp, predicted), Recall: ratio(tp, support)}
		if cf.Precision+cf.Recall > 0 {
			cf.F1 = 2 * cf.Precision * cf.Recall / (cf.Precision + cf.Recall)
		}
		f1s += cf.F1
		f.Classes = append(f.Classes, cf)
	}
	f.Accuracy, f.MacroF1 = ratio(f.Correct, f.N), f1s/3
	if f.Ties = f.Classes[2].Support; f.Ties > 0 {
		r := f.Classes[2].Recall
		f.TieAccuracy = &r
	}
	return f
}

// ratio is a/b, 0 when b is 0.
func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Group are figures over every comparison, and by compare_type and by
// topic (type) when the rows have them.
type Group struct {
	Figures
	ByCompareType map[string]Figures `json:"by_compare_type,omitempty"`
	ByType        map[string]Figures `json:"by_type,omitempty"`
}

// grouper tallies verdicts over all comparisons and by their groups.
type grouper struct {
	all                 Tally
	byCompare, byTopic  map[string]*Tally
	hasCompare, hasType bool
}

func newGrouper() *grouper {
	return &grouper{byCompare: map[string]*Tally{}, byTopic: map[string]*Tally{}}
}

func (g *grouper) add(it Item, v Verdict) {
	g.all.Add(it.Label, v)
	addTo(g.byCompare, orNone(it.CompareType), it.Label, v)
	addTo(g.byTopic, orNone(it.Type), it.Label, v)
	g.hasCompare = g.hasCompare || it.CompareType != ""
	g.hasType = g.hasType || it.Type != ""
}

// none names the group of rows without the field.
const none = "(none)"

func orNone(s string) string {
	if s == "" {
		return none
	}
	return s
}

func addTo(m map[string]*Tally, key string, label, v Verdict) {
	t := m[key]
	if t == nil {
		t = &Tally{}
		m[key] = t
	}
	t.Add(label, v)
}

func (g *grouper) group() Group {
	out := Group{Figures: g.all.Figures()}
	if g.hasCompare {
		out.ByCompareType = figuresOf(g.byCompare)
	}
	if g.hasType {
		out.ByType = figuresOf(g.byTopic)
	}
	return out
}

func figuresOf(m map[string]*Tally) map[string]Figures {
	out := make(map[string]Figures, len(m))
	for k, t := range m {
		out[k] = t.Figures()
	}
	return out
}

// sortedKeys are m's keys in order, "(none)" last.
func sortedKeys(m map[string]Figures) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if (keys[i] == none) != (keys[j] == none) {
			return keys[j] == none
		}
		return keys[i] < keys[j]
	})
	return keys
}

// Kappa is Cohen's κ of a square table of two raters' counts
// (table[i][j]: rater one said class i, rater two class j): (po − pe) /
// (1 − pe), po the share they agree on, pe the share expected by chance
// from each rater's marginals. ok is false when it is undefined: no
// counts, or both raters always saying one and the same class (pe = 1).
func Kappa(table [][]int) (k float64, ok bool) {
	n := 0
	rows, cols := make([]int, len(table)), make([]int, len(table))
	agree := 0
	for i, r := range table {
		for j, c := range r {
			n += c
			rows[i] += c
			cols[j] += c
			if i == j {
				agree += c
			}
		}
	}
	if n == 0 {
		return 0, false
	}
	po := float64(agree) / float64(n)
	pe := 0.0
	for i := range rows {
		pe += float64(rows[i]) / float64(n) * float64(cols[i]) / float64(n)
	}
	if math.Abs(1-pe) < 1e-12 {
		return 0, false
	}
	return (po - pe) / (1 - pe), true
}
