package bench

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// The loaders read files a user downloads and points --data at: their
// bytes are fuzzed, in each of the three formats (the extension picks the
// reader). Whatever the bytes, a loader must return, not panic; name the
// file in its error; give every skipped row its line; keep the questions
// it returns distinct; and allocate memory in proportion to the file, not
// to what its numbers claim (counted with runtime.MemStats, not timed).
//
//	go test -run '^$' -fuzz '^FuzzLoadElaipBench$' -fuzztime 30s ./eval/bench/
//	go test -run '^$' -fuzz '^FuzzLoadLPFQA$' -fuzztime 30s ./eval/bench/
//	go test -run '^$' -fuzz '^FuzzLoadJSONL$' -fuzztime 30s ./eval/bench/

var fuzzExts = []string{".jsonl", ".json", ".parquet"}

// maxAllocPerByte and maxAllocBase bound what one load may allocate: the
// file read whole (arrays are), decoded into maps and strings, a question
// per row with its parsed options, problems quoting fields. Generous: a
// loader that sized buffers by a length field in the file would exceed it.
const (
	maxAllocPerByte = 256
	maxAllocBase    = 64 << 20
)

// loadSeeds are the committed samples of each format plus hostile shapes.
func loadSeeds(f *testing.F) {
	for _, name := range []string{"elaipbench-quirks.jsonl", "generic-example.jsonl", "lpfqa-sample.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint8(0))
		f.Add(data, uint8(1))
	}
	for _, s := range []string{
		"", "\xef\xbb\xbf", "   \n\n", "[", "[]", "{}", `{"data": []}`, `{"data": [1, "x", null]}`, "[{}]", "{}\n{}\n",
		`{"paper_id": "p", "question": "Q?\nA. x\nB. y", "answer": "A"}` + "\n" + `{"paper_id": "p", "question": "Q?\nA. x\nB. y", "answer": "A"}`,
		`{"question": "Q?\nA. x\nB. y\nC. z", "answer": ["A", "C"], "options": {"A": "x"}}`,
		`{"prompt": "Q?", "response_reference": "<参考答案>: 4 <评估要点>: four"}`,
		`[{"prompt": "` + strings.Repeat("A. ", 200) + `", "response_reference": "A"}]`,
		strings.Repeat("[", 20000) + strings.Repeat("]", 20000),
		`{"answer": 1e999999, "question": "` + strings.Repeat(`\u0000`, 100) + `"}`,
		"{\"paper_id\": \"\xff\xfe\", \"question\": \"Q\\nA. x\\nB. y\", \"answer\": \"Z\"}",
	} {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(1))
	}
	f.Add(parquetSeed(f), uint8(2))
}

// parquetSeed is a small ElaipBench-shaped parquet file.
func parquetSeed(f *testing.F) []byte {
	type row struct {
		PaperID      string `parquet:"paper_id"`
		QuestionType string `parquet:"question_type"`
		Question     string `parquet:"question"`
		Answer       string `parquet:"answer"`
		PaperContent string `parquet:"paper_content"`
	}
	var b bytes.Buffer
	rows := []row{
		{"p1", "SA-MCQ", "Which?\nA. one\nB. two\nC. three\nD. four", "B", "text"},
		{"p1", "MA-MCQ", "Which two?\nA. one\nB. two\nC. three\nD. four", "A,C", "text"},
	}
	if err := parquet.Write(&b, rows); err != nil {
		f.Fatal(err)
	}
	return b.Bytes()
}

// fuzzLoad writes data to a file in dir with the chosen extension, loads it
// and checks what came back. dir is the fuzz target's, made once: a
// directory per input was half the time of an input.
func fuzzLoad(t *testing.T, dir string, data []byte, ext uint8, load func(string) ([]Question, []Problem, error)) {
	path := filepath.Join(dir, "data"+fuzzExts[int(ext)%len(fuzzExts)])
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	qs, problems, err := load(path)
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(maxAllocPerByte*len(data)+maxAllocBase) {
		t.Fatalf("loading %d bytes allocated %d", len(data), alloc)
	}
	if err != nil {
		if !strings.Contains(err.Error(), path) {
			t.Fatalf("error does not name the file: %v", err)
		}
		return
	}
	if len(qs) == 0 {
		t.Fatalf("no error and no questions")
	}
	// A row is at most a line of the file (JSON Lines), an element of an
	// array (at least a byte each) or a parquet row; line 0 is the file.
	maxLine := len(data) + 1
	if strings.HasSuffix(path, ".parquet") {
		maxLine = 1 << 30
	}
	for _, p := range problems {
		if p.Msg == "" || p.Line < 0 || p.Line > maxLine || (p.Fatal && p.Line == 0) {
			t.Fatalf("problem %+v: a skipped row must say which", p)
		}
	}
	ids := map[string]bool{}
	for _, q := range qs {
		if q.ID == "" || ids[q.ID] {
			t.Fatalf("question id %q empty or repeated", q.ID)
		}
		ids[q.ID] = true
		if q.Line < 1 || q.Line > maxLine {
			t.Fatalf("question %s at line %d", q.ID, q.Line)
		}
	}
}

func FuzzLoadElaipBench(f *testing.F) {
	loadSeeds(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, ext uint8) {
		fuzzLoad(t, dir, data, ext, LoadElaipBench)
	})
}

func FuzzLoadLPFQA(f *testing.F) {
	loadSeeds(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, ext uint8) {
		fuzzLoad(t, dir, data, ext, func(path string) ([]Question, []Problem, error) {
			return LoadLPFQA(path, DefaultFieldMap())
		})
	})
}

func FuzzLoadJSONL(f *testing.F) {
	loadSeeds(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, ext uint8) {
		fuzzLoad(t, dir, data, ext, LoadJSONL)
	})
}
