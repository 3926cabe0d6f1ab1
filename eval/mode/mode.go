// Package mode is the one definition of the evaluation modes: what context
// each puts in the prompt, what it needs opened, what its RAG effect is
// measured against, and how reports and the inspector name it. The runner,
// the eval command, the report and the inspector look modes up here, so a
// new mode is one entry in the table below.
//
// Mode names are fixed: config.json, every record and summary.json hold
// them, and scripts read those.
package mode

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Names (the --mode flag).
const (
	ClosedBook = "closed-book" // question only
	Full       = "full"        // whole paper in context (ElaipBench's base setting)
	BM25       = "bm25"        // top-k passages only (classic RAG)
	Dense      = "dense"
	Hybrid     = "hybrid"
	FullBM25   = "full+bm25" // paper + retrieved passages as auxiliary knowledge (ElaipBench's RAG setting)
	FullDense  = "full+dense"
	FullHybrid = "full+hybrid"
	Oracle     = "oracle"   // gold evidence only: the ceiling for retrieval
	Web        = "web"      // question + web snippets
	FullWeb    = "full+web" // paper + web snippets
	// The tool modes (issue 15): the model calls tools itself.
	Agent      = "agent"       // question + search_paper, no paper in context
	FullAgent  = "full+agent"  // paper + search_paper
	ToolSearch = "tool-search" // web_search + open_page (LPFQA's Search setting)
	ToolPython = "tool-python" // python (LPFQA's code-interpreter setting)
	// SelfRoute answers from retrieved passages, and again from the whole
	// paper when the model replies that they do not suffice (Li et al.
	// 2024, issue 16).
	SelfRoute = "self-route"
)

// Tool names (eval/agent's fixed names; kept here as strings so that this
// package stays free of the agent's dependencies).
const (
	ToolSearchPaper = "search_paper"
	ToolWebSearch   = "web_search"
	ToolOpenPage    = "open_page"
	ToolPythonCell  = "python"
)

// Mode is one mode: the parts of its context and how it is shown.
type Mode struct {
	Name string
	// The context parts. Oracle and Web exclude a retriever: the runner
	// puts one kind of snippet beside the paper.
	Paper     bool   // the whole paper
	Retriever string // the index retriever whose top-k passages it gets ("" for none)
	Oracle    bool   // the question's gold evidence
	Web       bool   // web search results
	// Tools are the tools the model may call (eval/agent's names): the
	// runner builds them per question and runs the tool loop.
	Tools []string
	// Route marks self-route: the passages of Retriever first, the whole
	// paper (Paper) only when the model calls them insufficient. The
	// runner may pick another retriever (--route-retriever).
	Route bool
	// Baseline is the mode with the same context minus what is retrieved
	// ("" when nothing is): what this mode adds is measured against it,
	// and a dry run that fetches no web results stands it in for a web
	// mode.
	Baseline string
	// Kind says in words what the prompt holds (the inspector's column
	// heading).
	Kind string
	// order is the report order: the position in the table.
	order int
}

// NeedsPaper reports whether the prompt holds the whole paper, so the
// papers must be in the corpus.
func (m Mode) NeedsPaper() bool { return m.Paper }

// AlwaysPaper reports whether every prompt holds the whole paper; a
// self-route prompt holds it only on its second call.
func (m Mode) AlwaysPaper() bool { return m.Paper && !m.Route }

// NeedsIndex reports whether the mode retrieves passages, so the corpus
// and the retrieval index must be open.
func (m Mode) NeedsIndex() bool { return m.Retriever != "" || m.HasTool(ToolSearchPaper) }

// NeedsWeb reports whether the mode searches the web (--web-provider).
func (m Mode) NeedsWeb() bool { return m.Web || m.HasTool(ToolWebSearch) }

// UsesTools reports whether the model calls tools in this mode.
func (m Mode) UsesTools() bool { return len(m.Tools) > 0 }

// HasTool reports whether the mode offers the named tool.
func (m Mode) HasTool(name string) bool { return slices.Contains(m.Tools, name) }

// Retrieves reports whether part of the context is retrieved (passages or
// web results): the modes whose answers can gain or lose against Baseline.
// A tool mode counts: what the tools bring is measured against the
// same context without them.
func (m Mode) Retrieves() bool { return m.Retriever != "" || m.Web || m.UsesTools() }

// Order is the mode's place in reports (registered modes come first, in
// table order).
func (m Mode) Order() int { return m.order }

// table is every mode, in report order. A new mode is one entry here.
var table = []Mode{
	{Name: ClosedBook, Kind: "question only"},
	{Name: Full, Paper: true, Kind: "whole paper"},
	{Name: BM25, Retriever: "bm25", Baseline: ClosedBook, Kind: "bm25 passages"},
	{Name: Dense, Retriever: "dense", Baseline: ClosedBook, Kind: "dense passages"},
	{Name: Hybrid, Retriever: "hybrid", Baseline: ClosedBook, Kind: "hybrid passages"},
	{Name: FullBM25, Paper: true, Retriever: "bm25", Baseline: Full, Kind: "whole paper + bm25 passages"},
	{Name: FullDense, Paper: true, Retriever: "dense", Baseline: Full, Kind: "whole paper + dense passages"},
	{Name: FullHybrid, Paper: true, Retriever: "hybrid", Baseline: Full, Kind: "whole paper + hybrid passages"},
	{Name: SelfRoute, Paper: true, Retriever: "bm25", Route: true, Baseline: Full, Kind: "retrieved passages; whole paper when they do not suffice"},
	{Name: Oracle, Oracle: true, Kind: "gold evidence only"},
	{Name: Web, Web: true, Baseline: ClosedBook, Kind: "web results"},
	{Name: FullWeb, Paper: true, Web: true, Baseline: Full, Kind: "whole paper + web results"},
	{Name: Agent, Tools: []string{ToolSearchPaper}, Baseline: ClosedBook, Kind: "question + search_paper tool"},
	{Name: FullAgent, Paper: true, Tools: []string{ToolSearchPaper}, Baseline: Full, Kind: "whole paper + search_paper tool"},
	{Name: ToolSearch, Tools: []string{ToolWebSearch, ToolOpenPage}, Baseline: ClosedBook, Kind: "web_search + open_page tools"},
	{Name: ToolPython, Tools: []string{ToolPythonCell}, Baseline: ClosedBook, Kind: "python tool"},
}

// registry indexes the table; tests add modes to it (see register).
var registry = struct {
	sync.RWMutex
	all    []Mode
	byName map[string]Mode
}{byName: map[string]Mode{}}

func init() {
	for _, m := range table {
		if _, err := register(m); err != nil {
			panic(err)
		}
	}
}

// register adds a mode at the end of the report order and returns the
// function that removes it again. It refuses a name already taken and a
// mode whose parts contradict each other.
func register(m Mode) (func(), error) {
	registry.Lock()
	defer registry.Unlock()
	if err := check(m); err != nil {
		return nil, err
	}
	m.order = len(registry.all)
	registry.all = append(registry.all, m)
	registry.byName[m.Name] = m
	return func() {
		registry.Lock()
		defer registry.Unlock()
		delete(registry.byName, m.Name)
		registry.all = slices.DeleteFunc(registry.all, func(x Mode) bool { return x.Name == m.Name })
		for i := range registry.all {
			registry.all[i].order = i
			registry.byName[registry.all[i].Name] = registry.all[i]
		}
	}, nil
}

func check(m Mode) error {
	switch {
	case m.Name == "" || strings.ContainsAny(m.Name, ", \t\n"):
		return fmt.Errorf("mode %q: a name is one word without commas or spaces", m.Name)
	case strings.HasPrefix(m.Name, RunPrefix):
		return fmt.Errorf("mode %q: names beginning %q are the run files' modes", m.Name, RunPrefix)
	case registry.byName[m.Name].Name != "":
		return fmt.Errorf("mode %q is registered twice", m.Name)
	case m.Kind == "":
		return fmt.Errorf("mode %q has no kind", m.Name)
	case btoi(m.Retriever != "")+btoi(m.Oracle)+btoi(m.Web)+btoi(m.UsesTools()) > 1:
		return fmt.Errorf("mode %q: a mode gets passages, gold evidence, web results or tools, not several", m.Name)
	case slices.ContainsFunc(m.Tools, func(t string) bool {
		return !slices.Contains([]string{ToolSearchPaper, ToolWebSearch, ToolOpenPage, ToolPythonCell}, t)
	}):
		return fmt.Errorf("mode %q: unknown tool in %v: use %s, %s, %s or %s", m.Name, m.Tools, ToolSearchPaper, ToolWebSearch, ToolOpenPage, ToolPythonCell)
	case m.Route && (!m.Paper || m.Retriever == ""):
		return fmt.Errorf("mode %q: a routed mode needs passages and the paper to fall back on", m.Name)
	case m.Retrieves() != (m.Baseline != ""):
		return fmt.Errorf("mode %q: a baseline is required exactly when the mode retrieves", m.Name)
	case m.Baseline != "" && registry.byName[m.Baseline].Name == "":
		return fmt.Errorf("mode %q: baseline %q is not registered before it", m.Name, m.Baseline)
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// RunPrefix begins the name of a mode whose passages come from a run
// file (eval --retrieved NAME=FILE): "run:NAME" is such a mode, one per
// file, retriever and name alike (fixed: config.json and the records hold
// them). It is bm25 with another source: the file's top-k passages alone,
// measured against closed-book.
const RunPrefix = "run:"

// RunMode is the name of the mode (and retriever) of the run file named
// name: "run:" + name.
func RunMode(name string) string { return RunPrefix + name }

// RunName is the run file's name in a run:NAME mode or retriever name,
// and whether name is one (NAME valid: see CheckRunName).
func RunName(name string) (string, bool) {
	n, ok := strings.CutPrefix(name, RunPrefix)
	return n, ok && CheckRunName(n) == nil
}

// CheckRunName checks the NAME of --retrieved NAME=FILE: letters, digits,
// '.', '_' and '-', so that run:NAME is one word in every file that
// names it (records, TREC files, CSV).
func CheckRunName(name string) error {
	if name == "" {
		return fmt.Errorf("a run file needs a name: --retrieved NAME=FILE, used as mode %sNAME", RunPrefix)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return fmt.Errorf("run file name %q: use letters, digits, '.', '_' and '-' only", name)
		}
	}
	return nil
}

// runOrder places the run:NAME modes after every registered mode.
const runOrder = 1 << 20

// runMode is the mode of run file name.
func runMode(name string) Mode {
	return Mode{Name: RunMode(name), Retriever: RunMode(name), Baseline: ClosedBook,
		Kind: "passages of run file " + name, order: runOrder}
}

// Lookup returns the named mode: a registered one, or run:NAME.
func Lookup(name string) (Mode, bool) {
	registry.RLock()
	m, ok := registry.byName[name]
	registry.RUnlock()
	if ok {
		return m, true
	}
	if n, ok := RunName(name); ok {
		return runMode(n), true
	}
	return Mode{}, false
}

// Get returns the named mode, or an error that lists the modes there are.
func Get(name string) (Mode, error) {
	if m, ok := Lookup(name); ok {
		return m, nil
	}
	if n, ok := strings.CutPrefix(name, RunPrefix); ok {
		return Mode{}, fmt.Errorf("mode %q: %w", name, CheckRunName(n))
	}
	return Mode{}, fmt.Errorf("unknown mode %q: use %s, or %sNAME for a run file given as --retrieved NAME=FILE", name, strings.Join(Names(), ", "), RunPrefix)
}

// All returns every registered mode in report order (the run:NAME modes,
// one per run file, are not listed).
func All() []Mode {
	registry.RLock()
	defer registry.RUnlock()
	return slices.Clone(registry.all)
}

// Names returns every registered mode's name in report order.
func Names() []string {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]string, len(registry.all))
	for i, m := range registry.all {
		out[i] = m.Name
	}
	return out
}

// Sort puts mode names in report order: known modes first, in table
// order, then the run:NAME modes by name, then names no build of this
// table knows (a run folder from another version), alphabetically.
func Sort(names []string) {
	slices.SortStableFunc(names, func(a, b string) int {
		ma, oka := Lookup(a)
		mb, okb := Lookup(b)
		switch {
		case oka && okb && ma.order == mb.order:
			return strings.Compare(a, b)
		case oka && okb:
			return ma.order - mb.order
		case oka:
			return -1
		case okb:
			return 1
		}
		return strings.Compare(a, b)
	})
}

// KindOf is the named mode's Kind; a name the table lacks (a run folder
// from another version) is shown as passages of that name, as retrieval
// modes are.
func KindOf(name string) string {
	if m, ok := Lookup(name); ok {
		return m.Kind
	}
	return name + " passages"
}

// Needs are what a set of modes needs opened before the first question is
// asked. The eval, study and ask sessions open exactly this, so a mode
// added to the table brings its resources with it.
type Needs struct {
	// Corpus: a prompt holds the whole paper or passages of it, so the
	// papers must be ingested and the store open.
	Corpus bool
	// Index: a mode retrieves passages (a retriever or search_paper).
	Index bool
	// Web: a web mode pastes search results into the prompt.
	Web bool
	// WebTools: the model calls a search engine itself (web_search).
	WebTools bool
}

// NeedsOf is what the named modes need together. Names the table lacks
// need nothing; validating them is the caller's (Get says what there is).
func NeedsOf(modes []string) Needs {
	var n Needs
	for _, name := range modes {
		m, ok := Lookup(name)
		if !ok {
			continue
		}
		n.Index = n.Index || m.NeedsIndex()
		n.Corpus = n.Corpus || m.NeedsPaper() || m.NeedsIndex()
		n.Web = n.Web || m.Web
		n.WebTools = n.WebTools || m.HasTool(ToolWebSearch)
	}
	return n
}
