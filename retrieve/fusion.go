package retrieve

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// DefaultRRFK is the k of reciprocal rank fusion (Cormack et al. 2009).
const DefaultRRFK = 60

// Fuse merges ranked lists by reciprocal rank fusion: a passage scores
// Σ 1/(k + rank) over the lists it appears in. Ties keep the order of first
// appearance so the result is deterministic. The fused hits carry the fused
// score and the given retriever name.
func Fuse(lists [][]Hit, k int, name string) []Hit {
	if k <= 0 {
		k = DefaultRRFK
	}
	type acc struct {
		hit   Hit
		score float64
		first int
	}
	byID := map[string]*acc{}
	order := 0
	for _, l := range lists {
		for i, h := range l {
			a, ok := byID[h.PassageID]
			if !ok {
				a = &acc{hit: h, first: order}
				byID[h.PassageID] = a
				order++
			}
			a.score += 1 / float64(k+i+1)
		}
	}
	out := make([]*acc, 0, len(byID))
	for _, a := range byID {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].first < out[j].first
	})
	hits := make([]Hit, len(out))
	for i, a := range out {
		hits[i] = a.hit
		hits[i].Rank, hits[i].Score, hits[i].Retriever = i+1, a.score, name
	}
	return hits
}

// Hybrid fuses several retrievers with reciprocal rank fusion. Each is asked
// for Depth hits (default 4×K, at least 20) so that a passage ranked well by
// one and modestly by another can still surface.
type Hybrid struct {
	Parts []Retriever
	K     int // RRF k (default 60)
	Depth int
	Label string // name reported (default "hybrid")
}

// Name implements Retriever.
func (h *Hybrid) Name() string {
	if h.Label != "" {
		return h.Label
	}
	return "hybrid"
}

// Search implements Retriever.
func (h *Hybrid) Search(ctx context.Context, q Query) ([]Hit, error) {
	return MultiSearch(ctx, h.Parts, []string{q.Text}, q, h.K, h.Depth, h.Name())
}

// MultiSearch runs every query text through every retriever and fuses all
// the lists; with one retriever and several texts it is the option-aware
// search, with several retrievers it is hybrid retrieval.
func MultiSearch(ctx context.Context, parts []Retriever, texts []string, q Query, rrfK, depth int, name string) ([]Hit, error) {
	if q.K <= 0 {
		return nil, fmt.Errorf("k must be positive, got %d", q.K)
	}
	if depth <= 0 {
		depth = max(4*q.K, 20)
	}
	var lists [][]Hit
	for _, text := range texts {
		for _, r := range parts {
			sub := q
			sub.Text, sub.K = text, depth
			hits, err := r.Search(ctx, sub)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", r.Name(), err)
			}
			lists = append(lists, hits)
		}
	}
	fused := Fuse(lists, rrfK, name)
	if len(fused) > q.K {
		fused = fused[:q.K]
	}
	return fused, nil
}

// QueryForm says how a multiple-choice question becomes retrieval queries.
type QueryForm string

// Query forms (the --query flag).
const (
	FormStem    QueryForm = "stem"    // the question stem alone
	FormFull    QueryForm = "full"    // stem and all options as one query
	FormOptions QueryForm = "options" // the stem, and stem + each option, fused: each option has its own evidence
)

// QueryTexts turns a question into the query texts of a form.
func QueryTexts(form QueryForm, stem string, options []string) ([]string, error) {
	switch form {
	case FormStem, "":
		return []string{stem}, nil
	case FormFull:
		return []string{strings.TrimSpace(stem + "\n" + strings.Join(options, "\n"))}, nil
	case FormOptions:
		out := []string{stem}
		for _, o := range options {
			out = append(out, stem+"\n"+o)
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown query form %q: use stem, full or options", form)
}
