package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInspect(t *testing.T) {
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
