package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// storedPassages reads a paper's passages through `paperlens passages --json`.
func storedPassages(t *testing.T, home, id string) []corpus.Passage {
	t.Helper()
	out, errOut, code := paperlens(t, "passages", "--json", "--home", home, id)
	if code != 0 {
		t.Fatalf("passages %s: exit %d %s", id, code, errOut)
	}
	var ps []corpus.Passage
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var p corpus.Passage
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

// An HTML page's h2 headings label its passages, every passage is body (a
// heading joins the passage after it), and --drop leaves out exactly the
// kinds it names: with --drop heading, the stored text is the page's
// paragraphs less its headings.
func TestIngestDropHTML(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	page := testcorpus.Path(t, "corpus", "html", "distill-momentum.html")
	steps := []struct {
		drop, changedFrom string
	}{
		{"", ""},
		{"heading", "contents,figure-text"},
	}
	var paras []string // the page's paragraphs as first stored
	for i, s := range steps {
		args := []string{"ingest", "--json", "--home", home}
		if s.drop != "" {
			args = append(args, "--drop", s.drop)
		}
		out, errOut, code := paperlens(t, append(args, page)...)
		rs := decodeResults(t, out)
		if code != 0 || len(rs) != 1 || rs[0].Status != "ok" || rs[0].DropChangedFrom != s.changedFrom {
			t.Fatalf("step %d: exit %d %+v %s", i, code, rs, errOut)
		}
		ps := storedPassages(t, home, "distill-momentum")
		var text strings.Builder
		for _, p := range ps {
			text.WriteString(p.Text)
			if p.KindOf() != kind.Body || p.Kind != "body" {
				t.Errorf("step %d: passage %s is %q", i, p.PassageID, p.Kind)
			}
		}
		got := strings.Split(strings.TrimSpace(text.String()), "\n\n")
		if i == 0 {
			paras = got
			sections := map[string]bool{}
			for _, p := range ps {
				sections[p.Section] = true
			}
			h2 := 0
			for _, p := range paras {
				if title, ok := strings.CutPrefix(p, "## "); ok {
					h2++
					if !sections[title] && !strings.Contains(text.String(), p+"\n\n## ") {
						t.Errorf("h2 %q labels no passage, though text follows it", title)
					}
				}
			}
			if h2 < 3 {
				t.Fatalf("%d h2 headings on the page", h2)
			}
			continue
		}
		var want []string
		for _, p := range paras {
			if !strings.HasPrefix(p, "#") {
				want = append(want, p)
			}
		}
		if strings.Join(got, "\n\n") != strings.Join(want, "\n\n") {
			t.Errorf("--drop heading stored %d paragraphs, want the %d of the page that are not headings", len(got), len(want))
		}
		for _, p := range ps {
			if p.Section != "" {
				t.Errorf("passage %s has section %q with the headings dropped", p.PassageID, p.Section)
			}
		}
	}
	if _, errOut, code := paperlens(t, "ingest", "--home", home, "--drop", "refs", page); code != 2 || !strings.Contains(errOut, `unknown passage kind "refs"`) || !strings.Contains(errOut, "references") {
		t.Errorf("--drop refs: exit %d %q", code, errOut)
	}
}

// A paper whose bibliography repeats the query: its top hit is a reference,
// and search --exclude-kinds references returns k hits of other kinds.
func TestSearchExcludeKinds(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	st, err := corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var ps []corpus.Passage
	add := func(k kind.Kind, s string) {
		start := b.Len()
		b.WriteString(s + "\n\n")
		ps = append(ps, corpus.Passage{Start: start, End: b.Len(), Text: b.String()[start:], Kind: string(k), Tokens: len(strings.Fields(s))})
	}
	for i := range 16 {
		add(kind.References, fmt.Sprintf("[%d] A. Author%d. Reservoir saliency of parked tokens: parked tokens and reservoir saliency. Venue, 20%02d.", i+1, i, i))
	}
	for _, s := range []string{
		"Pruned tokens are restored from the reservoir when needed again.",
		"The reservoir holds what each layer pruned, ordered by importance.",
		"Saliency is measured from the attention each word receives.",
		"Training uses the usual cross-entropy loss with no extra terms.",
	} {
		add(kind.Body, s)
	}
	if err := st.Put(corpus.Document{PaperID: "pruning", SourceHash: "x", Extractor: "test", MaxTokens: 512}, b.String(), ps); err != nil {
		t.Fatal(err)
	}
	st.Close()
	search := func(extra ...string) []map[string]any {
		args := append([]string{"search", "--json", "--home", home, "--paper", "pruning", "-k", "3"}, extra...)
		out, errOut, code := paperlens(t, append(args, "reservoir saliency parked tokens")...)
		if code != 0 {
			t.Fatalf("search %v: exit %d %s", extra, code, errOut)
		}
		var hits []map[string]any
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var h map[string]any
			if err := json.Unmarshal([]byte(l), &h); err != nil {
				t.Fatal(err)
			}
			hits = append(hits, h)
		}
		return hits
	}
	isRef := func(h map[string]any) bool { return strings.HasPrefix(h["text"].(string), "[") }
	if all := search(); !isRef(all[0]) {
		t.Fatalf("top hit without exclusion is not a reference: %v", all[0])
	}
	hits := search("--exclude-kinds", "references")
	if len(hits) != 3 {
		t.Errorf("%d hits, want 3", len(hits))
	}
	for _, h := range hits {
		if isRef(h) {
			t.Errorf("a reference among the hits: %v", h)
		}
	}
	// ask gives the model the passages of the other kinds too.
	for _, c := range []struct {
		exclude string
		refs    bool
	}{{"", true}, {"references", false}} {
		out, errOut, code := paperlens(t, "ask", "--home", home, "--paper", "pruning", "--mode", "bm25", "-k", "3", "--exclude-kinds", c.exclude, "reservoir saliency parked tokens")
		if code != 0 || strings.Count(out, "pruning#") != 3 {
			t.Fatalf("ask --exclude-kinds %q: exit %d %s %s", c.exclude, code, out, errOut)
		}
		if got := strings.Contains(out, "\n    ["); got != c.refs {
			t.Errorf("ask --exclude-kinds %q: references among the passages: %v\n%s", c.exclude, got, out)
		}
	}
	if _, errOut, code := paperlens(t, "search", "--home", home, "--exclude-kinds", "bibliography", "x"); code != 2 || !strings.Contains(errOut, "--exclude-kinds") {
		t.Errorf("bad kind: exit %d %q", code, errOut)
	}
}

// eval records --exclude-kinds in the run folder and refuses to resume
// the run with another setting, naming the flag.
func TestEvalResumeOtherExcludeKinds(t *testing.T) {
	t.Parallel()
	home, out := t.TempDir(), filepath.Join(t.TempDir(), "run")
	data := filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")
	eval := func(extra ...string) (string, int) {
		args := append([]string{"eval", "--home", home, "--data", data, "--model", "ir", "--mode", "bm25", "--runs", "1", "--limit", "2", "--out", out}, extra...)
		_, errOut, code := paperlens(t, args...)
		return errOut, code
	}
	if errOut, code := eval("--exclude-kinds", "references,front-matter"); code != 0 {
		t.Fatalf("eval: exit %d %s", code, errOut)
	}
	var cfg map[string]any
	if err := json.Unmarshal(readFile(t, filepath.Join(out, "config.json")), &cfg); err != nil || cfg["exclude_kinds"] != "references,front-matter" {
		t.Errorf("config.json exclude_kinds = %v (%v)", cfg["exclude_kinds"], err)
	}
	if errOut, code := eval(); code == 0 || !strings.Contains(errOut, "--exclude-kinds references,front-matter, now none") {
		t.Errorf("resume without --exclude-kinds: exit %d %q", code, errOut)
	}
	if errOut, code := eval("--exclude-kinds", "front-matter, references"); code != 0 {
		t.Errorf("resume with the same kinds in another order: exit %d %q", code, errOut)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
