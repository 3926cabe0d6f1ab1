package scale

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2/analysis/lang/en"

	"github.com/paperlens/paperlens/retrieve/bm25"
)

//go:embed xapian_anchor.py
var anchorScript []byte

// DefaultPython is Debian's interpreter, the one that sees the
// python3-xapian package (a pyenv python3 on PATH may not).
const DefaultPython = "/usr/bin/python3"

// anchor runs the Xapian anchor script with python.
type anchor struct {
	python, script, stopwords string
}

// newAnchor writes the script and the stop list (Bleve's English one,
// which paperlens' BM25 analyzer drops) under dir and checks that python
// imports xapian; the error says why the anchor cannot run.
func newAnchor(ctx context.Context, python, dir string) (anchor, error) {
	a := anchor{python: python, script: filepath.Join(dir, "xapian_anchor.py"), stopwords: filepath.Join(dir, "stopwords.txt")}
	if _, err := exec.LookPath(python); err != nil {
		return a, fmt.Errorf("no %s: %w", python, err)
	}
	if err := os.WriteFile(a.script, anchorScript, 0o644); err != nil {
		return a, fmt.Errorf("write the Xapian script: %w", err)
	}
	if err := os.WriteFile(a.stopwords, []byte(strings.Join(stopWords(), "\n")+"\n"), 0o644); err != nil {
		return a, fmt.Errorf("write the stop list: %w", err)
	}
	out, err := exec.CommandContext(ctx, python, a.script, "check").CombinedOutput()
	if err != nil {
		return a, fmt.Errorf("%s cannot import xapian (apt-get install python3-xapian): %s", python, lastLine(out))
	}
	return a, nil
}

// stopWords is Bleve's English stop list (the Snowball list): a word
// first on a line, "|" starting a comment.
func stopWords() []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(en.EnglishStopWords))
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "|")
		out = append(out, strings.Fields(line)...)
	}
	return out
}

func lastLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// indexArgs is the command that indexes passages (JSONL) into db.
func (a anchor) indexArgs(db, passages string) []string {
	return []string{a.python, a.script, "index", db, passages, a.stopwords}
}

// searchArgs is the command that answers queries (JSONL) from db with
// BM25 at paperlens' k1 and b.
func (a anchor) searchArgs(db, queries string, k int) []string {
	return []string{a.python, a.script, "search", db, queries, a.stopwords,
		strconv.FormatFloat(bm25.DefaultK1, 'g', -1, 64), strconv.FormatFloat(bm25.DefaultB, 'g', -1, 64), strconv.Itoa(k)}
}

// xapianSummary reads the search's last line: the CPU of opening the
// index and answering the queries, in the interpreter.
func xapianSummary(out []byte, want int) (cpuMs float64, err error) {
	var s struct {
		CPUS    float64 `json:"cpu_s"`
		Queries int     `json:"queries"`
	}
	if err := json.Unmarshal([]byte(lastLine(out)), &s); err != nil {
		return 0, fmt.Errorf("read the Xapian search's summary: %w", err)
	}
	if s.Queries != want {
		return 0, fmt.Errorf("the Xapian search answered %d queries, want %d", s.Queries, want)
	}
	return s.CPUS * 1000, nil
}
