package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// eval --config A/config.json --out B runs A again: B's config.json is
// A's but for where it went and the command that made it; a flag given
// with --config changes that setting alone; without --out it resumes A.
func TestEvalConfigRerun(t *testing.T) {
	t.Parallel()
	home, tmp := t.TempDir(), t.TempDir()
	a := filepath.Join(tmp, "a")
	wireEval(t, home, a, "--mode", "closed-book,bm25", "--runs", "2", "--k", "3", "--temperature", "0.5")

	rerun := func(out string, args ...string) map[string]any {
		t.Helper()
		all := append([]string{"eval", "--config", filepath.Join(a, "config.json"), "--out", out}, args...)
		if _, errOut, code := paperlens(t, all...); code != 0 {
			t.Fatalf("%v: exit %d\n%s", all, code, errOut)
		}
		return wireConfig(t, out)
	}
	want := wireConfig(t, a)
	same := rerun(filepath.Join(tmp, "b"))
	if d := wireConfigDiff(want, same); !slices.Equal(d, []string{"command", "out"}) {
		t.Errorf("--config A --out B: config.json differs from A's in %v, want only command and out", d)
	}
	fewer := rerun(filepath.Join(tmp, "c"), "--runs", "1")
	if d := wireConfigDiff(want, fewer); !slices.Equal(d, []string{"command", "out", "runs"}) || fewer["runs"] != 1.0 {
		t.Errorf("--config A --runs 1: config.json differs from A's in %v (runs %v), want only command, out and runs 1", d, fewer["runs"])
	}
	// A protocol flag A did not give is added to flags_set.
	deeper := rerun(filepath.Join(tmp, "d"), "--budget", "4000")
	if d := wireConfigDiff(want, deeper); !slices.Equal(d, []string{"budget", "command", "flags_set", "out"}) ||
		!slices.Contains(deeper["flags_set"].([]any), any("budget")) {
		t.Errorf("--config A --budget 4000: config.json differs in %v, flags_set %v; want budget, command, flags_set and out", d, deeper["flags_set"])
	}

	// Unchanged, it is A's own run: resumed, nothing asked again.
	_, errOut, code := paperlens(t, "eval", "--config", a)
	if code != 0 || !strings.Contains(errOut, "0 records written") {
		t.Errorf("--config A alone: exit %d, %q; want A resumed with nothing to do", code, errOut)
	}
	if _, errOut, code = paperlens(t, "eval", "--config", filepath.Join(a, "summary.json")); code != 2 || !strings.Contains(errOut, "--config") || !strings.Contains(errOut, "config.json") {
		t.Errorf("--config of another file: exit %d, %q; want 2 naming --config and config.json", code, errOut)
	}
}

// wireConfig is dir's config.json as JSON values.
func wireConfig(t *testing.T, dir string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// wireConfigDiff names the fields in which a and b differ, sorted.
func wireConfigDiff(a, b map[string]any) []string {
	var d []string
	for k, v := range a {
		if !reflect.DeepEqual(v, b[k]) {
			d = append(d, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			d = append(d, k)
		}
	}
	slices.Sort(d)
	return d
}
