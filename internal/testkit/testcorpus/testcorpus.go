// Package testcorpus locates the shared test corpus (../shared beside the
// repository) for tests. The corpus is never copied into the repository: some
// of its files are licensed for local testing only.
package testcorpus

import (
	"os"
	"path/filepath"
	"testing"
)

// Root returns the shared folder: $PAPERLENS_SHARED when set, otherwise the
// "shared" folder beside the module root. Without it the test is skipped
// locally and failed under CI (CI=true), where its absence is a setup error.
func Root(tb testing.TB) string {
	tb.Helper()
	if d := os.Getenv("PAPERLENS_SHARED"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatalf("testcorpus: %v", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			shared := filepath.Join(filepath.Dir(dir), "shared")
			if _, err := os.Stat(filepath.Join(shared, "corpus")); err == nil {
				return shared
			}
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if os.Getenv("CI") != "" {
		tb.Fatalf("testcorpus: ../shared not found beside the repository; set PAPERLENS_SHARED")
	}
	tb.Skip("testcorpus: ../shared not found beside the repository; set PAPERLENS_SHARED to run this test")
	return ""
}

// Path joins elements onto Root, e.g. Path(t, "corpus", "pdf", "trpo.pdf").
func Path(tb testing.TB, elem ...string) string {
	tb.Helper()
	return filepath.Join(append([]string{Root(tb)}, elem...)...)
}

// Glob returns the files matching pattern under Root, failing the test when
// nothing matches so that a moved corpus cannot silently pass.
func Glob(tb testing.TB, pattern ...string) []string {
	tb.Helper()
	m, err := filepath.Glob(Path(tb, pattern...))
	if err != nil || len(m) == 0 {
		tb.Fatalf("testcorpus: no files match %s (err=%v)", filepath.Join(pattern...), err)
	}
	return m
}
