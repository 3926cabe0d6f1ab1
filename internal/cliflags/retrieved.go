package cliflags

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/eval/mode"
)

// retrievedFile says what --retrieved's FILE is.
const retrievedFile = "a TREC run file (\"qid Q0 passage_id rank score tag\" lines: 'paperlens export --format trec' writes them, as do pyserini and most IR toolkits)"

// retrievedUsage is --retrieved's help in eval and study.
const retrievedUsage = retrievedFile + " named NAME: mode run:NAME takes each question's top k passages from it (repeatable)"

// AddRetrieved declares eval retrieval's --retrieved NAME=FILE (fixed
// name, repeatable) into *m, NAME → FILE: each file is scored as
// retriever run:NAME beside the index's.
func AddRetrieved(fl *pflag.FlagSet, m *map[string]string) {
	fl.Var(retrievedValue{m}, "retrieved", retrievedFile+" named NAME, scored as retriever run:NAME beside those --retriever names (repeatable)")
}

// AddRetrieved declares --retrieved on eval's flags (eval and study; not
// ask, which answers from the index), and says on --mode how its files'
// modes are named.
func (f *Eval) AddRetrieved(fl *pflag.FlagSet) {
	fl.Var(retrievedValue{&f.Retrieved}, "retrieved", retrievedUsage)
	if m := fl.Lookup("mode"); m != nil {
		m.Usage = strings.Replace(m.Usage, " (", ", or run:NAME for the file of --retrieved NAME=FILE (", 1)
	}
}

// retrievedValue is --retrieved: NAME=FILE, repeatable, NAME a run file's
// name (mode.CheckRunName) given once.
type retrievedValue struct{ m *map[string]string }

var _ pflag.SliceValue = retrievedValue{}

func (v retrievedValue) Type() string { return "NAME=FILE" }

// String is "" when no file is given, so --help shows no default.
func (v retrievedValue) String() string {
	if len(*v.m) == 0 {
		return ""
	}
	return "[" + strings.Join(v.GetSlice(), ",") + "]"
}

func (v retrievedValue) Set(s string) error {
	name, file, ok := strings.Cut(s, "=")
	name, file = strings.TrimSpace(name), strings.TrimSpace(file)
	if !ok || name == "" || file == "" {
		return fmt.Errorf("want NAME=FILE, e.g. --retrieved mine=runs/mine.trec, then --mode run:mine")
	}
	if err := mode.CheckRunName(name); err != nil {
		return err
	}
	if _, dup := (*v.m)[name]; dup {
		return fmt.Errorf("run file %s given twice: give each NAME once", name)
	}
	if *v.m == nil {
		*v.m = map[string]string{}
	}
	(*v.m)[name] = file
	return nil
}

func (v retrievedValue) Append(s string) error { return v.Set(s) }

func (v retrievedValue) Replace(ss []string) error {
	*v.m = nil
	for _, s := range ss {
		if err := v.Set(s); err != nil {
			return err
		}
	}
	return nil
}

// GetSlice is the files as NAME=FILE, by name.
func (v retrievedValue) GetSlice() []string {
	var out []string
	for name, file := range *v.m {
		out = append(out, name+"="+file)
	}
	slices.Sort(out)
	return out
}
