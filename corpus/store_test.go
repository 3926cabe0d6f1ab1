package corpus

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/paperlens/paperlens/chunk/kind"
)

func tile(text string, cuts ...int) []Passage {
	var ps []Passage
	at := 0
	for _, c := range append(cuts, len(text)) {
		ps = append(ps, Passage{Start: at, End: c, Text: text[at:c]})
		at = c
	}
	return ps
}

func TestPutReplaceDeleteAndCheck(t *testing.T) {
	// In a synctest bubble the lock timeout's polling sleeps advance a fake
	// clock: an open that must give up does so at once, not after the
	// real timeout.
	synctest.Test(t, func(t *testing.T) {
		home := t.TempDir()
		s, err := Open(home, false)
		if err != nil {
			t.Fatal(err)
		}
		text := "First sentence. Second sentence. Third."
		if err := s.Put(Document{PaperID: "p", Title: "P"}, text, tile(text, 16, 33)); err != nil {
			t.Fatal(err)
		}
		ps, err := s.Passages("p")
		if err != nil || len(ps) != 3 || ps[1].PassageID != "p#1" || ps[1].Ordinal != 1 || ps[1].PaperID != "p" {
			t.Fatalf("passages = %+v, %v", ps, err)
		}
		if errs := s.Check(); len(errs) != 0 {
			t.Fatalf("check: %v", errs)
		}

		// Replacing with fewer passages must not leave the old third behind.
		short := "Only one."
		if err := s.Put(Document{PaperID: "p"}, short, tile(short)); err != nil {
			t.Fatal(err)
		}
		if ps, _ := s.Passages("p"); len(ps) != 1 || ps[0].Text != short {
			t.Fatalf("after replace: %+v", ps)
		}
		if d, _ := s.Doc("p"); d.Passages != 1 {
			t.Fatalf("doc passages = %d", d.Passages)
		}

		// Check catches passages that do not tile the text.
		if err := s.Put(Document{PaperID: "bad"}, text, []Passage{{Start: 0, End: 5, Text: "First"}}); err != nil {
			t.Fatal(err)
		}
		errs := s.Check()
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), `"bad"`) {
			t.Fatalf("check of a gapped paper: %v", errs)
		}
		if err := s.Delete("bad"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Doc("bad"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("deleted doc: %v", err)
		}
		if err := s.Delete("bad"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("second delete: %v", err)
		}
		s.Close()

		// A second writer is told the home is busy instead of hanging.
		s1, err := Open(home, false)
		if err != nil {
			t.Fatal(err)
		}
		defer s1.Close()
		if _, err := Open(home, false); err == nil || !strings.Contains(err.Error(), "another paperlens process") {
			t.Fatalf("second writer: %v", err)
		}
	})
}

func TestOpenReadOnlyMissing(t *testing.T) {
	_, err := Open(t.TempDir(), true)
	if err == nil || !strings.Contains(err.Error(), "paperlens ingest") {
		t.Fatalf("read-only open of an empty home: %v", err)
	}
}

// Kinds round-trip, and records written before kinds existed (no "kind",
// no "drop") read as body passages of a corpus that dropped nothing.
func TestPassageKinds(t *testing.T) {
	cases := []struct {
		name string
		json string
		want kind.Kind
	}{
		{"stored kind", `{"paper_id":"p","passage_id":"p#0","kind":"references","text":"x"}`, kind.References},
		{"old record", `{"paper_id":"p","passage_id":"p#0","section":"","text":"x"}`, kind.Body},
		{"explicit body", `{"paper_id":"p","kind":"body","text":"x"}`, kind.Body},
	}
	for _, c := range cases {
		var p Passage
		if err := json.Unmarshal([]byte(c.json), &p); err != nil {
			t.Fatal(err)
		}
		if p.KindOf() != c.want {
			t.Errorf("%s: kind %q, want %q", c.name, p.KindOf(), c.want)
		}
	}
	var d Document
	if err := json.Unmarshal([]byte(`{"paper_id":"p","max_tokens":512}`), &d); err != nil || d.Drop != "" {
		t.Fatalf("old document record: %+v %v", d, err)
	}
	if b, _ := json.Marshal(Passage{Text: "x"}); strings.Contains(string(b), "kind") {
		t.Errorf("a passage without kind writes %s", b)
	}

	s, err := Open(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	text := "Body text. [1] A reference."
	ps := tile(text, 11)
	ps[1].Kind = string(kind.References)
	if err := s.Put(Document{PaperID: "p", Drop: "contents,figure-text"}, text, ps); err != nil {
		t.Fatal(err)
	}
	got, err := s.Passages("p")
	if err != nil || got[0].KindOf() != kind.Body || got[1].KindOf() != kind.References {
		t.Fatalf("stored kinds: %+v %v", got, err)
	}
	if d, _ := s.Doc("p"); d.Drop != "contents,figure-text" {
		t.Errorf("stored drop %q", d.Drop)
	}
}

// TestPassageByID looks each passage up by id and gets what Passages
// decodes; ids of other shapes, or naming nothing, are ErrNotFound.
func TestPassageByID(t *testing.T) {
	s, err := Open(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	text := "First sentence. Second sentence. Third."
	for _, id := range []string{"p", "a#b"} { // a paper id may hold '#'
		if err := s.Put(Document{PaperID: id}, text, tile(text, 16, 33)); err != nil {
			t.Fatal(err)
		}
		all, err := s.Passages(id)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range all {
			got, err := s.Passage(want.PassageID)
			if err != nil || got != want {
				t.Fatalf("Passage(%q) = %+v, %v; want %+v", want.PassageID, got, err, want)
			}
		}
	}
	for _, id := range []string{"p#3", "p#-1", "p", "#0", "q#0", "p#x", "p#99999999999"} {
		if _, err := s.Passage(id); !errors.Is(err, ErrNotFound) {
			t.Errorf("Passage(%q) err = %v, want ErrNotFound", id, err)
		}
	}
}

// PutMany stores a batch in one commit, each paper as Put would; a batch
// that fails part-way stores none of its papers, and what was stored
// before it stays.
func TestPutManyOneCommitAllOrNone(t *testing.T) {
	s, err := Open(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	texts := []string{"Alpha beta. Gamma delta.", "One two three.", "Lone passage here."}
	var batch []Paper
	for i, text := range texts {
		id := string(rune('a' + i))
		batch = append(batch, Paper{Doc: Document{PaperID: id, Title: id}, Text: text, Passages: tile(text, len(text)/2)})
	}
	if err := s.PutMany(batch); err != nil {
		t.Fatal(err)
	}
	if s.Commits() != 1 {
		t.Errorf("%d commits for one batch of %d papers, want 1", s.Commits(), len(batch))
	}
	for i, text := range texts {
		id := string(rune('a' + i))
		got, err := s.Text(id)
		d, derr := s.Doc(id)
		if err != nil || derr != nil || got != text || d.Passages != 2 {
			t.Errorf("%s: text %q (%v), record %+v (%v)", id, got, err, d, derr)
		}
	}
	if errs := s.Check(); len(errs) != 0 {
		t.Fatalf("check: %v", errs)
	}

	// bbolt refuses an empty key: the batch's earlier paper must not stay.
	bad := []Paper{{Doc: Document{PaperID: "d"}, Text: "Fine text.", Passages: tile("Fine text.")}, {Doc: Document{PaperID: ""}, Text: "x", Passages: tile("x")}}
	if err := s.PutMany(bad); err == nil {
		t.Fatal("a batch with an empty paper id was stored")
	}
	if _, err := s.Doc("d"); !errors.Is(err, ErrNotFound) {
		t.Errorf("paper d of the failed batch: %v, want not found", err)
	}
	if docs, _ := s.Docs(); len(docs) != len(texts) || s.Commits() != 1 {
		t.Errorf("after the failed batch: %d papers, %d commits; want %d and 1", len(docs), s.Commits(), len(texts))
	}

	// An id given twice keeps the later paper; an empty batch commits nothing.
	again := []Paper{{Doc: Document{PaperID: "a"}, Text: "Old.", Passages: tile("Old.")}, {Doc: Document{PaperID: "a"}, Text: "New text.", Passages: tile("New text.")}}
	if err := s.PutMany(again); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Text("a"); got != "New text." {
		t.Errorf("a given twice: %q, want the later text", got)
	}
	if err := s.PutMany(nil); err != nil || s.Commits() != 2 {
		t.Errorf("empty batch: %v, %d commits, want none made", err, s.Commits())
	}
	if errs := s.Check(); len(errs) != 0 {
		t.Fatalf("check: %v", errs)
	}
}

// TestGenerationCountsChanges: every write moves the generation, reads do
// not, and a reopened store keeps it.
func TestGenerationCountsChanges(t *testing.T) {
	home := t.TempDir()
	s, err := Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	gen := func() uint64 {
		t.Helper()
		g, err := s.Generation()
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	g0 := gen()
	text := "First sentence. Second sentence."
	if err := s.Put(Document{PaperID: "p"}, text, tile(text, 16)); err != nil {
		t.Fatal(err)
	}
	g1 := gen()
	if g1 == g0 {
		t.Fatal("storing a paper left the generation unchanged")
	}
	if _, err := s.Passages("p"); err != nil {
		t.Fatal(err)
	}
	if gen() != g1 {
		t.Fatal("a read changed the generation")
	}
	if err := s.Delete("p"); err != nil {
		t.Fatal(err)
	}
	g2 := gen()
	if g2 == g1 {
		t.Fatal("deleting a paper left the generation unchanged")
	}
	if err := s.Delete("p"); err == nil || gen() != g2 {
		t.Fatalf("a failed delete: err %v, generation %d -> %d", err, g2, gen())
	}
	s.Close()
	if s, err = Open(home, true); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if gen() != g2 {
		t.Fatal("reopening changed the generation")
	}
}
