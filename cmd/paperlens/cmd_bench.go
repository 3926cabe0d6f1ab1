package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/ingest/corpus"
	"github.com/paperlens/paperlens/ingest/pdftext"
)

func newBenchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure speed against a reference run on the same input in the same process",
		Long: `bench measures paperlens against a reference measured in the same run, and
prints the ratio. Figures from different machines are not comparable; the
ratios are.`,
	}
	cmd.AddCommand(newBenchIngestCmd())
	return cmd
}

type ingestBench struct {
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

func newBenchIngestCmd() *cobra.Command {
	var asJSON bool
	var workers, rounds int
	cmd := &cobra.Command{
		Use:   "ingest DIR",
		Short: "Pages/s of our PDF extraction and whole ingest against pdftotext (and mutool), tokens/s of the tokenizer",
		Long: `bench ingest runs, on the PDFs under DIR:
  - pdftotext (and mutool when installed) on each file, one at a time: the reference;
  - our extractor on each file, one at a time (same conditions as the reference);
  - our whole ingest (extract, clean, chunk, count tokens, store) with all
    workers, in this process (--isolate=false) and in worker processes (the
    default; starting the workers is part of the time);
  - the paperlens ingest command as a user runs it, a fresh process each
    time, with --isolate=false and with the default isolation;
  - the cl100k_base tokenizer over the extracted text.
pdftotext, the ingests and the commands run in --rounds interleaved rounds,
and each figure is the median, so that a busy machine shifts them alike. It
prints pages/s for each, the ratio of our whole ingest time to pdftotext's,
and of the isolated ingest to the in-process one: within this process (whose
in-process rounds run warm, the tokenizer and heap of earlier rounds ready,
while each isolated round starts new workers) and as commands, where each
side pays its own start.`,
		Example: "  paperlens bench ingest ../shared/corpus/pdf",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			files, err := filepath.Glob(filepath.Join(args[0], "*.pdf"))
			if err != nil || len(files) == 0 {
				return fmt.Errorf("no .pdf files in %s", args[0])
			}
			sort.Strings(files)
			if workers <= 0 {
				workers = runtime.GOMAXPROCS(0)
			}
			r := ingestBench{Files: len(files), Workers: workers}
			var texts []string

			t0 := time.Now()
			for _, f := range files {
				d, err := pdftext.ExtractFile(context.Background(), f)
				if err != nil {
					return fmt.Errorf("%s: %w", f, err)
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

			self, err := os.Executable()
			if err != nil {
				return fmt.Errorf("find this program to time the ingest command: %w", err)
			}
			r.Rounds = max(rounds, 1)
			var ref, inproc, isolated, warm, starts, cmdIn, cmdIso []float64
			for range r.Rounds {
				if havePdftotext {
					sec, err := timeEach(files, func(f string) *exec.Cmd { return exec.Command("pdftotext", f, "-") })
					if err != nil {
						return err
					}
					ref = append(ref, sec)
				}
				sec, err := timeIngest(files, ingest.Options{Workers: workers, Isolation: &ingest.Isolation{Off: true}})
				if err != nil {
					return err
				}
				inproc = append(inproc, sec)
				// The default isolation: this binary re-executed, its
				// workers started inside the timing as a real ingest does.
				if sec, err = timeIngest(files, ingest.Options{Workers: workers}); err != nil {
					return err
				}
				isolated = append(isolated, sec)
				// Apart: what starting the workers costs, and what is left
				// per document once they run.
				pool, err := ingest.NewWorkerPool(nil, workers)
				if err != nil {
					return err
				}
				t0 := time.Now()
				if err := pool.Warm(context.Background()); err != nil {
					pool.Close()
					return err
				}
				starts = append(starts, time.Since(t0).Seconds())
				sec, err = timeIngest(files, ingest.Options{Workers: workers, Pool: pool})
				pool.Close()
				if err != nil {
					return err
				}
				warm = append(warm, sec)
				for _, iso := range []string{"--isolate=false", "--isolate=true"} {
					sec, err := timeCommand(self, append([]string{"ingest", "--workers", fmt.Sprint(workers), iso}, files...))
					if err != nil {
						return err
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

			if asJSON {
				return json.NewEncoder(os.Stdout).Encode(r)
			}
			fmt.Printf("%d PDFs, %d pages, %d workers, GOMAXPROCS=%d\n\n", r.Files, r.Pages, r.Workers, runtime.GOMAXPROCS(0))
			fmt.Printf("%-44s %9s %10s\n", "", "seconds", "pages/s")
			if r.PdftotextSec > 0 {
				fmt.Printf("%-44s %9.2f %10.1f\n", "pdftotext, one file at a time (reference)", r.PdftotextSec, r.PdftotextPPS)
			}
			if r.MutoolSec > 0 {
				fmt.Printf("%-44s %9.2f %10.1f\n", "mutool draw -F txt, one file at a time", r.MutoolSec, r.MutoolPPS)
			}
			fmt.Printf("%-44s %9.2f %10.1f\n", "paperlens extract, one file at a time", r.OursExtractSec, r.OursExtractPPS)
			fmt.Printf("%-44s %9.2f %10.1f\n", fmt.Sprintf("paperlens whole ingest, in process, %d workers", r.Workers), r.OursIngestSec, r.OursIngestPPS)
			fmt.Printf("%-44s %9.2f %10.1f\n", fmt.Sprintf("paperlens whole ingest, isolated, %d workers", r.Workers), r.IsolatedSec, r.IsolatedPPS)
			fmt.Printf("%-44s %9.2f %10.1f\n", "  the same, its workers started beforehand", r.WarmSec, float64(r.Pages)/r.WarmSec)
			fmt.Printf("%-44s %9.2f\n", fmt.Sprintf("  starting %d workers until they can chunk", r.Workers), r.StartSec)
			fmt.Printf("%-44s %9.2f %10.1f\n", "paperlens ingest command, --isolate=false", r.CommandInProcSec, float64(r.Pages)/r.CommandInProcSec)
			fmt.Printf("%-44s %9.2f %10.1f\n", "paperlens ingest command, isolated (default)", r.CommandIsolatedSec, float64(r.Pages)/r.CommandIsolatedSec)
			fmt.Printf("(ingests, commands, start-up and pdftotext: median of %d interleaved rounds)\n", r.Rounds)
			fmt.Printf("\nisolated ingest time / in-process time (aim: ≤ 1.2×):\n")
			fmt.Printf("  the ingest command, each in a fresh process: %.2f×\n", r.CommandRatio)
			fmt.Printf("  in this process: %.2f× with the workers' start-up, %.2f× per document once started\n", r.IsolatedVsInProc, r.WarmVsInProc)
			if r.PdftotextSec > 0 {
				fmt.Printf("whole ingest time / pdftotext time:     %.2f× in process, %.2f× isolated (aim: ≤ 3×)\n", r.IngestVsPdftotext, r.IsolatedVsPdftext)
				fmt.Printf("extract-only time / pdftotext time:     %.2f×\n", r.OursExtractSec/r.PdftotextSec)
			}
			fmt.Printf("tokenizer (cl100k_base): %d tokens, %.0f tokens/s\n", r.Tokens, r.TokensPerSec)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the figures as one JSON object")
	cmd.Flags().IntVar(&workers, "workers", 0, "ingest workers (default: number of CPUs)")
	cmd.Flags().IntVar(&rounds, "rounds", 3, "interleaved rounds of pdftotext and both ingests; each figure is the median")
	return cmd
}

// timeIngest ingests files into a fresh temporary home and returns the
// wall time of ingest.Run.
func timeIngest(files []string, opt ingest.Options) (float64, error) {
	home, err := os.MkdirTemp("", "paperlens-bench-")
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
	home, err := os.MkdirTemp("", "paperlens-bench-")
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
