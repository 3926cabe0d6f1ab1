package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/parquet-go/parquet-go"
)

type badRow struct {
	line int
	msg  string
}

// collect reads a file and returns the rows and the malformed-row reports.
func collect(t *testing.T, path string) ([]Row, []badRow, error) {
	t.Helper()
	var rows []Row
	var bads []badRow
	err := Read(path, func(r Row) error {
		rows = append(rows, r)
		return nil
	}, func(line int, err error) {
		bads = append(bads, badRow{line, err.Error()})
	})
	return rows, bads, err
}

func lines(rows []Row) []int {
	var out []int
	for _, r := range rows {
		out = append(out, r.Line)
	}
	return out
}

func TestReadFormats(t *testing.T) {
	tests := []struct {
		name      string
		file      string
		wantLines []int
		wantBad   []badRow
		field     string // checked on the first row
		wantValue string
	}{
		{
			name:      "JSON Lines with blank, broken, non-object and CRLF lines",
			file:      "elaip-sample.jsonl",
			wantLines: []int{1, 2, 6, 7, 8, 9, 10},
			wantBad: []badRow{
				{4, "testdata/elaip-sample.jsonl:4: invalid JSON: unexpected EOF"},
				{5, "testdata/elaip-sample.jsonl:5: not a JSON object: found a JSON array"},
			},
			field: "question_type", wantValue: "SA-MCQ",
		},
		{
			name:      "JSON array: Line is the element index",
			file:      "rows.json",
			wantLines: []int{1, 2, 4},
			wantBad: []badRow{
				{3, "testdata/rows.json: element 3 (line 13): not a JSON object: found a JSON string"},
			},
			field: "answer", wantValue: "A",
		},
		{
			name:      "object wrapping the rows array",
			file:      "wrapped.json",
			wantLines: []int{1, 2},
			field:     "prompt_id", wantValue: "1",
		},
		{
			name:      "JSON Lines named .json",
			file:      "lines-named.json",
			wantLines: []int{1, 2},
			field:     "paper_id", wantValue: "a",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rows, bads, err := collect(t, filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if got := lines(rows); !reflect.DeepEqual(got, tc.wantLines) {
				t.Errorf("row lines = %v, want %v", got, tc.wantLines)
			}
			if !reflect.DeepEqual(bads, tc.wantBad) {
				t.Errorf("bad rows = %+v, want %+v", bads, tc.wantBad)
			}
			if got, _ := String(rows[0], tc.field); got != tc.wantValue {
				t.Errorf("%s = %q, want %q", tc.field, got, tc.wantValue)
			}
		})
	}
}

func TestReadJSONValues(t *testing.T) {
	rows, _, err := collect(t, filepath.Join("testdata", "rows.json"))
	if err != nil {
		t.Fatal(err)
	}
	f := rows[0].Fields
	// Numbers keep their exact text: this one does not fit in a float64.
	if n, ok := f["count"].(json.Number); !ok || n.String() != "12345678901234567890" {
		t.Errorf("count = %#v", f["count"])
	}
	if !reflect.DeepEqual(f["tags"], []any{"x", "y"}) || f["ok"] != true || f["extra"] != nil {
		t.Errorf("fields = %#v", f)
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name     string
		path     string
		wantIs   error
		wantMsgs []string
	}{
		{"truncated JSON array stops with the line", filepath.Join("testdata", "truncated.json"), ErrInvalidJSON,
			[]string{"testdata/truncated.json: element 2 (line 3): invalid JSON", "reading stopped"}},
		{"empty JSONL", write("empty.jsonl", ""), ErrEmpty, []string{"empty.jsonl: empty file"}},
		{"whitespace-only JSON", write("blank.json", "\n \n"), ErrEmpty, []string{"blank.json: empty file"}},
		{"empty parquet", write("empty.parquet", ""), ErrEmpty, []string{"empty.parquet: empty file"}},
		{"not parquet", write("text.parquet", "paper_id,paper_content\n1,abc\n"), ErrParquet,
			[]string{"text.parquet: unreadable parquet file", "is it a parquet file?"}},
		// The footer length is the 4 bytes before the closing magic, here
		// the opening magic: 827 MB, which parquet-go allocated.
		{"parquet of the two magics alone", write("magic.parquet", "PAR1PAR1"), ErrParquet,
			[]string{"magic.parquet: unreadable parquet file", "too short"}},
		{"parquet footer claims 827 MB", write("claim.parquet", "PAR1xxxxPAR1PAR1"), ErrParquet,
			[]string{"claim.parquet: unreadable parquet file", "the footer claims 827474256 bytes in a file of 16"}},
		{"unsupported extension", write("data.csv", "a,b\n"), ErrUnsupported,
			[]string{`data.csv: unsupported file type ".csv": use .json, .jsonl (JSON Lines) or .parquet`}},
		{"not JSON at all", write("junk.json", "hello"), ErrInvalidJSON, []string{"junk.json:1: invalid JSON", `starts with 'h'`}},
		{"object without an array", write("obj.json", `{"a": 1, "b": "x"}`), ErrNoRows, []string{"no array field (keys: a, b)"}},
		{"ambiguous arrays", write("two.json", `{"x": [], "y": []}`), ErrNoRows, []string{"several array fields (x, y)"}},
		{"missing file", filepath.Join(dir, "nope.jsonl"), fs.ErrNotExist, []string{"nope.jsonl"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := collect(t, tc.path)
			if !errors.Is(err, tc.wantIs) {
				t.Fatalf("error %v, want one wrapping %v", err, tc.wantIs)
			}
			for _, m := range tc.wantMsgs {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q lacks %q", err, m)
				}
			}
		})
	}
}

func TestReadStrictAndCallbackErrors(t *testing.T) {
	path := filepath.Join("testdata", "elaip-sample.jsonl")
	// Without a bad callback the first malformed row stops reading.
	n := 0
	err := Read(path, func(Row) error { n++; return nil }, nil)
	var re *RowError
	if !errors.As(err, &re) || re.Line != 4 || !errors.Is(err, ErrInvalidJSON) || n != 2 {
		t.Errorf("strict read: err=%v rows=%d, want line 4 invalid JSON after 2 rows", err, n)
	}
	// An error from fn stops reading and gets the row's location.
	stop := errors.New("enough")
	err = Read(path, func(r Row) error {
		if r.Line == 2 {
			return stop
		}
		return nil
	}, func(int, error) {})
	if !errors.Is(err, stop) || err.Error() != "testdata/elaip-sample.jsonl:2: enough" {
		t.Errorf("fn error = %v", err)
	}
}

func TestLongLine(t *testing.T) {
	// A paper_content of 3 MB on one line: more than bufio.Scanner's
	// default 64 KB token and than 2 MB.
	content := strings.Repeat("All work and no play makes a long paper. ", 3<<20/41+1)
	path := filepath.Join(t.TempDir(), "long.jsonl")
	var b strings.Builder
	for i, id := range []string{"small", "big", "after"} {
		c := "short"
		if id == "big" {
			c = content
		}
		line, _ := json.Marshal(map[string]any{"paper_id": id, "paper_content": c, "n": i})
		b.Write(line)
		b.WriteByte('\n')
	}
	b.WriteString("{broken\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var bads []int
	papers, err := Papers(path, "paper_id", "paper_content", func(line int, err error) { bads = append(bads, line) })
	if err != nil {
		t.Fatal(err)
	}
	if len(papers) != 3 || papers[1].ID != "big" || papers[1].Content != content || papers[2].Line != 3 {
		t.Errorf("got %d papers; big content %d chars (want %d)", len(papers), len(papers[1].Content), len(content))
	}
	if !reflect.DeepEqual(bads, []int{4}) {
		t.Errorf("bad lines = %v, want [4]", bads)
	}
}

func TestPapers(t *testing.T) {
	var bads []badRow
	papers, err := Papers(filepath.Join("testdata", "elaip-sample.jsonl"), "paper_id", "paper_content",
		func(line int, err error) { bads = append(bads, badRow{line, err.Error()}) })
	if err != nil {
		t.Fatal(err)
	}
	want := []Paper{
		{ID: "2401.00001", Content: "A Convolutional Neural Network for Modelling Sentences. The network uses Dynamic k-Max Pooling.", Line: 1},
		{ID: "2401.00002", Content: "Why Momentum Really Works. We give gradient descent a short-term memory.", Line: 6},
		{ID: "3", Content: "Paper three.", Line: 9},
		{ID: "crlf", Content: "windows line ending", Line: 10},
	}
	if !reflect.DeepEqual(papers, want) {
		t.Errorf("papers =\n%+v\nwant\n%+v", papers, want)
	}
	wantBad := []badRow{
		{4, "testdata/elaip-sample.jsonl:4: invalid JSON: unexpected EOF"},
		{5, "testdata/elaip-sample.jsonl:5: not a JSON object: found a JSON array"},
		{7, `testdata/elaip-sample.jsonl:7: conflicting paper content: paper "2401.00001" has a different paper_content than at line 1 (41 vs 95 chars); the first one is kept`},
		{8, "testdata/elaip-sample.jsonl:8: missing field paper_id (or it is empty or not text); fields found: answer, question, question_type"},
	}
	if !reflect.DeepEqual(bads, wantBad) {
		t.Errorf("bad =\n%+v\nwant\n%+v", bads, wantBad)
	}
}

func TestPapersErrors(t *testing.T) {
	// Wrong field names: every row is reported, then Papers fails saying so.
	n := 0
	_, err := Papers(filepath.Join("testdata", "wrapped.json"), "paper_id", "paper_content", func(int, error) { n++ })
	if !errors.Is(err, ErrMissingField) || !strings.Contains(err.Error(), "fields found: prompt, prompt_id, response_reference") {
		t.Errorf("err = %v", err)
	}
	if n != 2 {
		t.Errorf("%d rows reported, want 2", n)
	}
	// A nil bad callback makes the first problem fatal, located once.
	_, err = Papers(filepath.Join("testdata", "rows.json"), "paper_id", "question", nil)
	if err == nil || err.Error() != "testdata/rows.json: element 3 (line 13): not a JSON object: found a JSON string" {
		t.Errorf("strict err = %v", err)
	}
	// JSON array rows are located by element in Papers' own reports too.
	var msgs []string
	_, err = Papers(filepath.Join("testdata", "rows.json"), "paper_id", "score", func(_ int, err error) { msgs = append(msgs, err.Error()) })
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 3 || msgs[0] != "testdata/rows.json: element 2 (line 12): missing field score (or it is empty or not text); fields found: answer, paper_id, question" {
		t.Errorf("msgs = %q", msgs)
	}
}

// parquetRow mirrors ElaipBench's schema plus a few non-string columns.
type parquetRow struct {
	PaperID         string  `parquet:"paper_id"`
	QuestionType    string  `parquet:"question_type"`
	Question        string  `parquet:"question"`
	Answer          string  `parquet:"answer"`
	RelevantPassage *string `parquet:"relevant_passage,optional"`
	PaperContent    string  `parquet:"paper_content"`
	Year            int32   `parquet:"year"`
	Score           float64 `parquet:"score"`
}

func TestParquet(t *testing.T) {
	path := filepath.Join(t.TempDir(), "elaip.parquet")
	passage := "We give gradient descent a short-term memory."
	var in []parquetRow
	for i := range 5 {
		id := fmt.Sprintf("p%d", i/2) // p0 p0 p1 p1 p2: papers repeat
		in = append(in, parquetRow{
			PaperID: id, QuestionType: "SA-MCQ", Question: fmt.Sprintf("Q%d?", i), Answer: "B",
			PaperContent: "content of " + id, Year: 2024, Score: 0.25,
		})
	}
	in[1].RelevantPassage = &passage
	in[3].PaperContent = "changed" // conflicts with row 3
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	// Two rows per row group, so reading crosses row groups.
	if err := parquet.Write(f, in, parquet.MaxRowsPerRowGroup(2)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	rows, bads, err := collect(t, path)
	if err != nil {
		t.Fatal(err)
	}
	if got := lines(rows); !reflect.DeepEqual(got, []int{1, 2, 3, 4, 5}) || len(bads) != 0 {
		t.Fatalf("rows %v bad %v", got, bads)
	}
	checks := []struct {
		row         int
		field, want string
		ok          bool
	}{
		{0, "paper_id", "p0", true},
		{4, "question", "Q4?", true},
		{1, "relevant_passage", passage, true},
		{0, "relevant_passage", "", false}, // null
		{2, "year", "2024", true},
		{2, "score", "0.25", true},
		{2, "nope", "", false},
	}
	for _, c := range checks {
		if got, ok := String(rows[c.row], c.field); got != c.want || ok != c.ok {
			t.Errorf("row %d %s = %q,%v want %q,%v", c.row+1, c.field, got, ok, c.want, c.ok)
		}
	}

	var msgs []string
	papers, err := Papers(path, "paper_id", "paper_content", func(_ int, err error) { msgs = append(msgs, err.Error()) })
	if err != nil {
		t.Fatal(err)
	}
	want := []Paper{{"p0", "content of p0", 1}, {"p1", "content of p1", 3}, {"p2", "content of p2", 5}}
	if !reflect.DeepEqual(papers, want) {
		t.Errorf("papers = %+v", papers)
	}
	if len(msgs) != 1 || !strings.HasSuffix(msgs[0], `elaip.parquet: row 4: conflicting paper content: paper "p1" has a different paper_content than at row 3 (7 vs 13 chars); the first one is kept`) {
		t.Errorf("msgs = %q", msgs)
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		v    any
		want string
		ok   bool
	}{
		{"text", "text", true},
		{"", "", true},
		{json.Number("2510.10549"), "2510.10549", true},
		{json.Number("007"), "007", true},
		{float64(3), "3", true},
		{1e21, "1000000000000000000000", true},
		{float32(0.5), "0.5", true},
		{int32(-7), "-7", true},
		{int64(1) << 40, "1099511627776", true},
		{uint8(9), "9", true},
		{true, "true", true},
		{[]byte("raw"), "raw", true},
		{time.Date(2025, 10, 13, 0, 0, 0, 0, time.UTC), "2025-10-13T00:00:00Z", true},
		{nil, "", false},
		{[]any{"A", "C"}, "", false},
		{map[string]any{"a": 1}, "", false},
	}
	for _, tc := range tests {
		got, ok := String(Row{Fields: map[string]any{"f": tc.v}}, "f")
		if got != tc.want || ok != tc.ok {
			t.Errorf("String(%#v) = %q,%v want %q,%v", tc.v, got, ok, tc.want, tc.ok)
		}
	}
	if _, ok := String(Row{}, "f"); ok {
		t.Error("missing field reported ok")
	}
}

func TestReadSniffing(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, file, content string
		wantLines           []int
	}{
		{"BOM before JSON Lines", "bom.jsonl", "\ufeff{\"a\": 1}\n{\"a\": 2}\n", []int{1, 2}},
		{"array saved as .jsonl", "array.jsonl", "[{\"a\": 1},\n {\"a\": 2}]", []int{1, 2}},
		{"leading blank lines", "lead.jsonl", "\n\n  \n{\"a\": 1}", []int{4}},
		{".ndjson is JSON Lines", "x.NDJSON", "{\"a\": 1}\n{\"a\": 2}", []int{1, 2}},
		{"BOM before a JSON array", "bom.json", "\ufeff[{\"a\": 1}]", []int{1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.file)
			if err := os.WriteFile(p, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			rows, bads, err := collect(t, p)
			if err != nil || len(bads) > 0 {
				t.Fatalf("err %v bad %v", err, bads)
			}
			if got := lines(rows); !reflect.DeepEqual(got, tc.wantLines) {
				t.Errorf("lines = %v, want %v", got, tc.wantLines)
			}
		})
	}
}

func TestParquetCorrupt(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.parquet")
	f, err := os.Create(good)
	if err != nil {
		t.Fatal(err)
	}
	rows := []parquetRow{{PaperID: "p", PaperContent: strings.Repeat("text ", 1000)}}
	if err := parquet.Write(f, rows); err != nil {
		t.Fatal(err)
	}
	f.Close()
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int{len(data) / 2, len(data) - 10, 4} {
		p := filepath.Join(dir, fmt.Sprintf("cut%d.parquet", cut))
		if err := os.WriteFile(p, data[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := collect(t, p); !errors.Is(err, ErrParquet) {
			t.Errorf("cut at %d of %d: err = %v, want ErrParquet", cut, len(data), err)
		}
	}
}

// A long text repeated on many rows (ElaipBench's paper on each of its
// questions) is read as one string, in JSON Lines and in a JSON array
// alike: a caller keeping every row keeps it once.
func TestRepeatedLongTextIsOneString(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	lines := filepath.Join(dir, "sample.jsonl")
	if err := os.WriteFile(lines, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	var objs []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		objs = append(objs, m)
	}
	arr, _ := json.Marshal(objs)
	array := filepath.Join(dir, "sample.json")
	if err := os.WriteFile(array, arr, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{lines, array} {
		rows, _, err := collect(t, path)
		if err != nil || len(rows) != len(objs) {
			t.Fatalf("%s: %d rows, %v", path, len(rows), err)
		}
		first := map[string]string{} // paper id → its first row's content
		shared, papers := 0, 0
		for _, r := range rows {
			id, _ := String(r, "paper_id")
			c, _ := String(r, "paper_content")
			if held, ok := first[id]; !ok {
				first[id] = c
				papers++
			} else if held != c {
				t.Fatalf("%s: paper %s has two contents", path, id)
			} else if unsafe.StringData(held) == unsafe.StringData(c) {
				shared++
			}
		}
		if want := len(rows) - papers; shared != want || want == 0 {
			t.Errorf("%s: %d of %d repeated papers share their first row's string", path, shared, want)
		}
	}
}
