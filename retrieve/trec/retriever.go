package trec

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/retrieve"
)

// Passages are a corpus's passages by paper (a *corpus.Store is one).
type Passages interface {
	Passages(paperID string) ([]corpus.Passage, error)
}

// Retriever serves a run file's rankings as a retrieve.Retriever: a
// question's search returns the passages its lines rank, best first,
// with their texts from the corpus and the file's scores. It is
// Precomputed: the query text is not read, the question id is.
type Retriever struct {
	name     string
	run      *Run
	passages map[string]corpus.Passage
	papers   map[string]string // question id -> its paper ("" unknown)
}

// Question is what Open checks a run's lines against: a question the
// evaluation asks and the paper it is about ("" when it has none).
type Question struct {
	ID      string
	PaperID string
}

// ErrUnknown is wrapped by the errors about a run that does not fit the
// corpus or the questions: a passage the corpus lacks, a passage of
// another paper, a question without lines.
var ErrUnknown = errors.New("run file does not fit")

// Open makes the retriever name (e.g. "run:mine") of a run, checked
// against the corpus and the questions that will be asked: every question
// must have lines in the file, and every passage those lines rank must be
// in the corpus and of the question's paper (paperlens retrieves within
// the question's paper). Lines of other questions are not read. Errors
// name the file and line, and the question or passage at fault.
func Open(name string, run *Run, src Passages, questions []Question) (*Retriever, error) {
	r := &Retriever{name: name, run: run, passages: map[string]corpus.Passage{}, papers: map[string]string{}}
	byPaper := map[string]map[string]corpus.Passage{}
	var missing []string
	for _, q := range questions {
		r.papers[q.ID] = q.PaperID
		es := run.byQuestion[q.ID]
		if len(es) == 0 {
			missing = append(missing, q.ID)
			continue
		}
		for _, e := range es {
			p, err := lookup(src, byPaper, e.PassageID)
			if err != nil {
				return nil, fmt.Errorf("%s line %d: question %s: %w", run.Path, e.Line, e.QuestionID, err)
			}
			if q.PaperID != "" && p.PaperID != q.PaperID {
				return nil, fmt.Errorf("%s line %d: passage %s is of paper %s, but question %s is about paper %s: paperlens retrieves within the question's paper; rank that paper's passages: %w",
					run.Path, e.Line, e.PassageID, p.PaperID, q.ID, q.PaperID, ErrUnknown)
			}
			r.passages[e.PassageID] = p
		}
	}
	if len(missing) > 0 {
		shown := missing[:min(5, len(missing))]
		return nil, fmt.Errorf("%s has no lines for %d of the %d questions (%s%s): a run file must rank passages for every question asked; add their lines, or score a subset of questions that it covers: %w",
			run.Path, len(missing), len(questions), strings.Join(shown, ", "), more(len(missing)-len(shown)), ErrUnknown)
	}
	return r, nil
}

func more(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(" and %d more", n)
}

// lookup finds a passage by id ("paper#ordinal"), reading each paper's
// passages once.
func lookup(src Passages, byPaper map[string]map[string]corpus.Passage, id string) (corpus.Passage, error) {
	i := strings.LastIndexByte(id, '#')
	if i <= 0 {
		return corpus.Passage{}, fmt.Errorf("passage id %q is not a paperlens passage id (PAPER#ORDINAL, as paperlens search and the records show): %w", id, ErrUnknown)
	}
	paper := id[:i]
	ps, ok := byPaper[paper]
	if !ok {
		list, err := src.Passages(paper)
		if err != nil && !errors.Is(err, corpus.ErrNotFound) {
			return corpus.Passage{}, fmt.Errorf("passage %s: %w", id, err)
		}
		ps = map[string]corpus.Passage{}
		for _, p := range list {
			ps[p.PassageID] = p
		}
		byPaper[paper] = ps
	}
	p, ok := ps[id]
	if !ok {
		if len(ps) == 0 {
			return p, fmt.Errorf("passage %s: the corpus has no paper %s: ingest it, or rank passages of the papers in the corpus: %w", id, paper, ErrUnknown)
		}
		return p, fmt.Errorf("passage %s: the corpus has no such passage (paper %s has %d, numbered from 0; were its passages cut at another --passage-tokens?): %w", id, paper, len(ps), ErrUnknown)
	}
	return p, nil
}

// Name implements retrieve.Retriever.
func (r *Retriever) Name() string { return r.name }

// Precomputed implements retrieve.Precomputed.
func (r *Retriever) Precomputed() {}

// Path is the run file's name.
func (r *Retriever) Path() string { return r.run.Path }

// Search returns the first q.K passages the file ranks for question
// q.QuestionID, leaving out those of the kinds in q.Exclude (as the
// index's retrievers do: the K best of the other kinds). Hits are ranked
// 1, 2, … in the file's order and carry its scores.
func (r *Retriever) Search(_ context.Context, q retrieve.Query) ([]retrieve.Hit, error) {
	if q.K <= 0 {
		return nil, fmt.Errorf("k must be positive, got %d", q.K)
	}
	if q.QuestionID == "" {
		return nil, fmt.Errorf("%s: a run file's rankings are looked up by question id, and this search names no question", r.name)
	}
	if _, ok := r.papers[q.QuestionID]; !ok {
		return nil, fmt.Errorf("%s: question %s was not among the questions %s was opened for: %w", r.name, q.QuestionID, r.run.Path, ErrUnknown)
	}
	excl := kind.NewSet(q.Exclude)
	var out []retrieve.Hit
	for _, e := range r.run.byQuestion[q.QuestionID] {
		p := r.passages[e.PassageID]
		if len(q.Exclude) > 0 && excl.Has(p.KindOf()) {
			continue
		}
		if q.PaperID != "" && p.PaperID != q.PaperID {
			return nil, fmt.Errorf("%s line %d: passage %s is of paper %s, not of the question's paper %s: %w", r.run.Path, e.Line, e.PassageID, p.PaperID, q.PaperID, ErrUnknown)
		}
		out = append(out, retrieve.Hit{Rank: len(out) + 1, Score: e.Score, PaperID: p.PaperID, PassageID: p.PassageID, Text: p.Text, Retriever: r.name})
		if len(out) == q.K {
			break
		}
	}
	return out, nil
}

// Rankings turns hits per question into what WriteRun writes, keeping
// the order of ids.
func Rankings(ids []string, hits map[string][]retrieve.Hit) []Ranking {
	out := make([]Ranking, 0, len(ids))
	for _, id := range ids {
		rk := Ranking{QuestionID: id}
		for _, h := range hits[id] {
			rk.Hits = append(rk.Hits, Hit{PassageID: h.PassageID, Score: h.Score})
		}
		out = append(out, rk)
	}
	return out
}
