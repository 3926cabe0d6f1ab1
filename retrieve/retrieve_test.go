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
