package run

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/paperlens/paperlens/eval/bench"
)

// A run folder written by Run reads back through Dir: the same config,
// records and summary, and nothing else left in the folder.
func TestDirReadsWhatRunWrote(t *testing.T) {
	qs, _, err := bench.LoadElaipBench(filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := sampleConfig(t, "random", ClosedBook, Oracle)
	cfg.BaseURL = "https://user:secret@example.com/v1?key=abc"
	cfg.LogPrompts = true
	d := Dir(cfg.Out)
	if ok, err := d.HasConfig(); ok || err != nil {
		t.Fatalf("empty folder: HasConfig %v, %v", ok, err)
	}
	if _, err := d.ReadSummary(); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("empty folder: ReadSummary error %v, want one that is fs.ErrNotExist", err)
	}
	res, err := Run(context.Background(), Options{Config: cfg, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}

	names, err := os.ReadDir(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range names {
		files = append(files, e.Name())
	}
	// Atomic writes leave no temporary file behind.
	if want := []string{lockFile, configFile, PromptsFile, ResultsFile, summaryFile, summaryMarkdown}; !slices.Equal(files, want) {
		t.Errorf("run folder holds %v, want %v", files, want)
	}
	got, err := d.ReadConfig()
	if err != nil {
		t.Fatal(err)
	}
	if got.Model != "random" || !slices.Equal(got.Modes, cfg.Modes) || strings.Contains(got.BaseURL, "secret") || strings.Contains(got.BaseURL, "key=") {
		t.Errorf("config read back: model %q modes %v base URL %q", got.Model, got.Modes, got.BaseURL)
	}
	recs, err := d.Records()
	if err != nil || len(recs) != len(qs)*2*cfg.Runs {
		t.Fatalf("%d records, want %d: %v", len(recs), len(qs)*2*cfg.Runs, err)
	}
	i := slices.IndexFunc(qs, func(q bench.Question) bool { return q.ID == recs[0].QuestionID })
	msgs, err := d.Prompt(recs[0].PromptSHA256)
	if err != nil || len(msgs) != 1 || i < 0 || !strings.Contains(msgs[0].Content, qs[i].MCQ.Stem) {
		t.Errorf("prompt of %s: %v, %v", recs[0].QuestionID, msgs, err)
	}
	s, err := d.ReadSummary()
	if err != nil || s.ByMode[Oracle].N != len(qs) || s.Questions != res.Summary.Questions {
		t.Fatalf("summary read back: %+v, %v", s, err)
	}
	md, err := d.SummaryMarkdown()
	if err != nil || string(md) != Markdown(res.Summary) {
		t.Errorf("summary.md is not Markdown(summary): %v", err)
	}
	if !d.SummaryFresh() {
		t.Error("summary written after the last record reads as stale")
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(filepath.Join(cfg.Out, ResultsFile), later, later); err != nil {
		t.Fatal(err)
	}
	if d.SummaryFresh() {
		t.Error("records newer than the summary: SummaryFresh should be false")
	}
}

func TestDirLockIsExclusive(t *testing.T) {
	d := Dir(filepath.Join(t.TempDir(), "new", "run"))
	unlock, err := d.Lock()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Lock(); err == nil || !strings.Contains(err.Error(), "in use by another paperlens eval") {
		t.Errorf("second lock: %v", err)
	}
	unlock()
	again, err := d.Lock()
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	again()
}

// A summary.json cut short (a crash under the old non-atomic writer) is
// reported with what to do.
func TestDirTornSummary(t *testing.T) {
	d := Dir(t.TempDir())
	if err := d.WriteSummary(Summary{Model: "m", Modes: []string{Full}}); err != nil {
		t.Fatal(err)
	}
	b, _ := d.SummaryJSON()
	if err := os.WriteFile(filepath.Join(string(d), summaryFile), b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := d.ReadSummary(); err == nil || !strings.Contains(err.Error(), "delete it to summarise the run from results.jsonl") {
		t.Errorf("torn summary: %v", err)
	}
}
