package mode_test

import (
	"testing"

	"github.com/paperlens/paperlens/eval/mode"
)

// What a set of modes needs opened is the union of what each needs, as
// the eval command used to work it out mode by mode.
func TestNeedsOf(t *testing.T) {
	for _, c := range []struct {
		modes []string
		want  mode.Needs
	}{
		{nil, mode.Needs{}},
		{[]string{"closed-book", "oracle"}, mode.Needs{}},
		{[]string{"full"}, mode.Needs{Corpus: true}},
		{[]string{"bm25"}, mode.Needs{Corpus: true, Index: true}},
		{[]string{"closed-book", "full+hybrid"}, mode.Needs{Corpus: true, Index: true}},
		{[]string{"self-route"}, mode.Needs{Corpus: true, Index: true}},
		{[]string{"web"}, mode.Needs{Web: true}},
		{[]string{"full+web"}, mode.Needs{Corpus: true, Web: true}},
		{[]string{"agent"}, mode.Needs{Corpus: true, Index: true}},
		{[]string{"tool-search"}, mode.Needs{WebTools: true}},
		{[]string{"tool-python"}, mode.Needs{}},
		{[]string{"web", "tool-search", "dense"}, mode.Needs{Corpus: true, Index: true, Web: true, WebTools: true}},
		// A name the table lacks needs nothing (Config.Validate refuses it).
		{[]string{"no-such-mode"}, mode.Needs{}},
	} {
		if got := mode.NeedsOf(c.modes); got != c.want {
			t.Errorf("NeedsOf(%v) = %+v, want %+v", c.modes, got, c.want)
		}
	}
}
