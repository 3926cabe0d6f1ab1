package htmltext

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
	"golang.org/x/net/html"
)

// rewriteCases is a page with every element the preprocessing rewrites:
// MathML and SVG, scripts and form controls, icon fonts, KaTeX's visual
// copy, figures, a LaTeXML document and its captions, Distill's margin
// notes, citations, footnotes, formulas, front matter and bibliography,
// and unknown custom elements with and without block children.
const rewriteCases = `<html><head><title>Rewrite cases</title><style>p{}</style><script>var x;</script></head><body>
<!-- a comment -->
<div class="ltx_document"><h1>1 Introduction</h1>
<p>Energy is <math alttext="E=mc^2"><mi>E</mi></math> and <math><mi>x</mi><mo>+</mo><mn>1</mn></math> here, in a sentence long enough to be kept as prose.</p>
<svg><text>chart label</text></svg><noscript>enable js</noscript><button>Click</button><input value="x"><select><option>o</option></select><textarea>t</textarea><canvas></canvas><template><p>tmpl</p></template>
<p>An icon <i class="material-icons">play_arrow</i><span class="material-icons-outlined">pause</span> and a formula <span class="katex"><span class="katex-mathml">a+b</span><span class="katex-html">a + b</span></span> sit in this sentence of running text.</p>
<figure><img src="a.png"><figcaption>Figure 1: A figure caption that says what the plot shows.</figcaption><figure><figcaption>Figure 1a: A nested caption.</figcaption></figure></figure>
<div class="ltx_caption">Table 2: Accuracy of every model on every benchmark we ran.</div>
</div>
<d-title><h1>Distill title</h1><p>A lead paragraph that introduces the article in a sentence or two.</p></d-title>
<d-front-matter>{"title": "json"}</d-front-matter>
<d-article><p>Body text of the article with a citation <d-cite key="x">[1]</d-cite> and an empty one <d-cite key="y"></d-cite> and a footnote<d-footnote>the footnote text</d-footnote> and an empty one<dt-fn> </dt-fn>, long enough.</p>
<aside>A margin note in a sentence.</aside><aside><p>A margin note with a paragraph.</p></aside>
<p>Inline maths <d-math>x^2</d-math> and a <x-widget>widget</x-widget> and a <x-panel><p>panel paragraph text</p></x-panel>.</p></d-article>
<d-appendix><h3>Acknowledgements</h3><p>We thank the reviewers for their careful reading of the paper.</p></d-appendix>
<d-bibliography>@article{x}</d-bibliography>
<dt-article><p>An older Distill article body.</p></dt-article>
</body></html>`

// TestGoldenDocuments pins the Document (title, text, spans) or the error,
// and the preprocessed HTML, of every HTML page the project has: the shared corpus, the
// repository's test pages, the fuzz seeds and rewriteCases. Hashes only,
// since the corpus pages may not be committed. Regenerate with
// HTMLTEXT_WRITE_GOLDEN=1 only for a deliberate change of extraction.
func TestGoldenDocuments(t *testing.T) {
	in := map[string][]byte{"rewrite-cases": []byte(rewriteCases)}
	add := func(label, path string) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		in[label] = b
	}
	local, _ := filepath.Glob("testdata/*.html")
	papers, _ := filepath.Glob("../../testdata/papers/*.html")
	for _, p := range append(local, papers...) {
		add("repo/"+filepath.Base(p), p)
	}
	seeds, _ := filepath.Glob("testdata/fuzz/FuzzExtract/*")
	for _, p := range seeds {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		in["fuzz/"+filepath.Base(p)] = raw // the seed file as a page: its bytes are HTML-ish text too
	}
	for _, p := range testcorpus.Glob(t, "corpus", "html", "*") {
		add("shared/"+filepath.Base(p), p)
	}
	got := map[string]string{}
	for label, data := range in {
		var out []byte
		doc, err := Extract(bytes.NewReader(data), "https://example.org/"+label)
		if err != nil {
			out = []byte("error: " + err.Error())
		} else if out, err = json.Marshal(doc); err != nil {
			t.Fatal(err)
		}
		// The preprocessed tree itself, so that a rewrite outside the main
		// content is pinned too.
		if root, err := html.Parse(bytes.NewReader(data)); err == nil {
			preprocess(root)
			var tree bytes.Buffer
			if err := html.Render(&tree, root); err == nil {
				out = append(append(out, 0), tree.Bytes()...)
			}
		}
		sum := sha256.Sum256(out)
		got[label] = hex.EncodeToString(sum[:])
	}
	const golden = "testdata/golden.sha256"
	if os.Getenv("HTMLTEXT_WRITE_GOLDEN") != "" {
		var names []string
		for n := range got {
			names = append(names, n)
		}
		sort.Strings(names)
		var b strings.Builder
		for _, n := range names {
			fmt.Fprintf(&b, "%s  %s\n", got[n], n)
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	raw, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(raw)), "\n") {
		if sum, name, ok := strings.Cut(line, "  "); ok {
			want[name] = sum
		}
	}
	if len(want) != len(got) {
		t.Errorf("golden has %d pages, found %d", len(want), len(got))
	}
	for name, sum := range want {
		if got[name] != sum {
			t.Errorf("%s: extracted document changed (sha256 %s, golden %s)", name, got[name], sum)
		}
	}
}
