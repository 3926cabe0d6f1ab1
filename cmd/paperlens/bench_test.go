package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/internal/measure/ingestspeed"
	"github.com/paperlens/paperlens/internal/measure/startup"
)

// measure ingest measures every path in one run and reports them as JSON:
// pdftotext, our extractor, the in-process and isolated ingests (also as
// fresh ingest commands), worker start-up and the tokenizer, with ratios
// that follow from the times. Two small shared PDFs keep it quick.
func TestMeasureIngestJSON(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs every ingest path")
	}
	dir := t.TempDir()
	// Two short two-column papers of our own (testdata/groundtruth): the
	// test checks the measurement's shape, and every path it runs costs
	// time in proportion to the pages.
	for _, name := range []string{"figure-axes.pdf", "twocol-floats.pdf"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "groundtruth", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A process: measure times this binary as the ingest command.
	out, errOut, code := paperlensExec(t, "measure", "ingest", "--rounds", "1", "--workers", "2", "--json", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r ingestspeed.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	if r.Files != 2 || r.Pages < 2 || r.Rounds != 1 || r.Tokens == 0 {
		t.Errorf("counts: %+v", r)
	}
	for name, v := range map[string]float64{
		"in-process ingest": r.OursIngestSec, "isolated ingest": r.IsolatedSec, "warm isolated": r.WarmSec,
		"worker start": r.StartSec, "command in process": r.CommandInProcSec, "command isolated": r.CommandIsolatedSec,
	} {
		if v <= 0 {
			t.Errorf("%s: %v seconds", name, v)
		}
	}
	if got := r.IsolatedSec / r.OursIngestSec; r.IsolatedVsInProc != got {
		t.Errorf("isolated ratio %v, want %v", r.IsolatedVsInProc, got)
	}
	if got := r.CommandIsolatedSec / r.CommandInProcSec; r.CommandRatio != got {
		t.Errorf("command ratio %v, want %v", r.CommandRatio, got)
	}
	// The text form prints the same measurement with its aims.
	out, errOut, code = paperlensExec(t, "measure", "ingest", "--rounds", "1", dir)
	if code != 0 || !strings.Contains(out, "isolated ingest time / in-process time (aim: ≤ 1.2×)") || !strings.Contains(out, "the ingest command, each in a fresh process") {
		t.Errorf("text output (exit %d): %s %s", code, out, errOut)
	}
}

// measure startup times fresh processes by the kernel's accounting. Against
// itself (the same binary as --against) every figure is present and each
// ratio is what the medians give; a missing binary is a named error.
func TestMeasureStartupJSON(t *testing.T) {
	t.Parallel()
	// A process: measure times this binary as the command.
	out, errOut, code := paperlensExec(t, "measure", "startup", "--rounds", "3", "--against", os.Args[0], "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r startup.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	if r.Rounds != 3 || len(r.Programs) < 2 || r.Programs[0].Name != "paperlens" || r.Programs[0].CPURatio != 1 {
		t.Fatalf("programs: %+v", r)
	}
	_, err := exec.LookPath("/usr/bin/time")
	haveTime := err == nil
	last := r.Programs[len(r.Programs)-1]
	if last.Name != os.Args[0] || !last.IsReference {
		t.Errorf("the --against binary is not the last reference: %+v", last)
	}
	for _, p := range r.Programs {
		if p.CPUMs <= 0 || p.PageFaults <= 0 || (haveTime && p.MaxRSSKiB <= 0) || p.CPUMsP25 > p.CPUMs || p.CPUMs > p.CPUMsP75 {
			t.Errorf("%s: %+v", p.Name, p)
		}
		if got := p.CPUMs / r.Programs[0].CPUMs; p.CPURatio != got {
			t.Errorf("%s: ratio %v, want %v", p.Name, p.CPURatio, got)
		}
	}
	missing := filepath.Join(t.TempDir(), "paperlens-old")
	_, errOut, code = paperlens(t, "measure", "startup", "--rounds", "1", "--against", missing)
	if code == 0 || !strings.Contains(errOut, missing) {
		t.Errorf("a missing --against binary: exit %d, stderr %q", code, errOut)
	}
}
