package run

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
)

// Paths override what a run's config.json records (the --data and --home
// flags of inspect, serve and report); empty fields keep the recorded ones.
type Paths struct {
	Data string
	Home string
}

// Folder is a run folder's config.json with its paths made usable from the
// current directory.
type Folder struct {
	Dir string
	// Config is config.json with Data, Home and Papers replaced by the
	// paths that were found (or by the overrides).
	Config Config
	// Notes say which path was used where config.json's did not work as
	// written; readers print them so a guessed path is never silent.
	Notes []string
	// DataErr is a *MissingDataError when the dataset was not found.
	DataErr error
	// dataSHA is config.json's data_sha256: runs made before eval recorded
	// it have none, and then a changed dataset cannot be told.
	dataSHA string
}

// MissingDataError says the dataset a run names (or --data gave) is not
// there, with every path tried.
type MissingDataError struct {
	Dir      string   // the run folder
	Recorded string   // config.json's data, or the --data value
	Override bool     // Recorded came from --data
	Tried    []string // in the order tried
}

func (e *MissingDataError) Error() string {
	if e.Override {
		return fmt.Sprintf("--data %s: file not found; give the dataset the run in %s was made with", e.Recorded, e.Dir)
	}
	return fmt.Sprintf("dataset file %s (config.json of %s) not found: tried %s; pass --data FILE to say where it is now",
		e.Recorded, e.Dir, strings.Join(e.Tried, ", "))
}

// Unwrap lets errors.Is(err, fs.ErrNotExist) recognise it.
func (e *MissingDataError) Unwrap() error { return os.ErrNotExist }

// ReadFolder reads dir/config.json and resolves the dataset, papers and
// corpus home it names. It fails only when config.json is missing or not
// JSON; a dataset that cannot be found is reported in DataErr, since a
// run's records can be read without it.
//
// A relative path is tried as written (relative to the current directory)
// and then relative to the directory eval ran in, which is not recorded in
// runs made before eval wrote absolute paths: it is guessed from the run
// folder's recorded out path, then taken as the run folder's parent and
// grandparent (runs/NAME under the project is the usual layout). An
// absolute path that is gone is tried where it sits relative to the run
// folder's recorded absolute out path, for a project moved or copied
// whole.
func ReadFolder(dir string, over Paths) (*Folder, error) {
	cfg, err := Dir(dir).ReadConfig()
	if err != nil {
		return nil, err
	}
	f := &Folder{Dir: dir, Config: cfg}
	// Runs made before eval recorded the hash have none.
	f.dataSHA = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(cfg.DataSHA256), "sha256:"))

	loc := newLocator(dir, f.Config.Out)
	isFile := func(p string) bool { fi, err := os.Stat(p); return err == nil && !fi.IsDir() }
	isDir := func(p string) bool { fi, err := os.Stat(p); return err == nil && fi.IsDir() }
	isHome := func(p string) bool { return isFile(filepath.Join(p, corpus.FileName)) }

	switch {
	case over.Data != "":
		f.Config.Data = over.Data
		if !isFile(over.Data) {
			f.DataErr = &MissingDataError{Dir: dir, Recorded: over.Data, Override: true, Tried: []string{over.Data}}
		}
	case f.Config.Data != "":
		p, tried, ok := loc.resolve(f.Config.Data, isFile)
		if !ok {
			f.DataErr = &MissingDataError{Dir: dir, Recorded: f.Config.Data, Tried: tried}
		} else if p != f.Config.Data {
			f.Notes = append(f.Notes, fmt.Sprintf("%s: dataset %s not found as config.json records it; using %s (--data FILE to choose another)", dir, f.Config.Data, p))
			f.Config.Data = p
		}
	default:
		f.DataErr = &MissingDataError{Dir: dir, Recorded: "(none)", Tried: nil}
	}

	if over.Home != "" {
		f.Config.Home = over.Home
	} else if f.Config.Home != "" {
		if p, _, ok := loc.resolve(f.Config.Home, isHome); ok && p != f.Config.Home {
			f.Notes = append(f.Notes, fmt.Sprintf("%s: corpus home %s not found as config.json records it; using %s (--home DIR to choose another)", dir, f.Config.Home, p))
			f.Config.Home = p
		}
	}
	// Readers never parse the PDFs again, but the path is shown and used to
	// pair runs, so it gets the same treatment.
	if f.Config.Papers != "" {
		if p, _, ok := loc.resolve(f.Config.Papers, isDir); ok {
			f.Config.Papers = p
		}
	}
	return f, nil
}

// locator finds the paths a config.json records from where the run folder
// is now.
type locator struct {
	// bases are, most precise first, the directories eval may have run
	// in: where the recorded out path, taken relative, ends at the run
	// folder; then its parent and grandparent.
	bases []string
	// dir is the run folder's absolute path, out the recorded one when
	// absolute and elsewhere (the folder moved).
	dir, out string
}

func newLocator(dir, out string) locator {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return locator{}
	}
	l := locator{dir: abs}
	if filepath.IsAbs(out) && filepath.Clean(out) != abs {
		l.out = filepath.Clean(out)
	}
	var bases []string
	add := func(p string) {
		if !slices.Contains(bases, p) {
			bases = append(bases, p)
		}
	}
	if out != "" && !filepath.IsAbs(out) {
		o := filepath.Clean(out)
		up := o == ".." || strings.HasPrefix(o, ".."+string(filepath.Separator))
		if o != "." && !up && strings.HasSuffix(abs, string(filepath.Separator)+o) {
			add(strings.TrimSuffix(abs, string(filepath.Separator)+o))
		}
	}
	parent := filepath.Dir(abs)
	add(parent)
	add(filepath.Dir(parent))
	l.bases = bases
	return l
}

// resolve finds p as written, then (when relative) under each base, or
// (when absolute) where it sits relative to the moved run folder.
func (l locator) resolve(p string, ok func(string) bool) (string, []string, bool) {
	tried := []string{p}
	if ok(p) {
		return p, tried, true
	}
	var more []string
	if !filepath.IsAbs(p) {
		for _, b := range l.bases {
			more = append(more, filepath.Join(b, p))
		}
	} else if l.out != "" {
		if rel, err := filepath.Rel(l.out, p); err == nil {
			more = append(more, filepath.Join(l.dir, rel))
		}
	}
	for _, q := range more {
		if slices.Contains(tried, q) {
			continue
		}
		tried = append(tried, q)
		if ok(q) {
			return q, tried, true
		}
	}
	return p, tried, false
}

// Questions loads the run's dataset as the run did: the same format and
// field map, its labels joined, the first Limit questions. Problems are
// the rows the loader reported; a labels file no longer readable is one
// of them, not an error (the records keep the labels they were made
// with).
func (f *Folder) Questions() ([]bench.Question, []bench.Problem, error) {
	if f.DataErr != nil {
		return nil, nil, f.DataErr
	}
	c := f.Config
	c.Labels = ""
	qs, problems, err := LoadQuestions(c)
	if err != nil {
		return nil, problems, fmt.Errorf("%s: %w", f.Config.Data, err)
	}
	if path := f.Config.Labels; path != "" {
		if l, err := ReadLabels(path); err != nil {
			problems = append(problems, bench.Problem{File: path, Msg: err.Error() + "; the records keep the labels they were made with"})
		} else {
			problems = append(problems, labelProblems(l.Apply(qs))...)
		}
	}
	if f.Config.Limit > 0 && len(qs) > f.Config.Limit {
		qs = qs[:f.Config.Limit]
	}
	return qs, problems, nil
}

// DataChanged returns a warning when config.json recorded the dataset's
// sha256 and the file found now differs: question texts, gold answers and
// evidence shown beside the records may then not be the ones scored. It
// returns "" when the hashes match, when the run recorded none, or when
// the file cannot be read (DataErr already says so).
func (f *Folder) DataChanged() string {
	if f.dataSHA == "" || f.DataErr != nil {
		return ""
	}
	h, err := DataSHA256(f.Config.Data)
	if err != nil || h == f.dataSHA {
		return ""
	}
	return fmt.Sprintf("%s: dataset %s changed since the run (sha256 %.12s…, the run recorded %.12s…): question texts and gold answers shown may differ from those scored",
		f.Dir, f.Config.Data, h, f.dataSHA)
}
