package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/internal/testkit/pdftest"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// crashWords are what a Go fatal error prints; none may reach the user.
var crashWords = []string{"fatal error", "goroutine ", "runtime.", "panic:", "[signal", "concurrent map"}

func checkNoCrashText(t *testing.T, what, s string) {
	t.Helper()
	for _, w := range crashWords {
		if strings.Contains(s, w) {
			t.Errorf("%s carries a worker's crash text %q:\n%.2000s", what, w, s)
		}
	}
}

// underMemoryLimit runs c under a data-segment cap, inherited by its
// workers, when prlimit is installed: the parent gets 1 GiB and each of
// its two workers lowers its own to 512 MiB, so the tree stays within
// 2 GiB.
func underMemoryLimit(t *testing.T, c *exec.Cmd) *exec.Cmd {
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Logf("prlimit not found (util-linux): running without the 2 GiB cap on the whole tree")
		return c
	}
	l := exec.Command(prlimit, append([]string{fmt.Sprintf("--data=%d", 1<<30), "--", c.Path}, c.Args[1:]...)...)
	l.Env = c.Env
	return l
}

// A batch of the hand-made hostile PDFs (each of which killed the whole
// process before isolation) among the 14 real papers, under a 2 GiB cap on
// the process tree: each hostile one is its own error in plain words, no Go
// fatal error text is printed, and every real paper is stored.
func TestIngestHostileBatch(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("ingests the 14 shared PDFs")
	}
	dir := t.TempDir()
	good, _ := filepath.Glob(filepath.Join(testcorpus.Path(t, "corpus", "pdf"), "*.pdf"))
	if len(good) != 14 {
		t.Fatalf("%d shared PDFs, want 14", len(good))
	}
	for _, f := range good {
		if err := os.Symlink(f, filepath.Join(dir, filepath.Base(f))); err != nil {
			t.Fatal(err)
		}
	}
	hostile := map[string]bool{}
	for _, c := range pdftest.Hostile() {
		hostile[c.Name] = true
		if err := os.WriteFile(filepath.Join(dir, c.Name+".pdf"), c.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Every hostile case is stopped by a guard or the memory cap, not the
	// clock, so the time limit is only a backstop, and a minute: 10 s could
	// time out a real paper on a busy machine.
	c := underMemoryLimit(t, paperlensProcess("ingest", "--json", "--workers", "2", "--timeout", "1m", "--doc-memory", "512MiB", "--home", t.TempDir(), dir))
	var out, errb strings.Builder
	c.Stdout, c.Stderr = &out, &errb
	start := time.Now()
	err := c.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	t.Logf("%d hostile and %d good PDFs in %v", len(hostile), len(good), time.Since(start))
	if code := c.ProcessState.ExitCode(); code != 1 {
		t.Errorf("exit %d, want 1 (some inputs failed): %s", code, errb.String())
	}
	checkNoCrashText(t, "stdout", out.String())
	checkNoCrashText(t, "stderr", errb.String())
	stored := 0
	for _, r := range decodeResults(t, out.String()) {
		switch {
		case hostile[r.PaperID]:
			if r.Status != ingest.StatusError || r.Error == "" {
				t.Errorf("hostile %s: %+v, want its own error", r.PaperID, r)
			}
			delete(hostile, r.PaperID)
			t.Logf("%-26s %s", r.PaperID, r.Error)
		case r.Status == ingest.StatusOK && r.Passages > 0:
			stored++
		default:
			t.Errorf("good %s: %+v", r.PaperID, r)
		}
	}
	if stored != len(good) || len(hostile) != 0 {
		t.Errorf("%d of %d good PDFs stored; hostile without a result: %v", stored, len(good), hostile)
	}
}

// A hostile PDF served as a web search result: that result is marked with
// an error status, the question is still answered, and no crash text
// reaches the output or the run folder.
func TestWebHostilePDFResult(t *testing.T) {
	t.Parallel()
	cases := pdftest.Hostile()
	pages := http.NewServeMux()
	var urls []string
	for _, name := range []string{"predictor-columns-content", "objstm-self", "flate-string-bomb"} {
		for _, c := range cases {
			if c.Name != name {
				continue
			}
			body := c.Data
			pages.HandleFunc("/"+name+".pdf", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/pdf")
				w.Write(body)
			})
			urls = append(urls, "/"+name+".pdf")
		}
	}
	if len(urls) != 3 {
		t.Fatalf("pdftest lacks a case: %v", urls)
	}
	good, err := os.ReadFile(testcorpus.Path(t, "corpus", "html", "distill-momentum.html"))
	if err != nil {
		t.Fatal(err)
	}
	pages.HandleFunc("/momentum", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(good)
	})
	pageSrv := httptest.NewServer(pages)
	defer pageSrv.Close()
	searx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var rs []string
		for i, u := range append(urls, "/momentum") {
			rs = append(rs, fmt.Sprintf(`{"url":%q,"title":"Result %d","content":"x"}`, pageSrv.URL+u, i))
		}
		fmt.Fprintf(w, `{"results":[%s]}`, strings.Join(rs, ","))
	}))
	defer searx.Close()
	model := modeltest.NewServer(t, modeltest.Config{Answer: answerByNumber})
	out := filepath.Join(t.TempDir(), "run")
	stdout, errOut, code := paperlens(t, "eval", "--bench", "jsonl", "--data", writeQuestions(t, 2), "--model", "fake", "--base-url", model.BaseURL(),
		"--mode", "web", "--runs", "1", "--web-provider", "searxng", "--searxng-url", searx.URL, "--allow-private-hosts",
		"--doc-memory", "512MiB", "--doc-timeout", "10s", "--home", t.TempDir(), "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	checkNoCrashText(t, "stdout", stdout)
	checkNoCrashText(t, "stderr", errOut)
	recs := readRecords(t, out)
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	for _, r := range recs {
		if r.Error != "" || r.Output == "" {
			t.Errorf("%s: not answered: error %q, output %q", r.QuestionID, r.Error, r.Output)
		}
		statuses := map[string]string{}
		for _, w := range r.Web {
			statuses[strings.TrimPrefix(w.URL, pageSrv.URL)] = w.Status
		}
		for _, u := range urls {
			if s := statuses[u]; s == "ok" || s == "" {
				t.Errorf("%s: hostile %s has status %q, want an error status; all: %v", r.QuestionID, u, s, statuses)
			}
		}
		if statuses["/momentum"] != "ok" {
			t.Errorf("%s: the good page: %v", r.QuestionID, statuses)
		}
	}
	_ = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".pdf") {
			if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), "goroutine ") {
				t.Errorf("%s carries a worker's crash text", p)
			}
		}
		return nil
	})
}

// A FIFO, a link to /dev/zero, and 4 MB of one unbroken word as text and
// as HTML: each is reported, the FIFO and the link refused unread, each
// long word stored or else stopped by its --timeout (its error says so),
// and a small good file is stored. How long any of it takes is not timed:
// a busy machine decides that; package chunk checks that the long word
// costs time linear in its length. (Here the point is the command's
// report.)
func TestIngestUnreadableAndHugeInTime(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	word := strings.Repeat("retrieval", 4<<20/9)
	files := map[string]string{
		"huge.txt":      word,
		"hugepage.html": "<html><body><article><p>" + word + "</p></article></body></html>",
		"ok.txt":        "A Note\n\nRetrieval helps a little. We measured it.",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.txt")); err != nil {
		t.Fatal(err)
	}
	const timeout = 8 * time.Second
	c := paperlensProcess("ingest", "--json", "--workers", "2", "--timeout", timeout.String(), "--home", t.TempDir(), dir)
	stdout, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb strings.Builder
	c.Stderr = &errb
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	defer c.Process.Kill()
	// A run that hung would keep the loop below reading for ever.
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-hangGuard(t):
			c.Process.Kill()
		case <-done:
		}
	}()
	seen := map[string]bool{}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		var r ingest.Result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		seen[filepath.Base(r.Source)] = true
		t.Logf("%-13s %4.1fs after its start: %s %s", filepath.Base(r.Source), r.Seconds, r.Status, r.Error)
		switch filepath.Base(r.Source) {
		case "fifo.txt", "zero.txt":
			if r.Status != ingest.StatusError || !strings.Contains(r.Error, "not a regular file") {
				t.Errorf("%s: %+v, want refused as not a regular file", r.Source, r)
			}
		case "ok.txt":
			if r.Status != ingest.StatusOK {
				t.Errorf("ok.txt: %+v", r)
			}
		case "huge.txt", "hugepage.html":
			if r.Status != ingest.StatusOK && !(r.Status == ingest.StatusError && strings.Contains(r.Error, "timed out after "+timeout.String())) {
				t.Errorf("%s: %+v, want stored or stopped by its --timeout", r.Source, r)
			}
		}
	}
	_ = c.Wait()
	if len(seen) != 5 {
		t.Errorf("reported %v, want all 5 files; stderr: %s", seen, errb.String())
	}
}
