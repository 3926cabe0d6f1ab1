package cliflags

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/eval/export"
)

// Export is the flag set of `paperlens export` (fixed names).
type Export struct {
	Out       string // --out: the file to write; "": standard output
	Data      string // --data: the runs' dataset where it is now
	format    string
	modes     string
	threshold float64
}

// Add declares export's flags.
func (f *Export) Add(fl *pflag.FlagSet) {
	var names []string
	for _, x := range export.Formats {
		names = append(names, string(x))
	}
	fl.StringVar(&f.format, "format", string(export.CSV), "what to write: "+strings.Join(names, ", ")+" (see above)")
	fl.StringVar(&f.Out, "out", "", "write to FILE, replaced whole and only once complete (default: standard output); a trec export of several retrieval modes writes one file per mode, FILE's name with the mode before its extension")
	fl.StringVar(&f.modes, "mode", "", "export the records of these modes only, comma-separated (default: every mode); a trec file holds one mode's retrieval")
	AddThreshold(fl, &f.threshold)
	fl.StringVar(&f.Data, "data", "", "the runs' dataset, when config.json's path no longer finds it (jsonl and qrels read the questions and gold evidence from it)")
}

// Write writes the run folders dirs as the flags ask: to stdout, or to
// --out (one file per retrieval mode for trec), saying on log each file
// written. home is the corpus home when --home was given ("" finds each
// run's where config.json records it). Parquet is binary: it is refused
// to a terminal (tty) with a word on --out.
func (f *Export) Write(stdout io.Writer, tty bool, log io.Writer, home string, dirs []string) error {
	format, err := export.ParseFormat(f.format)
	if err != nil {
		return err
	}
	opt := export.Options{Modes: SplitList(f.modes), Data: f.Data, Home: home, Log: log}
	opt.Evidence.Threshold = f.threshold
	if f.Out == "" {
		if format == export.Parquet && tty {
			return fmt.Errorf("--format parquet is binary: give --out FILE.parquet (or redirect standard output to a file)")
		}
		return export.Write(stdout, format, dirs, opt)
	}
	files, err := export.WriteFiles(f.Out, format, dirs, opt)
	for _, p := range files {
		fmt.Fprintf(log, "wrote %s\n", p)
	}
	return err
}
