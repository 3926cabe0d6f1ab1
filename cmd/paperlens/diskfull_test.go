package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// A run whose disk fills up stops with the records it wrote intact; once
// space is freed, the rerun finishes and no record is lost or doubled. The
// disk is a 2 MiB tmpfs, so the test needs root (CI runs as root) and skips
// elsewhere; TestEvalRepairsPartialLine covers the repair without one.
func TestEvalDiskFull(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt).CombinedOutput(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("mount tmpfs: %v %s", err, out)
		}
		t.Skipf("mount tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", mnt).Run() })
	// Long answers make records of about 2 KB.
	long := strings.Repeat("The options differ in how they treat the boundary case. ", 30)
	srv := modeltest.NewServer(t, modeltest.Config{Answer: func(r modeltest.Request) (string, string) {
		c, _ := answerByNumber(r)
		return long + c, ""
	}})
	filler := filepath.Join(mnt, "filler")
	// Leave about 160 KB: room for the cache's first pages and a few dozen
	// records, not for 300.
	if err := os.WriteFile(filler, make([]byte, 2<<20-160<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	data := writeQuestions(t, 150)
	out := filepath.Join(mnt, "run")
	args := []string{"eval", "--bench", "jsonl", "--data", data, "--model", "m", "--base-url", srv.BaseURL(),
		"--mode", "closed-book", "--runs", "2", "--concurrency", "4", "--out", out, "--home", t.TempDir()}
	_, stderr, code := paperlens(t, args...)
	if code == 0 {
		t.Fatalf("the disk did not fill up:\n%s", stderr)
	}
	if !strings.Contains(stderr, "no space left on device") {
		t.Errorf("the error does not say the disk is full:\n%s", stderr)
	}
	before := readRecords(t, out)
	os.Remove(filler)
	if _, stderr, code := paperlens(t, args...); code != 0 {
		t.Fatalf("rerun after freeing space: exit %d\n%s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, run.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	seen := map[string]bool{}
	errored := 0
	for i, l := range lines {
		var r run.Record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("line %d is not a record: %.80q", i+1, l)
		}
		// A record that ended in an error (a response cache write that hit
		// the full disk, say) is redone by the rerun and superseded; a
		// good record must never be written twice.
		if r.Error != "" {
			errored++
			continue
		}
		k := fmt.Sprintf("%s/%d", r.QuestionID, r.Run)
		if seen[k] {
			t.Errorf("%s recorded twice", k)
		}
		seen[k] = true
	}
	if len(seen) != 300 {
		t.Errorf("%d distinct records after the rerun (%d before), want 300", len(seen), len(before))
	}
	t.Logf("disk full after %d records; %d after the rerun (%d error records superseded)", len(before), len(seen), errored)
}
