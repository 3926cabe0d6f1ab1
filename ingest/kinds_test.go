package ingest

import (
	"context"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/corpus"
)

// markedExtract stands in for an extractor that marks kinds: a page
// starting "marked:" is paragraphs, each optionally led by its kind in
// brackets ("[references] [1] A. Author..."). Both this process and the
// test's worker processes read it (see TestMain).
func markedExtract(raw []byte) (extracted, bool) {
	body, ok := strings.CutPrefix(string(raw), "marked:\n")
	if !ok {
		return extracted{}, false
	}
	var b strings.Builder
	var spans []kind.Span
	for i, p := range strings.Split(strings.TrimSpace(body), "\n\n") {
		if i > 0 {
			b.WriteString("\n\n")
		}
		k := kind.Body
		if rest, ok := strings.CutPrefix(p, "["); ok {
			name, text, _ := strings.Cut(rest, "] ")
			k, p = kind.Kind(name), text
		}
		start := b.Len()
		b.WriteString(p)
		spans = append(spans, kind.Span{Start: start, End: b.Len(), Kind: k})
	}
	return extracted{title: "Marked", text: b.String(), spans: spans}, true
}

// markedPaper has one paragraph of every kind; each paragraph's text names
// its kind, so a test can tell from the stored text which kinds survived.
const markedPaper = `marked:
[front-matter] FRONTMATTER Proceedings of the Workshop on Passages, 2024.

[contents] CONTENTS 1 Introduction . . . . . 1 2 Method . . . . . 2

[heading] 1 Introduction

BODY We study how passages of papers are retrieved for questions about them.

[figure-text] FIGURETEXT 0 10 20 30 epochs accuracy

[table] TABLE Method | Recall@5

[caption] CAPTION Table 1: Recall of the methods.

BODY The method keeps each passage to one kind of text.

[heading] References

[references] REFERENCES [1] A. Author. Passages of papers. In Proc. of a venue, 2020.`

var markedKinds = []kind.Kind{kind.FrontMatter, kind.Contents, kind.FigureText, kind.Table, kind.Caption, kind.Body, kind.References}

// storedKinds reads back which kinds' text a paper's stored text holds and
// the kinds its passages record. The document's spans must mark each
// kind's text as that kind; passages made without merging
// (MinPassageTokens -1) must each record the kind their text names, while
// merged ones (these paragraphs are all short) hold several.
func storedKinds(t *testing.T, home, id string) (text kind.Set, passages kind.Set, doc corpus.Document) {
	t.Helper()
	st, err := corpus.Open(home, true)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	stored, err := st.Text(id)
	if err != nil {
		t.Fatal(err)
	}
	text, passages = kind.Set{}, kind.Set{}
	for _, k := range markedKinds {
		if strings.Contains(stored, strings.ToUpper(strings.ReplaceAll(string(k), "-", ""))) {
			text[k] = true
		}
	}
	ps, err := st.Passages(id)
	if err != nil {
		t.Fatal(err)
	}
	doc, err = st.Doc(id)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		passages[p.KindOf()] = true
		// The kind a passage records is the kind its text names.
		for _, k := range markedKinds {
			if doc.MinPassageTokens < 0 && strings.Contains(p.Text, strings.ToUpper(strings.ReplaceAll(string(k), "-", ""))) && k != p.KindOf() {
				t.Errorf("passage %s is %s but holds %s text: %q", p.PassageID, p.KindOf(), k, p.Text)
			}
		}
	}
	for _, k := range markedKinds {
		marker := strings.ToUpper(strings.ReplaceAll(string(k), "-", ""))
		if i := strings.Index(stored, marker); i >= 0 && kind.At(doc.Spans, i) != k {
			t.Errorf("the stored spans mark %s text as %s", k, kind.At(doc.Spans, i))
		}
	}
	return text, passages, doc
}

func TestDropKinds(t *testing.T) {
	orig := extractors["html"]
	defer func() { extractors["html"] = orig }()
	extractors["html"] = func(ctx context.Context, raw []byte) (extracted, error) {
		if e, ok := markedExtract(raw); ok {
			return e, nil
		}
		return orig(ctx, raw)
	}
	src := t.TempDir()
	writeFiles(t, src, map[string]string{"paper.html": markedPaper})
	cases := []struct {
		drop     string
		name     string // as recorded
		isolated bool
		dropped  []kind.Kind
	}{
		{"", "contents,figure-text", false, kind.DefaultDrop},
		{"", "contents,figure-text", true, kind.DefaultDrop},
		{"none", "none", false, nil},
		{"none", "none", true, nil},
		{"references, front-matter", "references,front-matter", false, []kind.Kind{kind.References, kind.FrontMatter}},
		{"figure-text,table,caption,contents", "table,caption,contents,figure-text", true, []kind.Kind{kind.Table, kind.Caption, kind.Contents, kind.FigureText}},
	}
	for _, c := range cases {
		iso := "in process"
		// Passages as packed, so that each of these short paragraphs is
		// one; TestDropChangeReingests merges them.
		opt := Options{Drop: c.drop, Isolation: &Isolation{Off: true}, MinPassageTokens: -1}
		if c.isolated {
			iso, opt.Isolation = "isolated", testIsolation
		}
		t.Run(c.name+" "+iso, func(t *testing.T) {
			home := t.TempDir()
			got, failed := ingestDir(t, home, opt, src)
			if r := got["paper|paper.html"]; failed != 0 || r.Status != StatusOK {
				t.Fatalf("ingest: %+v", got)
			}
			text, passages, doc := storedKinds(t, home, "paper")
			dropped := kind.NewSet(c.dropped)
			for _, k := range markedKinds {
				if text.Has(k) == dropped.Has(k) {
					t.Errorf("stored text holds %s: %v, dropped: %v", k, text.Has(k), dropped.Has(k))
				}
				if passages.Has(k) == dropped.Has(k) {
					t.Errorf("a passage is %s: %v, dropped: %v", k, passages.Has(k), dropped.Has(k))
				}
			}
			if passages.Has(kind.Heading) {
				t.Error("a passage of kind heading")
			}
			if doc.Drop != c.name {
				t.Errorf("recorded drop %q, want %q", doc.Drop, c.name)
			}
		})
	}
}

// A change of --drop re-makes the passages: from the stored text when it
// leaves out more kinds than before, from the source when it keeps a kind
// the stored text lacks. A record from before the setting (no drop) reads
// as having dropped nothing. The paragraphs are short, so passages merge
// across kinds: the kinds dropped from the stored text come from the
// document's stored spans, not from its passages.
func TestDropChangeReingests(t *testing.T) {
	orig := extractors["html"]
	defer func() { extractors["html"] = orig }()
	extractors["html"] = func(ctx context.Context, raw []byte) (extracted, error) {
		e, _ := markedExtract(raw)
		return e, nil
	}
	src, home := t.TempDir(), t.TempDir()
	writeFiles(t, src, map[string]string{"paper.html": markedPaper})
	off := &Isolation{Off: true}
	steps := []struct {
		drop        string
		status      string
		extracts    int64
		changedFrom string
		hasText     []kind.Kind
		lacksText   []kind.Kind
	}{
		{"none", StatusOK, 1, "", markedKinds, nil},
		{"none", StatusSkipped, 0, "", nil, nil},
		// Leaving out more: the stored text suffices.
		{"", StatusOK, 0, "none", []kind.Kind{kind.References}, []kind.Kind{kind.Contents, kind.FigureText}},
		{"contents,figure-text,references", StatusOK, 0, "contents,figure-text", nil, []kind.Kind{kind.References, kind.Contents}},
		// Keeping references again needs the source.
		{"", StatusOK, 1, "references,contents,figure-text", []kind.Kind{kind.References}, []kind.Kind{kind.Contents}},
		{"contents,figure-text", StatusSkipped, 0, "", nil, nil},
	}
	for i, s := range steps {
		before := extractions.Load()
		got, _ := ingestDir(t, home, Options{Drop: s.drop, Isolation: off}, src)
		r := got["paper|paper.html"]
		if r.Status != s.status || r.DropChangedFrom != s.changedFrom {
			t.Errorf("step %d (--drop %q): %+v, want %s changed from %q", i, s.drop, r, s.status, s.changedFrom)
		}
		if n := extractions.Load() - before; n != s.extracts {
			t.Errorf("step %d (--drop %q): %d extractions, want %d", i, s.drop, n, s.extracts)
		}
		text, _, _ := storedKinds(t, home, "paper")
		for _, k := range s.hasText {
			if !text.Has(k) {
				t.Errorf("step %d: stored text lacks %s", i, k)
			}
		}
		for _, k := range s.lacksText {
			if text.Has(k) {
				t.Errorf("step %d: stored text holds %s", i, k)
			}
		}
		if i == 1 {
			// Make the record look like one from before --drop existed.
			st, err := corpus.Open(home, false)
			if err != nil {
				t.Fatal(err)
			}
			d, _ := st.Doc("paper")
			txt, _ := st.Text("paper")
			ps, _ := st.Passages("paper")
			d.Drop = ""
			if err := st.Put(d, txt, ps); err != nil {
				t.Fatal(err)
			}
			st.Close()
			if !UpToDate(d, d.SourceHash, d.MaxTokens, "none") || UpToDate(d, d.SourceHash, d.MaxTokens, "") {
				t.Error("an old record is not read as --drop none")
			}
		}
	}
}

func TestParseDrop(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"", "contents,figure-text", ""},
		{"none", "none", ""},
		{" References ,contents", "references,contents", ""},
		{"front_matter", "front-matter", ""},
		{"refs", "", `--drop: unknown passage kind "refs"`},
	} {
		ks, err := ParseDrop(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || DropName(ks) != c.want {
			t.Errorf("%q: %q %v, want %q", c.in, DropName(ks), err, c.want)
		}
	}
}
