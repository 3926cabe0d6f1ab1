package report

import (
	"context"
	"html/template"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/compose"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/testkit/sampletest"
)

// composedRun evaluates the random baseline closed-book on questions
// composed from the sample (spec nil: the sample's own), into a folder
// under root, and returns it.
func composedRun(t *testing.T, root, name string, spec *compose.Spec) string {
	t.Helper()
	cfg := run.Config{Bench: "elaipbench", Data: sampletest.Data(), Model: "random", Modes: []string{run.ClosedBook}, Runs: 2,
		Concurrency: 2, Out: filepath.Join(root, name), Seed: 3, Compose: spec}
	cfg.Defaults(nil)
	qs, _, err := run.LoadQuestions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run.Run(context.Background(), run.Options{Config: cfg, Questions: qs}); err != nil {
		t.Fatal(err)
	}
	return cfg.Out
}

// The report of a composed run adds accuracy by number of statements and
// by number of options under section 1, in both formats, values in
// numeric order; a run of the benchmark's own questions adds nothing, and
// the composed run is complete (each run its own questions).
func TestReportShowsComposedShape(t *testing.T) {
	root := t.TempDir()
	spec := compose.Spec{Seed: 3, Questions: 12}
	spec.Defaults()
	plain := composedRun(t, root, "plain", nil)
	composed := composedRun(t, root, "composed", &spec)

	runs, err := Load(plain)
	if err != nil {
		t.Fatal(err)
	}
	var md strings.Builder
	if err := Markdown(&md, runs); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), "Accuracy by number of") {
		t.Errorf("a report of the sample's own questions has composed-shape tables")
	}

	runs, err = Load(plain, composed)
	if err != nil {
		t.Fatal(err)
	}
	if runs[1].Progress.Incomplete() {
		t.Errorf("composed run reported %s", runs[1].Progress)
	}
	md.Reset()
	if err := Markdown(&md, runs); err != nil {
		t.Fatal(err)
	}
	out := md.String()
	sec1 := out[strings.Index(out, "## 1."):strings.Index(out, "## 2.")]
	for _, title := range []string{"### Accuracy by number of statements", "### Accuracy by number of options"} {
		i := strings.Index(sec1, title)
		if i < 0 {
			t.Fatalf("no %q in section 1:\n%s", title, sec1)
		}
		table := sec1[i+len(title):]
		if j := strings.Index(table, "###"); j >= 0 {
			table = table[:j]
		}
		head := strings.SplitN(table[strings.Index(table, "| model"):], "\n", 2)[0]
		if strings.Contains(table, "(plain)") {
			t.Errorf("%s has a row for the plain run:\n%s", title, table)
		}
		nums := regexp.MustCompile(`\| (\d+) `).FindAllStringSubmatch(head, -1)
		for k := 1; k < len(nums); k++ {
			if len(nums[k][1]) < len(nums[k-1][1]) || (len(nums[k][1]) == len(nums[k-1][1]) && nums[k][1] < nums[k-1][1]) {
				t.Errorf("%s: values out of order: %s", title, head)
			}
		}
		if !strings.Contains(table, "| random (composed) | closed-book |") {
			t.Errorf("%s: no row for the composed run:\n%s", title, table)
		}
	}
	var html strings.Builder
	if err := HTML(&html, runs); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<h3>Accuracy by number of statements</h3>", "<h3>Accuracy by number of options</h3>", template.HTMLEscapeString(shapeNote)} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
}
