package htmltext

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// rewritten parses body, rewrites it and renders the body's content back.
func rewritten(t *testing.T, body string, hasArticle bool) string {
	t.Helper()
	root, err := html.Parse(strings.NewReader("<html><body>" + body + "</body></html>"))
	if err != nil {
		t.Fatal(err)
	}
	rw := &rewriter{hasArticle: hasArticle, captions: map[*html.Node]bool{}}
	rw.rewrite(root)
	var b bytes.Buffer
	var bodyNode *html.Node
	walk(root, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "body" {
			bodyNode = n
		}
	})
	for c := bodyNode.FirstChild; c != nil; c = c.NextSibling {
		if err := html.Render(&b, c); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

func TestRewriteRules(t *testing.T) {
	for _, tc := range []struct {
		name, in   string
		hasArticle bool
		want       string
	}{
		{"comment", "a<!-- c -->b", false, "ab"},
		{"math with alttext", `x <math alttext="E=mc^2"><mi>E</mi></math>`, false, "x E=mc^2"},
		{"svg", "a<svg><text>label</text></svg>b", false, "ab"},
		{"script and controls", "a<script>x</script><button>b</button><input>c", false, "ac"},
		{"icon font", `a<i class="material-icons">play_arrow</i>b`, false, "ab"},
		{"katex visual copy", `<span class="katex-html">a + b</span>c`, false, "c"},
		{"ltx document", `<div class="ltx_document">x</div>`, false, `<article class="ltx_document">x</article>`},
		{"ltx document inside an article page", `<div class="ltx_document">x</div>`, true, `<div class="ltx_document">x</div>`},
		{"margin note of text", "<d-article><aside>note</aside></d-article>", false, "<article><p>note</p></article>"},
		{"margin note with blocks", "<d-article><aside><p>note</p></aside></d-article>", false, "<article><div><p>note</p></div></article>"},
		{"page sidebar stays", "<aside>side</aside>", false, "<aside>side</aside>"},
		{"custom formula", "<d-math>x^2</d-math>", false, "x^2"},
		{"citation", `a <d-cite key="k">[1]</d-cite>`, false, "a [1]"},
		{"empty footnote", "a<dt-fn> </dt-fn>", false, "a"},
		{"footnote", "a<d-footnote>note</d-footnote>", false, "a (note)"},
		{"front matter", "<d-front-matter>{}</d-front-matter>x", false, "x"},
		{"custom block", "<x-panel><p>p</p></x-panel>", false, "<div><p>p</p></div>"},
		{"custom inline", "<x-widget>w</x-widget>", false, "<span>w</span>"},
	} {
		if got := rewritten(t, tc.in, tc.hasArticle); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
