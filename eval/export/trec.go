package export

import (
	"cmp"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/retrieve/trec"
)

// TRECRun is one run of a trec export: the retrieval of one mode in one
// run folder, which a file holds alone (trec_eval scores one run per
// file).
type TRECRun struct {
	Dir  string // the run folder, as given
	Mode string // a mode that retrieves passages: bm25, full+hybrid, run:NAME, self-route…
	// Tag is the run's tag (the sixth column): the mode, and with several
	// folders the folder's name before it ("FOLDER/MODE").
	Tag string
}

// TRECRuns lists the runs a trec export of dirs holds, in folder order
// and report order of the modes: one per folder and mode whose records
// hold retrieved passages (a mode with a retriever: not closed-book,
// full, oracle, the web or tool modes), of the modes opt keeps.
func TRECRuns(dirs []string, opt Options) ([]TRECRun, error) {
	fs, err := load(dirs, opt)
	if err != nil {
		return nil, err
	}
	return trecRuns(fs), nil
}

func trecRuns(fs []*folder) []TRECRun {
	var out []TRECRun
	for _, f := range fs {
		seen := map[string]bool{}
		var modes []string
		for _, r := range f.recs {
			if m, ok := mode.Lookup(r.Mode); ok && m.Retriever != "" && !seen[r.Mode] {
				seen[r.Mode] = true
				modes = append(modes, r.Mode)
			}
		}
		mode.Sort(modes)
		for _, m := range modes {
			out = append(out, TRECRun{Dir: f.path, Mode: m, Tag: m})
		}
	}
	if len(fs) > 1 {
		tagFolders(out, func(r TRECRun) string { return filepath.Base(r.Dir) })
		if dup(out) {
			tagFolders(out, func(r TRECRun) string { return r.Dir })
		}
	}
	return out
}

// tagFolders names each run's folder in its tag, white space replaced.
func tagFolders(runs []TRECRun, name func(TRECRun) string) {
	for i, r := range runs {
		n := strings.Map(func(c rune) rune {
			if unicode.IsSpace(c) {
				return '_'
			}
			return c
		}, name(r))
		runs[i].Tag = n + "/" + r.Mode
	}
}

func dup(runs []TRECRun) bool {
	seen := map[string]bool{}
	for _, r := range runs {
		if seen[r.Tag] {
			return true
		}
		seen[r.Tag] = true
	}
	return false
}

// oneRunError says why a single trec file cannot be written.
func oneRunError(runs []TRECRun) error {
	if len(runs) == 0 {
		return fmt.Errorf("no retrieval to export as a TREC run: no record of a mode that retrieves passages (bm25, dense, hybrid, full+…, self-route, run:NAME); export those folders as csv or jsonl")
	}
	var names []string
	for _, r := range runs {
		names = append(names, r.Tag)
	}
	return fmt.Errorf("%d retrieval runs (%s), and trec_eval scores one run per file: keep one with --mode, or give --out FILE to write one file per run", len(runs), strings.Join(names, ", "))
}

// writeTREC writes one run: each question's passages as its record
// ranked them (the first run's record with any: retrieval does not depend
// on the run), neighbours added by --expand left out, tagged r.Tag.
// Questions whose records hold no passage (an error before retrieval)
// get no line: trec_eval -c counts them as retrieving nothing.
func writeTREC(w io.Writer, fs []*folder, r TRECRun) error {
	var f *folder
	for _, x := range fs {
		if x.path == r.Dir {
			f = x
		}
	}
	best := map[string]run.Record{}
	var order []string
	for _, rec := range f.recs {
		if rec.Mode != r.Mode || len(passages(rec)) == 0 {
			continue
		}
		old, ok := best[rec.QuestionID]
		if !ok {
			order = append(order, rec.QuestionID)
		}
		if !ok || rec.Run < old.Run {
			best[rec.QuestionID] = rec
		}
	}
	rks := make([]trec.Ranking, 0, len(order))
	for _, id := range order {
		rk := trec.Ranking{QuestionID: id}
		for _, c := range passages(best[id]) {
			rk.Hits = append(rk.Hits, trec.Hit{PassageID: c.PassageID, Score: c.Score})
		}
		rks = append(rks, rk)
	}
	if err := trec.WriteRun(w, r.Tag, rks); err != nil {
		return fmt.Errorf("run folder %s, mode %s: %w", r.Dir, r.Mode, err)
	}
	return nil
}

// passages are the retrieved passages of a record's context, by rank.
func passages(r run.Record) []run.ContextItem {
	var out []run.ContextItem
	for _, c := range r.Context {
		if !c.Expanded && c.Retriever != "web" {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b run.ContextItem) int { return cmp.Compare(a.Rank, b.Rank) })
	return out
}

// writeQrels writes the gold passages of every question the folders'
// records ask (retrieval.Qrels: the rule of eval retrieval), judged over
// the passages of each folder's corpus. A question asked in several
// folders must be judged alike in each.
func writeQrels(w io.Writer, fs []*folder, opt Options) error {
	st := stores{}
	defer st.close()
	var all []trec.Judgment
	judged := map[string]string{} // question id -> its judgments, as written
	for _, f := range fs {
		if len(f.recs) == 0 {
			continue
		}
		byID, err := f.questions(opt)
		if err != nil {
			return err
		}
		var qs []bench.Question
		seen := map[string]bool{}
		for _, r := range f.recs {
			if !seen[r.QuestionID] {
				seen[r.QuestionID] = true
				qs = append(qs, byID[r.QuestionID])
			}
		}
		s, err := st.open(f)
		if err != nil {
			return err
		}
		js, err := retrieval.Qrels(qs, passagesOf(s, f), opt.Evidence)
		if err != nil {
			return fmt.Errorf("run folder %s: %w", f.path, err)
		}
		fresh, err := unjudged(f, js, judged, byID)
		if err != nil {
			return err
		}
		all = append(all, fresh...)
	}
	return trec.WriteQrels(w, all)
}

// unjudged are the judgments of the questions no earlier folder judged;
// it records them, and refuses a question an earlier folder judged
// otherwise.
func unjudged(f *folder, js []trec.Judgment, judged map[string]string, byID map[string]bench.Question) ([]trec.Judgment, error) {
	by := map[string][]string{}
	for _, j := range js {
		by[j.QuestionID] = append(by[j.QuestionID], fmt.Sprintf("%s=%d", j.PassageID, j.Rel))
	}
	var out []trec.Judgment
	for _, j := range js {
		if _, ok := judged[j.QuestionID]; !ok {
			out = append(out, j)
		}
	}
	for id, lines := range by {
		s := strings.Join(lines, " ")
		if old, ok := judged[id]; ok && old != s {
			return nil, fmt.Errorf("run folder %s: question %s (paper %s) is judged otherwise than in an earlier folder (another corpus or passage size): export their qrels apart", f.path, id, byID[id].PaperID)
		}
		judged[id] = s
	}
	return out, nil
}
