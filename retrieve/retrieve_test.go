package retrieve

import (
	"context"
	"slices"
	"testing"

	"github.com/paperlens/paperlens/chunk/kind"
)

// seen records the queries it is asked.
type seen struct{ qs []Query }

func (s *seen) Name() string { return "seen" }
func (s *seen) Search(_ context.Context, q Query) ([]Hit, error) {
	s.qs = append(s.qs, q)
	return nil, nil
}

func TestExcluding(t *testing.T) {
	cases := []struct {
		name          string
		wrap, inQuery []kind.Kind
		want          []kind.Kind
	}{
		{"nothing", nil, nil, nil},
		{"wrapper only", []kind.Kind{kind.References}, nil, []kind.Kind{kind.References}},
		{"query kept, wrapper added", []kind.Kind{kind.Contents}, []kind.Kind{kind.References}, []kind.Kind{kind.References, kind.Contents}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inner := &seen{}
			r := Excluding(inner, c.wrap)
			if len(c.wrap) == 0 && r != Retriever(inner) {
				t.Error("an empty list wraps the retriever")
			}
			q := Query{Text: "x", K: 1, Exclude: c.inQuery}
			backing := append([]kind.Kind(nil), c.inQuery...)
			if _, err := r.Search(context.Background(), q); err != nil {
				t.Fatal(err)
			}
			if got := inner.qs[0].Exclude; !slices.Equal(got, c.want) {
				t.Errorf("inner query excludes %v, want %v", got, c.want)
			}
			if !slices.Equal(q.Exclude, backing) {
				t.Errorf("the caller's query changed: %v", q.Exclude)
			}
		})
	}
}

// fromFile is a Precomputed retriever: the same list whatever the text.
type fromFile struct{ calls int }

func (f *fromFile) Name() string { return "run:x" }
func (f *fromFile) Precomputed() {}
func (f *fromFile) Search(_ context.Context, q Query) ([]Hit, error) {
	f.calls++
	return []Hit{{Rank: 1, PassageID: "p#2", Score: 9.5}, {Rank: 2, PassageID: "p#0", Score: 1.25}}[:q.K], nil
}

// The option-aware query searches a precomputed ranking once and keeps
// its scores: fusing copies of one list would only replace them.
func TestFusedKeepsAPrecomputedRanking(t *testing.T) {
	f := &fromFile{}
	hits, err := Fused{R: f, Texts: []string{"stem", "stem A", "stem B"}}.Search(context.Background(), Query{K: 2, QuestionID: "q"})
	if err != nil {
		t.Fatal(err)
	}
	if f.calls != 1 || len(hits) != 2 || hits[0].Score != 9.5 || hits[1].PassageID != "p#0" || hits[1].Score != 1.25 {
		t.Errorf("%d searches, hits %+v", f.calls, hits)
	}
}
