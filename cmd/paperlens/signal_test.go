package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// Ctrl-C and SIGTERM reach every command through one context (runCLI):
// an ingest stops at the next document, says so, exits non-zero, and keeps
// what it finished consistent.
func TestIngestStopsCleanlyOnSignal(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			home := t.TempDir()
			c := paperlensProcess("ingest", "--json", "--workers", "1", "--home", home, testcorpus.Path(t, "corpus", "pdf"))
			stdout, err := c.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			c.Stderr = &stderr
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(stdout)
			if !sc.Scan() {
				t.Fatalf("no output before the signal; stderr: %s", stderr.String())
			}
			var first ingest.Result
			if err := json.Unmarshal(sc.Bytes(), &first); err != nil || first.Status != ingest.StatusOK {
				t.Fatalf("first result %q: %v", sc.Text(), err)
			}
			if err := c.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			for sc.Scan() {
			}
			err = c.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() == 0 || ee.ExitCode() < 0 {
				t.Fatalf("exit after %v: %v (want a non-zero status, not death by the signal); stderr: %s", sig, err, stderr.String())
			}
			if !strings.Contains(stderr.String(), "interrupted") {
				t.Errorf("stderr does not say the ingest was interrupted: %s", stderr.String())
			}
			st, err := corpus.Open(home, true)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if errs := st.Check(); len(errs) > 0 {
				t.Fatalf("store inconsistent after %v: %v", sig, errs)
			}
			if _, err := st.Doc(first.PaperID); err != nil {
				t.Errorf("the document finished before %v (%s) is not stored: %v", sig, first.PaperID, err)
			}
		})
	}
}
