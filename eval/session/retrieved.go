package session

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/trec"
)

// retrievedFiles turns --retrieved NAME=FILE (NAME → FILE) into the
// config's list, sorted by name, with absolute paths and each file's
// SHA-256.
func retrievedFiles(files map[string]string) ([]run.RetrievedFile, error) {
	var out []run.RetrievedFile
	for name, path := range files {
		if err := mode.CheckRunName(name); err != nil {
			return nil, fmt.Errorf("--retrieved %s=%s: %w", name, path, err)
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, fmt.Errorf("--retrieved %s=%s: %w", name, path, err)
		}
		sum, err := run.DataSHA256(abs)
		if err != nil {
			return nil, fmt.Errorf("--retrieved %s=%s: %w", name, path, err)
		}
		out = append(out, run.RetrievedFile{Name: name, Path: abs, SHA256: sum})
	}
	slices.SortFunc(out, func(a, b run.RetrievedFile) int { return cmp.Compare(a.Name, b.Name) })
	return out, nil
}

// withRuns is a source of retrievers that also serves the run files'
// retrievers, by their names run:NAME.
type withRuns struct {
	base interface {
		Retriever(name string) (retrieve.Retriever, error)
	}
	runs map[string]retrieve.Retriever
}

func (w withRuns) Retriever(name string) (retrieve.Retriever, error) {
	if r, ok := w.runs[name]; ok {
		return r, nil
	}
	if _, ok := mode.RunName(name); ok {
		return nil, fmt.Errorf("retriever %s takes its passages from a run file: give it as --retrieved %s=FILE", name, name[len(mode.RunPrefix):])
	}
	return w.base.Retriever(name)
}

// openRuns reads the run files and checks each against the corpus and
// the questions to be asked (trec.Open), returning their retrievers by
// name (run:NAME). A file whose bytes are no longer those recorded (sum
// "" is not compared) is refused.
func openRuns(files []run.RetrievedFile, src trec.Passages, qs []bench.Question) (map[string]retrieve.Retriever, error) {
	questions := make([]trec.Question, len(qs))
	for i, q := range qs {
		questions[i] = trec.Question{ID: q.ID, PaperID: q.PaperID}
	}
	out := map[string]retrieve.Retriever{}
	for _, f := range files {
		rf, err := trec.ReadRun(f.Path)
		if err != nil {
			return nil, fmt.Errorf("--retrieved %s: %w", f.Name, err)
		}
		if f.SHA256 != "" && rf.SHA256 != f.SHA256 {
			return nil, fmt.Errorf("--retrieved %s: %s changed while the run started (SHA-256 %.12s…, now %.12s…): run again", f.Name, f.Path, f.SHA256, rf.SHA256)
		}
		r, err := trec.Open(mode.RunMode(f.Name), rf, src, questions)
		if err != nil {
			return nil, fmt.Errorf("--retrieved %s: %w", f.Name, err)
		}
		out[mode.RunMode(f.Name)] = r
	}
	return out, nil
}
