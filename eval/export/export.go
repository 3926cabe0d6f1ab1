package export

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/renameio/v2"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/retrieve/evidence"
)

// Format is what an export writes (the --format flag; fixed names).
type Format string

// The formats.
const (
	CSV     Format = "csv"     // one row per record: ids, answers, correctness, tokens, cost, latency
	Parquet Format = "parquet" // the same rows as a Parquet file
	JSONL   Format = "jsonl"   // the same rows, with the question, its passages and the reply, under RAGAS's names too
	TREC    Format = "trec"    // each question's retrieval as a TREC run file
	Qrels   Format = "qrels"   // each question's gold passages as TREC judgments
)

// Formats lists the formats in the order help shows them.
var Formats = []Format{CSV, Parquet, JSONL, TREC, Qrels}

// ParseFormat reads --format.
func ParseFormat(s string) (Format, error) {
	f := Format(strings.ToLower(strings.TrimSpace(s)))
	if slices.Contains(Formats, f) {
		return f, nil
	}
	return "", fmt.Errorf("--format %q: use csv, parquet, jsonl, trec or qrels", s)
}

// Options shape an export.
type Options struct {
	// Modes keeps the records of these modes only (--mode); nil: every
	// mode. A trec export needs one retrieval mode per file: see
	// TRECRuns.
	Modes []string
	// Evidence is the rule by which a passage holds gold evidence, for
	// qrels: eval retrieval's (--threshold); zero values are its
	// defaults.
	Evidence evidence.Options
	// Data and Home say where the runs' dataset and corpus home are now
	// (--data, --home; they apply to every folder); "" finds them where
	// config.json records them, as report and the inspector do (a moved
	// folder included: report.ReadFolder).
	Data, Home string
	// Log receives notes about what an export could not check (a dataset
	// changed since the run, a path found elsewhere than recorded); nil:
	// discarded.
	Log io.Writer
}

func (o Options) log() io.Writer {
	if o.Log == nil {
		return io.Discard
	}
	return o.Log
}

// folder is one run folder, read.
type folder struct {
	path    string       // as given
	cfg     run.Config   // with the dataset and home where they are now
	dataErr error        // the dataset was not found (report.MissingDataError)
	recs    []run.Record // of the modes asked for, in file order
}

// load reads the run folders, keeping the records of the modes asked for.
func load(dirs []string, opt Options) ([]*folder, error) {
	if len(dirs) == 0 {
		return nil, errors.New("no run folder to export: give one or more (the --out of paperlens eval)")
	}
	var out []*folder
	present := map[string]bool{}
	for _, d := range dirs {
		rf, err := run.ReadFolder(d, run.Paths{Data: opt.Data, Home: opt.Home})
		if err != nil {
			return nil, err
		}
		for _, n := range rf.Notes {
			fmt.Fprintln(opt.log(), "note: "+n)
		}
		recs, err := run.Dir(d).Records()
		if err != nil {
			return nil, fmt.Errorf("run folder %s: %w", d, err)
		}
		f := &folder{path: filepath.Clean(d), cfg: rf.Config, dataErr: rf.DataErr}
		for _, r := range recs {
			present[r.Mode] = true
			if len(opt.Modes) == 0 || slices.Contains(opt.Modes, r.Mode) {
				f.recs = append(f.recs, r)
			}
		}
		sortRecords(f.recs)
		out = append(out, f)
	}
	for _, m := range opt.Modes {
		if !present[m] {
			return nil, fmt.Errorf("--mode %s: no record of that mode in %s; the folders hold %s", m, strings.Join(dirs, ", "), strings.Join(sortedModes(present), ", "))
		}
	}
	return out, nil
}

// sortRecords orders records by question id, mode (report order) and
// run: results.jsonl holds them in the order they finished, which
// differs from run to run.
func sortRecords(recs []run.Record) {
	var modes []string
	seen := map[string]bool{}
	for _, r := range recs {
		if !seen[r.Mode] {
			seen[r.Mode] = true
			modes = append(modes, r.Mode)
		}
	}
	mode.Sort(modes)
	pos := map[string]int{}
	for i, m := range modes {
		pos[m] = i
	}
	slices.SortStableFunc(recs, func(a, b run.Record) int {
		return cmp.Or(strings.Compare(a.QuestionID, b.QuestionID), cmp.Compare(pos[a.Mode], pos[b.Mode]), cmp.Compare(a.Run, b.Run))
	})
}

func sortedModes(set map[string]bool) []string {
	var out []string
	for m := range set {
		out = append(out, m)
	}
	mode.Sort(out)
	if len(out) == 0 {
		return []string{"no records"}
	}
	return out
}

// Write writes the run folders dirs in format f to w.
//
// csv, parquet and jsonl hold one row per record (question × mode × run)
// of every folder, in folder order, then by question id, mode (report
// order) and run;
// jsonl reads the questions from the dataset and the passages' texts
// from the corpus that config.json names (see the package doc). trec
// holds one run, so the folders and modes must come to one retrieval
// mode (see TRECRuns; WriteFiles writes one file per run). qrels holds
// the gold passages of every question the folders' records ask.
func Write(w io.Writer, f Format, dirs []string, opt Options) error {
	if _, err := ParseFormat(string(f)); err != nil {
		return err
	}
	fs, err := load(dirs, opt)
	if err != nil {
		return err
	}
	switch f {
	case CSV:
		return writeCSV(w, rowsOf(fs))
	case Parquet:
		return writeParquet(w, rowsOf(fs))
	case JSONL:
		return writeJSONL(w, fs, opt)
	case TREC:
		runs := trecRuns(fs)
		if len(runs) != 1 {
			return oneRunError(runs)
		}
		return writeTREC(w, fs, runs[0])
	}
	return writeQrels(w, fs, opt)
}

// WriteFiles writes the export to the file out (--out), replacing it
// whole, and returns the files written. A trec export of several runs
// (folders × retrieval modes) writes one file per run instead, named
// after out with the run's name before the extension: runs.trec becomes
// runs.bm25.trec, runs.dense.trec, … (runs.FOLDER.bm25.trec with several
// folders).
func WriteFiles(out string, f Format, dirs []string, opt Options) ([]string, error) {
	if f != TREC {
		if err := writeFile(out, func(w io.Writer) error { return Write(w, f, dirs, opt) }); err != nil {
			return nil, err
		}
		return []string{out}, nil
	}
	fs, err := load(dirs, opt)
	if err != nil {
		return nil, err
	}
	runs := trecRuns(fs)
	if len(runs) == 0 {
		return nil, oneRunError(runs)
	}
	if len(runs) == 1 {
		return []string{out}, writeFile(out, func(w io.Writer) error { return writeTREC(w, fs, runs[0]) })
	}
	ext := filepath.Ext(out)
	var written []string
	for _, r := range runs {
		name := strings.TrimSuffix(out, ext) + "." + fileSafe(r.Tag) + ext
		if err := writeFile(name, func(w io.Writer) error { return writeTREC(w, fs, r) }); err != nil {
			return written, err
		}
		written = append(written, name)
	}
	return written, nil
}

// fileSafe is a run's tag as part of a file name.
func fileSafe(tag string) string {
	return strings.NewReplacer("/", ".", ":", "_", "\\", "_").Replace(tag)
}

// writeFile writes a whole file atomically: a failed export leaves the
// old file, or none.
func writeFile(path string, write func(io.Writer) error) error {
	pf, err := renameio.NewPendingFile(path, renameio.WithPermissions(0o644), renameio.WithTempDir(filepath.Dir(path)))
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer pf.Cleanup()
	if err := write(pf); err != nil {
		return err
	}
	if err := pf.CloseAtomicallyReplace(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// questions loads a folder's dataset (config.json's data) by question id,
// noting when it changed since the run.
func (f *folder) questions(opt Options) (map[string]bench.Question, error) {
	if f.dataErr != nil {
		return nil, fmt.Errorf("run folder %s: the questions' text and gold evidence: %w", f.path, f.dataErr)
	}
	qs, _, err := run.LoadQuestions(f.cfg)
	if err != nil {
		return nil, fmt.Errorf("run folder %s: its dataset %s (config.json's data), which holds the questions' text and gold evidence: %w", f.path, f.cfg.Data, err)
	}
	if f.cfg.DataSHA256 != "" {
		if sum, err := run.DataSHA256(f.cfg.Data); err == nil && sum != f.cfg.DataSHA256 {
			fmt.Fprintf(opt.log(), "note: %s changed since the run in %s (SHA-256 %.12s…, then %.12s…): questions and evidence are exported as the file holds them now\n",
				f.cfg.Data, f.path, sum, f.cfg.DataSHA256)
		}
	}
	out := make(map[string]bench.Question, len(qs))
	for _, q := range qs {
		out[q.ID] = q
	}
	for _, r := range f.recs {
		if _, ok := out[r.QuestionID]; !ok {
			return nil, fmt.Errorf("run folder %s: question %s (%s) is not in its dataset %s: restore the dataset the run was made on", f.path, r.QuestionID, r.Mode, f.cfg.Data)
		}
	}
	return out, nil
}

// stores opens the corpora of the run folders read-only, once per home.
type stores map[string]*corpus.Store

func (s stores) open(f *folder) (*corpus.Store, error) {
	if st, ok := s[f.cfg.Home]; ok {
		return st, nil
	}
	if f.cfg.Home == "" {
		return nil, fmt.Errorf("run folder %s: config.json names no home, whose corpus holds the passages", f.path)
	}
	if _, err := os.Stat(filepath.Join(f.cfg.Home, corpus.FileName)); err != nil {
		return nil, fmt.Errorf("run folder %s: the corpus of its home %s, which holds the passages: %w", f.path, f.cfg.Home, err)
	}
	st, err := corpus.Open(f.cfg.Home, true)
	if err != nil {
		return nil, fmt.Errorf("run folder %s: the corpus of its home %s: %w", f.path, f.cfg.Home, err)
	}
	s[f.cfg.Home] = st
	return st, nil
}

func (s stores) close() {
	for _, st := range s {
		st.Close()
	}
}

// passages gives a paper's passages from a folder's corpus, refusing
// one cut at another passage size than the run's (its passage ids
// would name other text).
func passagesOf(st *corpus.Store, f *folder) func(string) ([]corpus.Passage, error) {
	return func(paper string) ([]corpus.Passage, error) {
		if d, err := st.Doc(paper); err == nil && f.cfg.MaxPassageTokens > 0 && d.MaxTokens > 0 && d.MaxTokens != f.cfg.MaxPassageTokens {
			return nil, fmt.Errorf("run folder %s: paper %s is now cut into passages of %d tokens in %s, the run's were %d: its passage ids name other text; ingest it again with --passage-tokens %d",
				f.path, paper, d.MaxTokens, f.cfg.Home, f.cfg.MaxPassageTokens, f.cfg.MaxPassageTokens)
		}
		return st.Passages(paper)
	}
}
