package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// Most tests run the CLI in this process (paperlens): the real command
// tree, flags, streams and exit statuses, with nothing of an invocation
// shared. The test binary also doubles as the paperlens command: with
// PAPERLENS_BE_MAIN set it runs main's logic, for the tests that need a
// real process (paperlensProcess: one that is killed, signalled, limited,
// or run in another directory), and it serves the extraction workers that
// every ingest, in process or not, re-executes this binary for.
func TestMain(m *testing.M) {
	// A first argument that is no test flag means the binary was run as
	// the command (by measure ingest, which times "SELF ingest ..."): never as a
	// second test run, which would start a third.
	asCommand := len(os.Args) > 1 && !strings.HasPrefix(os.Args[1], "-test.")
	if os.Getenv("PAPERLENS_BE_MAIN") == "1" || ingest.IsWorker() || asCommand {
		os.Exit(cliMain(os.Args[1:]))
	}
	// Half of these tests' time is waiting (on loopback servers that
	// stall or hold calls, on locks that time out, on worker processes and
	// Chromium), so many of them at once keep the 2 cores busy: at 8, the
	// slots filled with waiting tests while the CPU idled half the run.
	// -parallel on the command line still wins.
	flag.Parse()
	if !parallelSet() && runtime.GOMAXPROCS(0) < 16 {
		_ = flag.Set("test.parallel", "16")
	}
	// Sixteen in-process commands at once make garbage fast from a live
	// heap that stays small, so at the default GOGC the collector ran
	// often: at 400 this process spends ~8% less CPU (measured on the
	// eval, study and report tests) and peaks at ~750 MB instead of ~350.
	// Child processes (workers, paperlensProcess) keep their own setting.
	debug.SetGCPercent(400)
	code := m.Run()
	stopBrowser()
	removeTemplates()
	os.Exit(code)
}

// parallelSet reports whether -test.parallel was given explicitly.
func parallelSet() bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	return set
}

// hangGuard fires shortly before go test's -timeout would end the test
// binary, so that a wait for an event that never comes fails with the
// test's own message rather than a dump of every goroutine; with no
// -timeout it never fires. It only guards against hangs: no test here
// claims anything about how soon an event comes, which a busy machine
// decides.
func hangGuard(t *testing.T) <-chan time.Time {
	d, ok := t.Deadline()
	if !ok {
		return nil
	}
	left := time.Until(d)
	return time.After(left - left/10)
}

// paperlensProcess is the CLI as a child process, for the tests that need
// one: it can be killed or signalled, run under limits or in another
// directory, and its environment is its own.
func paperlensProcess(args ...string) *exec.Cmd {
	c := exec.Command(os.Args[0], args...)
	c.Env = append(os.Environ(), "PAPERLENS_BE_MAIN=1")
	return c
}

// paperlensExec runs the CLI to completion as a child process and returns
// stdout, stderr and the exit status.
func paperlensExec(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	c := paperlensProcess(args...)
	var out, errb strings.Builder
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.String(), errb.String(), 0
	case errors.As(err, &ee):
		return out.String(), errb.String(), ee.ExitCode()
	}
	t.Fatalf("run %v: %v", args, err)
	return "", "", -1
}

// paperlens runs the CLI to completion in this process and returns
// stdout, stderr and the exit status.
func paperlens(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return cli{}.run(t, args...)
}

// cli is an in-process invocation's environment and standard input.
type cli struct {
	env   []string  // NAME=value, over this process's environment
	stdin io.Reader // nil: empty
}

// run runs the CLI to completion in this process, as main would with
// these streams and this environment, and returns stdout, stderr and the
// exit status.
func (c cli) run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb lockedBuffer
	code := c.start(&out, &errb, args...)()
	return out.String(), errb.String(), code
}

// start runs the CLI in a goroutine, writing to out and errb, and returns
// the wait for its exit status.
func (c cli) start(out, errb io.Writer, args ...string) (wait func() int) {
	return c.startContext(context.Background(), out, errb, args...)
}

// startContext is start under ctx: cancelling it is the Ctrl-C of main.
func (c cli) startContext(ctx context.Context, out, errb io.Writer, args ...string) (wait func() int) {
	env := map[string]string{}
	for _, kv := range c.env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	stdin := c.stdin
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	g := newGlobals(args, stdin, out, errb, env)
	done := make(chan int, 1)
	go func() { done <- runCLI(ctx, g) }()
	return sync.OnceValue(func() int { return <-done })
}

func decodeResults(t *testing.T, out string) []ingest.Result {
	t.Helper()
	var rs []ingest.Result
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var r ingest.Result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("ingest --json printed a non-JSON line %q: %v", sc.Text(), err)
		}
		rs = append(rs, r)
	}
	return rs
}

func TestIngestBadFilesExitOne(t *testing.T) {
	t.Parallel()
	out, _, code := paperlens(t, "ingest", "--json", "--home", t.TempDir(), testcorpus.Path(t, "corpus", "bad"))
	rs := decodeResults(t, out)
	if code != 1 || len(rs) != 3 {
		t.Fatalf("exit %d with %d results, want 1 and 3:\n%s", code, len(rs), out)
	}
	for _, r := range rs {
		if r.Status != "error" || r.Error == "" || !strings.HasSuffix(r.Source, ".pdf") {
			t.Errorf("bad file result %+v: want status error naming the file", r)
		}
	}
}

// An ingest killed with SIGKILL mid-way leaves a consistent store, and the
// next run stores all 24 documents of the shared corpus (14 PDFs, 5 HTML
// pages, 5 seed texts) with no error; a third run skips them all.
func TestIngestKilledThenResumed(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("ingests the whole shared corpus")
	}
	home := t.TempDir()
	inputs := []string{testcorpus.Path(t, "corpus", "pdf"), testcorpus.Path(t, "corpus", "html"), testcorpus.Path(t, "seeds")}

	c := paperlensProcess(append([]string{"ingest", "--json", "--workers", "1", "--home", home}, inputs...)...)
	stdout, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	if !sc.Scan() {
		t.Fatalf("no output before kill")
	}
	var first ingest.Result
	if err := json.Unmarshal(sc.Bytes(), &first); err != nil || first.Status != "ok" {
		t.Fatalf("first result %q: %v", sc.Text(), err)
	}
	if err := c.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = c.Wait()

	st, err := corpus.Open(home, true)
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := st.Docs()
	if errs := st.Check(); len(errs) > 0 {
		t.Fatalf("store inconsistent after SIGKILL: %v", errs)
	}
	st.Close()
	if len(docs) == 0 || len(docs) >= 24 {
		t.Fatalf("after the kill %d documents are stored; want some but not all", len(docs))
	}
	done := map[string]bool{}
	for _, d := range docs {
		done[d.PaperID] = true
	}

	out, errOut, code := paperlens(t, append([]string{"ingest", "--json", "--home", home}, inputs...)...)
	rs := decodeResults(t, out)
	if code != 0 || len(rs) != 24 {
		t.Fatalf("resumed run: exit %d, %d results, want 0 and 24\n%s\n%s", code, len(rs), out, errOut)
	}
	for _, r := range rs {
		want := "ok"
		if done[r.PaperID] {
			want = "skipped"
		}
		if r.Status != want || r.Passages == 0 || r.Tokens == 0 {
			t.Errorf("resumed %s: %+v, want status %s with passages", r.PaperID, r, want)
		}
	}

	out, _, code = paperlens(t, append([]string{"ingest", "--json", "--home", home}, inputs...)...)
	for _, r := range decodeResults(t, out) {
		if r.Status != "skipped" {
			t.Errorf("third run %s: status %s, want skipped", r.PaperID, r.Status)
		}
	}
	if code != 0 {
		t.Errorf("third run exit %d", code)
	}

	st, err = corpus.Open(home, true)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if errs := st.Check(); len(errs) > 0 {
		t.Fatalf("store inconsistent after resume: %v", errs)
	}
	docs, _ = st.Docs()
	if len(docs) != 24 {
		t.Fatalf("%d documents stored, want 24", len(docs))
	}
}

func TestPapersAndPassagesJSON(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	dir := t.TempDir()
	body := "# On Retrieval\n\n## 1 Introduction\n\n" + strings.Repeat("Retrieval seldom helps expert readers of long papers. ", 120) +
		"\n\n## 2 Method\n\nWe chunk papers into passages."
	if err := os.WriteFile(filepath.Join(dir, "on-retrieval.md"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := paperlens(t, "ingest", "--home", home, "--max-tokens", "256", dir); code != 0 {
		t.Fatalf("ingest exit %d: %s", code, errOut)
	}
	out, _, code := paperlens(t, "passages", "--json", "--home", home, "on-retrieval")
	if code != 0 {
		t.Fatalf("passages exit %d", code)
	}
	var joined strings.Builder
	var sections []string
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var p map[string]any
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatalf("passages line %q: %v", line, err)
		}
		for _, f := range []string{"paper_id", "passage_id", "ordinal", "tokens", "start", "end", "section", "text"} {
			if _, ok := p[f]; !ok {
				t.Fatalf("passage lacks field %q: %v", f, p)
			}
		}
		if int(p["ordinal"].(float64)) != n || p["tokens"].(float64) > 256 {
			t.Errorf("passage %d: ordinal %v, tokens %v", n, p["ordinal"], p["tokens"])
		}
		joined.WriteString(p["text"].(string))
		sections = append(sections, p["section"].(string))
		n++
	}
	if n < 3 {
		t.Fatalf("%d passages, want ≥ 3 at 256 tokens", n)
	}
	if !strings.Contains(joined.String(), "We chunk papers into passages.") || !strings.HasPrefix(joined.String(), "# On Retrieval") {
		t.Errorf("passages do not give back the text: %q…", truncate(joined.String(), 80))
	}
	sort.Strings(sections)
	if !strings.Contains(strings.Join(sections, "|"), "Introduction") {
		t.Errorf("no passage carries the Introduction section: %v", sections)
	}

	out, _, code = paperlens(t, "papers", "--json", "--home", home)
	var d corpus.Document
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &d); err != nil || code != 0 || d.PaperID != "on-retrieval" || d.Passages != n {
		t.Errorf("papers --json: %q (exit %d, %v)", out, code, err)
	}

	_, errOut, code := paperlens(t, "passages", "--home", home, "nope")
	if code != 2 || !strings.Contains(errOut, `no paper "nope"`) {
		t.Errorf("unknown paper: exit %d, %q", code, errOut)
	}
}
