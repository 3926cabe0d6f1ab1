package trec

import (
	"bufio"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Entry is one line of a run file: question QuestionID retrieved passage
// PassageID at Rank with Score. Line is where it was read (0 for an
// entry not read from a file).
type Entry struct {
	QuestionID string
	PassageID  string
	Rank       int
	Score      float64
	Line       int
}

// Run is a run file read whole: every question's ranking, in the order of
// the rank column.
type Run struct {
	// Path is the file's name as given (in error messages).
	Path string
	// SHA256 is the hex SHA-256 of the file's bytes.
	SHA256 string
	// Tag is the run's tag (the sixth column), the same on every line.
	Tag string
	// byQuestion holds each question's entries sorted by rank.
	byQuestion map[string][]Entry
	order      []string // question ids in order of first appearance
}

// Questions lists the question ids the run ranks for, in order of first
// appearance in the file.
func (r *Run) Questions() []string { return slices.Clone(r.order) }

// Ranking is one question's entries, best first (by the rank column); nil
// when the file has no line for it.
func (r *Run) Ranking(questionID string) []Entry { return slices.Clone(r.byQuestion[questionID]) }

// Len is the number of lines (entries) in the run.
func (r *Run) Len() int {
	n := 0
	for _, es := range r.byQuestion {
		n += len(es)
	}
	return n
}

// ReadRun reads a run file.
func ReadRun(path string) (*Run, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read run file: %w", err)
	}
	r, err := ParseRun(strings.NewReader(string(b)), path)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b)
	r.SHA256 = hex.EncodeToString(sum[:])
	return r, nil
}

// ErrFormat is wrapped by every error about a malformed line.
var ErrFormat = errors.New("not a TREC file")

// lineError names the file and line of a malformed line.
func lineError(name string, line int, format string, args ...any) error {
	return fmt.Errorf("%s line %d: %s: %w", name, line, fmt.Sprintf(format, args...), ErrFormat)
}

// ParseRun reads a run file from r; name is the file's name for error
// messages. Blank lines are skipped. Each other line is "qid Q0 docid
// rank score tag", fields separated by spaces or tabs; the second
// column is not read. A question's lines are ordered by the rank column;
// two lines of one question with the same rank or the same passage, a
// score that rises with the rank, or two tags in one file are errors
// that name the line.
func ParseRun(r io.Reader, name string) (*Run, error) {
	run := &Run{Path: name, byQuestion: map[string][]Entry{}}
	tagLine := 0
	err := eachLine(r, name, func(n int, f []string) error {
		if len(f) != 6 {
			return lineError(name, n, "%d fields, want 6: qid Q0 docid rank score tag", len(f))
		}
		rank, err := strconv.Atoi(f[3])
		if err != nil || rank < 0 {
			return lineError(name, n, "rank %q is not a whole number ≥ 0", f[3])
		}
		score, err := strconv.ParseFloat(f[4], 64)
		if err != nil || math.IsNaN(score) || math.IsInf(score, 0) {
			return lineError(name, n, "score %q is not a finite number", f[4])
		}
		switch {
		case tagLine == 0:
			run.Tag, tagLine = f[5], n
		case f[5] != run.Tag:
			return lineError(name, n, "tag %q, but line %d has %q: a run file holds one run (trec_eval scores one per file); split it", f[5], tagLine, run.Tag)
		}
		q := f[0]
		if _, ok := run.byQuestion[q]; !ok {
			run.order = append(run.order, q)
		}
		run.byQuestion[q] = append(run.byQuestion[q], Entry{QuestionID: q, PassageID: f[2], Rank: rank, Score: score, Line: n})
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, q := range run.order {
		if err := sortRanking(name, run.byQuestion[q]); err != nil {
			return nil, err
		}
	}
	return run, nil
}

// sortRanking orders one question's entries by rank and checks them.
func sortRanking(name string, es []Entry) error {
	slices.SortStableFunc(es, func(a, b Entry) int { return cmp.Compare(a.Rank, b.Rank) })
	seen := map[string]int{}
	for i, e := range es {
		if first, dup := seen[e.PassageID]; dup {
			return lineError(name, e.Line, "question %s ranks passage %s twice (first on line %d)", e.QuestionID, e.PassageID, first)
		}
		seen[e.PassageID] = e.Line
		if i == 0 {
			continue
		}
		p := es[i-1]
		if p.Rank == e.Rank {
			return lineError(name, e.Line, "question %s has rank %d twice (also line %d)", e.QuestionID, e.Rank, p.Line)
		}
		if e.Score > p.Score {
			return lineError(name, e.Line, "question %s: rank %d scores %v, above rank %d's %v (line %d); trec_eval ranks by score, so ranks and scores must agree", e.QuestionID, e.Rank, e.Score, p.Rank, p.Score, p.Line)
		}
	}
	return nil
}

// eachLine calls f with the fields of every non-blank line, numbered from 1.
func eachLine(r io.Reader, name string, f func(n int, fields []string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if err := f(n, fields); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s line %d: %w", name, n+1, err)
	}
	return nil
}

// Ranking is one question's retrieval to write: its passages best first,
// each with the retriever's score.
type Ranking struct {
	QuestionID string
	Hits       []Hit
}

// Hit is one ranked passage.
type Hit struct {
	PassageID string
	Score     float64
}

// WriteRun writes rankings as a run file, tagged tag: one line "qid Q0
// docid rank score tag" per hit, ranks from 1, in the order given.
//
// trec_eval ignores the rank column and sorts each question's lines by
// score (ties by docid, descending), so a score column that ties or
// rises would make it rank otherwise. The score written is the
// retriever's; where it is not below the score written before it in the
// same ranking (a tie, or a reranked list), it is lowered to the next
// float64 below that one (math.Nextafter), the least change that keeps
// the order. Scores are written in the shortest form that reads back
// exactly.
//
// Identifiers and the tag must be non-empty and free of white space (the
// format's separator); an error names the offending question.
func WriteRun(w io.Writer, tag string, rankings []Ranking) error {
	if err := checkField("tag", tag); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for _, rk := range rankings {
		if err := checkField("question id", rk.QuestionID); err != nil {
			return err
		}
		prev := math.Inf(1)
		for i, h := range rk.Hits {
			if err := checkField("passage id", h.PassageID); err != nil {
				return fmt.Errorf("question %s: %w", rk.QuestionID, err)
			}
			if math.IsNaN(h.Score) || math.IsInf(h.Score, 0) {
				return fmt.Errorf("question %s, passage %s: score %v is not a finite number", rk.QuestionID, h.PassageID, h.Score)
			}
			s := h.Score
			if s >= prev {
				s = math.Nextafter(prev, math.Inf(-1))
			}
			prev = s
			fmt.Fprintf(bw, "%s Q0 %s %d %s %s\n", rk.QuestionID, h.PassageID, i+1, strconv.FormatFloat(s, 'g', -1, 64), tag)
		}
	}
	return bw.Flush()
}

// checkField refuses an identifier the format cannot hold.
func checkField(what, s string) error {
	if s == "" {
		return fmt.Errorf("empty %s: a TREC file needs one in every line", what)
	}
	if strings.ContainsFunc(s, unicode.IsSpace) {
		return fmt.Errorf("%s %q holds white space, which separates a TREC file's columns", what, s)
	}
	return nil
}

// Judgment is one line of a qrels file: passage PassageID is relevant
// to question QuestionID with grade Rel (0: judged not relevant).
type Judgment struct {
	QuestionID string
	PassageID  string
	Rel        int
	Line       int // where it was read; 0 when not read from a file
}

// WriteQrels writes judgments as a qrels file: "qid 0 docid rel" per
// judgment, in the order given.
func WriteQrels(w io.Writer, js []Judgment) error {
	bw := bufio.NewWriter(w)
	for _, j := range js {
		if err := checkField("question id", j.QuestionID); err != nil {
			return err
		}
		if err := checkField("passage id", j.PassageID); err != nil {
			return fmt.Errorf("question %s: %w", j.QuestionID, err)
		}
		fmt.Fprintf(bw, "%s 0 %s %d\n", j.QuestionID, j.PassageID, j.Rel)
	}
	return bw.Flush()
}

// ReadQrels reads a qrels file.
func ReadQrels(path string) ([]Judgment, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read qrels: %w", err)
	}
	defer f.Close()
	return ParseQrels(f, path)
}

// ParseQrels reads a qrels file from r ("qid iter docid rel" per line;
// the second column is not read); name is the file's name for error
// messages. A passage judged twice for one question is an error.
func ParseQrels(r io.Reader, name string) ([]Judgment, error) {
	var out []Judgment
	seen := map[[2]string]int{}
	err := eachLine(r, name, func(n int, f []string) error {
		if len(f) != 4 {
			return lineError(name, n, "%d fields, want 4: qid 0 docid rel", len(f))
		}
		rel, err := strconv.Atoi(f[3])
		if err != nil {
			return lineError(name, n, "relevance %q is not a whole number", f[3])
		}
		k := [2]string{f[0], f[2]}
		if first, dup := seen[k]; dup {
			return lineError(name, n, "question %s judges passage %s twice (first on line %d)", f[0], f[2], first)
		}
		seen[k] = n
		out = append(out, Judgment{QuestionID: f[0], PassageID: f[2], Rel: rel, Line: n})
		return nil
	})
	return out, err
}
