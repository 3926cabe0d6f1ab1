package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"github.com/paperlens/paperlens/internal/testkit/golden"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// TestProcessGolden pins what each document's processing reports and
// stores through a sequence of runs over one folder of every kind of
// source (text, Markdown, HTML, PDF, dataset rows, broken files): a first
// ingest, an unchanged one (skipped), a new passage size (re-chunked
// without extraction), keeping every kind (re-extracted), dropping the
// default kinds again (re-chunked from the stored spans), a forced one,
// and the first ingest again in worker processes. Results (but their
// seconds) and the stored documents (but their time), texts and passages
// are pinned; paths are cut to the folder. Regenerate with
// INGEST_WRITE_GOLDEN=1 only for a deliberate change.
func TestProcessGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("extracts PDFs in and out of worker processes")
	}
	src := t.TempDir()
	copyIn := func(from string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, filepath.Base(from)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	papers, _ := filepath.Glob("../testdata/papers/*")
	gt, _ := filepath.Glob("../testdata/groundtruth/*.pdf")
	for _, p := range append(papers, gt[:3]...) {
		copyIn(p)
	}
	for _, p := range []string{"corpus/pdf/batchnorm.pdf", "corpus/html/distill-momentum.html", "corpus/bad/empty.pdf", "corpus/bad/not-a-pdf.pdf", "corpus/bad/truncated-batchnorm.pdf"} {
		copyIn(testcorpus.Path(t, strings.Split(p, "/")...))
	}
	writeFiles(t, src, map[string]string{
		"notes.txt": longText(60),
		"bench.jsonl": `{"paper_id":"p1","paper_content":"Paper one text. It is short but it is a paper.","question":"q1"}
{not json
{"paper_id":"p2","paper_content":"` + strings.Repeat("Paper two says more. ", 80) + `","question":"q3"}
`,
	})
	var b strings.Builder
	step := func(name, home string, opt Options) {
		st, err := corpus.Open(home, false)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		var res []Result
		failed, err := Run(context.Background(), st, []string{src}, opt, func(r Result) {
			r.Seconds = 0
			r.Source = strings.ReplaceAll(r.Source, src, "SRC")
			r.Error = strings.ReplaceAll(r.Error, src, "SRC")
			res = append(res, r)
		})
		sort.Slice(res, func(i, j int) bool { return res[i].Source+res[i].PaperID < res[j].Source+res[j].PaperID })
		fmt.Fprintf(&b, "== %s: %d failed, %v\n", name, failed, err)
		for _, r := range res {
			js, _ := json.Marshal(r)
			fmt.Fprintf(&b, "result %s\n", js)
		}
		docs, err := st.Docs()
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			d.IngestedAt = time.Time{}
			d.Source = strings.ReplaceAll(d.Source, src, "SRC")
			js, _ := json.Marshal(d)
			text, terr := st.Text(d.PaperID)
			ps, perr := st.Passages(d.PaperID)
			pj, _ := json.Marshal(ps)
			fmt.Fprintf(&b, "doc %s\ntext %x %v passages %x %v\n", js, sha256.Sum256([]byte(text)), terr, sha256.Sum256(pj), perr)
		}
	}
	home := t.TempDir()
	off := &Isolation{Off: true}
	step("first", home, Options{MaxTokens: 128, Isolation: off})
	step("unchanged", home, Options{MaxTokens: 128, Isolation: off})
	step("new passage size", home, Options{MaxTokens: 256, Isolation: off})
	step("keep every kind", home, Options{MaxTokens: 256, Drop: "none", Isolation: off})
	step("default kinds again", home, Options{MaxTokens: 256, Isolation: off})
	step("forced", home, Options{MaxTokens: 256, Force: true, Isolation: off})
	step("in workers", t.TempDir(), Options{MaxTokens: 128, Isolation: testIsolation, Workers: 2})

	got := b.String()
	golden.Check(t, "testdata/process.golden", got, "INGEST_WRITE_GOLDEN")
}
