package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/study"
)

// The help states the defaults the code applies: study's modes and run
// folders, eval's modes; and no help text is left with a placeholder.
func TestHelpShowsTheCodesDefaults(t *testing.T) {
	t.Parallel()
	help := func(args ...string) string {
		t.Helper()
		out, errOut, code := paperlens(t, append(args, "--help")...)
		if code != 0 {
			t.Fatalf("%v --help: exit %d\n%s", args, code, errOut)
		}
		return out
	}
	st := help("study")
	modes := strings.Join(study.DefaultModes(), ",")
	folder := study.Folder(study.DefaultOutRoot, "MODEL", "PARADIGM")
	for _, want := range []string{"\n  " + modes + "\n", "(default: " + modes + ")", folder + " (--out DIR", folder + "-sweep-", "DIR" + string(filepath.Separator) + filepath.Base(folder)} {
		if !strings.Contains(st, want) {
			t.Errorf("study --help lacks %q", want)
		}
	}
	ev := help("eval")
	for _, want := range []string{"With no --mode: " + strings.Join(run.DefaultModes("elaipbench"), ",") + "\n(LPFQA: " + strings.Join(run.DefaultModes("lpfqa"), ",") + ")",
		"(default: " + strings.Join(run.DefaultModes("elaipbench"), ",") + "; LPFQA: ", "run:NAME", "--config", "--retrieved NAME=FILE"} {
		if !strings.Contains(ev, want) {
			t.Errorf("eval --help lacks %q", want)
		}
	}
	if sv := help("serve"); strings.Contains(sv, "7575") || !strings.Contains(sv, "127.0.0.1:7386") {
		t.Errorf("serve --help: want port 7386 (7575 is Inspect AI's):\n%s", sv)
	}
	for cmd, files := range map[string][]string{"export": {"config.json", "results.jsonl", "--out", "trec_eval"}, "rescore": {"summary.json", "results.jsonl", "config.json", "--json", "exit status 1"}} {
		h := help(cmd)
		for _, want := range append(files, "Examples:", "paperlens "+cmd+" ") {
			if !strings.Contains(h, want) {
				t.Errorf("%s --help lacks %q", cmd, want)
			}
		}
	}
	if r := help("eval", "retrieval"); !strings.Contains(r, "passage_recall@k") || !strings.Contains(r, "recall_k") || !strings.Contains(r, "--retrieved") {
		t.Error("eval retrieval --help does not explain passage_recall@k and --retrieved")
	}

	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		var b bytes.Buffer
		c.SetOut(&b)
		_ = c.Help()
		if strings.Contains(b.String(), "{{") {
			t.Errorf("%s --help keeps a placeholder:\n%s", c.CommandPath(), b.String())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot(newGlobals(nil, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}, nil)))
}
