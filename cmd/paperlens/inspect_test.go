package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// paperlensIn runs the CLI in dir, as a user whose shell is there.
func paperlensIn(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	c := paperlensProcess(args...)
	c.Dir = dir
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.String(), errb.String(), 0
	case errors.As(err, &ee):
		return out.String(), errb.String(), ee.ExitCode()
	}
	t.Fatalf("run %v in %s: %v", args, dir, err)
	return "", "", -1
}

// evalProject runs eval as a user in a project folder would, with paths
// relative to it: the sample at data/sample.jsonl, the corpus home at
// .paperlens, the run at runs/NAME. It returns the project and run folder.
func evalProject(t *testing.T, name string, args ...string) (proj, dir string) {
	t.Helper()
	proj = t.TempDir()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(proj, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, "data", "sample.jsonl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join("runs", name)
	all := append([]string{"eval", "--home", ".paperlens", "--data", filepath.Join("data", "sample.jsonl"), "--model", "ir", "--out", out}, args...)
	if _, errOut, code := paperlensIn(t, proj, all...); code != 0 {
		t.Fatalf("eval in %s: exit %d\n%s", proj, code, errOut)
	}
	return proj, filepath.Join(proj, out)
}

func setConfig(t *testing.T, dir, key string, v any) {
	t.Helper()
	path := filepath.Join(dir, "config.json")
	b, _ := os.ReadFile(path)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m[key] = v
	b, _ = json.Marshal(m)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A run made with relative paths is inspected from another directory, by
// absolute and by relative run path; then its dataset moves, and --data
// finds it.
func TestInspectFromAnotherDirectory(t *testing.T) {
	t.Parallel()
	proj, dir := evalProject(t, "ir", "--mode", "full,bm25", "--runs", "1")
	elsewhere := t.TempDir()
	list, _, code := paperlensIn(t, elsewhere, "inspect", dir)
	lines := strings.Split(strings.TrimSpace(list), "\n")
	if code != 0 || len(lines) < 38 {
		t.Fatalf("list: exit %d\n%s", code, list)
	}
	id := strings.Fields(lines[1])[0]
	rel, err := filepath.Rel(elsewhere, dir)
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct{ Data, Home string }
	b, _ := os.ReadFile(filepath.Join(dir, "config.json"))
	json.Unmarshal(b, &cfg)
	for _, runDir := range []string{dir, rel} {
		page, errOut, code := paperlensIn(t, elsewhere, "inspect", runDir, id, "--plain")
		if code != 0 {
			t.Fatalf("inspect %s %s from %s: exit %d\n%s", runDir, id, elsewhere, code, errOut)
		}
		for _, want := range []string{"Gold answer:", "═══ bm25"} {
			if !strings.Contains(page, want) {
				t.Errorf("inspect %s %s lacks %q:\n%.2000s", runDir, id, want, page)
			}
		}
		// The first passage with its text: the corpus home was found.
		if !regexp.MustCompile(`(?m)^ +1 +\d+\.\d{4} +\S+\n {6}\S`).MatchString(page) {
			t.Errorf("inspect %s %s shows no passage text:\n%.2000s", runDir, id, page)
		}
		if strings.Contains(errOut, "passages not shown") {
			t.Errorf("the corpus home was not found: %s", errOut)
		}
		// Runs made before eval recorded absolute paths say where they
		// found the files.
		if !filepath.IsAbs(cfg.Data) && !strings.Contains(errOut, "using "+filepath.Join(proj, "data", "sample.jsonl")) {
			t.Errorf("stderr does not say which dataset was used: %q", errOut)
		}
	}

	moved := filepath.Join(elsewhere, "moved.jsonl")
	if err := os.Rename(filepath.Join(proj, "data", "sample.jsonl"), moved); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := paperlensIn(t, elsewhere, "inspect", dir, id)
	if code != 2 || strings.Contains(errOut, "no question") || !strings.Contains(errOut, "not found") ||
		!strings.Contains(errOut, filepath.Join(proj, "data", "sample.jsonl")) || !strings.Contains(errOut, "--data FILE") {
		t.Errorf("missing dataset: exit %d, %q; want it named as not found, with --data FILE", code, errOut)
	}
	if page, errOut, code := paperlensIn(t, elsewhere, "inspect", dir, id, "--plain", "--data", "moved.jsonl"); code != 0 || !strings.Contains(page, "Gold answer:") {
		t.Errorf("--data moved.jsonl: exit %d\n%s", code, errOut)
	}
	if _, errOut, code := paperlensIn(t, elsewhere, "inspect", dir, id, "--data", "nope.jsonl"); code != 2 || !strings.Contains(errOut, "--data nope.jsonl: file not found") {
		t.Errorf("--data nope.jsonl: exit %d, %q", code, errOut)
	}
	// --home overrides the recorded home: an empty one has no passages.
	if _, errOut, _ := paperlensIn(t, elsewhere, "inspect", dir, id, "--data", "moved.jsonl", "--home", t.TempDir()); !strings.Contains(errOut, "passages not shown") {
		t.Errorf("--home was not used: %q", errOut)
	}

	// A dataset that changed since the run is shown with a warning.
	setConfig(t, dir, "data_sha256", strings.Repeat("ab", 32))
	if _, errOut, code := paperlensIn(t, elsewhere, "inspect", dir, id, "--data", "moved.jsonl"); code != 0 || !strings.Contains(errOut, "changed since the run") {
		t.Errorf("changed dataset: exit %d, %q", code, errOut)
	}
}

func TestInspect(t *testing.T) {
	t.Parallel()
	home, out := t.TempDir(), filepath.Join(t.TempDir(), "run")
	data := filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")
	if _, errOut, code := paperlens(t, "eval", "--home", home, "--data", data, "--model", "ir", "--mode", "full+hybrid,oracle", "--runs", "1", "--out", out); code != 0 {
		t.Fatalf("eval: %s", errOut)
	}
	list, _, code := paperlens(t, "inspect", out)
	lines := strings.Split(strings.TrimSpace(list), "\n")
	if code != 0 || len(lines) < 38 || !strings.Contains(lines[0], "full+hybrid") {
		t.Fatalf("list: exit %d\n%s", code, list)
	}
	id := strings.Fields(lines[1])[0]
	page, errOut, code := paperlens(t, "inspect", out, id, "--plain")
	if code != 0 {
		t.Fatalf("inspect %s: %s", id, errOut)
	}
	for _, want := range []string{"Gold answer:", "Gold evidence:", "═══ full+hybrid", "═══ oracle", "#", "output: Answer:"} {
		if !strings.Contains(page, want) {
			t.Errorf("question page lacks %q:\n%s", want, page)
		}
	}
	if !strings.Contains(page, "»") && !strings.Contains(page, "not retrieved:") {
		t.Errorf("the page neither marks gold evidence nor lists it as not retrieved:\n%s", page)
	}
	if _, errOut, code := paperlens(t, "inspect", out, "../../etc/passwd"); code != 2 || !strings.Contains(errOut, "no question") {
		t.Errorf("unknown id: exit %d %q", code, errOut)
	}
}

func TestReportTwoRuns(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	data := filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")
	var dirs []string
	for _, m := range []string{"ir", "random"} {
		out := filepath.Join(t.TempDir(), m)
		if _, errOut, code := paperlens(t, "eval", "--home", home, "--data", data, "--model", m, "--mode", "full,full+hybrid,oracle", "--runs", "2", "--out", out); code != 0 {
			t.Fatalf("eval %s: %s", m, errOut)
		}
		dirs = append(dirs, out)
	}
	html := filepath.Join(t.TempDir(), "report.html")
	md := filepath.Join(t.TempDir(), "report.md")
	if _, errOut, code := paperlens(t, append([]string{"report", "--html", html, "--md", md}, dirs...)...); code != 0 {
		t.Fatalf("report: %s", errOut)
	}
	h, _ := os.ReadFile(html)
	m, _ := os.ReadFile(md)
	if strings.Count(string(h), "<svg") < 3 || strings.Contains(string(h), "http://") || strings.Contains(string(h), "https://") || strings.Contains(string(h), "<script") {
		t.Errorf("HTML report is not self-contained or lacks charts (%d bytes)", len(h))
	}
	for _, want := range []string{"ir", "random", "oracle"} {
		if !strings.Contains(string(m), want) {
			t.Errorf("Markdown report lacks %q", want)
		}
	}
}

// A model that answers with terminal codes (clear the screen, retitle the
// window, reverse the text) and a question whose id carries one are shown
// by inspect with those codes escaped, while results.jsonl keeps the reply
// exactly as it came.
func TestInspectEscapesTerminalCodes(t *testing.T) {
	t.Parallel()
	hostile := "\x1b[2J\x1b[H\x1b]0;pwned\x07Sure.\rThe answer is \u202eA.\u202c"
	srv := modeltest.NewServer(t, modeltest.Config{Answer: func(modeltest.Request) (string, string) { return hostile, "" }})
	data := filepath.Join(t.TempDir(), "bench.jsonl")
	row := `{"id":"q\u001b]0;id\u0007","type":"SA-MCQ","question":"Which \u001b[31moption\u001b[0m is right?","options":["one","two","three","four"],"answer":"A"}` + "\n"
	if err := os.WriteFile(data, []byte(row), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "run")
	if _, errOut, code := paperlens(t, "eval", "--bench", "jsonl", "--data", data, "--model", "m", "--base-url", srv.BaseURL(),
		"--mode", "closed-book", "--runs", "1", "--out", out, "--home", t.TempDir()); code != 0 {
		t.Fatalf("eval: exit %d\n%s", code, errOut)
	}
	recs := readRecords(t, out)
	if len(recs) != 1 || recs[0].Output != hostile {
		t.Fatalf("results.jsonl does not keep the reply exactly: %+v", recs)
	}
	list, _, code := paperlens(t, "inspect", out)
	page, errOut, code2 := paperlens(t, "inspect", out, recs[0].QuestionID)
	if code != 0 || code2 != 0 {
		t.Fatalf("inspect: exit %d, %d\n%s", code, code2, errOut)
	}
	for name, text := range map[string]string{"list": list, "page": page} {
		if i := strings.IndexAny(text, "\x1b\x07\r\u202e\u202c"); i >= 0 {
			t.Errorf("the %s prints a raw control at %d: %q", name, i, text[max(i-20, 0):min(i+20, len(text))])
		}
	}
	for _, want := range []string{`\x1b[2J`, `\x1b]0;pwned\x07`, `Sure.\rThe answer`, `\u202eA.\u202c`, `Which \x1b[31moption`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not show %q escaped:\n%s", want, page)
		}
	}
	if !strings.Contains(list, `q\x1b]0;id\x07`) {
		t.Errorf("the list does not show the question id escaped:\n%s", list)
	}
}
