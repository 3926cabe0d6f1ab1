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
	// records than results.jsonl holds (a resumed run was stopped).
	Recomputed bool
}

// Options configure Load.
type Options struct {
	// Paths override config.json's dataset and corpus home.
	run.Paths
	// Log receives notes: a path found elsewhere than recorded, a dataset
	// that changed since the run, a summary computed from the records.
	Log io.Writer
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
	var out []Run
	for _, dir := range dirs {
		r, err := loadOne(dir, opt.Paths, logw)
		if err != nil {
			return nil, fmt.Errorf("report: run folder %s: %w", dir, err)
		}
		out = append(out, r)
	}
	return out, nil
}

func loadOne(dir string, over run.Paths, logw io.Writer) (Run, error) {
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

	// Summarise from the records, as eval would have at the end.
	r.Recomputed = true
	cfg := folder.Config
	qs, _, qerr := folder.Questions()
	if qerr != nil {
		fmt.Fprintf(logw, "%s: %v; counting only the questions its records name\n", dir, qerr)
	} else if w := folder.DataChanged(); w != "" {
		fmt.Fprintln(logw, "warning: "+w)
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
