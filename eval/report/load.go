package report

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/run"
)

// Run is one run folder: its summary, its records and its config.
type Run struct {
	Dir     string
	Summary run.Summary
	Records []run.Record
	// Config is config.json with its paths resolved (see run.ReadFolder),
	// zero when the folder has none: the summary does not name the
	// dataset, and reasoning flips pair runs only on the same data.
	Config run.Config
	// Progress counts the records against questions × modes × runs;
	// Expected is 0 when the folder has no records to count.
	Progress Progress
	// Recomputed: the summary was computed here from the records, because
	// summary.json is missing (the run was stopped) or counts fewer
	// records than results.jsonl holds (a resumed run was stopped), or
	// because --labels changed the records' breakdowns.
	Recomputed bool
}

// Options configure Load.
type Options struct {
	// Paths override config.json's dataset and corpus home.
	run.Paths
	// Log receives notes: a path found elsewhere than recorded, a dataset
	// that changed since the run, a summary computed from the records.
	Log io.Writer
	// Labels is a labels file (report --labels; see run.Labels) joined to
	// every run's records over the labels it was made with; the runs are
	// then summarised from their records. "" for none.
	Labels string
}

// Load reads run folders with no overrides and no notes; see LoadWith.
func Load(dirs ...string) ([]Run, error) { return LoadWith(Options{}, dirs...) }

// LoadWith reads summary.json, results.jsonl and config.json of each run
// folder. Without records the reasoning-length and reasoning-flip sections
// have no data; without a config runs are paired by bench name. A folder
// without summary.json (a run killed before the end) is summarised from
// its records, over the questions of its dataset, or over the questions
// the records name when the dataset cannot be read; it then needs its
// config.json.
func LoadWith(opt Options, dirs ...string) ([]Run, error) {
	if len(dirs) == 0 {
		return nil, errors.New("report: no run folders given")
	}
	logw := opt.Log
	if logw == nil {
		logw = io.Discard
	}
	var lab *labelJoin
	if opt.Labels != "" {
		l, err := run.ReadLabels(opt.Labels)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		lab = &labelJoin{labels: l, missed: map[int]run.LabelMiss{}, misses: map[int]int{}}
	}
	var out []Run
	for _, dir := range dirs {
		r, err := loadOne(dir, opt.Paths, logw, lab)
		if err != nil {
			return nil, fmt.Errorf("report: run folder %s: %w", dir, err)
		}
		out = append(out, r)
	}
	lab.report(logw)
	return out, nil
}

func loadOne(dir string, over run.Paths, logw io.Writer, lab *labelJoin) (Run, error) {
	r := Run{Dir: dir}
	d := run.Dir(dir)
	recs, err := d.Records()
	if err != nil {
		return r, err
	}
	r.Records = recs
	var folder *run.Folder
	if ok, err := d.HasConfig(); err != nil {
		return r, err
	} else if ok {
		if folder, err = run.ReadFolder(dir, over); err != nil {
			return r, err
		}
		r.Config = folder.Config
		for _, n := range folder.Notes {
			fmt.Fprintln(logw, n)
		}
	}

	r.Summary, err = d.ReadSummary()
	if lab != nil && len(recs) > 0 && (err == nil || errors.Is(err, os.ErrNotExist)) {
		if folder != nil {
			return recompute(r, folder, err, logw, lab)
		}
		fmt.Fprintf(logw, "%s: no config.json, so --labels %s is not joined to its records\n", dir, lab.labels.Path)
	}
	switch {
	case err == nil:
		if len(recs) == 0 {
			return r, nil // records not kept: nothing to count
		}
		r.Progress = CountProgress(recs, r.Summary.Questions, r.Summary.Modes, r.Summary.Runs)
		n := summarised(r.Summary)
		if n == 0 || n == r.Progress.Records || folder == nil {
			return r, nil
		}
		fmt.Fprintf(logw, "%s: summary.json covers %d records, results.jsonl holds %d (the run was resumed and stopped again); summarising from the records\n", dir, n, r.Progress.Records)
	case errors.Is(err, os.ErrNotExist):
		if folder == nil {
			return r, errors.New("neither summary.json nor config.json: not a run folder (paperlens eval --out DIR writes one)")
		}
	default:
		return r, err
	}

	return recompute(r, folder, err, logw, nil)
}

// recompute summarises a run from its records, as eval would have at the
// end (summaryErr is what reading summary.json gave: os.ErrNotExist marks
// a run stopped before it). lab, when set, joins its labels to the
// records first, over the questions the dataset gives (by text hash too)
// or, failing it, those the records name (by id only).
func recompute(r Run, folder *run.Folder, summaryErr error, logw io.Writer, lab *labelJoin) (Run, error) {
	dir, recs, err := r.Dir, r.Records, summaryErr
	r.Recomputed = true
	cfg := folder.Config
	qs, _, qerr := folder.Questions()
	if qerr != nil {
		fmt.Fprintf(logw, "%s: %v; counting only the questions its records name\n", dir, qerr)
	} else if w := folder.DataChanged(); w != "" {
		fmt.Fprintln(logw, "warning: "+w)
	}
	if lab != nil {
		join := qs
		if qerr != nil {
			join = questionsFromRecords(recs)
		}
		lab.join(join, recs)
	}
	// Records of questions the dataset lacks still count (it may have
	// changed), as do modes and runs config.json does not list.
	known := map[string]bool{}
	for _, q := range qs {
		known[q.ID] = true
	}
	extraModes := map[string]bool{}
	for _, rec := range recs {
		if !slices.Contains(cfg.Modes, rec.Mode) {
			extraModes[rec.Mode] = true
		}
		cfg.Runs = max(cfg.Runs, rec.Run)
	}
	extra := slices.Collect(maps.Keys(extraModes))
	mode.Sort(extra)
	cfg.Modes = append(slices.Clone(cfg.Modes), extra...)
	for _, q := range questionsFromRecords(recs) {
		if !known[q.ID] {
			qs = append(qs, q)
		}
	}
	r.Summary = run.Summarize(cfg, qs, recs)
	r.Progress = CountProgress(recs, run.PerRun(qs), cfg.Modes, cfg.Runs)
	r.Progress.Guessed = qerr != nil
	r.Progress.NoSummary = errors.Is(err, os.ErrNotExist)
	return r, nil
}

// summarised is how many records summary.json was computed over; 0 for
// summaries written before it counted them.
func summarised(s run.Summary) int {
	n := 0
	for _, m := range s.Modes {
		n += s.ByMode[m].Records
	}
	return n
}

// questionsFromRecords stands in for a dataset that cannot be read: one
// question per distinct id, in the order the records first name them, with
// what the records know (Summarize needs only the ids).
func questionsFromRecords(recs []run.Record) []bench.Question {
	seen := map[string]bool{}
	var qs []bench.Question
	for _, r := range recs {
		if !seen[r.QuestionID] {
			seen[r.QuestionID] = true
			qs = append(qs, bench.Question{ID: r.QuestionID, PaperID: r.PaperID, Type: r.QuestionType, Answer: r.Gold, Breakdown: r.Breakdown})
		}
	}
	return qs
}

// labelJoin is report --labels across the runs: the file, and per row
// that labelled nothing in some run, what it missed, so that a row no
// run matched is reported once.
type labelJoin struct {
	labels *run.Labels
	runs   int                   // runs joined
	missed map[int]run.LabelMiss // by line: the row's miss in the first run that missed it
	misses map[int]int           // by line: how many runs it missed in
}

// join sets the labels over the records of the questions they name
// (records is the run's slice, changed in place).
func (l *labelJoin) join(qs []bench.Question, recs []run.Record) {
	by, misses := l.labels.Join(qs)
	run.Relabel(recs, by)
	l.runs++
	for _, m := range misses {
		if _, ok := l.missed[m.Line]; !ok {
			l.missed[m.Line] = m
		}
		l.misses[m.Line]++
	}
}

// report writes the rows that labelled nothing in any run.
func (l *labelJoin) report(logw io.Writer) {
	if l == nil || l.runs == 0 {
		return
	}
	for _, line := range slices.Sorted(maps.Keys(l.missed)) {
		if l.misses[line] == l.runs {
			fmt.Fprintln(logw, l.missed[line].String())
		}
	}
}
