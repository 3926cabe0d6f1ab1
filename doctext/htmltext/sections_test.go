package htmltext

import (
	"strings"
	"testing"

	"github.com/paperlens/paperlens/chunk"
	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// On the shared pages every h2 becomes a section: the passages that follow
// it carry its title (Distill pages number no heading, so before the
// markers none of theirs was a section), and the heading opens a passage
// of body text rather than standing alone.
func TestHeadingsBecomeSections(t *testing.T) {
	for _, name := range []string{"acl2014-cnn-sentences.xhtml", "distill-augmented-rnns.html", "distill-gnn-intro.html", "distill-misread-tsne.html", "distill-momentum.html"} {
		t.Run(name, func(t *testing.T) {
			doc, err := ExtractFile(testcorpus.Path(t, "corpus", "html", name))
			if err != nil {
				t.Fatal(err)
			}
			// Every heading span is a whole paragraph, and every markdown
			// heading paragraph is in one.
			marked := map[string]bool{}
			for _, sp := range doc.Spans {
				p := doc.Text[sp.Start:sp.End]
				if sp.Kind != kind.Heading || strings.Contains(p, "\n") ||
					(sp.Start > 0 && doc.Text[sp.Start-2:sp.Start] != "\n\n") {
					t.Errorf("span %+v is not a heading paragraph: %q", sp, p)
				}
				marked[p] = true
			}
			heads := map[string]int{}
			for _, h := range chunk.Headings(doc.Text) {
				heads[h.Title] = h.Level
			}
			h2 := 0
			for _, p := range strings.Split(doc.Text, "\n\n") {
				if strings.HasPrefix(p, "#") && !marked[p] {
					t.Errorf("heading %q not marked", p)
				}
				marks, title, ok := strings.Cut(p, " ")
				if !ok || strings.Trim(marks, "#") != "" {
					continue
				}
				if level, found := heads[title]; !found || (level != len(marks) && !strings.ContainsAny(title[:1], "0123456789")) {
					t.Errorf("%s heading %q is not a section of level %d for the chunker (found %v, level %d)", marks, title, len(marks), found, level)
				}
				if len(marks) == 2 {
					h2++
				}
			}
			if h2 == 0 {
				t.Fatal("no h2 heading on the page")
			}
			ps := chunk.Split(doc.Text, chunk.Options{Spans: doc.Spans})
			first := strings.Index(doc.Text, "## ")
			for _, p := range ps {
				if p.Kind != kind.Body {
					t.Errorf("passage %d has kind %s", p.Ordinal, p.Kind)
				}
				if p.Start >= first && p.Section == "" {
					t.Errorf("passage %d, after the first h2, has no section", p.Ordinal)
				}
				if txt := strings.TrimSpace(p.Text); strings.HasPrefix(txt, "#") && !strings.Contains(txt, "\n") {
					t.Errorf("passage %d is a heading alone: %q", p.Ordinal, txt)
				}
			}
		})
	}
}
