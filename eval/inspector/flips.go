package inspector

import (
	"path/filepath"
	"slices"

	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/run"
)

// Flips compares a question's retrieval modes with the base mode (full when
// the run has it): Lost names modes that got wrong what the base got right,
// Gained the reverse. "Right" is a majority of the scored runs.
type flips struct{ Lost, Gained []string }

// ragMode reports whether a mode's context is partly retrieved; a mode this
// build does not know (a folder from another version) counts as one.
func ragMode(name string) bool {
	m, ok := mode.Lookup(name)
	return !ok || m.Retrieves()
}

func (r *Run) base() string {
	if slices.Contains(r.Modes, run.Full) {
		return run.Full
	}
	return r.Summary.Baseline
}

func (r *Run) flipsOf(q *Question) flips {
	var f flips
	base := r.base()
	b, ok := q.Share[base]
	if !ok || b < 0 {
		return f
	}
	// Right means at least half the scored runs: the rule of the summary's
	// McNemar counts, so the two agree.
	for _, m := range r.Modes {
		s, ok := q.Share[m]
		if m == base || !ragMode(m) || !ok || s < 0 {
			continue
		}
		f.add(m, b, s)
	}
	return f
}

// add files mode m under Lost or Gained when its share of right runs s
// crosses the reference's b: right is at least half the scored runs.
func (f *flips) add(m string, b, s float64) {
	switch {
	case b >= 0.5 && s < 0.5:
		f.Lost = append(f.Lost, m)
	case b < 0.5 && s >= 0.5:
		f.Gained = append(f.Gained, m)
	}
}

// paired lists the other served runs that ask the same model the same
// questions under another paradigm (base, cot, reasoning): the runs whose
// answers can be compared with r's question by question, mode by mode.
func (s *Site) paired(r *Run) []*Run {
	var out []*Run
	for _, o := range s.Runs() {
		if o.ID != r.ID && o.Config.Model == r.Config.Model && o.Config.Paradigm != r.Config.Paradigm && sameData(o.Config, r.Config) {
			out = append(out, o)
		}
	}
	return out
}

func sameData(a, b run.Config) bool {
	return a.Bench == b.Bench && filepath.Clean(a.Data) == filepath.Clean(b.Data)
}

// flipsVs compares each of q's modes with the same mode on the same
// question in run o: Lost names modes right in o and wrong here, Gained the
// reverse, by the majority rule of flipsOf. Every mode counts, closed-book
// and full too: across paradigms they are the comparison, not the base.
func (r *Run) flipsVs(q *Question, o *Run) flips {
	var f flips
	oq := o.byID[q.ID]
	if oq == nil {
		return f
	}
	for _, m := range r.Modes {
		s, ok1 := q.Share[m]
		b, ok2 := oq.Share[m]
		if !ok1 || !ok2 || s < 0 || b < 0 {
			continue
		}
		f.add(m, b, s)
	}
	return f
}
