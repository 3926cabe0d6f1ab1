package corpus

import (
	"errors"
	"strings"
	"testing"
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
}

func TestOpenReadOnlyMissing(t *testing.T) {
	_, err := Open(t.TempDir(), true)
	if err == nil || !strings.Contains(err.Error(), "paperlens ingest") {
		t.Fatalf("read-only open of an empty home: %v", err)
	}
}
