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
	Files             int     `json:"files"`
	Pages             int     `json:"pages"`
	Workers           int     `json:"workers"`
	OursExtractSec    float64 `json:"ours_extract_seconds"`     // extraction only, one file at a time
	OursExtractPPS    float64 `json:"ours_extract_pages_per_s"` // pages per second, one core
	OursIngestSec     float64 `json:"ours_ingest_seconds"`      // whole ingest: extract, clean, chunk, store, all workers
	OursIngestPPS     float64 `json:"ours_ingest_pages_per_s"`
	PdftotextSec      float64 `json:"pdftotext_seconds,omitempty"` // one file at a time
	PdftotextPPS      float64 `json:"pdftotext_pages_per_s,omitempty"`
	MutoolSec         float64 `json:"mutool_seconds,omitempty"`
	MutoolPPS         float64 `json:"mutool_pages_per_s,omitempty"`
	IngestVsPdftotext float64 `json:"ingest_time_ratio_vs_pdftotext,omitempty"` // ours whole ingest ÷ pdftotext; aim ≤ 3
	Tokens            int     `json:"tokens"`
	TokensPerSec      float64 `json:"tokenizer_tokens_per_s"`
}

func newBenchIngestCmd() *cobra.Command {
	var asJSON bool
	var workers int
	cmd := &cobra.Command{
		Use:   "ingest DIR",
		Short: "Pages/s of our PDF extraction and whole ingest against pdftotext (and mutool), tokens/s of the tokenizer",
		Long: `bench ingest runs, on the PDFs under DIR:
  - pdftotext (and mutool when installed) on each file, one at a time: the reference;
  - our extractor on each file, one at a time (same conditions as the reference);
  - our whole ingest (extract, clean, chunk, count tokens, store) with all workers;
  - the cl100k_base tokenizer over the extracted text.
It prints pages/s for each and the ratio of our whole ingest time to pdftotext's.`,
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

			if _, err := exec.LookPath("pdftotext"); err == nil {
				r.PdftotextSec, err = timeEach(files, func(f string) *exec.Cmd { return exec.Command("pdftotext", f, "-") })
				if err != nil {
					return err
				}
				r.PdftotextPPS = float64(r.Pages) / r.PdftotextSec
			} else {
				fmt.Fprintln(os.Stderr, "pdftotext not found: install poppler-utils for the reference figure")
			}
			if _, err := exec.LookPath("mutool"); err == nil {
				r.MutoolSec, err = timeEach(files, func(f string) *exec.Cmd { return exec.Command("mutool", "draw", "-F", "txt", "-o", "-", f) })
				if err == nil {
					r.MutoolPPS = float64(r.Pages) / r.MutoolSec
				}
			}

			home, err := os.MkdirTemp("", "paperlens-bench-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(home)
			st, err := corpus.Open(home, false)
			if err != nil {
				return err
			}
			t0 = time.Now()
			failed, err := ingest.Run(context.Background(), st, files, ingest.Options{Workers: workers}, func(ingest.Result) {})
			r.OursIngestSec = time.Since(t0).Seconds()
			st.Close()
			if err != nil || failed > 0 {
				return fmt.Errorf("ingest failed on %d files: %v", failed, err)
			}
			r.OursIngestPPS = float64(r.Pages) / r.OursIngestSec
			if r.PdftotextSec > 0 {
				r.IngestVsPdftotext = r.OursIngestSec / r.PdftotextSec
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
			fmt.Printf("%-44s %9.2f %10.1f\n", fmt.Sprintf("paperlens whole ingest, %d workers", r.Workers), r.OursIngestSec, r.OursIngestPPS)
			if r.PdftotextSec > 0 {
				fmt.Printf("\nwhole ingest time / pdftotext time: %.2f× (aim: ≤ 3×)\n", r.IngestVsPdftotext)
				fmt.Printf("extract-only time / pdftotext time:  %.2f×\n", r.OursExtractSec/r.PdftotextSec)
			}
			fmt.Printf("tokenizer (cl100k_base): %d tokens, %.0f tokens/s\n", r.Tokens, r.TokensPerSec)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the figures as one JSON object")
	cmd.Flags().IntVar(&workers, "workers", 0, "ingest workers (default: number of CPUs)")
	return cmd
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
