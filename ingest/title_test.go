package ingest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// The title of a plain-text or Markdown paper is its real title, not the
// web page's "Skip to content" above it (seed 003, saved from a blog), not
// LaTeX debris ("]ByteDance Seed ... \contributionFull author list", seed
// 001), and not the first half of a title wrapped over two lines (seed
// 004, rendered from a PDF one line a paragraph).
func TestPlainTitleOfRealFiles(t *testing.T) {
	t.Parallel()
	cases := []struct {
		path  string
		title string
	}{
		{testcorpus.Path(t, "seeds", "000_a3bff110adc3f7e8.txt"), "LPFQA: A Long-Tail Professional Forum-based Benchmark for LLM Evaluation"},
		{testcorpus.Path(t, "seeds", "001_3d5ce21342ce920b.txt"), "LPFQA: A Long-Tail Professional Forum-based Benchmark for LLM Evaluation"},
		{testcorpus.Path(t, "seeds", "002_30a2cd83ba58627d.txt"), "Encyclo-K: Evaluating LLMs with Dynamically Composed Knowledge Statements"},
		{testcorpus.Path(t, "seeds", "003_1a398ae8185b4f28.txt"), "LFQA-E: Carefully Benchmarking Long-form QA Evaluation"},
		{testcorpus.Path(t, "seeds", "004_99b4ff95984d8335.txt"), "ElaipBench: A Benchmark for Expert-Level Artificial Intelligence Paper Understanding"},
		{"../testdata/papers/claim-anchored-verification.md", "Anchor-then-Verify: Contrastive Evidence Anchoring for Scientific Claim Verification"},
		{"../testdata/papers/tidal-token-pruning.md", "Tidal: Oscillating Token Budgets with Restoration for Efficient Vision Transformers"},
		{"../testdata/papers/lagged-replay-curriculum.txt", "Lagged Replay Curricula for Offline Reinforcement Learning on Mixed-Quality Data"},
		{"../testdata/groundtruth/onecol-rl.txt", "Discounting and Bounded Returns in Sequential Decisions"},
		{"../testdata/groundtruth/twocol-retrieval.txt", "Short Passages Help Lexical Retrieval on Scientific Papers"},
	}
	for _, c := range cases {
		raw, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		e, err := plainExtract(context.Background(), raw)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if e.title != c.title {
			t.Errorf("%s: title %q, want %q", filepath.Base(c.path), e.title, c.title)
		}
	}
}

// A web page saved as text keeps its title when its chrome comes first:
// the HTML corpus's pages, as their extracted text (which opens with a
// Markdown "# Title"), under a block of the navigation lines real pages
// start with, and again with the title as a plain line.
func TestPlainTitleOfWebPageText(t *testing.T) {
	t.Parallel()
	const chrome = "Skip to main content\n\nMenu\n\nSign in\n\nHome > Articles > Machine Learning\n\n" +
		"[Home](https://distill.pub/) [Archive](https://distill.pub/archive/) [About](https://distill.pub/about/)\n\n" +
		"![logo](https://distill.pub/logo.svg)\n\n"
	titles := map[string]string{
		"distill-augmented-rnns.html": "Attention and Augmented Recurrent Neural Networks",
		"distill-gnn-intro.html":      "A Gentle Introduction to Graph Neural Networks",
		"distill-misread-tsne.html":   "How to Use t-SNE Effectively",
		"distill-momentum.html":       "Why Momentum Really Works",
		"acl2014-cnn-sentences.xhtml": "A Convolutional Neural Network for Modelling Sentences",
	}
	for name, want := range titles {
		raw, err := os.ReadFile(testcorpus.Path(t, "corpus", "html", name))
		if err != nil {
			t.Fatal(err)
		}
		page, err := extractors["html"](context.Background(), raw)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		plain := strings.TrimPrefix(page.text, "# ")
		for _, text := range []string{page.text, chrome + page.text, chrome + plain} {
			e, err := plainExtract(context.Background(), []byte(text))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if e.title != want {
				t.Errorf("%s as text: title %q, want %q", name, e.title, want)
			}
		}
	}
}
