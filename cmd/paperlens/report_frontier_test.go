package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// report --frontier-svg writes the frontier figure alone, as a standalone
// SVG document, labelled by what differs between the runs. The ir
// baseline reads no context, so it answers alike in every mode and
// closed-book is the cheapest configuration within full's interval.
func TestReportFrontierSVG(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	data := filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")
	var dirs []string
	for _, r := range []struct{ k, modes string }{{"3", "closed-book,full,bm25"}, {"5", "bm25"}} {
		out := filepath.Join(t.TempDir(), "k"+r.k)
		if _, errOut, code := paperlens(t, "eval", "--home", home, "--data", data, "--model", "ir", "--mode", r.modes, "--k", r.k, "--runs", "1", "--out", out); code != 0 {
			t.Fatalf("eval k=%s: %s", r.k, errOut)
		}
		dirs = append(dirs, out)
	}
	svg := filepath.Join(t.TempDir(), "frontier.svg")
	md := filepath.Join(t.TempDir(), "report.md")
	if _, errOut, code := paperlens(t, append([]string{"report", "--frontier-svg", svg, "--md", md}, dirs...)...); code != 0 {
		t.Fatalf("report: %s", errOut)
	}
	s, _ := os.ReadFile(svg)
	m, _ := os.ReadFile(md)
	if !strings.HasPrefix(string(s), `<svg xmlns="http://www.w3.org/2000/svg"`) || strings.Contains(string(s), "<script") {
		t.Errorf("not a standalone SVG:\n%.200s", s)
	}
	for _, want := range []string{">bm25 k=3<", ">bm25 k=5<", ">closed-book<", ">full<", "ir: accuracy against mean prompt tokens per question"} {
		if !strings.Contains(string(s), want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if want := "The cheapest configuration whose accuracy is within the 95% interval of full: closed-book, at "; !strings.Contains(string(m), want) {
		t.Errorf("Markdown lacks %q:\n%s", want, m)
	}
}
