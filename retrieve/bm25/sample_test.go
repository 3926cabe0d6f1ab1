package bm25

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/chunk"
	"github.com/paperlens/paperlens/corpus"
)

// samplePassages chunks the repo's sample papers that are plain text
// (testdata/papers/*.md and *.txt) into passages of at most maxTokens
// tokens, one paper per file.
func samplePassages(t testing.TB, maxTokens int) []corpus.Passage {
	t.Helper()
	var files []string
	for _, pat := range []string{"*.md", "*.txt"} {
		m, err := filepath.Glob(filepath.Join("..", "..", "testdata", "papers", pat))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 2 {
		t.Fatalf("sample papers: %v", files)
	}
	var ps []corpus.Passage
	for _, path := range files {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		paper := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		for _, c := range chunk.Split(string(raw), chunk.Options{MaxTokens: maxTokens}) {
			ps = append(ps, corpus.Passage{PaperID: paper, PassageID: corpus.PassageID(paper, c.Ordinal), Ordinal: c.Ordinal, Text: c.Text})
		}
	}
	return ps
}
