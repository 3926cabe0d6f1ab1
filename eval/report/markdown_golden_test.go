package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/model"
)

// markdownGoldenSets are report inputs that fill every section of the
// Markdown report, and leave each empty once: runs with effects, recall,
// reasoning by length and by breakdown, a tool mode, incomplete folders;
// reasoning against base runs (flips); server and assembled token counts
// with a price; runs without effects or tokens; the published numbers.
func markdownGoldenSets(t *testing.T) map[string]struct {
	runs []Run
	opt  WriteOptions
} {
	t.Helper()
	tools := writeRun(t, "agentic", 0.5)
	f, err := os.OpenFile(filepath.Join(tools, "results.jsonl"), os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range agentRecords() {
		r.Model = "agentic"
		b, _ := json.Marshal(r)
		f.Write(append(b, '\n'))
	}
	f.Close()
	thinker := fxRun{name: "by", model: "thinker", paradigm: "reasoning", data: "/d/q.jsonl", modes: []string{"full", "bm25"}, runs: 1}
	for i, m := range []string{"full", "bm25", "full", "bm25"} {
		r := rec("q"+string(rune('0'+i/2)), m, 1, i%3 == 0, model.Usage{PromptTokens: 100 * (i + 1), ReasoningTokens: 10 * i})
		r.Reasoning = strings.Repeat("r", 50*i)
		r.Breakdown = map[string]string{"difficulty": []string{"easy", "hard"}[i/2]}
		thinker.recs = append(thinker.recs, r)
	}
	load := func(dirs ...string) []Run {
		runs, err := Load(dirs...)
		if err != nil {
			t.Fatal(err)
		}
		return runs
	}
	return map[string]struct {
		runs []Run
		opt  WriteOptions
	}{
		"runs":   {runs: load(writeRun(t, "ir", 0.5), writeRun(t, evil, 0.3), tools)},
		"flips":  {runs: loadFx(t, flipRuns()...)},
		"tokens": {runs: loadFx(t, tokenRun(&run.Price{In: 2, Out: 8}), serverRun(), offlineRun("x"))},
		"bare": {runs: []Run{fakeRun("a", cfgOf("m", 5, 512), nil,
			mstat{mode: "closed-book", acc: 0.3, n: 10, server: 90},
			mstat{mode: "bm25", acc: 0.5, n: 10, tokens: 900},
			mstat{mode: "hybrid", acc: 0.7, n: 10})}},
		"reasoning by": {runs: loadFx(t, thinker)},
		"published":    {runs: load(elaipRun(t, "evil", evil), elaipRun(t, "v3", "DeepSeek-V3")), opt: WriteOptions{Published: &PaperOptions{As: map[string]string{"": "GPT-4o-0806"}}}},
	}
}

// TestMarkdownGolden pins the Markdown report's bytes for each input set,
// with the folders' temporary paths cut to their names. Regenerate with
// REPORT_WRITE_GOLDEN=1 only for a deliberate change.
func TestMarkdownGolden(t *testing.T) {
	sets := markdownGoldenSets(t)
	for _, name := range []string{"runs", "flips", "tokens", "bare", "reasoning by", "published"} {
		set := sets[name]
		var buf bytes.Buffer
		if err := MarkdownWith(&buf, set.runs, set.opt); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := buf.String()
		for _, r := range set.runs {
			got = strings.ReplaceAll(got, md(filepath.Dir(r.Dir)), "DIR")
			got = strings.ReplaceAll(got, filepath.Dir(r.Dir), "DIR")
		}
		golden := "testdata/markdown-" + slug(name) + ".md"
		if os.Getenv("REPORT_WRITE_GOLDEN") != "" {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s: Markdown differs from %s", name, golden)
		}
	}
}
