package pdftext

import (
	"context"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestWordF1AgainstPdftotext compares the bag of words we extract with
// poppler's, per file. It catches glued or split words, lost text and
// duplicated text, but not order (see TestReadingOrder).
func TestWordF1AgainstPdftotext(t *testing.T) {
	needPdftotext(t)
	for _, path := range corpusPDFs(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			doc := extracted(t, path)
			ref := pdftotext(t, path)
			f1, p, r := wordF1(dropGreek(normWords(doc.Text)), dropGreek(normWords(ref)))
			t.Logf("%s: F1 %.4f (precision %.4f, recall %.4f)", filepath.Base(path), f1, p, r)
			// Issue 14: reading order, tables and fonts must not cost words.
			if f1 < minWordF1 {
				t.Errorf("word F1 %.4f < %.2f against pdftotext", f1, minWordF1)
			}
		})
	}
}

// TestReadingOrder samples sentences from pdftotext -raw (content-stream
// order, which pdfTeX and PDFium write column by column) and checks that we
// produce them in the same order.
func TestReadingOrder(t *testing.T) {
	needPdftotext(t)
	for _, path := range corpusPDFs(t) {
		if filepath.Base(path) == "deepseek-r1.pdf" {
			continue // single column: nothing to get wrong between columns
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			ours := normWords(extracted(t, path).Text)
			raw := pdftotext(t, path, "-raw")
			refIdx := ngramIndex(normWords(raw), 6)
			ourIdx := ngramIndex(ours, 6)

			var cands [][]string
			seen := map[string]bool{}
			for _, s := range sentences(raw) {
				ws := normWords(s)
				k := strings.Join(ws, " ")
				// Prose only: the order of equation fragments says little
				// about column handling and -raw scatters them anyway.
				if len(ws) >= 8 && prose(ws) >= 0.75 && !seen[k] && len(distinctive(ws, refIdx)) > 0 {
					seen[k] = true
					cands = append(cands, ws)
				}
			}
			const sample = 20
			if len(cands) < sample {
				t.Fatalf("only %d candidate sentences", len(cands))
			}
			var pos []int
			for i := 0; i < sample; i++ {
				ws := cands[(2*i+1)*len(cands)/(2*sample)]
				found := false
				for _, k := range distinctive(ws, refIdx) {
					if len(ourIdx[k]) == 1 {
						pos = append(pos, ourIdx[k][0])
						found = true
						break
					}
				}
				if !found && testing.Verbose() {
					t.Logf("not found: %s", strings.Join(ws, " "))
				}
			}
			// Kendall tau over 20 samples spread across the paper mostly
			// measures page order: swapped column blocks within a page
			// hardly move it. So also locate every distinctive sentence and
			// require most of them to form one increasing run (the longest
			// increasing subsequence), which a swapped block breaks.
			var all []int
			for _, ws := range cands {
				for _, k := range distinctive(ws, refIdx) {
					if len(ourIdx[k]) == 1 {
						all = append(all, ourIdx[k][0])
						break
					}
				}
			}
			lis := float64(longestIncreasing(all)) / float64(max(1, len(all)))
			t.Logf("%s: %d/%d sentences located, %.3f in one increasing run", filepath.Base(path), len(all), len(cands), lis)
			if lis < 0.9 {
				t.Errorf("only %.3f of sentences follow pdftotext's order", lis)
			}
			if len(all) < len(cands)*8/10 {
				t.Errorf("only %d of %d distinctive sentences located", len(all), len(cands))
			}

			tau := kendallTau(pos)
			t.Logf("%s: found %d/%d sentences, Kendall tau %.3f", filepath.Base(path), len(pos), sample, tau)
			if testing.Verbose() && tau < 1 {
				t.Logf("positions in sample order: %v", pos)
			}
			if len(pos) < 16 {
				t.Errorf("found only %d of %d sampled sentences", len(pos), sample)
			}
			if tau < 0.9 {
				t.Errorf("Kendall tau %.3f < 0.9; our positions in sample order: %v", tau, pos)
			}
		})
	}
}

func TestBadFiles(t *testing.T) {
	tests := []struct {
		file string
		want error
	}{
		{"empty.pdf", ErrEmpty},
		{"not-a-pdf.pdf", ErrNotPDF},
		{"truncated-batchnorm.pdf", ErrTruncated},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			doc, err := ExtractFile(context.Background(), filepathJoin(t, "corpus", "bad", tc.file))
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if doc != nil {
				t.Errorf("got a document with an error")
			}
			t.Logf("%s: %v", tc.file, err)
		})
	}
}

func TestTitles(t *testing.T) {
	tests := []struct {
		file, want string
	}{
		// Metadata title is the junk "icml2015_dpm".
		{"diffusion-nonequilibrium.pdf", "Deep Unsupervised Learning using Nonequilibrium Thermodynamics"},
		// NAACL files carry an empty metadata title.
		{"ares-rag-eval.pdf", "ARES: An Automated Evaluation Framework for Retrieval-Augmented Generation Systems"},
		{"rest-speculative-decoding.pdf", "REST: Retrieval-Based Speculative Decoding"},
		{"mgr-rationalization.pdf", "MGR: Multi-generator Based Rationalization"},
		// Metadata glues "Caption" and "Generation"; page 1 has the space.
		{"show-attend-tell.pdf", "Show, Attend and Tell: Neural Image Caption Generation with Visual Attention"},
		{"batchnorm.pdf", "Batch Normalization: Accelerating Deep Network Training by Reducing Internal Covariate Shift"},
		{"deepseek-r1.pdf", "DeepSeek-R1: Incentivizing Reasoning Capability in LLMs via Reinforcement Learning"},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			doc := extracted(t, filepathJoin(t, "corpus", "pdf", tc.file))
			if doc.Title != tc.want {
				t.Errorf("Title = %q, want %q", doc.Title, tc.want)
			}
		})
	}
}

// TestFurnitureRemoved checks running headers and page numbers are gone.
func TestFurnitureRemoved(t *testing.T) {
	tests := []struct {
		file       string
		header     string // running header, printed on most pages
		firstPage  int    // printed page numbers, when the paper has them
		pageNumber bool
	}{
		{file: "batchnorm.pdf", header: "Batch Normalization"},
		{file: "diffusion-nonequilibrium.pdf", header: "Deep Unsupervised Learning using Nonequilibrium Thermodynamics"},
		{file: "show-attend-tell.pdf", header: "Neural Image Caption Generation with Visual Attention"},
		{file: "trpo.pdf", header: "Trust Region Policy Optimization"},
		{file: "ares-rag-eval.pdf", firstPage: 338, pageNumber: true},
		{file: "semqa.pdf", firstPage: 1363, pageNumber: true},
		{file: "hallucination-known-facts.pdf", firstPage: 1041, pageNumber: true},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			doc := extracted(t, filepathJoin(t, "corpus", "pdf", tc.file))
			paras := map[string]int{}
			for _, p := range strings.Split(doc.Text, "\n\n") {
				paras[p]++
			}
			// The title may legitimately be a paragraph once.
			if tc.header != "" && paras[tc.header] > 1 {
				t.Errorf("running header %q is a paragraph %d times in %d pages", tc.header, paras[tc.header], doc.Pages)
			}
			if tc.pageNumber {
				for n := tc.firstPage; n < tc.firstPage+doc.Pages; n++ {
					if k := strconv.Itoa(n); paras[k] > 0 {
						t.Errorf("page number %s left as a paragraph", k)
					}
				}
			}
		})
	}
	// The NAACL page-1 footer must not cut the sentence it interrupts.
	doc := extracted(t, filepathJoin(t, "corpus", "pdf", "ares-rag-eval.pdf"))
	if !strings.Contains(doc.Text, "A good RAG system finds relevant contexts") {
		t.Errorf("the sentence running past the page-1 footer is cut")
	}
}

// TestHeadingsOwnParagraph checks section headings are separate paragraphs.
func TestHeadingsOwnParagraph(t *testing.T) {
	tests := []struct {
		file     string
		headings []string
	}{
		{"ares-rag-eval.pdf", []string{"Abstract", "1 Introduction", "References"}},
		{"batchnorm.pdf", []string{"Abstract", "1. Introduction", "References"}},
		{"deepseek-r1.pdf", []string{"1. Introduction"}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			doc := extracted(t, filepathJoin(t, "corpus", "pdf", tc.file))
			paras := map[string]bool{}
			for _, p := range strings.Split(doc.Text, "\n\n") {
				paras[p] = true
			}
			for _, h := range tc.headings {
				if !paras[h] {
					t.Errorf("heading %q is not a paragraph of its own", h)
				}
			}
			if a, i := strings.Index(doc.Text, "Abstract"), strings.Index(doc.Text, "Introduction"); a < 0 || a > i {
				t.Errorf("abstract (at %d) does not come before the introduction (at %d)", a, i)
			}
		})
	}
}

// TestCorruptedRealPDF flips bytes of a real paper at pseudo-random offsets:
// Extract must return normally with either a document or an error.
func TestCorruptedRealPDF(t *testing.T) {
	path := filepathJoin(t, "corpus", "pdf", "mcws-multimodal-cws.pdf")
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(20261122))
	docs, errs := 0, 0
	for i := 0; i < 50; i++ {
		b := append([]byte(nil), orig...)
		switch i % 3 {
		case 0: // one random byte
			b[rng.Intn(len(b))] = byte(rng.Intn(256))
		case 1: // a run of garbage
			off := rng.Intn(len(b) - 64)
			rng.Read(b[off : off+64])
		case 2: // a digit changed, which moves offsets and lengths
			off := rng.Intn(len(b))
			for off < len(b) && (b[off] < '0' || b[off] > '9') {
				off++
			}
			if off < len(b) {
				b[off] = byte('0' + rng.Intn(10))
			}
		}
		doc, err := Extract(context.Background(), bytesReaderAt(b), int64(len(b)))
		switch {
		case err != nil && doc != nil:
			t.Errorf("variant %d: both a document and an error", i)
		case err != nil:
			errs++
		case doc == nil:
			t.Errorf("variant %d: neither a document nor an error", i)
		default:
			docs++
		}
	}
	t.Logf("50 corrupted variants: %d documents, %d errors", docs, errs)
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := ExtractFile(ctx, filepathJoin(t, "corpus", "pdf", "trpo.pdf"))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}
