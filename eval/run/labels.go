package run

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/paperlens/paperlens/eval/bench"
)

// Labels are fields joined to a dataset's questions from a file of their
// own (--labels FILE): a difficulty, a discipline, any grouping the
// dataset lacks, so that accuracy and reasoning length can be broken down
// by it (ElaipBench Table 2's columns, Figure 5's difficulty) when a user
// has the labels. Each label lands in the question's breakdown, and so in
// every record's "breakdown", summary.json's by_breakdown and
// reasoning_by, and the report's tables; a label overrides a field of the
// same name the dataset has.
//
// The file is CSV (.csv, a header row), TSV (.tsv) or JSON Lines (any
// other name: one object a line, values strings or numbers). A row names
// its question by one of these columns (fixed names), tried in this
// order:
//
//   - question_id (or id): the question's id as records carry it
//     (ElaipBench rows have none in the dataset: paperlens derives it,
//     "eb-…"; take it from results.jsonl);
//   - question_sha256: QuestionSHA256 of the question's text;
//   - question: the question's text itself, hashed the same way.
//
// Every other column is a label: its name is the breakdown field, its
// value the group ("difficulty": "hard"); empty values are left out. The
// report's published comparison reads difficulty (or level) and
// discipline (or category, subject) as Table 2's columns.
type Labels struct {
	Path string
	rows []labelRow
}

// labelRow is one row of a labels file.
type labelRow struct {
	line       int
	id, sha256 string
	fields     map[string]string
}

// The key columns of a labels file (fixed names).
const (
	LabelID     = "question_id"
	LabelSHA256 = "question_sha256"
	LabelText   = "question"
)

// QuestionSHA256 is the hash a labels file may name a question by: the
// SHA-256, in lower-case hex, of its text as the dataset holds it (the
// question field, options inline; for a generic JSONL row with an options
// field, its stem and lettered option lines as paperlens writes them)
// after NFKC normalisation, lower-casing, and every run of white space
// made one space with none at either end. In Python:
//
//	t = " ".join(unicodedata.normalize("NFKC", text).lower().split())
//	hashlib.sha256(t.encode("utf-8")).hexdigest()
func QuestionSHA256(text string) string {
	t := strings.Join(strings.Fields(strings.ToLower(norm.NFKC.String(text))), " ")
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
}

// ReadLabels reads a labels file. A malformed file, or a row that names
// no question or gives no label, is an error naming the file and line.
func ReadLabels(path string) (*Labels, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("labels %s: %w (give --labels an existing file, or leave it out)", path, err)
	}
	var rows []labelRow
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		rows, err = labelsCSV(b, ',')
	case ".tsv":
		rows, err = labelsCSV(b, '\t')
	default:
		rows, err = labelsJSONL(b)
	}
	if err != nil {
		return nil, fmt.Errorf("labels %s: %w", path, err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("labels %s: no rows: want one row per question, with %s, %s or %s and a label column (e.g. difficulty)", path, LabelID, LabelSHA256, LabelText)
	}
	return &Labels{Path: path, rows: rows}, nil
}

// labelsCSV reads a CSV or TSV labels file: a header row, then rows.
func labelsCSV(b []byte, sep rune) ([]labelRow, error) {
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(b, []byte("\ufeff"))))
	r.Comma, r.FieldsPerRecord = sep, 0
	if sep == '\t' {
		r.LazyQuotes = true
	}
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("header row: %w", err)
	}
	for i := range head {
		head[i] = strings.TrimSpace(head[i])
	}
	if !slices.ContainsFunc(head, isLabelKey) {
		return nil, fmt.Errorf("line 1: the header names no %s, %s or %s column, which say the question a row labels", LabelID, LabelSHA256, LabelText)
	}
	var rows []labelRow
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, err // csv's errors name the line
		}
		line, _ := r.FieldPos(0)
		vals := map[string]string{}
		for i, h := range head {
			vals[h] = rec[i]
		}
		row, err := labelRowOf(line, vals)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
}

// labelsJSONL reads a JSON Lines labels file; blank lines are skipped.
func labelsJSONL(b []byte) ([]labelRow, error) {
	var rows []labelRow
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 16<<20)
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if line == 1 {
			text = bytes.TrimPrefix(text, []byte("\ufeff"))
		}
		if len(text) == 0 {
			continue
		}
		var obj map[string]any
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.UseNumber()
		if err := dec.Decode(&obj); err != nil {
			return nil, fmt.Errorf("line %d: not a JSON object (%v): write one object per line, or name the file .csv or .tsv", line, err)
		}
		vals := map[string]string{}
		for k, v := range obj {
			switch x := v.(type) {
			case string:
				vals[k] = x
			case json.Number:
				vals[k] = x.String()
			case bool:
				vals[k] = fmt.Sprint(x)
			case nil:
			default:
				return nil, fmt.Errorf("line %d: %q is not a string or a number: a label is one value", line, k)
			}
		}
		row, err := labelRowOf(line, vals)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return rows, nil
}

func isLabelKey(k string) bool {
	return k == LabelID || k == "id" || k == LabelSHA256 || k == LabelText
}

// labelRowOf makes one row of its column values: the key columns say
// which question (question_id before id), the rest are labels.
func labelRowOf(line int, vals map[string]string) (labelRow, error) {
	row := labelRow{line: line, fields: map[string]string{}}
	trimmed := map[string]string{}
	for k, v := range vals {
		trimmed[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	row.id = cmp.Or(trimmed[LabelID], trimmed["id"])
	row.sha256 = strings.ToLower(strings.TrimPrefix(trimmed[LabelSHA256], "sha256:"))
	if t := trimmed[LabelText]; row.sha256 == "" && t != "" {
		row.sha256 = QuestionSHA256(t)
	}
	for k, v := range trimmed {
		if !isLabelKey(k) && k != "" && v != "" {
			row.fields[k] = v
		}
	}
	switch {
	case row.id == "" && row.sha256 == "":
		return row, fmt.Errorf("line %d: no %s, %s or %s: a row must say which question it labels", line, LabelID, LabelSHA256, LabelText)
	case len(row.fields) == 0:
		return row, fmt.Errorf("line %d: no label: give the row a value in a column other than %s, %s and %s (e.g. difficulty)", line, LabelID, LabelSHA256, LabelText)
	}
	return row, nil
}

// LabelMiss is a labels row that labels no question, or one a row before
// it labelled already.
type LabelMiss struct {
	Path string
	Line int
	Msg  string
}

func (m LabelMiss) String() string { return fmt.Sprintf("%s line %d: %s", m.Path, m.Line, m.Msg) }

// Join finds each row's question among qs (by id, else by the hash of its
// text) and returns the labels of each question, by id, with the rows
// that matched none or repeated a question (the first row for a question
// counts). It changes nothing: Apply joins them.
func (l *Labels) Join(qs []bench.Question) (map[string]map[string]string, []LabelMiss) {
	byID := make(map[string]string, len(qs))
	byHash := make(map[string]string, len(qs))
	for _, q := range qs {
		byID[q.ID] = q.ID
		if _, dup := byHash[QuestionSHA256(q.Text)]; !dup {
			byHash[QuestionSHA256(q.Text)] = q.ID
		}
	}
	out := map[string]map[string]string{}
	first := map[string]int{}
	var misses []LabelMiss
	for _, r := range l.rows {
		id, ok := byID[r.id]
		if !ok {
			id, ok = byHash[r.sha256]
		}
		switch {
		case !ok:
			misses = append(misses, LabelMiss{l.Path, r.line, "matches no question (" + r.key() + "): check the id or the text against the dataset"})
		case first[id] > 0:
			misses = append(misses, LabelMiss{l.Path, r.line, fmt.Sprintf("question %s was labelled at line %d already; this row is ignored", id, first[id])})
		default:
			first[id] = r.line
			out[id] = r.fields
		}
	}
	return out, misses
}

// key says how a row names its question, for messages.
func (r labelRow) key() string {
	var parts []string
	if r.id != "" {
		parts = append(parts, fmt.Sprintf("%s %q", LabelID, r.id))
	}
	if r.sha256 != "" {
		parts = append(parts, LabelSHA256+" "+r.sha256)
	}
	return strings.Join(parts, ", ")
}

// Apply joins the labels to the questions' breakdowns (each question's
// map is copied, so that questions sharing one keep theirs) and returns
// the rows that labelled nothing.
func (l *Labels) Apply(qs []bench.Question) []LabelMiss {
	by, misses := l.Join(qs)
	for i := range qs {
		if fs := by[qs[i].ID]; len(fs) > 0 {
			qs[i].Breakdown = withLabels(qs[i].Breakdown, fs)
		}
	}
	return misses
}

// withLabels is a copy of breakdown with the labels set over it.
func withLabels(breakdown, labels map[string]string) map[string]string {
	out := maps.Clone(breakdown)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, labels)
	return out
}

// Relabel sets the labels Join found over the breakdowns of the records
// of those questions (a copy of each map), as a run made with them would
// have recorded them.
func Relabel(recs []Record, by map[string]map[string]string) {
	for i := range recs {
		if fs := by[recs[i].QuestionID]; len(fs) > 0 {
			recs[i].Breakdown = withLabels(recs[i].Breakdown, fs)
		}
	}
}

// labelProblems are a labels file's misses as the dataset loader's
// problems, which the callers print.
func labelProblems(ms []LabelMiss) []bench.Problem {
	out := make([]bench.Problem, len(ms))
	for i, m := range ms {
		out[i] = bench.Problem{File: m.Path, Line: m.Line, Msg: m.Msg}
	}
	return out
}
