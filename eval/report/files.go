package report

import (
	"fmt"
	"io"
	"os"
)

// Files name where paperlens report writes; an empty name is not
// written.
type Files struct{ HTML, Markdown, FrontierSVG string }

// WriteFiles writes the runs' HTML report, frontier figure and Markdown
// report to the files named, saying each one written on log.
func WriteFiles(runs []Run, opt WriteOptions, f Files, log io.Writer) error {
	for _, out := range []struct {
		path  string
		write func(io.Writer) error
	}{
		{f.HTML, func(w io.Writer) error { return HTMLWith(w, runs, opt) }},
		{f.FrontierSVG, func(w io.Writer) error { return FrontierSVG(w, runs) }},
		{f.Markdown, func(w io.Writer) error { return MarkdownWith(w, runs, opt) }},
	} {
		if out.path == "" {
			continue
		}
		if err := createFile(out.path, out.write); err != nil {
			return err
		}
		fmt.Fprintf(log, "wrote %s\n", out.path)
	}
	return nil
}

// createFile creates path and writes it with write.
func createFile(path string, write func(io.Writer) error) error {
	out, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := write(out); err != nil {
		out.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return out.Close()
}
