package dataset

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// Paper is one distinct paper of a dataset file.
type Paper struct {
	ID      string
	Content string
	// Line is the Row.Line of the paper's first row.
	Line int
}

// Papers returns the distinct papers of a dataset file, in order of first
// appearance. ElaipBench repeats each paper's full text on every question
// row, so the first occurrence wins. Reported through bad, and skipped:
// rows that Read reports as malformed, rows whose id or content field is
// missing or empty (the message lists the fields the row has), and later
// rows giving a known id a different content (ErrConflict). If bad is nil,
// the first such problem is returned instead.
//
// If there were rows but none gave a paper, Papers fails: that almost always
// means wrong field names, and the error lists the fields found.
func Papers(path string, idField, contentField string, bad func(line int, err error)) ([]Paper, error) {
	var (
		papers   []Paper
		index    = map[string]int{} // id -> position in papers
		rows     int
		lastKeys []string
	)
	report := func(e *RowError) error {
		if bad == nil {
			return e
		}
		bad(e.Line, e)
		return nil
	}
	err := Read(path, func(r Row) error {
		rows++
		u := r.unit
		id, ok := String(r, idField)
		content, ok2 := String(r, contentField)
		var missing string
		switch {
		case !ok || strings.TrimSpace(id) == "":
			missing = idField
		case !ok2 || strings.TrimSpace(content) == "":
			missing = contentField
		}
		if missing != "" {
			lastKeys = sortedKeys(r.Fields)
			return report(&RowError{File: path, Line: r.Line, TextLine: r.textLine, unit: u,
				Err: fmt.Errorf("%w %s (or it is empty or not text); fields found: %s", ErrMissingField, missing, strings.Join(lastKeys, ", "))})
		}
		if i, seen := index[id]; seen {
			if papers[i].Content != content {
				return report(&RowError{File: path, Line: r.Line, TextLine: r.textLine, unit: u,
					Err: fmt.Errorf("%w: paper %q has a different %s than at %s %d (%d vs %d chars); the first one is kept",
						ErrConflict, id, contentField, unitName(u), papers[i].Line, len(content), len(papers[i].Content))})
			}
			return nil
		}
		index[id] = len(papers)
		papers = append(papers, Paper{ID: id, Content: content, Line: r.Line})
		return nil
	}, bad)
	if err != nil {
		return nil, err
	}
	if rows > 0 && len(papers) == 0 {
		return nil, fmt.Errorf("%s: %w: no row has both %q and %q (fields found: %s); check the field names",
			path, ErrMissingField, idField, contentField, strings.Join(lastKeys, ", "))
	}
	return papers, nil
}

func unitName(u unit) string {
	switch u {
	case unitElement:
		return "element"
	case unitRow:
		return "row"
	default:
		return "line"
	}
}

// String returns a field as text. Strings come back unchanged; numbers,
// booleans and []byte are formatted (a JSON number keeps its exact text, so
// an id like 2510.10549 or 00123 is not altered beyond what JSON allows;
// whole floats print without exponent or ".0"). It reports false when the
// field is missing, null, or an array or object, which have no single text
// form.
func String(r Row, field string) (string, bool) {
	v, ok := r.Fields[field]
	if !ok || v == nil {
		return "", false
	}
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case []byte:
		return string(x), true
	case bool:
		return strconv.FormatBool(x), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case float32:
		return strconv.FormatFloat(float64(x), 'f', -1, 32), true
	case time.Time:
		return x.Format(time.RFC3339Nano), true
	case fmt.Stringer:
		return x.String(), true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(rv.Int(), 10), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(rv.Uint(), 10), true
	case reflect.String:
		return rv.String(), true
	}
	return "", false
}
