package judgecheck

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Item is one LFQA-E comparison: a question, an expert reference answer,
// two answers and the experts' three-way label.
type Item struct {
	// Row is where the item is in its file: the line of a JSONL file, the
	// position (from 1) in a JSON array.
	Row int
	// ID is the row's id, or "row N" when it has none; results are
	// matched by it (resume, --vs).
	ID          string
	Question    string
	Context     string // the material an exam question refers to; may be ""
	Reference   string
	ResponseA   string
	ResponseB   string
	CompareType string // human_vs_human, human_vs_model, model_vs_model; may be ""
	Type        string // the topic (LFQA-E's English rows); may be ""
	Label       Verdict
}

// row is an item as the file spells it.
type row struct {
	ID          json.RawMessage `json:"id"`
	Question    *string         `json:"question"`
	Context     *string         `json:"context"`
	Reference   *string         `json:"reference"`
	ResponseA   *string         `json:"response_a"`
	ResponseB   *string         `json:"response_b"`
	CompareType *string         `json:"compare_type"`
	Type        *string         `json:"type"`
	Label       *string         `json:"label"`
}

// Labels maps LFQA-E's label values to verdicts.
var Labels = map[string]Verdict{"response_a": A, "response_b": B, "same": Tie}

// ReadFile reads LFQA-E comparisons from path: a JSON array of objects
// (LFQA-E's unified_benchmark*.json) or one object per line (JSONL). The
// fields are question, context, reference, response_a, response_b,
// compare_type, type and label (response_a, response_b or same), as LFQA-E
// writes them, and id when present. question, reference, response_a,
// response_b and label are required; a row without them, with a field of
// the wrong type, or with an id another row has, is an error naming the
// file and the row: nothing is judged on a file with a bad row.
func ReadFile(path string) ([]Item, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read the comparisons: %w", err)
	}
	defer f.Close()
	return Read(f, path)
}

// Read is ReadFile on r, whose errors name the file name.
func Read(r io.Reader, name string) ([]Item, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	first, err := firstByte(br)
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: the file is empty; give LFQA-E comparisons (a JSON array, or one JSON object a line)", name)
		}
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	var items []Item
	if first == '[' {
		items, err = readArray(br, name)
	} else {
		items, err = readLines(br, name)
	}
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("%s holds no comparisons", name)
	}
	return items, checkIDs(items, name)
}

// firstByte is the first byte that is not blank space (nor a UTF-8 byte
// order mark), left unread.
func firstByte(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.Peek(1)
		if err != nil {
			return 0, err
		}
		switch {
		case b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n':
			_, _ = br.ReadByte()
		case b[0] == 0xEF:
			if bom, err := br.Peek(3); err == nil && bytes.Equal(bom, []byte{0xEF, 0xBB, 0xBF}) {
				_, _ = br.Discard(3)
				continue
			}
			return b[0], nil
		default:
			return b[0], nil
		}
	}
}

// readArray reads a JSON array of rows; row N is its N-th element.
func readArray(br *bufio.Reader, name string) ([]Item, error) {
	dec := json.NewDecoder(br)
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("%s: not a JSON array: %v", name, err)
	}
	var items []Item
	for n := 1; dec.More(); n++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("%s: item %d of the array is not valid JSON (%v); fix the file, or give it as JSONL to find the line", name, n, err)
		}
		it, err := parseRow(raw, n)
		if err != nil {
			return nil, fmt.Errorf("%s: item %d of the array: %w", name, n, err)
		}
		items = append(items, it)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("%s: the array does not end after item %d: %v", name, len(items), err)
	}
	return items, nil
}

// readLines reads JSONL: one row a line, blank lines skipped.
func readLines(br *bufio.Reader, name string) ([]Item, error) {
	var items []Item
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			it, perr := parseRow(line, n)
			if perr != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, n, perr)
			}
			items = append(items, it)
		}
		if errors.Is(err, io.EOF) {
			return items, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
	}
}

// parseRow checks one row and makes it an Item found at position n.
func parseRow(raw []byte, n int) (Item, error) {
	var r row
	if err := json.Unmarshal(raw, &r); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return Item{}, fmt.Errorf("field %q is a JSON %s; it must be a string", te.Field, te.Value)
		}
		return Item{}, fmt.Errorf("not a JSON object (%v); each comparison is one object with question, reference, response_a, response_b and label", err)
	}
	it := Item{Row: n, Question: str(r.Question), Context: str(r.Context), Reference: str(r.Reference),
		ResponseA: str(r.ResponseA), ResponseB: str(r.ResponseB), CompareType: strings.TrimSpace(str(r.CompareType)), Type: strings.TrimSpace(str(r.Type))}
	for _, f := range []struct {
		name string
		v    *string
	}{{"question", r.Question}, {"reference", r.Reference}, {"response_a", r.ResponseA}, {"response_b", r.ResponseB}, {"label", r.Label}} {
		if f.v == nil || strings.TrimSpace(*f.v) == "" {
			return Item{}, fmt.Errorf("no %q: every comparison needs question, reference, response_a, response_b and label", f.name)
		}
	}
	l, ok := Labels[strings.ToLower(strings.TrimSpace(*r.Label))]
	if !ok {
		return Item{}, fmt.Errorf("label %q: want response_a, response_b or same (LFQA-E's labels)", *r.Label)
	}
	it.Label = l
	id, err := idOf(r.ID)
	if err != nil {
		return Item{}, err
	}
	if id == "" {
		id = "row " + strconv.Itoa(n)
	}
	it.ID = id
	return it, nil
}

// idOf is a row's id: a string or a number, as written; "" when absent.
func idOf(raw json.RawMessage) (string, error) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || string(t) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(t, &s); err == nil {
		return strings.TrimSpace(s), nil
	}
	var num json.Number
	if err := json.Unmarshal(t, &num); err == nil {
		return num.String(), nil
	}
	return "", fmt.Errorf("id %.40s: want a string or a number", t)
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// checkIDs refuses two rows with one id: results are matched by it.
func checkIDs(items []Item, name string) error {
	seen := make(map[string]int, len(items))
	for _, it := range items {
		if prev, ok := seen[it.ID]; ok {
			return fmt.Errorf("%s: rows %d and %d both have id %q; ids must be unique, since results are matched by them (fix one, or remove both ids)", name, prev, it.Row, it.ID)
		}
		seen[it.ID] = it.Row
	}
	return nil
}
