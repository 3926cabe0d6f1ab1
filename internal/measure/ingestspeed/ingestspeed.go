// Package ingestspeed measures ingest against pdftotext, and isolated
// extraction against in-process extraction, in one run (paperlens measure
// ingest). Every figure is a median over interleaved rounds, so that a busy
// machine shifts them alike, and is reported as a ratio.
package ingestspeed

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/doctext/pdftext"
	"github.com/paperlens/paperlens/ingest"
)

// Options says what to measure.
type Options struct {
	Dir     string // the PDFs to ingest (*.pdf directly under it)
	Workers int    // parallel documents; 0: GOMAXPROCS
	Rounds  int    // interleaved rounds; each figure is their median
	// Self is the paperlens executable, run as "Self ingest ..." to time
	// the command as a user runs it.
	Self string
	// Isolation is how the isolated ingest starts its workers (the
	// program re-executed); nil: ingest.DefaultIsolation.
	Isolation *ingest.Isolation
}

// Result holds every figure; its JSON is paperlens measure ingest --json.
type Result struct {
	Files            int     `json:"files"`
	Pages            int     `json:"pages"`
	Workers          int     `json:"workers"`
	OursExtractSec   float64 `json:"ours_extract_seconds"`     // extraction only, one file at a time
	OursExtractPPS   float64 `json:"ours_extract_pages_per_s"` // pages per second, one core
	OursIngestSec    float64 `json:"ours_ingest_seconds"`      // whole ingest in this process (--isolate=false): extract, clean, chunk, store, all workers
	OursIngestPPS    float64 `json:"ours_ingest_pages_per_s"`
	IsolatedSec      float64 `json:"isolated_ingest_seconds"` // the same in worker processes, their start included (the default)
	IsolatedPPS      float64 `json:"isolated_ingest_pages_per_s"`
	IsolatedVsInProc float64 `json:"isolated_time_ratio_vs_in_process"` // aim ≤ 1.2
	WarmSec          float64 `json:"isolated_warm_ingest_seconds"`      // isolated, workers started beforehand: the cost per document
	WarmVsInProc     float64 `json:"isolated_warm_time_ratio_vs_in_process"`
	StartSec         float64 `json:"worker_start_seconds"` // starting the workers until each can chunk
	// The ingest command as a user runs it: a fresh process each time,
	// its own start-up included, in-process against isolated.
	CommandInProcSec   float64 `json:"command_in_process_seconds"`
	CommandIsolatedSec float64 `json:"command_isolated_seconds"`
	CommandRatio       float64 `json:"command_isolated_time_ratio_vs_in_process"` // aim ≤ 1.2
	IsolatedVsPdftext  float64 `json:"isolated_time_ratio_vs_pdftotext,omitempty"`
	Rounds             int     `json:"rounds"`                      // ingest and pdftotext times are medians over this many interleaved rounds
	PdftotextSec       float64 `json:"pdftotext_seconds,omitempty"` // one file at a time
	PdftotextPPS       float64 `json:"pdftotext_pages_per_s,omitempty"`
	MutoolSec          float64 `json:"mutool_seconds,omitempty"`
	MutoolPPS          float64 `json:"mutool_pages_per_s,omitempty"`
	IngestVsPdftotext  float64 `json:"ingest_time_ratio_vs_pdftotext,omitempty"` // ours whole ingest ÷ pdftotext; aim ≤ 3
	Tokens             int     `json:"tokens"`
	TokensPerSec       float64 `json:"tokenizer_tokens_per_s"`
}

// Run measures; see Options.
func Run(ctx context.Context, opt Options) (Result, error) {
	workers, rounds, self := opt.Workers, opt.Rounds, opt.Self
	files, err := filepath.Glob(filepath.Join(opt.Dir, "*.pdf"))
	if err != nil || len(files) == 0 {
		return Result{}, fmt.Errorf("no .pdf files in %s", opt.Dir)
	}
	sort.Strings(files)
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	r := Result{Files: len(files), Workers: workers}
	var texts []string

	t0 := time.Now()
	for _, f := range files {
		d, err := pdftext.ExtractFile(ctx, f)
		if err != nil {
			return r, fmt.Errorf("%s: %w", f, err)
		}
		r.Pages += d.Pages
		texts = append(texts, d.Text)
	}
	r.OursExtractSec = time.Since(t0).Seconds()
	r.OursExtractPPS = float64(r.Pages) / r.OursExtractSec

	havePdftotext := true
	if _, err := exec.LookPath("pdftotext"); err != nil {
		havePdftotext = false
		fmt.Fprintln(os.Stderr, "pdftotext not found: install poppler-utils for the reference figure")
	}
	if _, err := exec.LookPath("mutool"); err == nil {
		r.MutoolSec, err = timeEach(files, func(f string) *exec.Cmd { return exec.Command("mutool", "draw", "-F", "txt", "-o", "-", f) })
		if err == nil {
			r.MutoolPPS = float64(r.Pages) / r.MutoolSec
		}
	}

	r.Rounds = max(rounds, 1)
	var ref, inproc, isolated, warm, starts, cmdIn, cmdIso []float64
	for range r.Rounds {
		if havePdftotext {
			sec, err := timeEach(files, func(f string) *exec.Cmd { return exec.Command("pdftotext", f, "-") })
			if err != nil {
				return r, err
			}
			ref = append(ref, sec)
		}
		sec, err := timeIngest(files, ingest.Options{Workers: workers, Isolation: &ingest.Isolation{Off: true}})
		if err != nil {
			return r, err
		}
		inproc = append(inproc, sec)
		// The default isolation: this binary re-executed, its
		// workers started inside the timing as a real ingest does.
		if sec, err = timeIngest(files, ingest.Options{Workers: workers, Isolation: opt.Isolation}); err != nil {
			return r, err
		}
		isolated = append(isolated, sec)
		// Apart: what starting the workers costs, and what is left
		// per document once they run.
		pool, err := ingest.NewWorkerPool(opt.Isolation, workers)
		if err != nil {
			return r, err
		}
		t0 := time.Now()
		if err := pool.Warm(ctx); err != nil {
			pool.Close()
			return r, err
		}
		starts = append(starts, time.Since(t0).Seconds())
		sec, err = timeIngest(files, ingest.Options{Workers: workers, Pool: pool})
		pool.Close()
		if err != nil {
			return r, err
		}
		warm = append(warm, sec)
		for _, iso := range []string{"--isolate=false", "--isolate=true"} {
			sec, err := timeCommand(self, append([]string{"ingest", "--workers", fmt.Sprint(workers), iso}, files...))
			if err != nil {
				return r, err
			}
			if iso == "--isolate=false" {
				cmdIn = append(cmdIn, sec)
			} else {
				cmdIso = append(cmdIso, sec)
			}
		}
	}
	r.CommandInProcSec, r.CommandIsolatedSec = median(cmdIn), median(cmdIso)
	r.CommandRatio = r.CommandIsolatedSec / r.CommandInProcSec
	r.OursIngestSec, r.IsolatedSec = median(inproc), median(isolated)
	r.OursIngestPPS, r.IsolatedPPS = float64(r.Pages)/r.OursIngestSec, float64(r.Pages)/r.IsolatedSec
	r.IsolatedVsInProc = r.IsolatedSec / r.OursIngestSec
	r.WarmSec, r.StartSec = median(warm), median(starts)
	r.WarmVsInProc = r.WarmSec / r.OursIngestSec
	if havePdftotext {
		r.PdftotextSec = median(ref)
		r.PdftotextPPS = float64(r.Pages) / r.PdftotextSec
		r.IngestVsPdftotext = r.OursIngestSec / r.PdftotextSec
		r.IsolatedVsPdftext = r.IsolatedSec / r.PdftotextSec
	}

	tokens.Count("warm up") // load the BPE ranks outside the timing
	t0 = time.Now()
	counts := make([]int, len(texts))
	for i, t := range texts {
		counts[i] = tokens.Count(t)
	}
	for _, c := range counts {
		r.Tokens += c
	}
	r.TokensPerSec = float64(r.Tokens) / time.Since(t0).Seconds()

	return r, nil
}

// WriteText writes the figures as the command prints them.
func (r Result) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%d PDFs, %d pages, %d workers, GOMAXPROCS=%d\n\n", r.Files, r.Pages, r.Workers, runtime.GOMAXPROCS(0))
	fmt.Fprintf(w, "%-44s %9s %10s\n", "", "seconds", "pages/s")
	if r.PdftotextSec > 0 {
		fmt.Fprintf(w, "%-44s %9.2f %10.1f\n", "pdftotext, one file at a time (reference)", r.PdftotextSec, r.PdftotextPPS)
	}
	if r.MutoolSec > 0 {
		fmt.Fprintf(w, "%-44s %9.2f %10.1f\n", "mutool draw -F txt, one file at a time", r.MutoolSec, r.MutoolPPS)
	}
	fmt.Fprintf(w, "%-44s %9.2f %10.1f\n", "paperlens extract, one file at a time", r.OursExtractSec, r.OursExtractPPS)
	fmt.Fprintf(w, "%-44s %9.2f %10.1f\n", fmt.Sprintf("paperlens whole ingest, in process, %d workers", r.Workers), r.OursIngestSec, r.OursIngestPPS)
	fmt.Fprintf(w, "%-44s %9.2f %10.1f\n", fmt.Sprintf("paperlens whole ingest, isolated, %d workers", r.Workers), r.IsolatedSec, r.IsolatedPPS)
	fmt.Fprintf(w, "%-44s %9.2f %10.1f\n", "  the same, its workers started beforehand", r.WarmSec, float64(r.Pages)/r.WarmSec)
	fmt.Fprintf(w, "%-44s %9.2f\n", fmt.Sprintf("  starting %d workers until they can chunk", r.Workers), r.StartSec)
	fmt.Fprintf(w, "%-44s %9.2f %10.1f\n", "paperlens ingest command, --isolate=false", r.CommandInProcSec, float64(r.Pages)/r.CommandInProcSec)
	fmt.Fprintf(w, "%-44s %9.2f %10.1f\n", "paperlens ingest command, isolated (default)", r.CommandIsolatedSec, float64(r.Pages)/r.CommandIsolatedSec)
	fmt.Fprintf(w, "(ingests, commands, start-up and pdftotext: median of %d interleaved rounds)\n", r.Rounds)
	fmt.Fprintf(w, "\nisolated ingest time / in-process time (aim: ≤ 1.2×):\n")
	fmt.Fprintf(w, "  the ingest command, each in a fresh process: %.2f×\n", r.CommandRatio)
	fmt.Fprintf(w, "  in this process: %.2f× with the workers' start-up, %.2f× per document once started\n", r.IsolatedVsInProc, r.WarmVsInProc)
	if r.PdftotextSec > 0 {
		fmt.Fprintf(w, "whole ingest time / pdftotext time:     %.2f× in process, %.2f× isolated (aim: ≤ 3×)\n", r.IngestVsPdftotext, r.IsolatedVsPdftext)
		fmt.Fprintf(w, "extract-only time / pdftotext time:     %.2f×\n", r.OursExtractSec/r.PdftotextSec)
	}
	fmt.Fprintf(w, "tokenizer (cl100k_base): %d tokens, %.0f tokens/s\n", r.Tokens, r.TokensPerSec)
}

// timeIngest ingests files into a fresh temporary home and returns the
// wall time of ingest.Run.
func timeIngest(files []string, opt ingest.Options) (float64, error) {
	home, err := os.MkdirTemp("", "paperlens-measure-ingest-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(home)
	st, err := corpus.Open(home, false)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	var firstErr string
	t0 := time.Now()
	failed, err := ingest.Run(context.Background(), st, files, opt, func(r ingest.Result) {
		if r.Status == ingest.StatusError && firstErr == "" {
			firstErr = r.Source + ": " + r.Error
		}
	})
	sec := time.Since(t0).Seconds()
	if err != nil {
		return 0, err
	}
	if failed > 0 {
		return 0, fmt.Errorf("ingest failed on %d files (first: %s)", failed, firstErr)
	}
	return sec, nil
}

// timeCommand runs this program with args and a new home, and returns the
// wall time; output is discarded.
func timeCommand(self string, args []string) (float64, error) {
	home, err := os.MkdirTemp("", "paperlens-measure-ingest-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(home)
	c := exec.Command(self, append(args, "--home", home)...)
	var stderr strings.Builder
	c.Stderr = &stderr
	t0 := time.Now()
	if err := c.Run(); err != nil {
		return 0, fmt.Errorf("paperlens %s: %w: %s", strings.Join(args[:min(len(args), 3)], " "), err, strings.TrimSpace(stderr.String()))
	}
	return time.Since(t0).Seconds(), nil
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// timeEach runs one command per file, one at a time, and returns the total
// wall time; output is discarded.
func timeEach(files []string, mk func(string) *exec.Cmd) (float64, error) {
	t0 := time.Now()
	for _, f := range files {
		c := mk(f)
		if err := c.Run(); err != nil {
			return 0, fmt.Errorf("%s on %s: %w", c.Path, f, err)
		}
	}
	return time.Since(t0).Seconds(), nil
}
