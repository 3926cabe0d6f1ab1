package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// File names come from whoever made the files: ingest's lines and the
// final error show a name's terminal codes escaped.
func TestFileNamesReachTheTerminalEscaped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	name := "notes\x1b]0;pwned\x07\u202etxt.exe.txt"
	text := strings.Repeat("Retrieval helps little on expert questions over whole papers. ", 40)
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := paperlens(t, "ingest", "--home", t.TempDir(), dir)
	if code != 0 {
		t.Fatalf("ingest: exit %d\n%s", code, errOut)
	}
	for _, s := range []string{out, errOut} {
		if strings.ContainsAny(s, "\x1b\x07\u202e") {
			t.Errorf("a raw control reached the terminal: %q", s)
		}
	}
	if !strings.Contains(out, `\x1b]0;pwned\x07\u202etxt`) {
		t.Errorf("ingest does not name the file escaped:\n%s", out)
	}
	_, errOut, code = paperlens(t, "eval", "--home", t.TempDir(), "--data", filepath.Join(dir, "missing\x1b[2J.jsonl"), "--model", "ir", "--out", filepath.Join(t.TempDir(), "run"))
	if code == 0 || strings.Contains(errOut, "\x1b") || !strings.Contains(errOut, `missing\x1b[2J.jsonl`) {
		t.Errorf("eval of a missing file: exit %d\n%q", code, errOut)
	}
}
