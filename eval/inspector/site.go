package inspector

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/paperlens/paperlens/eval/bench"
	// Aliased: the benchmarks declare a func report.
	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/protocol"
	runfolder "github.com/paperlens/paperlens/eval/report"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/retrieve/evidence"
)

// Options configure a Site.
type Options struct {
	// Home overrides the corpus home recorded in each run's config.json
	// (use it when the run folder was moved to another machine).
	Home string
	// Data overrides the dataset recorded in each run's config.json.
	Data string
	// Log receives problems met while loading (a missing dataset, a corpus
	// that is locked); pages still render what is there.
	Log io.Writer
	// Recheck is how often a run's results file is checked for new records
	// (default 2s): a large run takes a while to re-read, so a run still
	// being written is not re-read on every page.
	Recheck time.Duration
}

// Site is the set of runs the inspector serves. It holds only the runs it
// was given: every page is looked up by run number and by ids present in
// those runs, never by a path taken from the request.
type Site struct {
	opt    Options
	mu     sync.Mutex
	runs   []*Run
	papers *paperCache
	// sticky are the problems found only at start (the corpus, a dataset
	// changed since the run), by run id, kept across reloads.
	sticky map[string][]string
}

// Run is one run folder, loaded.
type Run struct {
	ID       string // "1", "2", ... in the order given
	Dir      string
	Name     string
	Config   run.Config
	Summary  run.Summary
	Modes    []string
	Fields   []string // breakdown fields present
	Types    []string
	Problems []string // shown on the run's pages
	// Progress counts the records against questions × modes × runs, so a
	// run still going or stopped early says so.
	Progress runfolder.Progress

	Questions []*Question // dataset order, then ids only the records know
	byID      map[string]*Question
	byPaper   map[string][]*Question
	home      string
	stamp     fileStamp
	checked   time.Time
	started   time.Time // config.json's time: written when the run (last) started
	reloading bool
}

// Question is one question with its records, by mode.
type Question struct {
	bench.Question
	Index   int                     // position in Run.Questions
	Records map[string][]run.Record // by mode, in run order
	Share   map[string]float64      // share of scored records that are correct, by mode (-1: none scored)
	gold    *evidence.Gold
	once    sync.Once // requests run concurrently; the gold is parsed once
}

// Gold is the question's parsed evidence (nil when it has none).
func (q *Question) Gold() *evidence.Gold {
	q.once.Do(func() {
		if strings.TrimSpace(q.Evidence) != "" {
			q.gold = evidence.ParseGold(q.Evidence, evidence.Options{})
		}
	})
	return q.gold
}

type fileStamp struct {
	size int64
	mod  time.Time
}

func stampOf(dir string) fileStamp {
	fi, err := run.Dir(dir).RecordsStat()
	if err != nil {
		return fileStamp{}
	}
	return fileStamp{fi.Size(), fi.ModTime()}
}

// Load reads the run folders. A folder that is not a run (no config.json)
// is an error; a run whose dataset or corpus is missing loads with a
// problem noted, and its pages show records without question or passage text.
func Load(dirs []string, opt Options) (*Site, error) {
	if len(dirs) == 0 {
		return nil, errors.New("no run folders given")
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	if opt.Recheck <= 0 {
		opt.Recheck = 2 * time.Second
	}
	s := &Site{opt: opt, papers: newPaperCache(), sticky: map[string][]string{}}
	for i, d := range dirs {
		r, err := s.loadRun(strconv.Itoa(i+1), d, opt.Log)
		if err != nil {
			return nil, err
		}
		s.runs = append(s.runs, r)
	}
	// Read every paper the runs refer to once, up front, and release the
	// corpus lock at once: an ingest or eval may want to write meanwhile.
	for _, r := range s.runs {
		ids := make([]string, 0, len(r.byPaper))
		for p := range r.byPaper {
			ids = append(ids, p)
		}
		if err := s.papers.preload(r.home, ids); err != nil {
			msg := fmt.Sprintf("passages not shown: %v", err)
			r.Problems = append(r.Problems, msg)
			s.sticky[r.ID] = append(s.sticky[r.ID], msg)
			fmt.Fprintf(opt.Log, "%s: %s\n", r.Dir, msg)
		}
	}
	return s, nil
}

// Runs returns the runs, reloading any whose results file changed since it
// was read (so a run still going can be watched). A reload of a large run
// takes a while, so it happens outside the lock, one at a time per run,
// while other requests keep getting the previous version.
func (s *Site) Runs() []*Run {
	s.mu.Lock()
	var stale []*Run
	for _, r := range s.runs {
		if r.reloading || time.Since(r.checked) < s.opt.Recheck {
			continue
		}
		r.checked = time.Now()
		if stampOf(r.Dir) != r.stamp {
			r.reloading = true
			stale = append(stale, r)
		}
	}
	s.mu.Unlock()
	for _, old := range stale {
		// Notes were printed at start; a run being written reloads often.
		nr, err := s.loadRun(old.ID, old.Dir, nil)
		s.mu.Lock()
		old.reloading = false
		if err == nil {
			nr.Problems = append(nr.Problems, s.sticky[old.ID]...)
			for i, r := range s.runs {
				if r == old {
					s.runs[i] = nr
				}
			}
		}
		s.mu.Unlock()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Run(nil), s.runs...)
}

// Run returns the run with the given number, or nil.
func (s *Site) Run(id string) *Run {
	for _, r := range s.Runs() {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// loadRun reads a run folder; notes (paths found elsewhere than recorded,
// a changed dataset, problem rows) go to logw, nil on reloads.
//
// The stages: read the folder and its records, note what is wrong with
// its dataset (noteDataset), gather the questions with their records
// (gatherQuestions) and what they hold (scoreShares), order the modes
// (runModes), count progress, and take or make the summary.
func (s *Site) loadRun(id, dir string, logw io.Writer) (*Run, error) {
	first := logw != nil
	if logw == nil {
		logw = io.Discard
	}
	r := &Run{ID: id, Dir: dir, Name: filepath.Base(filepath.Clean(dir)), byID: map[string]*Question{}, byPaper: map[string][]*Question{}}
	folder, err := run.ReadFolder(dir, run.Paths{Data: s.opt.Data, Home: s.opt.Home})
	if err != nil {
		return nil, err
	}
	r.Config = folder.Config
	for _, n := range folder.Notes {
		fmt.Fprintln(logw, n)
	}
	d := run.Dir(dir)
	if t, err := d.Started(); err == nil {
		r.started = t
	}
	r.home = r.Config.Home
	r.stamp, r.checked = stampOf(dir), time.Now()
	recs, err := d.Records()
	if err != nil {
		return nil, err
	}
	qs, problems, qerr := folder.Questions()
	s.noteDataset(r, folder, len(problems), qerr, first, logw)
	modes := r.gatherQuestions(qs, recs)
	r.scoreShares()
	r.Modes = runModes(r.Config.Modes, modes, len(recs) == 0)

	// Expected records count every mode the run was asked for, those not
	// started yet too, which r.Modes leaves out.
	want, runs := slices.Clone(r.Config.Modes), r.Config.Runs
	for _, m := range r.Modes {
		if !slices.Contains(want, m) {
			want = append(want, m)
		}
	}
	for _, rec := range recs {
		runs = max(runs, rec.Run)
	}
	// A composed run (eval --compose) asks each run its own questions.
	r.Progress = runfolder.CountProgress(recs, len(r.Questions)-len(qs)+run.PerRun(qs), want, runs)
	r.Progress.Guessed = qerr != nil

	sum, err := d.ReadSummary()
	r.Progress.NoSummary = errors.Is(err, os.ErrNotExist)
	if err == nil && sum.Questions > 0 && d.SummaryFresh() {
		r.Summary = sum
		return r, nil
	}
	// No summary yet (the run is going or was killed), or an older one.
	// Summarise over every question the run knows, records-only ones too
	// (the dataset may be gone).
	cfg := r.Config
	cfg.Modes = r.Modes
	all := make([]bench.Question, len(r.Questions))
	for i, q := range r.Questions {
		all[i] = q.Question
	}
	r.Summary = run.Summarize(cfg, all, recs)
	return r, nil
}

// noteDataset notes what is wrong with the run's dataset: unreadable
// (question texts are not shown), rows with problems, and, on the first
// load only, a dataset changed since the run (kept as a sticky problem).
// Hashing a large dataset on every reload of a growing run is waste: the
// file does not change under a run being watched.
func (s *Site) noteDataset(r *Run, folder *run.Folder, problems int, qerr error, first bool, logw io.Writer) {
	if qerr != nil {
		msg := fmt.Sprintf("question texts not shown: %v", qerr)
		r.Problems = append(r.Problems, msg)
		fmt.Fprintf(logw, "%s: %s\n", r.Dir, msg)
	} else if problems > 0 {
		fmt.Fprintf(logw, "%s: %s: %d rows with problems (as when the run was made)\n", r.Dir, r.Config.Data, problems)
	}
	if first {
		if w := folder.DataChanged(); w != "" {
			fmt.Fprintln(logw, "warning: "+w)
			s.sticky[r.ID] = append(s.sticky[r.ID], w)
			r.Problems = append(r.Problems, w)
		}
	}
}

// addQuestion appends q to the run's questions and indexes.
func (r *Run) addQuestion(q bench.Question) *Question {
	x := &Question{Question: q, Index: len(r.Questions), Records: map[string][]run.Record{}, Share: map[string]float64{}}
	r.Questions = append(r.Questions, x)
	r.byID[q.ID] = x
	r.byPaper[q.PaperID] = append(r.byPaper[q.PaperID], x)
	return x
}

// gatherQuestions lists the dataset's questions, then files each record
// under its question and mode. A record whose question the dataset lacks
// (the dataset is gone or changed) adds one made from what the record
// knows. It returns the modes the records are in.
func (r *Run) gatherQuestions(qs []bench.Question, recs []run.Record) map[string]bool {
	for _, q := range qs {
		if r.byID[q.ID] == nil {
			r.addQuestion(q)
		}
	}
	modes := map[string]bool{}
	for _, rec := range recs {
		q := r.byID[rec.QuestionID]
		if q == nil {
			q = r.addQuestion(bench.Question{ID: rec.QuestionID, PaperID: rec.PaperID, Type: rec.QuestionType, Answer: rec.Gold, Breakdown: rec.Breakdown})
		}
		q.Records[rec.Mode] = append(q.Records[rec.Mode], rec)
		modes[rec.Mode] = true
	}
	return modes
}

// scoreShares orders each question's records by run and sets its share of
// answered records that are correct, per mode (-1: none answered); and
// collects the breakdown fields and question types present.
func (r *Run) scoreShares() {
	fields, types := map[string]bool{}, map[string]bool{}
	for _, q := range r.Questions {
		for m, rs := range q.Records {
			sort.Slice(rs, func(i, j int) bool { return rs[i].Run < rs[j].Run })
			n, c := 0, 0
			for _, x := range rs {
				if run.Answered(x) {
					n++
					if x.Correct {
						c++
					}
				}
			}
			q.Share[m] = -1
			if n > 0 {
				q.Share[m] = float64(c) / float64(n)
			}
		}
		for f := range q.Breakdown {
			fields[f] = true
		}
		if q.Type != "" {
			types[q.Type] = true
		}
	}
	r.Fields, r.Types = slices.Sorted(maps.Keys(fields)), slices.Sorted(maps.Keys(types))
}

// runModes orders the modes to show: the configured ones that have
// records (all of them while there are none), in the config's order, then
// modes only the records know, in the modes' report order.
func runModes(configured []string, seen map[string]bool, noRecords bool) []string {
	seen = maps.Clone(seen)
	var out []string
	for _, m := range configured {
		if seen[m] || noRecords {
			out = append(out, m)
			delete(seen, m)
		}
	}
	extra := slices.Collect(maps.Keys(seen))
	mode.Sort(extra)
	return append(out, extra...)
}

// paper is one paper's stored passages.
type paper struct {
	Doc      corpus.Document
	Passages []corpus.Passage
	ord      map[string]int // passage id -> index
	err      error
}

// paperCache holds papers by corpus home and id. Papers are read with the
// store opened read-only and closed straight after, so the server never
// holds the corpus lock.
type paperCache struct {
	mu sync.Mutex
	m  map[string]map[string]*paper
}

func newPaperCache() *paperCache { return &paperCache{m: map[string]map[string]*paper{}} }

func (c *paperCache) preload(home string, ids []string) error {
	var missing []string
	c.mu.Lock()
	for _, id := range ids {
		if c.m[home][id] == nil {
			missing = append(missing, id)
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return nil
	}
	st, err := corpus.Open(home, true)
	if err != nil {
		return err
	}
	defer st.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m[home] == nil {
		c.m[home] = map[string]*paper{}
	}
	for _, id := range missing {
		p := &paper{ord: map[string]int{}}
		if p.Doc, p.err = st.Doc(id); p.err == nil {
			p.Passages, p.err = st.Passages(id)
		}
		for i, x := range p.Passages {
			p.ord[x.PassageID] = i
		}
		c.m[home][id] = p
	}
	return nil
}

// get returns a paper, reading it if a preload missed it (the corpus was
// locked at start). It returns nil when the paper cannot be read.
func (c *paperCache) get(home, id string) *paper {
	c.mu.Lock()
	p := c.m[home][id]
	c.mu.Unlock()
	if p == nil {
		if c.preload(home, []string{id}) != nil {
			return nil
		}
		c.mu.Lock()
		p = c.m[home][id]
		c.mu.Unlock()
	}
	if p == nil || p.err != nil {
		return nil
	}
	return p
}

// ProtocolLines is the run's Protocol block: each setting that departs
// from its benchmark's paper and why, or a line saying none does. A folder
// written before runs stated their protocol is stated from its config.
func (r *Run) ProtocolLines() []string {
	if p := r.protocol(); p != nil {
		return run.ProtocolText(*p)
	}
	return nil
}

// ProtocolDepartures counts the settings that depart from the paper.
func (r *Run) ProtocolDepartures() int {
	if p := r.protocol(); p != nil {
		return len(p.Departures())
	}
	return 0
}

func (r *Run) protocol() *protocol.Record {
	if r.Summary.Protocol != nil {
		return r.Summary.Protocol
	}
	if r.Config.Bench == "" {
		return nil
	}
	p := run.Protocol(r.Config)
	return &p
}
