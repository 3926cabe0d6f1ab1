package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Sentinel errors, for errors.Is. Messages built on them say where (file and
// line) and, where possible, what to do.
var (
	// ErrEmpty: the file has no content.
	ErrEmpty = errors.New("empty file")
	// ErrUnsupported: the file name does not end in .json, .jsonl, .ndjson
	// or .parquet.
	ErrUnsupported = errors.New("unsupported file type")
	// ErrInvalidJSON: a line or element is not valid JSON.
	ErrInvalidJSON = errors.New("invalid JSON")
	// ErrNotObject: a line or element is valid JSON but not an object.
	ErrNotObject = errors.New("not a JSON object")
	// ErrNoRows: a .json file holds an object but no array of rows in it.
	ErrNoRows = errors.New("no array of rows found")
	// ErrParquet: the parquet file cannot be read.
	ErrParquet = errors.New("unreadable parquet file")
	// ErrMissingField: a row lacks a field the caller needs (or has it empty).
	ErrMissingField = errors.New("missing field")
	// ErrConflict: a later row gives the same paper id a different content.
	ErrConflict = errors.New("conflicting paper content")
)

// Row is one dataset record as generic fields, with where it came from.
type Row struct {
	// Line locates the row, 1-based: the line number in a JSON Lines file,
	// the element index in a JSON array (not a line number: an element may
	// span many lines), the row number in a parquet file.
	Line int
	// Fields holds the record's top-level fields. Values are as decoded:
	// JSON gives string, json.Number (numbers keep their exact text), bool,
	// nil, []any and map[string]any; parquet gives string, int32/int64,
	// float32/float64, bool, []byte, nil, []any and map[string]any. Use
	// String to read a field as text.
	Fields map[string]any

	unit     unit // how Line counts, for messages
	textLine int  // line where a JSON array element starts, for messages
}

// RowError is a problem with one row. Its message names the file and the row:
// "data.jsonl:17: invalid JSON: ...", "data.json: element 5 (line 17): ...",
// "data.parquet: row 9: ...".
type RowError struct {
	File string
	// Line is the row's Row.Line (JSONL line, JSON element index, parquet row).
	Line int
	// TextLine is the line in the file where a JSON array element starts
	// (0 when not applicable).
	TextLine int
	unit     unit
	Err      error
}

type unit uint8

const (
	unitLine unit = iota
	unitElement
	unitRow
)

func (e *RowError) Error() string {
	switch e.unit {
	case unitElement:
		if e.TextLine > 0 {
			return fmt.Sprintf("%s: element %d (line %d): %v", e.File, e.Line, e.TextLine, e.Err)
		}
		return fmt.Sprintf("%s: element %d: %v", e.File, e.Line, e.Err)
	case unitRow:
		return fmt.Sprintf("%s: row %d: %v", e.File, e.Line, e.Err)
	default:
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
}

func (e *RowError) Unwrap() error { return e.Err }

// Read streams the rows of a dataset file to fn, in file order.
//
// The format follows the extension: .parquet is parquet; .json and .jsonl
// (or .ndjson) are JSON, and the first character decides how: "[" is an
// array of objects (loaded into memory, then decoded one element at a time),
// "{" is JSON Lines (one object per line, streamed line by line, lines of any
// length) — except that a .json file holding a single object is read as an
// object wrapping the array of rows, e.g. {"version": 1, "data": [...]}.
// Blank lines in JSON Lines are skipped.
//
// A malformed row (invalid JSON, not an object) does not stop reading: it is
// passed to bad as a *RowError and reading goes on. If bad is nil, the first
// malformed row stops reading and is returned instead. A syntax error inside
// a JSON array is always fatal, since the rest of the array cannot be found
// reliably; the error says so. An error from fn stops reading and is
// returned, prefixed with the row's location.
func Read(path string, fn func(Row) error, bad func(line int, err error)) error {
	r := &reader{path: path, fn: fn, bad: bad}
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".parquet":
		return r.readParquet()
	case ".json", ".jsonl", ".ndjson":
		return r.readJSON(ext != ".json")
	default:
		return fmt.Errorf("%s: %w %q: use .json, .jsonl (JSON Lines) or .parquet", path, ErrUnsupported, ext)
	}
}

type reader struct {
	path string
	fn   func(Row) error
	bad  func(int, error)
	// texts holds one copy of each long string value read so far
	// (shareText).
	texts map[string]string
}

// shareMin is the length from which equal string values of different
// rows are made one string: ElaipBench repeats its paper on every
// question of it, and LPFQA its judge prompt, so 10,000 rows held 10,000
// copies of a few hundred papers, most of an eval's memory. Shorter
// values are not worth a lookup.
const shareMin = 1024

// shareText makes each long string value of fields the copy already
// held when an earlier row had an equal one. The decoded copy is left to
// the collector; a caller keeping rows keeps each text once.
func (r *reader) shareText(fields map[string]any) {
	for k, v := range fields {
		s, ok := v.(string)
		if !ok || len(s) < shareMin {
			continue
		}
		if held, ok := r.texts[s]; ok {
			fields[k] = held
			continue
		}
		if r.texts == nil {
			r.texts = map[string]string{}
		}
		r.texts[s] = s
	}
}

// malformed reports a bad row; it returns an error only when reading must
// stop (no bad callback).
func (r *reader) malformed(e *RowError) error {
	if r.bad == nil {
		return e
	}
	r.bad(e.Line, e)
	return nil
}

func (r *reader) emit(row Row, u unit) error {
	row.unit = u
	r.shareText(row.Fields)
	err := r.fn(row)
	var re *RowError
	if err == nil || errors.As(err, &re) {
		return err // a RowError already says where
	}
	return &RowError{File: r.path, Line: row.Line, TextLine: row.textLine, unit: u, Err: err}
}

var bom = []byte("\xef\xbb\xbf")

func (r *reader) readJSON(lines bool) error {
	f, err := os.Open(r.path)
	if err != nil {
		return err // already "open <path>: ..."
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	first, err := firstByte(br)
	if err == io.EOF {
		return fmt.Errorf("%s: %w", r.path, ErrEmpty)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", r.path, err)
	}
	switch {
	case first == '{' && lines:
		return r.readLines(br)
	case first == '[' || first == '{':
		// Arrays and wrapping objects are not line-oriented; holding the
		// bytes lets errors give line numbers. Use JSON Lines for very
		// large files.
		data, err := io.ReadAll(br)
		if err != nil {
			return fmt.Errorf("%s: %w", r.path, err)
		}
		data = bytes.TrimPrefix(data, bom)
		if first == '[' {
			return r.readArray(data, 0, "")
		}
		return r.readObject(data)
	default:
		return fmt.Errorf("%s:1: %w: file starts with %q; expected a JSON array ([...]), an object ({...}) or one object per line",
			r.path, ErrInvalidJSON, first)
	}
}

// firstByte peeks at the first byte that is not whitespace or a BOM.
func firstByte(br *bufio.Reader) (byte, error) {
	if b, err := br.Peek(3); err == nil && bytes.Equal(b, bom) {
		br.Discard(3)
	}
	for i := 1; ; i++ {
		b, err := br.Peek(i)
		if len(b) < i {
			if err == nil {
				err = io.EOF
			}
			return 0, err
		}
		c := b[i-1]
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c, nil
		}
		if i >= br.Size() {
			// Over 64 KB of leading whitespace: drop it and go on.
			br.Discard(i)
			i = 0
		}
	}
}

// readLines reads JSON Lines. bufio.Reader.ReadBytes has no line-length
// limit, unlike bufio.Scanner's 64 KB default: ElaipBench repeats a whole
// paper in every line.
func (r *reader) readLines(br *bufio.Reader) error {
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		if err != nil && err != io.EOF {
			return fmt.Errorf("%s:%d: %w", r.path, line, err)
		}
		if line == 1 {
			b = bytes.TrimPrefix(b, bom)
		}
		if t := bytes.TrimSpace(b); len(t) > 0 {
			fields, perr := decodeObject(t)
			if perr != nil {
				if e := r.malformed(&RowError{File: r.path, Line: line, Err: perr}); e != nil {
					return e
				}
			} else if e := r.emit(Row{Line: line, Fields: fields}, unitLine); e != nil {
				return e
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// decodeObject decodes one JSON object, keeping numbers exact.
func decodeObject(b []byte) (map[string]any, error) {
	if len(b) > 0 && b[0] != '{' {
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalidJSON, err)
		}
		return nil, fmt.Errorf("%w: found a JSON %s", ErrNotObject, kindOf(v))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidJSON, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: unexpected data after the object (two objects on one line?)", ErrInvalidJSON)
	}
	return m, nil
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64, json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	default:
		return "object"
	}
}

// lineCounter turns byte offsets, which only grow, into 1-based line numbers.
type lineCounter struct {
	data []byte
	off  int
	line int
}

func (c *lineCounter) at(off int) int {
	off = min(off, len(c.data))
	if off < c.off {
		c.off, c.line = 0, 0
	}
	c.line += bytes.Count(c.data[c.off:off], []byte("\n"))
	c.off = off
	return c.line + 1
}

// readArray streams the elements of the JSON array starting at data[start].
// field names the wrapping object's field, for messages.
func (r *reader) readArray(data []byte, start int, field string) error {
	lc := &lineCounter{data: data}
	where := ""
	if field != "" {
		where = fmt.Sprintf(" in field %q", field)
	}
	dec := json.NewDecoder(bytes.NewReader(data[start:]))
	if _, err := dec.Token(); err != nil { // the opening '['
		return fmt.Errorf("%s:%d: %w: %v", r.path, lc.at(start), ErrInvalidJSON, err)
	}
	for index := 1; ; index++ {
		if !dec.More() {
			break
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			off := start + int(dec.InputOffset())
			var se *json.SyntaxError
			if errors.As(err, &se) {
				off = start + int(se.Offset)
			}
			return &RowError{File: r.path, Line: index, TextLine: lc.at(off), unit: unitElement,
				Err: fmt.Errorf("%w%s: %v; reading stopped, because the rest of a JSON array cannot be found after a syntax error: fix the file (or convert it to JSON Lines, where one bad line only loses that line)", ErrInvalidJSON, where, err)}
		}
		elemStart := start + int(dec.InputOffset()) - len(raw)
		fields, err := decodeObject(raw)
		if err != nil {
			if e := r.malformed(&RowError{File: r.path, Line: index, TextLine: lc.at(elemStart), unit: unitElement, Err: err}); e != nil {
				return e
			}
			continue
		}
		if e := r.emit(Row{Line: index, Fields: fields, textLine: lc.at(elemStart)}, unitElement); e != nil {
			return e
		}
	}
	if _, err := dec.Token(); err != nil { // the closing ']'
		return fmt.Errorf("%s:%d: %w: %v (is the file truncated?)", r.path, lc.at(start+int(dec.InputOffset())), ErrInvalidJSON, err)
	}
	return nil
}

// rowKeys are the field names tried, in order, when an object wraps more than
// one array.
var rowKeys = []string{"data", "rows", "records", "examples", "items", "questions", "test", "train"}

// readObject handles a .json file whose top level is an object: either JSON
// Lines saved as .json, or an object with the rows in one array field.
func (r *reader) readObject(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	var top map[string]json.RawMessage
	if err := dec.Decode(&top); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("%s:%d: %w: %v", r.path, (&lineCounter{data: data}).at(int(se.Offset)), ErrInvalidJSON, err)
		}
		return fmt.Errorf("%s: %w: %v", r.path, ErrInvalidJSON, err)
	}
	if dec.More() {
		// A second value follows: this is JSON Lines with a .json name.
		return r.readLines(bufio.NewReader(bytes.NewReader(data)))
	}
	var arrays []string
	for k, v := range top {
		if t := bytes.TrimSpace(v); len(t) > 0 && t[0] == '[' {
			arrays = append(arrays, k)
		}
	}
	sort.Strings(arrays)
	var key string
	switch len(arrays) {
	case 0:
		return fmt.Errorf("%s: %w: the top-level object has no array field (keys: %s); expected an array of objects, an object wrapping one, or JSON Lines",
			r.path, ErrNoRows, strings.Join(sortedKeys(top), ", "))
	case 1:
		key = arrays[0]
	default:
		for _, k := range rowKeys {
			if slices.Contains(arrays, k) {
				key = k
				break
			}
		}
		if key == "" {
			return fmt.Errorf("%s: %w: the top-level object has several array fields (%s) and none is named %s; keep only the rows array",
				r.path, ErrNoRows, strings.Join(arrays, ", "), strings.Join(rowKeys, "/"))
		}
	}
	// Offset of the array in data, so that line numbers stay true.
	raw := bytes.TrimSpace(top[key])
	start := bytes.Index(data, raw)
	if start < 0 {
		// Cannot happen (RawMessage is a copy of the bytes); stay correct.
		data, start = raw, 0
	}
	return r.readArray(data, start, key)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
