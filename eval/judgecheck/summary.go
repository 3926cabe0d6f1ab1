package judgecheck

import (
	"fmt"
)

// Summary is what a judge-check found: summary.json, and what --json
// prints.
type Summary struct {
	Kind       string `json:"kind"`
	Schema     int    `json:"schema"`
	File       string `json:"file"`
	FileSHA256 string `json:"file_sha256"`
	// Comparisons counts the comparisons checked (the file's first
	// --limit), Labels them by label (A, B, TIE).
	Comparisons int             `json:"comparisons"`
	Labels      map[Verdict]int `json:"labels"`
	// Judge is the judge's figures; nil without a judge (--static-only).
	Judge *JudgeFigures `json:"judge,omitempty"`
	// Static are the length and ROUGE-L baselines, computed with no model.
	Static Static `json:"static"`
	// Vs is the agreement with another judge (--vs).
	Vs *Agreement `json:"vs,omitempty"`
	// Dir is the output folder; "" when none was written.
	Dir string `json:"-"`
}

// JudgeFigures are a judge's figures.
type JudgeFigures struct {
	Model string `json:"model"`
	// Group are the figures of the first judgment of each comparison (the
	// answers in the file's order), as LFQA-E asks.
	Group
	// Swapped are the figures of the judgments with the answers swapped,
	// their verdicts swapped back (--swap); nil without.
	Swapped *Group `json:"swapped,omitempty"`
	// Consistency is the position consistency (--swap); nil without.
	Consistency *Consistency `json:"position_consistency,omitempty"`
	// Missing counts the judgments not made: failed (their errors are in
	// results.jsonl, and the next run retries them) or not reached.
	Missing int `json:"missing"`
}

// Consistency is how often a judge gives the same verdict with the
// answers swapped.
type Consistency struct {
	// N counts the comparisons judged in both orders with both verdicts
	// read; Consistent those whose verdicts agree once the swapped one is
	// swapped back. Rate is Consistent / N.
	N          int     `json:"n"`
	Consistent int     `json:"consistent"`
	Rate       float64 `json:"rate"`
	// Unparsed counts the comparisons judged in both orders that are left
	// out because a verdict could not be read.
	Unparsed int `json:"unparsed"`
	// FirstShown and SecondShown count the inconsistent comparisons where
	// the judge chose the answer shown first (or second) both times: a
	// position bias.
	FirstShown  int `json:"first_shown"`
	SecondShown int `json:"second_shown"`
}

// Agreement is how two judges agree on the same comparisons (--vs).
type Agreement struct {
	Dir        string `json:"dir"`
	JudgeModel string `json:"judge_model"`
	// N counts the comparisons both judges gave a readable verdict (the
	// first judgment of each); Agree those where the verdicts are equal.
	N     int     `json:"n"`
	Agree int     `json:"agree"`
	Rate  float64 `json:"rate"`
	// Kappa is Cohen's κ over A, B and TIE; nil when undefined.
	Kappa *float64 `json:"kappa"`
	// Confusion[this judge's verdict][the other's]: A, B, TIE.
	Confusion [3][3]int `json:"confusion"`
	// Left out: comparisons one of the judges has no verdict for (not
	// judged, or unparsed).
	LeftOut int `json:"left_out"`
}

func newSummary(file, sha string, items []Item) Summary {
	s := Summary{Kind: Kind, Schema: SchemaVersion, File: file, FileSHA256: sha, Comparisons: len(items),
		Labels: map[Verdict]int{A: 0, B: 0, Tie: 0}, Static: StaticFigures(items)}
	for _, it := range items {
		s.Labels[it.Label]++
	}
	return s
}

// setJudge computes the judge's figures from its records.
func (s *Summary) setJudge(name string, items []Item, recs []Record, swap bool) {
	by := map[recordKey]Record{}
	for _, r := range recs {
		by[r.key()] = r
	}
	first, second := newGrouper(), newGrouper()
	j := &JudgeFigures{Model: name}
	var c Consistency
	for _, it := range items {
		ab, okAB := by[recordKey{it.ID, OrderAB}]
		ba, okBA := by[recordKey{it.ID, OrderBA}]
		if okAB {
			first.add(it, ab.Verdict)
		} else {
			j.Missing++
		}
		if !swap {
			continue
		}
		if okBA {
			second.add(it, ba.Verdict)
		} else {
			j.Missing++
		}
		if okAB && okBA {
			c.add(ab, ba)
		}
	}
	j.Group = first.group()
	if swap {
		g := second.group()
		c.Rate = ratio(c.Consistent, c.N)
		j.Swapped, j.Consistency = &g, &c
	}
	s.Judge = j
}

// add counts a comparison judged both ways.
func (c *Consistency) add(ab, ba Record) {
	if ab.Unparsed || ba.Unparsed {
		c.Unparsed++
		return
	}
	c.N++
	switch {
	case ab.Verdict == ba.Verdict:
		c.Consistent++
	case ab.Said == A && ba.Said == A:
		c.FirstShown++
	case ab.Said == B && ba.Said == B:
		c.SecondShown++
	}
}

// vs is the agreement between this judge's records and those of the
// judge-check folder dir, on the same file.
func vs(dir, sha string, items []Item, recs []Record) (*Agreement, error) {
	d := Folder(dir)
	cfg, err := d.ReadConfig()
	if err != nil {
		return nil, fmt.Errorf("--vs: %w", err)
	}
	if cfg.FileSHA256 != sha {
		return nil, fmt.Errorf("--vs %s: that check was made on another file (%s, SHA-256 %.12s…): give a folder made on the same file", dir, cfg.File, cfg.FileSHA256)
	}
	other, err := d.Records()
	if err != nil {
		return nil, fmt.Errorf("--vs: %w", err)
	}
	theirs := verdicts(other)
	mine := verdicts(recs)
	a := &Agreement{Dir: dir, JudgeModel: cfg.JudgeModel}
	for _, it := range items {
		x, y := mine[it.ID], theirs[it.ID]
		if x == "" || y == "" {
			a.LeftOut++
			continue
		}
		a.N++
		a.Confusion[x.index()][y.index()]++
		if x == y {
			a.Agree++
		}
	}
	a.Rate = ratio(a.Agree, a.N)
	if k, ok := Kappa(square(a.Confusion)); ok {
		a.Kappa = &k
	}
	return a, nil
}

// verdicts are the readable verdicts of the first judgments, by id.
func verdicts(recs []Record) map[string]Verdict {
	out := map[string]Verdict{}
	for _, r := range recs {
		if r.Order == OrderAB && r.Error == "" && !r.Unparsed {
			out[r.ID] = r.Verdict
		}
	}
	return out
}

func square(t [3][3]int) [][]int {
	out := make([][]int, 3)
	for i := range t {
		out[i] = t[i][:]
	}
	return out
}
