package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// batchQueries are real questions on the sample papers, corpus-wide and
// within one paper.
var batchQueries = []struct{ id, query, paper string }{
	{"q1", "how are pruned tokens restored", "tidal-token-pruning"},
	{"q2", "early exit calibration for speech recognition", ""},
	{"q3", "how are stale transitions replayed", "lagged-replay-curriculum"},
	{"q4", "merging adapters without interference", ""},
	{"q5", "what does the verifier check against the claims", "claim-anchored-verification"},
}

// searchHome returns a home of t's with the sample papers ingested and
// indexed (a copy of a template home, see papersHome).
func searchHome(t *testing.T) string {
	t.Helper()
	return papersHome(t, true)
}

func writeLines(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "queries.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func queryLine(t *testing.T, id, query, paper string) string {
	t.Helper()
	m := map[string]string{"id": id, "query": query}
	if paper != "" {
		m["paper"] = paper
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var rows []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("a line of output is not JSON: %q: %v", sc.Text(), err)
		}
		rows = append(rows, m)
	}
	return rows
}

// search --queries gives each query the hits a search of that query alone
// gives, in the order of the file, for each retriever; the indexes are
// loaded once.
func TestSearchQueriesMatchesSingleSearches(t *testing.T) {
	t.Parallel()
	home := searchHome(t)
	var lines []string
	for _, q := range batchQueries {
		lines = append(lines, queryLine(t, q.id, q.query, q.paper))
	}
	file := writeLines(t, lines...)
	for _, retr := range []string{"bm25", "okapi", "dense", "hybrid"} {
		out, errOut, code := paperlens(t, "search", "--home", home, "--retriever", retr, "-k", "4", "--queries", file)
		if code != 0 {
			t.Fatalf("%s: search --queries: exit %d %s", retr, code, errOut)
		}
		rows := jsonLines(t, out)
		if len(rows) != len(batchQueries) {
			t.Fatalf("%s: %d result lines for %d queries:\n%s", retr, len(rows), len(batchQueries), out)
		}
		for i, q := range batchQueries {
			row := rows[i]
			if row["id"] != q.id || row["query"] != q.query || (q.paper != "" && row["paper"] != q.paper) || row["error"] != nil {
				t.Errorf("%s line %d: %v", retr, i+1, row)
			}
			args := []string{"search", "--json", "--home", home, "--retriever", retr, "-k", "4"}
			if q.paper != "" {
				args = append(args, "--paper", q.paper)
			}
			single, errOut, code := paperlens(t, append(args, q.query)...)
			if code != 0 {
				t.Fatalf("%s: single search %q: exit %d %s", retr, q.query, code, errOut)
			}
			want := []any{}
			for _, h := range jsonLines(t, single) {
				want = append(want, h)
			}
			if len(want) == 0 {
				t.Fatalf("%s: %q found nothing; the test needs queries that match", retr, q.query)
			}
			if !reflect.DeepEqual(row["hits"], want) {
				t.Errorf("%s %s: batch hits differ from the single search's\n got %v\nwant %v", retr, q.id, row["hits"], want)
			}
		}
	}
}

// A bad line is that line's error, written in its place with the line
// number, and the batch goes on; the exit status is 1 when any failed.
// Blank lines are skipped. A missing file, or QUERY words beside
// --queries, fail the command (2) before any search.
func TestSearchQueriesBadLines(t *testing.T) {
	t.Parallel()
	home := searchHome(t)
	file := writeLines(t,
		queryLine(t, "ok1", "how are pruned tokens restored", "tidal-token-pruning"),
		`{"id": "broken", "query": "unterminated`,
		``,
		queryLine(t, "nopaper", "anything at all", "no-such-paper"),
		`{"id": 7, "qurey": "typo in the field name"}`,
		`{"query": "a query without an id"}`,
		`{"id": "empty", "query": "   "}`,
		`{"id": 8, "query": "early exit calibration"}`,
	)
	out, errOut, code := paperlens(t, "search", "--home", home, "--queries", file)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (some lines failed)\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "5 of 7 queries") {
		t.Errorf("stderr does not count the failures: %q", errOut)
	}
	rows := jsonLines(t, out)
	if len(rows) != 7 {
		t.Fatalf("%d output lines for 7 queries:\n%s", len(rows), out)
	}
	for i, want := range []struct {
		id   any
		line float64
		says string // in the error; "" for a line that succeeds
	}{
		{"ok1", 0, ""},
		{nil, 2, "line 2"},
		{"nopaper", 4, "paperlens papers"},
		{float64(7), 5, `unknown field "qurey"`},
		{nil, 6, `no "id"`},
		{"empty", 7, `no "query"`},
		{float64(8), 0, ""},
	} {
		row := rows[i]
		if row["id"] != want.id {
			t.Errorf("line %d: id %v, want %v", i+1, row["id"], want.id)
		}
		if want.says == "" {
			if hits, ok := row["hits"].([]any); !ok || len(hits) == 0 || row["error"] != nil {
				t.Errorf("result %d: %v", i+1, row)
			}
			continue
		}
		msg, _ := row["error"].(string)
		if !strings.Contains(msg, want.says) || row["line"] != want.line || !strings.Contains(msg, "line ") || row["hits"] != nil {
			t.Errorf("result %d: %v; want an error at line %v saying %q", i+1, row, want.line, want.says)
		}
	}

	// The same good line from stdin succeeds with status 0.
	stdin := strings.NewReader(queryLine(t, "stdin", "how are pruned tokens restored", "") + "\n")
	got, errOut, code := (cli{stdin: stdin}).run(t, "search", "--home", home, "--queries", "-")
	if code != 0 || len(jsonLines(t, got)) != 1 {
		t.Errorf("--queries - : exit %d %s%s", code, got, errOut)
	}

	for _, bad := range [][]string{
		{"search", "--home", home, "--queries", filepath.Join(t.TempDir(), "missing.jsonl")},
		{"search", "--home", home, "--queries", file, "extra", "words"},
		{"search", "--home", home, "--queries", writeLines(t, "", "  ")},
	} {
		if out, errOut, code := paperlens(t, bad...); code != 2 || errOut == "" || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", bad[3:], code, out, errOut)
		}
	}
}
