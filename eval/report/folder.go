package report

import (
	"fmt"
	"slices"

	"github.com/paperlens/paperlens/eval/run"
)

// Progress is how many records a run folder holds against how many the
// finished run has (questions × modes × runs).
type Progress struct {
	Records, Expected      int
	Questions, Modes, Runs int
	// Guessed: the dataset could not be read, so Questions counts the ids
	// the records name and Expected is a lower bound.
	Guessed bool
	// NoSummary: the folder has no summary.json, which eval writes last:
	// the run is still going or was stopped before the end.
	NoSummary bool
}

// CountProgress counts the records of the given modes and runs 1..runs
// against questions × modes × runs.
func CountProgress(recs []run.Record, questions int, modes []string, runs int) Progress {
	p := Progress{Questions: questions, Modes: len(modes), Runs: runs, Expected: questions * len(modes) * runs}
	for _, r := range recs {
		if r.Run >= 1 && r.Run <= runs && slices.Contains(modes, r.Mode) {
			p.Records++
		}
	}
	return p
}

// Incomplete reports whether records are missing.
func (p Progress) Incomplete() bool { return p.Records < p.Expected }

// String says what is missing, e.g. "incomplete: 12 of 60 records (10
// questions × 2 modes × 3 runs)"; "" when nothing is.
func (p Progress) String() string {
	if !p.Incomplete() {
		return ""
	}
	return "incomplete: " + p.Detail()
}

// Detail is String without its "incomplete: ".
func (p Progress) Detail() string {
	if !p.Incomplete() {
		return ""
	}
	of := fmt.Sprint(p.Expected)
	if p.Guessed {
		of = "at least " + of
	}
	s := fmt.Sprintf("%d of %s records (%d questions × %d modes × %d runs", p.Records, of, p.Questions, p.Modes, p.Runs)
	if p.Guessed {
		s += "; the dataset was not found, so only the questions the records name are counted"
	}
	s += ")"
	if p.NoSummary {
		s += "; no summary.json: the run is still going or was stopped before the end (rerun the same eval command to finish)"
	}
	return s
}
