package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

func TestCleanPlain(t *testing.T) {
	tests := []struct {
		name, in, want string
		err            error
	}{
		{"one paragraph a line", "Title\nAbstract\nFirst para.\nSecond para.", "Title\n\nAbstract\n\nFirst para.\n\nSecond para.", nil},
		{"blank-line paragraphs join wrapped lines", "Title\n\nline one\nline two\n\nnext", "Title\n\nline one line two\n\nnext", nil},
		{"markdown heading without blank line", "# T\n\n## 1 Intro\nSome text\nmore\n\nEnd", "# T\n\n## 1 Intro\n\nSome text more\n\nEnd", nil},
		{"ligatures and CRLF", "e\ufb03cient\r\n\r\nﬁne", "efficient\n\nfine", nil},
		{"controls dropped, tabs become spaces", "a\tb\x07c\n\nd", "a bc\n\nd", nil},
		{"empty", "  \n\n ", "", ErrEmpty},
		{"binary", "abc\x00def", "", ErrNotText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cleanPlain([]byte(tt.in))
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// ingestDir runs one ingest into home and returns the results by source base name.
func ingestDir(t *testing.T, home string, opt Options, paths ...string) (map[string]Result, int) {
	t.Helper()
	st, err := corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got := map[string]Result{}
	failed, err := Run(context.Background(), st, paths, opt, func(r Result) {
		got[r.PaperID+"|"+filepath.Base(r.Source)] = r
	})
	if err != nil {
		t.Fatal(err)
	}
	if errs := st.Check(); len(errs) > 0 {
		t.Fatalf("store inconsistent: %v", errs)
	}
	return got, failed
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func longText(sentences int) string {
	var b strings.Builder
	b.WriteString("A Study of Things\n\nAbstract\n\n")
	for i := 0; i < sentences; i++ {
		b.WriteString("We measured the retrieval effect on long papers and found it small. ")
	}
	return b.String()
}

func TestRunMixedSources(t *testing.T) {
	src, home := t.TempDir(), t.TempDir()
	writeFiles(t, src, map[string]string{
		"notes.txt":        longText(40),
		"sub/paper.md":     "# A Paper\n\n## 1 Introduction\n\nText here. More text.\n",
		"ignored.csv":      "a,b\n1,2\n",
		".hidden/skip.txt": "should not be read",
		"bench.jsonl": `{"paper_id":"p1","paper_content":"Paper one text. It is short.","question":"q1"}
{"paper_id":"p1","paper_content":"Paper one text. It is short.","question":"q2"}
{not json
{"paper_id":"p2","paper_content":"Paper two.","question":"q3"}
`,
	})
	got, failed := ingestDir(t, home, Options{}, src)
	want := map[string]string{
		"notes|notes.txt":  StatusOK,
		"paper|paper.md":   StatusOK,
		"p1|bench.jsonl:1": StatusOK,
		"p2|bench.jsonl:4": StatusOK,
		"|bench.jsonl:3":   StatusError,
	}
	for k, status := range want {
		if got[k].Status != status {
			t.Errorf("%s: status %q (%s), want %q; all: %v", k, got[k].Status, got[k].Error, status, got)
		}
	}
	if len(got) != len(want) || failed != 1 {
		t.Errorf("got %d results with %d failures, want %d and 1: %v", len(got), failed, len(want), got)
	}
	st, _ := corpus.Open(home, true)
	defer st.Close()
	ps, err := st.Passages("paper")
	if err != nil || len(ps) == 0 || ps[len(ps)-1].Section == "" {
		t.Errorf("paper.md passages = %+v, %v; want a section on the last passage", ps, err)
	}
}

func TestReingestSkipsUnchangedWithoutExtracting(t *testing.T) {
	src, home := t.TempDir(), t.TempDir()
	writeFiles(t, src, map[string]string{"a.txt": longText(200), "b.txt": longText(30)})
	first, _ := ingestDir(t, home, Options{}, src)
	for k, r := range first {
		if r.Status != StatusOK {
			t.Fatalf("first run %s: %+v", k, r)
		}
	}
	before := extractions.Load()
	second, _ := ingestDir(t, home, Options{}, src)
	for k, r := range second {
		if r.Status != StatusSkipped || r.Passages != first[k].Passages || r.Tokens != first[k].Tokens {
			t.Errorf("second run %s: %+v, want skipped with the first run's counts %+v", k, r, first[k])
		}
	}
	if n := extractions.Load() - before; n != 0 {
		t.Errorf("re-ingesting unchanged files extracted %d documents, want 0", n)
	}

	// A new chunk size re-chunks the stored text; still no extraction.
	third, _ := ingestDir(t, home, Options{MaxTokens: 64}, src)
	if r := third["a|a.txt"]; r.Status != StatusOK || r.Passages <= first["a|a.txt"].Passages {
		t.Errorf("rechunk at 64 tokens: %+v, want more passages than %d", r, first["a|a.txt"].Passages)
	}
	if n := extractions.Load() - before; n != 0 {
		t.Errorf("re-chunking extracted %d documents, want 0", n)
	}

	// A changed file replaces its passages.
	writeFiles(t, src, map[string]string{"b.txt": "Replaced\n\nOnly this sentence now."})
	fourth, _ := ingestDir(t, home, Options{MaxTokens: 64}, src)
	if r := fourth["b|b.txt"]; r.Status != StatusOK || r.Passages != 1 {
		t.Errorf("changed b.txt: %+v, want ok with 1 passage", r)
	}
	if r := fourth["a|a.txt"]; r.Status != StatusSkipped {
		t.Errorf("unchanged a.txt: %+v, want skipped", r)
	}
	st, _ := corpus.Open(home, true)
	defer st.Close()
	text, _ := st.Text("b")
	if !strings.Contains(text, "Only this sentence now.") || strings.Contains(text, "measured") {
		t.Errorf("b's stored text was not replaced: %q", text)
	}
}

func TestMinTokensFlagsOrRejects(t *testing.T) {
	src := t.TempDir()
	writeFiles(t, src, map[string]string{"short.txt": "Tiny\n\nA short note.", "long.txt": longText(100)})
	got, failed := ingestDir(t, t.TempDir(), Options{MinTokens: 200}, src)
	if r := got["short|short.txt"]; r.Status != StatusOK || !strings.Contains(r.Warning, "short document") || failed != 0 {
		t.Errorf("flag mode: %+v (failed %d)", r, failed)
	}
	got, failed = ingestDir(t, t.TempDir(), Options{MinTokens: 200, RejectShort: true}, src)
	if r := got["short|short.txt"]; r.Status != StatusError || !strings.Contains(r.Error, "under --min-tokens 200") || failed != 1 {
		t.Errorf("reject mode: %+v (failed %d)", r, failed)
	}
	if r := got["long|long.txt"]; r.Status != StatusOK || r.Warning != "" {
		t.Errorf("long document: %+v", r)
	}
}

func TestPanicAndTimeoutCostOnlyThatDocument(t *testing.T) {
	orig := extractors["html"]
	defer func() { extractors["html"] = orig }()
	src := t.TempDir()
	writeFiles(t, src, map[string]string{"boom.html": "<p>x</p>", "ok.txt": longText(5)})

	extractors["html"] = func(context.Context, []byte) (extracted, error) { panic("index out of range") }
	got, failed := ingestDir(t, t.TempDir(), Options{}, src)
	if r := got["boom|boom.html"]; r.Status != StatusError || !strings.Contains(r.Error, "index out of range") {
		t.Errorf("panicking extractor: %+v", r)
	}
	if got["ok|ok.txt"].Status != StatusOK || failed != 1 {
		t.Errorf("other document: %+v, failed %d", got["ok|ok.txt"], failed)
	}

	release := make(chan struct{})
	defer close(release)
	extractors["html"] = func(context.Context, []byte) (extracted, error) { <-release; return extracted{}, nil }
	// The limit also bounds ok.txt, so it is far above that document's
	// few milliseconds on a busy machine; the hanging one can only time out.
	got, _ = ingestDir(t, t.TempDir(), Options{Timeout: time.Second}, src)
	if r := got["boom|boom.html"]; r.Status != StatusError || !strings.Contains(r.Error, "timed out after 1s") {
		t.Errorf("hanging extractor: %+v", r)
	}
	if got["ok|ok.txt"].Status != StatusOK {
		t.Errorf("other document: %+v", got["ok|ok.txt"])
	}
}

func TestExplicitPathsErrors(t *testing.T) {
	src := t.TempDir()
	writeFiles(t, src, map[string]string{"x.docx": "zz", "dup/a.txt": "One.", "a.md": "Two."})
	got, failed := ingestDir(t, t.TempDir(), Options{},
		filepath.Join(src, "x.docx"), filepath.Join(src, "missing.pdf"), filepath.Join(src, "dup", "a.txt"), filepath.Join(src, "a.md"))
	checks := map[string]string{
		"|x.docx":      "unsupported file type",
		"|missing.pdf": "no such file",
		"a|a.md":       "duplicate paper id",
	}
	for k, want := range checks {
		if r := got[k]; r.Status != StatusError || !strings.Contains(r.Error, want) {
			t.Errorf("%s: %+v, want error containing %q", k, r, want)
		}
	}
	if failed != 3 || got["a|a.txt"].Status != StatusOK {
		t.Errorf("failed = %d, a.txt = %+v", failed, got["a|a.txt"])
	}
}

// The broken files of the shared corpus each give a plain-worded error
// naming the file, and the batch goes on.
func TestSharedBadFiles(t *testing.T) {
	dir := testcorpus.Path(t, "corpus", "bad")
	got, failed := ingestDir(t, t.TempDir(), Options{}, dir)
	want := map[string]string{
		"empty|empty.pdf":                             "empty file",
		"not-a-pdf|not-a-pdf.pdf":                     "not a PDF",
		"truncated-batchnorm|truncated-batchnorm.pdf": "truncated PDF",
	}
	for k, phrase := range want {
		r := got[k]
		if r.Status != StatusError || !strings.Contains(r.Error, phrase) || !strings.HasSuffix(r.Source, strings.Split(k, "|")[1]) {
			t.Errorf("%s: %+v, want an error containing %q", k, r, phrase)
		}
	}
	if failed != 3 {
		t.Errorf("failed = %d, want 3", failed)
	}
}
