// Package startup times how much a fresh paperlens process costs
// before it does anything: `paperlens --help`, run as a new process in
// interleaved rounds with reference programs, measured by the kernel's
// accounting of the child (CPU time, peak resident memory, page faults).
//
// Every command and every extraction worker pays this start, so it is the
// floor of every ingest and the whole cost of a mistyped command (paperlens
// measure startup).
package startup

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
)

// Options says what to time.
type Options struct {
	Self    string   // this program
	Against []string // other paperlens binaries (e.g. an older build), each run with --help
	Rounds  int      // interleaved rounds; figures are quantiles over them
}

// Program is one program's figures over the rounds.
type Program struct {
	Name        string   `json:"name"`
	Args        []string `json:"args"`
	CPUMs       float64  `json:"cpu_ms"`      // median user+system CPU per run
	CPUMsP25    float64  `json:"cpu_ms_p25"`  // lower quartile
	CPUMsP75    float64  `json:"cpu_ms_p75"`  // upper quartile
	MaxRSSKiB   float64  `json:"max_rss_kib"` // median peak resident memory (0 without GNU time)
	PageFaults  float64  `json:"page_faults"` // median minor + major faults
	CPURatio    float64  `json:"cpu_ratio"`   // this program's median CPU ÷ paperlens's (paperlens: 1)
	IsReference bool     `json:"reference"`
}

// Result is the figures of paperlens first, then of each reference.
type Result struct {
	Rounds   int       `json:"rounds"`
	Programs []Program `json:"programs"`
}

type sample struct{ cpu, rss, faults []float64 }

// Run times paperlens --help, pdftotext -v when installed (the issue's
// reference: a small C program's start), and each of opt.Against.
func Run(ctx context.Context, opt Options) (Result, error) {
	if opt.Rounds < 1 {
		opt.Rounds = 50
	}
	progs := []Program{{Name: "paperlens", Args: []string{opt.Self, "--help"}}}
	if p, err := exec.LookPath("pdftotext"); err == nil {
		progs = append(progs, Program{Name: "pdftotext -v", Args: []string{p, "-v"}, IsReference: true})
	}
	for _, a := range opt.Against {
		progs = append(progs, Program{Name: a, Args: []string{a, "--help"}, IsReference: true})
	}
	// A child started by a Go program inherits the parent's peak resident
	// memory through vfork (Linux keeps the larger of the old and new
	// address space's at exec), so ru_maxrss of our own children would read
	// as this measurement's size. GNU time is a small C program whose children
	// start from its own small peak; without it memory is not reported.
	timeBin, _ := exec.LookPath("/usr/bin/time")
	tmp, err := os.MkdirTemp("", "paperlens-measure-startup-")
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(tmp)
	rssFile := filepath.Join(tmp, "rss")
	samples := make([]sample, len(progs))
	for round := 0; round < opt.Rounds; round++ {
		for i, p := range progs {
			if err := ctx.Err(); err != nil {
				return Result{}, err
			}
			c := exec.CommandContext(ctx, p.Args[0], p.Args[1:]...)
			if err := c.Run(); err != nil {
				return Result{}, fmt.Errorf("%s: %w", strings.Join(p.Args, " "), err)
			}
			ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage)
			if !ok {
				return Result{}, fmt.Errorf("%s: this system does not report a child's resource use", p.Name)
			}
			cpu := c.ProcessState.UserTime() + c.ProcessState.SystemTime()
			samples[i].cpu = append(samples[i].cpu, float64(cpu.Microseconds())/1000)
			samples[i].faults = append(samples[i].faults, float64(ru.Minflt+ru.Majflt))
			if timeBin != "" {
				kib, err := peakRSS(ctx, timeBin, rssFile, p.Args)
				if err != nil {
					return Result{}, err
				}
				samples[i].rss = append(samples[i].rss, kib)
			}
		}
	}
	for i := range progs {
		s := samples[i]
		progs[i].CPUMs, progs[i].CPUMsP25, progs[i].CPUMsP75 = quantile(s.cpu, 0.5), quantile(s.cpu, 0.25), quantile(s.cpu, 0.75)
		progs[i].MaxRSSKiB, progs[i].PageFaults = quantile(s.rss, 0.5), quantile(s.faults, 0.5)
	}
	for i := range progs {
		if progs[0].CPUMs > 0 {
			progs[i].CPURatio = progs[i].CPUMs / progs[0].CPUMs
		}
	}
	return Result{Rounds: opt.Rounds, Programs: progs}, nil
}

// peakRSS runs args under GNU time and returns the peak resident memory in
// KiB.
func peakRSS(ctx context.Context, timeBin, out string, args []string) (float64, error) {
	c := exec.CommandContext(ctx, timeBin, append([]string{"-f", "%M", "-o", out}, args...)...)
	if err := c.Run(); err != nil {
		return 0, fmt.Errorf("%s under %s: %w", strings.Join(args, " "), timeBin, err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, fmt.Errorf("%s printed no peak memory for %s", timeBin, args[0])
	}
	return strconv.ParseFloat(f[len(f)-1], 64)
}

// quantile is the nearest-rank quantile q of xs.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[int(q*float64(len(s)-1)+0.5)]
}

// WriteText prints one line a program, paperlens first.
func (r Result) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%-28s %9s %15s %9s %8s %8s\n", "program", "CPU ms", "(p25–p75)", "RSS MiB", "faults", "÷ ours")
	for _, p := range r.Programs {
		rss := "n/a"
		if p.MaxRSSKiB > 0 {
			rss = strconv.FormatFloat(p.MaxRSSKiB/1024, 'f', 1, 64)
		}
		fmt.Fprintf(w, "%-28s %9.1f %6.1f–%-8.1f %9s %8.0f %8.2f\n", trim(p.Name, 28), p.CPUMs, p.CPUMsP25, p.CPUMsP75, rss, p.PageFaults, p.CPURatio)
	}
	fmt.Fprintf(w, "(median of %d interleaved rounds; CPU is user+system time of the child, RSS its peak under /usr/bin/time)\n", r.Rounds)
}

func trim(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return "…" + string(r[len(r)-n+1:])
	}
	return s
}
