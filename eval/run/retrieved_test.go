package run

import (
	"strings"
	"testing"
)

// A run:NAME mode needs its file and a file its mode; a file changed
// since a folder's run is a different retrieval, which a resume refuses
// to mix in.
func TestRetrievedFiles(t *testing.T) {
	base := Config{Bench: "elaipbench", Data: "sample.jsonl", Model: "random"}
	for _, c := range []struct {
		modes []string
		files []RetrievedFile
		want  string
	}{
		{[]string{"closed-book", "run:mine"}, nil, "--mode run:mine takes its passages from a run file: give it as --retrieved mine=FILE"},
		{[]string{"closed-book"}, []RetrievedFile{{Name: "mine", Path: "/x/mine.trec"}}, "--retrieved mine=/x/mine.trec is the retrieval of mode run:mine, which --mode does not list: add run:mine to --mode"},
		{[]string{"run:a b"}, nil, `mode "run:a b": run file name "a b": use letters, digits`},
		{[]string{"run:mine"}, []RetrievedFile{{Name: "mine", Path: "/a"}, {Name: "mine", Path: "/b"}}, "--retrieved mine is given twice"},
		{[]string{"run:mine", "bm25"}, []RetrievedFile{{Name: "mine", Path: "/x/mine.trec"}}, ""},
	} {
		cfg := base
		cfg.Modes, cfg.Retrieved = c.modes, c.files
		cfg.Defaults(nil)
		err := cfg.Validate()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("modes %v, files %v: %v, want %q", c.modes, c.files, err, c.want)
		}
	}
	old := base
	old.Retrieved = []RetrievedFile{{Name: "mine", Path: "/x/mine.trec", SHA256: "aaaaaaaaaaaaaaaa"}, {Name: "gone", Path: "/x/gone.trec", SHA256: "cc"}}
	cur := base
	cur.Retrieved = []RetrievedFile{{Name: "mine", Path: "/x/mine.trec", SHA256: "bbbbbbbbbbbbbbbb"}}
	if d := contextDiff(old, cur); d != "--retrieved mine: /x/mine.trec (SHA-256 aaaaaaaaaaaa…), now /x/mine.trec (SHA-256 bbbbbbbbbbbb…)" {
		t.Errorf("contextDiff = %q", d)
	}
	if f, ok := cur.RetrievedFile("run:mine"); !ok || f.Path != "/x/mine.trec" {
		t.Errorf("RetrievedFile(run:mine) = %+v, %v", f, ok)
	}
	if _, ok := cur.RetrievedFile("bm25"); ok {
		t.Error("bm25 has a run file")
	}
}
