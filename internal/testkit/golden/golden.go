// Package golden compares a test's output with a committed golden file,
// naming the first line that differs. Setting the environment variable a
// test names rewrites the file instead: for a deliberate change only.
package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Check compares got with the file at path, or writes got there when the
// environment variable env is set.
func Check(t testing.TB, path, got, env string) {
	t.Helper()
	if os.Getenv(env) != "" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got == string(want) {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			t.Fatalf("%s line %d differs (%s=1 rewrites it for a deliberate change):\n got %s\nwant %s", path, i+1, env, gl[i], wl[i])
		}
	}
	t.Fatalf("%s: %d lines, golden %d (%s=1 rewrites it for a deliberate change)", path, len(gl), len(wl), env)
}
