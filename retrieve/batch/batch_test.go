package batch

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/retrieve"
)

// echo answers every query with one hit naming it; the paper "broken"
// fails.
type echo struct{}

func (echo) Name() string { return "echo" }
func (echo) Search(_ context.Context, q retrieve.Query) ([]retrieve.Hit, error) {
	if q.PaperID == "broken" {
		return nil, errors.New("index unreadable")
	}
	return []retrieve.Hit{{Rank: 1, PaperID: q.PaperID, PassageID: q.Text}}, nil
}

// Each line gets one output line in input order: its hits, or an error
// naming its line, while the others go on; blank lines are skipped; a
// stream with no query is an error.
func TestSearch(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []string // substrings of each output line, in order
		failed   int
		err      string
	}{
		{"hits", `{"id":1,"query":"a"}` + "\n\n" + `{"id":"x","query":"b","paper":"p"}`,
			[]string{`{"id":1,"query":"a","hits":[{"rank":1`, `{"id":"x","query":"b","paper":"p","hits":[`}, 0, ""},
		{"bad lines", `{"id":1}` + "\n" + `not json` + "\n" + `{"query":"q"}` + "\n" + `{"id":2,"query":"q","paper":"broken"}` + "\n" + `{"id":3,"query":"q","extra":1}`,
			[]string{`"line":1,"error":"in line 1: no \"query\"`, `"line":2`, `no \"id\"`, `index unreadable`, `unknown field`}, 5, ""},
		{"empty", "\n  \n", nil, 0, "holds no queries"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out strings.Builder
			n, err := Search(context.Background(), echo{}, strings.NewReader(c.in), "in", 5, &out, nil)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if err != nil || len(lines) != len(c.want) || n.Total != len(c.want) || n.Failed != c.failed {
				t.Fatalf("%+v, %v; output:\n%s", n, err, out.String())
			}
			for i, w := range c.want {
				if !strings.Contains(lines[i], w) {
					t.Errorf("line %d %s lacks %s", i+1, lines[i], w)
				}
			}
		})
	}
}
