package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/paperlens/paperlens/eval/agent"
	"github.com/paperlens/paperlens/eval/agent/python"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// pythonAsker stands in for a model in LPFQA's code-interpreter setting:
// it answers the tool preflight with a call, sends print(sum(range(10)))
// to the python tool, then answers with the option numbered by what the
// cell printed (45 → "ABCD"[45%4] = B).
func pythonAsker() modeltest.Config {
	return modeltest.Config{
		ToolCalls: func(r modeltest.Request) []modeltest.ToolCall {
			for _, t := range r.Tools {
				if strings.Contains(string(t), `"name":"ping"`) {
					return []modeltest.ToolCall{modeltest.Call("call_ping", "ping", `{"text":"ok"}`)}
				}
			}
			for _, m := range r.Messages {
				if m.Role == "tool" {
					return nil
				}
			}
			args, _ := json.Marshal(map[string]string{"code": "print(sum(range(10)))"})
			return []modeltest.ToolCall{modeltest.Call("call_1", agent.ToolPython, string(args))}
		},
		Answer: func(r modeltest.Request) (string, string) {
			for _, m := range r.Messages {
				if m.Role != "tool" {
					continue
				}
				out := strings.TrimSpace(strings.TrimPrefix(m.Content, "stdout:"))
				if n, err := strconv.Atoi(out); err == nil {
					return fmt.Sprintf("The cell printed %d, so the answer is %c.", n, "ABCD"[n%4]), ""
				}
				return "The tool said " + m.Content, ""
			}
			return "", ""
		},
	}
}

// tool-python end to end: the model's cell runs in the python tool, its
// output comes back, the answer built from it is scored, and the record
// keeps the transcript. --unsafe-python only matters where bubblewrap is
// missing.
func TestEvalToolPython(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, pythonAsker())
	data := writeQuestions(t, 2)
	out := filepath.Join(t.TempDir(), "run")
	stdout, stderr, code := paperlens(t, "eval", "--bench", "jsonl", "--data", data, "--model", "fake-model", "--base-url", srv.BaseURL(),
		"--mode", "tool-python", "--runs", "1", "--unsafe-python", "--max-tool-calls", "3", "--out", out, "--home", t.TempDir())
	if code != 0 {
		t.Fatalf("eval exit %d\n%s\n%s", code, stdout, stderr)
	}
	cfg, err := run.Dir(out).ReadConfig()
	if err != nil || cfg.MaxToolCalls != 3 || !cfg.UnsafePython {
		t.Errorf("config.json: max_tool_calls %d, unsafe_python %v (%v); want 3, true", cfg.MaxToolCalls, cfg.UnsafePython, err)
	}
	if _, err := os.Stat(filepath.Join(out, run.ToolsFile)); err != nil {
		t.Errorf("no tool cache in the run folder: %v", err)
	}
	recs := readRecords(t, out)
	if len(recs) != 2 {
		t.Fatalf("%d records", len(recs))
	}
	for _, r := range recs {
		tr := r.Transcript
		if r.Error != "" || tr == nil || tr.ToolCalls != 1 || len(tr.Steps) != 2 {
			t.Fatalf("%s: error %q, transcript %+v", r.QuestionID, r.Error, tr)
		}
		c := tr.Steps[0].Calls[0]
		if c.Name != agent.ToolPython || c.Result.Status != "ok" || strings.TrimSpace(c.Result.Text) != "stdout:\n45" {
			t.Errorf("%s: python call %+v", r.QuestionID, c)
		}
		if r.Extracted != "B" || r.Correct != (r.Gold == "B") {
			t.Errorf("%s: output %q extracted %q, gold %s, correct %v", r.QuestionID, r.Output, r.Extracted, r.Gold, r.Correct)
		}
	}
}

// A server without tool support stops a tool mode before any record, with
// an error naming the mode, and a non-zero exit.
func TestEvalToolModeWithoutToolSupport(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.Config{Answer: answerByNumber, NoTools: true})
	data := writeQuestions(t, 2)
	out := filepath.Join(t.TempDir(), "run")
	_, stderr, code := paperlens(t, "eval", "--bench", "jsonl", "--data", data, "--model", "fake-model", "--base-url", srv.BaseURL(),
		"--mode", "closed-book,tool-python", "--runs", "1", "--unsafe-python", "--out", out, "--home", t.TempDir())
	if code == 0 || !strings.Contains(stderr, "mode tool-python") || !strings.Contains(stderr, "does not support tool calling") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	if n := countLines(filepath.Join(out, "results.jsonl")); n != 0 {
		t.Errorf("%d records written", n)
	}
}

// webAsker stands in for a model in LPFQA's Search setting: for question i
// it calls web_search with the question, then open_page on the first URL
// the search returned, then answers with the option the page names.
func webAsker() modeltest.Config {
	tools := func(r modeltest.Request) (out []modeltest.Message) {
		for _, m := range r.Messages {
			if m.Role == "tool" {
				out = append(out, m)
			}
		}
		return out
	}
	return modeltest.Config{
		ToolCalls: func(r modeltest.Request) []modeltest.ToolCall {
			for _, t := range r.Tools {
				if strings.Contains(string(t), `"name":"ping"`) {
					return []modeltest.ToolCall{modeltest.Call("call_ping", "ping", `{"text":"ok"}`)}
				}
			}
			tm := tools(r)
			switch len(tm) {
			case 0:
				q := r.Messages[len(r.Messages)-1].Content
				if at := strings.Index(q, "Question number "); at >= 0 {
					q = q[at:]
					if end := strings.Index(q, "?"); end > 0 {
						q = q[:end]
					}
				}
				args, _ := json.Marshal(map[string]string{"query": q})
				return []modeltest.ToolCall{modeltest.Call("call_s", agent.ToolWebSearch, string(args))}
			case 1:
				for _, line := range strings.Split(tm[0].Content, "\n") {
					if u := strings.TrimSpace(line); strings.HasPrefix(u, "http") {
						args, _ := json.Marshal(map[string]string{"url": u})
						return []modeltest.ToolCall{modeltest.Call("call_o", agent.ToolOpenPage, string(args))}
					}
				}
			}
			return nil
		},
		Answer: func(r modeltest.Request) (string, string) {
			for _, m := range tools(r) {
				if at := strings.Index(m.Content, "The right option is "); at >= 0 && at+21 <= len(m.Content) {
					return "Answer: " + m.Content[at+20:at+21], ""
				}
			}
			return "I found nothing.", ""
		},
	}
}

// tool-search killed with SIGKILL while four questions wait on open_page,
// then rerun. Those questions had finished two model turns and a search
// each; the rerun asks the model nothing it was asked before and sends no
// search twice. Only the four unfinished page fetches are made again. The
// loopback servers stand in for an OpenAI-compatible chat API, SearXNG's
// JSON API and the web pages it finds.
func TestEvalToolModeKilledAndRerun(t *testing.T) {
	t.Parallel()
	const n, held = 24, 12 // pages of questions from number held on wait until the kill
	f := newToolKillFixture(t, held)
	srv := modeltest.NewServer(t, webAsker())
	data := writeQuestions(t, n)
	out := filepath.Join(t.TempDir(), "run")
	args := []string{"eval", "--bench", "jsonl", "--data", data, "--model", "fake-model", "--base-url", srv.BaseURL(),
		"--mode", "tool-search", "--runs", "1", "--concurrency", "4", "--web-provider", "searxng", "--searxng-url", f.searx.URL,
		"--allow-private-hosts", "--out", out, "--home", t.TempDir()}

	f.killWhenFourHeld(t, args)
	before := readRecords(t, out)
	if len(before) == 0 || len(before) > n-4 {
		t.Fatalf("%d records at the kill; want a run killed part-way", len(before))
	}
	servedBefore := srv.Served()
	f.mu.Lock()
	searchesBefore := len(f.searches)
	f.mu.Unlock()
	f.checkMidway(t, before, n)

	if _, errOut, code := paperlens(t, args...); code != 0 {
		t.Fatalf("rerun: exit %d: %s", code, errOut)
	}
	after := readRecords(t, out)
	if len(after) != n {
		t.Fatalf("%d records after the rerun, want %d", len(after), n)
	}
	for prompt, k := range srv.Served() {
		if k > 1 && strings.Contains(prompt, "Question number ") {
			t.Errorf("asked the model %d times (%d before the kill): %.120q", k, servedBefore[prompt], prompt)
		}
	}
	f.checkOnce(t, searchesBefore, len(before), n)
	for _, r := range after {
		tr := r.Transcript
		if r.Error != "" || !r.Correct || tr == nil || tr.ToolCalls != 2 {
			t.Errorf("%s: error %q, output %q, gold %s, transcript %+v", r.QuestionID, r.Error, r.Output, r.Gold, tr)
		}
	}
}

// toolKillFixture is TestEvalToolModeKilledAndRerun's loopback SearXNG
// and web pages, with what they were asked: pages of questions from
// number held on wait until the kill.
type toolKillFixture struct {
	mu                    sync.Mutex
	searches, pagesServed map[int]int // by question number
	waiting, killed       atomic.Int32
	release, fourHeld     chan struct{}
	fourOnce              sync.Once
	pages, searx          *httptest.Server
}

func newToolKillFixture(t *testing.T, held int) *toolKillFixture {
	t.Helper()
	f := &toolKillFixture{searches: map[int]int{}, pagesServed: map[int]int{}, release: make(chan struct{}), fourHeld: make(chan struct{})}
	f.pages = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/page/"))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		if i >= held && f.killed.Load() == 0 {
			if f.waiting.Add(1) >= 4 {
				f.fourOnce.Do(func() { close(f.fourHeld) })
			}
			select {
			case <-f.release:
			case <-r.Context().Done():
			}
			f.waiting.Add(-1)
			return // the client was killed while this page was held
		}
		f.mu.Lock()
		f.pagesServed[i]++
		f.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<html><head><title>Notes %d</title></head><body><article><h1>Notes on question %d</h1>"+
			"<p>These notes discuss the question, its options and the reasoning behind each of them, so that a reader can check the claim.</p>"+
			"<p>After reading closely we conclude: The right option is %c.</p></article></body></html>", i, i, "ABCD"[i%4])
	}))
	t.Cleanup(f.pages.Close)
	f.searx = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query().Get("q")
		var i int
		if _, err := fmt.Sscanf(q, "Question number %d", &i); err != nil {
			http.Error(w, "unexpected query "+q, 400)
			return
		}
		f.mu.Lock()
		f.searches[i]++
		f.mu.Unlock()
		fmt.Fprintf(w, `{"results":[{"url":%q,"title":"Notes","content":"notes on the question"}]}`, fmt.Sprintf("%s/page/%d", f.pages.URL, i))
	}))
	t.Cleanup(f.searx.Close)
	return f
}

// killWhenFourHeld runs paperlens with args and kills it with SIGKILL
// once four questions wait on their page; it fails the test if the run
// ends or the test's time runs out first.
func (f *toolKillFixture) killWhenFourHeld(t *testing.T, args []string) {
	t.Helper()
	c := paperlensProcess(args...)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- c.Wait() }()
	held4 := true
	select {
	case <-f.fourHeld:
	case <-exited:
		held4 = false
	case <-hangGuard(t):
		held4 = false
	}
	_ = c.Process.Signal(syscall.SIGKILL)
	<-exited
	f.killed.Store(1)
	close(f.release)
	if !held4 {
		t.Fatalf("only %d questions reached open_page before the run ended or the test's time ran out", f.waiting.Load())
	}
}

// checkMidway checks that at least four of the n questions were searched
// but not recorded at the kill.
func (f *toolKillFixture) checkMidway(t *testing.T, before []run.Record, n int) {
	t.Helper()
	midway := 0 // questions whose search ran but that were not recorded
	recorded := map[string]bool{}
	for _, r := range before {
		recorded[r.QuestionID] = true
	}
	for i := 0; i < n; i++ {
		f.mu.Lock()
		s := f.searches[i]
		f.mu.Unlock()
		if s == 1 && !recorded[fmt.Sprintf("q%03d", i)] {
			midway++
		}
	}
	if midway < 4 {
		t.Fatalf("%d questions were mid-way at the kill, want at least 4", midway)
	}
}

// checkOnce checks that each of the n questions was searched once and
// each page served once, searchesBefore of the searches before the kill
// when recordedBefore records were written.
func (f *toolKillFixture) checkOnce(t *testing.T, searchesBefore, recordedBefore, n int) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	for q, k := range f.searches {
		if k != 1 {
			t.Errorf("searched for question %d %d times", q, k)
		}
	}
	if len(f.searches) != n || searchesBefore < recordedBefore+4 {
		t.Errorf("%d searches in all (%d before the kill, %d records then), want %d", len(f.searches), searchesBefore, recordedBefore, n)
	}
	for i, k := range f.pagesServed {
		if k != 1 {
			t.Errorf("page %d served %d times", i, k)
		}
	}
}

// The dry run of a tool-python run says how this machine bounds the
// session (the mechanism python.Mechanism finds here) and with which
// limits, in text and in --json.
func TestDryRunNamesThePythonSessionBudget(t *testing.T) {
	t.Parallel()
	name, _ := python.Mechanism(python.Options{Memory: 512 << 20, Processes: 16})
	args := []string{"eval", "--data", filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl"), "--model", "m",
		"--base-url", "http://127.0.0.1:9/v1", "--mode", "tool-python", "--limit", "2", "--dry-run",
		"--tool-memory", "512MiB", "--tool-processes", "16", "--out", filepath.Join(t.TempDir(), "run"), "--home", t.TempDir()}
	out, errOut, code := paperlens(t, args...)
	if code != 0 {
		t.Fatalf("dry run: exit %d\n%s", code, errOut)
	}
	if !strings.Contains(out, "python tool: "+name) || !strings.Contains(out, "512 MiB") || !strings.Contains(out, "16 processes") {
		t.Errorf("the dry run does not state the %s budget of 512 MiB and 16 processes:\n%s", name, out)
	}
	js, errOut, code := paperlens(t, append(args[:len(args):len(args)], "--json")...)
	var p run.Plan
	if code != 0 || json.Unmarshal([]byte(js), &p) != nil || p.PythonSandbox == nil || p.PythonSandbox.Mechanism != name {
		t.Errorf("--json plan: exit %d, %+v\n%s", code, p.PythonSandbox, errOut)
	}
	if _, errOut, code := paperlens(t, append(args[:len(args):len(args)], "--tool-memory", "1MB")...); code == 0 || !strings.Contains(errOut, "at least 128MiB") {
		t.Errorf("--tool-memory 1MB: exit %d\n%s", code, errOut)
	}
}
