package judgecheck

import (
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"
)

// WriteText writes the summary as tables, for a terminal (the caller
// escapes it: compare_type and type values come from the file).
func (s Summary) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("judge-check: %d comparisons of %s (labels: A %d, B %d, TIE %d)\n\n",
		s.Comparisons, filepath.Base(s.File), s.Labels[A], s.Labels[B], s.Labels[Tie])
	tw := tabwriter.NewWriter(ew, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "\tn\taccuracy\tmacro-F1\ttie accuracy\tunparsed")
	if j := s.Judge; j != nil {
		writeGroup(tw, "judge "+j.Model, j.Group)
		if j.Swapped != nil {
			writeGroup(tw, "judge, answers swapped", *j.Swapped)
		}
	}
	writeGroup(tw, "length (longer wins)", s.Static.Length)
	writeGroup(tw, "ROUGE-L vs reference", s.Static.RougeL)
	if err := tw.Flush(); err != nil {
		return err
	}
	if j := s.Judge; j != nil {
		if c := j.Consistency; c != nil {
			ew.printf("\nposition consistency: %s of %d comparisons judged both ways with both verdicts read (%d left out, a verdict unparsed); of the others, the answer shown first chosen both times %d, shown second %d\n",
				pct(c.Rate, c.N), c.N, c.Unparsed, c.FirstShown, c.SecondShown)
		}
		if j.Missing > 0 {
			ew.printf("\n%d judgments missing (failed, with their errors in %s): run the same command again to retry them\n", j.Missing, ResultsFile)
		}
	}
	if a := s.Vs; a != nil {
		ew.printf("\nagreement with judge %s (%s): Cohen's κ %s, verdicts equal %s, over %d comparisons (%d left out: a verdict missing or unparsed)\n",
			a.JudgeModel, a.Dir, kappaText(a.Kappa), pct(a.Rate, a.N), a.N, a.LeftOut)
	}
	if s.Dir != "" {
		ew.printf("\nsummary in %s", filepath.Join(s.Dir, SummaryFile))
		if s.Judge != nil {
			ew.printf(", each judgment in %s", filepath.Join(s.Dir, ResultsFile))
		}
		ew.printf("\n")
	}
	return ew.err
}

// writeGroup writes a group's row and a row per compare_type and topic.
func writeGroup(w io.Writer, name string, g Group) {
	writeRow(w, name, g.Figures)
	for _, k := range sortedKeys(g.ByCompareType) {
		writeRow(w, "  "+k, g.ByCompareType[k])
	}
	for _, k := range sortedKeys(g.ByType) {
		writeRow(w, "  type "+k, g.ByType[k])
	}
}

func writeRow(w io.Writer, name string, f Figures) {
	tie := "-"
	if f.TieAccuracy != nil {
		tie = pct(*f.TieAccuracy, f.Ties)
	}
	macro := "-"
	if f.N > 0 {
		macro = fmt.Sprintf("%.1f", 100*f.MacroF1)
	}
	fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%s\t%d\n", name, f.N, pct(f.Accuracy, f.N), macro, tie, f.Unparsed)
}

// pct is x as a percentage, "-" over nothing.
func pct(x float64, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}

func kappaText(k *float64) string {
	if k == nil {
		return "undefined"
	}
	return fmt.Sprintf("%.3f", *k)
}

// WriteText writes the agreement as a sentence and a table.
func (a LPFQAAgreement) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("judge-check --lpfqa %s: judge %s against letter extraction (rules version %s) on %d judged multiple-choice records\n",
		a.Dir, a.JudgeModel, a.Extractor, a.N)
	ew.printf("verdicts equal %s (%d of %d), Cohen's κ %s\n\n", pct(a.Rate, a.N), a.Agree, a.N, kappaText(a.Kappa))
	tw := tabwriter.NewWriter(ew, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "\textraction right\textraction wrong")
	fmt.Fprintf(tw, "judge right\t%d\t%d\n", a.Confusion[0][0], a.Confusion[0][1])
	fmt.Fprintf(tw, "judge wrong\t%d\t%d\n", a.Confusion[1][0], a.Confusion[1][1])
	if err := tw.Flush(); err != nil {
		return err
	}
	ew.printf("\n%d replies held no letters (wrong for extraction); left out: %d judge replies without a readable score, %d records with an error\n",
		a.ExtractionMisses, a.JudgeUnreadable, a.Errors)
	return ew.err
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func (e *errWriter) printf(format string, args ...any) { fmt.Fprintf(e, format, args...) }
